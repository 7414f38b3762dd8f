import { describe, expect, it } from "vitest";
import {
  FileTable,
  SortedFileTable,
  SHARD_SIZE,
  shardCount,
  shardLines,
  shardOf,
  splitShards,
} from "./graph-shards.ts";

describe("FileTable", () => {
  const table = new FileTable("src/a.py\nsrc/b.py\ntests/test_a.py\nsrc/pkg/a.py");

  it.each([
    ["src/a.py", 0],
    ["src/b.py", 1],
    ["tests/test_a.py", 2],
    ["src/pkg/a.py", 3],
    ["a.py", undefined],
    ["src/a", undefined],
    ["", undefined],
    ["src/a.py\nsrc/b.py", undefined],
  ])("finds the id of %j: %j", (path, id) => {
    expect(table.idOf(path)).toBe(id);
  });

  it.each([
    [0, "src/a.py"],
    [3, "src/pkg/a.py"],
    [4, undefined],
    [-1, undefined],
    [1.5, undefined],
  ])("finds the path of id %j: %j", (id, path) => {
    expect(table.path(id)).toBe(path);
  });

  it.each([
    [/a/i, ["src/a.py", "tests/test_a.py", "src/pkg/a.py"]],
    [/TEST/i, ["tests/test_a.py"]],
    [/TEST/, []],
    [/pkg\//, ["src/pkg/a.py"]],
    [/(?!)/, []],
  ])("lists the lines %s matches", (pattern, found) => {
    expect(table.matching(pattern)).toEqual(found);
  });

  it("counts an empty list as none and a one-line list as one", () => {
    expect(new FileTable("").count).toBe(0);
    expect(new FileTable("").all()).toEqual([]);
    expect(new FileTable("x.py").count).toBe(1);
    expect(new FileTable("x.py").idOf("x.py")).toBe(0);
  });
});

describe("SortedFileTable", () => {
  const paths = [
    "src/b.py",
    "src/a.py",
    "tests/test_a.py",
    "src/pkg/a.py",
    "src/a.py",
    "src-x/c.py",
  ];
  const table = SortedFileTable.of(paths.join("\n"));

  it("sorts and drops repeats as JavaScript orders strings", () => {
    expect(table.all()).toEqual([...new Set(paths)].sort());
    expect(table.count).toBe(5);
  });

  it("keeps a sorted list as it is", () => {
    expect(SortedFileTable.of("a.py\nb.py").all()).toEqual(["a.py", "b.py"]);
    expect(SortedFileTable.of("").all()).toEqual([]);
    expect(SortedFileTable.of("").has("a.py")).toBe(false);
  });

  it.each([
    ["src/a.py", true],
    ["src/pkg/a.py", true],
    ["tests/test_a.py", true],
    ["src-x/c.py", true],
    ["src/a", false],
    ["src/a.py2", false],
    ["src", false],
    ["a.py", false],
    ["zz.py", false],
    ["", false],
  ])("has(%s) is %s", (path, held) => {
    expect(table.has(path)).toBe(held);
  });

  it("lists a folder's files and below, not a folder that only starts the same", () => {
    expect(table.under("src")).toEqual(["src/a.py", "src/b.py", "src/pkg/a.py"]);
    expect(table.under("src/pkg")).toEqual(["src/pkg/a.py"]);
    expect(table.under("tests/test_a.py")).toEqual([]);
    expect(table.under("nope")).toEqual([]);
  });

  it("orders non-ASCII paths as the < operator does", () => {
    const odd = ["é.py", "z.py", "a.py", "Z.py", "ü/x.py"];
    expect(SortedFileTable.of(odd.join("\n")).all()).toEqual([...odd].sort());
  });
});

describe("shards", () => {
  const count = SHARD_SIZE * 2 + 3;
  const imports = Array.from({ length: count }, (_, id) => (id === 0 ? "" : String(id - 1)));
  const importers = Array.from({ length: count }, (_, id) => (id === count - 1 ? "" : `${id + 1}`));

  it.each([
    [0, 0],
    [SHARD_SIZE - 1, 0],
    [SHARD_SIZE, 1],
    [count - 1, 2],
  ])("id %i is in shard %i", (id, shard) => {
    expect(shardOf(id)).toBe(shard);
  });

  it("splits whole tables into shards and reads each back", () => {
    const shards = splitShards({ imports, importers });
    expect(shards).toHaveLength(shardCount(count));
    expect(shards.map((shard) => shard.first)).toEqual([0, SHARD_SIZE, SHARD_SIZE * 2]);
    const joined = shards.map((shard, at) => shardLines(shard, at, count));
    expect(joined.flatMap((found) => found?.imports ?? [])).toEqual(imports);
    expect(joined.flatMap((found) => found?.importers ?? [])).toEqual(importers);
  });

  it.each([
    ["a shard in the wrong place", 1, count],
    ["an index with more files than the shard holds", 2, count + 1],
    ["an index with fewer files", 2, count - 1],
  ])("refuses %s", (_, at, files) => {
    const last = splitShards({ imports, importers })[2];
    if (last === undefined) throw new Error("no third shard");
    expect(shardLines(last, at, files)).toBeUndefined();
  });

  it.each([1, SHARD_SIZE + 1])(
    "reads back a last shard of one file with no imports (%i files)",
    (files) => {
      const empty = Array.from({ length: files }, () => "");
      const shards = splitShards({ imports: empty, importers: empty });
      const last = shards.at(-1);
      if (last === undefined) throw new Error("no shard");
      expect(shardLines(last, shards.length - 1, files)).toEqual({
        imports: [""],
        importers: [""],
      });
    },
  );

  it("has no shard for no file", () => {
    expect(splitShards({ imports: [], importers: [] })).toEqual([]);
    expect(shardCount(0)).toBe(0);
  });
});
