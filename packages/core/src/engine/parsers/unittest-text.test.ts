import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { parseUnittestText } from "./unittest-text.ts";

const context: ParseContext = {
  runner: "unittest",
  packageDir: "",
  packageAbs: "/tmp/tt/unittest",
};

describe("parseUnittestText", () => {
  it("reads a pass and a fail (Python 3.11 names) with the traceback", () => {
    const run = parseUnittestText(readRunnerOutput("unittest", "pass-fail.txt"), context);
    expect(testRows(run)).toEqual([
      ["tests/test_calc.py", ["TestCalc", "test_adds_two_numbers"], "pass"],
      ["tests/test_calc.py", ["TestCalc", "test_fails_on_purpose"], "fail"],
    ]);
    expect(run.tests.every((test) => test.id.runner === "unittest")).toBe(true);
    expect(run.tests[1]?.failure).toMatch(
      /^Traceback \(most recent call last\):\n[\s\S]*AssertionError: 4 != 5$/,
    );
    expect(run.tests[1]?.failure_kind).toBe("assertion");
    expect(run.errors).toEqual([]);
  });

  it("counts a doctest added by load_tests against the test file that ran it, report whole", () => {
    const files = ["tests/test_calc.py", "tests/test_later.py"];
    const run = parseUnittestText(readRunnerOutput("unittest", "doctest.txt"), {
      ...context,
      packageAbs: "/tmp/tt/unittest-doctest",
      files,
    });
    expect(testRows(run)).toEqual([
      ["tests/test_calc.py", ["TestCalc", "test_adds_two_numbers"], "pass"],
      ["tests/test_calc.py", ["TestCalc", "test_fails_on_purpose"], "fail"],
      ["tests/test_calc.py", ["calc.Counter.bump"], "pass"],
      ["tests/test_calc.py", ["calc.add"], "pass"],
      ["tests/test_calc.py", ["calc.double"], "fail"],
      ["tests/test_later.py", ["TestLater", "test_adds_zero"], "pass"],
    ]);
    const double = run.tests.find((test) => test.id.segments[0] === "calc.double");
    // The doctest's own report (below its dashes), not doctest's traceback: what was expected,
    // what came, then where.
    expect(double?.failure).toBe(
      'Failed example:\n    double(2)\nExpected:\n    5\nGot:\n    4\nFile "/tmp/tt/unittest-doctest/calc.py", line 13, in calc.double',
    );
    expect(run.errors).toEqual([]);
  });

  it("puts doctests before any ordinary test in the next test file, or the only file run", () => {
    const text = readRunnerOutput("unittest", "doctest.txt");
    const lines = text.split("\n");
    // The doctests first (a load_tests that adds them before the module's own tests).
    const reordered = [...lines.slice(2, 8), ...lines.slice(0, 2), ...lines.slice(8)].join("\n");
    const rows = testRows(parseUnittestText(reordered, { ...context, files: [] }));
    expect(rows.filter(([, segments]) => segments.length === 1).map(([file]) => file)).toEqual([
      "tests/test_calc.py",
      "tests/test_calc.py",
      "tests/test_calc.py",
    ]);
    const alone = lines.filter((line) => !line.startsWith("test_")).join("\n");
    const single = parseUnittestText(alone, { ...context, files: ["tests/test_calc.py"] });
    expect(new Set(single.tests.map((test) => test.id.file))).toEqual(
      new Set(["tests/test_calc.py"]),
    );
  });

  it("reads a class a function builds (`make.<locals>.TestX`), one per table of cases", () => {
    const text = [
      "test_adds (tests.test_calc.create_testcase.<locals>.TestCalc.test_adds) ... ok",
      "test_adds (tests.test_calc.create_testcase.<locals>.TestCalc.test_adds) ... FAIL",
      "",
      "======================================================================",
      "FAIL: test_adds (tests.test_calc.create_testcase.<locals>.TestCalc.test_adds)",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/tmp/tt/unittest/tests/test_calc.py", line 7, in test_adds',
      "    self.assertEqual(a + a, b)",
      "AssertionError: 4 != 5",
      "",
      "----------------------------------------------------------------------",
      "Ran 2 tests in 0.001s",
      "",
      "FAILED (failures=1)",
    ].join("\n");
    const run = parseUnittestText(text, context);
    expect(testRows(run)).toEqual([
      ["tests/test_calc.py", ["create_testcase.<locals>.TestCalc", "test_adds[1]"], "pass"],
      ["tests/test_calc.py", ["create_testcase.<locals>.TestCalc", "test_adds[2]"], "fail"],
    ]);
    expect(run.tests[0]?.failure).toBeUndefined();
    expect(run.tests[1]?.failure).toMatch(/AssertionError: 4 != 5$/);
    expect(run.errors).toEqual([]);
    const older = text.replace(/<locals>\.TestCalc\.test_adds\)/g, "<locals>.TestCalc)");
    expect(testRows(parseUnittestText(older, context))).toEqual(testRows(run));
  });

  it("counts each failing copy of a namesake test, its traceback in run order", () => {
    // isodate: one function builds a TestDate per table of cases; three of them fail, one errs.
    const name =
      "test_parse (isodate.tests.test_date.create_testcase.<locals>.TestDate.test_parse)";
    const block = (kind: string, message: string) => [
      "======================================================================",
      `${kind}: ${name.replace(/^test_parse /, "test_parse ")}`,
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      `${kind === "ERROR" ? "ValueError" : "AssertionError"}: ${message}`,
      "",
    ];
    const text = [
      `${name} ... FAIL`,
      `${name} ... ok`,
      `${name} ... ERROR`,
      `${name} ... FAIL`,
      "",
      ...block("ERROR", "third"),
      ...block("FAIL", "first"),
      ...block("FAIL", "fourth"),
      "----------------------------------------------------------------------",
      "Ran 4 tests in 0.001s",
      "",
      "FAILED (failures=2, errors=1)",
    ].join("\n");
    const run = parseUnittestText(text, context);
    expect(run.tests.map((test) => [test.id.segments[1], test.status, test.failure])).toEqual([
      ["test_parse[1]", "fail", expect.stringMatching(/first$/)],
      ["test_parse[2]", "pass", undefined],
      ["test_parse[3]", "fail", expect.stringMatching(/third$/)],
      ["test_parse[4]", "fail", expect.stringMatching(/fourth$/)],
    ]);
    expect(run.tests.filter((test) => test.status === "fail")).toHaveLength(3);
  });

  it("gives a namesake's failing subtests' blocks to the copy they ran in", () => {
    const name = "test_a (tests.test_s.make.<locals>.TestX.test_a)";
    const block = (params: string, message: string) => [
      "======================================================================",
      `FAIL: ${name} ${params}`,
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      `AssertionError: ${message}`,
      "",
    ];
    const text = [
      `${name} ... `,
      `  ${name} (i=1) ... FAIL`,
      `${name} ... `,
      `  ${name} (i=0) ... FAIL`,
      `  ${name} (i=1) ... FAIL`,
      "",
      ...block("(i=1)", "1 != 0"),
      ...block("(i=0)", "0 != 5"),
      ...block("(i=1)", "1 != 5"),
      "----------------------------------------------------------------------",
      "Ran 2 tests in 0.001s",
      "",
      "FAILED (failures=3)",
    ].join("\n");
    const run = parseUnittestText(text, context);
    expect(run.tests.map((test) => [test.id.segments[1], test.status])).toEqual([
      ["test_a[1]", "fail"],
      ["test_a[2]", "fail"],
    ]);
    expect(run.tests[0]?.failure).toMatch(/1 != 0$/);
    expect(run.tests[1]?.failure).toMatch(/0 != 5\n\n[\s\S]*1 != 5$/);
  });

  it("names files from the top-level folder a discovery imported them from (`-t src`)", () => {
    const text = readRunnerOutput("unittest", "pass-fail.txt").replaceAll(
      "tests.test_calc.",
      "calc.tests.test_calc.",
    );
    const run = parseUnittestText(text, { ...context, namesFrom: "src" });
    expect(testRows(run).map(([file]) => file)).toEqual([
      "src/calc/tests/test_calc.py",
      "src/calc/tests/test_calc.py",
    ]);
  });

  it("reads the pre-3.11 name format", () => {
    const text = readRunnerOutput("unittest", "pass-fail.txt").replace(
      / \((tests\.test_calc\.TestCalc)\.test_\w+\)/g,
      " ($1)",
    );
    expect(text).toContain("test_adds_two_numbers (tests.test_calc.TestCalc) ... ok");
    expect(testRows(parseUnittestText(text, context))).toEqual([
      ["tests/test_calc.py", ["TestCalc", "test_adds_two_numbers"], "pass"],
      ["tests/test_calc.py", ["TestCalc", "test_fails_on_purpose"], "fail"],
    ]);
  });

  it("reads errors, skips, expected failures, subtests and docstrings; an import failure is a collection error", () => {
    const run = parseUnittestText(readRunnerOutput("unittest", "import-error.txt"), context);
    expect(testRows(run)).toEqual([
      ["tests/test_calc.py", ["TestCalc", "test_adds_two_numbers"], "pass"],
      ["tests/test_calc.py", ["TestCalc", "test_fails_on_purpose"], "fail"],
      ["tests/test_more.py", ["TestMore", "test_expected_failure"], "pass"],
      ["tests/test_more.py", ["TestMore", "test_raises_on_purpose"], "fail"],
      ["tests/test_more.py", ["TestMore", "test_skipped"], "skip"],
      ["tests/test_more.py", ["TestMore", "test_subtests"], "fail"],
      ["tests/test_more.py", ["TestMore", "test_with_docstring"], "pass"],
    ]);
    const byName = (name: string) => run.tests.find((test) => test.id.segments[1] === name);
    expect(byName("test_raises_on_purpose")?.failure_kind).toBe("crash");
    expect(byName("test_raises_on_purpose")?.failure).toContain(
      "TypeError: unsupported operand type(s)",
    );
    expect(byName("test_subtests")?.failure).toContain("AssertionError: 4 != 5");
    expect(run.errors).toEqual([
      {
        file: "tests/test_broken.py",
        message: expect.stringContaining(
          "ImportError: cannot import name 'subtract' from 'calc'",
        ) as unknown,
        kind: "collection",
      },
    ]);
  });

  it("names the module when the traceback does not, and prefixes a non-root package folder", () => {
    const text = [
      "test_broken (unittest.loader._FailedTest) ... ERROR",
      "",
      "======================================================================",
      "ERROR: test_broken (unittest.loader._FailedTest)",
      "----------------------------------------------------------------------",
      "ImportError: Failed to import test module: tests.test_broken",
      "ModuleNotFoundError: No module named 'nowhere'",
      "",
      "----------------------------------------------------------------------",
      "Ran 1 test in 0.000s",
      "",
      "FAILED (errors=1)",
    ].join("\n");
    expect(parseUnittestText(text, { ...context, packageDir: "py" })).toEqual({
      tests: [],
      errors: [
        {
          file: "py/tests/test_broken.py",
          message:
            "ImportError: Failed to import test module: tests.test_broken\nModuleNotFoundError: No module named 'nowhere'",
          kind: "collection",
        },
      ],
    });
  });

  it("turns a failing setUpClass into a collection error on its module", () => {
    const text = [
      "setUpClass (tests.test_calc.TestCalc) ... ERROR",
      "",
      "======================================================================",
      "ERROR: setUpClass (tests.test_calc.TestCalc)",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      "RuntimeError: no database",
      "",
      "----------------------------------------------------------------------",
      "Ran 0 tests in 0.000s",
    ].join("\n");
    expect(parseUnittestText(text, context).errors).toEqual([
      {
        file: "tests/test_calc.py",
        message: "Traceback (most recent call last):\nRuntimeError: no database",
        kind: "collection",
      },
    ]);
  });

  it("reports no tests and no errors when nothing ran", () => {
    expect(
      parseUnittestText(
        "\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n",
        context,
      ),
    ).toEqual({
      tests: [],
      errors: [],
    });
  });

  it.each([
    ["empty", ""],
    ["pytest output", "===== test session starts =====\ncollected 0 items\n"],
  ])("%s gives one crash error and never throws", (_name, text) => {
    const run = parseUnittestText(text, context);
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
  });
});
