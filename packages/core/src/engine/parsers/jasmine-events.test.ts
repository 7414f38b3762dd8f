import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { parseJasmineEvents } from "./jasmine-events.ts";

const context = (files: string[] = [], packageDir = ""): ParseContext => ({
  runner: "jasmine",
  packageDir,
  packageAbs: "/tmp/tt/jasmine",
  files,
});

describe("parseJasmineEvents", () => {
  it("reads every spec by its file and describe path, a failure with its message and stack", () => {
    const run = parseJasmineEvents(readRunnerOutput("jasmine", "pass-fail.txt"), context());
    expect(testRows(run)).toEqual([
      ["spec/calc.spec.js", ["calc", "fails on purpose"], "fail"],
      ["spec/calc.spec.js", ["calc", "adds two numbers"], "pass"],
    ]);
    expect(run.tests[0]?.failure).toMatch(/^Expected 4 to be 5\.\n {4}at <Jasmine>/);
    expect(run.tests[0]?.failure_kind).toBe("assertion");
    expect(run.errors).toEqual([]);
  });

  it("keeps nested describes, a pending spec as skipped, a broken afterAll as its suite's error, and ignores the spec's own logging", () => {
    const run = parseJasmineEvents(readRunnerOutput("jasmine", "nested.txt"), context([], "pkg"));
    expect(testRows(run)).toEqual([
      ["pkg/spec/nested.spec.js", ["calc", "add", "adds zero"], "pass"],
      ["pkg/spec/nested.spec.js", ["calc", "add", "is pending"], "skip"],
      ["pkg/spec/nested.spec.js", ["calc", "teardown", "runs before a broken afterAll"], "pass"],
    ]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]).toMatchObject({ file: "pkg/spec/nested.spec.js", kind: "crash" });
    expect(run.errors[0]?.message).toMatch(/^calc > teardown: Error: afterAll broke/);
  });

  it("calls a run that stopped before its report a collection error of the spec file it names", () => {
    const run = parseJasmineEvents(
      readRunnerOutput("jasmine", "import-error.txt"),
      context(["spec/broken.spec.js", "spec/calc.spec.js"]),
    );
    expect(run.tests).toEqual([]);
    expect(run.errors).toEqual([
      expect.objectContaining({ file: "spec/broken.spec.js", kind: "collection" }),
    ]);
    expect(run.errors[0]?.message).toMatch(/^Error \[ERR_MODULE_NOT_FOUND\]/);
  });

  it("reads no output as a crash and skips marked lines that are not its events", () => {
    expect(parseJasmineEvents("", context()).errors[0]?.kind).toBe("crash");
    const text = `tailtest-jasmine {"event":"other"}\ntailtest-jasmine not json\n${readRunnerOutput("jasmine", "pass-fail.txt")}`;
    expect(parseJasmineEvents(text, context()).tests).toHaveLength(2);
  });
});
