import { describe, expect, it } from "vitest";
import {
  declareGreen,
  declareRed,
  greenCommandFor,
  oneLine,
  redCommandFor,
  shellQuote,
  type GreenInput,
} from "./declare.ts";
import { GreenEntrySchema, RedEntrySchema, type TddEntry } from "./tdd-log.ts";
import { deriveTddState } from "./tdd-state.ts";

const AT = "2026-02-24T10:30:00.000Z";
const red: TddEntry = { kind: "red", test: "tests/test_a.py", expects: "test_a fails", at: AT };
const green: TddEntry = { kind: "green", change: "add a()", files: ["app/a.py"], at: AT };
const passed: TddEntry = { kind: "test", command: "npm test", outcome: "passed", at: AT };
const failed: TddEntry = { kind: "test", command: "npm test", outcome: "failed", at: AT };

const IN_STATE = {
  initial: [],
  writing_tests: [red],
  red: [red, failed],
  making_tests_pass: [red, failed, green],
} satisfies Record<string, TddEntry[]>;

const VALID: GreenInput = { change: "add a()", files: ["app/a.py"] };

describe("declareRed", () => {
  it("logs a Red with the state it overrides", () => {
    for (const [state, entries] of Object.entries(IN_STATE)) {
      const result = declareRed(entries, { test: "tests/test_b.py", expects: "b fails" }, AT);
      expect(result, state).toEqual({
        ok: true,
        entry: {
          kind: "red",
          test: "tests/test_b.py",
          expects: "b fails",
          at: AT,
          ...(state === "initial" ? {} : { override_from: state }),
        },
      });
      if (result.ok) expect(RedEntrySchema.parse(result.entry)).toEqual(result.entry);
    }
  });

  it("folds a multi-line value onto one line so the text log keeps it", () => {
    const result = declareRed(
      [],
      { test: "  tests/test_b.py\n", expects: "b fails\n  because\r\n\n x " },
      AT,
    );
    expect(result).toMatchObject({
      ok: true,
      entry: { test: "tests/test_b.py", expects: "b fails because x" },
    });
  });

  it.each([
    [
      { test: "", expects: "b fails" },
      '--test is empty: name the test you are about to make fail. Run: tailtest red --test "<test file>" --expects "b fails"',
    ],
    [
      { test: " \n ", expects: "" },
      '--test is empty: name the test you are about to make fail. Run: tailtest red --test "<test file>" --expects "<test name> fails because <reason>"',
    ],
    [
      { test: "tests/test_b.py", expects: "  " },
      '--expects is empty: say which test fails and why. Run: tailtest red --test "tests/test_b.py" --expects "<test name> fails because <reason>"',
    ],
  ])("refuses %j with one line", (input, message) => {
    expect(declareRed([], input, AT)).toEqual({ ok: false, message });
    expect(message).not.toContain("\n");
  });
});

describe("declareGreen", () => {
  it.each([
    ["red", undefined],
    ["making_tests_pass", "making_tests_pass"],
  ] as const)("logs a Green from %s", (state, from) => {
    const result = declareGreen(IN_STATE[state], VALID, AT);
    expect(result).toEqual({
      ok: true,
      entry: {
        kind: "green",
        change: "add a()",
        files: ["app/a.py"],
        at: AT,
        ...(from === undefined ? {} : { override_from: from }),
      },
    });
    if (result.ok) expect(GreenEntrySchema.parse(result.entry)).toEqual(result.entry);
  });

  it.each([
    ["initial", undefined],
    ["writing_tests", "writing_tests"],
    ["red", "red"],
    ["making_tests_pass", "making_tests_pass"],
  ] as const)("logs a skip-red Green from %s", (state, from) => {
    const result = declareGreen(
      IN_STATE[state],
      { ...VALID, skipRed: true, reason: "lint-only" },
      AT,
    );
    expect(result).toEqual({
      ok: true,
      entry: {
        kind: "green",
        change: "add a()",
        files: ["app/a.py"],
        at: AT,
        skip_red: { reason: "lint-only" },
        ...(from === undefined ? {} : { override_from: from }),
      },
    });
  });

  it("stores the files normalised, once each, in order", () => {
    const result = declareGreen(
      IN_STATE.red,
      { change: "x", files: ["./app/b.py", "app\\a.py", "app/b.py", "lib/feature/", " "] },
      AT,
    );
    expect(result).toMatchObject({
      ok: true,
      entry: { files: ["app/b.py", "app/a.py", "lib/feature/**"] },
    });
  });

  it("refuses Green from writing_tests: the test has not failed yet", () => {
    expect(declareGreen(IN_STATE.writing_tests, VALID, AT)).toEqual({
      ok: false,
      message:
        'Run your failing test(s) before logging Green. Your Red (tests/test_a.py) has not been seen failing yet: run it, then: tailtest green --change "add a()" --file app/a.py',
    });
  });

  it("refuses Green with no Red cycle", () => {
    expect(declareGreen(IN_STATE.initial, VALID, AT)).toEqual({
      ok: false,
      message:
        'Cannot log Green without a preceding Red cycle. Write a failing test first: tailtest red --test "<test file>" --expects "<test name> fails because <reason>"',
    });
    // A finished cycle does not count as a Red for the next Green.
    expect(declareGreen([red, failed, green, passed], VALID, AT).ok).toBe(false);
  });

  it("refuses Green after a regression, pointing at a new Red", () => {
    expect(declareGreen([red, failed, green, passed, failed], VALID, AT)).toEqual({
      ok: false,
      message:
        'Cannot log Green without a preceding Red cycle. A test failed after your last cycle finished: declare it as a new Red: tailtest red --test "<test file>" --expects "<test name> fails because <reason>"',
    });
  });

  it.each<[string, GreenInput, string]>([
    [
      "an empty --change",
      { change: " ", files: ["app/a.py"] },
      '--change is empty: say what you will change. Run: tailtest green --change "<what you will change>" --file app/a.py',
    ],
    [
      "no --file",
      { change: "add a()", files: [] },
      '--file is missing: list every file this change edits. Run: tailtest green --change "add a()" --file <path/to/file>',
    ],
    [
      "only blank --file values",
      { change: "add a()", files: ["", "./"] },
      '--file is missing: list every file this change edits. Run: tailtest green --change "add a()" --file <path/to/file>',
    ],
    [
      "a --file outside the project",
      { change: "add a()", files: ["app/a.py", "../b.py"] },
      '--file ../b.py is not inside the project: give every file relative to the project root. Run: tailtest green --change "add a()" --file app/a.py',
    ],
    [
      "an absolute --file",
      { change: "add a()", files: ["/srv/app/a.py"] },
      '--file /srv/app/a.py is not inside the project: give every file relative to the project root. Run: tailtest green --change "add a()" --file <path/to/file>',
    ],
    [
      "--skip-red without --reason",
      { ...VALID, skipRed: true },
      '--skip-red requires --reason. Valid reasons: refactoring, lint-only, adding-coverage. Run: tailtest green --skip-red --reason <refactoring|lint-only|adding-coverage> --change "add a()" --file app/a.py',
    ],
    [
      "--skip-red with a blank --reason",
      { ...VALID, skipRed: true, reason: " " },
      '--skip-red requires --reason. Valid reasons: refactoring, lint-only, adding-coverage. Run: tailtest green --skip-red --reason <refactoring|lint-only|adding-coverage> --change "add a()" --file app/a.py',
    ],
    [
      "an unknown --reason",
      { ...VALID, skipRed: true, reason: "hurry" },
      'Invalid --reason "hurry". Valid reasons: refactoring, lint-only, adding-coverage. Run: tailtest green --skip-red --reason <refactoring|lint-only|adding-coverage> --change "add a()" --file app/a.py',
    ],
    [
      "--reason without --skip-red",
      { ...VALID, reason: "refactoring" },
      '--reason is only read with --skip-red. Run: tailtest green --skip-red --reason refactoring --change "add a()" --file app/a.py',
    ],
  ])("refuses %s with one line, whatever the state", (_name, input, message) => {
    for (const entries of Object.values(IN_STATE)) {
      expect(declareGreen(entries, input, AT)).toEqual({ ok: false, message });
    }
    expect(message).not.toContain("\n");
  });

  it("a declared entry moves the machine as the reducer says", () => {
    const log: TddEntry[] = [];
    const r = declareRed(log, { test: "tests/test_a.py", expects: "a fails" }, AT);
    if (!r.ok) throw new Error(r.message);
    log.push(r.entry, failed);
    const g = declareGreen(log, { change: "add a()", files: ["./app/a.py"] }, AT);
    if (!g.ok) throw new Error(g.message);
    log.push(g.entry);
    expect(deriveTddState(log)).toMatchObject({
      state: "making_tests_pass",
      allowlist: ["app/a.py"],
    });
  });
});

describe("next commands", () => {
  it("quotes what the shell would otherwise read", () => {
    expect(shellQuote('say "hi" $HOME `x` \\')).toBe('"say \\"hi\\" \\$HOME \\`x\\` \\\\"');
    expect(
      greenCommandFor({ change: "fix $x", files: ["src/my file.ts", "src/**/*.ts", "src/a.ts"] }),
    ).toBe(
      'tailtest green --change "fix \\$x" --file "src/my file.ts" --file "src/**/*.ts" --file src/a.ts',
    );
    expect(redCommandFor({ test: "t.py", expects: 'x "y"' })).toBe(
      'tailtest red --test "t.py" --expects "x \\"y\\""',
    );
  });

  it("oneLine trims each line and joins the rest", () => {
    expect(oneLine(" a \n\n b\r\nc ")).toBe("a b c");
    expect(oneLine(" \n ")).toBe("");
  });
});
