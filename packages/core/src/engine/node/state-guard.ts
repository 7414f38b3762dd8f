import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { journalPathOf } from "../../project/node/project.ts";
import { writeAtomicSync } from "../../state/node/store.ts";

/**
 * What a test run may not do to tailtest: the code under test runs as the same user in the live
 * tree, so it could delete `.tailtest/` (the config with it: the mode would read as follow), rewrite
 * the config, or cut the event logs. Before a run the files that decide are read; after it, one
 * that is gone or changed is put back and named, and the run is not trusted (never green).
 */

const STATE = ".tailtest";
/** Compared whole: nothing but the person changes these while a test runs. */
const WHOLE = [
  `${STATE}/config.json`,
  `${STATE}/turn-baseline.json`,
  `${STATE}/tree-snapshot.json`,
];
/** Append-only logs: other hooks may append while a test runs, nothing may cut them. */
const APPENDED = [`${STATE}/events.jsonl`, `${STATE}/tdd-applied.jsonl`];
/** Rewritten by concurrent hooks: only their disappearance counts. */
const PRESENT = [`${STATE}/session.json`, `${STATE}/cursor-session.json`];
/**
 * Each session's journal of queued edits (`store.ts` `appendState`): appended by concurrent hooks
 * and, past its size bound, set aside and started afresh by one of them under the session's lock.
 * A run that cut it would drop the edits queued since the session was last written.
 */
const JOURNALS = PRESENT.map((session) => ({
  session,
  journal: journalPathOf(session),
}));
const TDD_LOGS = `${STATE}/tdd`;
/** Each agent session's turn baseline (`content-sweep.ts` `turnBaselinePath`), compared whole. */
const BASELINES = `${STATE}/turn-baselines`;

export interface StateGuard {
  /** Puts back what the run removed or changed; the project-relative paths it put back. */
  check: () => string[];
}

function readBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/**
 * Reads tailtest's deciding files (and `extra` ones, such as the snapshots a revert needs) so a
 * run that removes or changes them is caught and undone.
 */
export function guardState(root: string, extra: readonly string[] = []): StateGuard {
  let logs: string[] = [];
  try {
    logs = readdirSync(join(root, TDD_LOGS))
      .filter((name) => name.endsWith(".log"))
      .map((name) => `${TDD_LOGS}/${name}`);
  } catch {
    // No tdd logs.
  }
  let baselines: string[] = [];
  try {
    baselines = readdirSync(join(root, BASELINES))
      .filter((name) => name.endsWith(".json"))
      .map((name) => `${BASELINES}/${name}`);
  } catch {
    // No session's own baseline.
  }
  const kinds = new Map<string, "whole" | "appended" | "present">();
  for (const rel of [...WHOLE, ...baselines, ...extra]) kinds.set(rel, "whole");
  for (const rel of [...APPENDED, ...logs]) kinds.set(rel, "appended");
  for (const rel of PRESENT) kinds.set(rel, "present");
  const saved = new Map<string, Buffer>();
  for (const rel of kinds.keys()) {
    const bytes = readBytes(join(root, rel));
    if (bytes !== null) saved.set(rel, bytes);
  }
  const journals = JOURNALS.flatMap(({ session, journal }) => {
    const before = readJournal(join(root, journal));
    return before === null ? [] : [{ session, journal, before }];
  });
  const queued = JOURNALS.map(({ session, journal }) => ({
    session,
    journal,
    entries: queuedEntries(root, session, journal),
  }));
  return {
    check: () => {
      const restored: string[] = [];
      for (const { session, journal, before } of journals) {
        const now = readJournal(join(root, journal));
        const sessionText = readBytes(join(root, session))?.toString("utf8");
        if (journalKept(before, now, sessionText)) continue;
        try {
          // What it held, then what was appended since: folding sets, so a line twice is
          // harmless, and a file of a new inode is folded from its start by the next locked reader.
          const after =
            now === null || now.bytes.length === 0 ? [] : [Buffer.from("\n"), now.bytes];
          writeAtomicSync(join(root, journal), Buffer.concat([before.bytes, ...after]));
        } catch {
          // Named all the same: the run is not trusted either way.
        }
        restored.push(journal);
      }
      for (const [rel, before] of saved) {
        const now = readBytes(join(root, rel));
        const kind = kinds.get(rel);
        const intact =
          now !== null &&
          (kind === "present" ||
            (kind === "appended"
              ? now.length >= before.length && now.subarray(0, before.length).equals(before)
              : now.equals(before)));
        if (intact) continue;
        try {
          writeAtomicSync(join(root, rel), before);
        } catch {
          // Named all the same: the run is not trusted either way.
        }
        restored.push(rel);
      }
      // A session rewritten without the edits it queued (its journal intact or not): they are
      // queued again, as journal lines the next reader folds in.
      for (const { session, journal, entries } of queued) {
        const now = queuedEntries(root, session, journal);
        const dropped = [...entries].filter(([path]) => !now.has(path));
        if (dropped.length === 0) continue;
        try {
          const lines = dropped.map(([, queue]) => `\n${JSON.stringify({ queue })}\n`);
          appendFileSync(join(root, journal), lines.join(""));
        } catch {
          // Named all the same: the run is not trusted either way.
        }
        restored.push(session);
      }
      return [...new Set(restored)].sort();
    },
  };
}

/** A journal's bytes and the inode they were read from. */
export interface JournalRead {
  ino: number;
  bytes: Buffer;
}

function readJournal(path: string): JournalRead | null {
  try {
    const { ino } = statSync(path);
    const bytes = readFileSync(path);
    return statSync(path).ino === ino ? { ino, bytes } : null;
  } catch {
    return null;
  }
}

/**
 * Every edit a session queues, by path: its file's queue, and the lines of its journal a reader
 * folds in (past the session's cursor when the cursor names this journal, else all of them).
 */
function queuedEntries(root: string, session: string, journal: string): Map<string, unknown> {
  const entries = new Map<string, unknown>();
  let cursor: { ino?: unknown; bytes?: unknown } | undefined;
  try {
    const state = JSON.parse(readFileSync(join(root, session), "utf8")) as {
      pending_files?: unknown;
      journal?: { ino?: unknown; bytes?: unknown };
    };
    cursor = state.journal;
    if (Array.isArray(state.pending_files))
      for (const entry of state.pending_files as { path?: unknown }[])
        if (typeof entry?.path === "string") entries.set(entry.path, entry);
  } catch {
    // No session, or not one: what its journal queues still counts.
  }
  const read = readJournal(join(root, journal));
  if (read === null) return entries;
  const from = cursor?.ino === read.ino && typeof cursor.bytes === "number" ? cursor.bytes : 0;
  for (const line of read.bytes.subarray(from).toString("utf8").split("\n")) {
    try {
      const queue = (JSON.parse(line) as { queue?: { path?: unknown } }).queue;
      if (typeof queue?.path === "string") entries.set(queue.path, queue);
    } catch {
      // A torn line or none.
    }
  }
  return entries;
}

/** The paths the queued-edit lines of a journal name. */
function queuedPaths(bytes: Buffer): string[] {
  const paths: string[] = [];
  for (const line of bytes.toString("utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const path = (JSON.parse(line) as { queue?: { path?: unknown } }).queue?.path;
      if (typeof path === "string") paths.push(path);
    } catch {
      // A torn line: it queued nothing.
    }
  }
  return paths;
}

/**
 * Whether a run left a session's journal of queued edits as hooks may: the same file with
 * everything it held still at its start (others append), or set aside and started afresh the way
 * a locked reader of the session does (the session now names the new file and queues every path
 * the old one did). Cut, emptied, removed, or replaced by another file, it is not.
 */
export function journalKept(
  before: JournalRead,
  now: JournalRead | null,
  sessionText: string | undefined,
): boolean {
  if (now === null) return false;
  if (now.ino === before.ino)
    return (
      now.bytes.length >= before.bytes.length &&
      now.bytes.subarray(0, before.bytes.length).equals(before.bytes)
    );
  let session: { journal?: { ino?: unknown }; pending_files?: { path?: unknown }[] };
  try {
    session = JSON.parse(sessionText ?? "") as typeof session;
  } catch {
    return false;
  }
  if (session.journal?.ino !== now.ino) return false;
  const queued = new Set([
    ...(session.pending_files ?? []).map((entry) => entry.path),
    ...queuedPaths(now.bytes),
  ]);
  return queuedPaths(before.bytes).every((path) => queued.has(path));
}

/** The one line a tampering run is reported with. */
export function tamperedReason(restored: readonly string[]): string {
  return `the test run removed or changed tailtest's own files (${restored.join(", ")}); they were put back and the run is not trusted`;
}
