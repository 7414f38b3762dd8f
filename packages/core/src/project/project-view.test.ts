import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createMemoryView,
  joinRel,
  memoView,
  type ProjectView,
  walkFiles,
} from "./project-view.ts";

/** A view that counts what it is asked, over an in-memory project. */
function counted(files: Record<string, string>): { view: ProjectView; asked: string[] } {
  const inner = createMemoryView(files);
  const asked: string[] = [];
  const view: ProjectView = {
    exists: (rel) => (asked.push(`exists ${rel}`), inner.exists(rel)),
    isDirectory: (rel) => (asked.push(`isDirectory ${rel}`), inner.isDirectory(rel)),
    readText: (rel) => (asked.push(`readText ${rel}`), inner.readText(rel)),
    list: (rel) => (asked.push(`list ${rel}`), inner.list(rel)),
  };
  return { view, asked };
}

describe("memoView", () => {
  it("answers as the view underneath, asking it once per question", () => {
    const { view, asked } = counted({ "pyproject.toml": "[tool.pytest]", "src/a.py": "x = 1" });
    const memo = memoView(view);
    for (let round = 0; round < 3; round += 1) {
      expect(memo.list("")).toEqual(["pyproject.toml", "src"]);
      expect(memo.isDirectory("src")).toBe(true);
      expect(memo.exists("src/b.py")).toBe(false);
      expect(memo.readText("pyproject.toml")).toBe("[tool.pytest]");
      expect(memo.readText("missing.toml")).toBeUndefined();
    }
    expect(asked).toEqual([
      "list ",
      "isDirectory src",
      "exists src/b.py",
      "readText pyproject.toml",
      "readText missing.toml",
    ]);
  });

  it("keeps no more than 4 MiB of file text, reading the rest again", () => {
    const big = "x".repeat(3 * 1024 * 1024);
    const { view, asked } = counted({ "a.txt": big, "b.txt": big });
    const memo = memoView(view);
    for (let round = 0; round < 2; round += 1) {
      expect(memo.readText("a.txt")).toBe(big);
      expect(memo.readText("b.txt")).toBe(big);
    }
    expect(asked).toEqual(["readText a.txt", "readText b.txt", "readText b.txt"]);
  });
});

describe("memoView's remember", () => {
  it("computes an answer once per key for the view's life; a plain view has no store", () => {
    const memo = memoView(createMemoryView({ "a.txt": "x" }));
    let computed = 0;
    const answer = (): number => (computed += 1);
    expect(memo.remember?.("k", answer)).toBe(1);
    expect(memo.remember?.("k", answer)).toBe(1);
    expect(memo.remember?.("other", answer)).toBe(2);
    expect(memoView(createMemoryView({})).remember?.("k", answer)).toBe(3);
    expect(createMemoryView({}).remember).toBeUndefined();
  });
});

describe("joinRel", () => {
  // What it did before it skipped the paths that need no normalising: the same answer for any.
  const normalised = (path: string): string =>
    path
      .replace(/\\/g, "/")
      .replace(/^\.\/+/, "")
      .replace(/\/+$/, "")
      .replace(/\/{2,}/g, "/");

  it.each([
    [["src", "calc.py"], "src/calc.py"],
    [["./src/", "calc.py"], "src/calc.py"],
    [["a\\b", "c"], "a/b/c"],
    [["", ".", "a//b/"], "a/b"],
  ])("joins %j as %s", (parts, expected) => {
    expect(joinRel(...parts)).toBe(expected);
  });

  it("normalises any path as the four replacements do", () => {
    const part = fc
      .array(fc.constantFrom("a", ".", "/", "\\", "b", ""), { maxLength: 7 })
      .map((chars) => chars.join(""));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 4 }), (parts) => {
        const joined = parts.filter((p) => p !== "" && p !== ".").join("/");
        return joinRel(...parts) === normalised(joined);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("walkFiles", () => {
  const view = createMemoryView({
    "pkg/test/a.test.ts": "",
    "pkg/test/deep/b.test.ts": "",
    "pkg/test/deep/deeper/c.test.ts": "",
    "pkg/test/.hidden/d.test.ts": "",
    "pkg/test/node_modules/e.test.ts": "",
    "pkg/test/helper.ts": "",
    "pkg/test/.f.test.ts": "",
  });
  const keep = (path: string) => path.endsWith(".test.ts");

  it("keeps matching files below the start, relative to the folder, past dot and skipped folders", () => {
    const skip = new Set(["node_modules"]);
    expect(walkFiles(view, "pkg", "test", { depth: 5, files: 100, skip, keep })).toEqual([
      "test/a.test.ts",
      "test/deep/b.test.ts",
      "test/deep/deeper/c.test.ts",
    ]);
    expect(walkFiles(view, "pkg/test", "", { depth: 0, files: 100, keep })).toEqual(["a.test.ts"]);
  });

  it("stops at its depth and at its file count", () => {
    expect(walkFiles(view, "pkg", "test", { depth: 1, files: 100, keep })).toEqual([
      "test/a.test.ts",
      "test/deep/b.test.ts",
      "test/node_modules/e.test.ts",
    ]);
    expect(walkFiles(view, "pkg", "test", { depth: 5, files: 1, keep })).toHaveLength(1);
  });

  it("finds nothing from a start that is not a folder", () => {
    expect(walkFiles(view, "pkg", "test/a.test.ts", { depth: 5, files: 10, keep })).toEqual([]);
    expect(walkFiles(view, "pkg", "missing", { depth: 5, files: 10, keep })).toEqual([]);
  });
});
