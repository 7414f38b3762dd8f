import { describe, expect, it } from "vitest";
import type { HookInstall } from "../install/doctor-checks.ts";
import { emptyHistory, recordOutcomes } from "../state/history-state.ts";
import { summariseHistory, withLiveSessions } from "./history-view.ts";
import { emptyRunLog, summariseRunRecord } from "../state/run-log.ts";
import { createSession, queueFile, type SessionState } from "../state/session.ts";
import { buildStatus, renderStatus, StatusReportSchema, type StatusInput } from "./status-view.ts";
import { STRICT_EVENT_VERSION, StrictEventSchema } from "../strict/strict-events.ts";
import type { TddEntry } from "../tdd/tdd-log.ts";
import { ANSI_STYLE, PLAIN_STYLE } from "./text-style.ts";

const HOOKS: HookInstall[] = [
  {
    platform: "claude-code",
    label: "Claude Code",
    installed: true,
    files: [".claude/settings.json"],
    problems: [],
  },
  { platform: "cursor", label: "Cursor", installed: false, files: [], problems: [] },
  {
    platform: "codex",
    label: "Codex",
    installed: true,
    files: [".codex/hooks.json"],
    problems: [],
  },
];

function session(overrides: Partial<SessionState> = {}): SessionState {
  const base = createSession({
    sessionId: "2026-01-02T10-00-00-abcdef",
    now: "2026-01-02T10:00:00.000Z",
    depth: "standard",
    mode: "follow",
    runners: [],
    platform: "claude-code",
  });
  const queued = queueFile(base, {
    path: "src/a.py",
    language: "python",
    status: "new",
    runner: "pytest",
    test_path: "tests/test_a.py",
    test_exists: false,
  }).state;
  return { ...queued, ...overrides };
}

function input(overrides: Partial<StatusInput> = {}): StatusInput {
  return {
    mode: "follow",
    modeFromConfig: false,
    configProblems: [],
    hooks: HOOKS,
    codexTrust: {
      project: "unknown",
      handlers: 8,
      trusted: 0,
      disabled: 0,
      pending: true,
      lines: ["project not trusted yet", "0 of 8 hooks trusted"],
    },
    sessions: [{ path: ".tailtest/session.json", session: session() }],
    tdd: [],
    strictEvents: [],
    runLog: emptyRunLog(),
    history: emptyHistory(),
    now: "2026-01-02T12:00:00.000Z",
    problems: [],
    ...overrides,
  };
}

function build(overrides: Partial<StatusInput> = {}) {
  const report = buildStatus(input(overrides));
  expect(StatusReportSchema.parse(report)).toEqual(report);
  return report;
}

describe("buildStatus", () => {
  it("reports the mode, each platform's hooks, Codex trust and the queue", () => {
    const report = build();
    expect(report.mode).toEqual({ value: "follow", source: "default", problems: [] });
    expect(
      report.hooks.map((hook) => [hook.platform, hook.installed, hook.trust?.pending]),
    ).toEqual([
      ["claude-code", true, undefined],
      ["cursor", false, undefined],
      ["codex", true, true],
    ]);
    expect(report.sessions[0]?.queue).toEqual([
      { path: "src/a.py", status: "new", test_path: "tests/test_a.py", test_exists: false },
    ]);
    expect(report.last_run).toBeUndefined();
    expect(report.strict).toBeUndefined();
  });

  it("says a file queued only to be run (a deleted module, a test, a config) is run only", () => {
    const runOnly = queueFile(session(), {
      path: "src/gone.py",
      language: "python",
      status: "existing",
      runner: "pytest",
      role: "test",
    }).state;
    const report = build({ sessions: [{ path: ".tailtest/session.json", session: runOnly }] });
    expect(report.sessions[0]?.queue[1]).toEqual({
      path: "src/gone.py",
      status: "existing",
      role: "test",
    });
    const text = renderStatus(report, PLAIN_STYLE);
    expect(text).toContain("src/gone.py (run only)");
    expect(text).toContain("src/a.py (new, test tests/test_a.py missing)");
  });

  it("takes the last run from whichever is newer: an end-of-turn run or a CLI run", () => {
    const measured = session({
      results: {
        "src/a.py": { outcome: "failed", failure: "assertion", at: "2026-01-02T10:05:00.000Z" },
        "src/b.py": { outcome: "passed", at: "2026-01-02T10:05:00.000Z" },
        "src/old.py": { outcome: "passed", at: "2026-01-02T10:01:00.000Z" },
      },
    });
    const hook = build({ sessions: [{ path: ".tailtest/session.json", session: measured }] });
    expect(hook.last_run).toEqual({
      at: "2026-01-02T10:05:00.000Z",
      source: "hook",
      status: "failed",
      files: [
        { file: "src/a.py", outcome: "failed" },
        { file: "src/b.py", outcome: "passed" },
      ],
      runners: [],
    });
    const record = summariseRunRecord({
      at: "2026-01-02T11:00:00.000Z",
      source: "watch",
      status: "passed",
      files: ["src/a.py"],
      results: [],
      missing: [],
    });
    const cli = build({
      sessions: [{ path: ".tailtest/session.json", session: measured }],
      runLog: { version: 1, runs: [record] },
    });
    expect(cli.last_run).toMatchObject({ source: "watch", status: "passed", at: record.at });
  });

  it("counts a session's files in outcome classes, the same numbers history shows", () => {
    const at = "2026-01-02T10:05:00.000Z";
    const measured = session({
      session_id: "s2",
      results: {
        "src/a.py": { outcome: "passed", at },
        "src/b.py": { outcome: "passed", at },
        "src/c.py": { outcome: "missing_test", at },
        "src/d.py": { outcome: "failed", failure: "environment", at },
      },
      fix_attempts: { "src/b.py": 1 },
    });
    // b.py passed in an earlier session; it passes again after a fix here.
    const history = recordOutcomes(emptyHistory(), [
      { file: "src/b.py", status: "passed", attempts: 0, session_id: "s1", timestamp: at },
    ]);
    const sessions = [{ path: ".tailtest/session.json", session: measured }];
    const report = build({ sessions, history });
    expect(report.sessions[0]?.counts).toMatchObject({
      passed: 1,
      fixed: 1,
      missing_test: 1,
      env_error: 1,
      failed: 0,
    });
    expect(report.sessions[0]?.results).toEqual({
      "src/a.py": "passed",
      "src/b.py": "fixed",
      "src/c.py": "missing_test",
      "src/d.py": "env_error",
    });
    const live = withLiveSessions(history, [measured], "2026-01-02T12:00:00.000Z");
    const view = summariseHistory(live.entries, live.live);
    expect(view.sessions.find((one) => one.session_id === "s2")?.counts).toEqual(
      report.sessions[0]?.counts,
    );
    expect(renderStatus(report, PLAIN_STYLE)).toContain(
      "this session: 1 passed, 1 missing test, 1 environment error, 1 fixed",
    );
  });

  it("gives each agent's TDD state and completed cycles, and strict mode's claims", () => {
    const tdd: TddEntry[] = [
      { kind: "red", test: "tests/test_a.py", expects: "a fails", at: "2026-01-02T10:00:00Z" },
      { kind: "test", command: "pytest", outcome: "failed", at: "2026-01-02T10:00:01Z" },
    ];
    const claim = StrictEventSchema.parse({
      v: STRICT_EVENT_VERSION,
      ts: "2026-01-02T10:00:00.000Z",
      type: "edit_claim",
      claim: "c1",
      test_id: "tests/test_a.py::test_a",
      edit_target: "src/a.py",
    });
    const report = build({
      mode: "strict",
      tdd: [{ key: "s1", entries: tdd }],
      strictEvents: [claim],
    });
    expect(report.tdd).toEqual([
      {
        agent_key: "s1",
        state: "red",
        active: "Red: tests/test_a.py (a fails)",
        last_test: { outcome: "failed", at: "2026-01-02T10:00:01Z" },
        cycles_completed: 0,
      },
    ]);
    expect(report.strict).toEqual({
      mode: "strict",
      open_claims: [{ claim: "c1", test_id: "tests/test_a.py::test_a" }],
      triples: 0,
      escalated: 0,
    });
  });
});

describe("renderStatus", () => {
  it("writes one labelled block per part, plain", () => {
    const text = renderStatus(build(), PLAIN_STYLE);
    expect(text).toContain("mode      follow (the default)");
    expect(text).toContain("hooks     Claude Code: installed (.claude/settings.json)");
    expect(text).toContain("          Cursor: not installed");
    expect(text).toContain("          Codex: installed (.codex/hooks.json); trust pending\n");
    expect(text).toContain(
      "            project not trusted yet\n            0 of 8 hooks trusted\n",
    );
    expect(text).toContain("    src/a.py (new, test tests/test_a.py missing)");
    expect(text).toContain("last run  none yet");
    expect(text).not.toContain("\u001b[");
  });

  it("colours with an ANSI style", () => {
    expect(renderStatus(build(), ANSI_STYLE)).toContain("; \u001b[33mtrust pending\u001b[39m");
  });

  it("says when there is no session, and lists unreadable state files", () => {
    const text = renderStatus(
      build({ sessions: [], problems: [".tailtest/history.json: not JSON"] }),
      PLAIN_STYLE,
    );
    expect(text).toContain("sessions  none yet");
    expect(text).toContain("problems  .tailtest/history.json: not JSON");
  });

  it("tells an ended session from a live one", () => {
    const header = (state: SessionState) =>
      renderStatus(
        build({ sessions: [{ path: ".tailtest/session.json", session: state }] }),
        PLAIN_STYLE,
      )
        .split("\n")
        .find((line) => line.startsWith("sessions"));
    expect(header(session())).toBe(
      "sessions  2026-01-02T10-00-00-abcdef (Claude Code, follow mode, started 2026-01-02 10:00 UTC) in .tailtest/session.json",
    );
    const ended = session({ ended_at: "2026-01-02T11:30:00.000Z" });
    expect(header(ended)).toBe(
      "sessions  2026-01-02T10-00-00-abcdef (Claude Code, follow mode, started 2026-01-02 10:00 UTC, ended 2026-01-02 11:30 UTC) in .tailtest/session.json",
    );
    expect(build({ sessions: [{ path: "s", session: ended }] }).sessions[0]?.ended_at).toBe(
      "2026-01-02T11:30:00.000Z",
    );
    // A turn of the same session after its end (a hook without a SessionStart): live again.
    const after = session({
      ended_at: "2026-01-02T11:30:00.000Z",
      turn_started_at: "2026-01-02T11:40:00.000Z",
    });
    expect(header(after)).not.toContain("ended");
  });
});
