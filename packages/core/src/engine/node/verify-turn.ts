import { dirnameRel, type ProjectView } from "../../project/project-view.ts";
import { failedFilesFirst, flakyRerun, type MissingTest, type RunPlan } from "../plan.ts";
import type { FileError } from "../results.ts";
import { chooseTests } from "../../selection/node/choose-tests.ts";
import type { RelatedTest } from "../../selection/related.ts";
import type { FileFailure, FileResult, SessionState } from "../../state/session.ts";
import { renderFailureExcerpt, rootPaths, type RunResult } from "../summarize.ts";
import { renderBudgetSpent, renderVerifyBlock } from "../../notes/verify-note.ts";
import type { Decision } from "../../hook/hook-event.ts";
import { overallStatus } from "../summarize.ts";
import { summariseRunRecord, type RunSource } from "../../state/run-log.ts";
import { turnSummaryLine, withUserMessage } from "../turn-summary.ts";
import { executePlan } from "./execute.ts";
import { hangBound } from "../hang-bound.ts";
import { shellCommandForTestFiles } from "../../runners/project-runners.ts";
import { runFilesOf } from "../../runners/compiled.ts";
import {
  countSetAside,
  failedAgain,
  flakyTests,
  setAsideExpected,
  worthRerunning,
  type ExpectedRed,
} from "../expected-red.ts";
import { redSummary, rerunCommands } from "../rerun.ts";
import { recordRun, runLogFile } from "../../state/node/run-log-store.ts";
import { sessionFile, type Project } from "../../project/node/project.ts";
import { prefetchState, readState, updateState } from "../../state/node/store.ts";

export interface VerifyOptions {
  agentId?: string | undefined;
  /** The platform says this stop follows one of our blocks (Claude's stop_hook_active). */
  stopHookActive: boolean;
  now?: () => Date;
  /** Who ran it, as `.tailtest/runs.json` records it (default: the end of an agent's turn). */
  source?: Extract<RunSource, "hook" | "watch">;
  /**
   * Tests the mode expects to be red at this stop (tdd's declared Red, strict's open claims):
   * their failures neither block nor count as the file's outcome, and its file stays queued.
   */
  expected?: readonly ExpectedRed[];
  /**
   * Whether a new file must come with a test (follow mode). The gating modes say no: their own
   * rules put tests first, and a new file without one is reported like an existing one.
   */
  newNeedsTest?: boolean;
  /** The least a run bounded by its earlier times is given (`HANG_FLOOR_MS` unless told). */
  hangFloorMs?: number;
}

export interface Verification {
  decision: Decision;
  results: RunResult[];
  missing: MissingTest[];
  /** Outcome per queued source file. */
  outcomes: Record<string, FileResult["outcome"]>;
  /** Queued files that were only run (tests, helpers): no file of the project's history. */
  runOnly: string[];
  /**
   * The runs as they judged the turn, with the failures the mode expects and the flaky tests set
   * aside (`results` holds them as they were), how many of each were, and how many source
   * files the turn verified (a file kept queued by a set-aside failure among them).
   */
  judged?: { results: RunResult[]; expected: number; flaky: number; files: number };
}

/**
 * The end of a turn: runs the tests of the files this agent queued (one batched process per
 * runner), records measured outcomes, and keeps the agent working while a test is missing or
 * red, at most `stop_loop_budget` times in a row.
 */
export async function verifyTurn(project: Project, options: VerifyOptions): Promise<Verification> {
  const verified = await verifyQueued(project, options);
  // The person's line: what ran and how it ended (turn-summary.ts; `notify` in the config). A
  // failure the mode expects is named as one, not as a red test or a run that did not finish.
  const line = turnSummaryLine(
    verified.judged?.results ?? verified.results,
    verified.results.reduce((sum, result) => sum + result.duration_ms, 0),
    {
      // No judged runs: nothing was queued.
      files: verified.judged?.files ?? 0,
      missing: verified.missing.length,
      notify: project.config.notify,
      expected: verified.judged?.expected,
      flaky: verified.judged?.flaky,
    },
  );
  return { ...verified, decision: withUserMessage(verified.decision, line) };
}

async function verifyQueued(project: Project, options: VerifyOptions): Promise<Verification> {
  const now = options.now ?? (() => new Date());
  const file = sessionFile(project, now);
  const { value: before } = await readState(file);
  const mine = before.pending_files.filter((entry) => entry.agent_id === options.agentId);
  if (mine.length === 0)
    return { decision: { kind: "none" }, results: [], missing: [], outcomes: {}, runOnly: [] };
  const runOnlyPaths = mine.filter((entry) => entry.role === "test").map((entry) => entry.path);

  const chosen = await chooseTests(
    project,
    mine.map((entry) => entry.path),
    before.runners.length === 0 ? {} : { runners: before.runners },
  );
  const plan = chosen.plan;
  const results: RunResult[] = [];
  const execution = {
    root: project.root,
    timeoutMs: project.config.test_timeout_seconds * 1000,
    trustCompiled: project.config.mode === "follow",
    // The run log is read and checked while the tests run: the record after them reuses it.
    whileRunning: () => prefetchState(runLogFile(project)),
  };
  // A run whose test files all ran before is stopped sooner than the timeout when it takes
  // many times as long (a seeded endless loop): `hang-bound.ts`.
  const bounded = (run: RunPlan) => ({
    ...execution,
    hang: hangBound(run.test_files, chosen.earlier, execution.timeoutMs, options.hangFloorMs),
  });
  for (const run of plan.runs) results.push(await executePlan(run, bounded(run)));
  const failures: Record<string, FileFailure> = {};
  const changed = mine.map((entry) => entry.path);
  // A test that fails, then passes when its run is made again, is flaky: told, never red, and
  // never green either (its file stays queued). Only a run red with a few failed tests, besides
  // those the mode expects, is made again: over the failed files alone where the runner isolates
  // its files (`flakyRerun`); elsewhere the failed files alone first, and the whole run again
  // only when one of their tests passed there (`failedFilesFirst`).
  const flaky = await flakyOf(project, plan.runs, results, options.expected ?? [], bounded);
  const expected = [...(options.expected ?? []), ...flaky];
  // What decides: the runs with the failures the mode expects set aside. What is recorded and
  // told to the person: the runs as they were.
  const judged = results.map((result) => setAsideExpected(result, expected));
  const setAside = countSetAside(results, judged);
  const outcomesFrom = (runs: readonly RunResult[], into: Record<string, FileFailure>) =>
    outcomesOf(
      changed,
      plan.runs,
      runs,
      plan.missing,
      plan.skipped.map((s) => s.path),
      into,
      (error) => missingPackageOf(project, error, changed),
    );
  const { outcomes, unloaded } = outcomesFrom(judged, failures);
  const judgedRuns = {
    results: judged,
    expected: Math.max(0, setAside - flaky.length),
    flaky: Math.min(flaky.length, setAside),
    // Counted before a file kept queued leaves `outcomes`: the person's line still counts it.
    files: Object.keys(outcomes).filter((path) => !runOnlyPaths.includes(path)).length,
  };
  if (judged.some((result, index) => result !== results[index])) {
    // A file green only with an expected failure set aside is neither red nor green: it stays
    // queued, its last outcome untouched, until its tests pass as they are.
    const raw = outcomesFrom(results, {}).outcomes;
    for (const [path, outcome] of Object.entries(outcomes))
      if (raw[path] !== outcome) {
        delete outcomes[path];
        delete failures[path];
      }
  }
  // An existing file without a test is reported, not forced: only new files must come with one.
  const untestedExisting = new Set(
    mine
      .filter(
        (entry) =>
          (entry.status === "existing" || options.newNeedsTest === false) &&
          outcomes[entry.path] === "missing_test",
      )
      .map((entry) => entry.path),
  );
  const runOnly = new Set(runOnlyPaths);
  const red = Object.entries(outcomes)
    .filter(
      ([path, outcome]) =>
        outcome !== "passed" &&
        outcome !== "env_error" &&
        !untestedExisting.has(path) &&
        // A test or helper queued to be run is red only when a test of it failed.
        (!runOnly.has(path) || outcome === "failed"),
    )
    .map(([path]) => path);
  const budget = project.config.stop_loop_budget;
  const at = now().toISOString();

  const { value: after } = await updateState(file, (session) => {
    const streak = options.stopHookActive ? session.stop_blocks : 0;
    const block = red.length > 0 && streak < budget;
    const skipped = [...plan.skipped.map((item) => item.path), ...untestedExisting];
    return {
      value: record(session, { outcomes, failures }, plan.runs, skipped, streak, block, at),
      result: undefined,
    };
  });
  await recordVerification(project, {
    at,
    source: options.source ?? "hook",
    status: overallStatus(results, plan.missing),
    files: mine.map((entry) => entry.path),
    results,
    missing: plan.missing,
    sessionId: after.session_id,
    replacePaths: rootPaths(project.root),
    selected: whySelected(chosen),
    leftOut: chosen.leftOut.tests,
  });

  const environment = results
    .filter((result) => result.status === "env_error")
    .map(
      (result) =>
        `tailtest: environment error, not a test result: ${result.reason}. Your code was not judged; the person should fix the environment (\`tailtest doctor\` checks it).`,
    );
  if (unloaded.length > 0)
    environment.push(
      `tailtest: environment error, not a test result: ${unloaded.join(", ")} could not import a package that is not installed; those tests did not run. The person should install the project's test dependencies.`,
    );
  const allNotes = [
    ...environment,
    ...ranNoTest(plan.runs, results, untestedExisting, project.view),
    ...flaky.map(
      (test) =>
        `tailtest: ${test.file} > ${test.name ?? ""} failed, then passed when run again: a flaky test, not counted as red. Make it deterministic (a timing bound, an order, a shared state).`,
    ),
    ...chosen.notes,
  ];
  const notes = allNotes.length === 0 ? "" : `\n\n${allNotes.join("\n")}`;
  if (red.length === 0)
    return {
      decision: notes === "" ? { kind: "none" } : { kind: "context", text: notes.trim() },
      results,
      missing: plan.missing,
      outcomes,
      runOnly: runOnlyPaths,
      judged: judgedRuns,
    };
  if (after.stop_blocks === 0) {
    return {
      decision: {
        kind: "context",
        // The sources it was for; a test queued only to be run is named when it alone is red.
        text: renderBudgetSpent(
          red.some((path) => !runOnly.has(path)) ? red.filter((path) => !runOnly.has(path)) : red,
        ),
      },
      results,
      missing: plan.missing,
      outcomes,
      runOnly: runOnlyPaths,
      judged: judgedRuns,
    };
  }
  const missing = plan.missing.filter((item) => !untestedExisting.has(item.source));
  const excerpt = renderFailureExcerpt(judged, missing, {
    replacePaths: rootPaths(project.root),
  });
  const reason =
    renderVerifyBlock({
      excerpt,
      round: after.stop_blocks,
      budget,
      summary: redSummary(judged, project.view),
      rerun: rerunCommands(plan.runs, judged, project.view).map((command) =>
        command.split(`${project.root}/`).join(""),
      ),
    }) + notes;
  return {
    decision: { kind: "block", reason },
    results,
    missing: plan.missing,
    outcomes,
    runOnly: runOnlyPaths,
    judged: judgedRuns,
  };
}

/**
 * Why each changed file's tests ran: its related tests with the selection's evidence, less what
 * the budget left out; a file selection has nothing for, its named test.
 */
function whySelected(chosen: Awaited<ReturnType<typeof chooseTests>>): Map<string, RelatedTest[]> {
  const left = new Set(chosen.leftOut.tests);
  const why = new Map<string, RelatedTest[]>();
  for (const [source, tests] of chosen.selection?.related ?? []) {
    const kept = tests.filter((test) => !left.has(test.path));
    if (kept.length > 0) why.set(source, kept);
  }
  for (const run of chosen.plan.runs)
    for (const [source, test] of Object.entries(run.sources))
      if (!why.has(source))
        why.set(source, [{ path: test, evidence: "name", detail: "its named test", hops: 0 }]);
  return why;
}

/**
 * The package a test file's load error says is not installed, when it is not one of the
 * project's own modules and no changed file is on the way to it (an edit that imports a package
 * the project lacks is the edit's fault); else undefined.
 */
function missingPackageOf(
  project: Project,
  error: FileError,
  changed: readonly string[],
): string | undefined {
  if (error.kind !== "collection") return undefined;
  const name =
    /ModuleNotFoundError: No module named '([\w.]+)'/.exec(error.message)?.[1] ??
    /Cannot find (?:package|module) '((?:@[\w.-]+\/)?[\w.-]+)[^']*' imported from/.exec(
      error.message,
    )?.[1];
  if (name === undefined) return undefined;
  const onTheWay = (file: string): boolean =>
    new RegExp(
      `(?:^|[\\s"'(/])${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=[:\\s"')]|$)`,
      "m",
    ).test(error.message);
  if (changed.some(onTheWay)) return undefined;
  const top = name.split(".")[0] ?? name;
  const own = ["", "src/", "lib/"].some(
    (root) =>
      project.view.exists(`${root}${top}.py`) ||
      project.view.isDirectory(`${root}${top}`) ||
      project.view.exists(`${root}${top}.js`) ||
      project.view.exists(`${root}${top}.ts`),
  );
  return own ? undefined : top;
}

/** Which test files each queued source was checked through, and how that went. */
function outcomesOf(
  sources: readonly string[],
  runs: readonly RunPlan[],
  results: readonly RunResult[],
  missing: readonly MissingTest[],
  skipped: readonly string[],
  /** Filled with why each failed source failed. */
  failures: Record<string, FileFailure>,
  /** The package a load error says is missing from the environment, if it is one. */
  missingPackage: (error: FileError) => string | undefined = () => undefined,
): {
  outcomes: Record<string, FileResult["outcome"]>;
  /** Test files that did not run because a package is not installed: `file (package)`. */
  unloaded: string[];
} {
  const outcomes: Record<string, FileResult["outcome"]> = {};
  const unloaded = new Set<string>();
  for (const source of sources) {
    if (skipped.includes(source)) continue;
    if (missing.some((item) => item.source === source)) {
      outcomes[source] = "missing_test";
      continue;
    }
    let failed: FileFailure | undefined;
    let passed = false;
    let environment = false;
    runs.forEach((run, index) => {
      const result = results[index];
      if (result === undefined) return;
      const testFiles = testFilesOf(run, source);
      if (result.status === "env_error" && testFiles.length > 0) environment = true;
      // A red test the report puts in no test file the run was given (a doctest under its
      // source module, a helper's path) is still red: it counts against every source checked.
      if (testFiles.length > 0 && unclaimedFailure(run, result, sources)) failed ??= "assertion";
      for (const testFile of testFiles) {
        // A Rust file's own unit tests report under the crate's lib or bin, not the file.
        const whole = run.test_files.length === 1 || testFile === source;
        const verdict = judgeTestFile(result, testFile, whole, missingPackage);
        if (verdict === "passed") passed = true;
        else if (verdict === "environment") environment = true;
        else if (typeof verdict === "object") {
          environment = true;
          for (const name of verdict.missing) unloaded.add(`${testFile} (${name})`);
        } else if (verdict !== undefined) failed ??= verdict;
      }
    });
    if (failed !== undefined) {
      outcomes[source] = "failed";
      failures[source] = failed;
    } else if (passed) outcomes[source] = "passed";
    // Its runner could not start: recorded as an environment error, never as the code's failure.
    else if (environment) outcomes[source] = "env_error";
    else if (
      runs.some(
        (run) =>
          run.related?.[source] !== undefined ||
          run.sources[source] !== undefined ||
          run.test_files.includes(source),
      )
    )
      outcomes[source] = "missing_test";
  }
  return { outcomes, unloaded: [...unloaded] };
}

/**
 * A note per run whose test files for an edited file ran no test (unittest on pytest-style
 * functions, a filter that matched nothing): that file was not checked, and "passed" would say
 * it was.
 */
function ranNoTest(
  runs: readonly RunPlan[],
  results: readonly RunResult[],
  unchecked: ReadonlySet<string>,
  view: ProjectView,
): string[] {
  const notes: string[] = [];
  runs.forEach((run, index) => {
    const result = results[index];
    if (result === undefined || result.status === "env_error") return;
    const sources = [...unchecked].filter((source) => testFilesOf(run, source).length > 0);
    if (sources.length === 0) return;
    const files = [...new Set(sources.flatMap((source) => testFilesOf(run, source)))];
    notes.push(
      `tailtest: ${files.join(", ")} ran no test under ${run.runner.id} (\`${shellCommandForTestFiles(run.runner, runFilesOf(run.compiled, files), view)}\`), so ${sources.join(", ")} ${sources.length === 1 ? "was" : "were"} not checked. If the tests are there, the runner does not see them: check the runner (\`tailtest explain ${sources[0] ?? ""}\`).`,
    );
  });
  return notes;
}

/** Whether a run reports a red test that belongs to none of the test files it was given. */
function unclaimedFailure(run: RunPlan, result: RunResult, sources: readonly string[]): boolean {
  if (result.status === "env_error") return false;
  const given = new Set([
    ...run.test_files,
    ...sources.flatMap((source) => testFilesOf(run, source)),
  ]);
  const claims = (file: string): boolean =>
    given.has(file) || [...given].some((testFile) => dirnameRel(testFile) === file);
  if (given.size === 1) return false;
  return result.tests.some((test) => test.status === "fail" && !claims(test.id.file));
}

/** The test files a run checked a source through: its related tests, its named test, or itself. */
function testFilesOf(run: RunPlan, source: string): readonly string[] {
  const related = run.related?.[source];
  if (related !== undefined) return related;
  const named = run.sources[source];
  if (named !== undefined) return [named];
  return run.test_files.includes(source) ? [source] : [];
}

/** One test file's share of a run: passed, why it failed, or nothing (no test of it ran). */
function judgeTestFile(
  result: RunResult,
  testFile: string,
  singleFile: boolean,
  missingPackage: (error: FileError) => string | undefined = () => undefined,
): "passed" | { missing: string[] } | FileFailure | undefined {
  // The runner could not start: nothing of the project's was judged (reported, never red).
  if (result.status === "env_error") return undefined;
  const tests = testsOf(result, testFile, singleFile);
  const loadErrors = result.errors.filter(
    (error) => error.file === undefined || error.file === testFile,
  );
  // The test file could not import a package the environment lacks, and no changed file is on
  // the way there: the environment's problem, reported, never the code's red.
  const missing = loadErrors.map((error) =>
    error.file === testFile ? missingPackage(error) : undefined,
  );
  if (
    loadErrors.length > 0 &&
    missing.every((name): name is string => name !== undefined) &&
    tests.every((test) => test.status !== "fail")
  )
    return { missing: [...new Set(missing)] };
  const loadError = loadErrors.length > 0;
  if (
    result.status === "timeout" ||
    (result.status === "error" && (loadError || tests.length === 0))
  )
    return failureOf(result);
  if (tests.some((test) => test.status === "fail")) return "assertion";
  if (tests.some((test) => test.status === "pass")) return "passed";
  return undefined;
}

/** Why a run that checked no test to the end failed: it hung, died, or could not load. */
function failureOf(result: RunResult): FileFailure {
  if (result.status === "timeout") return "timeout";
  if (result.status === "env_error") return "environment";
  if (result.errors.some((error) => error.kind === "collection")) return "collection";
  return "crash";
}

/**
 * The tests that belong to one test file. Go names a test by its package folder, not its file;
 * JVM, .NET and Swift reports only let the parser guess the file, so a run of a single test
 * file owns every test it reports.
 */
function testsOf(result: RunResult, testFile: string, singleFile: boolean): RunResult["tests"] {
  const own = result.tests.filter(
    (test) => test.id.file === testFile || test.id.file === dirnameRel(testFile),
  );
  return own.length > 0 || !singleFile ? own : result.tests;
}

function record(
  session: SessionState,
  measured: {
    outcomes: Record<string, FileResult["outcome"]>;
    failures: Record<string, FileFailure>;
  },
  runs: readonly RunPlan[],
  skipped: readonly string[],
  streak: number,
  block: boolean,
  at: string,
): SessionState {
  const results = { ...session.results };
  const attempts = { ...session.fix_attempts };
  const generated = { ...session.generated_tests };
  const { outcomes, failures } = measured;
  // A test or helper queued only to be run is not a file of the project's history: it blocks
  // while red (the caller's `red`), and its sources carry the outcome.
  const runOnly = new Set(
    session.pending_files.filter((entry) => entry.role === "test").map((entry) => entry.path),
  );
  for (const [source, outcome] of Object.entries(outcomes)) {
    if (runOnly.has(source)) continue;
    const testPath = runs.find((run) => run.sources[source] !== undefined)?.sources[source];
    const previous = session.results[source];
    // A fix attempt is a round after the file was already found missing or red.
    if (previous !== undefined && previous.outcome !== "passed" && previous.outcome !== "env_error")
      attempts[source] = (attempts[source] ?? 0) + 1;
    const failure = failures[source];
    results[source] = {
      outcome,
      ...(testPath === undefined ? {} : { test_path: testPath }),
      ...(failure === undefined ? {} : { failure }),
      at,
    };
    if (outcome === "passed" && testPath !== undefined) generated[source] = testPath;
  }
  // Green files leave the queue; so do files no runner can check (deleted, or no runner), which
  // would otherwise block every later turn.
  const pending = session.pending_files.filter(
    (entry) =>
      outcomes[entry.path] !== "passed" &&
      !skipped.includes(entry.path) &&
      // A file queued only to be run stays while its tests are red, not while it has none.
      (entry.role !== "test" || outcomes[entry.path] === "failed"),
  );
  return {
    ...session,
    results,
    fix_attempts: attempts,
    generated_tests: generated,
    pending_files: pending,
    stop_blocks: block ? streak + 1 : 0,
  };
}

/**
 * The run in `.tailtest/runs.json` beside the CLI's, so `status` and `report` (its slowest tests)
 * see the runs agents' turns made. The outcomes are already in the session: a log that cannot be
 * written costs only this record.
 */
async function recordVerification(
  project: Project,
  input: Parameters<typeof summariseRunRecord>[0],
): Promise<void> {
  if (input.results.length === 0 && input.missing.length === 0) return;
  try {
    await recordRun(project, summariseRunRecord(input));
  } catch {
    // A read-only or full disk: the session holds the outcomes.
  }
}

/** The tests of the red runs that failed, then passed when run again (`verifyQueued`). */
async function flakyOf(
  project: Project,
  runs: readonly RunPlan[],
  results: readonly RunResult[],
  expected: readonly ExpectedRed[],
  bounded: (run: RunPlan) => Parameters<typeof executePlan>[1],
): Promise<ExpectedRed[]> {
  const flaky: ExpectedRed[] = [];
  for (const [index, run] of runs.entries()) {
    const result = results[index];
    if (result === undefined || !worthRerunning(setAsideExpected(result, expected))) continue;
    const alone = failedFilesFirst(project.view, run, result);
    if (alone !== undefined && failedAgain(result, await executePlan(alone, bounded(alone))))
      continue;
    const again = flakyRerun(project.view, run, result);
    flaky.push(...flakyTests(result, await executePlan(again, bounded(again))));
  }
  return flaky;
}
