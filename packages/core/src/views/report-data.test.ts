import { describe, expect, it } from "vitest";
import { emptyHistory, recordOutcomes, type HistoryFile } from "../state/history-state.ts";
import {
  buildReport,
  capName,
  REPORT_CAPS,
  ReportDataSchema,
  type ReportInput,
} from "./report-data.ts";
import { emptyRunLog, summariseRunRecord, type RunLog } from "../state/run-log.ts";
import {
  STRICT_EVENT_VERSION,
  StrictEventSchema,
  type StrictEvent,
} from "../strict/strict-events.ts";
import type { RunResult } from "../engine/summarize.ts";

/** `sessions` sessions, each flushed like the hooks flush: `a.py` fails from the 3rd on. */
function historyOfSessions(sessions: number, files = ["src/a.py", "src/b.py"]): HistoryFile {
  let history = emptyHistory();
  for (let i = 0; i < sessions; i += 1) {
    history = recordOutcomes(
      history,
      files.map((file) => ({
        file,
        status: file === "src/a.py" && i >= 2 ? ("failed" as const) : ("passed" as const),
        attempts: 0,
        session_id: `s${String(i).padStart(4, "0")}`,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      })),
    );
  }
  return history;
}

function input(overrides: Partial<ReportInput> = {}): ReportInput {
  const history = historyOfSessions(5);
  return {
    project: "demo",
    generatedAt: "2026-02-01T00:00:00.000Z",
    version: "0.1.0",
    history: { entries: history.entries, live: [], records: [] },
    runLog: emptyRunLog(),
    tdd: [],
    strictEvents: [],
    ...overrides,
  };
}

function build(overrides: Partial<ReportInput> = {}) {
  const data = buildReport(input(overrides));
  expect(ReportDataSchema.parse(data)).toEqual(data);
  return data;
}

function runWith(tests: [string, number][]): RunResult {
  return {
    runner: "pytest",
    cwd: "",
    command: ["pytest"],
    status: "passed",
    exit_code: 0,
    duration_ms: 10,
    tests: tests.map(([name, ms]) => ({
      id: { runner: "pytest", file: "tests/test_a.py", segments: [name] },
      status: "pass",
      duration_ms: ms,
    })),
    errors: [],
    reason: "",
    output_tail: "",
  };
}

describe("buildReport", () => {
  it("has sessions, files, recurring failures and regressions from history", () => {
    const data = build();
    expect(data.sessions_total).toBe(5);
    expect(
      data.sessions.map((s) => [s.counts.passed, s.counts.failed + s.counts.regression]),
    ).toEqual([
      [2, 0],
      [2, 0],
      [1, 1],
      [1, 1],
      [1, 1],
    ]);
    expect(data.recurring.map((row) => row.file)).toEqual(["src/a.py"]);
    // a.py failed in its session before too: its latest entry is no regression.
    expect(data.regressions).toEqual([]);
    expect(
      build({
        history: { entries: historyOfSessions(3).entries, live: [], records: [] },
      }).regressions.map((r) => r.file),
    ).toEqual(["src/a.py"]);
  });

  it("caps every list and keeps the totals", () => {
    const files = Array.from({ length: REPORT_CAPS.files + 7 }, (_, i) => `src/f${i}.py`);
    const history = historyOfSessions(REPORT_CAPS.sessions + 3, files.slice(0, 3));
    const wide = recordOutcomes(
      history,
      files.map((file) => ({
        file,
        status: "passed",
        attempts: 0,
        session_id: "wide",
        timestamp: "2026-03-01T00:00:00.000Z",
      })),
    );
    const data = build({ history: { entries: wide.entries, live: [], records: [] } });
    expect(data.sessions).toHaveLength(REPORT_CAPS.sessions);
    expect(data.sessions_total).toBe(REPORT_CAPS.sessions + 4);
    expect(data.sessions.at(-1)?.session_id).toBe("wide");
    expect(data.files).toHaveLength(REPORT_CAPS.files);
    expect(data.files_total).toBe(REPORT_CAPS.files + 7);
  });

  it("lists the slowest tests by their own times, never a strict check's process time", () => {
    const record = (tests: [string, number][]) =>
      summariseRunRecord({
        at: "2026-01-01T00:00:00.000Z",
        source: "run",
        status: "passed",
        files: [],
        results: [runWith(tests)],
        missing: [],
      });
    const runLog: RunLog = {
      version: 1,
      runs: [
        record([
          ["slow", 900],
          ["fast", 3],
        ]),
        record([["slow", 700]]),
      ],
    };
    const strict: StrictEvent = StrictEventSchema.parse({
      v: STRICT_EVENT_VERSION,
      ts: "2026-01-01T00:00:00.000Z",
      type: "test_run",
      test_id: "tests/test_b.py::test_b",
      test: {
        id: "tests/test_b.py::test_b",
        file: "tests/test_b.py",
        segments: ["test_b"],
        source: "native",
      },
      status: "pass",
      command: "pytest",
      duration_ms: 400,
      test_file_hash: null,
      purpose: "verify",
    });
    const data = build({ runLog, strictEvents: [strict] });
    // The strict check's 400 ms is a whole process (start, collect, run one test): not a test's.
    expect(data.slowest).toEqual([
      { id: "tests/test_a.py::slow", runner: "pytest", max_ms: 900, last_ms: 700, runs: 2 },
      { id: "tests/test_a.py::fast", runner: "pytest", max_ms: 3, last_ms: 3, runs: 1 },
    ]);
    expect(data.runs).toHaveLength(2);
    expect(data.runs[0]).toMatchObject({ passed: 2, failed: 0, source: "run" });
  });

  it("leaves out agents that never declared anything", () => {
    const data = build({
      tdd: [
        {
          key: "idle",
          entries: [
            { kind: "test", command: "pytest", outcome: "passed", at: "2026-01-01T00:00:00Z" },
          ],
        },
        {
          key: "busy",
          entries: [{ kind: "red", test: "t", expects: "fails", at: "2026-01-01T00:00:00Z" }],
        },
      ],
    });
    expect(data.tdd.map((agent) => [agent.agent_key, agent.state, agent.open])).toEqual([
      ["busy", "writing_tests", 1],
    ]);
    expect(data.agents_total).toBe(2);
  });
});

describe("capName", () => {
  it("keeps short names and cuts long ones", () => {
    expect(capName("src/a.py")).toBe("src/a.py");
    const long = capName("x".repeat(1000));
    expect(long).toHaveLength(REPORT_CAPS.text);
    expect(long.endsWith("…")).toBe(true);
  });

  it("answers why per session and per file: selection, evidence, failing tests, excerpts", () => {
    const red = runWith([["adds", 4]]);
    const failing: RunResult = {
      ...red,
      status: "failed",
      tests: [
        { ...red.tests[0]!, status: "fail", failure: "AssertionError: 1 != 2" },
        {
          id: { runner: "pytest", file: "tests/test_other.py", segments: ["x"] },
          status: "fail",
          failure: "not this file's",
        },
      ],
    };
    const record = summariseRunRecord({
      at: "2026-01-01T00:04:30.000Z",
      source: "hook",
      status: "failed",
      files: ["src/a.py", "src/b.py"],
      results: [failing],
      missing: [],
      sessionId: "s0004",
      selected: new Map([
        [
          "src/a.py",
          [{ path: "tests/test_a.py", evidence: "name" as const, detail: "its name", hops: 0 }],
        ],
        [
          "src/b.py",
          [
            {
              path: "tests/test_other.py",
              evidence: "imports-via" as const,
              detail: "imports it through src/__init__.py (2 hops)",
              hops: 2,
            },
          ],
        ],
      ]),
      leftOut: ["tests/test_slow.py"],
    });
    const data = build({ runLog: { version: 1, runs: [record] } });
    const session = data.sessions.find((one) => one.session_id === "s0004");
    const a = session?.file_rows.find((row) => row.file === "src/a.py")?.why;
    expect(a).toEqual({
      file: "src/a.py",
      class: "failed",
      run_at: "2026-01-01T00:04:30.000Z",
      source: "hook",
      selected: [{ path: "tests/test_a.py", evidence: "name", detail: "its name" }],
      left_out: ["tests/test_slow.py"],
      failing: [{ id: "tests/test_a.py::adds", failure: "AssertionError: 1 != 2" }],
      failing_total: 1,
      errors: [],
    });
    expect(
      session?.file_rows.find((row) => row.file === "src/b.py")?.why?.selected[0]?.evidence,
    ).toBe("imports-via");
    // The files table's row says the same for the file's latest session.
    expect(data.files.find((row) => row.file === "src/a.py")?.why).toEqual(a);
    // A session with no logged run has no why, and says nothing it does not know.
    expect(data.sessions.find((one) => one.session_id === "s0000")?.file_rows).toEqual([
      { file: "src/a.py", class: "passed" },
      { file: "src/b.py", class: "passed" },
    ]);
  });

  it("carries each session's mode, TDD cycles and strict claims from history's records", () => {
    const data = build({
      history: {
        entries: historyOfSessions(1).entries,
        live: [],
        records: [
          {
            session_id: "t1",
            mode: "tdd",
            started_at: "2026-01-02T00:00:00.000Z",
            tdd: {
              total: 1,
              cycles: [
                {
                  agent: "t1",
                  green: {
                    change: "tidy",
                    files: ["src/a.py"],
                    at: "2026-01-02T00:01:00.000Z",
                    skip_red: "refactoring",
                  },
                  outcome: "open",
                },
              ],
            },
          },
        ],
      },
    });
    expect(data.sessions.map((one) => [one.session_id, one.mode, one.tdd?.skip_red])).toEqual([
      ["s0000", undefined, undefined],
      ["t1", "tdd", 1],
    ]);
    expect(data.sessions[1]?.cycles[0]?.green?.skip_red).toBe("refactoring");
  });
});
