import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import {
  createImportGraph,
  setFileImports,
  type ImportGraph,
} from "../../analysis/import-graph.ts";
import { GRAPH_VERSION, SHARD_SIZE } from "../graph-shards.ts";
import { readGraphView, shardedView } from "./covering.ts";
import { readShardedGraph } from "./graph-store.ts";
import { loadGraph, saveGraph, updateGraph } from "../../analysis/node/impact.ts";
import { openProject, type Project } from "../../project/node/project.ts";

let temp: TempProject | undefined;
afterEach(() => temp?.cleanup());

/**
 * A graph of three shards: a chain of modules `m<i>.py`, each importing the one before, and a
 * test of the first one at the end; plus a cycle (`a.py` ↔ `b.py`, tested by `test_a.py`).
 */
function chain(count: number): ImportGraph {
  const graph = createImportGraph();
  graph.walked = true;
  graph.pending_dirs = [];
  for (let i = 0; i < count; i += 1)
    setFileImports(graph, `src/m${i}.py`, i === 0 ? [] : [`src/m${i - 1}.py`]);
  setFileImports(graph, "tests/test_m0.py", ["src/m1.py"]);
  setFileImports(graph, "src/a.py", ["src/b.py"]);
  setFileImports(graph, "src/b.py", ["src/a.py"]);
  setFileImports(graph, "tests/test_a.py", ["src/a.py"]);
  graph.next = graph.files.length;
  return graph;
}

function stored(count: number): Project {
  temp = makeProject({ "pyproject.toml": "[project]\nname = 'x'\n" });
  const project = openProject(temp.root);
  saveGraph(project, chain(count));
  return project;
}

const shardTexts = (project: Project): Map<string, string> => {
  const dir = join(project.root, ".tailtest/graph");
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), "utf8")]));
};

describe("the sharded import graph", () => {
  it("is written as an index and a shard per 2,048 files", () => {
    const project = stored(SHARD_SIZE * 2 + 10);
    expect([...shardTexts(project).keys()].sort()).toEqual([
      "index.json",
      "shard-0.json",
      "shard-1.json",
      "shard-2.json",
    ]);
    expect(loadGraph(project, false).graph).toMatchObject({
      files: chain(SHARD_SIZE * 2 + 10).files,
      imports: chain(SHARD_SIZE * 2 + 10).imports,
      importers: chain(SHARD_SIZE * 2 + 10).importers,
    });
  });

  it("a walk up the importers reads only the shards it reaches", () => {
    const project = stored(SHARD_SIZE * 2 + 10);
    const graph = readShardedGraph(project);
    if (graph === undefined) throw new Error("no graph");
    const view = shardedView(graph);
    expect(graph.shardsRead).toBe(0);
    // The cycle and its test sit in the last shard: the walk stops where it started.
    expect(view.importers("src/a.py")).toEqual([["src/b.py", "tests/test_a.py"]]);
    expect(graph.shardsRead).toBe(1);
    expect(view.importers("src/nowhere.py")).toBeUndefined();
    // m0's test is the last file; its chain of importers runs through shard 0 only (12 hops).
    expect(view.importers("src/m0.py")?.[0]).toEqual(["src/m1.py"]);
    expect(graph.shardsRead).toBe(2);
  });

  it("an update writes only the shards whose lines changed", async () => {
    const project = stored(SHARD_SIZE * 2 + 10);
    const before = shardTexts(project);
    // m5 (shard 0) now imports m4100 (shard 2) instead of m4: shards 0 and 2 change, 1 does not.
    await updateGraph(project, (graph) => {
      setFileImports(graph, "src/m5.py", ["src/m4100.py"]);
    });
    const after = shardTexts(project);
    const changed = [...after].filter(([name, text]) => before.get(name) !== text).map(([n]) => n);
    expect(changed.sort()).toEqual(["shard-0.json", "shard-2.json"]);
    expect(readGraphView(project)?.importers("src/m4100.py")?.[0]).toEqual([
      "src/m4101.py",
      "src/m5.py",
    ]);
  });

  it("a shard that does not fit the index is not used by a reader, and moved aside by a writer", async () => {
    const project = stored(SHARD_SIZE + 10);
    const shard = join(project.root, ".tailtest/graph/shard-1.json");
    writeFileSync(
      shard,
      JSON.stringify({ version: GRAPH_VERSION, first: SHARD_SIZE, imports: "", importers: "" }),
    );
    const view = readGraphView(project);
    expect(() => view?.importers("src/a.py")).toThrow(/shard 1 cannot be used/);
    expect(loadGraph(project, false).graph.files).toEqual([]);
    await updateGraph(project, () => undefined);
    const names = readdirSync(join(project.root, ".tailtest/graph"));
    expect(names.filter((name) => name.startsWith("shard-1.json.corrupt-"))).toHaveLength(1);
  });

  it("another version's graph is built again in its place, nothing set aside", async () => {
    const project = stored(10);
    const index = join(project.root, ".tailtest/graph/index.json");
    const json = JSON.parse(readFileSync(index, "utf8")) as Record<string, unknown>;
    writeFileSync(index, JSON.stringify({ ...json, version: GRAPH_VERSION - 1 }));
    expect(readShardedGraph(project)).toBeUndefined();
    await updateGraph(project, (graph) => setFileImports(graph, "src/new.py", []));
    expect(readdirSync(join(project.root, ".tailtest/graph")).sort()).toEqual([
      "index.json",
      "shard-0.json",
    ]);
    expect(readShardedGraph(project)?.table.count).toBe(1);
  });

  it("an index that is no graph's is still set aside", async () => {
    const project = stored(10);
    writeFileSync(join(project.root, ".tailtest/graph/index.json"), '{"version":"x"}');
    await updateGraph(project, () => undefined);
    const names = readdirSync(join(project.root, ".tailtest/graph"));
    expect(names.filter((name) => name.startsWith("index.json.corrupt-"))).toHaveLength(1);
  });
});
