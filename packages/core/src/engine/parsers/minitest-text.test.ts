import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { guessFile, parseMinitestText } from "./minitest-text.ts";

const context: ParseContext = {
  runner: "minitest",
  packageDir: "",
  packageAbs: "/tmp/tt/minitest",
};

describe("parseMinitestText", () => {
  it("reads a pass and a fail; the failure block names the file", () => {
    const run = parseMinitestText(readRunnerOutput("minitest", "pass-fail.txt"), context);
    expect(testRows(run)).toEqual([
      ["test/calc_test.rb", ["CalcTest", "test_adds_two_numbers"], "pass"],
      ["test/calc_test.rb", ["CalcTest", "test_fails_on_purpose"], "fail"],
    ]);
    expect(run.tests.every((test) => test.id.runner === "minitest")).toBe(true);
    expect(run.tests[1]?.failure).toBe("Expected: 5\n  Actual: 4");
    expect(run.tests[1]?.failure_kind).toBe("assertion");
    expect(run.errors).toEqual([]);
  });

  it("reads errors and skips; a class's file comes from any block about it", () => {
    const run = parseMinitestText(readRunnerOutput("minitest", "errors-skips.txt"), context);
    expect(testRows(run)).toEqual([
      ["test/calc_test.rb", ["CalcTest", "test_fails_on_purpose"], "fail"],
      ["test/calc_test.rb", ["CalcTest", "test_adds_two_numbers"], "pass"],
      ["test/more_test.rb", ["Calc::EdgeCaseTest", "test_raises_on_purpose"], "fail"],
      ["test/more_test.rb", ["Calc::EdgeCaseTest", "test_skipped_on_purpose"], "skip"],
      ["test/more_test.rb", ["Calc::EdgeCaseTest", "test_adds_zero"], "pass"],
    ]);
    const raised = run.tests[2];
    expect(raised?.failure).toContain("NoMethodError: undefined method `subtract'");
    expect(raised?.failure_kind).toBe("crash");
  });

  it("guesses the conventional file for a class no block mentions", () => {
    const text =
      "CalcTest#test_adds = 0.00 s = .\nMath::VectorOpsTest#test_dot = 0.01 s = .\n\n2 runs, 2 assertions, 0 failures, 0 errors, 0 skips\n";
    expect(
      parseMinitestText(text, { ...context, packageDir: "gems/calc" }).tests.map((test) => [
        test.id.file,
        test.duration_ms,
      ]),
    ).toEqual([
      ["gems/calc/test/calc_test.rb", 0],
      ["gems/calc/test/math/vector_ops_test.rb", 10],
    ]);
  });

  it("reads failures from the blocks when the run was not verbose", () => {
    const text = readRunnerOutput("minitest", "pass-fail.txt").replace(
      /^CalcTest#\S+ = .*\n/gm,
      "",
    );
    expect(testRows(parseMinitestText(text, context))).toEqual([
      ["test/calc_test.rb", ["CalcTest", "test_fails_on_purpose"], "fail"],
    ]);
  });

  it.each([
    ["load-error.txt", "test/broken_test.rb", "cannot load such file -- missing_module"],
    ["syntax-error.txt", "test/syntax_test.rb", "syntax error"],
  ])("turns %s into a collection error on %s", (name, file, message) => {
    const run = parseMinitestText(readRunnerOutput("minitest", name), context);
    expect(run.tests).toEqual([]);
    expect(run.errors).toEqual([
      { file, message: expect.stringContaining(message) as unknown, kind: "collection" },
    ]);
  });

  it("prefixes files with a non-root package folder", () => {
    const run = parseMinitestText(readRunnerOutput("minitest", "load-error.txt"), {
      ...context,
      packageDir: "gems/calc",
    });
    expect(run.errors[0]?.file).toBe("gems/calc/test/broken_test.rb");
    expect(
      parseMinitestText(readRunnerOutput("minitest", "pass-fail.txt"), {
        ...context,
        packageDir: "gems/calc",
      }).tests[1]?.id.file,
    ).toBe("gems/calc/test/calc_test.rb");
  });

  it("reports no tests and no errors for an empty run", () => {
    expect(
      parseMinitestText(
        "Run options: --seed 1\n\n# Running:\n\n0 runs, 0 assertions, 0 failures, 0 errors, 0 skips\n",
        context,
      ),
    ).toEqual({
      tests: [],
      errors: [],
    });
  });

  it.each([
    ["empty", ""],
    ["unrelated text", "hello\nworld\n"],
  ])("%s gives one crash error and never throws", (_name, text) => {
    const run = parseMinitestText(text, context);
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
  });
});

describe("guessFile", () => {
  it.each([
    ["CalcTest", "test/calc_test.rb"],
    ["TestCalc", "test/test_calc.rb"],
    ["Calc::EdgeCaseTest", "test/calc/edge_case_test.rb"],
    ["HTTPClientTest", "test/http_client_test.rb"],
  ])("%s → %s", (className, file) => {
    expect(guessFile(className)).toBe(file);
  });
});
