import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { emptyHistory, type HistoryFile } from "../../state/history-state.ts";
import { emptyRunLog, type RunLog } from "../../state/run-log.ts";
import { SessionStateSchema, type SessionState } from "../../state/session.ts";
import { parseStrictLog, type StrictEvent } from "../../strict/strict-events.ts";
import { parseEventLine, type TddEntry } from "../../tdd/tdd-log.ts";
import {
  historyFile,
  SESSION_PATHS,
  sessionJournal,
  type Project,
} from "../../project/node/project.ts";
import { runLogFile, RUN_LOG_PATH } from "../../state/node/run-log-store.ts";
import { readState } from "../../state/node/store.ts";
import { EVENTS_PATH } from "../../tdd/node/tdd-store.ts";

/**
 * What `tailtest status`, `history` and `report` read: every session file, history, the CLI's
 * run log and `.tailtest/events.jsonl` (each agent's TDD entries, strict mode's events). Reads
 * only: a file that cannot be used is reported in `problems` and left exactly where it is.
 */
export interface ProjectActivity {
  sessions: { path: string; session: SessionState }[];
  history: HistoryFile;
  runLog: RunLog;
  /** Each agent's TDD entries, in the order the agents first appear in the log. */
  tdd: { key: string; entries: TddEntry[] }[];
  strictEvents: StrictEvent[];
  problems: string[];
}

// Synchronous reads: node's promise API loads its streams and abort controllers, which cost
// `tailtest status` more than the reads it would spare (ADR 0010).
function readEvents(root: string): string | { problem: string } {
  try {
    return readFileSync(join(root, EVENTS_PATH), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "";
    return { problem: `${EVENTS_PATH} cannot be read (${code ?? "error"})` };
  }
}

/** Every agent's TDD entries from events.jsonl text (lines that are not TDD ones are skipped). */
export function groupTddEntries(text: string): {
  agents: { key: string; entries: TddEntry[] }[];
  unreadable: number;
} {
  const agents = new Map<string, TddEntry[]>();
  let unreadable = 0;
  const lines = text.split("\n");
  lines.pop(); // a last line without "\n" is a write cut short
  for (const raw of lines) {
    const line = raw.trim();
    if (!line.includes('"type":"tdd.')) continue;
    let key: unknown;
    try {
      key = (JSON.parse(line) as { agent_key?: unknown }).agent_key;
    } catch {
      unreadable += 1;
      continue;
    }
    const parsed = parseEventLine(line);
    if (typeof key !== "string" || !parsed.ok) {
      unreadable += 1;
      continue;
    }
    agents.set(key, [...(agents.get(key) ?? []), parsed.entry]);
  }
  return { agents: [...agents].map(([key, entries]) => ({ key, entries })), unreadable };
}

export async function readActivity(project: Project): Promise<ProjectActivity> {
  const problems: string[] = [];
  const sessions: ProjectActivity["sessions"] = [];
  for (const path of SESSION_PATHS) {
    const journal = sessionJournal(join(project.root, path));
    const read = await readState<SessionState | undefined>({
      path: join(project.root, path),
      schema: z.optional(SessionStateSchema),
      create: () => undefined,
      // The queued edits not yet folded into the file (ADR 0010).
      journal: {
        ...journal,
        cursor: (session) => (session === undefined ? undefined : journal.cursor(session)),
        withCursor: (session, cursor) =>
          session === undefined ? session : journal.withCursor(session, cursor),
        fold: (session, line) => (session === undefined ? session : journal.fold(session, line)),
      },
    });
    if (read.problem !== undefined) problems.push(`${path}: ${read.problem}`);
    if (read.value !== undefined) sessions.push({ path, session: read.value });
  }
  const history = await readState(historyFile(project));
  if (history.problem !== undefined) problems.push(`.tailtest/history.json: ${history.problem}`);
  const runLog = await readState(runLogFile(project));
  if (runLog.problem !== undefined) problems.push(`${RUN_LOG_PATH}: ${runLog.problem}`);
  const text = readEvents(project.root);
  let tdd: ProjectActivity["tdd"] = [];
  let strictEvents: StrictEvent[] = [];
  if (typeof text === "string") {
    const grouped = groupTddEntries(text);
    const strict = parseStrictLog(text);
    tdd = grouped.agents;
    strictEvents = strict.events;
    const unreadable = grouped.unreadable + strict.problems.length;
    if (unreadable > 0) problems.push(`${EVENTS_PATH}: ${unreadable} unreadable line(s) skipped`);
  } else problems.push(text.problem);
  return {
    sessions,
    history: history.problem === undefined ? history.value : emptyHistory(),
    runLog: runLog.problem === undefined ? runLog.value : emptyRunLog(),
    tdd,
    strictEvents,
    problems,
  };
}
