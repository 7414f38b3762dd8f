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
}

export interface TurnSummary {
  line: string;
  /** Everything ran and passed: no red test, no missing test, no runner that could not start. */
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
  durationMs: number;
}

/** The summary of `counts`, or undefined when nothing ran and nothing was found missing. */
export function summariseCounts(counts: TurnCounts): TurnSummary | undefined {
  const { passed, failed, missing, envErrors, timeouts, errors } = counts;
  const problems = envErrors + timeouts + errors;
  if (passed + failed + missing + problems === 0 && (counts.files ?? 0) === 0) return undefined;
  const parts: string[] = [];
  if (counts.files !== undefined && counts.files > 0)
    parts.push(plural(counts.files, "edited file"));
  if (failed > 0)
    parts.push(`${plural(passed + failed, "test")}: ${passed} passed, ${failed} failed`);
  else if (passed > 0 || problems + missing === 0) parts.push(`${plural(passed, "test")} passed`);
  if (missing > 0) parts.push(plural(missing, "missing test"));
  if (envErrors > 0)
    parts.push(envErrors === 1 ? "an environment error" : `${envErrors} environment errors`);
  if (timeouts > 0) parts.push(timeouts === 1 ? "a timeout" : `${timeouts} timeouts`);
  if (errors > 0)
    parts.push(errors === 1 ? "a run that did not finish" : `${errors} runs that did not finish`);
  // A time only for what ran: a turn that only found a test missing ran nothing.
  const ran = passed + failed + problems > 0;
  return {
    line: `tailtest: ${parts.join(", ")}${ran ? ` (${formatDuration(counts.durationMs)})` : ""}`,
    clean: failed + missing + problems === 0,
  };
}

/** The turn's summary from the engine's results, or undefined when nothing was run or missing. */
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
