import { describe, expect, it } from "vitest";
import type { RunResult } from "./summarize.ts";
import {
  formatDuration,
  notifyLine,
  summariseCounts,
  turnSummaryLine,
  withUserMessage,
  type NotifyLevel,
  type TurnCounts,
} from "./turn-summary.ts";

function run(status: RunResult["status"], pass: number, fail = 0, ms = 100): RunResult {
  const test = (i: number, outcome: "pass" | "fail") => ({
    id: { runner: "pytest" as const, file: "tests/test_a.py", segments: [`t${outcome}${i}`] },
    status: outcome,
  });
  return {
    runner: "pytest",
    cwd: "",
    command: ["pytest"],
    status,
    exit_code: 0,
    duration_ms: ms,
    tests: [
      ...Array.from({ length: pass }, (_, i) => test(i, "pass")),
      ...Array.from({ length: fail }, (_, i) => test(i, "fail")),
    ],
    errors: [],
    reason: "",
    output_tail: "",
  };
}

const none: TurnCounts = {
  passed: 0,
  failed: 0,
  missing: 0,
  envErrors: 0,
  timeouts: 0,
  errors: 0,
  durationMs: 0,
};

describe("summariseCounts", () => {
  it.each<[string, Partial<TurnCounts>, string | undefined, boolean | undefined]>([
    ["nothing ran, nothing missing: silence", {}, undefined, undefined],
    [
      "all green",
      { files: 3, passed: 41, durationMs: 2100 },
      "tailtest: 3 edited files, 41 tests passed (2.1 s)",
      true,
    ],
    [
      "an edited file whose tests ran nothing: not clean, never '0 tests passed'",
      { files: 1, durationMs: 60 },
      "tailtest: 1 edited file, no test ran",
      false,
    ],
    [
      "one test",
      { files: 1, passed: 1, durationMs: 40 },
      "tailtest: 1 edited file, 1 test passed (40 ms)",
      true,
    ],
    [
      "red",
      { files: 2, passed: 39, failed: 2, durationMs: 2100 },
      "tailtest: 2 edited files, 41 tests: 39 passed, 2 failed (2.1 s)",
      false,
    ],
    [
      "a missing test, nothing ran: no time",
      { files: 1, missing: 1 },
      "tailtest: 1 edited file, 1 missing test",
      false,
    ],
    [
      "green and a missing test",
      { files: 2, passed: 4, missing: 1, durationMs: 900 },
      "tailtest: 2 edited files, 4 tests passed, 1 missing test (900 ms)",
      false,
    ],
    [
      "the runner could not start",
      { files: 1, envErrors: 1, durationMs: 30 },
      "tailtest: 1 edited file, an environment error (30 ms)",
      false,
    ],
    [
      "a timeout and an error",
      { files: 2, timeouts: 1, errors: 1, durationMs: 65_000 },
      "tailtest: 2 edited files, a timeout, a run that did not finish (1 min 5 s)",
      false,
    ],
    [
      "tdd's Red, expected to fail, beside green tests: named, and still clean",
      { files: 1, passed: 4, expected: 1, durationMs: 1200 },
      "tailtest: 1 edited file, 4 tests passed, 1 expected failure (1.2 s)",
      true,
    ],
    [
      "only the expected failure ran",
      { files: 1, expected: 2, durationMs: 300 },
      "tailtest: 1 edited file, 2 expected failures (300 ms)",
      true,
    ],
    [
      "a flaky test: named, not clean",
      { files: 1, passed: 1, flaky: 1, durationMs: 300 },
      "tailtest: 1 edited file, 1 test passed, 1 flaky test (300 ms)",
      false,
    ],
    [
      "an expected failure beside a red test: the red test still counts",
      { files: 1, passed: 1, failed: 1, expected: 1, durationMs: 300 },
      "tailtest: 1 edited file, 2 tests: 1 passed, 1 failed, 1 expected failure (300 ms)",
      false,
    ],
    [
      "many of each problem",
      { files: 3, envErrors: 2, timeouts: 2, errors: 2, missing: 2, durationMs: 10 },
      "tailtest: 3 edited files, 2 missing tests, 2 environment errors, 2 timeouts, 2 runs that did not finish (10 ms)",
      false,
    ],
  ])("%s", (_name, counts, line, clean) => {
    const summary = summariseCounts({ ...none, ...counts });
    expect(summary?.line).toBe(line);
    expect(summary?.clean).toBe(clean);
  });
});

describe("turnSummaryLine", () => {
  const green = [run("passed", 3), run("passed", 2)];
  const red = [run("failed", 3, 1)];

  it("counts tests from the engine's results", () => {
    expect(turnSummaryLine(green, 2100, { files: 2 })).toBe(
      "tailtest: 2 edited files, 5 tests passed (2.1 s)",
    );
    expect(turnSummaryLine([run("env_error", 0)], 10, { files: 1 })).toBe(
      "tailtest: 1 edited file, an environment error (10 ms)",
    );
    expect(turnSummaryLine([], 0, {})).toBeUndefined();
  });

  it.each<[NotifyLevel, boolean, boolean]>([
    ["always", true, true],
    ["failures", false, true],
    ["never", false, false],
  ])("notify %s: a green turn says something: %s; a red one: %s", (notify, onGreen, onRed) => {
    expect(turnSummaryLine(green, 100, { files: 2, notify }) !== undefined).toBe(onGreen);
    expect(turnSummaryLine(red, 100, { files: 1, notify }) !== undefined).toBe(onRed);
    expect(notifyLine(undefined, notify)).toBeUndefined();
  });
});

describe("withUserMessage", () => {
  it("adds the line to any decision, and leaves it alone without one", () => {
    expect(withUserMessage({ kind: "none" }, "tailtest: x")).toEqual({
      kind: "none",
      userMessage: "tailtest: x",
    });
    expect(withUserMessage({ kind: "block", reason: "r" }, "l")).toEqual({
      kind: "block",
      reason: "r",
      userMessage: "l",
    });
    const decision = { kind: "none" } as const;
    expect(withUserMessage(decision, undefined)).toBe(decision);
  });
});

describe("formatDuration", () => {
  it.each<[number, string]>([
    [0, "0 ms"],
    [999, "999 ms"],
    [1000, "1.0 s"],
    [59_940, "59.9 s"],
    [60_000, "1 min 0 s"],
    [125_400, "2 min 5 s"],
  ])("%i ms → %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
