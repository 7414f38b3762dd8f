import { describe, expect, it } from "vitest";
import { emptyHistory, recordOutcomes, type HistoryFile, type OutcomeStatus } from "./history.ts";
import {
  HistoryViewSchema,
  renderHistoryView,
  summariseHistory,
  withLiveSessions,
} from "./history-view.ts";
import { createSession } from "./session.ts";
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
      ["src/flaky.py", "unresolved"],
      ["src/good.py", "passed"],
      ["src/was-good.py", "passed"],
    ],
  ],
  [
    "s2",
    [
      ["src/flaky.py", "deferred"],
      ["src/good.py", "passed"],
    ],
  ],
  [
    "s3",
    [
      ["src/flaky.py", "unresolved"],
      ["src/was-good.py", "unresolved"],
      ["src/new.py", "fixed"],
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
      "src/new.py",
      "src/good.py",
    ]);
    const flaky = view.files.find((row) => row.file === "src/flaky.py");
    expect(flaky).toMatchObject({
      sessions: 3,
      failed_sessions: 3,
      timeline: ["unresolved", "deferred", "unresolved"],
      recurring: true,
      regression: false,
    });
    expect(view.files.find((row) => row.file === "src/was-good.py")).toMatchObject({
      status: "unresolved",
      classification: "regression",
      timeline: ["passed", "unresolved"],
    });
  });

  it("counts each session's outcomes, oldest first", () => {
    const view = summariseHistory(HISTORY.entries);
    expect(view.sessions_total).toBe(3);
    expect(
      view.sessions.map((s) => [
        s.session_id,
        s.passed,
        s.fixed,
        s.unresolved,
        s.deferred,
        s.regressions,
      ]),
    ).toEqual([
      ["s1", 2, 0, 1, 0, 0],
      ["s2", 1, 0, 0, 1, 0],
      ["s3", 0, 1, 2, 0, 1],
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
      withLiveSessions({ version: 1, entries: live.entries }, [session], "x").entries,
    ).toHaveLength(live.entries.length);
    const view = summariseHistory(live.entries, live.live);
    expect(view.sessions.at(-1)).toMatchObject({ session_id: "s4", passed: 1, live: true });
    expect(view.files.find((row) => row.file === "src/flaky.py")).toMatchObject({
      status: "passed",
      classification: "passed",
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
    });
  });
});

describe("renderHistoryView", () => {
  const view = summariseHistory(HISTORY.entries);

  it("lists regressions, recurring failures and a table of files", () => {
    const text = renderHistoryView(view, PLAIN_STYLE, 50);
    expect(text).toContain("4 files over 3 sessions");
    expect(text).toContain("regressions (passed before, failing now): src/was-good.py");
    expect(text).toContain("recurring failures (3+ sessions): src/flaky.py");
    const row = text.split("\n").find((line) => line.startsWith("src/flaky.py"));
    expect(row).toMatch(
      /^src\/flaky\.py\s+unresolved\s+gap\s+3\s+3\s+UDU\s+2026-01-03 10:00\s+RECURRING$/,
    );
    expect(text).not.toContain("\u001b[");
  });

  it("cuts the table at the limit and says so", () => {
    const text = renderHistoryView(view, PLAIN_STYLE, 2);
    expect(text).toContain("(2 of 4 files shown; --limit <n> or --json for more)");
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
      },
      fix_attempts: { "src/new.py": 1 },
    };
    // HISTORY's s3 is exactly this session, flushed at its end.
    expect(withLiveSessions(HISTORY, [session], "2026-05-05T00:00:00.000Z")).toEqual({
      entries: HISTORY.entries,
      live: [],
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
    expect(changed.map((entry) => [entry.file, entry.status, entry.timestamp])).toEqual([
      ["src/flaky.py", "passed", "2026-05-05T00:00:00.000Z"],
    ]);
  });
});
