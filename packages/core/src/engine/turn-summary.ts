import type { Decision } from "../hook/hook-event.ts";
import type { RunResult } from "./summarize.ts";

/**
 * The person's line at the end of a verified turn ("tailtest: 3 edited files, 41 tests passed (2.1 s)"):
 * what ran and how it ended, for the person and never the agent (it is rendered where the agent
 * is not woken: Claude Code's and Codex's `systemMessage`, Cursor's hooks output). A turn with
 * nothing to verify says nothing. Pure: the results and their times come in.
 */

/** `notify` in `.tailtest/config.json`: every verified turn, only one that did not pass, none. */
export type NotifyLevel = "always" | "failures" | "never";

export interface TurnSummaryExtra {
  /** Source files this turn verified. */
  files?: number | undefined;
  /** Of those, files whose test file does not exist. */
  missing?: number | undefined;
  /** Failures the mode expects, set aside from the results (expected-red.ts): tdd's Red, strict's open claims. */
  expected?: number | undefined;
  /** Failed tests that passed when run again, set aside from the results. */
  flaky?: number | undefined;
}

export interface TurnSummary {
  line: string;
  /**
   * Everything ran and passed: no red or flaky test, no missing test, no runner that could not
   * start. A failure the mode expects (tdd's Red) leaves a turn clean: it is the mode's step.
   */
  clean: boolean;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** 850 ms, 2.1 s, 1 min 5 s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** What a verified turn ran, counted. */
export interface TurnCounts {
  /** Source files this turn verified. */
  files?: number | undefined;
  passed: number;
  failed: number;
  missing: number;
  /** Runs the runner or environment could not start. */
  envErrors: number;
  timeouts: number;
  /** Runs that ended in an error of their own (a test file that would not load, a crash). */
  errors: number;
  /** Failures the mode expects (a failed test or a file that would not load), not counted above. */
  expected?: number | undefined;
  /** Failed tests that passed when run again, not counted above. */
  flaky?: number | undefined;
  durationMs: number;
}

/** `count` of `word` as a part of the line (`one` when there is one, `many` past one), or none. */
function counted(count: number, word: string, one?: string, many = `${word}s`): string[] {
  if (count === 0) return [];
  return [count === 1 ? (one ?? `1 ${word}`) : `${count} ${many}`];
}

/**
 * The tests that ran: "41 tests passed", "41 tests: 39 passed, 2 failed", "no test ran" (never
 * "0 tests passed", which reads as green), or nothing besides `other`.
 */
function testParts(passed: number, failed: number, other: number): string[] {
  if (failed > 0) return [`${plural(passed + failed, "test")}: ${passed} passed, ${failed} failed`];
  if (passed > 0) return [`${plural(passed, "test")} passed`];
  return other === 0 ? ["no test ran"] : [];
}

/** The summary of `counts`, or undefined when nothing ran and nothing was found missing. */
export function summariseCounts(counts: TurnCounts): TurnSummary | undefined {
  const { passed, failed, missing, envErrors, timeouts, errors } = counts;
  const expected = counts.expected ?? 0;
  const flaky = counts.flaky ?? 0;
  const problems = envErrors + timeouts + errors;
  const setAside = expected + flaky;
  if (passed + failed + missing + problems + setAside === 0 && (counts.files ?? 0) === 0)
    return undefined;
  const parts = [
    ...testParts(passed, failed, problems + missing + setAside),
    // Never folded into "passed": a Red the mode expects is still red, a flaky test failed once.
    ...counted(expected, "expected failure"),
    ...counted(flaky, "flaky test"),
    ...counted(missing, "missing test"),
    ...counted(envErrors, "environment error", "an environment error"),
    ...counted(timeouts, "timeout", "a timeout"),
    ...counted(errors, "run", "a run that did not finish", "runs that did not finish"),
  ];
  if (counts.files !== undefined && counts.files > 0)
    parts.unshift(plural(counts.files, "edited file"));
  // A time only for what ran: a turn that only found a test missing ran nothing.
  const ran = passed + failed + problems + setAside > 0;
  return {
    line: `tailtest: ${parts.join(", ")}${ran ? ` (${formatDuration(counts.durationMs)})` : ""}`,
    clean: failed + missing + problems + flaky === 0 && passed + setAside > 0,
  };
}

/**
 * The turn's summary from the engine's results, or undefined when nothing was run or missing.
 * Results with failures set aside (expected-red.ts) come with how many were: `extra.expected`,
 * `extra.flaky`.
 */
export function summariseTurn(
  results: readonly RunResult[],
  durationMs: number,
  extra: TurnSummaryExtra = {},
): TurnSummary | undefined {
  if (results.length === 0 && (extra.missing ?? 0) === 0) return undefined;
  const count = (status: RunResult["tests"][number]["status"]) =>
    results.reduce((sum, r) => sum + r.tests.filter((t) => t.status === status).length, 0);
  const runs = (status: RunResult["status"]) => results.filter((r) => r.status === status).length;
  return summariseCounts({
    files: extra.files,
    passed: count("pass"),
    failed: count("fail"),
    missing: extra.missing ?? 0,
    envErrors: runs("env_error"),
    timeouts: runs("timeout"),
    errors: runs("error"),
    expected: extra.expected,
    flaky: extra.flaky,
    durationMs,
  });
}

/** `summary`'s line as `notify` wants it, or undefined for silence. */
export function notifyLine(
  summary: TurnSummary | undefined,
  notify: NotifyLevel = "always",
): string | undefined {
  if (notify === "never" || summary === undefined) return undefined;
  return notify === "failures" && summary.clean ? undefined : summary.line;
}

/** The line for the person, as `notify` wants it, or undefined for silence. */
export function turnSummaryLine(
  results: readonly RunResult[],
  durationMs: number,
  extra: TurnSummaryExtra & { notify?: NotifyLevel } = {},
): string | undefined {
  return notifyLine(summariseTurn(results, durationMs, extra), extra.notify);
}

/** `decision` with `line` for the person (none: unchanged). */
export function withUserMessage(decision: Decision, line: string | undefined): Decision {
  if (line === undefined) return decision;
  return { ...decision, userMessage: line };
}
