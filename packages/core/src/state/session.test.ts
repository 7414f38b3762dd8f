import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { renderLastFailures } from "./history-state.ts";
import {
  appendScenarioLog,
  buildScenarioEntries,
  createSession,
  makeSessionId,
  markNoticeShown,
  queueFile,
  SCENARIO_LOG_CAP,
  SessionHotSchema,
  SessionStateSchema,
  type SessionState,
} from "./session.ts";

const NOW = "2026-11-23T10:00:00.000Z";
const fresh = (overrides: Partial<SessionState> = {}): SessionState => ({
  ...createSession({ sessionId: "s1", now: NOW, depth: "standard", mode: "follow", runners: [] }),
  ...overrides,
});

describe("session state", () => {
  it("holds every field a session keeps and parses with its schema", () => {
    const state = fresh();
    for (const field of [
      "pending_files",
      "fix_attempts",
      "generated_tests",
      "scenario_log",
      "last_failures",
      "touched_files",
      "runners",
    ]) {
      expect(state, field).toHaveProperty(field);
    }
    expect(SessionStateSchema.parse(state)).toEqual(state);
  });

  it("makes ids of UTC time and six random characters", () => {
    const id = makeSessionId(new Date(NOW), () => 0.5);
    expect(id).toMatch(/^2026-11-23T10-00-00-[a-z0-9]{6}$/);
  });

  it("queues a file once and refreshes it on later edits", () => {
    const entry = { path: "src/a.py", language: "python" as const, status: "new" as const };
    const first = queueFile(fresh(), entry);
    expect(first).toMatchObject({ added: true, pendingCount: 1 });
    const second = queueFile(first.state, {
      ...entry,
      status: "existing",
      test_path: "tests/test_a.py",
    });
    expect(second).toMatchObject({ added: false, pendingCount: 1 });
    // A file created in this session stays "new" even though git may track it by now.
    expect(second.state.pending_files).toEqual([{ ...entry, test_path: "tests/test_a.py" }]);
    expect(second.state.touched_files).toEqual(["src/a.py"]);
  });

  it("an edit after the session's end makes it live again", () => {
    const ended = { ...fresh(), ended_at: NOW };
    const entry = { path: "src/a.py", language: "python" as const, status: "new" as const };
    expect(queueFile(ended, entry).state).not.toHaveProperty("ended_at");
  });

  it("says a notice once per session", () => {
    const once = markNoticeShown(fresh(), "config bad");
    expect(once.firstTime).toBe(true);
    expect(markNoticeShown(once.state, "config bad").firstTime).toBe(false);
  });
});

describe("outcomes come from measured results, never from the model's word", () => {
  it.each([
    ["passed first time", { results: { "a.py": { outcome: "passed", at: NOW } } }, "passed", 0],
    [
      "passed after fixes",
      { results: { "a.py": { outcome: "passed", at: NOW } }, fix_attempts: { "a.py": 2 } },
      "fixed",
      2,
    ],
    [
      "red at the end",
      { results: { "a.py": { outcome: "failed", at: NOW } }, fix_attempts: { "a.py": 3 } },
      "failed",
      3,
    ],
    [
      "a test file that would not load",
      { results: { "a.py": { outcome: "failed", failure: "collection", at: NOW } } },
      "failed",
      0,
    ],
    [
      "test never written",
      { results: { "a.py": { outcome: "missing_test", at: NOW } } },
      "missing_test",
      0,
    ],
    [
      "the runner could not start",
      { results: { "a.py": { outcome: "failed", failure: "environment", at: NOW } } },
      "env_error",
      0,
    ],
    [
      "stopped after the timeout",
      { results: { "a.py": { outcome: "failed", failure: "timeout", at: NOW } } },
      "timeout",
      0,
    ],
    ["never measured", { generated_tests: { "a.py": "tests/test_a.py" } }, "not_run", 0],
    [
      "put off",
      { results: { "a.py": { outcome: "failed", at: NOW } }, deferred_failures: ["a.py"] },
      "not_run",
      0,
    ],
  ] as const)("%s → %s", (_name, overrides, status, attempts) => {
    const entries = buildScenarioEntries(fresh(overrides as Partial<SessionState>), NOW);
    expect(entries).toEqual([{ file: "a.py", status, attempts, session_id: "s1", timestamp: NOW }]);
  });

  it("last failures reach the next session's start", () => {
    const previous = fresh({
      results: {
        "a.py": { outcome: "failed", at: NOW },
        "b.py": { outcome: "passed", at: NOW },
      },
      fix_attempts: { "a.py": 3 },
    });
    const next = createSession({
      sessionId: "s2",
      now: NOW,
      depth: "standard",
      mode: "follow",
      runners: [],
      previous,
    });
    expect(next.last_failures).toEqual([{ file: "a.py", status: "failed", attempts: 3 }]);
    expect(next.pending_files).toEqual([]);
    expect(renderLastFailures(next.last_failures)).toBe(
      "Previous session failures: a.py (tests red after 3 fix attempts).",
    );
  });

  it("a file that merely has no test is no failure for the next session", () => {
    const previous = fresh({ results: { "utils.py": { outcome: "missing_test", at: NOW } } });
    const next = createSession({
      sessionId: "s2",
      now: NOW,
      depth: "standard",
      mode: "follow",
      runners: [],
      previous,
    });
    expect(next.last_failures).toEqual([]);
  });

  it("each outcome keeps the time it was measured, not the time of the flush", () => {
    const measured = "2026-01-01T08:00:00.000Z";
    const state = fresh({ results: { "a.py": { outcome: "passed", at: measured } } });
    expect(buildScenarioEntries(state, NOW)[0]?.timestamp).toBe(measured);
  });

  it("the scenario log replaces a file's entry for the same session and is capped", () => {
    const entry = {
      file: "a.py",
      status: "not_run" as const,
      attempts: 0,
      session_id: "s1",
      timestamp: NOW,
    };
    let state = appendScenarioLog(fresh(), [entry]);
    state = appendScenarioLog(state, [{ ...entry, status: "passed" }]);
    expect(state.scenario_log).toEqual([{ ...entry, status: "passed" }]);
    const many = Array.from({ length: SCENARIO_LOG_CAP + 20 }, (_, i) => ({
      ...entry,
      file: `f${i}.py`,
    }));
    state = appendScenarioLog(fresh(), many);
    expect(state.scenario_log).toHaveLength(SCENARIO_LOG_CAP);
    expect(state.scenario_log[0]?.file).toBe("f20.py");
  });
});

describe("the session's hot schema (what a queued edit checks without the lock)", () => {
  const queued = fresh({
    pending_files: [{ path: "calc.py", language: "python", status: "existing", runner: "pytest" }],
    touched_files: ["calc.py"],
    complexity_scores: { "calc.py": 3 },
    journal: { ino: 7, bytes: 120 },
    ended_at: NOW,
  });
  const passes = (schema: z.core.$ZodType, value: unknown) => z.safeParse(schema, value).success;

  it.each([
    ["a queued session", queued, true, true],
    ["a newer version", { ...queued, version: 2 }, false, false],
    [
      "an unknown language in the queue",
      { ...queued, pending_files: [{ path: "x.py", language: "cobol", status: "new" }] },
      false,
      false,
    ],
    [
      "an empty path in the queue",
      { ...queued, pending_files: [{ path: "", language: "python", status: "new" }] },
      false,
      false,
    ],
    ["a touched file that is not a string", { ...queued, touched_files: [1] }, false, false],
    ["a negative score", { ...queued, complexity_scores: { "calc.py": -1 } }, false, false],
    ["a cursor without its inode", { ...queued, journal: { bytes: 1 } }, false, false],
    ["an end that is not a string", { ...queued, ended_at: 1 }, false, false],
    // Fields a queued edit does not read: left to the whole schema, under the lock.
    ["a cold field of the wrong type", { ...queued, paused: "yes" }, false, true],
    ["a cold field missing", { ...queued, results: undefined }, false, true],
  ])("%s: whole %s, hot %s", (_name, session, whole, hot) => {
    expect(passes(SessionStateSchema, session)).toBe(whole);
    expect(passes(SessionHotSchema, session)).toBe(hot);
  });

  it("passes the fields it does not check through as they are", () => {
    const read = z.parse(SessionHotSchema, { ...queued, paused: "yes" }) as Record<string, unknown>;
    expect(read).toEqual({ ...queued, paused: "yes" });
  });
});
