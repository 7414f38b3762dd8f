import * as z from "zod/mini";
import { CodexTrustSchema, type CodexTrust } from "../install/codex-trust.ts";
import { ModeSchema, type Mode } from "../config/config.ts";
import { HookInstallSchema, type HookInstall } from "../install/doctor-checks.ts";
import { countOutcomes, OUTCOME_LABELS, type HistoryFile } from "../state/history-state.ts";
import {
  describeSessionCounts,
  HistorySessionSchema,
  OutcomeClassViewSchema,
  OutcomeCountsSchema,
  shortTime,
  summariseSessions,
  withLiveSessions,
  type HistorySession,
} from "./history-view.ts";
import { OverallStatusSchema, type RunLog } from "../state/run-log.ts";
import { runnerLabel } from "../runners/project-runners.ts";
import { outcomeStatusOf, PendingStatusSchema, type SessionState } from "../state/session.ts";
import { summarisePairs } from "../strict/pairs.ts";
import { deriveStrictState, openClaims } from "../strict/strict-state.ts";
import type { StrictEvent } from "../strict/strict-events.ts";
import { listTddCycles } from "../tdd/cycles.ts";
import type { TddEntry } from "../tdd/tdd-log.ts";
import { deriveTddState, TddStateSchema } from "../tdd/tdd-state.ts";
import { renderColumns, type TextStyle } from "./text-style.ts";

/**
 * `tailtest status`: mode, hooks per platform (and Codex trust), the sessions and their queues,
 * each agent's TDD state, strict mode's claims, and the last test run. Pure: the CLI reads the
 * files; `buildStatus` decides what they say and `renderStatus` writes it for people.
 */

export const StatusHookSchema = z.extend(HookInstallSchema, {
  /** Codex only, when its hooks are installed. */
  trust: z.optional(CodexTrustSchema),
});

const Count = z.number().check(z.int(), z.minimum(0));

export const StatusQueuedSchema = z.object({
  path: z.string(),
  status: PendingStatusSchema,
  test_path: z.optional(z.string()),
  test_exists: z.optional(z.boolean()),
  agent_id: z.optional(z.string()),
  /** Queued only to be run with the tests that reach it (a test, a config, a deleted module). */
  role: z.optional(z.enum(["test"])),
});

export const StatusSessionSchema = z.object({
  /** Project-relative session file. */
  path: z.string(),
  session_id: z.string(),
  platform: z.optional(z.string()),
  started_at: z.string(),
  mode: ModeSchema,
  queue: z.array(StatusQueuedSchema),
  /** Each measured file's outcome class this session (as history records it). */
  results: z.record(z.string(), OutcomeClassViewSchema),
  /** Files per outcome class: history-view's `summariseSessions`, the same numbers as history and the report. */
  counts: OutcomeCountsSchema,
  /** tdd mode's cycles this session, counted as history and the report count them. */
  tdd: HistorySessionSchema.shape.tdd,
  /** strict mode's claims this session, counted as history and the report count them. */
  strict: HistorySessionSchema.shape.strict,
  /** Rounds in a row the end of the turn has sent the agent back. */
  stop_blocks: Count,
  /** When the agent ended the session (SessionEnd): absent while it is live. */
  ended_at: z.optional(z.string()),
});

export const StatusTddSchema = z.object({
  agent_key: z.string(),
  state: TddStateSchema,
  /** The active declaration, in one line. */
  active: z.optional(z.string()),
  last_test: z.optional(z.object({ outcome: z.enum(["passed", "failed"]), at: z.string() })),
  cycles_completed: Count,
});

export const LastRunSchema = z.object({
  at: z.string(),
  /** `hook`: the end of an agent's turn; `run`/`watch`: the CLI. */
  source: z.enum(["hook", "run", "watch"]),
  status: OverallStatusSchema,
  /** Files by outcome: every file of an end-of-turn run; a CLI run's failing and missing ones. */
  files: z.array(z.object({ file: z.string(), outcome: z.string() })),
  /** A CLI run's test counts. */
  tests: z.optional(z.object({ passed: Count, failed: Count })),
  duration_ms: z.optional(z.number().check(z.minimum(0))),
  runners: z.array(z.string()),
});
export type LastRun = z.infer<typeof LastRunSchema>;

export const StatusReportSchema = z.object({
  mode: z.object({
    value: ModeSchema,
    source: z.enum(["config", "default"]),
    problems: z.array(z.string()),
  }),
  hooks: z.array(StatusHookSchema),
  sessions: z.array(StatusSessionSchema),
  tdd: z.array(StatusTddSchema),
  strict: z.optional(
    z.object({
      mode: z.enum(["strict", "refactor"]),
      open_claims: z.array(z.object({ claim: z.string(), test_id: z.string() })),
      triples: Count,
      escalated: Count,
    }),
  ),
  last_run: z.optional(LastRunSchema),
  /** State files that could not be read (they are never changed by status). */
  problems: z.array(z.string()),
});
export type StatusReport = z.infer<typeof StatusReportSchema>;

export interface StatusInput {
  mode: Mode;
  modeFromConfig: boolean;
  configProblems: readonly string[];
  hooks: readonly HookInstall[];
  codexTrust?: CodexTrust | undefined;
  sessions: readonly { path: string; session: SessionState }[];
  tdd: readonly { key: string; entries: readonly TddEntry[] }[];
  strictEvents: readonly StrictEvent[];
  runLog: RunLog;
  /** history.json: each session's counts are read through it, as `history` and `report` do. */
  history: HistoryFile;
  /** The time an open session's never-run files are dated with (history-view `withLiveSessions`). */
  now: string;
  problems: readonly string[];
}

function describeDeclaration(entries: readonly TddEntry[]): string | undefined {
  const declaration = deriveTddState(entries).declaration;
  if (declaration === undefined) return undefined;
  if (declaration.kind === "red") return `Red: ${declaration.test} (${declaration.expects})`;
  return `Green: ${declaration.change} (${declaration.files.join(", ")})`;
}

/** The newest end-of-turn run of a session: the results that share the latest `at`. */
function lastHookRun(sessions: StatusInput["sessions"]): LastRun | undefined {
  let latest: { at: string; session: SessionState } | undefined;
  for (const { session } of sessions) {
    for (const result of Object.values(session.results)) {
      if (latest === undefined || result.at > latest.at) latest = { at: result.at, session };
    }
  }
  if (latest === undefined) return undefined;
  const { at, session } = latest;
  const files = Object.entries(session.results)
    .filter(([, result]) => result.at === at)
    .map(([file, result]) => ({
      file,
      outcome: outcomeStatusOf(result, session.fix_attempts[file] ?? 0),
    }));
  const failed = files.some((file) => file.outcome !== "passed" && file.outcome !== "fixed");
  // The session keeps outcomes per file, not which runner produced them.
  return { at, source: "hook", status: failed ? "failed" : "passed", files, runners: [] };
}

function lastCliRun(log: RunLog): LastRun | undefined {
  const run = log.runs.at(-1);
  if (run === undefined) return undefined;
  const failing = [...new Set(run.tests.filter((t) => t.status === "fail").map((t) => t.file))];
  const sum = (key: "passed" | "failed") =>
    run.runners.reduce((total, runner) => total + runner[key], 0);
  return {
    at: run.at,
    source: run.source,
    status: run.status,
    files: [
      ...failing.map((file) => ({ file, outcome: "failed" })),
      ...run.missing.map((file) => ({ file, outcome: "missing_test" })),
    ],
    tests: { passed: sum("passed"), failed: sum("failed") },
    duration_ms: run.duration_ms,
    runners: [...new Set(run.runners.map((runner) => runnerLabel(runner.runner)))],
  };
}

/**
 * When the session ended, unless something happened in it since (a test run, a turn, a sweep:
 * a hook of the same session that came without a SessionStart), which makes it live again.
 */
function endedAt(session: SessionState): string | undefined {
  const ended = session.ended_at;
  if (ended === undefined) return undefined;
  const later = [
    ...Object.values(session.results).map((result) => result.at),
    session.turn_started_at,
    session.last_sweep_at,
  ].some((at) => at !== undefined && at > ended);
  return later ? undefined : ended;
}

/** A session's counts, cycles and claims as history counts them (zero counts when none). */
function measuredParts(
  summary: HistorySession | undefined,
): Pick<StatusReport["sessions"][number], "counts" | "tdd" | "strict"> {
  return {
    counts: summary?.counts ?? countOutcomes([]),
    ...(summary?.tdd === undefined ? {} : { tdd: summary.tdd }),
    ...(summary?.strict === undefined ? {} : { strict: summary.strict }),
  };
}

/** The status report of a project from what its state files hold. */
export function buildStatus(input: StatusInput): StatusReport {
  const hookRun = lastHookRun(input.sessions);
  const cliRun = lastCliRun(input.runLog);
  let lastRun = hookRun ?? cliRun;
  if (hookRun !== undefined && cliRun !== undefined) {
    if (cliRun.at > hookRun.at) lastRun = cliRun;
    // The same run seen twice (the end of a turn, or a watch, records both at one time): the
    // session's outcome per file, the run log's source, runners and test counts.
    else if (cliRun.at === hookRun.at) lastRun = { ...cliRun, files: hookRun.files };
  }
  const strictState = deriveStrictState(input.strictEvents);
  const pairs = summarisePairs(input.strictEvents);
  const showStrict = input.mode === "strict" || input.strictEvents.length > 0;
  // Each session counted the way history and the report count it: one function, one answer.
  const live = withLiveSessions(
    input.history,
    input.sessions.map(({ session }) => session),
    input.now,
    input,
  );
  const summaries = summariseSessions(live.entries, live.live, live.records);
  return {
    mode: {
      value: input.mode,
      source: input.modeFromConfig ? "config" : "default",
      problems: [...input.configProblems],
    },
    hooks: input.hooks.map((hook) => ({
      ...hook,
      ...(hook.platform === "codex" && hook.installed && input.codexTrust !== undefined
        ? { trust: input.codexTrust }
        : {}),
    })),
    sessions: input.sessions.map(({ path, session }) => {
      const ended = endedAt(session);
      return {
        path,
        session_id: session.session_id,
        ...(session.platform === undefined ? {} : { platform: session.platform }),
        started_at: session.started_at,
        mode: session.mode,
        queue: session.pending_files.map((entry) => ({
          path: entry.path,
          status: entry.status,
          ...(entry.test_path === undefined ? {} : { test_path: entry.test_path }),
          ...(entry.test_exists === undefined ? {} : { test_exists: entry.test_exists }),
          ...(entry.agent_id === undefined ? {} : { agent_id: entry.agent_id }),
          ...(entry.role === undefined ? {} : { role: entry.role }),
        })),
        results: Object.fromEntries(
          live.entries
            .filter((entry) => entry.session_id === session.session_id)
            .map((entry) => [entry.file, entry.regression ? "regression" : entry.status]),
        ),
        ...measuredParts(summaries.find((summary) => summary.session_id === session.session_id)),
        stop_blocks: session.stop_blocks,
        ...(ended === undefined ? {} : { ended_at: ended }),
      };
    }),
    tdd: input.tdd.map(({ key, entries }) => {
      const view = deriveTddState(entries);
      const active = describeDeclaration(entries);
      return {
        agent_key: key,
        state: view.state,
        ...(active === undefined ? {} : { active }),
        ...(view.lastTest === undefined
          ? {}
          : { last_test: { outcome: view.lastTest.outcome, at: view.lastTest.at } }),
        cycles_completed: listTddCycles(entries).filter((cycle) => cycle.outcome === "complete")
          .length,
      };
    }),
    ...(showStrict
      ? {
          strict: {
            mode: strictState.mode,
            open_claims: openClaims(strictState).map((claim) => ({
              claim: claim.claim,
              test_id: claim.test_id,
            })),
            triples: pairs.triples,
            escalated: pairs.escalated,
          },
        }
      : {}),
    ...(lastRun === undefined ? {} : { last_run: lastRun }),
    problems: [...input.problems],
  };
}

// ---------------------------------------------------------------------------------------------
// text

const PLATFORM_NAMES: Readonly<Record<string, string>> = {
  "claude-code": "Claude Code",
  cursor: "Cursor",
  codex: "Codex",
  cli: "tailtest watch",
};

function hookLines(report: StatusReport, style: TextStyle): string[] {
  return report.hooks.flatMap((hook) => {
    if (!hook.installed) return [`${hook.label}: ${style.dim("not installed")}`];
    let trust = "";
    if (hook.trust !== undefined)
      trust = hook.trust.pending
        ? `; ${style.warn("trust pending")}`
        : `; ${style.good("trusted")}`;
    return [
      `${hook.label}: ${style.good("installed")} (${hook.files.join(", ")})${trust}`,
      ...(hook.trust?.lines ?? []).map((line) => `  ${line}`),
      ...hook.problems.map((problem) => `  ${style.warn(problem)}`),
    ];
  });
}

function queueLine(entry: StatusReport["sessions"][number]["queue"][number]): string {
  let test = "";
  if (entry.test_path !== undefined)
    test =
      entry.test_exists === false
        ? `, test ${entry.test_path} missing`
        : `, test ${entry.test_path}`;
  const agent = entry.agent_id === undefined ? "" : `, subagent ${entry.agent_id}`;
  // A test, a runner config, a deleted module: run with what reaches it, no test asked of it.
  if (entry.role === "test") return `${entry.path} (run only${agent})`;
  return `${entry.path} (${entry.status}${test}${agent})`;
}

function sessionLines(report: StatusReport, style: TextStyle): string[] {
  if (report.sessions.length === 0)
    return ["none yet: a session starts with an agent's first hook (or tailtest watch)"];
  return report.sessions.flatMap((session) => {
    const who = PLATFORM_NAMES[session.platform ?? ""] ?? "an agent";
    const measured =
      Object.keys(session.results).length === 0 &&
      session.tdd === undefined &&
      session.strict === undefined
        ? "nothing measured yet"
        : describeSessionCounts(session);
    const queue =
      session.queue.length === 0
        ? ["  queue empty"]
        : [
            `  queue: ${session.queue.length} file(s)`,
            ...session.queue.map((e) => `    ${queueLine(e)}`),
          ];
    const ended =
      session.ended_at === undefined
        ? ""
        : `, ${style.dim(`ended ${shortTime(session.ended_at)} UTC`)}`;
    return [
      `${session.session_id} (${who}, ${session.mode} mode, started ${shortTime(session.started_at)} UTC${ended}) in ${session.path}`,
      `  this session: ${measured}`,
      ...queue,
    ];
  });
}

function tddLines(report: StatusReport, style: TextStyle): string[] {
  return report.tdd.map((agent) => {
    const state = agent.state === "red" ? style.bad(agent.state) : agent.state;
    const active = agent.active === undefined ? "" : `; ${agent.active}`;
    const last =
      agent.last_test === undefined
        ? ""
        : `; last test ${agent.last_test.outcome === "passed" ? style.good("passed") : style.bad("failed")}`;
    return `${agent.agent_key}: ${state}${active}${last}; ${agent.cycles_completed} cycle(s) completed`;
  });
}

function labelOf(outcome: string): string {
  return (OUTCOME_LABELS as Readonly<Record<string, string>>)[outcome] ?? outcome.replace("_", " ");
}

function lastRunLine(run: LastRun | undefined, style: TextStyle): string {
  if (run === undefined) return "none yet";
  const status =
    run.status === "passed" ? style.good(run.status) : style.bad(run.status.replace("_", " "));
  const by = run.source === "hook" ? "at the end of an agent's turn" : `by tailtest ${run.source}`;
  const time = run.duration_ms === undefined ? "" : `, ${(run.duration_ms / 1000).toFixed(1)}s`;
  const runners = run.runners.length === 0 ? "" : ` (${run.runners.join(", ")}${time})`;
  const tests =
    run.tests === undefined
      ? ""
      : `; ${run.tests.passed} test(s) passed, ${run.tests.failed} failed`;
  const files =
    run.files.length === 0
      ? ""
      : `: ${run.files.map((f) => `${f.file} ${labelOf(f.outcome)}`).join(", ")}`;
  return `${status} ${by}, ${shortTime(run.at)} UTC${runners}${tests}${files}`;
}

/** `tailtest status` for people: one labelled block per part. */
export function renderStatus(report: StatusReport, style: TextStyle): string {
  const mode = `${style.bold(report.mode.value)} (${report.mode.source === "config" ? "set in .tailtest/config.json" : "the default"})`;
  const blocks: [string, string[]][] = [
    ["mode", [mode, ...report.mode.problems.map((p) => style.warn(p))]],
    ["hooks", hookLines(report, style)],
    ["sessions", sessionLines(report, style)],
  ];
  if (report.tdd.length > 0) blocks.push(["tdd", tddLines(report, style)]);
  if (report.strict !== undefined) {
    const claims = report.strict.open_claims;
    blocks.push([
      "strict",
      [
        `${report.strict.mode}; ${claims.length} open claim(s); ${report.strict.triples} red→green pair(s); ${report.strict.escalated} escalated`,
        ...claims.map((claim) => `  ${claim.claim}: ${claim.test_id}`),
      ],
    ]);
  }
  blocks.push(["last run", [lastRunLine(report.last_run, style)]]);
  if (report.problems.length > 0)
    blocks.push(["problems", report.problems.map((p) => style.warn(p))]);
  const rows = blocks.flatMap(([label, lines]) =>
    lines.map((line, index) => [index === 0 ? style.dim(label) : "", line]),
  );
  return `${renderColumns(rows).join("\n")}\n`;
}
