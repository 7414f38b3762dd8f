import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { optionOf } from "../util/union-option.ts";
import { oneLine } from "./declare.ts";
import {
  escapeLogCommand,
  EVENT_LINE_OPTIONS,
  EventLineSchema,
  formatLogTime,
  logTextView,
  parseEventLine,
  parseLog,
  parseLogTime,
  renderLog,
  renderLogEntry,
  TDD_ENTRY_OPTIONS,
  TddEntrySchema,
  toEventLine,
  UNKNOWN_LOG_TIME,
  unescapeLogCommand,
  type TddEntry,
} from "./tdd-log.ts";
import { deriveTddState } from "./tdd-state.ts";

const CMD = "npm run test:python -- tests/unit/services/test_greeting_service.py -v";

/** An example cycle, as entries. */
const SEED_CYCLE: TddEntry[] = [
  {
    kind: "red",
    test: "tests/unit/services/test_greeting_service.py",
    expects: "test_create_greeting fails because create() method doesn't exist yet",
    at: "2026-02-24T10:30:00.000Z",
  },
  { kind: "test", command: CMD, outcome: "failed", at: "2026-02-24T10:31:00.000Z" },
  {
    kind: "green",
    change: "Add create() method to GreetingService",
    files: ["app/services/greeting.py"],
    at: "2026-02-24T10:32:00.000Z",
  },
  { kind: "test", command: CMD, outcome: "passed", at: "2026-02-24T10:33:00.000Z" },
];

/** The example's text, byte for byte (each declaration is preceded by a blank line). */
const SEED_TEXT = `
## Red - 2026-02-24 10:30:00
Test: tests/unit/services/test_greeting_service.py
Expects: test_create_greeting fails because create() method doesn't exist yet

[test] npm run test:python -- tests/unit/services/test_greeting_service.py -v - FAILED

## Green - 2026-02-24 10:32:00
Change: Add create() method to GreetingService
File: app/services/greeting.py

[test] npm run test:python -- tests/unit/services/test_greeting_service.py -v - SUCCEEDED
`;

describe("renderLog", () => {
  it("writes the example cycle exactly", () => {
    expect(renderLog(SEED_CYCLE)).toBe(SEED_TEXT);
  });

  it("writes override and skip-red labels, reasons, edits, failures and FINISHED", () => {
    const at = "2026-03-01T08:00:05.900Z";
    const entries: TddEntry[] = [
      { kind: "red", test: "t.py", expects: "e", at, override_from: "making_tests_pass" },
      {
        kind: "green",
        change: "c",
        files: ["a.py", "src/**/*.py"],
        at,
        override_from: "making_tests_pass",
      },
      { kind: "green", change: "c", files: ["a.py"], at, skip_red: { reason: "refactoring" } },
      {
        kind: "green",
        change: "c",
        files: ["a.py"],
        at,
        skip_red: { reason: "adding-coverage" },
        override_from: "red",
      },
      {
        kind: "test",
        command: "npm test\n-- -t x",
        outcome: "failed",
        at,
        error: "\n  Exit code 1  \nmore detail",
        failed_tests: ["t.py::test_x"],
        real_failure: true,
      },
      {
        kind: "edit",
        path: "src/a (copy).py",
        file_class: "prod",
        state: "red",
        decision: "blocked",
        at,
      },
      { kind: "edit", path: "t.py", file_class: "test", state: "red", decision: "allowed", at },
      { kind: "finished", at },
    ];
    expect(renderLog(entries)).toBe(`
## Red (override from making_tests_pass) - 2026-03-01 08:00:05
Test: t.py
Expects: e


## Green (override from making_tests_pass) - 2026-03-01 08:00:05
Change: c
File: a.py
File: src/**/*.py


## Green (skip-red) - 2026-03-01 08:00:05
Change: c
File: a.py
Reason: refactoring


## Green (skip-red, override from red) - 2026-03-01 08:00:05
Change: c
File: a.py
Reason: adding-coverage

[test] npm test\\n-- -t x - FAILED(Exit code 1)
[edit] src/a (copy).py (prod) state=red - BLOCKED
[edit] t.py (test) state=red - ALLOWED

## FINISHED - 2026-03-01 08:00:05
`);
  });

  it("renders one entry as the text it appends", () => {
    expect(
      renderLogEntry({
        kind: "test",
        command: "go test ./...",
        outcome: "passed",
        at: "2026-01-01T00:00:00Z",
        error: "ignored",
      }),
    ).toBe("[test] go test ./... - SUCCEEDED\n");
    expect(
      renderLogEntry({
        kind: "test",
        command: "x",
        outcome: "failed",
        at: "2026-01-01T00:00:00Z",
        error: "  \n",
      }),
    ).toBe("[test] x - FAILED\n");
  });

  it("escapes commands reversibly, unlike the original's bare \\n", () => {
    const cases = ["a\nb", "printf 'a\\nb'", "a\\", "x - FAILED(y)", "x - FAILED\\(y", "a\r\nb"];
    for (const command of cases) {
      const escaped = escapeLogCommand(command);
      expect(escaped).not.toMatch(/[\r\n]/);
      expect(escaped).not.toContain(" - FAILED(");
      expect(unescapeLogCommand(escaped)).toBe(command);
    }
    expect(escapeLogCommand("a\nb")).toBe("a\\nb");
    // An original log's raw backslash survives reading.
    expect(unescapeLogCommand("grep 'a\\|b'")).toBe("grep 'a\\|b'");
  });

  it("formats and reads header times in UTC", () => {
    expect(formatLogTime("2026-02-24T10:30:00.123Z")).toBe("2026-02-24 10:30:00");
    expect(parseLogTime("2026-02-24 10:30:00")).toBe("2026-02-24T10:30:00Z");
    // The original's own header time (local time with its offset).
    expect(parseLogTime("2026-02-24T11:30:00+01:00")).toBe("2026-02-24T10:30:00Z");
    expect(parseLogTime("2026-02-24T10:30:00.5Z")).toBe("2026-02-24T10:30:00Z");
    expect(parseLogTime("yesterday")).toBeUndefined();
    expect(parseLogTime("2026-13-40 10:30:00")).toBeUndefined();
  });
});

describe("parseLog", () => {
  it("reads the example back", () => {
    const parsed = parseLog(SEED_TEXT);
    expect(parsed.unread).toEqual([]);
    expect(parsed.entries).toEqual(logTextView(SEED_CYCLE));
    // Runs take the time of the header above them: the text gives them none.
    expect(parsed.entries.map((entry) => entry.at)).toEqual([
      "2026-02-24T10:30:00Z",
      "2026-02-24T10:30:00Z",
      "2026-02-24T10:32:00Z",
      "2026-02-24T10:32:00Z",
    ]);
  });

  it("reads an original CodeLeash log, listing the lines that are not entries", () => {
    const original = [
      "[edit] /repo/app/x.py (prod) state=initial - BLOCKED",
      "",
      "## Red - 2026-02-24T11:30:00+01:00",
      "Test: tests/test_x.py",
      "Expects: test_x fails",
      "",
      "[bash] ls -la - SUCCEEDED",
      "[test] npm test - FAILED(Exit code 1)",
      "[ignored e2e test] npm run test:e2e - SUCCEEDED",
      "",
      "## Green (override from making_tests_pass) - 2026-02-24T11:32:00+01:00",
      "Change: add x",
      "File: app/x.py",
      "",
    ].join("\n");
    const parsed = parseLog(original);
    expect(parsed.entries).toEqual([
      {
        kind: "edit",
        path: "/repo/app/x.py",
        file_class: "prod",
        state: "initial",
        decision: "blocked",
        at: UNKNOWN_LOG_TIME,
      },
      { kind: "red", test: "tests/test_x.py", expects: "test_x fails", at: "2026-02-24T10:30:00Z" },
      {
        kind: "test",
        command: "npm test",
        outcome: "failed",
        error: "Exit code 1",
        at: "2026-02-24T10:30:00Z",
      },
      {
        kind: "green",
        change: "add x",
        files: ["app/x.py"],
        at: "2026-02-24T10:32:00Z",
        override_from: "making_tests_pass",
      },
    ]);
    expect(parsed.unread).toEqual([
      { line: 7, text: "[bash] ls -la - SUCCEEDED" },
      { line: 9, text: "[ignored e2e test] npm run test:e2e - SUCCEEDED" },
    ]);
  });

  it.each([
    ["a header with a bad time", "## Red - soon\nTest: t\nExpects: e\n", [1, 2, 3]],
    ["a Red without Expects", "## Red - 2026-01-01 00:00:00\nTest: t\n", [1, 2]],
    ["a Green without File", "## Green - 2026-01-01 00:00:00\nChange: c\n", [1, 2]],
    [
      "a skip-red Green without Reason",
      "## Green (skip-red) - 2026-01-01 00:00:00\nChange: c\nFile: a\n",
      [1, 2, 3],
    ],
    [
      "a Reason on a plain Green",
      "## Green - 2026-01-01 00:00:00\nChange: c\nFile: a\nReason: refactoring\n",
      [1, 2, 3, 4],
    ],
    [
      "an unknown skip-red reason",
      "## Green (skip-red) - 2026-01-01 00:00:00\nChange: c\nFile: a\nReason: hurry\n",
      [1, 2, 3, 4],
    ],
    [
      "an override from initial",
      "## Red (override from initial) - 2026-01-01 00:00:00\nTest: t\nExpects: e\n",
      [1, 2, 3],
    ],
    ["an unknown label", "## Red (maybe) - 2026-01-01 00:00:00\nTest: t\nExpects: e\n", [1, 2, 3]],
    ["a label on FINISHED", "## FINISHED (early) - 2026-01-01 00:00:00\n", [1]],
    ["a body line outside a block", "Test: t\n", [1]],
    ["a [test] line with no outcome", "[test] npm test\n", [1]],
    ["an [edit] line with an unknown state", "[edit] a.py (prod) state=blue - ALLOWED\n", [1]],
  ])("lists %s as unread instead of guessing", (_name, text, lines) => {
    const parsed = parseLog(text);
    expect(parsed.entries).toEqual([]);
    expect(parsed.unread.map((line) => line.line)).toEqual(lines);
  });

  it("keeps a block's good lines when one body line does not fit", () => {
    const parsed = parseLog("## Red - 2026-01-01 00:00:00\nTest: t\nChange: c\nExpects: e\n");
    expect(parsed.entries).toEqual([
      { kind: "red", test: "t", expects: "e", at: "2026-01-01T00:00:00Z" },
    ]);
    expect(parsed.unread).toEqual([{ line: 3, text: "Change: c" }]);
  });

  it("reads CRLF line ends and trailing blanks", () => {
    const parsed = parseLog(SEED_TEXT.replace(/\n/g, "  \r\n"));
    expect(parsed).toEqual({ entries: logTextView(SEED_CYCLE), unread: [] });
  });

  it("cannot carry real_failure: derive the state from events.jsonl, not the text", () => {
    const entries: TddEntry[] = [
      SEED_CYCLE[0] as TddEntry,
      {
        kind: "test",
        command: "npm test",
        outcome: "failed",
        at: "2026-02-24T10:31:00Z",
        real_failure: false,
      },
    ];
    expect(deriveTddState(entries).state).toBe("writing_tests");
    expect(deriveTddState(parseLog(renderLog(entries)).entries).state).toBe("red");
    const fromEvents = entries.map((entry) => parseEventLine(toEventLine(entry)));
    expect(deriveTddState(fromEvents.flatMap((line) => (line.ok ? [line.entry] : []))).state).toBe(
      "writing_tests",
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Property-style checks over generated logs (a seeded generator, plain loops)
// ---------------------------------------------------------------------------------------------

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fragments chosen to collide with the format's own markers. */
const FRAGMENTS = [
  "a",
  "src/x.py",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\\",
  "\\n",
  "(",
  ")",
  " - FAILED(",
  " - FAILED",
  " - SUCCEEDED",
  "## Red - 2026-01-01 00:00:00",
  "## Green (skip-red) - x",
  "Test: t",
  "File: f",
  "[test] y",
  "[edit] p (prod) state=red - ALLOWED",
  " (test) state=initial - BLOCKED",
  "é漢",
  '"$`',
];

function generator(random: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const text = (): string => {
    let out = "";
    const parts = 1 + Math.floor(random() * 5);
    for (let i = 0; i < parts; i += 1) out += pick(FRAGMENTS);
    return out;
  };
  const line = (): string => oneLine(text()) || "x";
  const maybe = <T>(value: () => T): T | undefined => (random() < 0.5 ? value() : undefined);
  const at = (): string =>
    new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 1e10)).toISOString();
  const state = () => pick(["initial", "writing_tests", "red", "making_tests_pass"] as const);
  const from = () => pick(["writing_tests", "red", "making_tests_pass"] as const);
  const optional = <K extends string, T>(key: K, value: T | undefined) =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, T>>;

  const entry = (): TddEntry => {
    switch (pick(["red", "green", "test", "test", "edit", "finished"] as const)) {
      case "red":
        return {
          kind: "red",
          test: line(),
          expects: line(),
          at: at(),
          ...optional("override_from", maybe(from)),
        };
      case "green":
        return {
          kind: "green",
          change: line(),
          files: Array.from({ length: 1 + Math.floor(random() * 3) }, line),
          at: at(),
          ...optional(
            "skip_red",
            maybe(() => ({
              reason: pick(["refactoring", "lint-only", "adding-coverage"] as const),
            })),
          ),
          ...optional("override_from", maybe(from)),
        };
      case "test":
        return {
          kind: "test",
          command: text(),
          outcome: pick(["passed", "failed"] as const),
          at: at(),
          ...optional(
            "runner",
            maybe(() => pick(["pytest", "vitest", "jest"] as const)),
          ),
          ...optional("error", maybe(text)),
          ...optional(
            "failed_tests",
            maybe(() => [line(), line()]),
          ),
          ...optional(
            "declared_test_failed",
            maybe(() => random() < 0.5),
          ),
          ...optional(
            "real_failure",
            maybe(() => random() < 0.5),
          ),
        };
      case "edit":
        return {
          kind: "edit",
          path: line(),
          file_class: pick(["test", "prod", "e2e_test", "other"]),
          state: state(),
          decision: pick(["allowed", "blocked"] as const),
          at: at(),
        };
      case "finished":
        return { kind: "finished", at: at() };
    }
  };
  return (): TddEntry[] => Array.from({ length: Math.floor(random() * 14) }, entry);
}

const SEQUENCES = (() => {
  const next = generator(prng(2026));
  return Array.from({ length: 600 }, next);
})();

describe("round trips over generated logs", () => {
  it("generates entries the schema accepts, of every kind", () => {
    const all = SEQUENCES.flat();
    for (const entry of all) expect(TddEntrySchema.parse(entry)).toEqual(entry);
    expect(new Set(all.map((entry) => entry.kind)).size).toBe(5);
    expect(all.length).toBeGreaterThan(2000);
  });

  it("parseLog(renderLog(entries)) is exactly what the text can carry", () => {
    for (const entries of SEQUENCES) {
      const text = renderLog(entries);
      const parsed = parseLog(text);
      expect(parsed.unread, text).toEqual([]);
      expect(parsed.entries, text).toEqual(logTextView(entries));
      // And the text is stable: writing what was read gives the same text.
      expect(renderLog(parsed.entries)).toBe(text);
    }
  });

  it("the text view drops only what events.jsonl alone carries (and cuts error to one line)", () => {
    const dropped = new Set<string>();
    for (const entry of SEQUENCES.flat()) {
      const [view] = logTextView([entry]);
      for (const key of Object.keys(entry)) if (!(key in (view ?? {}))) dropped.add(key);
    }
    expect([...dropped].sort()).toEqual([
      "declared_test_failed",
      "error",
      "failed_tests",
      "real_failure",
      "runner",
    ]);
  });

  it("every entry becomes one events.jsonl line that parses back whole", () => {
    for (const entry of SEQUENCES.flat()) {
      const line = toEventLine(entry);
      expect(line).not.toContain("\n");
      const json = JSON.parse(line) as Record<string, unknown>;
      expect(json).toMatchObject({ v: 1, type: `tdd.${entry.kind}` });
      expect(json).not.toHaveProperty("kind");
      expect(EventLineSchema.parse(json)).toEqual(json);
      expect(parseEventLine(line)).toEqual({ ok: true, entry });
    }
  });
});

describe("parseEventLine", () => {
  it.each([
    ["not JSON", "{", "not JSON"],
    ["an unknown type", '{"v":1,"type":"tdd.blue","at":"2026-01-01T00:00:00Z"}', "type: "],
    ["a newer version", '{"v":2,"type":"tdd.finished","at":"2026-01-01T00:00:00Z"}', "v: "],
    [
      "a bad field",
      '{"v":1,"type":"tdd.test","command":"x","outcome":"maybe","at":"2026-01-01T00:00:00Z"}',
      "outcome: ",
    ],
    ["a bad time", '{"v":1,"type":"tdd.finished","at":"today"}', "at: "],
  ])("refuses %s with one line naming the field", (_name, line, start) => {
    const result = parseEventLine(line);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message.startsWith(start)).toBe(true);
      expect(result.message).not.toContain("\n");
    }
  });
});

describe("each kind parsed by its own option (util/union-option.ts)", () => {
  /** The map holds every option of the union under its value; each sample parses the same. */
  function expectSameAsUnion(
    union: z.core.$ZodType,
    key: string,
    options: ReadonlyMap<unknown, z.core.$ZodType>,
    samples: readonly unknown[],
  ) {
    const def = union._zod.def as unknown as { options: z.core.$ZodType[] };
    const expected = new Map<unknown, z.core.$ZodType>();
    for (const option of def.options)
      for (const value of option._zod.propValues?.[key] ?? []) expected.set(value, option);
    expect(options.size).toBe(expected.size);
    for (const [value, option] of expected) expect(options.get(value)).toBe(option);
    for (const sample of samples) {
      const viaUnion = z.safeParse(union, sample);
      const viaOption = z.safeParse(optionOf(sample, key, options, union), sample);
      expect(viaOption.success).toBe(viaUnion.success);
      expect(viaOption.data).toEqual(viaUnion.data);
      expect(viaOption.error?.issues).toEqual(viaUnion.error?.issues);
    }
  }
  const entries: unknown[] = SEQUENCES.flat();
  const broken = (value: unknown) => {
    const fields = value as Record<string, unknown>;
    return [
      { ...fields, at: "today" },
      { ...fields, path: "two\nlines", test: "", files: [], outcome: "maybe" },
      Object.fromEntries(
        Object.entries(fields).filter(([key]) => key === "kind" || key === "type"),
      ),
    ];
  };

  it("an entry by its kind", () => {
    const samples = [...entries, ...entries.flatMap(broken), { kind: "blue" }, null, [], "red"];
    expectSameAsUnion(TddEntrySchema, "kind", TDD_ENTRY_OPTIONS, samples);
  });

  it("an events.jsonl line by its type", () => {
    const lines: unknown[] = SEQUENCES.flat().map((entry) => JSON.parse(toEventLine(entry)));
    const samples = [...lines, ...lines.flatMap(broken), { v: 1, type: "tdd.blue" }, { v: 1 }, 7];
    expectSameAsUnion(EventLineSchema, "type", EVENT_LINE_OPTIONS, samples);
  });
});
