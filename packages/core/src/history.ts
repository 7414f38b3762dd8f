import * as z from "zod/mini";

export const HISTORY_CAP = 1000;

export const OutcomeStatusSchema = z.enum(["passed", "fixed", "unresolved", "deferred"]);
export type OutcomeStatus = z.infer<typeof OutcomeStatusSchema>;

export const ClassificationSchema = z.enum(["gap", "regression", "fixed", "passed"]);
export type Classification = z.infer<typeof ClassificationSchema>;

export const HistoryEntrySchema = z.object({
  file: z.string().check(z.minLength(1)),
  status: OutcomeStatusSchema,
  attempts: z.number().check(z.int(), z.minimum(0)),
  session_id: z.string().check(z.minLength(1)),
  // UTC ISO time; kept a plain string so one odd timestamp cannot invalidate the whole file.
  timestamp: z.string(),
  classification: ClassificationSchema,
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export type HistoryOutcome = Omit<HistoryEntry, "classification">;

export const HistoryFileSchema = z.object({
  version: z.literal(1),
  entries: z.array(HistoryEntrySchema),
});
export type HistoryFile = z.infer<typeof HistoryFileSchema>;

export const LastFailureSchema = z.object({
  file: z.string().check(z.minLength(1)),
  status: z.enum(["unresolved", "deferred"]),
  attempts: z.number().check(z.int(), z.minimum(0)),
});
export type LastFailure = z.infer<typeof LastFailureSchema>;

export function emptyHistory(): HistoryFile {
  return { version: 1, entries: [] };
}

function isFailure(status: OutcomeStatus): status is LastFailure["status"] {
  return status === "unresolved" || status === "deferred";
}

/**
 * Classifies an outcome against `history`, which holds only entries recorded before it, oldest
 * first. Entries from the outcome's own session are not evidence about earlier sessions.
 */
export function classifyEntry(
  entry: HistoryOutcome,
  history: readonly HistoryEntry[],
): Classification {
  const previous = history
    .filter((old) => old.file === entry.file && old.session_id !== entry.session_id)
    .at(-1);
  if (previous === undefined) return "gap";
  switch (entry.status) {
    case "passed":
      return "passed";
    case "fixed":
      return "fixed";
    case "unresolved":
    case "deferred":
      // Failing with no passing evidence yet: the seed's four classifications have no other slot.
      return previous.status === "passed" || previous.status === "fixed" ? "regression" : "gap";
  }
}

/**
 * Adds a session's outcomes. An outcome replaces the entry already recorded for its (file,
 * session) in place and is classified against the entries before that one, so flushing a session
 * every turn neither duplicates entries nor shifts their classification.
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
    const before = (first === undefined ? entries : entries.slice(0, first)).filter(isEntry);
    const entry: HistoryEntry = { ...outcome, classification: classifyEntry(outcome, before) };
    if (first === undefined) {
      entries.push(entry);
    } else {
      entries[first] = entry;
      for (const index of duplicates) entries[index] = undefined;
    }
  }
  return { version: 1, entries: entries.filter(isEntry).slice(-HISTORY_CAP) };
}

function isEntry(entry: HistoryEntry | undefined): entry is HistoryEntry {
  return entry !== undefined;
}

/** Files left unresolved or deferred in at least three distinct sessions, most recent failure first. */
export function findRecurringFailures(entries: readonly HistoryEntry[]): string[] {
  // Re-inserting moves a key to the end, so the map ends up ordered by each file's last failure.
  const sessions = new Map<string, Set<string>>();
  for (const entry of entries) {
    if (!isFailure(entry.status)) continue;
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
    .filter((entry) => entry.classification === "regression")
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

/** One session's unresolved and deferred files, carried into the next session's startup note. */
export function selectLastFailures(
  outcomes: readonly Pick<HistoryEntry, "file" | "status" | "attempts">[],
): LastFailure[] {
  const failures: LastFailure[] = [];
  for (const { file, status, attempts } of outcomes) {
    if (isFailure(status)) failures.push({ file, status, attempts });
  }
  return failures;
}

export function renderLastFailures(list: readonly LastFailure[], max = 5): string | undefined {
  if (list.length === 0) return undefined;
  const described = list.map(
    (failure) => `${failure.file} (${failure.status} after ${failure.attempts} attempt(s))`,
  );
  return `Previous session failures: ${listWithMore(described, Math.max(1, max))}.`;
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
  const counts = (["passed", "fixed", "unresolved", "deferred"] as const)
    .map((status) => [status, recent.filter((entry) => entry.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `tailtest: history holds ${plural(files, "file")} over ${plural(sessions, "session")}; the last session ended with ${counts.join(", ")}.`;
}
