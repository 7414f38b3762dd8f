import type { RunResult } from "../engine/summarize.ts";
import { greenCommandFor, redCommandFor } from "./declare.ts";
import type { RedEntry, TddEntry, TestRunEntry } from "./tdd-log.ts";
import type { TddView } from "./tdd-state.ts";

/**
 * What tdd mode tells the agent outside the gate's own refusals: the session note with
 * copy-paste commands, what a recorded test run did to the cycle, and how a measured run is
 * read (pure; the node edge runs the tests).
 */

/** Adds `--agent <id>` to every `tailtest red|green|tdd status` command in a text (subagents). */
export function withAgentFlag(text: string, agentId: string | undefined): string {
  if (agentId === undefined || agentId === "") return text;
  const flag = /^[\w.-]+$/.test(agentId) ? agentId : `'${agentId.replace(/'/g, `'\\''`)}'`;
  return text.replace(
    /\btailtest (red|green|tdd status)(?=[\s.,;:)]|$)/gm,
    `tailtest $1 --agent ${flag}`,
  );
}

/** One line on where the cycle stands. */
export function describeTddView(view: TddView): string {
  switch (view.state) {
    case "initial":
      if (view.regression)
        return "no cycle is open, and a test failed after the last cycle finished (a regression): declare a Red for it";
      return view.cycleComplete
        ? "the last cycle finished green; no cycle is open"
        : "no cycle is open";
    case "writing_tests":
      return `Red declared for ${quoteOf(view.declaration)}: write that test and run it; it must fail for the expected reason`;
    case "red":
      return `Red confirmed for ${quoteOf(view.declaration)}: declare the Green (the change and its files)`;
    case "making_tests_pass":
      return `Green declared for ${view.allowlist.join(", ")}${
        view.skipRed ? " (skip-red: test files may change too)" : ""
      }: make the tests pass`;
  }
}

function quoteOf(declaration: TddView["declaration"]): string {
  if (declaration === undefined) return "?";
  return declaration.kind === "red" ? declaration.test : declaration.change;
}

export interface SessionNoteInput {
  view: TddView;
  agentId?: string | undefined;
  /** Where test and production files are, in a few words each (from the patterns). */
  testHint: string;
}

/** The SessionStart (and SubagentStart) note: the cycle, and the commands to run. */
export function renderTddSessionNote(input: SessionNoteInput): string {
  const who =
    input.agentId === undefined
      ? "this session"
      : `subagent ${input.agentId} (its own log, separate from the main agent's)`;
  const lines = [
    `tailtest tdd: Red → Green → Refactor is enforced for ${who}. Now: ${describeTddView(input.view)}.`,
    "1. Red: declare the behaviour, then write only the failing test:",
    `   ${redCommandFor({ test: "<test file>" })}`,
    "2. Run the test. tailtest runs the declared test itself and confirms it fails for a real reason (not a syntax error).",
    "3. Green: declare the change and the only production files it needs (globs allowed), then make the test pass:",
    `   ${greenCommandFor()}`,
    "4. A passing run closes the cycle. Refactor, lint-only or coverage work without a new failing test:",
    `   ${greenCommandFor({ skipRed: true, reason: "refactoring" })}`,
    `Test files: ${input.testHint}. Status: tailtest tdd status. tailtest's own files and the hook configs are never editable; only the person changes the mode.`,
  ];
  return withAgentFlag(lines.join("\n"), input.agentId);
}

/** The Red the current cycle is about: the active Red, or the one the active Green followed. */
export function cycleRed(entries: readonly TddEntry[], view: TddView): RedEntry | undefined {
  if (view.declaration?.kind === "red") return view.declaration;
  if (view.declaration?.kind !== "green" || view.skipRed) return undefined;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry === undefined) continue;
    if (entry.kind === "red") return entry;
    if (entry.kind === "finished") return undefined;
  }
  return undefined;
}

/** A Red's `--test`, split into a project file and an optional test name (`file::name`). */
export interface RedTarget {
  file: string;
  name?: string;
}

/**
 * Reads a Red's `--test` as a file and maybe a test name: `tests/test_a.py::test_x`,
 * `src/a.test.ts > adds`, `src/a.test.ts:12`, or a bare file. The caller checks the file exists.
 */
export function parseRedTarget(test: string): RedTarget {
  const text = test.trim().replace(/\\/g, "/");
  const match = /^(.+?)(?:::|\s+>\s+|#|\s+-t\s+)(.+)$/.exec(text);
  const file = (match?.[1] ?? text).replace(/:\d+$/, "").replace(/^\.\//, "");
  const name = match?.[2]?.trim();
  return name === undefined || name === "" ? { file } : { file, name };
}

const SYNTAX_ERROR =
  /\b(SyntaxError|IndentationError|TabError|ParseError|Unexpected token|Unterminated|Missing semicolon|expected expression|syntax error|PARSE_ERROR)\b/i;

/** True when a failure message is a syntax error (of the test file or anything it loads). */
export function isSyntaxFailure(message: string): boolean {
  return SYNTAX_ERROR.test(message);
}

/** What tailtest measured by running the cycle's test itself. */
export interface MeasuredRun {
  outcome: TestRunEntry["outcome"];
  real_failure?: boolean;
  declared_test_failed?: boolean;
  failed_tests?: string[];
  error?: string;
  /** What the Red's test ran with (`TestRunEntry.support_hash`). */
  support_hash?: string;
}

/**
 * Reads the engine's results for the cycle's test file as one run. An assertion failure is a
 * real failure. A load or collection error is one too (a test importing a function that does not
 * exist yet is the usual first Red), unless it is a syntax error. A run that selected no test, or
 * timed out, is a failure but not a real one: it proves nothing about the behaviour.
 */
export function readMeasuredRuns(
  results: readonly RunResult[],
  target: RedTarget | undefined,
  /** The tests that failed when the Red was confirmed (`TddView.redFailed`). */
  redFailed?: readonly string[],
): MeasuredRun {
  if (results.length > 0 && results.every((result) => result.status === "passed")) {
    const skipped =
      declaredTestSkipped(results, target) ?? redTestsHeld(results, target, redFailed);
    if (skipped === undefined) return { outcome: "passed" };
    // Skipped, xfailed, deselected or renamed away: the run says nothing of the behaviour.
    return { outcome: "failed", error: skipped, real_failure: false };
  }
  const failedTests = results.flatMap((result) =>
    result.tests
      .filter((test) => test.status === "fail")
      .map((test) => [test.id.file, ...test.id.segments].join(" > ")),
  );
  const errors = results.flatMap((result) => result.errors.map((error) => error.message));
  const firstProblem = results.find((result) => result.status !== "passed");
  const error = firstProblem === undefined ? "no test ran" : firstProblem.reason;
  const measured: MeasuredRun = {
    outcome: "failed",
    error,
    real_failure: realFailure(results, errors),
  };
  if (failedTests.length > 0) measured.failed_tests = failedTests;
  if (target?.name !== undefined && failedTests.length > 0) {
    const name = target.name;
    measured.declared_test_failed = failedTests.some((id) => namesTest(id, name));
  }
  return measured;
}

/**
 * A run with the support hash it was measured with. A pass of the Red's test while its support
 * differs from the run that confirmed the Red is no Green: a setup file that patches the code, a
 * config that mocks it, a rewritten snapshot would make any code pass.
 */
export function measuredAgainstRed(
  measured: MeasuredRun,
  support: string,
  view: TddView,
  /** What the test runs with, in its language's words (`supportDescription`). */
  supportWords = "the runner's config, setup files, snapshots, conftest.py, helpers",
): MeasuredRun {
  const changed =
    view.state === "making_tests_pass" &&
    view.redSupport !== undefined &&
    view.redSupport !== support;
  if (measured.outcome !== "passed" || !changed) return { ...measured, support_hash: support };
  return {
    outcome: "failed",
    real_failure: false,
    support_hash: support,
    error: `the declared test passes, but what it runs with (${supportWords}) changed since its Red: a Green needs it to pass with what it failed with`,
  };
}

/**
 * Why a passing run is no Green for a Red that names its test: that test did not run and pass
 * (skipped, xfailed, deselected, filtered out, renamed). Undefined when it did, or when the Red
 * names only a file.
 */
function declaredTestSkipped(
  results: readonly RunResult[],
  target: RedTarget | undefined,
): string | undefined {
  if (target?.name === undefined) return undefined;
  // A runner that reports no test rows at all says nothing either way.
  if (results.every((result) => result.tests.length === 0)) return undefined;
  const name = target.name;
  const matching = results.flatMap((result) =>
    result.tests.filter((test) => namesTest([test.id.file, ...test.id.segments].join(" > "), name)),
  );
  const ran = matching.some((test) => test.status === "pass");
  const held = matching.find((test) => test.status !== "pass");
  if (ran && held === undefined) return undefined;
  const how =
    held === undefined
      ? "was not run (deselected, filtered out or renamed)"
      : `was ${held.status === "skip" ? "skipped" : "not run"}`;
  return `the declared test ${target.name} ${how}: a Green needs it to run and pass`;
}

/**
 * Why a passing run is no Green for a Red that names only its file: a test that failed when the
 * Red was confirmed did not run and pass (an `it.skipIf` that skips it once the code exists,
 * beside a test that passes). Undefined when each did, or the Red named its test.
 */
function redTestsHeld(
  results: readonly RunResult[],
  target: RedTarget | undefined,
  redFailed: readonly string[] | undefined,
): string | undefined {
  if (target === undefined || target.name !== undefined || redFailed === undefined)
    return undefined;
  if (results.every((result) => result.tests.length === 0)) return undefined;
  const byId = new Map(
    results.flatMap((result) =>
      result.tests.map((test) => [[test.id.file, ...test.id.segments].join(" > "), test.status]),
    ),
  );
  const held = redFailed.find((id) => byId.get(id) !== "pass");
  if (held === undefined) return undefined;
  const status = byId.get(held);
  const how =
    status === undefined
      ? "was not run (deselected, filtered out or renamed)"
      : `was ${status === "skip" ? "skipped" : "not run"}`;
  return `${held}, which failed when the Red was confirmed, ${how}: a Green needs it to run and pass`;
}

/**
 * Whether a Red's test name (`test_b`, `TestB::test_b`, `calc > adds`) names a test's id
 * (`tests/test_a.py > TestB > test_b[1-2]`): the name, its `::` read as ` > `, found where no
 * letter, digit or underscore goes on either side of it. A plain substring let a Red on
 * `test_mul` be passed by `test_mul_zero` while `test_mul` was deselected, and a class's
 * `TestB::test_b` never matched, so its Red was never seen failing.
 */
export function namesTest(id: string, name: string): boolean {
  const text = id.toLowerCase();
  const wanted = name
    .trim()
    .replace(/\s*::\s*/g, " > ")
    .toLowerCase();
  if (wanted === "") return false;
  for (let at = text.indexOf(wanted); at >= 0; at = text.indexOf(wanted, at + 1)) {
    const before = at === 0 ? "" : text.charAt(at - 1);
    const after = text.charAt(at + wanted.length);
    if (!/\w/.test(before) && !/\w/.test(after)) return true;
  }
  return false;
}

function realFailure(results: readonly RunResult[], errors: readonly string[]): boolean {
  if (results.length === 0) return false;
  // A runner that could not start proves nothing about the behaviour: never a Red.
  if (results.some((result) => result.status === "env_error")) return false;
  if (results.some((result) => result.status === "timeout" || result.status === "no_tests"))
    return results.some((result) => result.tests.some((test) => test.status === "fail"));
  if (errors.some((message) => isSyntaxFailure(message))) return false;
  const failures = results.flatMap((result) =>
    result.tests.filter((test) => test.status === "fail"),
  );
  if (failures.some((test) => isSyntaxFailure(test.failure ?? ""))) return false;
  return failures.length > 0 || errors.length > 0;
}

/** What a recorded run did to the cycle, for the agent. */
export function describeRecordedRun(before: TddView, after: TddView, run: TestRunEntry): string {
  const verdict = run.outcome === "passed" ? "passed" : "failed";
  const head = `tailtest tdd: recorded a test run (${verdict}).`;
  if (before.state === "writing_tests" && after.state === "red")
    return `${head} Red confirmed: the declared test fails as expected. Next, declare the Green:\n  ${greenCommandFor()}`;
  if (before.state === "writing_tests" && run.outcome === "failed")
    return `${head} This is not a Red yet: ${notRedReason(run)}. Fix the test so it fails on the behaviour, then run it again.`;
  if (before.state === "writing_tests")
    return `${head} The declared test passes, so there is no Red yet: make the test fail on the missing behaviour first.`;
  if (before.state === "red" && after.state === "writing_tests")
    return `${head} The declared test passes now without a Green, so the Red is no longer confirmed; make it fail again or declare a new Red.`;
  if (before.state === "making_tests_pass" && after.state === "initial")
    return `${head} Green: the cycle is complete. Refactor now with tests green (tailtest green --skip-red --reason refactoring …), or start the next cycle with tailtest red.`;
  if (run.outcome === "failed" && run.error?.startsWith("the declared test ") === true)
    return `${head} Not a Green: ${run.error}. Run it for real (no skip, xfail, deselect or -k that leaves it out).`;
  if (after.regression && !before.regression)
    return `${head} A test fails after the last cycle finished (a regression). Declare a Red for it before changing production code:\n  ${redCommandFor()}`;
  return `${head} State: ${describeTddView(after)}.`;
}

function notRedReason(run: TestRunEntry): string {
  if (run.real_failure === false)
    return `the run failed before any assertion (${run.error ?? "a load, syntax or selection error"})`;
  if (run.declared_test_failed === false)
    return `other tests failed (${(run.failed_tests ?? []).slice(0, 3).join(", ")}) but not the declared one`;
  return run.error ?? "the failure was not the declared test's";
}
