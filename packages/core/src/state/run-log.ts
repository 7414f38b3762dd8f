import * as z from "zod/mini";
import type { MissingTest } from "../engine/plan.ts";
import { FailureKindSchema, TestStatusSchema } from "../engine/results.ts";
import { RunnerIdSchema } from "../runners/project-runners.ts";
import type { RelatedTest } from "../selection/related.ts";
import { EvidenceSchema } from "../selection/test-evidence.ts";
import {
  causeLines,
  failureCore,
  firstLines,
  formatId,
  RunStatusSchema,
  type ExcerptOptions,
  type RunResult,
} from "../engine/summarize.ts";

/**
 * `.tailtest/runs.json`: the test runs the CLI made (`tailtest run`, `tailtest watch`), each
 * reduced to what `status` and `report` show: when, how it ended, per runner counts, and the
 * slowest and failing tests with their durations. Bounded: the newest `RUN_LOG_CAP` runs, and
 * at most `RUN_TESTS_CAP` tests per run.
 */

export const RUN_LOG_CAP = 200;
export const RUN_TESTS_CAP = 40;
export const RUN_FILES_CAP = 50;
/** Lines and characters of one failure's excerpt the log keeps (what the report shows). */
export const FAILURE_EXCERPT_LINES = 12;
export const FAILURE_EXCERPT_CHARS = 1200;
/** Related tests kept per changed file, and load errors kept per run. */
export const RUN_SELECTED_CAP = 20;
export const RUN_ERRORS_CAP = 10;

export const OverallStatusSchema = z.enum(["passed", "failed", "error", "no_tests"]);

/** `run`, `watch`: the CLI; `hook`: the end of an agent's turn. */
export const RunSourceSchema = z.enum(["run", "watch", "hook"]);
export type RunSource = z.infer<typeof RunSourceSchema>;

export const RunnerSummarySchema = z.object({
  runner: RunnerIdSchema,
  cwd: z.string(),
  status: RunStatusSchema,
  duration_ms: z.number().check(z.minimum(0)),
  passed: z.number().check(z.int(), z.minimum(0)),
  failed: z.number().check(z.int(), z.minimum(0)),
  skipped: z.number().check(z.int(), z.minimum(0)),
  not_run: z.number().check(z.int(), z.minimum(0)),
});
export type RunnerSummary = z.infer<typeof RunnerSummarySchema>;

export const RecordedTestSchema = z.object({
  /** `file::segment::…` (summarize.ts `formatId`). */
  id: z.string().check(z.minLength(1)),
  runner: RunnerIdSchema,
  file: z.string(),
  status: TestStatusSchema,
  /** The test's own time, from the runner's report (never the whole process's). */
  duration_ms: z.optional(z.number().check(z.minimum(0))),
  /** A failing test's message: its first lines, capped, no absolute paths, no times. */
  failure: z.optional(z.string()),
});
export type RecordedTest = z.infer<typeof RecordedTestSchema>;

export const RunRecordSchema = z.object({
  /** UTC ISO time the run finished. */
  at: z.string(),
  source: RunSourceSchema,
  status: OverallStatusSchema,
  duration_ms: z.number().check(z.minimum(0)),
  /** The files the run was for (sources or tests; empty: whole suites), capped. */
  files: z.array(z.string()),
  runners: z.array(RunnerSummarySchema),
  /** Source files whose test file does not exist. */
  missing: z.array(z.string()),
  /** Failing tests first, then the slowest, at most `RUN_TESTS_CAP`. */
  tests: z.array(RecordedTestSchema),
  /** How many test files reported tests (all of them, not only the `tests` kept above). */
  test_files: z.optional(z.number().check(z.int(), z.minimum(0))),
  /** The agent session whose turn made it (hook and watch runs). */
  session_id: z.optional(z.string()),
  /** Load errors and crashes outside any test: which file, what kind, an excerpt. */
  errors: z.optional(
    z.array(
      z.object({ file: z.optional(z.string()), kind: FailureKindSchema, message: z.string() }),
    ),
  ),
  /**
   * Why each test file ran: per changed file, its related tests with the selection's evidence
   * (`self`, `name`, `family`, `imports`, `imports-via`, `support`, `mentions`) and how it was
   * found; `left_out`: related test files the time budget left out of this run.
   */
  selection: z.optional(
    z.array(
      z.object({
        source: z.string(),
        tests: z.array(
          z.object({ path: z.string(), evidence: EvidenceSchema, detail: z.string() }),
        ),
      }),
    ),
  ),
  left_out: z.optional(z.array(z.string())),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

export const RunLogSchema = z.object({
  version: z.literal(1),
  runs: z.array(RunRecordSchema),
});
export type RunLog = z.infer<typeof RunLogSchema>;

export function emptyRunLog(): RunLog {
  return { version: 1, runs: [] };
}

export interface RunRecordInput {
  at: string;
  source: RunSource;
  status: RunRecord["status"];
  files: readonly string[];
  results: readonly RunResult[];
  missing: readonly MissingTest[];
  sessionId?: string | undefined;
  /** The project root (and package folders): turned into relative paths in the excerpts. */
  replacePaths?: ExcerptOptions["replacePaths"];
  /** The related tests the selection chose per changed file (choose-tests.ts). */
  selected?: ReadonlyMap<string, readonly RelatedTest[]> | undefined;
  leftOut?: readonly string[] | undefined;
}

/** One failure's excerpt as the log keeps it. */
function excerpt(text: string, options: ExcerptOptions, cause = false): string {
  const lines = cause
    ? causeLines(text, FAILURE_EXCERPT_LINES, options)
    : firstLines(failureCore(text), FAILURE_EXCERPT_LINES, options);
  const trimmed = lines
    .split("\n")
    .map((line) => line.replace(/^ {2}/, ""))
    .join("\n");
  return trimmed.length <= FAILURE_EXCERPT_CHARS
    ? trimmed
    : `${trimmed.slice(0, FAILURE_EXCERPT_CHARS - 1)}…`;
}

function count(result: RunResult, status: RecordedTest["status"]): number {
  return result.tests.filter((test) => test.status === status).length;
}

/** One run as the log keeps it (pure: the caller gives the time). */
export function summariseRunRecord(input: RunRecordInput): RunRecord {
  const options = { replacePaths: input.replacePaths ?? [] };
  const tests: RecordedTest[] = input.results.flatMap((result) =>
    result.tests.map((test) => ({
      id: formatId(test.id),
      runner: test.id.runner,
      file: test.id.file,
      status: test.status,
      ...(test.duration_ms === undefined ? {} : { duration_ms: test.duration_ms }),
      ...(test.status === "fail" && test.failure !== undefined && test.failure.trim() !== ""
        ? { failure: excerpt(test.failure, options) }
        : {}),
    })),
  );
  const errors = input.results
    .flatMap((result) => result.errors)
    .slice(0, RUN_ERRORS_CAP)
    .map((error) => ({
      ...(error.file === undefined ? {} : { file: error.file }),
      kind: error.kind,
      message: excerpt(error.message, options, true),
    }));
  const selection = [...(input.selected ?? new Map<string, readonly RelatedTest[]>())]
    .slice(0, RUN_FILES_CAP)
    .map(([source, related]) => ({
      source,
      tests: related
        .slice(0, RUN_SELECTED_CAP)
        .map((test) => ({ path: test.path, evidence: test.evidence, detail: test.detail })),
    }));
  const failing = tests.filter((test) => test.status === "fail");
  const slowest = tests
    .filter((test) => test.status !== "fail" && test.duration_ms !== undefined)
    .sort((a, b) => (b.duration_ms ?? 0) - (a.duration_ms ?? 0));
  return {
    at: input.at,
    source: input.source,
    status: input.status,
    duration_ms: input.results.reduce((sum, result) => sum + result.duration_ms, 0),
    files: input.files.slice(0, RUN_FILES_CAP),
    runners: input.results.map((result) => ({
      runner: result.runner,
      cwd: result.cwd,
      status: result.status,
      duration_ms: result.duration_ms,
      passed: count(result, "pass"),
      failed: count(result, "fail"),
      skipped: count(result, "skip"),
      not_run: count(result, "not_run"),
    })),
    missing: input.missing.map((item) => item.source).slice(0, RUN_FILES_CAP),
    tests: [...failing, ...slowest].slice(0, RUN_TESTS_CAP),
    test_files: new Set(tests.map((test) => test.file)).size,
    ...(input.sessionId === undefined ? {} : { session_id: input.sessionId }),
    ...(errors.length === 0 ? {} : { errors }),
    ...(selection.length === 0 ? {} : { selection }),
    ...(input.leftOut === undefined || input.leftOut.length === 0
      ? {}
      : { left_out: input.leftOut.slice(0, RUN_FILES_CAP) }),
  };
}

/** Appends a run, keeping the newest `RUN_LOG_CAP`. */
export function appendRunRecord(log: RunLog, record: RunRecord): RunLog {
  return { version: 1, runs: [...log.runs, record].slice(-RUN_LOG_CAP) };
}
