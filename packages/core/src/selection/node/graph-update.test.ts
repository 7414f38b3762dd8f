import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createImportGraph, setFileImports } from "../../analysis/import-graph.ts";
import { loadJsLexers } from "../../analysis/js-module.ts";
import { loadGraph, saveGraph } from "../../analysis/node/impact.ts";
import { SHARD_SIZE } from "../graph-shards.ts";
import { readGraphView } from "./covering.ts";
import { selectRelated } from "./graph-selection.ts";
import { openProject, type Project } from "../../project/node/project.ts";

let temp: TempProject | undefined;
afterEach(() => temp?.cleanup());
beforeAll(async () => {
  await loadJsLexers();
});

/**
 * A complete graph of four shards on disk: a chain `src/m<i>.py` (each imports the one before)
 * and a test of m0 at the end. Only the files a test edits exist as files: the graph is what the
 * end of a turn reads.
 */
function stored(): Project {
  temp = makeProject({
    "pyproject.toml": "[project]\nname = 'x'\n",
    "tests/test_m0.py": "from src.m0 import x\n",
  });
  const graph = createImportGraph();
  graph.walked = true;
  graph.pending_dirs = [];
  const count = SHARD_SIZE * 3 + 10;
  for (let i = 0; i < count; i += 1)
    setFileImports(graph, `src/m${i}.py`, i === 0 ? [] : [`src/m${i - 1}.py`]);
  setFileImports(graph, "tests/test_m0.py", ["src/m0.py"]);
  graph.next = graph.files.length;
  const project = openProject(temp.root);
  saveGraph(project, graph);
  return project;
}

const NAMES = ["index.json", "shard-0.json", "shard-1.json", "shard-2.json", "shard-3.json"];

/** Each state file's inode, modification time and text. */
function files(project: Project): Map<string, string> {
  return new Map(
    NAMES.map((name) => {
      const path = join(project.root, ".tailtest/graph", name);
      const stat = statSync(path, { bigint: true });
      return [name, `${stat.ino}:${stat.mtimeNs}:${readFileSync(path, "utf8")}`];
    }),
  );
}

const rewritten = (before: Map<string, string>, after: Map<string, string>): string[] =>
  NAMES.filter((name) => before.get(name) !== after.get(name));

/**
 * Shards the update must not read, made unusable: reading one would make the update fall back
 * to the whole graph, which moves it aside and builds the graph again.
 */
function poison(project: Project, names: readonly string[]): void {
  for (const name of names) writeFileSync(join(project.root, ".tailtest/graph", name), "{ torn");
}

describe("a turn that changes an import updates only the shards its edges live in", () => {
  it("a changed import: the shards of the file, its old and its new target", async () => {
    const project = stored();
    // m10 (shard 0) now imports m3000 (shard 1) instead of m9 (shard 0).
    temp?.write("src/m10.py", "from .m3000 import x\n");
    poison(project, ["shard-2.json", "shard-3.json"]);
    const before = files(project);
    const selection = await selectRelated(project, ["src/m10.py"], { write: true });
    expect(rewritten(before, files(project))).toEqual(["shard-0.json", "shard-1.json"]);
    expect(selection.complete).toBe(true);
    const view = readGraphView(project);
    expect(view?.importers("src/m3000.py")?.[0]).toEqual(["src/m10.py", "src/m3001.py"]);
    expect(view?.importers("src/m9.py")).toEqual([]);
  });

  it("a new file: the last shard, where it joins, and its target's; then the index", async () => {
    const project = stored();
    temp?.write("src/extra.py", "from .m3000 import x\n");
    poison(project, ["shard-0.json", "shard-2.json"]);
    const before = files(project);
    await selectRelated(project, ["src/extra.py"], { write: true });
    expect(rewritten(before, files(project))).toEqual([
      "index.json",
      "shard-1.json",
      "shard-3.json",
    ]);
    expect(readGraphView(project)?.importers("src/m3000.py")?.[0]).toEqual([
      "src/extra.py",
      "src/m3001.py",
    ]);
  });

  it("a shard it needs that cannot be used: the graph is updated whole and rebuilt", async () => {
    const project = stored();
    temp?.write("src/m10.py", "from .m3000 import x\n");
    poison(project, ["shard-1.json"]);
    await selectRelated(project, ["src/m10.py"], { write: true, graphMs: 0 });
    // The torn shard was set aside and a fresh build begun in its place.
    expect(loadGraph(project, false).graph.files.length).toBeLessThan(SHARD_SIZE);
  });
});
