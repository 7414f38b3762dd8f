import * as z from "zod";
import { classifyFile, isTestFile } from "./filter.ts";
import { detectLanguage } from "./languages.ts";
import type { ProjectView } from "./project-view.ts";
import { joinRel } from "./project-view.ts";
import { TestIdSchema, type TestId } from "./results.ts";
import {
  DetectedRunnerSchema,
  findTestTarget,
  resolveRunner,
  type DetectedRunner,
  type RunnerId,
} from "./runners.ts";
import type { Config } from "./config.ts";
import { stemOf, type Language } from "./languages.ts";

/**
 * Stand-ins in a planned argv that the executor replaces with real temporary paths. A NUL
 * byte cannot occur in a file name, so no user path is ever mistaken for one.
 */
export const REPORT_TOKEN = "\u0000tailtest-report\u0000";
export const REPORTER_TOKEN = "\u0000tailtest-reporter\u0000";

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
  argv: z.array(z.string()).min(1),
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
}

interface Group {
  runner: DetectedRunner;
  files: Set<string>;
  ids: TestId[];
  sources: Record<string, string>;
  related: Record<string, string[]>;
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

  for (const target of targets) {
    if (target.kind === "test") {
      // A Go test id names its package folder, not a file: resolve from inside that folder.
      const probe =
        detectLanguage(target.id.file) === undefined
          ? joinRel(target.id.file, "_")
          : target.id.file;
      const language = detectLanguage(target.id.file) ?? runnerLanguage(target.id.runner);
      const resolution =
        language === undefined
          ? undefined
          : resolveRunner(view, probe, language, options.overrides);
      if (resolution?.runner?.id !== target.id.runner) {
        skipped.push({
          path: target.id.file,
          reason: `no ${target.id.runner} runner owns ${target.id.file}`,
        });
        continue;
      }
      const group = groupFor(resolution.runner);
      group.files.add(target.id.file);
      group.ids.push(target.id);
      continue;
    }
    const path = target.path.replace(/\\/g, "/").replace(/^\.\//, "");
    const language = detectLanguage(path);
    if (language === undefined) {
      skipped.push({ path, reason: classifyFile(path).reason });
      continue;
    }
    const resolution = resolveRunner(view, path, language, options.overrides);
    if (resolution.runner === undefined) {
      skipped.push({ path, reason: resolution.reason });
      continue;
    }
    const related = options.related?.get(path);
    if (related !== undefined) {
      planSelected(view, path, related, resolution.runner, options, { groupFor, missing, skipped });
      continue;
    }
    if (isTestFile(path, options.extraTestPatterns)) {
      groupFor(resolution.runner).files.add(path);
      continue;
    }
    const verdict = classifyFile(path, { extraTestPatterns: options.extraTestPatterns });
    if (!verdict.queue) {
      skipped.push({ path, reason: verdict.reason });
      continue;
    }
    const testTarget = findTestTarget(view, resolution.runner, path);
    if (!testTarget.exists || !view.exists(testTarget.path)) {
      missing.push({ source: path, expected_test: testTarget.path, runner: resolution.runner.id });
      continue;
    }
    const group = groupFor(resolution.runner);
    group.files.add(testTarget.path);
    group.sources[path] = testTarget.path;
  }

  const runs = [...groups.values()].map((group) => buildPlan(view, group));
  return { runs, missing, skipped };
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
  out: {
    groupFor: (runner: DetectedRunner) => Group;
    missing: MissingTest[];
    skipped: SkippedTarget[];
  },
): void {
  if (related.length > 0) {
    planRelated(view, path, related, options, out.groupFor);
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
  const expected = options.suggested?.get(path) ?? findTestTarget(view, runner, path).path;
  out.missing.push({ source: path, expected_test: expected, runner: runner.id });
}

/** A source's related tests, each in the group of the runner that owns that test file. */
function planRelated(
  view: ProjectView,
  source: string,
  tests: readonly string[],
  options: PlanOptions,
  groupFor: (runner: DetectedRunner) => Group,
): void {
  for (const test of tests) {
    const language = detectLanguage(test);
    if (language === undefined) continue;
    const runner = resolveRunner(view, test, language, options.overrides).runner;
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
    runs: runners.map((runner) =>
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
  const built = buildArgv(view, runner, local, localIds);
  return {
    runner,
    cwd: runner.package_dir,
    argv: built.argv,
    // CI=1: runners neither prompt nor write new snapshots. Colour is left as the project's tests
    // expect it (a suite may test FORCE_COLOR itself); the text parsers strip ANSI codes.
    env: { CI: "1", ...built.env },
    format: built.format,
    report: built.report,
    test_files: files,
    requested: ids,
    sources: group.sources,
    ...(Object.keys(group.related).length === 0 ? {} : { related: group.related }),
  };
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

export interface BuiltArgv {
  argv: string[];
  format: OutputFormat;
  report: ReportSource;
  env?: Record<string, string>;
}

const FILE_REPORT: ReportSource = { kind: "file" };
const OUTPUT_REPORT: ReportSource = { kind: "output" };

/** Escapes a literal for use inside a regular expression passed to a runner. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function anchoredAlternation(names: readonly string[]): string {
  return `^(?:${names.join("|")})$`;
}

/** vitest 5 matches `-t` against " > "-joined names, earlier majors against space-joined ones. */
function vitestJoiner(view: ProjectView, packageDir: string): string {
  for (const dir of [packageDir, ""]) {
    const text = view.readText(joinRel(dir, "node_modules/vitest/package.json"));
    const major = text === undefined ? undefined : /"version"\s*:\s*"(\d+)\./.exec(text)?.[1];
    if (major !== undefined) return Number(major) >= 5 ? " > " : " ";
  }
  return "(?: > | )";
}

/**
 * A file at the package root whose name starts with `-` would reach the runner as an option
 * (`node --test -x.test.js`): `./` keeps it a path for every runner.
 */
function notAnOption(file: string): string {
  return file.startsWith("-") ? `./${file}` : file;
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
): BuiltArgv {
  return buildArgv(view, runner, [...files], [...ids]);
}

// One function per runner family keeps each runner's flags in one place.
// eslint-disable-next-line complexity
function buildArgv(
  view: ProjectView,
  runner: DetectedRunner,
  named: string[],
  ids: TestId[],
): BuiltArgv {
  const command = runner.command;
  const files = named.map(notAnOption);
  const names = (join: string) => ids.map((id) => id.segments.map(escapeRegex).join(join));
  switch (runner.id) {
    case "pytest": {
      const selectors =
        ids.length > 0 ? ids.map((id) => [notAnOption(id.file), ...id.segments].join("::")) : files;
      return {
        argv: [...command, "-o", "junit_family=xunit1", `--junitxml=${REPORT_TOKEN}`, ...selectors],
        format: "junit",
        report: FILE_REPORT,
      };
    }
    case "unittest": {
      const base = command.slice(0, command.indexOf("unittest") + 1);
      const selectors =
        ids.length > 0
          ? ids.map((id) =>
              [id.file.replace(/\.py$/, "").replace(/\//g, "."), ...id.segments].join("."),
            )
          : files;
      const argv = selectors.length > 0 ? [...base, "-v", ...selectors] : [...command, "-v"];
      return { argv, format: "unittest-text", report: OUTPUT_REPORT };
    }
    case "vitest": {
      const filter =
        ids.length > 0
          ? ["-t", anchoredAlternation(names(vitestJoiner(view, runner.package_dir)))]
          : [];
      return {
        argv: [...command, "--reporter=json", `--outputFile=${REPORT_TOKEN}`, ...filter, ...files],
        format: "jest-json",
        report: FILE_REPORT,
      };
    }
    case "jest": {
      const filter = ids.length > 0 ? ["-t", anchoredAlternation(names(" "))] : [];
      const paths = files.length > 0 ? ["--runTestsByPath", ...files] : [];
      return {
        argv: [
          ...command,
          "--json",
          `--outputFile=${REPORT_TOKEN}`,
          "--testLocationInResults",
          ...filter,
          ...paths,
        ],
        format: "jest-json",
        report: FILE_REPORT,
      };
    }
    case "mocha": {
      const filter = ids.length > 0 ? ["--grep", anchoredAlternation(names(" "))] : [];
      return {
        argv: [
          ...command,
          "--reporter",
          "json",
          "--reporter-option",
          `output=${REPORT_TOKEN}`,
          ...filter,
          ...files,
        ],
        format: "mocha-json",
        report: FILE_REPORT,
      };
    }
    case "node-test": {
      const at = command.indexOf("--test");
      const head = at === -1 ? [...command, "--test"] : command.slice(0, at + 1);
      const tail = at === -1 ? [] : command.slice(at + 1);
      const filter = ids.map(
        (id) => `--test-name-pattern=^${escapeRegex(id.segments[id.segments.length - 1] ?? "")}$`,
      );
      return {
        argv: [
          ...head,
          `--test-reporter=${REPORTER_TOKEN}`,
          `--test-reporter-destination=${REPORT_TOKEN}`,
          ...filter,
          ...tail,
          ...files,
        ],
        format: "node-test-ndjson",
        report: FILE_REPORT,
      };
    }
    case "bun": {
      const filter = ids.length > 0 ? ["-t", anchoredAlternation(names(" "))] : [];
      return {
        argv: [
          ...command,
          "--reporter=junit",
          `--reporter-outfile=${REPORT_TOKEN}`,
          ...filter,
          ...files.map((f) => (f.startsWith(".") ? f : `./${f}`)),
        ],
        format: "junit",
        report: FILE_REPORT,
      };
    }
    case "deno": {
      const filter = ids.length > 0 ? ["--filter", `/${anchoredAlternation(names(" "))}/`] : [];
      return {
        argv: [...command, "--reporter=junit", `--junit-path=${REPORT_TOKEN}`, ...filter, ...files],
        format: "junit",
        report: FILE_REPORT,
      };
    }
    case "go": {
      const base = command.filter((arg) => arg !== "./...");
      const dirs = files.map((file) => (file.endsWith(".go") ? dirOf(file) : file));
      const packages =
        dirs.length > 0
          ? [...new Set(dirs.map((dir) => `./${dir}`.replace(/\/$/, "")))]
          : ["./..."];
      return {
        argv: [...base, "-json", ...goRunFilter(ids), ...packages],
        format: "go-json",
        report: OUTPUT_REPORT,
      };
    }
    case "cargo":
    case "nextest": {
      const integration = [
        ...new Set(files.filter((file) => file.startsWith("tests/")).map(stemOf)),
      ];
      // A source file with its own #[cfg(test)] module beside integration tests: the crate's
      // unit tests run too (`--test` alone would leave them out).
      const unit =
        integration.length > 0 && files.some((file) => !file.startsWith("tests/"))
          ? [view.exists(joinRel(runner.package_dir, "src/lib.rs")) ? "--lib" : "--bins"]
          : [];
      const targetsArgs = [...unit, ...integration.flatMap((name) => ["--test", name])];
      if (runner.id === "nextest") {
        const filter =
          ids.length > 0
            ? ["-E", ids.map((id) => `test(=${id.segments.join("::")})`).join(" | ")]
            : [];
        const argv = [...command, "--no-fail-fast", ...targetsArgs, ...filter];
        // With JUnit configured for the default profile, nextest writes structured results; use them.
        const config = view.readText(joinRel(runner.package_dir, ".config/nextest.toml")) ?? "";
        if (/^\[profile\.default\.junit\]/m.test(config)) {
          const report = {
            kind: "dir",
            path: "target/nextest/default",
            pattern: "junit.xml",
          } as const;
          return { argv, format: "junit", report };
        }
        return {
          argv,
          format: "nextest-text",
          report: OUTPUT_REPORT,
        };
      }
      const exact =
        ids.length > 0 ? ["--", "--exact", ...ids.map((id) => id.segments.join("::"))] : [];
      return {
        argv: [...command, "--no-fail-fast", ...targetsArgs, ...exact],
        format: "libtest-text",
        report: OUTPUT_REPORT,
      };
    }
    case "rspec": {
      const filter = ids.flatMap((id) => ["-e", id.segments.join(" ")]);
      return {
        argv: [
          ...command,
          "--format",
          "json",
          "--out",
          REPORT_TOKEN,
          "--format",
          "progress",
          ...filter,
          ...files,
        ],
        format: "rspec-json",
        report: FILE_REPORT,
      };
    }
    case "minitest": {
      const filter =
        ids.length > 0
          ? [
              "-n",
              `/${anchoredAlternation(ids.map((id) => escapeRegex(id.segments[id.segments.length - 1] ?? "")))}/`,
            ]
          : [];
      if (files.length === 0)
        return {
          argv: [...command, `TESTOPTS=-v ${filter.join(" ")}`.trim()],
          format: "minitest-text",
          report: OUTPUT_REPORT,
        };
      return {
        argv: [
          "bundle",
          "exec",
          "ruby",
          "-Itest",
          "-Ilib",
          "-e",
          'files = ARGV.take_while { |a| a != "--" }; ARGV.replace(ARGV.drop(files.size + 1)); files.each { |f| require File.expand_path(f) }',
          ...files,
          "--",
          "-v",
          ...filter,
        ],
        format: "minitest-text",
        report: OUTPUT_REPORT,
      };
    }
    case "phpunit":
    case "pest": {
      const filter =
        ids.length > 0
          ? [
              "--filter",
              anchoredAlternation(
                ids.map((id) => escapeRegex(id.segments[id.segments.length - 1] ?? "")),
              ),
            ]
          : [];
      const paths = files.length === 1 ? files : [];
      return {
        argv: [...command, "--log-junit", REPORT_TOKEN, ...filter, ...paths],
        format: "junit",
        report: FILE_REPORT,
      };
    }
    case "maven": {
      const selection =
        ids.length > 0
          ? ids.map((id) => `${id.segments[0]}#${id.segments.slice(1).join("+")}`)
          : files.map(stemOf);
      const tests =
        selection.length > 0
          ? [`-Dtest=${selection.join(",")}`, "-Dsurefire.failIfNoSpecifiedTests=false"]
          : [];
      return {
        argv: [...command, ...tests],
        format: "junit",
        report: { kind: "dir", path: "target/surefire-reports", pattern: "TEST-*.xml" },
      };
    }
    case "gradle": {
      const selection = ids.length > 0 ? ids.map((id) => id.segments.join(".")) : files.map(stemOf);
      return {
        argv: [...command, ...selection.flatMap((name) => ["--tests", name])],
        format: "junit",
        report: { kind: "dir", path: "build/test-results/test", pattern: "TEST-*.xml" },
      };
    }
    case "dotnet": {
      const selection = ids.length > 0 ? ids.map((id) => id.segments.join(".")) : files.map(stemOf);
      const filter =
        selection.length > 0
          ? ["--filter", selection.map((name) => `FullyQualifiedName~${name}`).join("|")]
          : [];
      return {
        argv: [...command, "--logger", `trx;LogFileName=${REPORT_TOKEN}`, ...filter],
        format: "trx",
        report: FILE_REPORT,
      };
    }
    case "swift": {
      const selection = ids.length > 0 ? ids.map((id) => id.segments.join("/")) : files.map(stemOf);
      const filter = selection.length > 0 ? ["--filter", selection.join("|")] : [];
      return {
        argv: [...command, "--xunit-output", REPORT_TOKEN, ...filter],
        format: "junit",
        report: FILE_REPORT,
      };
    }
  }
}

/** `go test -run` splits its pattern at `/`: one anchored alternation per subtest level. */
function goRunFilter(ids: readonly TestId[]): string[] {
  if (ids.length === 0) return [];
  const depth = Math.max(...ids.map((id) => id.segments.length));
  const levels: string[] = [];
  for (let level = 0; level < depth; level += 1) {
    const names = [
      ...new Set(
        ids.map((id) => id.segments[level]).filter((name): name is string => name !== undefined),
      ),
    ];
    levels.push(anchoredAlternation(names.map((name) => escapeRegex(name.replace(/ /g, "_")))));
  }
  return ["-run", levels.join("/")];
}

const RUNNER_LANGUAGES: Partial<Record<RunnerId, Language>> = {
  go: "go",
  cargo: "rust",
  nextest: "rust",
};

function runnerLanguage(id: RunnerId): Language | undefined {
  return RUNNER_LANGUAGES[id];
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}
