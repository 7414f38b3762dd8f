import { describe, expect, it } from "vitest";
import {
  countOutcomes,
  emptyHistory,
  findRecentRegressions,
  findRecurringFailures,
  HISTORY_CAP,
  HistoryEntrySchema,
  HistoryFileSchema,
  isRegression,
  recordOutcomes,
  renderHistoryLines,
  renderHistorySummary,
  renderLastFailures,
  selectLastFailures,
} from "./history-state.ts";
import type {
  HistoryEntry,
  HistoryFile,
  HistoryOutcome,
  LastFailure,
  OutcomeStatus,
} from "./history-state.ts";

const TIMESTAMP = "2026-01-02T03:04:05.000Z";

function outcome(
  file: string,
  status: OutcomeStatus,
  session_id: string,
  attempts = 0,
): HistoryOutcome {
  return { file, status, attempts, session_id, timestamp: TIMESTAMP };
}

function entry(
  file: string,
  status: OutcomeStatus,
  session_id: string,
  regression = false,
): HistoryEntry {
  return { ...outcome(file, status, session_id), regression };
}

function historyOf(...outcomes: HistoryOutcome[]): HistoryFile {
  return outcomes.reduce((history, next) => recordOutcomes(history, [next]), emptyHistory());
}

describe("isRegression", () => {
  it.each<[string, HistoryOutcome, HistoryEntry[], boolean]>([
    ["a first failure", outcome("a.py", "failed", "s2"), [], false],
    ["failed after passed", outcome("a.py", "failed", "s2"), [entry("a.py", "passed", "s1")], true],
    ["failed after fixed", outcome("a.py", "failed", "s2"), [entry("a.py", "fixed", "s1")], true],
    [
      "failed after failed",
      outcome("a.py", "failed", "s2"),
      [entry("a.py", "failed", "s1")],
      false,
    ],
    [
      "failed after passed in the same session (not evidence about an earlier one)",
      outcome("a.py", "failed", "s1"),
      [entry("a.py", "passed", "s1")],
      false,
    ],
    [
      "judged against the file's latest other session",
      outcome("a.py", "failed", "s3"),
      [entry("a.py", "passed", "s1"), entry("a.py", "failed", "s2")],
      false,
    ],
    [
      "another file passed",
      outcome("a.py", "failed", "s2"),
      [entry("b.py", "passed", "s1")],
      false,
    ],
    // Only a red test is the code going back: none of these is.
    ...(["missing_test", "not_run", "env_error", "timeout", "passed", "fixed"] as const).map(
      (status): [string, HistoryOutcome, HistoryEntry[], boolean] => [
        `${status} after passed`,
        outcome("a.py", status, "s2"),
        [entry("a.py", "passed", "s1")],
        false,
      ],
    ),
  ])("%s", (_name, next, history, expected) => {
    expect(isRegression(next, history)).toBe(expected);
  });
});

describe("recordOutcomes", () => {
  it("keeps only the newest HISTORY_CAP entries, in order", () => {
    const outcomes = Array.from({ length: 1005 }, (_, i) => outcome(`f${i}.py`, "passed", "s1"));
    const history = recordOutcomes(emptyHistory(), outcomes);
    expect(HISTORY_CAP).toBe(1000);
    expect(history.entries).toHaveLength(1000);
    expect(history.entries[0]?.file).toBe("f5.py");
    expect(history.entries.at(-1)?.file).toBe("f1004.py");
  });

  it("drops the oldest entries when a new session pushes past the cap", () => {
    const full = recordOutcomes(
      emptyHistory(),
      Array.from({ length: 1000 }, (_, i) => outcome(`f${i}.py`, "passed", "s1")),
    );
    const next = recordOutcomes(full, [
      outcome("new-a.py", "passed", "s2"),
      outcome("new-b.py", "passed", "s2"),
    ]);
    expect(next.entries).toHaveLength(1000);
    expect(next.entries[0]?.file).toBe("f2.py");
    expect(next.entries.slice(-2).map((e) => e.file)).toEqual(["new-a.py", "new-b.py"]);
  });

  it("replaces a session's changed entry in place instead of appending a duplicate", () => {
    const before = historyOf(outcome("a.py", "passed", "s1"), outcome("b.py", "passed", "s1"));
    const once = recordOutcomes(before, [
      outcome("a.py", "failed", "s2", 1),
      outcome("c.py", "not_run", "s2"),
    ]);
    const twice = recordOutcomes(once, [
      outcome("a.py", "failed", "s2", 3),
      outcome("c.py", "not_run", "s2"),
    ]);
    expect(once.entries.map((e) => [e.file, e.session_id, e.regression])).toEqual([
      ["a.py", "s1", false],
      ["b.py", "s1", false],
      ["a.py", "s2", true],
      ["c.py", "s2", false],
    ]);
    expect(twice.entries.map((e) => [e.file, e.session_id, e.regression])).toEqual(
      once.entries.map((e) => [e.file, e.session_id, e.regression]),
    );
    expect(twice.entries[2]?.attempts).toBe(3);
  });

  it("never re-stamps an outcome it already holds: a later flush with a new time changes nothing", () => {
    const first = recordOutcomes(emptyHistory(), [outcome("a.py", "passed", "s1")]);
    const again = recordOutcomes(first, [
      { ...outcome("a.py", "passed", "s1"), timestamp: "2026-09-09T09:09:09.000Z" },
    ]);
    expect(again.entries).toEqual(first.entries);
    expect(again.entries[0]?.timestamp).toBe(TIMESTAMP);
  });

  it("judges a replacement against the history before the session, not entries added after it", () => {
    const first = historyOf(outcome("a.py", "passed", "s1"), outcome("a.py", "failed", "s2"));
    const later = recordOutcomes(first, [outcome("a.py", "failed", "s3")]);
    const reflushed = recordOutcomes(later, [outcome("a.py", "failed", "s2", 2)]);
    expect(reflushed.entries.map((e) => [e.session_id, e.regression])).toEqual([
      ["s1", false],
      ["s2", true],
      ["s3", false],
    ]);
  });

  it("does not mutate its input", () => {
    const history = historyOf(outcome("a.py", "passed", "s1"));
    const snapshot = structuredClone(history);
    recordOutcomes(history, [outcome("a.py", "failed", "s1"), outcome("b.py", "passed", "s1")]);
    expect(history).toEqual(snapshot);
  });
});

describe("findRecurringFailures", () => {
  it("needs red tests in three distinct sessions", () => {
    const three = [
      entry("a.py", "failed", "s1"),
      entry("a.py", "failed", "s2"),
      entry("a.py", "failed", "s3"),
    ];
    expect(findRecurringFailures(three)).toEqual(["a.py"]);
  });

  it("does not count three failures within two sessions", () => {
    const two = [
      entry("a.py", "failed", "s1"),
      entry("a.py", "failed", "s1"),
      entry("a.py", "failed", "s2"),
    ];
    expect(findRecurringFailures(two)).toEqual([]);
  });

  it("does not count a missing test, nothing run, an environment error or a timeout as red", () => {
    const mixed = [
      entry("a.py", "failed", "s1"),
      entry("a.py", "missing_test", "s2"),
      entry("a.py", "not_run", "s3"),
      entry("a.py", "env_error", "s4"),
      entry("a.py", "timeout", "s5"),
      entry("a.py", "fixed", "s6"),
    ];
    expect(findRecurringFailures(mixed)).toEqual([]);
  });

  it("orders files by their most recent failure first", () => {
    const entries = ["s1", "s2", "s3"].flatMap((session) => [
      entry("new.py", "failed", session),
      entry("old.py", "failed", session),
    ]);
    entries.push(entry("old.py", "failed", "s4"), entry("new.py", "passed", "s5"));
    expect(findRecurringFailures(entries)).toEqual(["old.py", "new.py"]);
  });
});

describe("findRecentRegressions", () => {
  it("lists files whose latest entry is a regression, newest first", () => {
    const entries = [
      entry("a.py", "failed", "s2", true),
      entry("b.py", "failed", "s2", true),
      entry("c.py", "failed", "s2", true),
      entry("c.py", "passed", "s3"),
    ];
    expect(findRecentRegressions(entries)).toEqual(["b.py", "a.py"]);
  });

  it("orders by each file's latest entry, not its first", () => {
    const entries = [
      entry("a.py", "failed", "s2", true),
      entry("b.py", "failed", "s2", true),
      entry("a.py", "failed", "s3", true),
    ];
    expect(findRecentRegressions(entries)).toEqual(["a.py", "b.py"]);
  });
});

function recurring(files: readonly string[]): HistoryEntry[] {
  return ["s1", "s2", "s3"].flatMap((session) =>
    files.map((file) => entry(file, "failed", session)),
  );
}

function regressions(files: readonly string[]): HistoryEntry[] {
  return files.map((file) => entry(file, "failed", "s9", true));
}

describe("renderHistoryLines", () => {
  it.each<[string, HistoryEntry[], string[]]>([
    ["nothing to say", [entry("a.py", "passed", "s1")], []],
    [
      "one recurring file",
      recurring(["src/a.py"]),
      [
        "Recurring failures across sessions: src/a.py. These files have failed in multiple sessions -- consider adding validation.",
      ],
    ],
    [
      "three recurring files",
      recurring(["a.py", "b.py", "c.py"]),
      [
        "Recurring failures across sessions: c.py, b.py, a.py. These files have failed in multiple sessions -- consider adding validation.",
      ],
    ],
    [
      "five recurring files",
      recurring(["a.py", "b.py", "c.py", "d.py", "e.py"]),
      [
        "Recurring failures across sessions: e.py, d.py, c.py (+2 more). These files have failed in multiple sessions -- consider adding validation.",
      ],
    ],
    [
      "one regression",
      regressions(["src/x.ts"]),
      ["Recent regressions: src/x.ts (was passing, now failing)."],
    ],
    [
      "three regressions",
      regressions(["x.ts", "y.ts", "z.ts"]),
      ["Recent regressions: z.ts, y.ts (+1 more) (was passing, now failing)."],
    ],
    [
      "both, recurring first",
      [...regressions(["x.ts"]), ...recurring(["a.py"])],
      [
        "Recurring failures across sessions: a.py. These files have failed in multiple sessions -- consider adding validation.",
        "Recent regressions: x.ts (was passing, now failing).",
      ],
    ],
  ])("%s", (_name, entries, expected) => {
    expect(renderHistoryLines(entries)).toEqual(expected);
  });
});

describe("last failures", () => {
  it("carries only red tests into the next session, in input order", () => {
    const outcomes = [
      outcome("a.py", "passed", "s1"),
      outcome("b.py", "failed", "s1", 3),
      outcome("c.py", "fixed", "s1", 1),
      outcome("d.py", "missing_test", "s1"),
      outcome("e.py", "not_run", "s1"),
      outcome("f.py", "env_error", "s1"),
      outcome("g.py", "timeout", "s1"),
      outcome("h.py", "failed", "s1"),
    ];
    expect(selectLastFailures(outcomes)).toEqual([
      { file: "b.py", status: "failed", attempts: 3 },
      { file: "h.py", status: "failed", attempts: 0 },
    ]);
  });

  const two: LastFailure[] = [
    { file: "a.py", status: "failed", attempts: 3 },
    { file: "b.py", status: "failed", attempts: 1 },
  ];
  const seven: LastFailure[] = Array.from({ length: 7 }, (_, i) => ({
    file: `f${i}.py`,
    status: "failed",
    attempts: i,
  }));

  it.each<[string, LastFailure[], number | undefined, string | undefined]>([
    ["empty", [], undefined, undefined],
    [
      "all shown",
      two,
      undefined,
      "Previous session failures: a.py (tests red after 3 fix attempts), b.py (tests red after 1 fix attempt).",
    ],
    [
      "exactly max shown",
      seven.slice(0, 5),
      undefined,
      "Previous session failures: f0.py (tests red), f1.py (tests red after 1 fix attempt), f2.py (tests red after 2 fix attempts), f3.py (tests red after 3 fix attempts), f4.py (tests red after 4 fix attempts).",
    ],
    [
      "more than the default max",
      seven,
      undefined,
      "Previous session failures: f0.py (tests red), f1.py (tests red after 1 fix attempt), f2.py (tests red after 2 fix attempts), f3.py (tests red after 3 fix attempts), f4.py (tests red after 4 fix attempts) (+2 more).",
    ],
    [
      "a smaller max",
      two,
      1,
      "Previous session failures: a.py (tests red after 3 fix attempts) (+1 more).",
    ],
    [
      "a session file from before version 2: deferred is no failure",
      [
        { file: "a.py", status: "unresolved", attempts: 2 },
        { file: "b.py", status: "deferred", attempts: 0 },
      ],
      undefined,
      "Previous session failures: a.py (tests red after 2 fix attempts).",
    ],
    ["only deferred", [{ file: "b.py", status: "deferred", attempts: 0 }], undefined, undefined],
  ])("%s", (_name, list, max, expected) => {
    expect(renderLastFailures(list, max)).toBe(expected);
  });
});

describe("schemas", () => {
  const valid = entry("a.py", "passed", "s1");

  it("accepts a well-formed version-3 history file", () => {
    const record = { session_id: "s1", mode: "tdd", started_at: "t0" };
    expect(
      HistoryFileSchema.safeParse({ version: 3, entries: [valid], sessions: [record] }).success,
    ).toBe(true);
    // A session record must name its mode.
    expect(
      HistoryFileSchema.safeParse({
        version: 3,
        entries: [valid],
        sessions: [{ session_id: "s1", started_at: "t0" }],
      }).success,
    ).toBe(false);
  });

  it("migrates a version-2 file: the same entries, no session records yet", () => {
    expect(HistoryFileSchema.parse({ version: 2, entries: [valid] })).toEqual({
      version: 3,
      entries: [valid],
      sessions: [],
    });
  });

  it.each<[string, unknown]>([
    ["negative attempts", { ...valid, attempts: -1 }],
    ["fractional attempts", { ...valid, attempts: 1.5 }],
    ["an unknown status", { ...valid, status: "skipped" }],
    ["a version-1 status", { ...valid, status: "unresolved" }],
    ["no regression flag", { ...valid, regression: undefined }],
    ["an empty file", { ...valid, file: "" }],
  ])("rejects an entry with %s", (_name, candidate) => {
    expect(HistoryEntrySchema.safeParse(candidate).success).toBe(false);
  });

  it("rejects version 3 (a newer tailtest's file)", () => {
    expect(HistoryFileSchema.safeParse({ version: 3, entries: [] }).success).toBe(false);
  });

  it("migrates a version-1 file, keeping every entry and what version 1 said", () => {
    const v1 = {
      version: 1,
      entries: [
        {
          file: "a.py",
          status: "passed",
          attempts: 0,
          session_id: "s1",
          timestamp: "t1",
          classification: "gap",
        },
        {
          file: "a.py",
          status: "unresolved",
          attempts: 2,
          session_id: "s2",
          timestamp: "t2",
          classification: "regression",
        },
        {
          file: "b.py",
          status: "deferred",
          attempts: 0,
          session_id: "s2",
          timestamp: "t3",
          classification: "gap",
        },
        {
          file: "c.py",
          status: "fixed",
          attempts: 1,
          session_id: "s2",
          timestamp: "t4",
          classification: "fixed",
        },
      ],
    };
    const parsed = HistoryFileSchema.parse(v1);
    expect(parsed).toEqual({
      version: 3,
      sessions: [],
      entries: [
        {
          file: "a.py",
          status: "passed",
          attempts: 0,
          session_id: "s1",
          timestamp: "t1",
          regression: false,
          v1: { status: "passed", classification: "gap" },
        },
        {
          file: "a.py",
          status: "failed",
          attempts: 2,
          session_id: "s2",
          timestamp: "t2",
          regression: true,
          v1: { status: "unresolved", classification: "regression" },
        },
        {
          file: "b.py",
          status: "not_run",
          attempts: 0,
          session_id: "s2",
          timestamp: "t3",
          regression: false,
          v1: { status: "deferred", classification: "gap" },
        },
        {
          file: "c.py",
          status: "fixed",
          attempts: 1,
          session_id: "s2",
          timestamp: "t4",
          regression: false,
          v1: { status: "fixed", classification: "fixed" },
        },
      ],
    });
    // The migrated file is a valid version-2 file as it is written back.
    expect(HistoryFileSchema.parse(parsed)).toEqual(parsed);
  });

  it("refuses a version-1 file with a status version 1 never had", () => {
    const bad = {
      version: 1,
      entries: [
        {
          file: "a.py",
          status: "failed",
          attempts: 0,
          session_id: "s1",
          timestamp: "t",
          classification: "gap",
        },
      ],
    };
    expect(HistoryFileSchema.safeParse(bad).success).toBe(false);
  });
});

describe("countOutcomes", () => {
  it("counts each class once per entry, a regression as a regression instead of failed", () => {
    const counts = countOutcomes([
      entry("a.py", "passed", "s1"),
      entry("b.py", "failed", "s1"),
      entry("c.py", "failed", "s1", true),
      entry("d.py", "missing_test", "s1"),
      entry("e.py", "env_error", "s1"),
    ]);
    expect(counts).toEqual({
      passed: 1,
      failed: 1,
      missing_test: 1,
      not_run: 0,
      env_error: 1,
      timeout: 0,
      fixed: 0,
      regression: 1,
      recurring: 0,
    });
  });
});

describe("renderHistorySummary", () => {
  it("counts files and sessions and tells how the last session ended, in outcome classes", () => {
    expect(
      renderHistorySummary([
        entry("a.py", "passed", "s1"),
        entry("b.py", "fixed", "s2"),
        entry("a.py", "failed", "s2", true),
        entry("c.py", "missing_test", "s2"),
      ]),
    ).toBe(
      "tailtest: history holds 3 files over 2 sessions; the last session ended with 1 missing test, 1 fixed, 1 regression.",
    );
    expect(renderHistorySummary([entry("a.py", "passed", "s1")])).toBe(
      "tailtest: history holds 1 file over 1 session; the last session ended with 1 passed.",
    );
    expect(renderHistorySummary([])).toBeUndefined();
  });
});
