import { describe, expect, it } from "vitest";
import {
  createImportGraph,
  findImporters,
  graphProgress,
  packGraph,
  renderImpactLine,
  setFileImports,
  unpackGraph,
} from "./import-graph.ts";
import { GRAPH_VERSION } from "../selection/graph-shards.ts";

function graphOf(edges: Record<string, string[]>) {
  const graph = createImportGraph();
  graph.walked = true;
  graph.pending_dirs = [];
  for (const [file, targets] of Object.entries(edges)) setFileImports(graph, file, targets);
  graph.next = graph.files.length;
  return graph;
}

describe("findImporters", () => {
  it("walks back hop by hop, each file once at its shortest distance, cycles included", () => {
    const graph = graphOf({
      "a.py": ["core.py"],
      "b.py": ["core.py", "a.py"],
      "c.py": ["b.py"],
      "d.py": ["c.py"],
      "core.py": ["d.py"],
    });
    expect(findImporters(graph, "core.py", 1)).toEqual([["a.py", "b.py"]]);
    expect(findImporters(graph, "core.py", 5)).toEqual([["a.py", "b.py"], ["c.py"], ["d.py"]]);
    expect(findImporters(graph, "missing.py", 2)).toEqual([]);
  });

  it("is linear: a 20,000-file chain answers at once", () => {
    const edges: Record<string, string[]> = {};
    for (let i = 1; i < 20_000; i += 1) edges[`f${i}.ts`] = [`f${i - 1}.ts`];
    const graph = graphOf(edges);
    const started = performance.now();
    expect(findImporters(graph, "f0.ts", 3)).toEqual([["f1.ts"], ["f2.ts"], ["f3.ts"]]);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("setFileImports", () => {
  it("drops self-imports and repeats, and adds a new file as read", () => {
    const graph = graphOf({ "a.ts": ["b.ts"] });
    setFileImports(graph, "new.ts", ["a.ts", "a.ts", "new.ts"]);
    expect(graph.files).toEqual(["a.ts", "b.ts", "new.ts"]);
    expect(graph.imports[2]).toBe("0");
    expect(graph.importers[0]).toBe("2");
    // b.ts is only a target here; a new file is read as it is added, so the graph stays complete.
    expect(graphProgress(graph)).toEqual({ read: 3, total: 3, complete: true });
  });
});

describe("the packed state", () => {
  it("keeps importers right when a file's imports change", () => {
    const graph = graphOf({ "a.ts": ["b.ts", "c.ts"], "d.ts": ["b.ts"] });
    setFileImports(graph, "a.ts", ["c.ts", "d.ts"]);
    expect(findImporters(graph, "b.ts", 1)).toEqual([["d.ts"]]);
    expect(findImporters(graph, "d.ts", 1)).toEqual([["a.ts"]]);
    const packed = packGraph(graph);
    expect(packed.index).toMatchObject({ version: GRAPH_VERSION, files: "a.ts\nb.ts\nc.ts\nd.ts" });
    expect(packed.shards).toEqual([
      { version: GRAPH_VERSION, first: 0, imports: "2,3\n-\n-\n1", importers: "\n3\n0\n0" },
    ]);
    expect(unpackGraph(packed.index, packed.shards)).toMatchObject({
      files: graph.files,
      imports: graph.imports,
      importers: graph.importers,
    });
  });

  it("starts over from shards that do not fit the index", () => {
    const packed = packGraph(graphOf({ "a.ts": ["b.ts"] }));
    const torn = packed.shards.map((shard) => ({ ...shard, importers: "" }));
    expect(unpackGraph(packed.index, torn).files).toEqual([]);
    expect(unpackGraph(packed.index, []).files).toEqual([]);
  });
});

describe("renderImpactLine", () => {
  const complete = { read: 10, total: 10, complete: true };
  it.each([
    [[], complete, "Impact: no project file imports x.py"],
    [[["a.py"]], complete, "Impact: x.py is imported by a.py"],
    [
      [["a.py", "b.py", "c.py", "d.py", "e.py", "f.py", "g.py"], ["h.py"]],
      complete,
      "Impact: x.py is imported by a.py, b.py, c.py, d.py, e.py (+2 more); 1 more file imports those (up to 2 hops)",
    ],
    [
      [["a.py"]],
      { read: 3, total: 10, complete: false },
      "Impact: x.py is imported by a.py (import graph incomplete: 3 of 10 files read so far, the rest during the next edits)",
    ],
  ])("%j", (levels, progress, line) => {
    expect(renderImpactLine("x.py", levels, progress)).toBe(line);
  });
});
