import { describe, expect, it } from "vitest";
import {
  emptyHistory,
  recordOutcomes,
  recordSession,
  type HistoryFile,
  type OutcomeStatus,
} from "../state/history-state.ts";
import {
  HistoryViewSchema,
  renderHistoryView,
  summariseHistory,
  withLiveSessions,
} from "./history-view.ts";
import { buildSessionRecord } from "../state/build-session-record.ts";
import { createSession } from "../state/session.ts";
import { ANSI_STYLE, PLAIN_STYLE } from "./text-style.ts";

/** History built the way the hooks build it: one `recordOutcomes` per session flush. */
function historyOf(sessions: [string, [string, OutcomeStatus][]][]): HistoryFile {
  let history = emptyHistory();
  sessions.forEach(([session, outcomes], index) => {
    history = recordOutcomes(
      history,
      outcomes.map(([file, status]) => ({
        file,
        status,
        attempts: status === "fixed" ? 1 : 0,
        session_id: session,
        timestamp: `2026-01-0${index + 1}T10:00:00.000Z`,
      })),
    );
  });
  return history;
}

const HISTORY = historyOf([
  [
    "s1",
    [
      ["src/flaky.py", "failed"],
      ["src/good.py", "passed"],
      ["src/was-good.py", "passed"],
      ["src/untested.py", "missing_test"],
    ],
  ],
  [
    "s2",
    [
      ["src/flaky.py", "failed"],
      ["src/good.py", "passed"],
      ["src/untested.py", "not_run"],
    ],
  ],
  [
    "s3",
    [
      ["src/flaky.py", "failed"],
      ["src/was-good.py", "failed"],
      ["src/new.py", "fixed"],
      ["src/untested.py", "env_error"],
    ],
  ],
]);

describe("summariseHistory", () => {
  it("flags regressions and recurring failures and puts them first", () => {
    const view = summariseHistory(HISTORY.entries);
    expect(HistoryViewSchema.parse(view)).toEqual(view);
    expect(view.regressions).toEqual(["src/was-good.py"]);
    expect(view.recurring).toEqual(["src/flaky.py"]);
    expect(view.files.map((row) => row.file)).toEqual([
      "src/was-good.py",
      "src/flaky.py",
      "src/untested.py",
      "src/new.py",
      "src/good.py",
    ]);
    const flaky = view.files.find((row) => row.file === "src/flaky.py");
    expect(flaky).toMatchObject({
      sessions: 3,
      failed_sessions: 3,
      timeline: ["failed", "failed", "failed"],
      recurring: true,
      regression: false,
    });
    expect(view.files.find((row) => row.file === "src/was-good.py")).toMatchObject({
      status: "failed",
      class: "regression",
      timeline: ["passed", "regression"],
    });
    // A file without a test, then not run, then an environment error: never red, never flagged.
    expect(view.files.find((row) => row.file === "src/untested.py")).toMatchObject({
      class: "env_error",
      failed_sessions: 0,
      timeline: ["missing_test", "not_run", "env_error"],
      recurring: false,
      regression: false,
    });
  });

  it("counts each session's outcomes, oldest first", () => {
    const view = summariseHistory(HISTORY.entries);
    expect(view.sessions_total).toBe(3);
    expect(
      view.sessions.map((s) => [
        s.session_id,
        s.files,
        s.counts.passed,
        s.counts.fixed,
        s.counts.failed,
        s.counts.regression,
        s.counts.missing_test,
        s.counts.not_run,
        s.counts.env_error,
      ]),
    ).toEqual([
      ["s1", 4, 2, 0, 1, 0, 1, 0, 0],
      ["s2", 3, 1, 0, 1, 0, 0, 1, 0],
      ["s3", 4, 0, 1, 1, 1, 0, 0, 1],
    ]);
  });

  it("is empty for an empty history", () => {
    const view = summariseHistory([]);
    expect(view).toMatchObject({ files_total: 0, sessions_total: 0, files: [], sessions: [] });
    expect(renderHistoryView(view, PLAIN_STYLE, 10)).toMatch(/^no history yet/);
  });
});

describe("withLiveSessions", () => {
  it("adds an open session's measured outcomes the way the flush will, without duplicates", () => {
    const session = {
      ...createSession({
        sessionId: "s4",
        now: "2026-01-04T09:00:00.000Z",
        depth: "standard",
        mode: "follow",
        runners: [],
      }),
      results: {
        "src/flaky.py": { outcome: "passed" as const, at: "2026-01-04T09:30:00.000Z" },
      },
      generated_tests: { "src/flaky.py": "tests/test_flaky.py" },
    };
    const live = withLiveSessions(HISTORY, [session], "2026-01-04T10:00:00.000Z");
    expect(live.live).toEqual(["s4"]);
    // Twice (as if status ran twice before the session ended): the same entries.
    expect(
      withLiveSessions({ version: 3, entries: live.entries, sessions: [] }, [session], "x").entries,
    ).toHaveLength(live.entries.length);
    const view = summariseHistory(live.entries, live.live);
    expect(view.sessions.at(-1)).toMatchObject({
      session_id: "s4",
      counts: { passed: 1 },
      live: true,
    });
    expect(view.files.find((row) => row.file === "src/flaky.py")).toMatchObject({
      status: "passed",
      class: "passed",
    });
  });

  it("skips sessions that measured nothing", () => {
    const session = createSession({
      sessionId: "quiet",
      now: "2026-01-04T09:00:00.000Z",
      depth: "standard",
      mode: "follow",
      runners: [],
    });
    expect(withLiveSessions(HISTORY, [session], "x")).toEqual({
      entries: HISTORY.entries,
      live: [],
      records: [],
    });
  });
});

describe("renderHistoryView", () => {
  const view = summariseHistory(HISTORY.entries);

  it("lists regressions, recurring failures and a table of files", () => {
    const text = renderHistoryView(view, PLAIN_STYLE, 50);
    expect(text).toContain("5 files over 3 sessions");
    // Each session counted in outcome classes, the same words status uses.
    expect(text).toMatch(
      /^s3\s+2026-01-03 10:00\s+1 failed, 1 environment error, 1 fixed, 1 regression$/m,
    );
    expect(text).toContain("regressions (passed before, failing now): src/was-good.py");
    expect(text).toContain("recurring failures (3+ sessions): src/flaky.py");
    const row = text.split("\n").find((line) => line.startsWith("src/flaky.py"));
    expect(row).toMatch(/^src\/flaky\.py\s+failed\s+3\s+3\s+XXX\s+2026-01-03 10:00\s+RECURRING$/);
    expect(text).toContain(
      "timeline: one letter per session, oldest first: P passed, F fixed, X failed, R regression, M missing test, N not run, E environment error, T timeout",
    );
    expect(text).not.toContain("\u001b[");
  });

  it("cuts the table at the limit and says so", () => {
    const text = renderHistoryView(view, PLAIN_STYLE, 2);
    expect(text).toContain("(2 of 5 files shown; --limit <n> or --json for more)");
    expect(text).not.toMatch(/^src\/good\.py/m);
  });

  it("colours with an ANSI style", () => {
    expect(renderHistoryView(view, ANSI_STYLE, 50)).toContain("\u001b[31mREGRESSION\u001b[39m");
  });
});

describe("withLiveSessions after a flush", () => {
  it("leaves outcomes history already holds as recorded, and the session is not open", () => {
    const session = {
      ...createSession({
        sessionId: "s3",
        now: "2026-01-03T09:00:00.000Z",
        depth: "standard",
        mode: "follow",
        runners: [],
      }),
      results: {
        "src/flaky.py": { outcome: "failed" as const, at: "2026-01-03T09:30:00.000Z" },
        "src/was-good.py": { outcome: "failed" as const, at: "2026-01-03T09:30:00.000Z" },
        "src/new.py": { outcome: "passed" as const, at: "2026-01-03T09:30:00.000Z" },
        "src/untested.py": {
          outcome: "failed" as const,
          failure: "environment" as const,
          at: "2026-01-03T09:30:00.000Z",
        },
      },
      fix_attempts: { "src/new.py": 1 },
    };
    // HISTORY's s3 is exactly this session, flushed at its end (its record with it).
    const flushed = recordSession(
      HISTORY,
      buildSessionRecord({ session, tdd: [], strictEvents: [] }),
    );
    expect(withLiveSessions(flushed, [session], "2026-05-05T00:00:00.000Z")).toEqual({
      entries: HISTORY.entries,
      live: [],
      records: flushed.sessions,
    });
    // One more measured outcome since: only that one is new, and the session is open again.
    const later = {
      ...session,
      results: {
        ...session.results,
        "src/flaky.py": { outcome: "passed" as const, at: "2026-01-03T09:40:00.000Z" },
      },
    };
    const live = withLiveSessions(HISTORY, [later], "2026-05-05T00:00:00.000Z");
    expect(live.live).toEqual(["s3"]);
    const changed = live.entries.filter((entry, i) => entry !== HISTORY.entries[i]);
    // It keeps the time it was measured, not the time status or history looked.
    expect(changed.map((entry) => [entry.file, entry.status, entry.timestamp])).toEqual([
      ["src/flaky.py", "passed", "2026-01-03T09:40:00.000Z"],
    ]);
  });
});
