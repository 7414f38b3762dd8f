import * as z from "zod/mini";
import {
  countOutcomes,
  describeCounts,
  entryClass,
  findRecentRegressions,
  findRecurringFailures,
  isRedStatus,
  OUTCOME_CLASSES,
  OUTCOME_LABELS,
  OutcomeStatusSchema,
  recordOutcomes,
  recordSession,
  type HistoryEntry,
  type HistoryFile,
  type OutcomeClass,
} from "../state/history-state.ts";
import { buildSessionRecord } from "../state/build-session-record.ts";
import { buildScenarioEntries, type SessionState } from "../state/session.ts";
import {
  countClaims,
  countCycles,
  isWorthRecording,
  type SessionRecord,
} from "../state/session-record.ts";
import type { StrictEvent } from "../strict/strict-events.ts";
import type { TddEntry } from "../tdd/tdd-log.ts";
import { renderColumns, type TextStyle } from "./text-style.ts";

/**
 * `tailtest history` and the report read history through this: per file, how it went in each
 * session, and per session, how many files ended how. Pure: history entries in, a view out.
 */

/** How many per-session statuses a file row keeps (the newest). */
export const FILE_TIMELINE_CAP = 12;

const Count = z.number().check(z.int(), z.minimum(0));

/** history-state.ts `OUTCOME_CLASSES` (that one is zod/mini, the views are zod). */
export const OutcomeClassViewSchema = z.enum(OUTCOME_CLASSES);

/** A count per outcome class. */
export const OutcomeCountsSchema = z.object(
  Object.fromEntries(OUTCOME_CLASSES.map((name) => [name, Count])) as Record<
    OutcomeClass,
    z.ZodMiniNumber
  >,
);
export type OutcomeCounts = z.infer<typeof OutcomeCountsSchema>;

export const HistoryFileRowSchema = z.object({
  file: z.string(),
  status: z.enum(OutcomeStatusSchema.options),
  /** Its latest class: the status, or `regression`. */
  class: OutcomeClassViewSchema,
  session_id: z.string(),
  timestamp: z.string(),
  /** Sessions with an entry for this file. */
  sessions: Count,
  /** Of those, sessions in which its tests ran red. */
  failed_sessions: Count,
  /** The file's class in each of its sessions, oldest first, the newest `FILE_TIMELINE_CAP`. */
  timeline: z.array(OutcomeClassViewSchema),
  /** Its latest entry is a regression: it passed before and fails now. */
  regression: z.boolean(),
  /** Its tests ran red in three or more sessions (history-state.ts `findRecurringFailures`). */
  recurring: z.boolean(),
});
export type HistoryFileRow = z.infer<typeof HistoryFileRowSchema>;

export const HistorySessionSchema = z.object({
  session_id: z.string(),
  first_at: z.string(),
  last_at: z.string(),
  /** Files with an outcome this session. */
  files: Count,
  /** Files per outcome class (history-state.ts `countOutcomes`: what status and the report show too). */
  counts: OutcomeCountsSchema,
  /** Still open: its outcomes come from the session file, not yet from history.json. */
  live: z.boolean(),
  /** The session's mode (absent for a session recorded before history kept it). */
  mode: z.optional(z.enum(["follow", "tdd", "strict"])),
  platform: z.optional(z.string()),
  /** tdd mode's cycles this session: how they ended, and how many skipped the Red. */
  tdd: z.optional(
    z.object({
      total: Count,
      complete: Count,
      open: Count,
      replaced: Count,
      skip_red: Count,
    }),
  ),
  /** strict mode's claims this session, by how they ended. */
  strict: z.optional(
    z.object({
      total: Count,
      verified: Count,
      reverted: Count,
      escalated: Count,
      open: Count,
    }),
  ),
});
export type HistorySession = z.infer<typeof HistorySessionSchema>;

export const HistoryViewSchema = z.object({
  files_total: Count,
  sessions_total: Count,
  /** Oldest first. */
  sessions: z.array(HistorySessionSchema),
  /** Regressions first, then recurring failures, then the most recently seen. */
  files: z.array(HistoryFileRowSchema),
  regressions: z.array(z.string()),
  recurring: z.array(z.string()),
});
export type HistoryView = z.infer<typeof HistoryViewSchema>;

export interface LiveHistory {
  entries: HistoryEntry[];
  /** Sessions whose outcomes were taken from a session file. */
  live: string[];
  /** Each session's record (mode, times, cycles, claims): history's, and the open ones'. */
  records: SessionRecord[];
}

/** events.jsonl as the views read it: each agent's TDD entries and strict mode's events. */
export interface SessionEvents {
  tdd: readonly { key: string; entries: readonly TddEntry[] }[];
  strictEvents: readonly StrictEvent[];
}

/**
 * History as it will be once the open sessions are flushed: each session's measured outcomes
 * recorded the way `flushToHistory` records them (`recordOutcomes`), without writing anything.
 * Outcomes history already holds as they are (a session flushed at its end and not replaced
 * since) are left as recorded, and their session does not count as open.
 */
export function withLiveSessions(
  history: HistoryFile,
  sessions: readonly SessionState[],
  now: string,
  events: SessionEvents = { tdd: [], strictEvents: [] },
): LiveHistory {
  let file = history;
  const live: string[] = [];
  for (const session of sessions) {
    const outcomes = buildScenarioEntries(session, now);
    let next = recordOutcomes(file, outcomes);
    // recordOutcomes hands back entries it keeps as they are: a changed list means new outcomes.
    let changed = next.entries.some((entry, index) => entry !== file.entries[index]);
    // The session's record as flushToHistory will write it (lifecycle.ts).
    const record = buildSessionRecord({ session, ...events });
    if (isWorthRecording(record, outcomes.length)) {
      const kept = next.sessions.find((old) => old.session_id === session.session_id);
      if (kept === undefined || JSON.stringify(kept) !== JSON.stringify(record)) changed = true;
      next = recordSession(next, record);
    }
    if (changed) live.push(session.session_id);
    file = next;
  }
  return { entries: file.entries, live, records: file.sessions };
}

/**
 * Sessions in the order they first appear (history is kept oldest first), each counted with
 * history-state.ts `countOutcomes`: the one function behind every per-session count people see.
 */
export function summariseSessions(
  entries: readonly HistoryEntry[],
  live: readonly string[] = [],
  records: readonly SessionRecord[] = [],
): HistorySession[] {
  const grouped = new Map<string, HistoryEntry[]>();
  for (const entry of entries)
    grouped.set(entry.session_id, [...(grouped.get(entry.session_id) ?? []), entry]);
  const recorded = new Map(records.map((record) => [record.session_id, record]));
  const ids = [...new Set([...grouped.keys(), ...recorded.keys()])];
  const sessions = ids.map((session_id) => {
    const own = grouped.get(session_id) ?? [];
    const record = recorded.get(session_id);
    const times = [...own.map((entry) => entry.timestamp), ...recordTimes(record)].sort();
    return {
      session_id,
      first_at: record?.started_at ?? times[0] ?? "",
      last_at: times.at(-1) ?? "",
      files: own.length,
      counts: countOutcomes(own),
      live: live.includes(session_id),
      ...(record === undefined ? {} : sessionParts(record)),
    };
  });
  // Oldest first, by when each began (a tdd session has no file entries to order it by).
  return sessions
    .map((session, index) => ({ session, index }))
    .sort((a, b) => a.session.first_at.localeCompare(b.session.first_at) || a.index - b.index)
    .map(({ session }) => session);
}

/** The times a record holds: its start, its end, its cycles' and claims' steps. */
function recordTimes(record: SessionRecord | undefined): string[] {
  if (record === undefined) return [];
  return [
    record.started_at,
    ...(record.ended_at === undefined ? [] : [record.ended_at]),
    ...(record.tdd?.cycles ?? []).flatMap((cycle) =>
      [cycle.red?.at, cycle.red_confirmed_at, cycle.green?.at, cycle.completed_at].filter(
        (at) => at !== undefined,
      ),
    ),
    ...(record.strict?.claims ?? []).flatMap((claim) =>
      [claim.claimed_at, claim.settled_at].filter((at) => at !== undefined),
    ),
  ];
}

/** A session's mode, and its cycles and claims counted. */
function sessionParts(record: SessionRecord): Partial<HistorySession> {
  return {
    mode: record.mode,
    ...(record.platform === undefined ? {} : { platform: record.platform }),
    ...(record.tdd === undefined
      ? {}
      : { tdd: { total: record.tdd.total, ...countCycles(record) } }),
    ...(record.strict === undefined
      ? {}
      : { strict: { total: record.strict.total, ...countClaims(record) } }),
  };
}

interface FileAccumulator {
  latest: HistoryEntry;
  /** Entry per session, in order of the session's (latest) entry. */
  bySession: Map<string, HistoryEntry>;
  order: number;
}

/** The view of every file and session in `entries` (oldest first). */
export function summariseHistory(
  entries: readonly HistoryEntry[],
  live: readonly string[] = [],
  records: readonly SessionRecord[] = [],
): HistoryView {
  const files = new Map<string, FileAccumulator>();
  entries.forEach((entry, order) => {
    const found = files.get(entry.file);
    const bySession = found?.bySession ?? new Map<string, HistoryEntry>();
    bySession.delete(entry.session_id);
    bySession.set(entry.session_id, entry);
    files.set(entry.file, { latest: entry, bySession, order });
  });
  const regressions = findRecentRegressions(entries);
  const recurring = findRecurringFailures(entries);
  const rank = (row: HistoryFileRow): number => {
    if (row.regression) return 0;
    return row.recurring ? 1 : 2;
  };
  const rows = [...files.entries()]
    .map(([file, acc]) => {
      const own = [...acc.bySession.values()];
      const row: HistoryFileRow = {
        file,
        status: acc.latest.status,
        class: entryClass(acc.latest),
        session_id: acc.latest.session_id,
        timestamp: acc.latest.timestamp,
        sessions: own.length,
        failed_sessions: own.filter((entry) => isRedStatus(entry.status)).length,
        timeline: own.map(entryClass).slice(-FILE_TIMELINE_CAP),
        regression: regressions.includes(file),
        recurring: recurring.includes(file),
      };
      return { row, order: acc.order };
    })
    .sort((a, b) => rank(a.row) - rank(b.row) || b.order - a.order)
    .map(({ row }) => row);
  const sessions = summariseSessions(entries, live, records);
  return {
    files_total: rows.length,
    sessions_total: sessions.length,
    sessions,
    files: rows,
    regressions,
    recurring,
  };
}

/** One letter per class in a file's timeline. */
export const TIMELINE_LETTER: Readonly<Record<OutcomeClass, string>> = {
  passed: "P",
  fixed: "F",
  failed: "X",
  missing_test: "M",
  not_run: "N",
  env_error: "E",
  timeout: "T",
  regression: "R",
  recurring: "C",
};

/** The timeline's legend (the classes a timeline can show). */
export const TIMELINE_LEGEND = (
  [
    "passed",
    "fixed",
    "failed",
    "regression",
    "missing_test",
    "not_run",
    "env_error",
    "timeout",
  ] as const
)
  .map((name) => `${TIMELINE_LETTER[name]} ${OUTCOME_LABELS[name]}`)
  .join(", ");

/** An outcome class in words, coloured: green ran green, red ran red, yellow neither. */
export function styleClass(name: OutcomeClass, style: TextStyle): string {
  const label = OUTCOME_LABELS[name];
  if (name === "passed" || name === "fixed") return style.good(label);
  if (name === "failed" || name === "regression" || name === "recurring") return style.bad(label);
  return style.warn(label);
}

function listed(items: readonly string[], shown = 5): string {
  const more = items.length - shown;
  return items.slice(0, shown).join(", ") + (more > 0 ? ` (+${more} more)` : "");
}

/** A UTC ISO time as `2026-05-01 14:03` (the history keeps UTC). */
export function shortTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match === null ? iso : `${match[1]} ${match[2]}`;
}

/** How many sessions `tailtest history` lists (the newest). */
const SESSIONS_SHOWN = 10;

/** One session's files by class, in words ("3 passed, 1 missing test"): status says the same. */
export function describeSessionCounts(
  session: Pick<HistorySession, "counts" | "tdd" | "strict">,
): string {
  const files = describeCounts(session.counts);
  const parts = files.length === 0 ? [] : [files.join(", ")];
  if (session.tdd !== undefined) parts.push(describeCycles(session.tdd));
  if (session.strict !== undefined) parts.push(describeClaims(session.strict));
  return parts.length === 0 ? "nothing measured" : parts.join("; ");
}

/** "TDD cycles: 2 complete, 1 open (1 skip-red)". */
export function describeCycles(tdd: NonNullable<HistorySession["tdd"]>): string {
  const parts = (["complete", "open", "replaced"] as const)
    .filter((name) => tdd[name] > 0)
    .map((name) => `${tdd[name]} ${name}`);
  const skip = tdd.skip_red > 0 ? ` (${tdd.skip_red} skip-red)` : "";
  const shown = tdd.complete + tdd.open + tdd.replaced;
  const more = tdd.total > shown ? ` of ${tdd.total}` : "";
  return `TDD cycles${more}: ${parts.join(", ") || "none"}${skip}`;
}

/** "strict claims: 1 verified, 1 escalated". */
export function describeClaims(strict: NonNullable<HistorySession["strict"]>): string {
  const parts = (["verified", "reverted", "escalated", "open"] as const)
    .filter((name) => strict[name] > 0)
    .map((name) => `${strict[name]} ${name}`);
  const shown = strict.verified + strict.reverted + strict.escalated + strict.open;
  const more = strict.total > shown ? ` of ${strict.total}` : "";
  return `strict claims${more}: ${parts.join(", ") || "none"}`;
}

/**
 * `tailtest history` as text: a summary, the regressions and recurring failures, then a table of
 * files (at most `limit` rows, flagged files first).
 */
export function renderHistoryView(view: HistoryView, style: TextStyle, limit: number): string {
  if (view.sessions_total === 0)
    return "no history yet: tailtest records each file's measured outcome when a session ends\n";
  const open = view.sessions.filter((session) => session.live).length;
  const lines = [
    `${view.files_total} file${view.files_total === 1 ? "" : "s"} over ${view.sessions_total} session${view.sessions_total === 1 ? "" : "s"}${open > 0 ? ` (${open} still open)` : ""}`,
  ];
  if (view.regressions.length > 0)
    lines.push(style.bad(`regressions (passed before, failing now): ${listed(view.regressions)}`));
  if (view.recurring.length > 0)
    lines.push(style.warn(`recurring failures (3+ sessions): ${listed(view.recurring)}`));
  lines.push("");
  const recent = view.sessions.slice(-SESSIONS_SHOWN);
  lines.push(
    ...renderColumns([
      ["session", "mode", "last measured", "outcomes"].map((cell) => style.dim(cell)),
      ...recent.map((session) => [
        `${session.session_id}${session.live ? " (open)" : ""}`,
        session.mode ?? "",
        shortTime(session.last_at),
        describeSessionCounts(session),
      ]),
    ]),
  );
  if (view.sessions.length > recent.length)
    lines.push(style.dim(`(the newest ${recent.length} of ${view.sessions.length} sessions)`));
  lines.push("");
  const header = ["file", "last outcome", "sessions", "red in", "timeline", "measured", ""];
  const rows = view.files
    .slice(0, limit)
    .map((row) => [
      row.file,
      styleClass(row.class, style),
      String(row.sessions),
      String(row.failed_sessions),
      row.timeline.map((name) => TIMELINE_LETTER[name]).join(""),
      shortTime(row.timestamp),
      [
        ...(row.regression ? [style.bad("REGRESSION")] : []),
        ...(row.recurring ? [style.warn("RECURRING")] : []),
      ].join(" "),
    ]);
  lines.push(...renderColumns([header.map((cell) => style.dim(cell)), ...rows]));
  if (view.files.length > limit)
    lines.push(
      style.dim(`(${limit} of ${view.files.length} files shown; --limit <n> or --json for more)`),
    );
  lines.push(
    style.dim(
      `timeline: one letter per session, oldest first: ${TIMELINE_LEGEND}; "red in": sessions its tests ran red; times are UTC`,
    ),
  );
  return `${lines.join("\n")}\n`;
}
