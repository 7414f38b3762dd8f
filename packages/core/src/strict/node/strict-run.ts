import { planRun, planSuites, type RunTarget } from "../../engine/plan.ts";
import type { TestId, TestResult } from "../../engine/results.ts";
import { detectProjectRunners, type RunnerId } from "../../runners/project-runners.ts";
import { specOf } from "../../runners/table.ts";
import { dirnameRel } from "../../project/project-view.ts";
import type { Host, StrictTest, TestRunEvent } from "../strict-events.ts";
import { readFailure, resolveMissing } from "../red.ts";
import {
  answersRequest,
  renderFailureExcerpt,
  rootPaths,
  type RunResult,
} from "../../engine/summarize.ts";
import { redSummary } from "../../engine/rerun.ts";
import { tddPatternsFromConfig } from "../../tdd/file-classes.ts";
import { firstErrorLine } from "../../tdd/tdd-log.ts";
import { executePlan } from "../../engine/node/execute.ts";
import { hangBound } from "../../engine/hang-bound.ts";
import type { Project } from "../../project/node/project.ts";
import { guardState, tamperedReason } from "../../engine/node/state-guard.ts";
import { hashFile, supportHash } from "./strict-store.ts";

/**
 * Runs strict mode's tests through the test engine (one process per runner and package, every
 * id batched) and turns the results into `test_run` events: pass, fail (with its reason: an
 * assertion, a collection failure and what it says is missing, a timeout, a crash) or not_run.
 * A test the runner skipped or never reported is not_run, never a pass.
 */

export type TestRunInput = Omit<TestRunEvent, "v">;

export interface StrictRunOptions {
  purpose: TestRunEvent["purpose"];
  /** The project root, cut from failure messages. */
  root?: string;
  now: () => Date;
  session?: string | undefined;
  host?: Host | undefined;
  /** Project files the run may not remove or change (the snapshots a revert needs). */
  guard?: readonly string[];
  /** Claimed files that changed, and their content before: which ran (`reached`). */
  watch?: ReadonlyArray<{ file: string; before: string | null }>;
  /** The least a run bounded by its earlier times is given (`HANG_FLOOR_MS` unless told). */
  hangFloorMs?: number;
}

const MESSAGE_MAX = 300;

function planOptions(project: Project) {
  return {
    overrides: project.config.runners,
    extraTestPatterns: tddPatternsFromConfig(project.config).test,
  };
}

/** The runner that owns a test file, or why none does. */
export function runnerForTestFile(
  project: Project,
  file: string,
): { runner: RunnerId } | { reason: string } {
  const plan = planRun(project.view, [{ kind: "file", path: file }], planOptions(project));
  const run = plan.runs[0];
  if (run !== undefined) return { runner: run.runner.id };
  const why = plan.skipped[0]?.reason ?? plan.missing[0]?.expected_test ?? "no runner found";
  return { reason: `no test runner runs ${file} (${why})` };
}

/**
 * The id a run reports the test under. Go's are its package's folder and one segment per
 * subtest level: `shapes/area_test.go::TestArea/square` is `shapes` with `TestArea`, `square`
 * (as written, the claim matched no result and ran `-run ^(TestArea/square)$`, which go reads
 * as one top-level name: "ran no test").
 */
function toTestId(test: StrictTest, runner: RunnerId): TestId {
  if (specOf(runner).folderIds !== "go" || !test.file.endsWith(".go"))
    return { runner, file: test.file, segments: test.segments };
  return {
    runner,
    file: dirnameRel(test.file),
    segments: test.segments.flatMap((segment) => segment.split("/")),
  };
}

function firstLine(text: string): string {
  const line = firstErrorLine(text);
  return line.length > MESSAGE_MAX ? `${line.slice(0, MESSAGE_MAX - 1)}…` : line;
}

interface Outcome {
  status: TestRunEvent["status"];
  fail_reason?: TestRunEvent["fail_reason"];
  failure?: string;
  reached?: string[];
  unran?: Record<string, string[]>;
}

/** What one run says of one requested test. */
function outcomeOf(result: RunResult, id: TestId): Outcome {
  const matching = result.tests.filter((test: TestResult) => answersRequest(id, test.id));
  const failed = matching.find((test) => test.status === "fail");
  if (failed !== undefined)
    return {
      status: "fail",
      fail_reason: failed.failure_kind ?? "assertion",
      failure: failed.failure ?? "",
    };
  if (matching.length > 0 && matching.every((test) => test.status === "pass")) {
    const asked = matching.filter((test) => test.reached !== undefined);
    if (asked.length === 0) return { status: "pass" };
    const reached = [...new Set(asked.flatMap((test) => test.reached ?? []))];
    // A function is unrun only when no case of the test ran it (a parametrised test's cases).
    const unran = Object.fromEntries(
      Object.entries(asked[0]?.unran ?? {})
        .map(
          ([file, names]) =>
            [
              file,
              names.filter((name) =>
                asked.every((test) => test.unran?.[file]?.includes(name) === true),
              ),
            ] as const,
        )
        .filter(([, names]) => names.length > 0),
    );
    return { status: "pass", reached, ...(Object.keys(unran).length === 0 ? {} : { unran }) };
  }
  if (result.status === "timeout")
    return { status: "fail", fail_reason: "timeout", failure: result.reason };
  // A file that could not load has no per-test row: its failure is the test's (mechanic 3).
  const fileError =
    result.errors.find((error) => error.file === id.file) ??
    result.errors.find((error) => error.file === undefined);
  if (fileError !== undefined)
    return { status: "fail", fail_reason: fileError.kind, failure: fileError.message };
  if (result.status === "error")
    return { status: "fail", fail_reason: "crash", failure: result.reason };
  return { status: "not_run", failure: result.reason };
}

function toEvent(
  test: StrictTest,
  outcome: Outcome,
  extra: { command: string; duration_ms: number; hash: string | null; support?: string },
  options: StrictRunOptions,
): TestRunInput {
  const event: TestRunInput = {
    type: "test_run",
    ts: options.now().toISOString(),
    ...(options.session === undefined ? {} : { session: options.session }),
    ...(options.host === undefined ? {} : { host: options.host }),
    test_id: test.id,
    test,
    status: outcome.status,
    command: extra.command,
    duration_ms: extra.duration_ms,
    test_file_hash: extra.hash,
    ...(extra.support === undefined ? {} : { support_hash: extra.support }),
    purpose: options.purpose,
  };
  if (outcome.fail_reason !== undefined) event.fail_reason = outcome.fail_reason;
  if (outcome.reached !== undefined) event.reached = outcome.reached;
  if (outcome.unran !== undefined) event.unran = outcome.unran;
  const failure = outcome.failure ?? "";
  // No absolute path of this machine in what the agent reads: project paths become relative.
  const root = options.root;
  const message = firstLine(root === undefined ? failure : failure.split(`${root}/`).join(""));
  if (message !== "") event.message = message;
  if (outcome.status === "fail") {
    const read = readFailure(failure);
    if (read.syntax_error) event.syntax_error = true;
    const missing = read.missing.map((name) => resolveMissing(name, test.file));
    if (missing.length > 0) event.missing = [...new Set(missing)];
  }
  return event;
}

export interface StrictRunResult {
  events: TestRunInput[];
  results: RunResult[];
}

/** Runs the tests (batched per runner) and returns one `test_run` event per test, in order. */
export async function runStrictTests(
  project: Project,
  tests: readonly StrictTest[],
  options: StrictRunOptions,
): Promise<StrictRunResult> {
  const hashes = new Map<string, string | null>();
  const supports = new Map<string, string>();
  const patterns = tddPatternsFromConfig(project.config);
  for (const test of tests)
    if (!hashes.has(test.file)) {
      hashes.set(test.file, await hashFile(project.root, test.file));
      supports.set(test.file, await supportHash(project, test.file, patterns));
    }
  // A runner id, or the runner named by a test id that no project runner matches.
  const runners = new Map<StrictTest, string>();
  const targets: RunTarget[] = [];
  for (const test of tests) {
    const found =
      test.runner === undefined ? runnerForTestFile(project, test.file) : { runner: test.runner };
    if ("reason" in found) runners.set(test, found.reason);
    else {
      runners.set(test, found.runner);
      targets.push({ kind: "test", id: toTestId(test, found.runner) });
    }
  }
  const plan = planRun(project.view, targets, planOptions(project));
  const results: RunResult[] = [];
  const timeoutMs = project.config.test_timeout_seconds * 1000;
  // A claimed test made to hang (a seeded endless loop) is stopped as the end of a turn's run
  // is (ADR 0012, the thirtieth round): not held for the whole timeout. Loaded only to run.
  const earlier =
    plan.runs.length === 0
      ? undefined
      : (await import("../../selection/node/choose-tests.ts")).earlierTestFileTimes(project);
  for (const run of plan.runs)
    results.push(
      await executePlan(run, {
        root: project.root,
        timeoutMs,
        hang: hangBound(
          run.test_files,
          earlier ?? (() => undefined),
          timeoutMs,
          options.hangFloorMs,
        ),
        ...(options.guard === undefined ? {} : { guard: options.guard }),
        ...(options.watch === undefined ? {} : { watch: options.watch }),
      }),
    );
  const events = tests.map((test) => {
    const hash = hashes.get(test.file) ?? null;
    const support = supports.get(test.file);
    const runner = runners.get(test) ?? "";
    const result =
      results.find(
        (candidate) =>
          candidate.runner === runner && candidate.tests.some((row) => row.id.file === test.file),
      ) ?? results.find((candidate) => candidate.runner === runner);
    if (result === undefined) {
      const reason = plan.skipped.find((skip) => skip.path === test.file)?.reason ?? runner;
      return toEvent(
        test,
        { status: "not_run", failure: `not run: ${reason}` },
        { command: "", duration_ms: 0, hash, ...(support === undefined ? {} : { support }) },
        { ...options, root: project.root },
      );
    }
    return toEvent(
      { ...test, runner: result.runner },
      outcomeOf(result, toTestId(test, result.runner)),
      {
        command: result.command.join(" "),
        duration_ms: result.duration_ms,
        hash,
        ...(support === undefined ? {} : { support }),
      },
      { ...options, root: project.root },
    );
  });
  return { events, results };
}

export interface VerifyOutcome {
  status: "pass" | "fail";
  command: string;
  duration_ms: number;
  reason: string;
  /**
   * When the full test run failed (no verify command configured): which tests, with the first
   * lines of each failure, as the end of a turn shows them, so the agent need not run the suite
   * again to find them.
   */
  failures?: string;
}

/** What failed in the suites' runs, bounded, with the project's paths made relative. */
function failuresOf(project: Project, results: readonly RunResult[]): string | undefined {
  const text = [
    redSummary(results, project.view),
    renderFailureExcerpt(results, [], {
      replacePaths: rootPaths(project.root),
      maxChars: 2000,
    }),
  ]
    .filter((part) => part !== "")
    .join("\n");
  return text === "" ? undefined : text;
}

/**
 * Refactor mode's check: the configured verify command (argv, no shell), or by default every
 * detected runner's whole suite. A suite that runs no test does not pass.
 */
export async function runVerifyCommand(project: Project): Promise<VerifyOutcome> {
  const started = Date.now();
  const timeout = project.config.test_timeout_seconds * 1000;
  const argv = project.config.strict.verify_command;
  if (argv !== undefined) {
    const [file, ...args] = argv;
    // Loaded here, not at the top: every hook process would pay for execa's start-up otherwise.
    const { execa } = await import("execa");
    const guard = guardState(project.root);
    const run = await execa(file ?? "", args, {
      cwd: project.root,
      reject: false,
      all: true,
      timeout,
      forceKillAfterDelay: 2000,
      stdin: "ignore",
      env: { CI: "1", TAILTEST_HOOKS_OFF: "1" },
    });
    const restored = guard.check();
    if (restored.length > 0)
      return {
        status: "fail",
        command: argv.join(" "),
        duration_ms: Date.now() - started,
        reason: tamperedReason(restored),
      };
    const ok = run.exitCode === 0 && run.timedOut !== true;
    const tail = firstLine((run.all ?? "").trim().split("\n").slice(-1)[0] ?? "");
    return {
      status: ok ? "pass" : "fail",
      command: argv.join(" "),
      duration_ms: Date.now() - started,
      reason: ok
        ? "the verify command passed"
        : `${argv.join(" ")} ${run.timedOut === true ? "timed out" : `exited ${String(run.exitCode ?? run.signal)}`}${tail === "" ? "" : `: ${tail}`}`,
    };
  }
  const runners = detectProjectRunners(project.view, 2, project.config.runners);
  if (runners.length === 0)
    return {
      status: "fail",
      command: "",
      duration_ms: 0,
      reason: "no test runner detected and no strict.verify_command configured",
    };
  const plan = planSuites(project.view, runners);
  const failures: string[] = [];
  const commands: string[] = [];
  const results: RunResult[] = [];
  for (const run of plan.runs) {
    const result = await executePlan(run, { root: project.root, timeoutMs: timeout });
    results.push(result);
    commands.push(result.command.join(" "));
    if (result.status !== "passed") failures.push(`${result.runner}: ${result.reason}`);
  }
  const failed = failures.length === 0 ? undefined : failuresOf(project, results);
  return {
    status: failures.length === 0 ? "pass" : "fail",
    command: commands.join(" && "),
    duration_ms: Date.now() - started,
    reason: failures.length === 0 ? "every suite passed" : failures.join("; "),
    ...(failed === undefined ? {} : { failures: failed }),
  };
}
