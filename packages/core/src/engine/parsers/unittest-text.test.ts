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
