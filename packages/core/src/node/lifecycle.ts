import {
  recordOutcomes,
  renderHistoryLines,
  renderHistorySummary,
  renderLastFailures,
} from "../history.ts";
import { renderStartupNote } from "../notes.ts";
import { detectProjectRunners } from "../runners.ts";
import {
  appendScenarioLog,
  buildScenarioEntries,
  createSession,
  makeSessionId,
  markNoticeShown,
  type SessionState,
} from "../session.ts";
import type { Project } from "./project.ts";
import { historyFile, sessionFile } from "./project.ts";
import { updateState, type Recovery } from "./store.ts";

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

  const update = await updateState(sessionFile(project, now), (current) => {
    const sameSession = options.sessionId === undefined || options.sessionId === current.session_id;
    const resume =
      (options.source === "resume" || options.source === "compact") &&
      sameSession &&
      hasActivity(current);
    if (resume) {
      // A resumed session is live again, whatever ended it before.
      const value: SessionState = { ...current, runners };
      delete value.ended_at;
      return { value, result: { resumed: true, previous: undefined } };
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
      result: { resumed: false, previous: hasActivity(current) ? current : undefined },
    };
  });
  if (update.recovered !== undefined) recovered.push(update.recovered);

  const flush = await flushToHistory(project, update.result.previous, now);
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
  const { value, recovered } = await updateState(historyFile(project), (history) => ({
    value: outcomes.length === 0 ? history : recordOutcomes(history, outcomes),
    result: undefined,
  }));
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
