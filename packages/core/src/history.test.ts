import { describe, expect, it } from "vitest";
import {
  classifyEntry,
  emptyHistory,
  findRecentRegressions,
  findRecurringFailures,
  HISTORY_CAP,
  HistoryEntrySchema,
  HistoryFileSchema,
  recordOutcomes,
  renderHistoryLines,
  renderHistorySummary,
  renderLastFailures,
  selectLastFailures,
} from "./history.ts";
import type {
  Classification,
  HistoryEntry,
  HistoryFile,
  HistoryOutcome,
  LastFailure,
  OutcomeStatus,
} from "./history.ts";

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
  classification: Classification = "gap",
): HistoryEntry {
  return { ...outcome(file, status, session_id), classification };
}

function historyOf(...outcomes: HistoryOutcome[]): HistoryFile {
  return outcomes.reduce((history, next) => recordOutcomes(history, [next]), emptyHistory());
}

describe("classifyEntry", () => {
  it.each<[string, HistoryOutcome, HistoryEntry[], Classification]>([
    ["first failure, no history → gap", outcome("a.py", "unresolved", "s2"), [], "gap"],
    ["first deferral, no history → gap", outcome("a.py", "deferred", "s2"), [], "gap"],
    ["first pass, no history → gap", outcome("a.py", "passed", "s2"), [], "gap"],
    [
      "passed with history → passed",
      outcome("a.py", "passed", "s2"),
      [entry("a.py", "unresolved", "s1")],
      "passed",
    ],
    [
      "fixed with history → fixed",
      outcome("a.py", "fixed", "s2"),
      [entry("a.py", "passed", "s1")],
      "fixed",
    ],
    [
      "unresolved after passed → regression",
      outcome("a.py", "unresolved", "s2"),
      [entry("a.py", "passed", "s1")],
      "regression",
    ],
    [
      "deferred after fixed → regression",
      outcome("a.py", "deferred", "s2"),
      [entry("a.py", "fixed", "s1")],
      "regression",
    ],
    [
      "unresolved after unresolved → gap",
      outcome("a.py", "unresolved", "s2"),
      [entry("a.py", "unresolved", "s1")],
      "gap",
    ],
    [
      "only the most recent earlier entry decides",
      outcome("a.py", "unresolved", "s3"),
      [entry("a.py", "passed", "s1"), entry("a.py", "deferred", "s2")],
      "gap",
    ],
    [
      "same-session earlier entry ignored",
      outcome("a.py", "unresolved", "s1"),
      [entry("a.py", "passed", "s1")],
      "gap",
    ],
    [
      "another file's history ignored",
      outcome("a.py", "unresolved", "s2"),
      [entry("b.py", "passed", "s1")],
      "gap",
    ],
  ])("%s", (_name, next, history, expected) => {
    expect(classifyEntry(next, history)).toBe(expected);
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

  it("replaces a session's entry for a file instead of appending a duplicate, keeping its classification", () => {
    const before = historyOf(outcome("a.py", "passed", "s1"), outcome("b.py", "passed", "s1"));
    const once = recordOutcomes(before, [
      outcome("a.py", "unresolved", "s2", 1),
      outcome("c.py", "deferred", "s2"),
    ]);
    const twice = recordOutcomes(once, [
      outcome("a.py", "unresolved", "s2", 3),
      outcome("c.py", "deferred", "s2"),
    ]);
    expect(once.entries.map((e) => [e.file, e.session_id, e.classification])).toEqual([
      ["a.py", "s1", "gap"],
      ["b.py", "s1", "gap"],
      ["a.py", "s2", "regression"],
      ["c.py", "s2", "gap"],
    ]);
    expect(twice.entries.map((e) => [e.file, e.session_id, e.classification])).toEqual(
      once.entries.map((e) => [e.file, e.session_id, e.classification]),
    );
    expect(twice.entries[2]?.attempts).toBe(3);
  });

  it("classifies a replacement against the history before the session, not entries added after it", () => {
    const first = historyOf(outcome("a.py", "passed", "s1"), outcome("a.py", "unresolved", "s2"));
    const later = recordOutcomes(first, [outcome("a.py", "unresolved", "s3")]);
    const reflushed = recordOutcomes(later, [outcome("a.py", "unresolved", "s2")]);
    expect(reflushed.entries.map((e) => [e.session_id, e.classification])).toEqual([
      ["s1", "gap"],
      ["s2", "regression"],
      ["s3", "gap"],
    ]);
  });

  it("does not mutate its input", () => {
    const history = historyOf(outcome("a.py", "passed", "s1"));
    const snapshot = structuredClone(history);
    recordOutcomes(history, [outcome("a.py", "unresolved", "s1"), outcome("b.py", "passed", "s1")]);
    expect(history).toEqual(snapshot);
  });
});

describe("findRecurringFailures", () => {
  it("needs failures in three distinct sessions", () => {
    const three = [
      entry("a.py", "unresolved", "s1"),
      entry("a.py", "deferred", "s2"),
      entry("a.py", "unresolved", "s3"),
    ];
    expect(findRecurringFailures(three)).toEqual(["a.py"]);
  });

  it("does not count three failures within two sessions", () => {
    const two = [
      entry("a.py", "unresolved", "s1"),
      entry("a.py", "unresolved", "s1"),
      entry("a.py", "deferred", "s2"),
    ];
    expect(findRecurringFailures(two)).toEqual([]);
  });

  it("does not count fixes or passes as failures", () => {
    const mixed = [
      entry("a.py", "unresolved", "s1"),
      entry("a.py", "deferred", "s2"),
      entry("a.py", "fixed", "s3"),
      entry("a.py", "passed", "s4"),
    ];
    expect(findRecurringFailures(mixed)).toEqual([]);
  });

  it("orders files by their most recent failure first", () => {
    const entries = ["s1", "s2", "s3"].flatMap((session) => [
      entry("new.py", "unresolved", session),
      entry("old.py", "unresolved", session),
    ]);
    entries.push(entry("old.py", "deferred", "s4"), entry("new.py", "passed", "s5"));
    expect(findRecurringFailures(entries)).toEqual(["old.py", "new.py"]);
  });
});

describe("findRecentRegressions", () => {
  it("lists files whose latest entry is a regression, newest first", () => {
    const entries = [
      entry("a.py", "unresolved", "s2", "regression"),
      entry("b.py", "unresolved", "s2", "regression"),
      entry("c.py", "unresolved", "s2", "regression"),
      entry("c.py", "passed", "s3", "passed"),
    ];
    expect(findRecentRegressions(entries)).toEqual(["b.py", "a.py"]);
  });

  it("orders by each file's latest entry, not its first", () => {
    const entries = [
      entry("a.py", "unresolved", "s2", "regression"),
      entry("b.py", "unresolved", "s2", "regression"),
      entry("a.py", "deferred", "s3", "regression"),
    ];
    expect(findRecentRegressions(entries)).toEqual(["a.py", "b.py"]);
  });
});

function recurring(files: readonly string[]): HistoryEntry[] {
  return ["s1", "s2", "s3"].flatMap((session) =>
    files.map((file) => entry(file, "unresolved", session)),
  );
}

function regressions(files: readonly string[]): HistoryEntry[] {
  return files.map((file) => entry(file, "unresolved", "s9", "regression"));
}

describe("renderHistoryLines", () => {
  it.each<[string, HistoryEntry[], string[]]>([
    ["nothing to say", [entry("a.py", "passed", "s1", "passed")], []],
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
  it("selects the unresolved and deferred outcomes in input order, with only their own fields", () => {
    const outcomes = [
      outcome("a.py", "passed", "s1"),
      outcome("b.py", "unresolved", "s1", 3),
      outcome("c.py", "fixed", "s1", 1),
      outcome("d.py", "deferred", "s1", 1),
    ];
    expect(selectLastFailures(outcomes)).toEqual([
      { file: "b.py", status: "unresolved", attempts: 3 },
      { file: "d.py", status: "deferred", attempts: 1 },
    ]);
  });

  const two: LastFailure[] = [
    { file: "a.py", status: "unresolved", attempts: 3 },
    { file: "b.py", status: "deferred", attempts: 1 },
  ];
  const seven: LastFailure[] = Array.from({ length: 7 }, (_, i) => ({
    file: `f${i}.py`,
    status: "unresolved",
    attempts: i,
  }));

  it.each<[string, LastFailure[], number | undefined, string | undefined]>([
    ["empty", [], undefined, undefined],
    [
      "all shown",
      two,
      undefined,
      "Previous session failures: a.py (unresolved after 3 attempt(s)), b.py (deferred after 1 attempt(s)).",
    ],
    [
      "exactly max shown",
      seven.slice(0, 5),
      undefined,
      "Previous session failures: f0.py (unresolved after 0 attempt(s)), f1.py (unresolved after 1 attempt(s)), f2.py (unresolved after 2 attempt(s)), f3.py (unresolved after 3 attempt(s)), f4.py (unresolved after 4 attempt(s)).",
    ],
    [
      "more than the default max",
      seven,
      undefined,
      "Previous session failures: f0.py (unresolved after 0 attempt(s)), f1.py (unresolved after 1 attempt(s)), f2.py (unresolved after 2 attempt(s)), f3.py (unresolved after 3 attempt(s)), f4.py (unresolved after 4 attempt(s)) (+2 more).",
    ],
    [
      "a smaller max",
      two,
      1,
      "Previous session failures: a.py (unresolved after 3 attempt(s)) (+1 more).",
    ],
  ])("%s", (_name, list, max, expected) => {
    expect(renderLastFailures(list, max)).toBe(expected);
  });
});

describe("schemas", () => {
  const valid = entry("a.py", "passed", "s1", "passed");

  it("accepts a well-formed history file", () => {
    expect(HistoryFileSchema.safeParse({ version: 1, entries: [valid] }).success).toBe(true);
  });

  it.each<[string, unknown]>([
    ["negative attempts", { ...valid, attempts: -1 }],
    ["fractional attempts", { ...valid, attempts: 1.5 }],
    ["an unknown status", { ...valid, status: "skipped" }],
    ["an unknown classification", { ...valid, classification: "flaky" }],
    ["an empty file", { ...valid, file: "" }],
  ])("rejects an entry with %s", (_name, candidate) => {
    expect(HistoryEntrySchema.safeParse(candidate).success).toBe(false);
  });

  it("rejects version 2", () => {
    expect(HistoryFileSchema.safeParse({ version: 2, entries: [] }).success).toBe(false);
  });
});

describe("renderHistorySummary", () => {
  const entry = (
    file: string,
    session_id: string,
    status: "passed" | "fixed" | "unresolved" | "deferred",
  ) => ({
    file,
    session_id,
    status,
    attempts: 0,
    timestamp: "2026-11-23T10:00:00.000Z",
    classification: "gap" as const,
  });

  it("counts files and sessions and tells how the last session ended", () => {
    expect(
      renderHistorySummary([
        entry("a.py", "s1", "passed"),
        entry("b.py", "s2", "fixed"),
        entry("a.py", "s2", "unresolved"),
      ]),
    ).toBe(
      "tailtest: history holds 2 files over 2 sessions; the last session ended with 1 fixed, 1 unresolved.",
    );
    expect(renderHistorySummary([entry("a.py", "s1", "passed")])).toBe(
      "tailtest: history holds 1 file over 1 session; the last session ended with 1 passed.",
    );
    expect(renderHistorySummary([])).toBeUndefined();
  });
});
