import { describe, expect, it } from "vitest";
import { declareGreen } from "./declare.ts";
import { renderLog, TddEntrySchema, type TddEntry } from "./tdd-log.ts";
import {
  applyTddEntry,
  deriveTddState,
  initialTddView,
  leavesProject,
  normaliseAllowlist,
  normaliseAllowlistEntry,
  TddStateSchema,
  type TddState,
} from "./tdd-state.ts";

const AT = "2026-02-24T10:30:00.000Z";

const red: TddEntry = {
  kind: "red",
  test: "tests/test_greeting.py",
  expects: "test_create fails because create() does not exist",
  at: AT,
};
const green: TddEntry = {
  kind: "green",
  change: "add create()",
  files: ["app/greeting.py"],
  at: AT,
};
const skipGreen: TddEntry = {
  kind: "green",
  change: "rename helper",
  files: ["app/util.py"],
  at: AT,
  skip_red: { reason: "refactoring" },
};
const passed: TddEntry = { kind: "test", command: "npm test", outcome: "passed", at: AT };
const failed: TddEntry = { kind: "test", command: "npm test", outcome: "failed", at: AT };
const loadError: TddEntry = { ...failed, real_failure: false, error: "SyntaxError" };
const otherTestFailed: TddEntry = {
  ...failed,
  declared_test_failed: false,
  failed_tests: ["tests/test_other.py::test_x"],
};
const editAllowed: TddEntry = {
  kind: "edit",
  path: "tests/test_greeting.py",
  file_class: "test",
  state: "writing_tests",
  decision: "allowed",
  at: AT,
};
const editBlocked: TddEntry = { ...editAllowed, path: "app/x.py", decision: "blocked" };
const finished: TddEntry = { kind: "finished", at: AT };

/** How to reach each state (and the two ways to be in `initial`). */
const SETUPS = {
  initial: [],
  "initial after a cycle": [red, failed, green, passed],
  writing_tests: [red],
  red: [red, failed],
  making_tests_pass: [red, failed, green],
} satisfies Record<string, TddEntry[]>;
type Setup = keyof typeof SETUPS;

const ENTRIES = {
  red,
  green,
  "green --skip-red": skipGreen,
  "run passed": passed,
  "run failed": failed,
  "run failed to load": loadError,
  "run failed another test": otherTestFailed,
  "edit allowed": editAllowed,
  "edit blocked": editBlocked,
  finished,
} satisfies Record<string, TddEntry>;
type EntryName = keyof typeof ENTRIES;

/** Every state × every entry: the state the machine is in afterwards. */
const TRANSITIONS: Record<Setup, Record<EntryName, TddState>> = {
  initial: {
    red: "writing_tests",
    green: "initial",
    "green --skip-red": "making_tests_pass",
    "run passed": "initial",
    "run failed": "initial",
    "run failed to load": "initial",
    "run failed another test": "initial",
    "edit allowed": "initial",
    "edit blocked": "initial",
    finished: "initial",
  },
  "initial after a cycle": {
    red: "writing_tests",
    green: "initial",
    "green --skip-red": "making_tests_pass",
    "run passed": "initial",
    "run failed": "initial",
    "run failed to load": "initial",
    "run failed another test": "initial",
    "edit allowed": "initial",
    "edit blocked": "initial",
    finished: "initial",
  },
  writing_tests: {
    red: "writing_tests",
    green: "writing_tests",
    "green --skip-red": "making_tests_pass",
    "run passed": "writing_tests",
    "run failed": "red",
    "run failed to load": "writing_tests",
    "run failed another test": "writing_tests",
    "edit allowed": "writing_tests",
    "edit blocked": "writing_tests",
    finished: "initial",
  },
  red: {
    red: "writing_tests",
    green: "making_tests_pass",
    "green --skip-red": "making_tests_pass",
    "run passed": "writing_tests",
    "run failed": "red",
    "run failed to load": "red",
    "run failed another test": "red",
    "edit allowed": "red",
    "edit blocked": "red",
    finished: "initial",
  },
  making_tests_pass: {
    red: "writing_tests",
    green: "making_tests_pass",
    "green --skip-red": "making_tests_pass",
    "run passed": "initial",
    "run failed": "making_tests_pass",
    "run failed to load": "making_tests_pass",
    "run failed another test": "making_tests_pass",
    "edit allowed": "making_tests_pass",
    "edit blocked": "making_tests_pass",
    finished: "initial",
  },
};

const ROWS = Object.entries(TRANSITIONS).flatMap(([setup, row]) =>
  Object.entries(row).map(([entry, after]) => [setup as Setup, entry as EntryName, after] as const),
);

/**
 * The original's `read_state` (scripts/tdd_common.py), ported line for line: a bottom-up scan of
 * the text. Used to show where we agree with it and where a fixed quirk makes us differ.
 */
function originalReadState(text: string): TddState {
  const lines = text.trim().split("\n");
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = (lines[i] ?? "").trimEnd();
    if (line.startsWith("[test]") && line.endsWith("- SUCCEEDED")) return "initial";
    if (line.startsWith("[test]") && line.includes("- FAILED")) {
      for (let j = i - 1; j >= 0; j -= 1) {
        const above = (lines[j] ?? "").trimEnd();
        if (above.startsWith("## Green")) return "making_tests_pass";
        if (above.startsWith("## Red")) return "red";
      }
      return "red";
    }
    if (line.startsWith("## Red")) return "writing_tests";
    if (line.startsWith("## Green")) return "making_tests_pass";
  }
  return "initial";
}

describe("deriveTddState transitions", () => {
  it("starts in initial with nothing open", () => {
    expect(deriveTddState([])).toEqual(initialTddView());
    expect(initialTddView()).toMatchObject({ state: "initial", allowlist: [], skipRed: false });
  });

  it("covers every state and every entry kind in the table", () => {
    const states = new Set(
      Object.keys(SETUPS).map((setup) => deriveTddState(SETUPS[setup as Setup]).state),
    );
    expect([...states].sort()).toEqual([...TddStateSchema.options].sort());
    const kinds = new Set(Object.values(ENTRIES).map((entry) => entry.kind));
    expect([...kinds].sort()).toEqual(["edit", "finished", "green", "red", "test"]);
    for (const entry of Object.values(ENTRIES)) expect(TddEntrySchema.parse(entry)).toEqual(entry);
  });

  it.each(ROWS)("%s + %s → %s", (setup, entryName, after) => {
    const before = SETUPS[setup];
    const view = deriveTddState([...before, ENTRIES[entryName]]);
    expect(view.state).toBe(after);
    // The step function and the fold agree.
    expect(applyTddEntry(deriveTddState(before), ENTRIES[entryName])).toEqual(view);
  });

  it("opens the allowlist only while making_tests_pass, with the active Green's files", () => {
    for (const [setup, entryName, after] of ROWS) {
      const view = deriveTddState([...SETUPS[setup], ENTRIES[entryName]]);
      if (after === "making_tests_pass") {
        expect(view.allowlist.length, `${setup} + ${entryName}`).toBeGreaterThan(0);
        expect(view.declaration?.kind, `${setup} + ${entryName}`).toBe("green");
      } else {
        expect(view.allowlist, `${setup} + ${entryName}`).toEqual([]);
        expect(view.skipRed, `${setup} + ${entryName}`).toBe(false);
      }
      if (after === "writing_tests" || after === "red") {
        expect(view.declaration?.kind, `${setup} + ${entryName}`).toBe("red");
      }
      if (after === "initial") expect(view.declaration, `${setup} + ${entryName}`).toBeUndefined();
    }
  });

  it("follows a whole cycle: Red, failing run, Green, passing run", () => {
    const view = deriveTddState([red, failed, green, passed]);
    expect(view).toMatchObject({
      state: "initial",
      declaration: undefined,
      allowlist: [],
      cycleComplete: true,
      regression: false,
      lastTest: passed,
    });
    expect(deriveTddState([red, failed, green])).toMatchObject({
      state: "making_tests_pass",
      declaration: green,
      allowlist: ["app/greeting.py"],
      skipRed: false,
      cycleComplete: false,
    });
  });

  it("uses the latest Green's files and skip-red flag", () => {
    const view = deriveTddState([red, failed, green, skipGreen]);
    expect(view).toMatchObject({
      allowlist: ["app/util.py"],
      skipRed: true,
      declaration: skipGreen,
    });
    const back = deriveTddState([skipGreen, red, failed, green]);
    expect(back).toMatchObject({ allowlist: ["app/greeting.py"], skipRed: false });
  });

  it("remembers the last test run whatever the state", () => {
    expect(deriveTddState([failed, red, loadError]).lastTest).toEqual(loadError);
    expect(deriveTddState([red]).lastTest).toBeUndefined();
  });

  it("does not change or keep hold of the entries it folds", () => {
    const entries = [red, failed, { ...green, files: ["./app/a.py"] }];
    const frozen = structuredClone(entries);
    const view = deriveTddState(entries);
    expect(entries).toEqual(frozen);
    view.allowlist.push("mutated");
    expect(deriveTddState(entries).allowlist).toEqual(["app/a.py"]);
  });
});

describe("overrides", () => {
  const OVERRIDES: [string, TddEntry[], TddEntry, TddState | undefined][] = [
    ["Red from initial", [], red, undefined],
    ["Red from writing_tests", [red], red, "writing_tests"],
    ["Red from red", [red, failed], red, "red"],
    ["Red from making_tests_pass", [red, failed, green], red, "making_tests_pass"],
    ["Green from red", [red, failed], green, undefined],
    ["Green from making_tests_pass", [red, failed, green], green, "making_tests_pass"],
    ["skip-red Green from initial", [], skipGreen, undefined],
    ["skip-red Green from writing_tests", [red], skipGreen, "writing_tests"],
    ["skip-red Green from red", [red, failed], skipGreen, "red"],
    ["skip-red Green from making_tests_pass", [red, failed, green], skipGreen, "making_tests_pass"],
  ];

  it.each(OVERRIDES)("%s is honoured and recorded", (_name, before, entry, from) => {
    const view = deriveTddState([...before, entry]);
    expect(view.state).toBe(entry.kind === "red" ? "writing_tests" : "making_tests_pass");
    expect(view.declaration).toEqual(entry);
    expect(view.overrides).toEqual(
      from === undefined
        ? []
        : [
            {
              kind: entry.kind,
              from,
              skip_red: entry.kind === "green" && entry.skip_red !== undefined,
              at: AT,
            },
          ],
    );
  });

  it("keeps every override in order", () => {
    const view = deriveTddState([red, red, failed, skipGreen, red]);
    expect(view.overrides.map((o) => `${o.kind}<${o.from}`)).toEqual([
      "red<writing_tests",
      "green<red",
      "red<making_tests_pass",
    ]);
  });
});

describe("quirks of the original, fixed", () => {
  it("quirk: a FAILED run with no declaration leaves initial and does not unlock Green", () => {
    const entries = [failed];
    expect(originalReadState(renderLog(entries))).toBe("red");
    const view = deriveTddState(entries);
    expect(view).toMatchObject({ state: "initial", regression: false, lastTest: failed });
    expect(declareGreen(entries, { change: "x", files: ["app/a.py"] }, AT).ok).toBe(false);
    // A Green written into the log by hand is refused by the reducer too.
    expect(deriveTddState([failed, green])).toMatchObject({ state: "initial", rejected: [green] });
  });

  it("quirk: a FAILED run after a finished cycle does not reopen the old allowlist", () => {
    const entries = [red, failed, green, passed, failed];
    expect(originalReadState(renderLog(entries))).toBe("making_tests_pass");
    expect(deriveTddState(entries)).toMatchObject({
      state: "initial",
      allowlist: [],
      declaration: undefined,
      cycleComplete: true,
      regression: true,
    });
  });

  it("the regression flag holds over further failures and clears on a pass or a declaration", () => {
    const regressed = [red, failed, green, passed, failed, loadError];
    expect(deriveTddState(regressed).regression).toBe(true);
    expect(deriveTddState([...regressed, passed]).regression).toBe(false);
    expect(deriveTddState([...regressed, red]).regression).toBe(false);
    expect(deriveTddState([...regressed, skipGreen]).regression).toBe(false);
    // No cycle, no regression: a failure before any cycle is only recorded.
    expect(deriveTddState([failed, failed]).regression).toBe(false);
  });

  it("quirk: the allowlist compares normalised paths, not the strings as typed", () => {
    const view = deriveTddState([
      red,
      failed,
      { ...green, files: ["./app/x.py", "app\\y.py", "app//z.py", "app/tmp/../w.py", "app/x.py"] },
    ]);
    expect(view.allowlist).toEqual(["app/x.py", "app/y.py", "app/z.py", "app/w.py"]);
  });

  it("a load, syntax or collection error while writing_tests is not Red", () => {
    const entries = [red, loadError];
    expect(originalReadState(renderLog(entries))).toBe("red");
    expect(deriveTddState(entries).state).toBe("writing_tests");
    expect(deriveTddState([...entries, failed]).state).toBe("red");
  });

  it("a failure of a test other than the declared one is not Red", () => {
    expect(deriveTddState([red, otherTestFailed]).state).toBe("writing_tests");
    expect(deriveTddState([red, { ...failed, declared_test_failed: true }]).state).toBe("red");
  });

  it("a passing run while writing_tests keeps the Red open (the test must fail first)", () => {
    const entries = [red, passed];
    expect(originalReadState(renderLog(entries))).toBe("initial");
    expect(deriveTddState(entries)).toMatchObject({ state: "writing_tests", declaration: red });
  });

  it("a passing run while red sends the Red back to writing_tests instead of dropping it", () => {
    const entries = [red, failed, passed];
    expect(originalReadState(renderLog(entries))).toBe("initial");
    expect(deriveTddState(entries)).toMatchObject({ state: "writing_tests", declaration: red });
  });

  it("## FINISHED closes a subagent's log: nothing stays open", () => {
    const entries = [red, failed, green, finished];
    expect(originalReadState(renderLog(entries))).toBe("making_tests_pass");
    expect(deriveTddState(entries)).toMatchObject({
      state: "initial",
      allowlist: [],
      declaration: undefined,
      finished: true,
    });
    expect(deriveTddState([...entries, red])).toMatchObject({
      state: "writing_tests",
      finished: false,
    });
  });

  it("agrees with the original's scan wherever no fixed quirk applies", () => {
    // Random walks that only take steps on which the two machines are meant to agree.
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const safeSteps = (state: TddState): TddEntry[] => {
      switch (state) {
        case "initial":
          return [red, skipGreen, passed, editBlocked];
        case "writing_tests":
          return [red, failed, skipGreen, editAllowed];
        case "red":
          return [red, green, skipGreen, failed, editBlocked];
        case "making_tests_pass":
          return [red, green, skipGreen, failed, passed, editAllowed];
      }
    };
    for (let walk = 0; walk < 300; walk += 1) {
      const entries: TddEntry[] = [];
      for (let step = 0; step < 12; step += 1) {
        const options = safeSteps(deriveTddState(entries).state);
        entries.push(options[Math.floor(random() * options.length)] ?? red);
        expect(deriveTddState(entries).state).toBe(originalReadState(renderLog(entries)));
      }
    }
  });
});

describe("normaliseAllowlistEntry", () => {
  it.each([
    ["app/x.py", "app/x.py"],
    ["./app/x.py", "app/x.py"],
    ["././app/x.py", "app/x.py"],
    ["  app/x.py  ", "app/x.py"],
    ["app\\x.py", "app/x.py"],
    ["app//x.py", "app/x.py"],
    ["app/./x.py", "app/x.py"],
    ["app/old/../x.py", "app/x.py"],
    ["app/feature/", "app/feature/**"],
    ["app/feature//", "app/feature/**"],
    ["src/**/*.ts", "src/**/*.ts"],
    ["./src/*.ts", "src/*.ts"],
    ["src/*/", "src/*/**"],
    ["src/{a,b}/../x.ts", "src/{a,b}/../x.ts"],
    ["App/X.py", "App/X.py"],
    ["../other/x.py", "../other/x.py"],
    ["/abs/x.py", "/abs/x.py"],
    ["./", ""],
    ["", ""],
  ])("%j → %j", (raw, normal) => {
    expect(normaliseAllowlistEntry(raw)).toBe(normal);
    expect(normaliseAllowlistEntry(normal)).toBe(normal);
  });

  it("drops empties and repeats, keeping the declared order", () => {
    expect(normaliseAllowlist(["b.py", "./a.py", "", "b.py", "./"])).toEqual(["b.py", "a.py"]);
  });

  it.each([
    ["app/x.py", false],
    ["src/*.ts", false],
    ["..foo/x.py", false],
    ["../x.py", true],
    ["..", true],
    ["/abs/x.py", true],
    ["C:/x.py", true],
  ])("leavesProject(%j) = %s", (entry, leaves) => {
    expect(leavesProject(entry)).toBe(leaves);
  });
});
