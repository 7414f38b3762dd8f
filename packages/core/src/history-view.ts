import * as z from "zod";
import {
  ClassificationSchema,
  findRecentRegressions,
  findRecurringFailures,
  OutcomeStatusSchema,
  recordOutcomes,
  type HistoryEntry,
  type HistoryFile,
} from "./history.ts";
import { buildScenarioEntries, type SessionState } from "./session.ts";
import { renderColumns, type TextStyle } from "./text-style.ts";

/**
 * `tailtest history` and the report read history through this: per file, how it went in each
 * session, and per session, how many files ended how. Pure: history entries in, a view out.
 */

/** How many per-session statuses a file row keeps (the newest). */
export const FILE_TIMELINE_CAP = 12;

export const HistoryFileRowSchema = z.object({
  file: z.string(),
  status: OutcomeStatusSchema,
  classification: ClassificationSchema,
  session_id: z.string(),
  timestamp: z.string(),
  /** Sessions with an entry for this file. */
  sessions: z.number().int().min(0),
  /** Of those, sessions that ended unresolved or deferred. */
  failed_sessions: z.number().int().min(0),
  /** The file's status in each of its sessions, oldest first, the newest `FILE_TIMELINE_CAP`. */
  timeline: z.array(OutcomeStatusSchema),
  /** Its latest entry is a regression: it passed before and fails now. */
  regression: z.boolean(),
  /** It failed in three or more sessions (history.ts `findRecurringFailures`). */
  recurring: z.boolean(),
});
export type HistoryFileRow = z.infer<typeof HistoryFileRowSchema>;

export const HistorySessionSchema = z.object({
  session_id: z.string(),
  first_at: z.string(),
  last_at: z.string(),
  passed: z.number().int().min(0),
  fixed: z.number().int().min(0),
  unresolved: z.number().int().min(0),
  deferred: z.number().int().min(0),
  regressions: z.number().int().min(0),
  /** Still open: its outcomes come from the session file, not yet from history.json. */
  live: z.boolean(),
});
export type HistorySession = z.infer<typeof HistorySessionSchema>;

export const HistoryViewSchema = z.object({
  files_total: z.number().int().min(0),
  sessions_total: z.number().int().min(0),
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
): LiveHistory {
  let file = history;
  const live: string[] = [];
  for (const session of sessions) {
    const outcomes = buildScenarioEntries(session, now).filter(
      (outcome) =>
        !history.entries.some(
          (entry) =>
            entry.file === outcome.file &&
            entry.session_id === outcome.session_id &&
            entry.status === outcome.status &&
            entry.attempts === outcome.attempts,
        ),
    );
    if (outcomes.length === 0) continue;
    file = recordOutcomes(file, outcomes);
    live.push(session.session_id);
  }
  return { entries: file.entries, live };
}

function isFailure(status: HistoryEntry["status"]): boolean {
  return status === "unresolved" || status === "deferred";
}

/** Sessions in the order they first appear (history is kept oldest first). */
export function summariseSessions(
  entries: readonly HistoryEntry[],
  live: readonly string[] = [],
): HistorySession[] {
  const sessions = new Map<string, HistorySession>();
  for (const entry of entries) {
    const session = sessions.get(entry.session_id) ?? {
      session_id: entry.session_id,
      first_at: entry.timestamp,
      last_at: entry.timestamp,
      passed: 0,
      fixed: 0,
      unresolved: 0,
      deferred: 0,
      regressions: 0,
      live: live.includes(entry.session_id),
    };
    session[entry.status] += 1;
    if (entry.classification === "regression") session.regressions += 1;
    if (entry.timestamp < session.first_at) session.first_at = entry.timestamp;
    if (entry.timestamp > session.last_at) session.last_at = entry.timestamp;
    sessions.set(entry.session_id, session);
  }
  return [...sessions.values()];
}

interface FileAccumulator {
  latest: HistoryEntry;
  /** Status per session, in order of the session's (latest) entry. */
  bySession: Map<string, HistoryEntry["status"]>;
  order: number;
}

/** The view of every file and session in `entries` (oldest first). */
export function summariseHistory(
  entries: readonly HistoryEntry[],
  live: readonly string[] = [],
): HistoryView {
  const files = new Map<string, FileAccumulator>();
  entries.forEach((entry, order) => {
    const found = files.get(entry.file);
    const bySession = found?.bySession ?? new Map<string, HistoryEntry["status"]>();
    bySession.delete(entry.session_id);
    bySession.set(entry.session_id, entry.status);
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
      const statuses = [...acc.bySession.values()];
      const row: HistoryFileRow = {
        file,
        status: acc.latest.status,
        classification: acc.latest.classification,
        session_id: acc.latest.session_id,
        timestamp: acc.latest.timestamp,
        sessions: statuses.length,
        failed_sessions: statuses.filter(isFailure).length,
        timeline: statuses.slice(-FILE_TIMELINE_CAP),
        regression: regressions.includes(file),
        recurring: recurring.includes(file),
      };
      return { row, order: acc.order };
    })
    .sort((a, b) => rank(a.row) - rank(b.row) || b.order - a.order)
    .map(({ row }) => row);
  const sessions = summariseSessions(entries, live);
  return {
    files_total: rows.length,
    sessions_total: sessions.length,
    sessions,
    files: rows,
    regressions,
    recurring,
  };
}

const TIMELINE_LETTER: Readonly<Record<HistoryEntry["status"], string>> = {
  passed: "P",
  fixed: "F",
  unresolved: "U",
  deferred: "D",
};

function styleStatus(status: HistoryEntry["status"], style: TextStyle): string {
  if (status === "passed" || status === "fixed") return style.good(status);
  return status === "unresolved" ? style.bad(status) : style.warn(status);
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

/**
 * `tailtest history` as text: a summary, the regressions and recurring failures, then a table of
 * files (at most `limit` rows, flagged files first).
 */
export function renderHistoryView(view: HistoryView, style: TextStyle, limit: number): string {
  if (view.files_total === 0)
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
  const header = ["file", "last", "class", "sessions", "failed", "timeline", "last seen", ""];
  const rows = view.files
    .slice(0, limit)
    .map((row) => [
      row.file,
      styleStatus(row.status, style),
      row.classification,
      String(row.sessions),
      String(row.failed_sessions),
      row.timeline.map((status) => TIMELINE_LETTER[status]).join(""),
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
      "timeline: one letter per session, oldest first: P passed, F fixed, U unresolved, D deferred; times are UTC",
    ),
  );
  return `${lines.join("\n")}\n`;
}
