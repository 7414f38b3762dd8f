import * as z from "zod/mini";
import { ModeSchema } from "../config/config.ts";
import { DepthSchema } from "../config/depth.ts";
import {
  LastFailureSchema,
  OutcomeStatusSchema,
  selectLastFailures,
  type HistoryOutcome,
  type OutcomeStatus,
} from "./history-state.ts";
import { LanguageSchema } from "../filter/languages.ts";
import { DetectedRunnerSchema, RunnerIdSchema } from "../runners/project-runners.ts";
import { lazy } from "../util/lazy.ts";

export const SESSION_VERSION = 1;
export const SCENARIO_LOG_CAP = 500;
/** The fix-attempt ceiling: after this many red rounds a file is left failed. */
export const MAX_FIX_ATTEMPTS = 3;

export const PendingStatusSchema = z.enum(["new", "existing", "ramp-up"]);
export type PendingStatus = z.infer<typeof PendingStatusSchema>;

export const PendingFileSchema = z.object({
  path: z.string().check(z.minLength(1)),
  language: LanguageSchema,
  status: PendingStatusSchema,
  runner: z.optional(RunnerIdSchema),
  package_dir: z.optional(z.string()),
  test_path: z.optional(z.string()),
  test_exists: z.optional(z.boolean()),
  depth: z.optional(DepthSchema),
  /** The subagent that edited the file; absent for the main agent. Each verifies its own. */
  agent_id: z.optional(z.string()),
  /** A test or test support file: queued to be run (and the tests it reaches), never asked for a test. */
  role: z.optional(z.enum(["test"])),
});
export type PendingFile = z.infer<typeof PendingFileSchema>;

export const ScenarioEntrySchema = lazy(() =>
  z.object({
    file: z.string().check(z.minLength(1)),
    /** An outcome status; a log written before history version 2 may hold `unresolved`/`deferred`. */
    status: z.union([OutcomeStatusSchema, z.enum(["unresolved", "deferred"])]),
    attempts: z.number().check(z.int(), z.minimum(0)),
    session_id: z.string().check(z.minLength(1)),
    timestamp: z.string(),
  }),
);
export type ScenarioEntry = z.infer<typeof ScenarioEntrySchema>;

/** A measured test result for a source file, written by the test engine, never by the model. */
export const FileFailureSchema = z.enum([
  "assertion",
  "collection",
  "timeout",
  "crash",
  "environment",
]);
/**
 * Why a file's tests failed: a red assertion, a file that would not load, a hang, a death, or an
 * environment that could not start the runner or import a dependency (not the code's fault).
 */
export type FileFailure = z.infer<typeof FileFailureSchema>;

export const FileResultSchema = lazy(() =>
  z.object({
    /** `env_error`: the runner could not start, so nothing of the code was judged. */
    outcome: z.enum(["passed", "failed", "missing_test", "env_error"]),
    test_path: z.optional(z.string()),
    /** Set on a failure: older sessions lack it, so it stays optional. */
    failure: z.optional(FileFailureSchema),
    at: z.string(),
  }),
);
export type FileResult = z.infer<typeof FileResultSchema>;

/** A count: a whole number, never negative. */
const Count = z.number().check(z.int(), z.minimum(0));

/**
 * One queued edit, as a line of the session's journal (`node/store.ts` `appendState`, ADR 0010):
 * the file's queue entry and its complexity score.
 */
export const QueuedEditSchema = lazy(() =>
  z.object({
    queue: PendingFileSchema,
    score: z.optional(Count),
  }),
);
export type QueuedEdit = z.infer<typeof QueuedEditSchema>;

export const SessionStateSchema = lazy(() =>
  z.object({
    version: z.literal(SESSION_VERSION),
    session_id: z.string().check(z.minLength(1)),
    started_at: z.string(),
    platform: z.optional(z.enum(["claude-code", "cursor", "codex", "cli"])),
    depth: DepthSchema,
    mode: ModeSchema,
    paused: z.boolean(),
    runners: z.array(DetectedRunnerSchema),
    pending_files: z.array(PendingFileSchema),
    touched_files: z.array(z.string()),
    fix_attempts: z.record(z.string(), Count),
    generated_tests: z.record(z.string(), z.string()),
    deferred_failures: z.array(z.string()),
    complexity_scores: z.record(z.string(), Count),
    results: z.record(z.string(), FileResultSchema),
    scenario_log: z.array(ScenarioEntrySchema),
    last_failures: z.array(LastFailureSchema),
    /** One-time notices already shown this session (e.g. a config error), so each is said once. */
    notices_shown: z.array(z.string()),
    /** Consecutive end-of-turn blocks, so the agent is never trapped (config stop_loop_budget). */
    stop_blocks: z._default(Count, 0),
    /**
     * The mode `tailtest mode confirm` loosened during the session, until the next end of a turn
     * says so (ADR 0012): a confirmation run from the agent's shell under another name is told.
     */
    mode_confirmed_from: z.optional(ModeSchema),
    /** When the current user turn began (Codex UserPromptSubmit), for the Stop sweep. */
    turn_started_at: z.optional(z.string()),
    /**
     * Whether tailtest kept a content baseline of the work tree for this session (tdd and strict,
     * ADR 0012): one missing or unreadable at a Stop after it was removed by something else, and
     * the Stop says that its look fell back to mtimes.
     */
    baseline_kept: z.optional(z.boolean()),
    /** When the last Stop sweep began: the next sweep looks at files changed after it (less the slack). */
    last_sweep_at: z.optional(z.string()),
    /**
     * Files the last sweep found changed close to its start (path to mtime in ms): the next sweep
     * looks again from slightly before it, and drops a file whose mtime is still the one seen, so a
     * change is reported once and a change just after the sweep began is not missed.
     */
    sweep_seen: z.optional(z.record(z.string(), z.number())),
    /**
     * Tracked files missing from the work tree when the turn began or at the last sweep (tdd and
     * strict): a file missing later and not here was deleted since, by whatever did it.
     */
    missing_seen: z.optional(z.array(z.string())),
    /**
     * When the agent ended the session (SessionEnd); the file stays until the next session starts,
     * so `tailtest status` tells an ended session from a live one. A resume clears it.
     */
    ended_at: z.optional(z.string()),
    /**
     * How far the session's journal of queued edits is folded in: the journal file's inode and the
     * bytes read (`node/store.ts` `JournalCursor`).
     */
    journal: z.optional(z.object({ ino: z.number(), bytes: Count })),
  }),
);
export type SessionState = z.infer<typeof SessionStateSchema>;

/**
 * What a queued edit reads of the session without its lock (store.ts `StateFile.hotSchema`, ADR
 * 0010): the version, the queue, the touched files, the scores, the end of the session and the
 * journal's cursor — what follow mode's note and the journal's fold (`applyQueuedEdit`) use —
 * each checked as `SessionStateSchema` checks it; the other fields pass through unchecked. Its
 * 89 zod instances are a hook's largest schema, and an edit of a file already queued writes
 * nothing, so the whole one is built and parsed only under the lock, where the session is
 * written (and moved aside when it does not pass).
 */
export const SessionHotSchema = lazy(() =>
  z.looseObject({
    version: z.literal(SESSION_VERSION),
    pending_files: z.array(PendingFileSchema),
    touched_files: z.array(z.string()),
    complexity_scores: z.record(z.string(), Count),
    ended_at: z.optional(z.string()),
    journal: z.optional(z.object({ ino: z.number(), bytes: Count })),
  }),
);

export interface NewSessionInput {
  sessionId: string;
  now: string;
  depth: SessionState["depth"];
  mode: SessionState["mode"];
  runners: SessionState["runners"];
  platform?: SessionState["platform"];
  /** The session this one follows: its red files become `last_failures`. */
  previous?: SessionState | undefined;
}

export function createSession(input: NewSessionInput): SessionState {
  const previousOutcomes =
    input.previous === undefined ? [] : buildScenarioEntries(input.previous, input.now);
  return {
    version: SESSION_VERSION,
    session_id: input.sessionId,
    started_at: input.now,
    ...(input.platform === undefined ? {} : { platform: input.platform }),
    depth: input.depth,
    mode: input.mode,
    paused: false,
    runners: input.runners,
    pending_files: [],
    touched_files: [],
    fix_attempts: {},
    generated_tests: {},
    deferred_failures: [],
    complexity_scores: {},
    results: {},
    scenario_log: [],
    last_failures: selectLastFailures(previousOutcomes),
    notices_shown: [],
    stop_blocks: 0,
  };
}

/** A session id: UTC time plus six random characters (`2026-05-01T14-03-09-a1b2c3`). */
export function makeSessionId(now: Date, random: () => number): string {
  const stamp = now.toISOString().slice(0, 19).replace(/:/g, "-");
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  let suffix = "";
  for (let i = 0; i < 6; i += 1) suffix += alphabet[Math.floor(random() * alphabet.length)] ?? "a";
  return `${stamp}-${suffix}`;
}

export type QueueResult = { state: SessionState; added: boolean; pendingCount: number };

/** Adds a file to the queue, or refreshes its entry when it is already queued. */
export function queueFile(state: SessionState, entry: PendingFile): QueueResult {
  // A test queued only to be run is not one of the session's touched source files.
  const touched =
    state.touched_files.includes(entry.path) || entry.role === "test"
      ? state.touched_files
      : [...state.touched_files, entry.path];
  const index = state.pending_files.findIndex((pending) => pending.path === entry.path);
  const pending =
    index === -1
      ? [...state.pending_files, entry]
      : state.pending_files.map((pending, i) =>
          // A file first seen as new stays new when edited again in the same session.
          i === index
            ? { ...entry, status: pending.status === "new" ? "new" : entry.status }
            : pending,
        );
  // An edit after SessionEnd (an agent that goes on without a new SessionStart): the session is
  // live again, and its end is recorded when it really ends.
  const live: SessionState = { ...state, touched_files: touched, pending_files: pending };
  delete live.ended_at;
  return {
    state: live,
    added: index === -1,
    // Files queued only to be run (a test, a helper) ask the agent for no test of their own.
    pendingCount: pending.filter((item) => item.role === undefined).length,
  };
}

/** A queued edit applied to the session: `queueFile`, and the file's complexity score. */
export function applyQueuedEdit(state: SessionState, edit: QueuedEdit): QueueResult {
  const queued = queueFile(state, edit.queue);
  if (edit.score === undefined) return queued;
  const scores = { ...queued.state.complexity_scores, [edit.queue.path]: edit.score };
  return { ...queued, state: { ...queued.state, complexity_scores: scores } };
}

/** One line of the session's journal folded in; a line that is not a queued edit changes nothing. */
export function foldJournalLine(state: SessionState, line: string): SessionState {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return state;
  }
  const edit = z.safeParse(QueuedEditSchema, json);
  return edit.success ? applyQueuedEdit(state, edit.data).state : state;
}

/** Takes deleted files out of the queue: there is nothing left to test. */
export function unqueueFiles(state: SessionState, paths: readonly string[]): SessionState {
  const gone = new Set(paths);
  const pending = state.pending_files.filter((entry) => !gone.has(entry.path));
  return pending.length === state.pending_files.length
    ? state
    : { ...state, pending_files: pending };
}

export function recordTouched(state: SessionState, path: string): SessionState {
  return state.touched_files.includes(path)
    ? state
    : { ...state, touched_files: [...state.touched_files, path] };
}

export function markNoticeShown(
  state: SessionState,
  notice: string,
): { state: SessionState; firstTime: boolean } {
  if (state.notices_shown.includes(notice)) return { state, firstTime: false };
  return { state: { ...state, notices_shown: [...state.notices_shown, notice] }, firstTime: true };
}

/** The outcome status of one measured result (history-state.ts `OutcomeStatusSchema`). */
export function outcomeStatusOf(result: FileResult, attempts: number): OutcomeStatus {
  if (result.outcome === "passed") return attempts === 0 ? "passed" : "fixed";
  if (result.outcome === "missing_test") return "missing_test";
  if (result.outcome === "env_error") return "env_error";
  if (result.failure === "timeout") return "timeout";
  if (result.failure === "environment") return "env_error";
  return "failed";
}

/**
 * Per-file outcomes for the history. Measured results decide (none is "passed" on the model's
 * word); a file with nothing measured, or put off, is `not_run`. Each outcome keeps the time it
 * was measured, so flushing the session again never re-stamps it (`now` only dates a file that
 * never ran).
 */
export function buildScenarioEntries(state: SessionState, now: string): HistoryOutcome[] {
  const files = new Set([
    ...Object.keys(state.results),
    ...Object.keys(state.generated_tests),
    ...state.deferred_failures,
  ]);
  const entries: HistoryOutcome[] = [];
  for (const file of files) {
    const attempts = state.fix_attempts[file] ?? 0;
    const result = state.results[file];
    const status: OutcomeStatus =
      state.deferred_failures.includes(file) || result === undefined
        ? "not_run"
        : outcomeStatusOf(result, attempts);
    const timestamp = result?.at ?? state.ended_at ?? now;
    entries.push({ file, status, attempts, session_id: state.session_id, timestamp });
  }
  return entries;
}

export function appendScenarioLog(
  state: SessionState,
  entries: readonly ScenarioEntry[],
): SessionState {
  const kept = state.scenario_log.filter(
    (old) =>
      !entries.some((entry) => entry.file === old.file && entry.session_id === old.session_id),
  );
  return { ...state, scenario_log: [...kept, ...entries].slice(-SCENARIO_LOG_CAP) };
}

/** How far before the turn start an end-of-turn sweep looks (coarse file-system timestamps). */
export const SWEEP_SLACK_MS = 2000;

/**
 * Where an end-of-turn sweep starts looking for changed files: the session start, the turn start
 * or the last sweep (both less the slack: a file's mtime comes from a coarse clock and may read
 * earlier than the write), the latest. What the last sweep saw in the slack is in `sweep_seen`.
 */
export function sweepSince(session: SessionState): number {
  return Math.max(
    Date.parse(session.started_at),
    session.turn_started_at === undefined
      ? 0
      : Date.parse(session.turn_started_at) - SWEEP_SLACK_MS,
    session.last_sweep_at === undefined ? 0 : Date.parse(session.last_sweep_at) - SWEEP_SLACK_MS,
  );
}
