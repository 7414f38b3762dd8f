import * as z from "zod";
import {
  HistoryFileRowSchema,
  HistorySessionSchema,
  summariseHistory,
  type LiveHistory,
} from "./history-view.ts";
import { OverallStatusSchema, RunSourceSchema, type RunLog } from "./run-log.ts";
import { RunnerIdSchema } from "./runners.ts";
import type { StrictEvent } from "./strict/events.ts";
import { pairRedGreen, summarisePairs } from "./strict/pairs.ts";
import { listTddCycles, TddCycleSchema } from "./tdd/cycles.ts";
import type { TddEntry } from "./tdd/log.ts";
import { deriveTddState, TddStateSchema } from "./tdd/state.ts";

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

export const ReportRunSchema = z.object({
  at: z.string(),
  source: RunSourceSchema,
  status: OverallStatusSchema,
  duration_ms: z.number().min(0),
  passed: Count,
  failed: Count,
});

export const ReportDataSchema = z.object({
  project: z.string(),
  generated_at: z.string(),
  version: z.string(),
  sessions: z.array(HistorySessionSchema),
  sessions_total: Count,
  files: z.array(HistoryFileRowSchema),
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

function slowestTests(runLog: RunLog, strictEvents: readonly StrictEvent[]): SlowTest[] {
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
  for (const event of strictEvents)
    if (event.type === "test_run" && event.status !== "not_run")
      see(event.test_id, event.duration_ms, event.test.runner);
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

/** Everything the report shows, each list capped. */
export function buildReport(input: ReportInput): ReportData {
  const view = summariseHistory(input.history.entries, input.history.live);
  const capRow = <T extends { file: string }>(row: T): T => ({ ...row, file: capName(row.file) });
  const pairs = pairRedGreen(input.strictEvents);
  const summary = summarisePairs(input.strictEvents);
  const agents = agentsOf(input.tdd);
  return {
    project: capName(input.project),
    generated_at: input.generatedAt,
    version: input.version,
    sessions: view.sessions.slice(-REPORT_CAPS.sessions),
    sessions_total: view.sessions_total,
    files: view.files.slice(0, REPORT_CAPS.files).map(capRow),
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
    slowest: slowestTests(input.runLog, input.strictEvents),
    runs: input.runLog.runs.slice(-REPORT_CAPS.runs).map((run) => ({
      at: run.at,
      source: run.source,
      status: run.status,
      duration_ms: run.duration_ms,
      passed: run.runners.reduce((sum, runner) => sum + runner.passed, 0),
      failed: run.runners.reduce((sum, runner) => sum + runner.failed, 0),
    })),
    runs_total: input.runLog.runs.length,
  };
}
