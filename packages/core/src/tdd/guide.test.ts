import { describe, expect, it } from "vitest";
import type { RunResult } from "../engine/summarize.ts";
import {
  cycleRed,
  describeRecordedRun,
  describeTddView,
  isSyntaxFailure,
  namesTest,
  measuredAgainstRed,
  parseRedTarget,
  readMeasuredRuns,
  renderTddSessionNote,
  withAgentFlag,
} from "./guide.ts";
import type { TddEntry, TestRunEntry } from "./tdd-log.ts";
import { deriveTddState, initialTddView } from "./tdd-state.ts";

const AT = "2026-11-23T10:00:00.000Z";
const red: TddEntry = { kind: "red", test: "tests/test_a.py", expects: "a fails", at: AT };
const green: TddEntry = { kind: "green", change: "add a", files: ["a.py"], at: AT };
const failedRun: TestRunEntry = { kind: "test", command: "pytest", outcome: "failed", at: AT };

function result(partial: Partial<RunResult>): RunResult {
  return {
    runner: "pytest",
    cwd: "",
    command: ["pytest"],
    status: "passed",
    exit_code: 0,
    duration_ms: 1,
    tests: [],
    errors: [],
    reason: "ok",
    output_tail: "",
    ...partial,
  };
}

const failing = (name: string, failure = "AssertionError: 1 != 2") => ({
  id: { runner: "pytest" as const, file: "tests/test_a.py", segments: [name] },
  status: "fail" as const,
  failure,
});

describe("withAgentFlag", () => {
  it("adds --agent to every declaration command and leaves other text alone", () => {
    const text = "Run: tailtest red --test x\nthen tailtest green --change c\ntailtest tdd status";
    expect(withAgentFlag(text, "ag-1")).toBe(
      "Run: tailtest red --agent ag-1 --test x\nthen tailtest green --agent ag-1 --change c\ntailtest tdd status --agent ag-1",
    );
    expect(withAgentFlag(text, undefined)).toBe(text);
    expect(withAgentFlag("tailtest redo", "a")).toBe("tailtest redo");
    expect(withAgentFlag("Status: tailtest tdd status.", "a")).toBe(
      "Status: tailtest tdd status --agent a.",
    );
    expect(withAgentFlag("tailtest red --x", "a b")).toBe("tailtest red --agent 'a b' --x");
  });
});

describe("parseRedTarget", () => {
  it.each([
    ["tests/test_a.py", { file: "tests/test_a.py" }],
    ["./tests/test_a.py::test_x", { file: "tests/test_a.py", name: "test_x" }],
    ["src/a.test.ts > adds two", { file: "src/a.test.ts", name: "adds two" }],
    ["src/a.test.ts:12", { file: "src/a.test.ts" }],
    ["tests\\test_a.py", { file: "tests/test_a.py" }],
    ["src/A.test.ts#adds", { file: "src/A.test.ts", name: "adds" }],
  ])("%s", (input, expected) => {
    expect(parseRedTarget(input)).toEqual(expected);
  });
});

describe("isSyntaxFailure", () => {
  it.each([
    ["SyntaxError: invalid syntax", true],
    ["IndentationError: unexpected indent", true],
    ["Transform failed: Unexpected token (3:4)", true],
    ["./a_test.go:4:1: syntax error: unexpected }", true],
    ["ImportError: cannot import name 'mul' from 'calc'", false],
    ["AssertionError: expected 5 to be 6", false],
    ["undefined: Mul", false],
  ])("%s → %s", (message, expected) => {
    expect(isSyntaxFailure(message)).toBe(expected);
  });
});

describe("namesTest", () => {
  it.each([
    ["tests/test_a.py > test_b", "test_b", true],
    ["tests/test_a.py > test_b[1-2]", "test_b", true],
    ["tests/test_a.py > test_b[1-2]", "test_b[1-2]", true],
    ["tests/test_a.py > TestB > test_b", "TestB::test_b", true],
    ["tests/test_a.py > TestB > test_b", "test_b", true],
    ["tests/test_a.py > TestB > test_b", "TestB", true],
    ["src/calc.test.ts > calc > adds two numbers", "calc > adds two numbers", true],
    ["src/calc.test.ts > calc > adds two numbers", "adds two", true],
    // A longer name is another test: its pass says nothing of the Red's.
    ["tests/test_a.py > test_b_zero", "test_b", false],
    ["tests/test_a.py > test_b2", "test_b", false],
    ["tests/test_a.py > retest_b", "test_b", false],
    ["tests/test_a.py > TestB > test_c", "TestB::test_b", false],
    ["tests/test_a.py > test_b", "", false],
  ] as const)("%s named by %j → %s", (id, name, expected) => {
    expect(namesTest(id, name)).toBe(expected);
  });
});

describe("readMeasuredRuns", () => {
  it("all passed is a pass", () => {
    expect(readMeasuredRuns([result({})], undefined)).toEqual({ outcome: "passed" });
  });

  it("an assertion failure is real; a named declared test must be among the failures", () => {
    const run = result({ status: "failed", tests: [failing("test_b")], reason: "1 failed" });
    expect(readMeasuredRuns([run], { file: "tests/test_a.py" })).toMatchObject({
      outcome: "failed",
      real_failure: true,
      failed_tests: ["tests/test_a.py > test_b"],
    });
    expect(
      readMeasuredRuns([run], { file: "tests/test_a.py", name: "test_b" }).declared_test_failed,
    ).toBe(true);
    expect(
      readMeasuredRuns([run], { file: "tests/test_a.py", name: "test_c" }).declared_test_failed,
    ).toBe(false);
  });

  it("a named declared test that was skipped, xfailed or left out is no Green", () => {
    const passing = (name: string, status: "pass" | "skip" = "pass") => ({
      id: { runner: "pytest" as const, file: "tests/test_a.py", segments: [name] },
      status,
    });
    const target = { file: "tests/test_a.py", name: "test_b" };
    const skipped = result({ tests: [passing("test_a"), passing("test_b", "skip")] });
    expect(readMeasuredRuns([skipped], target)).toEqual({
      outcome: "failed",
      error: "the declared test test_b was skipped: a Green needs it to run and pass",
      real_failure: false,
    });
    const deselected = result({ tests: [passing("test_a")] });
    expect(readMeasuredRuns([deselected], target)).toMatchObject({
      outcome: "failed",
      error:
        "the declared test test_b was not run (deselected, filtered out or renamed): a Green needs it to run and pass",
    });
    const ran = result({ tests: [passing("test_a"), passing("test_b")] });
    expect(readMeasuredRuns([ran], target)).toEqual({ outcome: "passed" });
    // A Red naming only its file, or a runner with no per-test rows, is judged by the run alone.
    expect(readMeasuredRuns([skipped], { file: "tests/test_a.py" })).toEqual({ outcome: "passed" });
    expect(readMeasuredRuns([result({})], target)).toEqual({ outcome: "passed" });
  });

  it("a Red naming only its file is no Green while a test that failed at the Red is skipped", () => {
    const row = (name: string, status: "pass" | "skip") => ({
      id: { runner: "vitest" as const, file: "src/cube.test.ts", segments: [name] },
      status,
    });
    const target = { file: "src/cube.test.ts" };
    // The red-team's form: `it.skipIf("cube" in calc)("cubes", …)` beside a passing test.
    const redFailed = ["src/cube.test.ts > cubes"];
    const skipped = result({ tests: [row("adds still", "pass"), row("cubes", "skip")] });
    expect(readMeasuredRuns([skipped], target, redFailed)).toEqual({
      outcome: "failed",
      error:
        "src/cube.test.ts > cubes, which failed when the Red was confirmed, was skipped: a Green needs it to run and pass",
      real_failure: false,
    });
    const gone = result({ tests: [row("adds still", "pass")] });
    expect(readMeasuredRuns([gone], target, redFailed).error).toContain("was not run");
    const ran = result({ tests: [row("adds still", "pass"), row("cubes", "pass")] });
    expect(readMeasuredRuns([ran], target, redFailed)).toEqual({ outcome: "passed" });
    // What confirmed the Red recorded no test rows: the run alone judges, as before.
    expect(readMeasuredRuns([skipped], target, undefined)).toEqual({ outcome: "passed" });
  });

  it("a load error is real unless it is a syntax error", () => {
    const missing = result({
      status: "error",
      errors: [{ kind: "collection", message: "ImportError: cannot import name 'mul'" }],
    });
    expect(readMeasuredRuns([missing], undefined).real_failure).toBe(true);
    const syntax = result({
      status: "error",
      errors: [{ kind: "collection", message: "SyntaxError: invalid syntax" }],
    });
    expect(readMeasuredRuns([syntax], undefined).real_failure).toBe(false);
    const inTest = result({ status: "failed", tests: [failing("t", "SyntaxError: bad")] });
    expect(readMeasuredRuns([inTest], undefined).real_failure).toBe(false);
  });

  it("an empty selection, a timeout or no run at all proves nothing", () => {
    expect(readMeasuredRuns([result({ status: "no_tests" })], undefined).real_failure).toBe(false);
    expect(readMeasuredRuns([result({ status: "timeout" })], undefined).real_failure).toBe(false);
    expect(readMeasuredRuns([], undefined)).toMatchObject({
      outcome: "failed",
      real_failure: false,
    });
  });
});

describe("cycleRed", () => {
  it("is the active Red, or the Red a plain Green followed; none after skip-red", () => {
    expect(cycleRed([red], deriveTddState([red]))).toEqual(red);
    const confirmed = { ...failedRun, real_failure: true };
    const entries: TddEntry[] = [red, confirmed, green];
    expect(cycleRed(entries, deriveTddState(entries))).toEqual(red);
    const skip: TddEntry = { ...green, skip_red: { reason: "refactoring" } };
    expect(cycleRed([red, skip], deriveTddState([red, skip]))).toBeUndefined();
    expect(cycleRed([], initialTddView())).toBeUndefined();
  });
});

describe("what the agent is told", () => {
  it("names each state and what comes next", () => {
    expect(describeTddView(initialTddView())).toBe("no cycle is open");
    expect(describeTddView(deriveTddState([red]))).toContain("Red declared for tests/test_a.py");
    const view = deriveTddState([red, { ...failedRun }, green]);
    expect(describeTddView(view)).toContain("Green declared for a.py");
  });

  it("describes each transition of a recorded run", () => {
    const writing = deriveTddState([red]);
    const confirmed = deriveTddState([red, failedRun]);
    expect(describeRecordedRun(writing, confirmed, failedRun)).toContain("Red confirmed");
    const syntax = { ...failedRun, real_failure: false, error: "SyntaxError" };
    expect(describeRecordedRun(writing, writing, syntax)).toContain("before any assertion");
    const passed: TestRunEntry = { ...failedRun, outcome: "passed" };
    expect(describeRecordedRun(writing, writing, passed)).toContain("no Red yet");
    const making = deriveTddState([red, failedRun, green]);
    const done = deriveTddState([red, failedRun, green, passed]);
    expect(describeRecordedRun(making, done, passed)).toContain("the cycle is complete");
    const regression = deriveTddState([red, failedRun, green, passed, failedRun]);
    expect(describeRecordedRun(done, regression, failedRun)).toContain("regression");
  });

  it("the session note carries the commands, with --agent for a subagent", () => {
    const note = renderTddSessionNote({ view: initialTddView(), testHint: "*.test.*" });
    expect(note).toContain("tailtest red --test");
    expect(note).toContain("tailtest green --skip-red --reason refactoring");
    const sub = renderTddSessionNote({ view: initialTddView(), agentId: "x1", testHint: "t" });
    expect(sub).toContain("subagent x1");
    expect(sub).toContain("tailtest red --agent x1 --test");
  });
});

describe("measuredAgainstRed", () => {
  const red: TddEntry = {
    kind: "red",
    test: "test/calc.test.js::calc > multiplies",
    expects: "multiplies fails",
    at: "2026-02-24T10:30:00.000Z",
  };
  const green: TddEntry = {
    kind: "green",
    change: "add mul",
    files: ["src/calc.js"],
    at: "2026-02-24T10:31:00.000Z",
  };
  const run = (outcome: "passed" | "failed", support: string): TestRunEntry => ({
    kind: "test",
    command: "npx vitest run",
    outcome,
    at: "2026-02-24T10:30:30.000Z",
    support_hash: support,
  });

  it("a pass whose config, setup files or snapshots changed since the Red is no Green", () => {
    const view = deriveTddState([red, run("failed", "A"), green]);
    expect(view.redSupport).toBe("A");
    const measured = measuredAgainstRed({ outcome: "passed" }, "B", view);
    expect(measured).toMatchObject({ outcome: "failed", real_failure: false, support_hash: "B" });
    expect(measured.error).toContain("changed since its Red");
    // In the test's own terms when the caller names them (strict's `supportDescription`).
    const named = measuredAgainstRed({ outcome: "passed" }, "B", view, "conftest.py above it");
    expect(named.error).toContain("what it runs with (conftest.py above it) changed since its Red");
    const recorded: TddEntry = { kind: "test", command: "npx vitest run", at: red.at, ...measured };
    expect(deriveTddState([red, run("failed", "A"), green, recorded]).state).toBe(
      "making_tests_pass",
    );
  });

  it("keeps the tests that failed in the run that confirmed the Red, the first such run", () => {
    const confirming: TestRunEntry = { ...run("failed", "A"), failed_tests: ["a > x"] };
    const later: TestRunEntry = { ...run("failed", "A"), failed_tests: ["a > y"] };
    expect(deriveTddState([red, confirming, later, green]).redFailed).toEqual(["a > x"]);
    expect(deriveTddState([red, confirming, red]).redFailed).toBeUndefined();
  });

  it("a pass with the Red's support is a Green; a failure keeps its own reason", () => {
    const view = deriveTddState([red, run("failed", "A"), green]);
    expect(measuredAgainstRed({ outcome: "passed" }, "A", view)).toEqual({
      outcome: "passed",
      support_hash: "A",
    });
    expect(measuredAgainstRed({ outcome: "failed", error: "x" }, "B", view)).toEqual({
      outcome: "failed",
      error: "x",
      support_hash: "B",
    });
  });

  it("the Red's support is the first run that confirmed it, and a new Red forgets it", () => {
    const later = deriveTddState([red, run("failed", "A"), run("failed", "B"), green]);
    expect(later.redSupport).toBe("A");
    expect(deriveTddState([red, run("failed", "A"), red]).redSupport).toBeUndefined();
    // A Red confirmed before support was recorded is measured as before.
    const before: TddEntry = { kind: "test", command: "npm test", outcome: "failed", at: red.at };
    const unknown = deriveTddState([red, before, green]);
    expect(measuredAgainstRed({ outcome: "passed" }, "B", unknown).outcome).toBe("passed");
  });
});
