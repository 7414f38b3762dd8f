import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { buildSessionRecord } from "../build-session-record.ts";
import { isWorthRecording, type SessionRecord } from "../session-record.ts";
import { parseStrictLog } from "../../strict/strict-events.ts";
import {
  recordOutcomes,
  recordSession,
  renderHistoryLines,
  renderHistorySummary,
  renderLastFailures,
} from "../history-state.ts";
import { renderStartupNote } from "../../notes/notes.ts";
import { detectProjectRunners } from "../../runners/project-runners.ts";
import {
  appendScenarioLog,
  buildScenarioEntries,
  createSession,
  makeSessionId,
  markNoticeShown,
  type SessionState,
} from "../session.ts";
import type { Project } from "../../project/node/project.ts";
import { historyFile, sessionFile } from "../../project/node/project.ts";
import { updateState, type Recovery } from "./store.ts";
import { setWitness } from "../../gating/node/mode-witness.ts";
import { groupTddEntries } from "../../views/node/activity.ts";
import { EVENTS_PATH } from "../../tdd/node/tdd-store.ts";

interface StartUpdate {
  value: SessionState;
  result: {
    resumed: boolean;
    /** The session before, when it had activity: its red files carry into the new one. */
    previous: SessionState | undefined;
    /** The session the new one replaces: flushed into history. */
    ended: SessionState | undefined;
  };
}

export type StartSource = "startup" | "resume" | "clear" | "compact";

export interface StartOptions {
  /** The agent's own session id, when it has one. */
  sessionId?: string | undefined;
  source: StartSource;
  platform?: SessionState["platform"];
  now?: () => Date;
}

export interface StartedSession {
  session: SessionState;
  /** True when an existing session goes on (resume or compaction of the same session). */
  resumed: boolean;
  /** The note for the agent: runners, depth, mode, history, last failures, notices. */
  note: string;
  /** How many outcomes of the previous session went into history.json. */
  flushed: number;
  recovered: Recovery[];
}

/**
 * Starts (or resumes) a session. A new session first flushes the previous one's measured
 * outcomes into history, then carries its failures forward as `last_failures`, so they reach
 * this session's startup note.
 */
export async function startSession(
  project: Project,
  options: StartOptions,
): Promise<StartedSession> {
  const now = options.now ?? (() => new Date());
  const recovered: Recovery[] = [];
  const runners = detectProjectRunners(project.view, 2, project.config.runners);

  const update = await updateState(sessionFile(project, now), (current): StartUpdate => {
    const sameSession = options.sessionId === undefined || options.sessionId === current.session_id;
    const resume =
      (options.source === "resume" || options.source === "compact") &&
      sameSession &&
      hasActivity(current);
    if (resume) {
      // A resumed session is live again, whatever ended it before.
      const value: SessionState = { ...current, runners };
      delete value.ended_at;
      return { value, result: { resumed: true, previous: undefined, ended: undefined } };
    }
    const next = createSession({
      sessionId: options.sessionId ?? makeSessionId(now(), Math.random),
      now: now().toISOString(),
      depth: project.config.depth,
      mode: project.config.mode,
      runners,
      platform: options.platform,
      previous: hasActivity(current) ? current : undefined,
    });
    return {
      value: next,
      result: {
        resumed: false,
        previous: hasActivity(current) ? current : undefined,
        // A tdd or strict session queues no files, but its cycles and claims reach history too.
        ended: current,
      },
    };
  });
  if (update.recovered !== undefined) recovered.push(update.recovered);
  // A new session's mode is copied outside the project (ADR 0012): a session file later
  // rewritten to a weaker mode, or deleted, is told by the copy.
  if (!update.result.resumed) setWitness(project.root, project.sessionPath, update.value.mode);

  const flush = await flushToHistory(project, update.result.ended, now);
  if (flush.recovered !== undefined) recovered.push(flush.recovered);

  // Notices (config problems, files moved aside) are said once per session.
  const notices = [
    ...project.configProblems,
    ...recovered.map(
      (r) =>
        `tailtest: a state file was unreadable (${r.reason}); it was kept as ${baseNameOf(r.movedTo)} and rebuilt.`,
    ),
  ];
  const { value: session, result: fresh } = await updateState(
    sessionFile(project, now),
    (current) => {
      let state = current;
      const firstTime: string[] = [];
      for (const notice of notices) {
        const marked = markNoticeShown(state, notice);
        state = marked.state;
        if (marked.firstTime) firstTime.push(notice);
      }
      return { value: state, result: firstTime };
    },
  );

  const note = renderStartupNote({
    runners: session.runners,
    depth: session.depth,
    mode: session.mode,
    historyLines: [
      ...(update.result.resumed
        ? []
        : [renderHistorySummary(flush.entries)].filter((line) => line !== undefined)),
      ...renderHistoryLines(flush.entries),
    ],
    lastFailures: renderLastFailures(session.last_failures),
    notices: fresh,
  });
  return { session, resumed: update.result.resumed, note, flushed: flush.count, recovered };
}

/** Flushes a session's measured outcomes into history.json (used at session end, too). */
export async function flushToHistory(
  project: Project,
  session: SessionState | undefined,
  now: () => Date = () => new Date(),
): Promise<{
  count: number;
  entries: ReturnType<typeof recordOutcomes>["entries"];
  recovered?: Recovery;
}> {
  const outcomes = session === undefined ? [] : buildScenarioEntries(session, now().toISOString());
  const record = session === undefined ? undefined : await readSessionRecord(project, session);
  const worth = record !== undefined && isWorthRecording(record, outcomes.length);
  const { value, recovered } = await updateState(historyFile(project), (history) => {
    const measured = outcomes.length === 0 ? history : recordOutcomes(history, outcomes);
    return { value: worth ? recordSession(measured, record) : measured, result: undefined };
  });
  const result = { count: outcomes.length, entries: value.entries };
  return recovered === undefined ? result : { ...result, recovered };
}

/**
 * Records the session's outcomes in its own scenario log and in history, and marks it ended
 * (`ended_at`). The file is kept: a resume of the same session goes on from it, and a new session
 * flushes it again.
 */
export async function endSession(
  project: Project,
  now: () => Date = () => new Date(),
): Promise<number> {
  const at = now().toISOString();
  const { value } = await updateState(sessionFile(project, now), (current) => ({
    value: { ...appendScenarioLog(current, buildScenarioEntries(current, at)), ended_at: at },
    result: undefined,
  }));
  return (await flushToHistory(project, value, now)).count;
}

/**
 * The session's record (mode, times, its TDD cycles and strict claims) from the session file and
 * its own lines of events.jsonl. A log that cannot be read leaves the cycles and claims out: the
 * file outcomes are recorded all the same.
 */
async function readSessionRecord(project: Project, session: SessionState): Promise<SessionRecord> {
  const text = await readFile(join(project.root, EVENTS_PATH), "utf8").catch(() => "");
  return buildSessionRecord({
    session,
    tdd: text === "" ? [] : groupTddEntries(text).agents,
    strictEvents: text === "" ? [] : parseStrictLog(text).events,
  });
}

function hasActivity(session: SessionState): boolean {
  return (
    session.touched_files.length > 0 ||
    session.pending_files.length > 0 ||
    Object.keys(session.results).length > 0 ||
    Object.keys(session.generated_tests).length > 0
  );
}

function baseNameOf(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
