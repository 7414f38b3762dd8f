import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { parseUvuText } from "./uvu-text.ts";

const context = (files: string[], packageDir = ""): ParseContext => ({
  runner: "uvu",
  packageDir,
  packageAbs: "/tmp/tt/uvu",
  files,
});

describe("parseUvuText", () => {
  it("names the failing test from its block and keeps a pass as its place in the suite", () => {
    const run = parseUvuText(readRunnerOutput("uvu", "pass-fail.txt"), context(["test/calc.js"]));
    expect(testRows(run)).toEqual([
      ["test/calc.js", ["#1"], "pass"],
      ["test/calc.js", ["fails on purpose"], "fail"],
    ]);
    expect(run.tests[1]?.failure).toMatch(/^Expected values to be strictly equal:/);
    expect(run.tests[1]?.failure).toContain("--4    (Actual)");
    expect(run.tests[1]?.failure_kind).toBe("assertion");
    expect(run.errors).toEqual([]);
  });

  it("reads named suites file by file, matching a header to the files the run was given", () => {
    const run = parseUvuText(
      readRunnerOutput("uvu", "suites.txt"),
      context(["pkg/test/calc.js", "pkg/test/suites.js"], "pkg"),
    );
    expect(testRows(run)).toEqual([
      ["pkg/test/calc.js", ["#1"], "pass"],
      ["pkg/test/calc.js", ["fails on purpose"], "fail"],
      ["pkg/test/suites.js", ["add", "#1"], "pass"],
      ["pkg/test/suites.js", ["add", "fails on purpose"], "fail"],
      ["pkg/test/suites.js", ["zero", "#1"], "pass"],
    ]);
    expect(run.tests[3]?.failure).toContain('++··"sum":·5');
    expect(run.tests[3]?.failure).not.toContain("zero");
  });

  it("reads a header that is none of the given files as package-relative", () => {
    const text = readRunnerOutput("uvu", "pass-fail.txt").replace(/^calc\.js$/m, "test/calc.js");
    expect(testRows(parseUvuText(text, context([], "pkg"))).map((row) => row[0])).toEqual([
      "pkg/test/calc.js",
      "pkg/test/calc.js",
    ]);
  });

  it("reads a whole-suite run's headers from the folder uvu was given", () => {
    const run = parseUvuText(readRunnerOutput("uvu", "pass-fail.txt"), {
      ...context([], "pkg"),
      namesFrom: "test",
    });
    expect(testRows(run).map((row) => row[0])).toEqual(["pkg/test/calc.js", "pkg/test/calc.js"]);
  });

  it("calls a run that stopped before its summary a collection error of the file named", () => {
    const run = parseUvuText(
      readRunnerOutput("uvu", "import-error.txt"),
      context(["test/broken.js", "test/calc.js"]),
    );
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]).toMatchObject({ file: "test/broken.js", kind: "collection" });
    expect(run.errors[0]?.message).toMatch(/^Error \[ERR_MODULE_NOT_FOUND\]/);
  });

  it("names no file for a load error whose stack shows only source modules", () => {
    // uvu imports every test file first; a test calling the code at its top level can throw
    // ten frames deep in a source module (index.js), which is not a test to re-run.
    const text = readRunnerOutput("uvu", "load-error-in-source.txt");
    const many = parseUvuText(text, context(["test/main.test.js", "test/parse.test.js"]));
    expect(many.errors).toHaveLength(1);
    expect(many.errors[0]?.file).toBeUndefined();
    expect(many.errors[0]?.message).toMatch(/^TypeError: Cannot read properties of null/);
    expect(parseUvuText(text, context(["test/main.test.js"])).errors[0]?.file).toBe(
      "test/main.test.js",
    );
    const whole = parseUvuText(text, { ...context([]), namesFrom: "test" });
    expect(whole.errors[0]?.file).toBeUndefined();
  });

  it("reads a run that matched no file as no tests, and empty output as a crash", () => {
    expect(parseUvuText(readRunnerOutput("uvu", "no-tests.txt"), context([]))).toEqual({
      tests: [],
      errors: [],
    });
    expect(parseUvuText("", context([])).errors[0]?.kind).toBe("crash");
  });

  it("reads coloured output (uvu colours by default)", () => {
    const text = readRunnerOutput("uvu", "suites.txt")
      .replace(" add ", "\u001b[47m\u001b[1m add \u001b[22m\u001b[49m")
      .replace(/FAIL/g, "\u001b[41m FAIL \u001b[49m");
    expect(parseUvuText(text, context(["test/calc.js", "test/suites.js"])).tests).toHaveLength(5);
  });
});
