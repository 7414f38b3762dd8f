import * as z from "zod/mini";
import { classifyFile, isTestFile } from "../filter/filter.ts";
import { detectLanguage } from "../filter/languages.ts";
import type { ProjectView } from "../project/project-view.ts";
import { joinRel, walkFiles } from "../project/project-view.ts";
import { dotenvLanguage, templateLanguage, testDataLanguage } from "../project/test-data.ts";
import { doctestPageLanguage } from "../runners/doctest-pages.ts";
import { packageJsonRunner, runnerConfigOwner } from "../runners/runner-config.ts";
import { TestIdSchema, type TestId } from "./results.ts";
import {
  DetectedRunnerSchema,
  findTestTarget,
  resolveRunner,
  type DetectedRunner,
  type RunnerId,
} from "../runners/project-runners.ts";
import type { Config } from "../config/config.ts";
import type { Language } from "../filter/languages.ts";
import {
  loadsBuildOutput,
  notAnOption,
  scriptEnv,
  shadowedSources,
  testBuildCommand,
} from "../runners/shared.ts";
import { specOf } from "../runners/table.ts";
import { compiledBuild, compiledRunFiles, runLayout } from "../runners/compiled.ts";
import type { BuiltArgv } from "../runners/spec.ts";
import type { RunResult } from "./summarize.ts";

export {
  CONFIG_WITHOUT_SPEC_TOKEN,
  configWithoutSpecSource,
  displayArg,
  escapeRegex,
  HANG_SECONDS_TOKEN,
  REPORT_TOKEN,
  REPORTER_TOKEN,
} from "../runners/spec.ts";
export type { BuiltArgv } from "../runners/spec.ts";

export const OutputFormatSchema = z.enum([
  "jest-json",
  "mocha-json",
  "node-test-ndjson",
  "junit",
  "trx",
  "go-json",
  "libtest-text",
  "nextest-text",
  "rspec-json",
  "minitest-text",
  "unittest-text",
  "tap",
  "tape-tap",
  "uvu-text",
  "jasmine-events",
]);
export type OutputFormat = z.infer<typeof OutputFormatSchema>;

/** Where the runner's machine output ends up. */
export const ReportSourceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("file") }),
  /** A folder of XML files (surefire, gradle), relative to the run's cwd; only files written by this run count. */
  z.object({ kind: z.literal("dir"), path: z.string(), pattern: z.string() }),
  z.object({ kind: z.literal("output") }),
]);
export type ReportSource = z.infer<typeof ReportSourceSchema>;

export const RunPlanSchema = z.object({
  runner: DetectedRunnerSchema,
  /** The package folder the process starts in, relative to the project root. */
  cwd: z.string(),
  argv: z.array(z.string()).check(z.minLength(1)),
  env: z.record(z.string(), z.string()),
  format: OutputFormatSchema,
  report: ReportSourceSchema,
  /** Project-relative test files this run covers (empty: the whole suite). */
  test_files: z.array(z.string()),
  /** Tests asked for by id; any absent from the output is reported as not_run. */
  requested: z.array(TestIdSchema),
  /** Source file → its test file, for the files the run was planned from. */
  sources: z.record(z.string(), z.string()),
  /** Source file → every related test file of it in this run (selection by evidence). */
  related: z.optional(z.record(z.string(), z.array(z.string()))),
  /** The folder, relative to `cwd`, the runner names test files from (uvu); absent: `cwd`. */
  names_from: z.optional(z.string()),
  /**
   * Arguments that make the runner say where a test hangs (`BuiltArgv.hangArgs`), added by the
   * executor with `HANG_SECONDS_TOKEN` set a few seconds before the run's stop.
   */
  hang_args: z.optional(z.array(z.string())),
  /**
   * A shell line run in `cwd` before the runner: the build the test files load (`dist/`), from
   * the package's test or pretest script (`testBuildCommand`). Without it they would test
   * whatever the last build left.
   */
  build: z.optional(z.string()),
  /**
   * The virtualenv the run's Python is from (relative to `cwd`, or absolute): the run gets its
   * `bin/` first on `PATH` and `VIRTUAL_ENV` naming it, as activating it does, so a test that
   * starts one of the project's console scripts by name (`subprocess.run(["tool", …])`) finds it.
   */
  venv: z.optional(z.string()),
  /**
   * Where the run's tests are tsc's output (`runners/compiled.ts`): the command line names the
   * output of `test_files`, and the report's files are read back as the sources.
   */
  compiled: z.optional(
    z.object({ out_dir: z.string(), root_dir: z.string(), allow_js: z.boolean() }),
  ),
});
export type RunPlan = z.infer<typeof RunPlanSchema>;

export type RunTarget = { kind: "file"; path: string } | { kind: "test"; id: TestId };

export interface MissingTest {
  source: string;
  expected_test: string;
  runner: RunnerId;
}

export interface SkippedTarget {
  path: string;
  reason: string;
}

export interface Plan {
  runs: RunPlan[];
  missing: MissingTest[];
  skipped: SkippedTarget[];
}

export interface PlanOptions {
  overrides?: Config["runners"];
  extraTestPatterns?: readonly string[];
  /**
   * Related test files per source, best first (`selection/`): a source found here runs these
   * instead of its name-matched test; an empty list means no test covers it.
   */
  related?: ReadonlyMap<string, readonly string[]>;
  /** Where a new test goes for a source no test covers (the project's own convention). */
  suggested?: ReadonlyMap<string, string>;
  /** The runner of each changed runner config selection found (a deleted one included). */
  configs?: ReadonlyMap<string, DetectedRunner>;
}

interface Group {
  runner: DetectedRunner;
  files: Set<string>;
  ids: TestId[];
  sources: Record<string, string>;
  related: Record<string, string[]>;
  /** Run the whole suite, whatever files the group names (a changed `Cargo.toml`). */
  whole?: boolean;
}

/**
 * Plans the processes that run the tests for the given targets: one process per runner and
 * package, every target batched into it. Source files map to their test files; a source file
 * whose test does not exist is reported as missing, never dropped.
 */
export function planRun(
  view: ProjectView,
  targets: readonly RunTarget[],
  options: PlanOptions = {},
): Plan {
  const groups = new Map<string, Group>();
  const missing: MissingTest[] = [];
  const skipped: SkippedTarget[] = [];
  const groupFor = (runner: DetectedRunner): Group => {
    const key = `${runner.id}\u0000${runner.package_dir}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { runner, files: new Set(), ids: [], sources: {}, related: {} };
      groups.set(key, group);
    }
    return group;
  };

  const out = { groupFor, missing, skipped };
  for (const target of targets) {
    if (target.kind === "test") planTestId(view, target.id, options, out);
    else planFile(view, target.path.replace(/\\/g, "/").replace(/^\.\//, ""), options, out);
  }

  const runs = [...groups.values()].map((group) => buildPlan(view, group));
  return { runs, missing, skipped };
}

interface PlanOut {
  groupFor: (runner: DetectedRunner) => Group;
  missing: MissingTest[];
  skipped: SkippedTarget[];
}

/** One test by its id, in the group of the runner that owns its file. */
function planTestId(view: ProjectView, id: TestId, options: PlanOptions, out: PlanOut): void {
  // A Go test id names its package folder, not a file: resolve from inside that folder.
  const probe = detectLanguage(id.file) === undefined ? joinRel(id.file, "_") : id.file;
  const language = detectLanguage(id.file) ?? runnerLanguage(id.runner);
  const resolution =
    language === undefined ? undefined : resolveRunner(view, probe, language, options.overrides);
  if (resolution?.runner?.id !== id.runner) {
    out.skipped.push({ path: id.file, reason: `no ${id.runner} runner owns ${id.file}` });
    return;
  }
  const group = out.groupFor(resolution.runner);
  group.files.add(id.file);
  group.ids.push(id);
}

/** Why a deleted source runs nothing of its own. */
const DELETED = "deleted, and no test reaches it now";

/** One changed or named file: its related tests, itself when a test, or its conventional test. */
function planFile(view: ProjectView, path: string, options: PlanOptions, out: PlanOut): void {
  // A test folder's data file runs with the runner of the tests beside it, a Python project's
  // template or .env with its readers'; a page pytest runs as doctests is a test of its own.
  const own =
    detectLanguage(path) ??
    testDataLanguage(view, path) ??
    templateLanguage(view, path) ??
    dotenvLanguage(view, path);
  const page = own === undefined ? doctestPageLanguage(view, path, options.overrides) : undefined;
  const language = own ?? page;
  if (language === undefined) {
    planConfig(view, path, options, out);
    return;
  }
  const resolution = resolveRunner(view, path, language, options.overrides);
  if (resolution.runner === undefined) {
    out.skipped.push({ path, reason: resolution.reason });
    return;
  }
  const related = page === undefined ? options.related?.get(path) : undefined;
  if (related !== undefined) {
    planSelected(view, path, related, resolution.runner, options, out);
    return;
  }
  if (page !== undefined || isTestFile(path, options.extraTestPatterns)) {
    out.groupFor(resolution.runner).files.add(path);
    return;
  }
  const verdict = classifyFile(path, { extraTestPatterns: options.extraTestPatterns });
  if (!verdict.queue) {
    out.skipped.push({ path, reason: verdict.reason });
    return;
  }
  if (!view.exists(path)) {
    out.skipped.push({ path, reason: DELETED });
    return;
  }
  const testTarget = findTestTarget(view, resolution.runner, path);
  if (!testTarget.exists || !view.exists(testTarget.path)) {
    out.missing.push({
      source: path,
      expected_test: testTarget.path,
      runner: resolution.runner.id,
    });
    return;
  }
  const group = out.groupFor(resolution.runner);
  group.files.add(testTarget.path);
  group.sources[path] = testTarget.path;
}

/** A file of no language: a runner's own config runs the suite's tests selection found for it. */
function planConfig(view: ProjectView, path: string, options: PlanOptions, out: PlanOut): void {
  const related = options.related?.get(path);
  const owner = related === undefined ? undefined : configOwner(view, path, options);
  if (related === undefined || owner === undefined) {
    out.skipped.push({ path, reason: classifyFile(path).reason });
    return;
  }
  // A crate's manifest: its unit and doc tests live in the sources, so the crate runs whole
  // and every test of the run is the manifest's (as a Rust file's own unit tests are its).
  if (specOf(owner.id).inline === true) {
    const group = out.groupFor(owner);
    group.whole = true;
    group.sources[path] ??= path;
    group.related[path] = [path];
    return;
  }
  planSelected(view, path, related, owner, options, out);
}

/** The runner whose config `path` is (or was, before this turn deleted it). */
function configOwner(
  view: ProjectView,
  path: string,
  options: PlanOptions,
): DetectedRunner | undefined {
  return (
    options.configs?.get(path) ??
    runnerConfigOwner(view, path, options.overrides) ??
    packageJsonRunner(view, path, options.overrides)
  );
}

/**
 * A file selection has looked at: its related tests run; with none, a test file is support no
 * test runs with, a skipped file stays skipped, and a source is missing its test.
 */
function planSelected(
  view: ProjectView,
  path: string,
  related: readonly string[],
  runner: DetectedRunner,
  options: PlanOptions,
  out: PlanOut,
): void {
  if (related.length > 0) {
    planRelated(view, path, related, runner, options, out.groupFor);
    return;
  }
  if (isTestFile(path, options.extraTestPatterns)) {
    out.skipped.push({ path, reason: "test support that no selected test runs with" });
    return;
  }
  const verdict = classifyFile(path, { extraTestPatterns: options.extraTestPatterns });
  if (!verdict.queue) {
    out.skipped.push({ path, reason: verdict.reason });
    return;
  }
  // A deleted source asks for no test: only the tests that still reach it had anything to run.
  if (!view.exists(path)) {
    out.skipped.push({ path, reason: DELETED });
    return;
  }
  // The selection knows the files its graph has seen; a test made behind the hooks' back (by
  // the person, a checkout, a shell command) is still on disk under the conventional name.
  const target = findTestTarget(view, runner, path);
  if (target.exists && view.exists(target.path)) {
    planRelated(view, path, [target.path], runner, options, out.groupFor);
    return;
  }
  const expected = options.suggested?.get(path) ?? target.path;
  out.missing.push({ source: path, expected_test: expected, runner: runner.id });
}

/**
 * A source's related tests, each in the group of the runner that owns that test file; a test in
 * no language (a page of examples pytest runs as doctests, `docs/introduction.rst`) in the
 * source's own runner's, which selection found it for.
 */
function planRelated(
  view: ProjectView,
  source: string,
  tests: readonly string[],
  own: DetectedRunner,
  options: PlanOptions,
  groupFor: (runner: DetectedRunner) => Group,
): void {
  for (const test of tests) {
    // A test deleted in the turn that the import graph has not dropped yet runs no more.
    if (!view.exists(test)) continue;
    const language = detectLanguage(test);
    const runner =
      language === undefined ? own : resolveRunner(view, test, language, options.overrides).runner;
    if (runner === undefined) continue;
    const group = groupFor(runner);
    group.files.add(test);
    group.sources[source] ??= test;
    (group.related[source] ??= []).push(test);
  }
}

/** Plans the whole suite of every given runner (no file or id filter). */
export function planSuites(view: ProjectView, runners: readonly DetectedRunner[]): Plan {
  return {
    runs: runners
      .filter((runner) => !suiteIsNestedPackages(view, runner, runners))
      .map((runner) =>
        buildPlan(view, { runner, files: new Set(), ids: [], sources: {}, related: {} }),
      ),
    missing: [],
    skipped: [],
  };
}

function buildPlan(view: ProjectView, group: Group): RunPlan {
  const { runner } = group;
  const files = [...group.files].sort();
  const local = files.map((file) =>
    runner.package_dir === "" ? file : file.slice(runner.package_dir.length + 1),
  );
  const ids = dedupeIds(group.ids);
  const localIds = ids.map((id) => ({
    ...id,
    file: runner.package_dir === "" ? id.file : id.file.slice(runner.package_dir.length + 1),
  }));
  const edited = Object.keys(group.sources).map((source) =>
    runner.package_dir === "" ? source : source.slice(runner.package_dir.length + 1),
  );
  const named = compiledRunFiles(view, runner, group.whole === true ? [] : local);
  const built = runnerArgv(view, runner, named.files, localIds, edited);
  const build =
    named.layout === undefined
      ? buildFirst(view, runner, files)
      : compiledBuild(view, runner, named.layout);
  return {
    runner,
    cwd: runner.package_dir,
    argv: built.argv,
    // CI=1: runners neither prompt nor write new snapshots. Colour is left as the project's tests
    // expect it (a suite may test FORCE_COLOR itself, or its test script set it: the variables
    // the script gives the runner's command come along); the text parsers strip ANSI codes.
    env: { ...testScriptEnv(view, runner), CI: "1", ...sourcesFirst(view, runner), ...built.env },
    format: built.format,
    report: built.report,
    test_files: files,
    requested: ids,
    sources: group.sources,
    ...(Object.keys(group.related).length === 0 ? {} : { related: group.related }),
    ...(built.namesFrom === undefined ? {} : { names_from: built.namesFrom }),
    ...(built.hangArgs === undefined ? {} : { hang_args: built.hangArgs }),
    ...(build === undefined ? {} : { build }),
    ...venvOf(runner),
    ...(named.layout === undefined
      ? {}
      : { compiled: runLayout(runner.package_dir, named.layout) }),
  };
}

/** The virtualenv of a Python runner's interpreter (`.venv/bin/python` → `.venv`), if it is one. */
function venvOf(runner: DetectedRunner): { venv?: string } {
  if (!runner.languages.includes("python")) return {};
  const venv = /^(.+)\/bin\/python[\d.]*$/.exec(runner.command[0] ?? "")?.[1];
  return venv === undefined ? {} : { venv };
}

/**
 * A Python run whose virtualenv holds an installed copy of the project's `src/` package imports
 * the sources instead (`shadowedSources`): `src` first on `PYTHONPATH`, before what the machine
 * set there.
 */
function sourcesFirst(view: ProjectView, runner: DetectedRunner): Record<string, string> {
  if (!runner.languages.includes("python")) return {};
  const first = shadowedSources(view, runner.package_dir, runner.command[0] ?? "");
  if (first === undefined) return {};
  const inherited = view.host?.env("PYTHONPATH") ?? "";
  return { PYTHONPATH: inherited === "" ? first : `${first}:${inherited}` };
}

/**
 * The build to run before a JavaScript run whose test files load build output. A run of the
 * whole suite (no files named) asks the same of every test file the package holds.
 */
function buildFirst(
  view: ProjectView,
  runner: DetectedRunner,
  files: readonly string[],
): string | undefined {
  if (!runner.languages.some((language) => language === "javascript" || language === "typescript"))
    return undefined;
  // The scripts first: most packages build nothing before their tests, and no test is read then.
  const build = testBuildCommand(view, runner.package_dir);
  if (build === undefined) return undefined;
  const tests = files.length > 0 ? files : suiteTestFiles(view, runner.package_dir);
  return tests.some((file) => loadsBuildOutput(view, runner.package_dir, file)) ? build : undefined;
}

/**
 * Whether a JavaScript runner's whole suite is only the tests of packages below it that have a
 * runner of their own (a workspace root with vitest in its devDependencies, each member running
 * it from its folder with its own config): run from the root, the runner would load those tests
 * without their package's config (jsdom, setup files) and fail them. Their own runs cover them.
 */
function suiteIsNestedPackages(
  view: ProjectView,
  runner: DetectedRunner,
  runners: readonly DetectedRunner[],
): boolean {
  const js = (languages: readonly Language[]): boolean =>
    languages.some((language) => language === "javascript" || language === "typescript");
  if (!js(runner.languages)) return false;
  const below = (path: string, dir: string): boolean => dir === "" || path.startsWith(`${dir}/`);
  const nested = runners.filter(
    (other) =>
      other.package_dir !== runner.package_dir &&
      below(other.package_dir, runner.package_dir) &&
      js(other.languages),
  );
  if (nested.length === 0) return false;
  const tests = suiteTestFiles(view, runner.package_dir);
  return (
    tests.length > 0 &&
    tests.length < SUITE_TEST_FILES &&
    tests.every((test) => nested.some((other) => below(test, other.package_dir)))
  );
}

/** Folders a package's test files are not looked for in: installs and build output. */
const NOT_TEST_FOLDERS = new Set(["node_modules", "dist", "build", "out", "coverage"]);

const SUITE_TEST_FILES = 2000;

/** A package's JavaScript and TypeScript test files (project-relative), the first 2,000. */
function suiteTestFiles(view: ProjectView, dir: string): string[] {
  return walkFiles(view, dir, "", {
    files: SUITE_TEST_FILES,
    depth: 8,
    skip: NOT_TEST_FOLDERS,
    keep: (path) => {
      const language = detectLanguage(path);
      return (language === "javascript" || language === "typescript") && isTestFile(path);
    },
  }).map((path) => joinRel(dir, path));
}

/**
 * The run that tells a flaky failure from a red one: where the runner isolates its test files
 * (`isolatesFiles`), the same run over only the files whose tests failed (their requested ids
 * kept); else the whole run again, since a test can fail through what another file left behind.
 */
export function flakyRerun(view: ProjectView, run: RunPlan, result: RunResult): RunPlan {
  // The build the run made is this turn's still: the rerun does not build again.
  const again = withoutBuild(run);
  if (specOf(run.runner.id).isolatesFiles?.(view, run.runner) !== true) return again;
  return failedFilesOf(view, run, result) ?? again;
}

/**
 * Where the runner shares one process between its files (pytest, mocha), the run over only the
 * files whose tests failed, made before the whole run is made again: a test that fails there
 * too fails whatever the other files leave behind, so it is red without the whole run's second
 * wait (pyjwt: its six files again, ~8 s, for one file's failures). Undefined where it would say
 * nothing the whole rerun does not (the runner isolates its files, or every file failed).
 */
export function failedFilesFirst(
  view: ProjectView,
  run: RunPlan,
  result: RunResult,
): RunPlan | undefined {
  if (specOf(run.runner.id).isolatesFiles?.(view, run.runner) === true) return undefined;
  return failedFilesOf(view, run, result);
}

/** The same run over only the files whose tests failed; undefined when that is all of them. */
function failedFilesOf(view: ProjectView, run: RunPlan, result: RunResult): RunPlan | undefined {
  const failed = new Set(
    result.tests.filter((test) => test.status === "fail").map((test) => test.id.file),
  );
  const within =
    run.test_files.length === 0 || [...failed].every((file) => run.test_files.includes(file));
  if (
    failed.size === 0 ||
    !within ||
    (failed.size >= run.test_files.length && run.test_files.length > 0)
  )
    return undefined;
  const related = Object.fromEntries(
    Object.entries(run.related ?? {}).map(([source, tests]) => [
      source,
      tests.filter((test) => failed.has(test)),
    ]),
  );
  const narrowed = buildPlan(view, {
    runner: run.runner,
    files: failed,
    ids: run.requested.filter((id) => failed.has(id.file)),
    sources: Object.fromEntries(Object.entries(run.sources).filter(([, test]) => failed.has(test))),
    related: Object.fromEntries(Object.entries(related).filter(([, tests]) => tests.length > 0)),
  });
  return withoutBuild(narrowed);
}

/** The same run with no build before it. */
function withoutBuild(run: RunPlan): RunPlan {
  if (run.build === undefined) return run;
  const copy = { ...run };
  delete copy.build;
  return copy;
}

function dedupeIds(ids: readonly TestId[]): TestId[] {
  const seen = new Set<string>();
  return ids.filter((id) => {
    const key = JSON.stringify([id.runner, id.file, id.segments]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The argv, report format and report location that run `files` (relative to the runner's
 * package) and the tests `ids` with one runner; none of either runs the whole suite.
 */
export function runnerArgv(
  view: ProjectView,
  runner: DetectedRunner,
  files: readonly string[],
  ids: readonly TestId[],
  edited: readonly string[] = [],
): BuiltArgv {
  return specOf(runner.id).argv({
    view,
    runner,
    files: files.map(notAnOption),
    ids: [...ids],
    edited,
  });
}

/** What the package's test script sets for this runner's command (`cross-env FORCE_COLOR=2 vitest`). */
function testScriptEnv(view: ProjectView, runner: DetectedRunner): Record<string, string> {
  const runs = specOf(runner.id).packageJson?.script;
  return runs === undefined ? {} : scriptEnv(view, runner.package_dir, runs);
}

function runnerLanguage(id: RunnerId): Language | undefined {
  return specOf(id).folderIds;
}
