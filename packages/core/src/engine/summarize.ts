import * as z from "zod/mini";
import { capText } from "../notes/notes.ts";
import { stripAnsi } from "./parsers/_shared.ts";
import type { MissingTest, RunPlan } from "./plan.ts";
import {
  FileErrorSchema,
  type FileError,
  TestResultSchema,
  type ParsedRun,
  type TestId,
  type TestResult,
} from "./results.ts";
import { RunnerIdSchema } from "../runners/project-runners.ts";
import { specOf } from "../runners/table.ts";

/**
 * How a run ended. `env_error`: the runner or the environment could not start (the command is
 * missing, the interpreter has no such runner, npx found nothing installed): no test of the
 * project's was judged, so it is never a code failure.
 */
export const RunStatusSchema = z.enum([
  "passed",
  "failed",
  "error",
  "timeout",
  "no_tests",
  "env_error",
]);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const RunResultSchema = z.object({
  runner: RunnerIdSchema,
  cwd: z.string(),
  command: z.array(z.string()),
  status: RunStatusSchema,
  exit_code: z.nullable(z.number().check(z.int())),
  duration_ms: z.number().check(z.minimum(0)),
  tests: z.array(TestResultSchema),
  errors: z.array(FileErrorSchema),
  /** Why the status is what it is, in one line (e.g. "pytest exited 5: no tests collected"). */
  reason: z.string(),
  /** The end of the runner's own output, trimmed, for when nothing could be parsed. */
  output_tail: z.string(),
});
export type RunResult = z.infer<typeof RunResultSchema>;

export interface ProcessOutcome {
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** Set when the process could not start (e.g. ENOENT: the runner is not installed). */
  spawnError?: string | undefined;
  /** The signal that ended the process when it did not exit on its own (e.g. SIGKILL). */
  signal?: string | undefined;
  /** Combined stdout and stderr, already capped by the executor. */
  output: string;
  /** With `timedOut`: what stopped it when not `test_timeout_seconds` (`hangReason`). */
  stoppedBy?: string | undefined;
}

/**
 * The start of the stack dump faulthandler prints for a test past `faulthandler_timeout` (on the
 * line of pytest's progress: `tests/test_billing.py Timeout (0:00:55)!`).
 */
const HANG_DUMP = /Timeout \(\d+:\d\d:\d\d(\.\d+)?\)!$/gm;

/** The first line of an output tail that `hangDump` took: the dump's own heading. */
const HANG_DUMP_HEAD = new RegExp(`^${HANG_DUMP.source}`, "m");

/** A Python stack frame of such a dump: `  File "/…/billing.py", line 2 in charge`. */
const DUMP_FRAME = /^\s*File "([^"]+)", line \d+ in \S+/;

/** The newest stack dump a runner printed for a hanging test, up to `TAIL_LINES` lines. */
function hangDump(output: string): string | undefined {
  const text = stripAnsi(output);
  let at = -1;
  for (const match of text.matchAll(HANG_DUMP)) at = match.index;
  if (at === -1) return undefined;
  return text.slice(at).split("\n").slice(0, TAIL_LINES).join("\n").trimEnd();
}

/**
 * The frames of a hang's stack dump that lie in the project (after its paths are made relative),
 * innermost first: where the test was when it was stopped.
 */
function hangFrames(tail: string, count: number, options: ExcerptOptions): string[] {
  if (!HANG_DUMP_HEAD.test(tail.split("\n", 1)[0] ?? "")) return [];
  return firstLines(tail, Number.MAX_SAFE_INTEGER, options)
    .split("\n")
    .filter((line) => {
      const file = DUMP_FRAME.exec(line)?.[1];
      return file !== undefined && !file.startsWith("…/") && !file.startsWith("<");
    })
    .slice(0, count)
    .map((line) => `  ${line.trim()}`);
}

/** Between a timed-out run's runner and what stopped it, in its reason. */
const STOPPED = " was stopped ";

/** vitest's banner over errors thrown outside any test, which also make it exit 1. */
const UNHANDLED = /\bUnhandled (Errors?|Rejection)\b/;

/** How a run stopped at the configured timeout is told. */
const TIMEOUT_SETTING = "at the test timeout (test_timeout_seconds)";

/**
 * Decides a run's status from what really happened. A run that executed no test is
 * `no_tests`, never a pass; an import or collection error is `error`, told apart from an
 * assertion failure; every requested test absent from the output is `not_run`.
 */
export function summarizeRun(plan: RunPlan, parsed: ParsedRun, outcome: ProcessOutcome): RunResult {
  const tests = withNotRun(parsed.tests, plan.requested);
  const executed = tests.filter((test) => test.status === "pass" || test.status === "fail");
  const failed = tests.some((test) => test.status === "fail");
  const collection = parsed.errors.filter((error) => error.kind === "collection");
  const crash = parsed.errors.filter((error) => error.kind !== "collection");
  const exitFailed = failingExit(parsed, crash, outcome);
  const base = {
    runner: plan.runner.id,
    cwd: plan.cwd,
    command: plan.argv,
    exit_code: outcome.exitCode,
    duration_ms: Math.round(outcome.durationMs),
    tests,
    errors: parsed.errors,
    output_tail: tailOf(outcome.output),
  };
  const label = plan.runner.id;
  if (outcome.spawnError !== undefined) {
    return {
      ...base,
      status: "env_error",
      reason: `${plan.argv[0] ?? label} could not start (${outcome.spawnError}); is ${label} installed?`,
    };
  }
  if (outcome.timedOut)
    return {
      ...base,
      // Where the runner said a test hung (pytest's faulthandler dump, `hangArgs`), else the end.
      output_tail: hangDump(outcome.output) ?? base.output_tail,
      status: "timeout",
      reason: `${label}${STOPPED}${outcome.stoppedBy ?? TIMEOUT_SETTING}`,
    };
  if (outcome.signal !== undefined)
    return {
      ...base,
      status: "error",
      reason: `${label} was killed by ${outcome.signal} before it finished (a test, or the system, ended it)`,
    };
  if (collection.length > 0) {
    const where = collection.map((error) => error.file ?? "(unknown file)").join(", ");
    return { ...base, status: "error", reason: `${label} could not load ${where}` };
  }
  if (failed)
    return {
      ...base,
      status: "failed",
      reason: `${count(tests, "fail")} of ${executed.length} tests failed`,
    };
  if (executed.length === 0) {
    const environment =
      specOf(plan.runner.id).missingPlugin?.(stripAnsi(outcome.output)) ??
      environmentProblem(outcome);
    if (environment !== undefined)
      return { ...base, status: "env_error", reason: `${label} could not start: ${environment}` };
    if (crash.length > 0 || (exitFailed && !isNoTestsExit(plan, outcome))) {
      return {
        ...base,
        status: "error",
        // Without a report nothing says whether tests ran (a reporter may have crashed after them).
        reason:
          crash[0] === undefined
            ? `${label} exited ${String(outcome.exitCode)} without running a test`
            : `${label} exited ${String(outcome.exitCode)}: ${firstLineOf(crash[0].message)}`,
      };
    }
    return {
      ...base,
      status: "no_tests",
      reason: `${label} ran no test${plan.requested.length > 0 ? " (the filter matched nothing)" : ""}`,
    };
  }
  if (exitFailed) {
    // bun and deno leave a file that fails to import out of their reports: the exit code is
    // the only sign, so a non-zero exit with nothing red is an error, never a pass.
    const why =
      crash[0] === undefined
        ? " although no reported test failed (a file may not have loaded)"
        : `: ${firstLineOf(crash[0].message)}`;
    return {
      ...base,
      status: "error",
      reason: `${label} exited ${String(outcome.exitCode)}${why}`,
    };
  }
  return { ...base, status: "passed", reason: `${executed.length} tests passed` };
}

/**
 * The line that says the runner itself could not start, when a run ended without a test: the
 * shell's 127, an interpreter without the runner module, a package runner with nothing installed,
 * a pytest older than the project's `minversion`.
 */
export function environmentProblem(outcome: ProcessOutcome): string | undefined {
  const output = stripAnsi(outcome.output);
  const patterns = [
    /^.*No module named '?(pytest|unittest)'?.*$/m,
    // pytest older than the project's config asks for (`minversion`): the environment's pytest.
    /^.*'minversion' requires pytest-[\w.]+, actual pytest-[\w.]+.*$/m,
    /^.*: command not found.*$/m,
    /^.*npm (ERR!|error) could not determine executable to run.*$/m,
    /^.*Cannot find module '[^']*(vitest|jest|mocha)[^']*'.*$/m,
    /^.*(ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL|Command "[\w-]+" not found).*$/m,
  ];
  for (const pattern of patterns) {
    const line = pattern.exec(output)?.[0];
    if (line !== undefined) return line.trim().slice(0, 300);
  }
  if (outcome.exitCode === 127) return "the command was not found (exit 127)";
  return undefined;
}

/**
 * Whether the runner's exit says something failed. vitest exits 1 for a test file that declares
 * no test (test tables named `*.spec.ts`), which the project's own run lets pass with
 * --passWithNoTests: that exit is no failure of its own, unless something else went wrong beside
 * it (a crash, an error thrown outside any test).
 */
function failingExit(
  parsed: ParsedRun,
  crash: readonly FileError[],
  outcome: ProcessOutcome,
): boolean {
  if (outcome.exitCode === 0) return false;
  return !(
    (parsed.empty?.length ?? 0) > 0 &&
    crash.length === 0 &&
    !UNHANDLED.test(stripAnsi(outcome.output))
  );
}

/** An exit the runner's record says means no test ran (pytest's 5), not that the runner broke. */
function isNoTestsExit(plan: RunPlan, outcome: ProcessOutcome): boolean {
  return specOf(plan.runner.id).noTestsRan?.(outcome.exitCode, outcome.output) === true;
}

function count(tests: readonly TestResult[], status: TestResult["status"]): number {
  return tests.filter((test) => test.status === status).length;
}

function sameId(a: TestId, b: TestId): boolean {
  return (
    a.file === b.file &&
    a.segments.length === b.segments.length &&
    a.segments.every((s, i) => s === b.segments[i])
  );
}

/**
 * mocha's report names a test's describes as one parent, space-joined (`vary when no Vary` >
 * `sets value`, its `fullTitle`), where a request names them one by one as they are nested
 * (`vary > when no Vary > sets value`, the form a claim's or a Red's test id takes and the one
 * the test file's own declarations give): both are the one test mocha's `--grep` runs. Before
 * the thirty-fourth round such a claim matched no result and was refused as a crash.
 */
function mochaParents(requested: TestId, result: TestId): TestId {
  if (result.runner !== "mocha" || requested.segments.length <= result.segments.length)
    return requested;
  const last = requested.segments.length - 1;
  return {
    ...requested,
    segments: [requested.segments.slice(0, last).join(" "), requested.segments[last] ?? ""],
  };
}

/**
 * A result answers a requested id when it is that test, or one case of it: a request for a
 * parametrised test's bare name (`test_x`) selects every case (`test_x[1]`, `test_x[2]`).
 */
export function answersRequest(asked: TestId, result: TestId): boolean {
  const requested = mochaParents(asked, result);
  if (sameId(requested, result)) return true;
  const last = requested.segments.length - 1;
  const name = requested.segments[last] ?? "";
  return (
    requested.file === result.file &&
    requested.segments.length === result.segments.length &&
    !name.includes("[") &&
    requested.segments.every((segment, i) =>
      i === last
        ? (result.segments[i] ?? "").startsWith(`${name}[`)
        : segment === result.segments[i],
    )
  );
}

/** Requested tests that did not run (absent, or only skipped by the filter) become not_run. */
function withNotRun(tests: readonly TestResult[], requested: readonly TestId[]): TestResult[] {
  if (requested.length === 0) return [...tests];
  const wanted = tests.filter((test) => requested.some((id) => answersRequest(id, test.id)));
  const result = wanted.map((test) =>
    test.status === "skip" ? { ...test, status: "not_run" as const } : test,
  );
  for (const id of requested) {
    if (!wanted.some((test) => answersRequest(id, test.id))) result.push({ id, status: "not_run" });
  }
  return result;
}

const TAIL_LINES = 40;

function tailOf(output: string): string {
  const lines = stripAnsi(output).trimEnd().split("\n");
  return lines.slice(-TAIL_LINES).join("\n");
}

export interface ExcerptOptions {
  /** Absolute paths to turn into project-relative ones (project root, package folders, temp dirs). */
  replacePaths?: readonly (readonly [string, string])[];
  linesPerFailure?: number;
  maxChars?: number;
}

/** The replacements that write the project's absolute paths as relative ones in an excerpt. */
export function rootPaths(root: string): readonly (readonly [string, string])[] {
  return [
    // An ES module's frame names its file by URL (`file:///…/test/a.test.js:4:28`, node --test,
    // vitest): the project's path alone, not `file://test/a.test.js`.
    [`file://${root}/`, ""],
    [`${root}/`, ""],
    [root, "."],
  ];
}

/**
 * A crash's first line that says something, for a one-line reason: the rest (a Go panic's
 * goroutine trace, with the machine's paths) is the excerpt's to show, once.
 */
function firstLineOf(message: string): string {
  return (
    message
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line !== "") ?? message
  );
}

/** A load error's file or run folder, a space after it; a run at the root ("") names none. */
function loadErrorPlace(where: string): string {
  return where === "" ? "" : `${where} `;
}

/**
 * A short, deterministic account of what failed: per failing test its id and the first lines
 * of its message; per load error its file and message; then missing tests. No durations,
 * timestamps or absolute paths, so the same failure always reads the same.
 */
export function renderFailureExcerpt(
  results: readonly RunResult[],
  missing: readonly MissingTest[],
  options: ExcerptOptions = {},
): string {
  const perFailure = options.linesPerFailure ?? 6;
  const blocks: string[] = [];
  for (const result of results) {
    if (result.status === "env_error") {
      blocks.push(`ENVIRONMENT ${result.runner}: ${result.reason}`);
      continue;
    }
    for (const error of result.errors.filter((e) => e.kind === "collection")) {
      blocks.push(
        `ERROR ${loadErrorPlace(error.file ?? result.cwd)}(could not load)\n${causeLines(error.message, perFailure, options)}`,
      );
    }
    blocks.push(
      ...failureBlocks(
        result.tests.filter((t) => t.status === "fail"),
        perFailure,
        options,
      ),
    );
    if (result.status === "timeout") {
      const passed = count(result.tests, "pass");
      const before = passed === 0 ? "" : ` (${passed} test${passed === 1 ? "" : "s"} had passed)`;
      const stopped = result.reason.startsWith(`${result.runner}${STOPPED}`)
        ? result.reason.slice(result.runner.length + STOPPED.length)
        : TIMEOUT_SETTING;
      const frames = hangFrames(result.output_tail, perFailure, options);
      blocks.push(
        frames.length === 0
          ? `TIMEOUT ${result.runner} in ${result.cwd || "."}: stopped ${stopped} before it finished${before}. A test may hang: an endless loop, an unclosed handle or server, a wait on a service.`
          : `TIMEOUT ${result.runner} in ${result.cwd || "."}: stopped ${stopped} before it finished${before}. A test hung; it was here (innermost first):\n${frames.join("\n")}`,
      );
    }
    // A run that broke outside any test (it died, or wrote no report): its reason and what it
    // said last, since no test row carries the failure.
    if (result.status === "error" && !result.errors.some((e) => e.kind === "collection")) {
      const said = [...result.errors.map((e) => e.message), result.output_tail].join("\n").trim();
      blocks.push(
        `ERROR ${result.runner}: ${result.reason}\n${causeLines(said, perFailure, options)}`.trimEnd(),
      );
    }
  }
  for (const item of missing)
    blocks.push(`MISSING ${item.source}: no test at ${item.expected_test}`);
  return capText(blocks.join("\n"), options.maxChars ?? 4000);
}

/**
 * A FAIL block per failing test: its id and the first lines of its message; past `CASES_SHOWN`
 * cases of one parametrised pytest test, one line counting the rest.
 */
function failureBlocks(
  failing: readonly TestResult[],
  perFailure: number,
  options: ExcerptOptions,
): string[] {
  const blocks: string[] = [];
  const cases = new Map<string, number>();
  for (const test of failing) {
    const of = caseOf(test.id);
    if (of !== undefined) cases.set(of, (cases.get(of) ?? 0) + 1);
  }
  const shownCases = new Map<string, number>();
  for (const test of failing) {
    const of = caseOf(test.id);
    if (of !== undefined) {
      const seen = (shownCases.get(of) ?? 0) + 1;
      shownCases.set(of, seen);
      if (seen === CASES_SHOWN + 1)
        blocks.push(
          `FAIL ${of}[…]: ${(cases.get(of) ?? seen) - CASES_SHOWN} more of its cases fail, not shown`,
        );
      if (seen > CASES_SHOWN) continue;
    }
    blocks.push(
      `FAIL ${shownId(test.id)}
${firstLines(failureCore(failingExample(test.failure ?? "")), perFailure, options)}`.trimEnd(),
    );
  }
  return blocks;
}

/** Cases of one parametrised pytest test shown in full; the others are counted on one line. */
const CASES_SHOWN = 2;

/**
 * The test a pytest case belongs to (`tests/test_cli.py::test_list` for
 * `test_list[json-x='a b c']`), undefined for any other test: python-dotenv's ten-case table,
 * red for one bug, filled the capped excerpt with one assertion ten times and cut the other
 * files' failures out of it.
 */
function caseOf(id: TestId): string | undefined {
  if (id.runner !== "pytest") return undefined;
  const last = id.segments[id.segments.length - 1] ?? "";
  const at = last.indexOf("[");
  if (at <= 0 || !last.endsWith("]")) return undefined;
  return shownId({ ...id, segments: [...id.segments.slice(0, -1), last.slice(0, at)] });
}

/**
 * The lines of a failure's report that say what failed and where, for an excerpt that keeps a
 * failure's first lines: a deep Python traceback's tail (`tracebackTail`), pytest's report
 * without the test's source (`pytestReprTail`); any other text as it is.
 */
export function failureCore(text: string): string {
  return diffChangesOnly(pytestReprTail(tracebackTail(text)));
}

/** jest's and vitest's diff legend: `- Expected  - 1` then `+ Received  + 1`. */
const DIFF_EXPECTED = /^\s*- Expected\b/;
const DIFF_RECEIVED = /^\s*\+ Received\b/;

/**
 * A jest or vitest diff without its unchanged lines: `toEqual` on an object printed its
 * unchanged keys around the changed one, and the excerpt's lines ended inside the diff, before
 * the received value and the frame that says where (`at Object.toEqual (test/x.test.js:11:46)`).
 * The legend and the `-`/`+` lines stay; the lines between them and the stack go.
 */
export function diffChangesOnly(text: string): string {
  const lines = text.split("\n");
  const legend = lines.findIndex(
    (line, index) => DIFF_EXPECTED.test(line) && DIFF_RECEIVED.test(lines[index + 1] ?? ""),
  );
  if (legend < 0) return text;
  const indent = /^\s*/.exec(lines[legend] ?? "")?.[0].length ?? 0;
  const kept = lines.slice(0, legend + 2);
  let index = legend + 2;
  for (; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (/^\s*at /.test(line)) break;
    const mark = line.slice(indent, indent + 1);
    if (mark === "-" || mark === "+") kept.push(line);
  }
  return [...kept, ...lines.slice(index)].join("\n");
}

/** pytest's mark of the line that failed in a report's source, and its exception lines. */
const PYTEST_FAILED_LINE = /^>\s/;
const PYTEST_EXCEPTION = /^E\s+/;
/** Where a report's frame is: `tests/test_calc.py:13: AssertionError`, `calc.py:6: in total`. */
const PYTEST_LOCATION = /^[^\s>]\S*\.py:\d+:( |$)/;
/** pytest's rule between a report's frames. */
const PYTEST_RULE = /^(_ )+_\s*$/;

/**
 * pytest's report of a failed test (its junit text, `--tb=auto`) without the test's source:
 * the report opens with the whole test function, and an excerpt's first lines showed its first
 * statements, not the `>` line that failed, its `E` lines or where (a test asserting at line
 * 13 showed lines 1–5). Kept: a message line before the report (junit.ts puts the exception's
 * first), the test frame's `>` line and location, and the innermost frame's `>` line, `E` lines
 * and location. A text without a `>` line, an `E` line and a location is left whole.
 */
export function pytestReprTail(text: string): string {
  const lines = text.split("\n");
  if (
    !lines.some((line) => PYTEST_FAILED_LINE.test(line)) ||
    !lines.some((line) => PYTEST_EXCEPTION.test(line)) ||
    !lines.some((line) => PYTEST_LOCATION.test(line))
  )
    return text;
  const sections: string[][] = [[]];
  for (const line of lines) {
    if (PYTEST_RULE.test(line)) sections.push([]);
    else sections[sections.length - 1]?.push(line);
  }
  const [test, ...rest] = sections;
  const inner = rest.at(-1);
  // The report proper opens with the test's arguments (`self = <…>`), a decorator or its `def`.
  const firstSource = (test ?? []).findIndex((line) =>
    /^\s*(async\s+)?def\s|^\s*@|^\w+ = /.test(line),
  );
  const message = firstSource > 0 ? (test ?? []).slice(0, firstSource) : [];
  const where = (section: readonly string[], exceptions: boolean): string[] =>
    section.filter(
      (line, index) =>
        (PYTEST_FAILED_LINE.test(line) &&
          section.findIndex((l) => PYTEST_FAILED_LINE.test(l)) === index) ||
        (exceptions && PYTEST_EXCEPTION.test(line)) ||
        PYTEST_LOCATION.test(line),
    );
  const kept = [
    ...where(test ?? [], inner === undefined),
    ...(inner === undefined ? [] : where(inner, true)),
  ];
  const said = new Set(kept.filter((line) => PYTEST_EXCEPTION.test(line)).map(exceptionText));
  return [...message.filter((line) => !said.has(line.trim())), ...kept].join("\n");
}

/** An `E` line's text without pytest's mark: `E       assert 1.5 == 2` → `assert 1.5 == 2`. */
function exceptionText(line: string): string {
  return line.replace(PYTEST_EXCEPTION, "").trim();
}

const TRACEBACK = /^\s*Traceback \(most recent call last\):\s*$/;
const FRAME = /^\s+File "/;

/**
 * A Python traceback (unittest's report of a failed or erroring test) cut to what says what
 * happened: the test's own frame, the innermost frame and the exception after them. The
 * excerpt keeps a failure's first lines, and a traceback three frames deep filled them with
 * frames: jsonschema's suite tests, failing through `_suite.py` and `validators.py`, showed
 * no `ValidationError` and no `AssertionError`. A chained traceback is read from its last part,
 * whose exception is the one that ended the test; a traceback of two frames or fewer, or any
 * other text, is left whole.
 */
export function tracebackTail(text: string): string {
  const lines = text.split("\n");
  if (!TRACEBACK.test(lines.find((line) => line.trim() !== "") ?? "")) return text;
  let start = 0;
  lines.forEach((line, index) => {
    if (TRACEBACK.test(line)) start = index;
  });
  const frames: number[] = [];
  let raised = -1;
  for (let index = start + 1; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (FRAME.test(line)) frames.push(index);
    else if (line.trim() !== "" && !/^\s/.test(line)) {
      raised = index;
      break;
    }
  }
  const first = frames[0];
  const last = frames[frames.length - 1];
  if (frames.length <= 2 || raised < 0 || first === undefined || last === undefined) return text;
  // A frame's source line follows it, indented deeper (Python 3.11+ adds a `^^^^` marker line).
  const frame = (at: number, end: number): string[] => lines.slice(at, Math.min(at + 2, end));
  return [
    ...frame(first, frames[1] ?? raised),
    ...frame(last, raised),
    ...lines.slice(raised),
  ].join("\n");
}

/** A line of the docstring pytest shows for a failed doctest: its number, three digits or more. */
const DOCTEST_LINE = /^\d{3,} /;
/** What doctest says about the failing example, right after it. */
const DOCTEST_VERDICT = /^(Expected:|Expected nothing|Differences \(|UNEXPECTED EXCEPTION:)/;

/**
 * pytest's report of a failed doctest from the failing example on: the report first shows up to
 * ten numbered lines of the docstring before it (jaraco.classes' `LeafClassesMeta` showed its
 * description and two passing examples, and the six lines of an excerpt ended before the example
 * that failed and its `Expected:`/`Got:`). unittest's report of a doctest likewise, from its
 * `Failed example:` on, past the traceback of doctest's `runTest`. Any other failure is left whole.
 */
export function failingExample(text: string): string {
  const lines = text.split("\n");
  // doctest's own report (unittest's DocTestSuite) opens with the traceback of its runTest.
  const failed = lines.indexOf("Failed example:");
  if (failed >= 0) return changedLinesOnly(lines.slice(failed)).join("\n");
  const verdict = lines.findIndex((line) => DOCTEST_VERDICT.test(line));
  if (verdict < 1 || !DOCTEST_LINE.test(lines[verdict - 1] ?? "")) return text;
  // The example starts at its `>>>` line; its `...` continuation lines come with it.
  let start = verdict - 1;
  while (start > 0 && !/^\d{3,} \s*>>>/.test(lines[start] ?? "")) {
    if (!DOCTEST_LINE.test(lines[start - 1] ?? "")) break;
    start -= 1;
  }
  return changedLinesOnly(lines.slice(start)).join("\n");
}

/**
 * A doctest's unified diff (`REPORT_UDIFF`, pytest's `doctest_optionflags = REPORT_UDIFF`) without
 * its unchanged lines: python-tabulate's README example printed a table whose unchanged rows took
 * the excerpt's lines, which ended after the expected row and before the row the code printed.
 * Lines after a `@@` hunk header that carry the diff's blank prefix at its indentation go.
 */
function changedLinesOnly(lines: readonly string[]): string[] {
  let indent: number | undefined;
  return lines.filter((line) => {
    const hunk = /^(\s*)@@ /.exec(line);
    if (hunk !== null) {
      indent = (hunk[1] ?? "").length;
      return true;
    }
    if (indent === undefined) return true;
    if (line.length > indent && line.slice(0, indent).trim() === "" && line[indent] === " ")
      return false;
    if (!/^\s*[-+]/.test(line)) indent = undefined;
    return true;
  });
}

export function formatId(id: TestId): string {
  return `${id.file}::${id.segments.join("::")}`;
}

/**
 * A test's id as a FAIL line names it: vitest before 2 puts the file's own suite, named "",
 * before the describe blocks (its `-t` matches the name with that leading space, so the id
 * keeps it), which read as `file::::describe::test`.
 */
function shownId(id: TestId): string {
  const segments = id.segments.filter((s, i) => s !== "" || i === id.segments.length - 1);
  // A Go test of the module's root package has no folder: `TestX::sub`, not `::TestX::sub`.
  if (id.file === "" && id.runner === "go") return segments.join("::");
  return formatId({ ...id, segments });
}

/** Lines that name a cause: pytest's `E   …` lines, `XError:`, rustc's `error[E…]`, missing modules. */
const CAUSE =
  /^\s*E\s{2,}\S|\b(?:[A-Z]\w*)?(Error|Exception)\b:|^\s*error(\[E\d+\])?:|Cannot find module|No module named|SyntaxError|ERR_MODULE_NOT_FOUND/;
/** A frame in the project: a relative path with a line number (outside frames become `…/`). */
const PROJECT_FRAME =
  /^\s*(?!\u2026)(?:File ")?[\w@][\w./@-]*\.(py|[cm]?[jt]sx?|rs|go|rb|php|java|kt|cs|swift)"?(:\d+|, line \d+)/;

/** A JavaScript stack frame in the project: `at fn (src/x.js:3:9)` or `at src/x.js:3:9`. */
const JS_PROJECT_FRAME = /^\s*at (?:.* \()?(?!\u2026)[\w@][\w./@-]*\.[cm]?[jt]sx?:\d+(?::\d+)?\)?$/;

/**
 * A load error's lines that say why: its cause lines and the project's own frames, in order,
 * when it has any; else its first lines. A runner's traceback starts in its own internals
 * (pytest's importtestmodule, node's loader), and those first lines say nothing.
 */
export function causeLines(text: string, count: number, options: ExcerptOptions): string {
  const all = firstLines(text, Number.MAX_SAFE_INTEGER, options).split("\n");
  const causes = all.filter((line) => CAUSE.test(line));
  if (causes.length === 0) return firstLines(text, count, options);
  // A traceback's innermost frames come last; a JavaScript stack's first (`at f (src/x.js:3:9)`):
  // the project frame where it threw, when no line of the traceback kind is there.
  const traceback = all.filter((line) => PROJECT_FRAME.test(line) && !CAUSE.test(line)).slice(-2);
  const frames =
    traceback.length > 0
      ? traceback
      : all.filter((line) => JS_PROJECT_FRAME.test(line)).slice(0, 1);
  const keep = new Set([...frames, ...causes.slice(0, Math.max(1, count - frames.length))]);
  return all
    .filter((line) => keep.has(line))
    .filter((line, index, lines) => lines.indexOf(line) === index)
    .join("\n");
}

/** The first `count` lines of a failure, cleaned as every excerpt is (run-log.ts keeps these). */
export function firstLines(text: string, count: number, options: ExcerptOptions): string {
  let clean = stripAnsi(text);
  for (const [from, to] of options.replacePaths ?? []) {
    if (from !== "") clean = clean.split(from).join(to);
  }
  const lines = clean
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""))
    // A runtime's or a dependency's frame goes before paths are shortened: a node_modules
    // outside the project (hoisted, linked) would read as `…/test.js:268`, a test's name.
    .filter(
      (line) =>
        line.trim() !== "" &&
        !/^\s*at .*(\(node:|node:internal|node_modules|<anonymous>\)?$)/.test(line),
    )
    // Whatever absolute path is left lies outside the project (an interpreter, a global cache):
    // keep its file name only, so no note carries this machine's layout.
    .map((line) => line.replace(/(?<![\w.:/])\/(?:[^\s/:'"()<>]+\/)+([^\s/:'"()<>]+)/g, "…/$1"))
    .map((line) => line.replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, "<time>"));
  return projectGoFrames(lines)
    .slice(0, count)
    .map((line) => `  ${line}`)
    .join("\n");
}

/** A goroutine frame's location line: a tab, the file and line, the frame's offset. */
const GO_FRAME_AT = /^\t(\S+\.go:\d+)(?: \+0x[0-9a-f]+)?$/;

/**
 * A Go panic's trace with the project's frames only: the runtime's and the testing package's
 * (their paths already `…/testing.go`), the goroutine header and the repeated `[recovered]`
 * line took the six lines of an excerpt, which ended before the frame saying where it panicked
 * (go-cmp: `…/testing.go:1396` shown, `cmp/internal/value/sort.go:22` cut). Other text is kept.
 */
function projectGoFrames(lines: readonly string[]): string[] {
  if (!lines.some((line) => /^goroutine \d+ \[[\w ,]+\]:$/.test(line))) return [...lines];
  const kept: string[] = [];
  for (const [index, line] of lines.entries()) {
    const next = lines[index + 1] ?? "";
    if (/^goroutine \d+ \[[\w ,]+\]:$/.test(line)) continue;
    if (/^\s*panic: .* \[recovered\]$/.test(line) && /^\s*panic: /.test(next)) continue;
    const at = GO_FRAME_AT.exec(line);
    if (at !== null) {
      if (!at[1]?.startsWith("…/")) kept.push(`\t${at[1] ?? ""}`);
      continue;
    }
    // A frame's call line goes with its location line: kept when that one is the project's.
    const callAt = GO_FRAME_AT.exec(next);
    if (callAt !== null && !/^\s/.test(line)) {
      if (!callAt[1]?.startsWith("…/")) kept.push(line);
      continue;
    }
    kept.push(line.replace(/^\tpanic: /, "panic: "));
  }
  return kept;
}

export type OverallStatus = "passed" | "failed" | "error" | "no_tests";

/** One verdict for several runs: an error outranks a failure, a failure outranks "no tests". */
export function overallStatus(
  results: readonly RunResult[],
  missing: readonly MissingTest[],
): OverallStatus {
  if (
    results.some((r) => r.status === "error" || r.status === "timeout" || r.status === "env_error")
  )
    return "error";
  if (missing.length > 0 || results.some((r) => r.status === "failed")) return "failed";
  if (results.length === 0 || results.every((r) => r.status === "no_tests")) return "no_tests";
  return "passed";
}
