import * as z from "zod";
import { entryClass, type OutcomeClass } from "../state/history-state.ts";
import {
  HistoryFileRowSchema,
  HistorySessionSchema,
  OutcomeClassViewSchema,
  summariseHistory,
  type LiveHistory,
} from "./history-view.ts";
import { FailureKindSchema } from "../engine/results.ts";
import {
  OverallStatusSchema,
  RecordedTestSchema,
  RunSourceSchema,
  type RunLog,
  type RunRecord,
} from "../state/run-log.ts";
import { RunnerIdSchema } from "../runners/project-runners.ts";
import { EvidenceSchema } from "../selection/test-evidence.ts";
import {
  StrictClaimRecordSchema,
  TddCycleRecordSchema,
  type SessionRecord,
} from "../state/session-record.ts";
import type { StrictEvent } from "../strict/strict-events.ts";
import { pairRedGreen, summarisePairs } from "../strict/pairs.ts";
import { listTddCycles, TddCycleSchema } from "../tdd/cycles.ts";
import type { TddEntry } from "../tdd/tdd-log.ts";
import { deriveTddState, TddStateSchema } from "../tdd/tdd-state.ts";

/**
 * `tailtest report`'s data: everything the HTML page shows, bounded. History can hold 1,000
 * entries and the event log grows without end, so every list is cut to a cap here and the page
 * says how much it shows of how much there is (`shown`/`total` pairs).
 */

export const REPORT_CAPS = {
  sessions: 60,
  files: 200,
  flagged: 50,
  agents: 20,
  cycles: 50,
  pairs: 100,
  slowest: 20,
  runs: 50,
  /** Characters of one name or message (file names are the user's own). */
  text: 300,
  /** Files drilled into per session, and failing tests shown per file. */
  sessionFiles: 50,
  failing: 10,
} as const;

const Count = z.number().int().min(0);

export const SlowTestSchema = z.object({
  id: z.string(),
  runner: z.optional(RunnerIdSchema),
  /** The slowest measured duration. */
  max_ms: z.number().min(0),
  /** The most recent duration. */
  last_ms: z.number().min(0),
  /** How many measured runs it appears in. */
  runs: Count,
});
export type SlowTest = z.infer<typeof SlowTestSchema>;

export const ReportPairSchema = z.object({
  test_id: z.string(),
  claim: z.string(),
  red_at: z.string(),
  green_at: z.string(),
  edits: z.array(z.string()),
  repairs: Count,
});

export const ReportAgentSchema = z.object({
  agent_key: z.string(),
  state: TddStateSchema,
  completed: Count,
  replaced: Count,
  open: Count,
  cycles_total: Count,
  /** Newest last, the newest `REPORT_CAPS.cycles`. */
  cycles: z.array(TddCycleSchema),
});

/**
 * Why one file of one session ended as it did, from the run of that session that last tested it
 * (`.tailtest/runs.json`): the tests it ran and the selection's evidence for each, the related
 * tests the time budget left out, and the failing tests with their capped failure excerpts.
 */
export const ReportFileWhySchema = z.object({
  file: z.string(),
  /** How the file ended that session (its history entry's class). */
  class: OutcomeClassViewSchema,
  run_at: z.string(),
  source: RunSourceSchema,
  selected: z.array(z.object({ path: z.string(), evidence: EvidenceSchema, detail: z.string() })),
  left_out: z.array(z.string()),
  failing: z.array(
    z.object({ id: RecordedTestSchema.shape.id, failure: RecordedTestSchema.shape.failure }),
  ),
  failing_total: Count,
  errors: z.array(
    z.object({ file: z.string().optional(), kind: FailureKindSchema, message: z.string() }),
  ),
});
export type ReportFileWhy = z.infer<typeof ReportFileWhySchema>;

/** A session as history counts it, with its drill-down: each file's why, its cycles, its claims. */
export const ReportSessionSchema = z.object({
  ...HistorySessionSchema.shape,
  /** Its files (capped), each with how it ended and, when a run of the session tested it, why. */
  file_rows: z.array(
    z.object({
      file: z.string(),
      class: OutcomeClassViewSchema,
      why: ReportFileWhySchema.optional(),
    }),
  ),
  cycles: z.array(TddCycleRecordSchema),
  claims: z.array(StrictClaimRecordSchema),
});
export type ReportSession = z.infer<typeof ReportSessionSchema>;

export const ReportFileSchema = z.object({
  ...HistoryFileRowSchema.shape,
  /** Why it ended so in its latest session (absent when no run of that session is logged). */
  why: ReportFileWhySchema.optional(),
});

export const ReportRunSchema = z.object({
  at: z.string(),
  source: RunSourceSchema,
  session_id: z.string().optional(),
  status: OverallStatusSchema,
  duration_ms: z.number().min(0),
  passed: Count,
  failed: Count,
});

export const ReportDataSchema = z.object({
  project: z.string(),
  generated_at: z.string(),
  version: z.string(),
  sessions: z.array(ReportSessionSchema),
  sessions_total: Count,
  files: z.array(ReportFileSchema),
  files_total: Count,
  regressions: z.array(HistoryFileRowSchema),
  recurring: z.array(HistoryFileRowSchema),
  tdd: z.array(ReportAgentSchema),
  agents_total: Count,
  strict: z.object({
    triples: Count,
    open: Count,
    escalated: Count,
    repairs: Count,
    pairs: z.array(ReportPairSchema),
  }),
  slowest: z.array(SlowTestSchema),
  runs: z.array(ReportRunSchema),
  runs_total: Count,
});
export type ReportData = z.infer<typeof ReportDataSchema>;

export interface ReportInput {
  /** A name for the project (its folder's name: never a path of this machine). */
  project: string;
  generatedAt: string;
  version: string;
  history: LiveHistory;
  runLog: RunLog;
  tdd: readonly { key: string; entries: readonly TddEntry[] }[];
  strictEvents: readonly StrictEvent[];
}

/** A user's text cut to `REPORT_CAPS.text` characters. */
export function capName(text: string): string {
  return text.length <= REPORT_CAPS.text ? text : `${text.slice(0, REPORT_CAPS.text - 1)}…`;
}

/**
 * The slowest tests by their own times, from the runners' reports. A strict-mode check runs one
 * test in a process of its own, and that process's time is no test's: it is not counted here.
 */
function slowestTests(runLog: RunLog): SlowTest[] {
  const tests = new Map<string, SlowTest>();
  const see = (id: string, ms: number, runner?: SlowTest["runner"]) => {
    const found = tests.get(id);
    tests.set(id, {
      id,
      ...(runner === undefined ? {} : { runner }),
      max_ms: Math.max(found?.max_ms ?? 0, ms),
      last_ms: ms,
      runs: (found?.runs ?? 0) + 1,
    });
  };
  for (const run of runLog.runs)
    for (const test of run.tests)
      if (test.duration_ms !== undefined) see(test.id, test.duration_ms, test.runner);
  return [...tests.values()]
    .sort((a, b) => b.max_ms - a.max_ms || a.id.localeCompare(b.id))
    .slice(0, REPORT_CAPS.slowest)
    .map((test) => ({ ...test, id: capName(test.id) }));
}

function agentsOf(tdd: ReportInput["tdd"]): ReportData["tdd"] {
  return tdd
    .map(({ key, entries }) => {
      const cycles = listTddCycles(entries);
      const by = (outcome: string) => cycles.filter((cycle) => cycle.outcome === outcome).length;
      return {
        agent_key: key,
        state: deriveTddState(entries).state,
        completed: by("complete"),
        replaced: by("replaced"),
        open: by("open"),
        cycles_total: cycles.length,
        cycles: cycles.slice(-REPORT_CAPS.cycles),
      };
    })
    .filter((agent) => agent.cycles_total > 0 || agent.state !== "initial")
    .slice(0, REPORT_CAPS.agents);
}

/**
 * Why `file` ended as it did in session `sessionId`: the newest run of that session that tested
 * it. Its failing tests are those of the test files that ran for it (all of the run's, when the
 * run was for that one file alone).
 */
export function whyOf(
  runLog: RunLog,
  sessionId: string,
  file: string,
  outcome: OutcomeClass,
): ReportFileWhy | undefined {
  const run = runLog.runs
    .filter((one) => one.session_id === sessionId && one.files.includes(file))
    .at(-1);
  if (run === undefined) return undefined;
  const selected = run.selection?.find((entry) => entry.source === file)?.tests ?? [];
  const paths = new Set(selected.map((test) => test.path));
  const mine = (testFile: string | undefined) =>
    testFile === undefined || paths.has(testFile) || (paths.size === 0 && run.files.length === 1);
  const failing = run.tests.filter((test) => test.status === "fail" && mine(test.file));
  return {
    file: capName(file),
    class: outcome,
    run_at: run.at,
    source: run.source,
    selected: selected.map((test) => ({ ...test, path: capName(test.path) })),
    left_out: leftOutFor(run, file),
    failing: failing.slice(0, REPORT_CAPS.failing).map((test) => ({
      id: capName(test.id),
      ...(test.failure === undefined ? {} : { failure: test.failure }),
    })),
    failing_total: failing.length,
    errors: (run.errors ?? []).filter((error) => mine(error.file)),
  };
}

/** The budget's left-out tests, said for every file of the run (the budget is the run's). */
function leftOutFor(run: RunRecord, file: string): string[] {
  return run.files.includes(file) ? (run.left_out ?? []).map(capName) : [];
}

/** Everything the report shows, each list capped. */
export function buildReport(input: ReportInput): ReportData {
  const view = summariseHistory(input.history.entries, input.history.live, input.history.records);
  const capRow = <T extends { file: string }>(row: T): T => ({ ...row, file: capName(row.file) });
  const pairs = pairRedGreen(input.strictEvents);
  const summary = summarisePairs(input.strictEvents);
  const agents = agentsOf(input.tdd);
  const records = new Map<string, SessionRecord>(
    input.history.records.map((record) => [record.session_id, record]),
  );
  const sessionFiles = (id: string) =>
    input.history.entries.filter((entry) => entry.session_id === id);
  return {
    project: capName(input.project),
    generated_at: input.generatedAt,
    version: input.version,
    sessions: view.sessions.slice(-REPORT_CAPS.sessions).map((session) => {
      const record = records.get(session.session_id);
      return {
        ...session,
        file_rows: sessionFiles(session.session_id)
          .slice(0, REPORT_CAPS.sessionFiles)
          .map((entry) => {
            const why = whyOf(input.runLog, session.session_id, entry.file, entryClass(entry));
            return {
              file: capName(entry.file),
              class: entryClass(entry),
              ...(why === undefined ? {} : { why }),
            };
          }),
        cycles: (record?.tdd?.cycles ?? []).slice(-REPORT_CAPS.cycles),
        claims: (record?.strict?.claims ?? []).slice(-REPORT_CAPS.pairs),
      };
    }),
    sessions_total: view.sessions_total,
    files: view.files.slice(0, REPORT_CAPS.files).map((row) => {
      const why = whyOf(input.runLog, row.session_id, row.file, row.class);
      return { ...capRow(row), ...(why === undefined ? {} : { why }) };
    }),
    files_total: view.files_total,
    regressions: view.files
      .filter((row) => row.regression)
      .slice(0, REPORT_CAPS.flagged)
      .map(capRow),
    recurring: view.files
      .filter((row) => row.recurring)
      .sort((a, b) => b.failed_sessions - a.failed_sessions)
      .slice(0, REPORT_CAPS.flagged)
      .map(capRow),
    tdd: agents,
    agents_total: input.tdd.length,
    strict: {
      triples: summary.triples,
      open: summary.open,
      escalated: summary.escalated,
      repairs: summary.repairs,
      pairs: pairs.slice(-REPORT_CAPS.pairs).map((triple) => ({
        test_id: capName(triple.test_id),
        claim: triple.claim,
        red_at: triple.red.ts,
        green_at: triple.green.ts,
        edits: triple.edits.map((edit) => capName(edit.path)),
        repairs: triple.repairs,
      })),
    },
    slowest: slowestTests(input.runLog),
    runs: input.runLog.runs.slice(-REPORT_CAPS.runs).map((run) => ({
      at: run.at,
      source: run.source,
      ...(run.session_id === undefined ? {} : { session_id: run.session_id }),
      status: run.status,
      duration_ms: run.duration_ms,
      passed: run.runners.reduce((sum, runner) => sum + runner.passed, 0),
      failed: run.runners.reduce((sum, runner) => sum + runner.failed, 0),
    })),
    runs_total: input.runLog.runs.length,
  };
}
