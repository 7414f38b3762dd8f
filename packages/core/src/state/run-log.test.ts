import { describe, expect, it } from "vitest";
import {
  appendRunRecord,
  emptyRunLog,
  FAILURE_EXCERPT_CHARS,
  FAILURE_EXCERPT_LINES,
  RUN_LOG_CAP,
  RUN_TESTS_CAP,
  RunLogSchema,
  summariseRunRecord,
} from "./run-log.ts";
import type { RunResult } from "../engine/summarize.ts";

function result(tests: [string, RunResult["tests"][number]["status"], number?][]): RunResult {
  return {
    runner: "vitest",
    cwd: "",
    command: ["npx", "vitest"],
    status: tests.some(([, status]) => status === "fail") ? "failed" : "passed",
    exit_code: 0,
    duration_ms: 1500,
    tests: tests.map(([name, status, ms]) => ({
      id: { runner: "vitest", file: "src/a.test.ts", segments: ["a", name] },
      status,
      ...(ms === undefined ? {} : { duration_ms: ms }),
    })),
    errors: [],
    reason: "",
    output_tail: "",
  };
}

describe("summariseRunRecord", () => {
  it("keeps why: failure excerpts (capped, relative, no colour), load errors, the selection", () => {
    const red = result([["broken", "fail", 5]]);
    const long = Array.from({ length: 40 }, (_, i) => `line ${i} ${"x".repeat(60)}`).join("\n");
    const failing = {
      ...red,
      tests: [
        {
          ...red.tests[0]!,
          failure: `\u001b[31mAssertionError: expected 2 to be 3\u001b[39m\n    at /home/me/proj/src/a.test.ts:4:7\n${long}`,
        },
      ],
      errors: [{ file: "src/b.test.ts", kind: "collection" as const, message: "SyntaxError: x" }],
    };
    const record = summariseRunRecord({
      at: "2026-01-01T00:00:00.000Z",
      source: "hook",
      status: "failed",
      files: ["src/a.ts"],
      results: [failing],
      missing: [],
      sessionId: "s1",
      replacePaths: [["/home/me/proj/", ""]],
      selected: new Map([
        [
          "src/a.ts",
          [
            { path: "src/a.test.ts", evidence: "name" as const, detail: "its name", hops: 0 },
            { path: "src/c.test.ts", evidence: "imports" as const, detail: "imports it", hops: 1 },
          ],
        ],
      ]),
      leftOut: ["src/slow.test.ts"],
    });
    expect(RunLogSchema.parse({ version: 1, runs: [record] }).runs[0]).toEqual(record);
    const failure = record.tests[0]?.failure ?? "";
    expect(failure.split("\n").slice(0, 2)).toEqual([
      "AssertionError: expected 2 to be 3",
      "    at src/a.test.ts:4:7",
    ]);
    expect(failure.split("\n")).toHaveLength(FAILURE_EXCERPT_LINES);
    expect(failure.length).toBeLessThanOrEqual(FAILURE_EXCERPT_CHARS);
    expect(record.errors).toEqual([
      { file: "src/b.test.ts", kind: "collection", message: "SyntaxError: x" },
    ]);
    expect(record.selection).toEqual([
      {
        source: "src/a.ts",
        tests: [
          { path: "src/a.test.ts", evidence: "name", detail: "its name" },
          { path: "src/c.test.ts", evidence: "imports", detail: "imports it" },
        ],
      },
    ]);
    expect(record.left_out).toEqual(["src/slow.test.ts"]);
    expect(record.session_id).toBe("s1");
  });

  it("keeps counts per runner, failing tests first, then the slowest", () => {
    const record = summariseRunRecord({
      at: "2026-01-01T00:00:00.000Z",
      source: "run",
      status: "failed",
      files: ["src/a.ts"],
      results: [
        result([
          ["quick", "pass", 1],
          ["slow", "pass", 900],
          ["broken", "fail", 5],
          ["skipped", "skip"],
          ["medium", "pass", 40],
        ]),
      ],
      missing: [{ source: "src/b.ts", expected_test: "src/b.test.ts", runner: "vitest" }],
    });
    expect(RunLogSchema.parse({ version: 1, runs: [record] }).runs[0]).toEqual(record);
    expect(record.runners).toEqual([
      {
        runner: "vitest",
        cwd: "",
        status: "failed",
        duration_ms: 1500,
        passed: 3,
        failed: 1,
        skipped: 1,
        not_run: 0,
      },
    ]);
    expect(record.tests.map((test) => test.id)).toEqual([
      "src/a.test.ts::a::broken",
      "src/a.test.ts::a::slow",
      "src/a.test.ts::a::medium",
      "src/a.test.ts::a::quick",
    ]);
    expect(record.missing).toEqual(["src/b.ts"]);
    expect(record.duration_ms).toBe(1500);
  });

  it("keeps at most RUN_TESTS_CAP tests", () => {
    const many = Array.from(
      { length: RUN_TESTS_CAP + 10 },
      (_, i) => [`t${i}`, "pass", i] as [string, "pass", number],
    );
    const record = summariseRunRecord({
      at: "2026-01-01T00:00:00.000Z",
      source: "watch",
      status: "passed",
      files: [],
      results: [result(many)],
      missing: [],
    });
    expect(record.tests).toHaveLength(RUN_TESTS_CAP);
    expect(record.tests[0]?.duration_ms).toBe(RUN_TESTS_CAP + 9);
  });
});

describe("appendRunRecord", () => {
  it("keeps the newest RUN_LOG_CAP runs", () => {
    let log = emptyRunLog();
    for (let i = 0; i < RUN_LOG_CAP + 5; i += 1) {
      log = appendRunRecord(log, {
        at: `run-${i}`,
        source: "run",
        status: "passed",
        duration_ms: 1,
        files: [],
        runners: [],
        missing: [],
        tests: [],
      });
    }
    expect(log.runs).toHaveLength(RUN_LOG_CAP);
    expect(log.runs[0]?.at).toBe("run-5");
    expect(log.runs.at(-1)?.at).toBe(`run-${RUN_LOG_CAP + 4}`);
  });
});
