import * as z from "zod/mini";
import { lazy } from "../util/lazy.ts";
import { SessionRecordSchema, type SessionRecord } from "./session-record.ts";

export const HISTORY_CAP = 1000;
export const HISTORY_VERSION = 3;
/** How many sessions' records (mode, times, TDD cycles, strict claims) history keeps, the newest. */
export const HISTORY_SESSIONS_CAP = 200;

/**
 * How one file ended one session, measured, never on the model's word:
 * - `passed`: its tests ran green the first time; `fixed`: green after at least one red round;
 * - `failed`: a test ran red (or its test file would not load or crashed the runner);
 * - `missing_test`: no test file for it; `not_run`: nothing ran for it (nothing selected, the
 *   loop budget spent, or the session ended first);
 * - `env_error`: the runner or a dependency could not start or import: the environment, not the
 *   code; `timeout`: its tests were stopped after the configured timeout.
 */
export const OutcomeStatusSchema = lazy(() =>
  z.enum(["passed", "fixed", "failed", "missing_test", "not_run", "env_error", "timeout"]),
);
export type OutcomeStatus = z.infer<typeof OutcomeStatusSchema>;

/**
 * The outcome classes people and agents read, one list for session, history, runs, status, report
 * and the agent's notes: a file's status, and across sessions `regression` (red now, passing in its
 * previous session) and `recurring` (red in three or more sessions).
 */
export const OUTCOME_CLASSES = [
  "passed",
  "failed",
  "missing_test",
  "not_run",
  "env_error",
  "timeout",
  "fixed",
  "regression",
  "recurring",
] as const;
export const OutcomeClassSchema = lazy(() => z.enum(OUTCOME_CLASSES));
export type OutcomeClass = z.infer<typeof OutcomeClassSchema>;

/** Each class in words (what `status`, `history`, `watch`, the report and the notes print). */
export const OUTCOME_LABELS: Readonly<Record<OutcomeClass, string>> = {
  passed: "passed",
  failed: "failed",
  missing_test: "missing test",
  not_run: "not run",
  env_error: "environment error",
  timeout: "timeout",
  fixed: "fixed",
  regression: "regression",
  recurring: "recurring",
};

/** A red test: the only status that counts as the code failing (and can be a regression). */
export function isRedStatus(status: OutcomeStatus): boolean {
  return status === "failed";
}

/** Statuses whose tests ran green. */
export function isGreenStatus(status: OutcomeStatus): boolean {
  return status === "passed" || status === "fixed";
}

export const HistoryEntrySchema = lazy(() =>
  z.object({
    file: z.string().check(z.minLength(1)),
    status: OutcomeStatusSchema,
    attempts: z.number().check(z.int(), z.minimum(0)),
    session_id: z.string().check(z.minLength(1)),
    /** When the outcome was measured (UTC ISO); a plain string so one odd time cannot invalidate the file. */
    timestamp: z.string(),
    /** Red now, green in the file's previous session. */
    regression: z.boolean(),
    /** What a version-1 file said, kept on migration: its status and its classification. */
    v1: z.optional(z.object({ status: z.string(), classification: z.string() })),
  }),
);
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export type HistoryOutcome = Omit<HistoryEntry, "regression" | "v1">;

const HistoryFileV3Schema = lazy(() =>
  z.object({
    version: z.literal(HISTORY_VERSION),
    /** Per file and session: how the file ended (follow mode's measured outcomes). */
    entries: z.array(HistoryEntrySchema),
    /** Per session: its mode, times, and tdd's cycles or strict's claims (session-record.ts). */
    sessions: z.array(SessionRecordSchema),
  }),
);
export type HistoryFile = z.infer<typeof HistoryFileV3Schema>;

/** Version 2: the entries alone (no session records: every mode but follow went unrecorded). */
const HistoryFileV2Schema = lazy(() =>
  z.object({
    version: z.literal(2),
    entries: z.array(HistoryEntrySchema),
  }),
);

/** A version-2 history in version 3: the same entries, and no session records yet. */
export function migrateHistoryV2(file: z.infer<typeof HistoryFileV2Schema>): HistoryFile {
  return { version: HISTORY_VERSION, entries: file.entries, sessions: [] };
}

/** Version 1 (statuses passed, fixed, unresolved, deferred; classifications gap, regression, …). */
const HistoryEntryV1Schema = lazy(() =>
  z.object({
    file: z.string().check(z.minLength(1)),
    status: z.enum(["passed", "fixed", "unresolved", "deferred"]),
    attempts: z.number().check(z.int(), z.minimum(0)),
    session_id: z.string().check(z.minLength(1)),
    timestamp: z.string(),
    classification: z.enum(["gap", "regression", "fixed", "passed"]),
  }),
);
const HistoryFileV1Schema = lazy(() =>
  z.object({
    version: z.literal(1),
    entries: z.array(HistoryEntryV1Schema),
  }),
);
type HistoryFileV1 = z.infer<typeof HistoryFileV1Schema>;

/**
 * A version-1 history in version 3, nothing dropped: `unresolved` (version 1 could not tell a red
 * test from a missing one) becomes `failed`, `deferred` becomes `not_run`, a `regression`
 * classification stays a regression, and each entry keeps what version 1 said in `v1`.
 */
export function migrateHistoryV1(file: HistoryFileV1): HistoryFile {
  return {
    version: HISTORY_VERSION,
    entries: file.entries.map((old) => ({
      file: old.file,
      status: V1_STATUS[old.status],
      attempts: old.attempts,
      session_id: old.session_id,
      timestamp: old.timestamp,
      regression: old.classification === "regression",
      v1: { status: old.status, classification: old.classification },
    })),
    sessions: [],
  };
}

const V1_STATUS: Readonly<Record<HistoryFileV1["entries"][number]["status"], OutcomeStatus>> = {
  passed: "passed",
  fixed: "fixed",
  unresolved: "failed",
  deferred: "not_run",
};

/** `.tailtest/history.json`: version 3, or versions 1 and 2 migrated as they are read. */
export const HistoryFileSchema = lazy(() =>
  z.union([
    HistoryFileV3Schema,
    z.pipe(HistoryFileV2Schema, z.transform(migrateHistoryV2)),
    z.pipe(HistoryFileV1Schema, z.transform(migrateHistoryV1)),
  ]),
);

export const LastFailureSchema = lazy(() =>
  z.object({
    file: z.string().check(z.minLength(1)),
    /** `failed`; a session file written before history version 2 may hold `unresolved`/`deferred`. */
    status: z.enum(["failed", "unresolved", "deferred"]),
    attempts: z.number().check(z.int(), z.minimum(0)),
  }),
);
export type LastFailure = z.infer<typeof LastFailureSchema>;

export function emptyHistory(): HistoryFile {
  return { version: HISTORY_VERSION, entries: [], sessions: [] };
}

/**
 * A regression: red now, and green in this file's latest entry from another session. `history`
 * holds only entries recorded before it, oldest first.
 */
export function isRegression(entry: HistoryOutcome, history: readonly HistoryEntry[]): boolean {
  if (!isRedStatus(entry.status)) return false;
  const previous = history
    .filter((old) => old.file === entry.file && old.session_id !== entry.session_id)
    .at(-1);
  return previous !== undefined && isGreenStatus(previous.status);
}

/** An entry's class: its status, or `regression`. */
export function entryClass(entry: Pick<HistoryEntry, "status" | "regression">): OutcomeClass {
  return entry.regression ? "regression" : entry.status;
}

/**
 * Adds a session's outcomes; history is append-only per session. An outcome the history already
 * holds for its (file, session), with the same status and attempts, leaves that entry exactly as
 * it is (its time too); a changed one (a session still going on) replaces it in place and is
 * judged against the entries before it, so flushing a session every turn neither duplicates
 * entries nor re-stamps them.
 */
export function recordOutcomes(
  history: HistoryFile,
  outcomes: readonly HistoryOutcome[],
): HistoryFile {
  const entries: (HistoryEntry | undefined)[] = [...history.entries];
  for (const outcome of outcomes) {
    const same: number[] = [];
    entries.forEach((old, index) => {
      if (old?.file === outcome.file && old.session_id === outcome.session_id) same.push(index);
    });
    const [first, ...duplicates] = same;
    const kept = first === undefined ? undefined : entries[first];
    if (
      kept !== undefined &&
      duplicates.length === 0 &&
      kept.status === outcome.status &&
      kept.attempts === outcome.attempts
    )
      continue;
    const before = (first === undefined ? entries : entries.slice(0, first)).filter(isEntry);
    const entry: HistoryEntry = { ...outcome, regression: isRegression(outcome, before) };
    if (first === undefined) {
      entries.push(entry);
    } else {
      entries[first] = entry;
      for (const index of duplicates) entries[index] = undefined;
    }
  }
  return {
    version: HISTORY_VERSION,
    entries: entries.filter(isEntry).slice(-HISTORY_CAP),
    sessions: history.sessions,
  };
}

/**
 * Records a session's record: a session already recorded keeps its place and takes the newer
 * record (it only grows: its times come from the events, never from the clock); a new one is
 * appended. The newest `HISTORY_SESSIONS_CAP` are kept.
 */
export function recordSession(history: HistoryFile, record: SessionRecord): HistoryFile {
  const index = history.sessions.findIndex((old) => old.session_id === record.session_id);
  const sessions =
    index === -1
      ? [...history.sessions, record]
      : history.sessions.map((old, i) => (i === index ? record : old));
  return { ...history, sessions: sessions.slice(-HISTORY_SESSIONS_CAP) };
}

function isEntry(entry: HistoryEntry | undefined): entry is HistoryEntry {
  return entry !== undefined;
}

/** Files whose tests ran red in at least three distinct sessions, most recent failure first. */
export function findRecurringFailures(entries: readonly HistoryEntry[]): string[] {
  // Re-inserting moves a key to the end, so the map ends up ordered by each file's last failure.
  const sessions = new Map<string, Set<string>>();
  for (const entry of entries) {
    if (!isRedStatus(entry.status)) continue;
    const failed = sessions.get(entry.file) ?? new Set<string>();
    failed.add(entry.session_id);
    sessions.delete(entry.file);
    sessions.set(entry.file, failed);
  }
  return [...sessions.entries()]
    .filter(([, failed]) => failed.size >= 3)
    .map(([file]) => file)
    .reverse();
}

/** Files whose latest entry is a regression, newest first. */
export function findRecentRegressions(entries: readonly HistoryEntry[]): string[] {
  const latest = new Map<string, HistoryEntry>();
  for (const entry of entries) {
    latest.delete(entry.file);
    latest.set(entry.file, entry);
  }
  return [...latest.values()]
    .filter((entry) => entry.regression)
    .map((entry) => entry.file)
    .reverse();
}

function listWithMore(items: readonly string[], shown: number): string {
  const more = items.length - shown;
  return items.slice(0, shown).join(", ") + (more > 0 ? ` (+${more} more)` : "");
}

export function renderHistoryLines(entries: readonly HistoryEntry[]): string[] {
  const lines: string[] = [];
  const recurring = findRecurringFailures(entries);
  if (recurring.length > 0) {
    lines.push(
      `Recurring failures across sessions: ${listWithMore(recurring, 3)}. These files have failed in multiple sessions -- consider adding validation.`,
    );
  }
  const regressions = findRecentRegressions(entries);
  if (regressions.length > 0) {
    lines.push(`Recent regressions: ${listWithMore(regressions, 2)} (was passing, now failing).`);
  }
  return lines;
}

/**
 * One session's failures, carried into the next session's startup note: only files whose tests
 * ran red (regressions among them: the note's history lines name those). A file without a test,
 * one nothing ran for, an environment error or a timeout is not the code failing.
 */
export function selectLastFailures(
  outcomes: readonly Pick<HistoryEntry, "file" | "status" | "attempts">[],
): LastFailure[] {
  return outcomes
    .filter((outcome) => isRedStatus(outcome.status))
    .map(({ file, attempts }) => ({ file, status: "failed", attempts }));
}

function describeLastFailure(failure: LastFailure): string {
  const attempts =
    failure.attempts === 0
      ? ""
      : ` after ${failure.attempts} fix attempt${failure.attempts === 1 ? "" : "s"}`;
  return `${failure.file} (tests red${attempts})`;
}

export function renderLastFailures(list: readonly LastFailure[], max = 5): string | undefined {
  // A session file from before history version 2 may carry `deferred`: nothing ran, no failure.
  const red = list.filter((failure) => failure.status !== "deferred");
  if (red.length === 0) return undefined;
  const described = red.map(describeLastFailure);
  return `Previous session failures: ${listWithMore(described, Math.max(1, max))}.`;
}

/** Counts per outcome class, in `OUTCOME_CLASSES` order; zero counts are left out. */
export function describeCounts(counts: Readonly<Partial<Record<OutcomeClass, number>>>): string[] {
  return OUTCOME_CLASSES.filter((name) => (counts[name] ?? 0) > 0).map(
    (name) => `${counts[name] ?? 0} ${OUTCOME_LABELS[name]}`,
  );
}

/**
 * How many files of `entries` (one session's) ended in each class: every status, and regressions
 * counted as `regression` instead of `failed`. The one count `status`, `history` and `report`
 * show for a session.
 */
export function countOutcomes(
  entries: readonly Pick<HistoryEntry, "status" | "regression">[],
): Record<OutcomeClass, number> {
  const counts = Object.fromEntries(OUTCOME_CLASSES.map((name) => [name, 0])) as Record<
    OutcomeClass,
    number
  >;
  for (const entry of entries) counts[entryClass(entry)] += 1;
  return counts;
}

/**
 * One line on what history holds: how many files over how many sessions, and how the most
 * recent session ended. Undefined when history is empty.
 */
export function renderHistorySummary(entries: readonly HistoryEntry[]): string | undefined {
  const last = entries.at(-1);
  if (last === undefined) return undefined;
  const files = new Set(entries.map((entry) => entry.file)).size;
  const sessions = new Set(entries.map((entry) => entry.session_id)).size;
  const recent = entries.filter((entry) => entry.session_id === last.session_id);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `tailtest: history holds ${plural(files, "file")} over ${plural(sessions, "session")}; the last session ended with ${describeCounts(countOutcomes(recent)).join(", ")}.`;
}
