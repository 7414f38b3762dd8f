import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { extractJsonObject, parseJestJson } from "./jest-json.ts";

const vitest: ParseContext = { runner: "vitest", packageDir: "", packageAbs: "/tmp/tt/vitest" };
const jest: ParseContext = { runner: "jest", packageDir: "", packageAbs: "/tmp/tt/jest" };

describe("parseJestJson on vitest output", () => {
  it("reads a pass and a fail with their ids", () => {
    const run = parseJestJson(readRunnerOutput("vitest", "pass-fail.json"), vitest);
    expect(testRows(run)).toEqual([
      ["src/calc.test.ts", ["calc", "adds two numbers"], "pass"],
      ["src/calc.test.ts", ["calc", "fails on purpose"], "fail"],
    ]);
    expect(run.tests.every((test) => test.id.runner === "vitest")).toBe(true);
    const failing = run.tests[1];
    expect(failing?.failure).toContain("expected 4 to be 5");
    expect(failing?.failure_kind).toBe("assertion");
    expect(run.tests[0]?.duration_ms).toBeGreaterThan(0);
    expect(run.errors).toEqual([]);
  });

  it("turns a file that could not import into a collection error, keeping the other file's tests", () => {
    const run = parseJestJson(readRunnerOutput("vitest", "import-error.json"), vitest);
    expect(run.errors).toEqual([
      {
        file: "src/broken.test.ts",
        message: expect.stringContaining("Cannot find module './missing-module'") as unknown,
        kind: "collection",
      },
    ]);
    expect(testRows(run).map(([file, , status]) => [file, status])).toEqual([
      ["src/calc.test.ts", "pass"],
      ["src/calc.test.ts", "fail"],
    ]);
  });

  it("lists a spec file that declares no test (a table other specs import) as empty, not as an error", () => {
    const run = parseJestJson(readRunnerOutput("vitest", "no-suite.json"), vitest);
    expect(run.errors).toEqual([]);
    expect(run.empty).toEqual(["src/cases.spec.ts"]);
    expect(testRows(run)).toEqual([["src/calc.test.ts", ["calc", "adds two numbers"], "pass"]]);
  });

  it("says skip for every test when -t matched nothing (exit 0)", () => {
    const run = parseJestJson(readRunnerOutput("vitest", "no-match.json"), vitest);
    expect(testRows(run)).toEqual([
      ["src/calc.test.ts", ["calc", "adds two numbers"], "skip"],
      ["src/calc.test.ts", ["calc", "fails on purpose"], "skip"],
    ]);
    expect(run.errors).toEqual([]);
  });

  it("prefixes files with a non-root package folder", () => {
    const run = parseJestJson(readRunnerOutput("vitest", "pass-fail.json"), {
      ...vitest,
      packageDir: "packages/web",
    });
    expect(run.tests.map((test) => test.id.file)).toEqual([
      "packages/web/src/calc.test.ts",
      "packages/web/src/calc.test.ts",
    ]);
  });
});

describe("parseJestJson on jest output", () => {
  it("reads a pass and a fail with their ids", () => {
    const run = parseJestJson(readRunnerOutput("jest", "pass-fail.json"), jest);
    expect(testRows(run)).toEqual([
      ["src/calc.test.js", ["calc", "adds two numbers"], "pass"],
      ["src/calc.test.js", ["calc", "fails on purpose"], "fail"],
    ]);
    expect(run.tests[1]?.failure).toContain("Expected: 5\nReceived: 4");
    expect(run.errors).toEqual([]);
  });

  it("turns a missing module and a syntax error into collection errors on their files", () => {
    const run = parseJestJson(readRunnerOutput("jest", "import-error.json"), jest);
    expect(run.errors.map((error) => [error.file, error.kind])).toEqual([
      ["src/broken.test.js", "collection"],
      ["src/syntax.test.js", "collection"],
    ]);
    expect(run.errors[0]?.message).toContain("Cannot find module './missing-module'");
    expect(run.errors[1]?.message).toContain("SyntaxError");
    expect(run.tests).toHaveLength(2);
  });

  it("keeps nested describes, test.each titles, skip and todo", () => {
    const run = parseJestJson(readRunnerOutput("jest", "nested.json"), jest);
    expect(testRows(run)).toEqual([
      ["src/nested.test.js", ["calc", "add", "add(1, 1) = 2"], "pass"],
      ["src/nested.test.js", ["calc", "add", "add(2, 3) = 5"], "pass"],
      ["src/nested.test.js", ["calc", "add", "skipped one"], "skip"],
      ["src/nested.test.js", ["calc", "add", "todo one"], "skip"],
      ["src/nested.test.js", ["top level"], "pass"],
    ]);
    expect(run.errors).toEqual([]);
  });

  it("marks a jest timeout", () => {
    const report = {
      testResults: [
        {
          name: "/tmp/tt/jest/src/slow.test.js",
          status: "failed",
          message: "",
          assertionResults: [
            {
              ancestorTitles: [],
              title: "waits",
              status: "failed",
              duration: 5003,
              failureMessages: ['thrown: "Exceeded timeout of 5000 ms for a test."'],
            },
          ],
        },
      ],
    };
    const run = parseJestJson(JSON.stringify(report), jest);
    expect(run.tests[0]?.failure_kind).toBe("timeout");
    expect(run.errors).toEqual([]);
  });
});

describe("parseJestJson on bad input", () => {
  it.each([
    ["empty", ""],
    ["not JSON", "FAIL src/calc.test.ts\nsomething broke"],
    ["JSON without testResults", '{"numTotalTests": 0}'],
    ["an array", "[1, 2]"],
    ["truncated", readRunnerOutput("vitest", "pass-fail.json").slice(0, 300)],
  ])("%s gives one crash error and never throws", (_name, text) => {
    const run = parseJestJson(text, vitest);
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
  });

  it("skips malformed entries instead of failing the whole report", () => {
    const report = {
      testResults: [
        null,
        { name: 42, status: "passed", assertionResults: [] },
        {
          name: "/tmp/tt/vitest/src/a.test.ts",
          status: "passed",
          assertionResults: [
            { title: 1 },
            { title: "ok", status: "passed", ancestorTitles: [7, "x"], duration: -1 },
          ],
        },
      ],
    };
    const run = parseJestJson(JSON.stringify(report), vitest);
    expect(run.tests).toEqual([
      { id: { runner: "vitest", file: "src/a.test.ts", segments: ["x", "ok"] }, status: "pass" },
    ]);
  });
});

describe("extractJsonObject", () => {
  it("finds a report with console output before and after it", () => {
    const text = 'console.log {"not": json\n{\n  "a": {"b": 1}\n}\ntrailing } noise\n';
    expect(extractJsonObject(text)).toEqual({ a: { b: 1 } });
  });

  it("returns undefined when there is no object", () => {
    expect(extractJsonObject("no braces here")).toBeUndefined();
    expect(extractJsonObject("{ broken")).toBeUndefined();
  });
});
