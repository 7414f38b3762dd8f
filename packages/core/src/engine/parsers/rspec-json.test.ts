import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { parseRspecJson } from "./rspec-json.ts";

const context: ParseContext = { runner: "rspec", packageDir: "", packageAbs: "/tmp/tt/rspec" };

describe("parseRspecJson", () => {
  it("reads a pass and a fail as [group, description]", () => {
    const run = parseRspecJson(readRunnerOutput("rspec", "pass-fail.json"), context);
    expect(testRows(run)).toEqual([
      ["spec/calc_spec.rb", ["Calc", "adds two numbers"], "pass"],
      ["spec/calc_spec.rb", ["Calc", "fails on purpose"], "fail"],
    ]);
    expect(run.tests.every((test) => test.id.runner === "rspec")).toBe(true);
    const failing = run.tests[1];
    expect(failing?.failure).toContain("expected: 5\n     got: 4");
    expect(failing?.failure).toContain("/tmp/tt/rspec/spec/calc_spec.rb:10");
    expect(failing?.failure_kind).toBe("assertion");
    expect(failing?.duration_ms).toBeCloseTo(21.244, 3);
    expect(run.errors).toEqual([]);
  });

  it("keeps nested groups (joined as rspec joins them) as one segment; pending and xit are skips", () => {
    const run = parseRspecJson(readRunnerOutput("rspec", "nested.json"), context);
    expect(testRows(run)).toEqual([
      ["spec/calc_spec.rb", ["Calc", "adds two numbers"], "pass"],
      ["spec/calc_spec.rb", ["Calc", "fails on purpose"], "fail"],
      ["spec/nested_spec.rb", ["Calc.add", "is pending on purpose"], "skip"],
      ["spec/nested_spec.rb", ["Calc.add", "is skipped"], "skip"],
      ["spec/nested_spec.rb", ["Calc.add with negatives", "adds them"], "pass"],
    ]);
  });

  it("turns a spec file that failed to load into a collection error on that file", () => {
    const run = parseRspecJson(readRunnerOutput("rspec", "load-error.json"), context);
    expect(run.tests).toEqual([]);
    expect(run.errors).toEqual([
      {
        file: "spec/broken_spec.rb",
        message: expect.stringContaining("cannot load such file -- missing_module") as unknown,
        kind: "collection",
      },
    ]);
  });

  it("prefixes files with a non-root package folder", () => {
    const run = parseRspecJson(readRunnerOutput("rspec", "load-error.json"), {
      ...context,
      packageDir: "apps/api",
    });
    expect(run.errors[0]?.file).toBe("apps/api/spec/broken_spec.rb");
    expect(
      parseRspecJson(readRunnerOutput("rspec", "pass-fail.json"), {
        ...context,
        packageDir: "apps/api",
      }).tests[0]?.id.file,
    ).toBe("apps/api/spec/calc_spec.rb");
  });

  it("tells an exception raised by the code from an expectation failure", () => {
    const report = {
      examples: [
        {
          description: "raises",
          full_description: "Calc raises",
          status: "failed",
          file_path: "./spec/calc_spec.rb",
          run_time: 0.001,
          exception: {
            class: "NoMethodError",
            message: "undefined method `subtract'",
            backtrace: ["./spec/calc_spec.rb:5"],
          },
        },
        {
          description: "",
          full_description: "Calc is expected to eq 5",
          status: "passed",
          file_path: "./spec/calc_spec.rb",
        },
      ],
      summary: { errors_outside_of_examples_count: 0 },
    };
    const run = parseRspecJson(JSON.stringify(report), context);
    expect(run.tests.map((test) => [test.id.segments, test.failure_kind, test.failure])).toEqual([
      [
        ["Calc", "raises"],
        "crash",
        "NoMethodError: undefined method `subtract'\n./spec/calc_spec.rb:5",
      ],
      [["Calc is expected to eq 5"], undefined, undefined],
    ]);
  });

  it("reports errors outside examples even when no message names a file", () => {
    const report = {
      examples: [],
      messages: ["No examples found."],
      summary: { errors_outside_of_examples_count: 2 },
    };
    expect(parseRspecJson(JSON.stringify(report), context).errors).toEqual([
      { message: "2 error(s) occurred outside of examples", kind: "collection" },
    ]);
  });

  it.each([
    ["empty", ""],
    ["progress output", "..F\n\nFailures:\n"],
    ["JSON of another shape", '{"version":"3.12.0"}'],
  ])("%s gives one crash error and never throws", (_name, text) => {
    const run = parseRspecJson(text, context);
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
  });
});
