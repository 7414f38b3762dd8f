import { describe, expect, it } from "vitest";
import { renderApiLine, renderMissingImports } from "./api-check.ts";
import { headLines, isHelperName, renderStyleBlock } from "./test-style.ts";

describe("headLines", () => {
  it("drops leading and trailing blank lines and cuts long lines", () => {
    expect(headLines("\n\nimport x\n\nconst y = 1\n\n\n", 10)).toEqual([
      "import x",
      "",
      "const y = 1",
    ]);
    expect(headLines(`${"a".repeat(300)}\n`, 1)[0]).toHaveLength(160);
    expect(headLines("1\n2\n3\n4\n", 2)).toEqual(["1", "2"]);
  });
});

describe("isHelperName", () => {
  it.each([
    ["tests/conftest.py", true],
    ["tests/factories.py", true],
    ["test/helpers.ts", true],
    ["test/test-utils.ts", true],
    ["tests/test_billing.py", false],
    ["src/billing.py", false],
  ])("%s → %s", (path, helper) => {
    expect(isHelperName(path)).toBe(helper);
  });
});

describe("renderStyleBlock", () => {
  it("is nothing without samples, and bounded with many", () => {
    expect(renderStyleBlock([], [], false)).toBeUndefined();
    const long = Array.from({ length: 15 }, () => "x".repeat(150));
    const block = renderStyleBlock(
      Array.from({ length: 4 }, (_, i) => ({ path: `t${i}.py`, runner: "pytest", lines: long })),
      ["a", "b", "c", "d", "e", "f", "g"],
      true,
    );
    expect(block?.length).toBeLessThanOrEqual(3000);
    expect(block).toMatch(
      /^tailtest: how this project writes tests, from its newest test files \(from part of the project: the walk was cut by its time box\)/,
    );
  });
});

describe("API notes", () => {
  it("lists at most 8 names, says when names are made at run time", () => {
    expect(renderApiLine("a.py", [])).toBeUndefined();
    expect(renderApiLine("a.py", "abcdefghij".split(""), { open: true })).toBe(
      "API: a.py defines a, b, c, d, e, f, g, h (+2 more) (static parse); it also makes names at run time; tests import only what it defines",
    );
  });

  it("says a list is not complete when an export * could not be followed", () => {
    const gaps = [
      { file: "src/index.ts", specifier: "lodash" },
      { file: "src/a.ts", specifier: "./gone" },
      { file: "src/b.ts", specifier: "./deep" },
    ];
    expect(renderApiLine("src/index.ts", ["x"], { unfollowed: gaps.slice(0, 1) })).toBe(
      'API: src/index.ts defines x (static parse); not complete: the names of export * from "lodash" could not be followed; tests import only what it defines',
    );
    expect(renderApiLine("src/index.ts", [], { unfollowed: gaps })).toBe(
      'API: src/index.ts: no names listed (static parse); the names of export * from "lodash", "./gone" (in src/a.ts) (+1 more) could not be followed, so what it defines is not known',
    );
  });

  it("keeps at most three misses and counts the rest", () => {
    const miss = { test: "t.py", source: "s.py", missing: ["x", "y"], defined: [] };
    const lines = renderMissingImports([miss, miss, miss, miss, miss]);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      "API check: t.py imports names x, y from s.py, which does not define them (it defines: nothing public); fix the test or the source",
    );
    expect(lines[3]).toBe("API check: 2 more test imports name missing things");
  });
});
