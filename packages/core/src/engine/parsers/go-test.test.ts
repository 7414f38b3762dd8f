import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { parseGoTestJson } from "./go-test.ts";

const context: ParseContext = { runner: "go", packageDir: "", packageAbs: "/tmp/tt/go" };

describe("parseGoTestJson", () => {
  it("reads a pass and a fail; a single package's tests belong to the package folder", () => {
    const run = parseGoTestJson(readRunnerOutput("go", "pass-fail.ndjson"), context);
    expect(testRows(run)).toEqual([
      ["", ["TestAddsTwoNumbers"], "pass"],
      ["", ["TestFailsOnPurpose"], "fail"],
    ]);
    expect(run.tests.every((test) => test.id.runner === "go")).toBe(true);
    expect(run.tests[1]?.failure).toBe("    calc_test.go:14: Add(2, 2) = 4, want 5");
    expect(run.tests[1]?.failure_kind).toBe("assertion");
    expect(run.errors).toEqual([]);
  });

  it("uses the package folder itself when the package is not the project root", () => {
    const run = parseGoTestJson(readRunnerOutput("go", "pass-fail.ndjson"), {
      ...context,
      packageDir: "backend",
    });
    expect(run.tests.map((test) => test.id.file)).toEqual(["backend", "backend"]);
  });

  it("splits subtests into segments and places packages by their folder under the module", () => {
    const run = parseGoTestJson(readRunnerOutput("go", "subtests.ndjson"), context);
    expect(testRows(run)).toEqual([
      ["", ["TestAddsTwoNumbers"], "pass"],
      ["", ["TestFailsOnPurpose"], "fail"],
      ["sub", ["TestTable"], "fail"],
      ["sub", ["TestTable", "sub_case"], "pass"],
      ["sub", ["TestTable", "wrong_on_purpose"], "fail"],
      ["sub", ["TestSkipped"], "skip"],
      ["sub", ["TestNested"], "pass"],
      ["sub", ["TestNested", "outer"], "pass"],
      ["sub", ["TestNested", "outer", "inner"], "pass"],
    ]);
    const wrong = run.tests.find((test) => test.id.segments[1] === "wrong_on_purpose");
    expect(wrong?.failure).toBe("    sub/sub_test.go:17: 2 + 2 = 4, want 5");
    expect(run.errors).toEqual([]);
  });

  it("prefixes package folders with a non-root package dir", () => {
    const run = parseGoTestJson(readRunnerOutput("go", "subtests.ndjson"), {
      ...context,
      packageDir: "svc",
    });
    expect([...new Set(run.tests.map((test) => test.id.file))]).toEqual(["svc", "svc/sub"]);
  });

  it("uses the module path when given, even for a run of one sub-package", () => {
    const onlySub = readRunnerOutput("go", "subtests.ndjson")
      .split("\n")
      .filter((line) => line.includes('"example.com/calc/sub"'))
      .join("\n");
    expect(parseGoTestJson(onlySub, context).tests[0]?.id.file).toBe("");
    expect(parseGoTestJson(onlySub, context, "example.com/calc").tests[0]?.id.file).toBe("sub");
  });

  it("turns a build failure printed outside the JSON (Go 1.19) into a collection error on the file", () => {
    const run = parseGoTestJson(readRunnerOutput("go", "build-failure.ndjson"), context);
    expect(run.errors).toEqual([
      {
        file: "sub/broken_test.go",
        message: expect.stringContaining(
          'cannot use "no" (untyped string constant) as int value',
        ) as unknown,
        kind: "collection",
      },
    ]);
    expect(testRows(run)).toEqual([
      ["", ["TestAddsTwoNumbers"], "pass"],
      ["", ["TestFailsOnPurpose"], "fail"],
    ]);
  });

  it("turns build-output / build-fail / FailedBuild events (Go 1.24+) into the same error", () => {
    const run = parseGoTestJson(readRunnerOutput("go", "build-failure-go1.24.ndjson"), context);
    expect(run.errors).toEqual([
      {
        file: "sub/broken_test.go",
        message: expect.stringContaining(
          "# example.com/calc/sub [example.com/calc/sub.test]",
        ) as unknown,
        kind: "collection",
      },
    ]);
    expect(run.tests).toHaveLength(2);
  });

  it("names the package folder when a build failure names no file", () => {
    const ndjson = [
      '{"Action":"start","Package":"example.com/m"}',
      '{"Action":"output","Package":"example.com/m/x","Output":"FAIL\\texample.com/m/x [setup failed]\\n"}',
      '{"Action":"fail","Package":"example.com/m/x","Elapsed":0}',
      '{"Action":"skip","Package":"example.com/m","Elapsed":0}',
    ].join("\n");
    expect(parseGoTestJson(ndjson, context).errors).toEqual([
      { file: "x", message: "FAIL\texample.com/m/x [setup failed]", kind: "collection" },
    ]);
  });

  it("reports no tests and no errors when -run matched nothing", () => {
    expect(parseGoTestJson(readRunnerOutput("go", "no-tests.ndjson"), context)).toEqual({
      tests: [],
      errors: [],
    });
  });

  it("fails a test cut short by a timeout panic, with the package's output", () => {
    const ndjson = [
      '{"Action":"run","Package":"example.com/calc","Test":"TestSlow"}',
      '{"Action":"output","Package":"example.com/calc","Test":"TestSlow","Output":"=== RUN   TestSlow\\n"}',
      '{"Action":"output","Package":"example.com/calc","Output":"panic: test timed out after 1s\\n"}',
      '{"Action":"fail","Package":"example.com/calc","Elapsed":1.01}',
    ].join("\n");
    const run = parseGoTestJson(ndjson, context);
    expect(run.tests).toEqual([
      {
        id: { runner: "go", file: "", segments: ["TestSlow"] },
        status: "fail",
        failure: "panic: test timed out after 1s",
        failure_kind: "timeout",
      },
    ]);
    expect(run.errors).toEqual([]);
  });

  it("drops the parallel cases a panic left paused: they never ran", () => {
    const run = parseGoTestJson(
      readRunnerOutput("go", "panic-parallel.ndjson"),
      context,
      "example.com/calc",
    );
    expect(testRows(run)).toEqual([
      ["sub", ["TestLookup"], "fail"],
      ["sub", ["TestLookup", "nil_table"], "fail"],
    ]);
    expect(run.tests[1]?.failure_kind).toBe("crash");
    expect(run.tests[1]?.failure).toContain("\t/tmp/tt/go/sub/sub_test.go:16 +0x2e");
  });

  it.each([
    ["empty", ""],
    ["plain go test output", "--- FAIL: TestX (0.00s)\nFAIL\nexit status 1\n"],
    ["JSON of another shape", '{"hello":"world"}\n[]\n{broken'],
  ])("%s gives one crash error and never throws", (_name, text) => {
    const run = parseGoTestJson(text, context);
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
  });
});
