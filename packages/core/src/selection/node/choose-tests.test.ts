import { describe, expect, it } from "vitest";
import type { RelatedTest } from "../related.ts";
import { cutToBudget, testFileCosts, withoutAggregators } from "./choose-tests.ts";

const test = (path: string, evidence: RelatedTest["evidence"], hops = 0): RelatedTest => ({
  path,
  evidence,
  detail: "",
  hops,
});

describe("cutToBudget: the most specific tests first, the rest while the estimate fits", () => {
  const related = new Map([
    [
      "src/a.py",
      [
        test("tests/test_a.py", "name"),
        test("tests/test_b.py", "imports", 1),
        test("tests/test_far.py", "imports-via", 3),
      ],
    ],
    ["src/c.py", [test("tests/test_c_family.py", "imports-via", 2)]],
  ]);

  it("keeps each file's best test even over the budget, and names what it left out", () => {
    const { kept, leftOut } = cutToBudget(related, 1500, () => 1000);
    expect(kept.get("src/a.py")?.map((t) => t.path)).toEqual(["tests/test_a.py"]);
    expect(kept.get("src/c.py")?.map((t) => t.path)).toEqual(["tests/test_c_family.py"]);
    expect(leftOut).toEqual(["tests/test_b.py", "tests/test_far.py"]);
  });

  it("takes the rest nearest first while they fit", () => {
    const { kept, leftOut } = cutToBudget(related, 3000, () => 1000);
    expect(kept.get("src/a.py")?.map((t) => t.path)).toEqual([
      "tests/test_a.py",
      "tests/test_b.py",
    ]);
    expect(leftOut).toEqual(["tests/test_far.py"]);
  });

  it("a test shared by two files costs once", () => {
    const shared = new Map([
      ["src/x.py", [test("tests/test_x.py", "name"), test("tests/test_s.py", "imports", 1)]],
      ["src/y.py", [test("tests/test_s.py", "imports", 1)]],
    ]);
    const { leftOut } = cutToBudget(shared, 2000, () => 1000);
    expect(leftOut).toEqual([]);
  });

  it("among equally near tests, one named like its file wins the last place in the budget", () => {
    // Both importers are one hop away; `tests/test_alpha.py` sorts first by path, but the
    // splitter's own name is shared only with `tests/test_split.py`.
    const named = new Map([
      [
        "src/splitter.py",
        [
          test("tests/test_splitter_core.py", "imports", 0),
          test("tests/test_alpha.py", "imports", 1),
          test("tests/test_split.py", "imports", 1),
        ],
      ],
    ]);
    const { kept, leftOut } = cutToBudget(named, 2000, () => 1000);
    expect(kept.get("src/splitter.py")?.map((t) => t.path)).toEqual([
      "tests/test_splitter_core.py",
      "tests/test_split.py",
    ]);
    expect(leftOut).toEqual(["tests/test_alpha.py"]);
  });
});

describe("withoutAggregators: a test file that only imports selected test files is not run again", () => {
  const files: Record<string, string> = {
    "test/index.js": "/* eslint-disable */\nimport './a.js'\nimport './omission.js'\n",
    "test/omission.js": "import './omission-p.js'\nimport './omission-li.js'\n",
    "test/a.js": "import test from 'node:test'\nimport {x} from 'pkg'\n",
    "test/omission-p.js": "import test from 'node:test'\n",
    "test/own.js": "import './a.js'\nimport test from 'node:test'\ntest('own', () => {})\n",
  };
  const read = (path: string): string | undefined => files[path];
  const paths = (map: Map<string, RelatedTest[]>, file: string): string[] | undefined =>
    map.get(file)?.map((t) => t.path);

  it("drops an index whose imports are all selected, keeps one importing a test not selected", () => {
    const related = new Map([
      [
        "lib/x.js",
        [
          test("test/a.js", "imports-via", 3),
          test("test/omission-p.js", "imports-via", 3),
          test("test/index.js", "imports-via", 4),
          test("test/omission.js", "imports-via", 4),
          test("test/own.js", "imports-via", 4),
        ],
      ],
    ]);
    // test/omission.js imports test/omission-li.js, which this edit did not select; test/own.js
    // has a test of its own.
    expect(paths(withoutAggregators(related, read), "lib/x.js")).toEqual([
      "test/a.js",
      "test/omission-p.js",
      "test/omission.js",
      "test/own.js",
    ]);
  });

  it("keeps a changed aggregator itself, and Python tests untouched", () => {
    const related = new Map([
      [
        "test/index.js",
        [
          test("test/index.js", "self"),
          test("test/a.js", "imports", 1),
          test("test/omission.js", "imports", 1),
        ],
      ],
      ["src/m.py", [test("tests/test_m.py", "name")]],
    ]);
    const kept = withoutAggregators(related, read);
    expect(paths(kept, "test/index.js")).toEqual([
      "test/index.js",
      "test/a.js",
      "test/omission.js",
    ]);
    expect(paths(kept, "src/m.py")).toEqual(["tests/test_m.py"]);
  });
});

describe("testFileCosts: what earlier runs say a test file takes", () => {
  const run = (
    status: string,
    duration_ms: number,
    tests: { file: string; duration_ms?: number }[],
    test_files?: number,
  ) => ({ status, duration_ms, tests, ...(test_files === undefined ? {} : { test_files }) });

  it("shares a run's time among its files; the newest run that ended says what a file took", () => {
    const costs = testFileCosts([
      run("passed", 9_000, [{ file: "tests/a.py" }, { file: "tests/b.py" }], 3),
      run("failed", 1_000, [{ file: "tests/a.py" }]),
    ]);
    expect([costs.earlier("tests/a.py"), costs.earlier("tests/b.py")]).toEqual([1_000, 3_000]);
    expect(costs.earlier("tests/c.py")).toBeUndefined();
    // The estimate for a file no run kept is the typical share (the upper middle of the shares).
    expect(costs.estimate("tests/c.py")).toBe(3_000);
  });

  it("takes a file's own test times when they exceed its share of a large run", () => {
    const costs = testFileCosts([
      run(
        "passed",
        20_000,
        [
          { file: "tests/slow.py", duration_ms: 12_000 },
          { file: "tests/slow.py", duration_ms: 6_000 },
        ],
        100,
      ),
    ]);
    expect(costs.earlier("tests/slow.py")).toBe(18_000);
  });

  it("learns nothing of what a file takes from a run stopped or broken", () => {
    const costs = testFileCosts([
      run("passed", 2_000, [{ file: "tests/a.py" }]),
      run("error", 300_000, [{ file: "tests/a.py" }]),
    ]);
    expect(costs.earlier("tests/a.py")).toBe(2_000);
    expect(costs.estimate("tests/a.py")).toBe(300_000);
  });
});
