import type { Language } from "../filter/languages.ts";
import type { OutputFormat, ReportSource } from "../engine/plan.ts";
import type { ProjectView } from "../project/project-view.ts";
import type { TestId } from "../engine/results.ts";
import type { DetectedRunner, RunnerId } from "./project-runners.ts";

/**
 * Everything tailtest knows about one test runner, in one record: how a package is seen to use
 * it, its default command, where its tests are and what they are named, the argv that runs some
 * of them and how their report comes back, what doctor starts, how strict mode writes its test
 * ids and which shell commands run it. One file per runner under `runners/`, gathered in
 * `runners/table.ts`; pure.
 */
export interface RunnerSpec {
  id: RunnerId;
  languages: readonly Language[];
  /** Short name used in notes ("runner: pytest"). */
  label: string;
  /** What in this folder says the package uses the runner; `table` is every runner, in order. */
  detect(view: ProjectView, dir: string, table: readonly RunnerSpec[]): Detection | undefined;
  /** A JS runner seen through package.json: its test script, its dependency, its config file. */
  packageJson?: { script: RegExp; dependency?: string; configFile?: RegExp };
  /**
   * The manifest that holds the settings it builds and runs the tests by, for a runner seen
   * through no package.json (`Cargo.toml`: features, dev-dependencies, `[[test]]`; `go.mod`):
   * an edit to it runs the suite (`runner-config.ts`).
   */
  settingsFile?: RegExp;
  /** The whole-suite command, in the package folder, when neither the config nor detection names one. */
  command(view: ProjectView, dir: string): string[];
  /** Candidate folders for new tests, in order; none existing means `fallbackTestDir`. */
  testDirs: readonly string[];
  /** undefined: tests sit beside the source when no test folder exists. */
  fallbackTestDir: string | undefined;
  /** Where the tests are when none of `testDirs` exists (a package's own `tests/` inside it). */
  testDirInside?(view: ProjectView, dir: string): string | undefined;
  /**
   * Where its config says the tests are, in words (mocha's `spec` globs), told in place of a
   * missing test folder; undefined when the config names none.
   */
  testsAt?(view: ProjectView, dir: string): string | undefined;
  /** Test file candidates for a source path relative to the package, preferred first. */
  testCandidates(src: string, testDir: string | undefined, ctx: CandidateContext): string[];
  /** Tests live in the source file itself (Rust unit tests). */
  inline?: boolean;
  /** It loads a `.ts` test only with a loader in its command (`node --test` before Node 22.6). */
  tsNeedsLoader?: boolean;
  /** The language of a test id whose `file` names a folder (a Go package, a crate). */
  folderIds?: Language;
  /** argv that runs only the given test files (relative to the package): the simple form. */
  fileCommand(command: readonly string[], testFiles: readonly string[]): string[];
  /**
   * Options of the package's scripts that `fileCommand` needs after the command to run these
   * package-relative files as the project does (jest's config for an e2e spec).
   */
  fileOptions?(view: ProjectView, dir: string, testFiles: readonly string[]): string[];
  /** The argv, report format and report location that run these files and tests. */
  argv(input: ArgvInput): BuiltArgv;
  /** Which package-relative paths are this runner's tests, read from its config or its defaults. */
  suite(view: ProjectView, runner: DetectedRunner): SuiteMatcher;
  /**
   * The runner's own list of its tests, for a config that cannot be read statically (JS with
   * logic, a function, projects): the argv, and how to read its answer.
   */
  listTests?: TestLister;
  /** What `tailtest doctor` runs to show the runner starts (and, where cheap, loads the tests). */
  probe(runner: DetectedRunner): RunnerProbe;
  /** How strict mode joins a test id's segments: pytest's `::` or the JS runners' ` > `. */
  testIdJoiner: "::" | " > ";
  /** How its JUnit XML names files and tests, when it writes JUnit. */
  junit?: JunitDialect;
  /** Programs that run this runner directly in a shell command (`jest`, `py.test`), and how to say so. */
  shellPrograms?: Readonly<Record<string, string>>;
  /** A program that runs it with a subcommand (`dotnet test`). */
  shellSubcommand?: { program: string; sub: string };
  /** The module `python -m <module>` runs it as. */
  shellPythonModule?: string;
  /** An exit that means no test ran (nothing collected, an unknown id), not a broken runner. */
  noTestsRan?(exitCode: number | null, output: string): boolean;
  /**
   * A config file the runner reads besides `packageJson.configFile`, which says nothing of which
   * runner a package uses (vitest reads `vite.config.ts` when no `vitest.config.*` is there): its
   * name, and whether the one in `dir` is the runner's (a change to it runs the suite).
   */
  alsoReads?: { name: RegExp; reads(view: ProjectView, dir: string, name: string): boolean };
  /**
   * Whether each test file runs in a module registry of its own (jest, vitest unless told not to
   * isolate, `node --test`'s process per file, ava's worker per file): a file run again alone
   * then behaves as it did among the others, so a flaky failure is checked by running only the
   * files that failed. Absent: files share a process (pytest, mocha), and the whole run is made
   * again.
   */
  isolatesFiles?(view: ProjectView, runner: DetectedRunner): boolean;
  /**
   * When a run broke on an option only a plugin gives (pytest's `--cov` without pytest-cov), the
   * line that says so and what to install: the environment's fault, not the code's.
   */
  missingPlugin?(output: string): string | undefined;
}

export interface Detection {
  evidence: string;
  command?: string[];
}

export interface CandidateContext {
  view: ProjectView;
  packageDir: string;
  typescript: boolean;
}

export interface ArgvInput {
  view: ProjectView;
  runner: DetectedRunner;
  /** Test files relative to the package, already safe from being read as options. */
  files: string[];
  /** Test ids with package-relative files. */
  ids: TestId[];
  /** The changed files (package-relative) the run is for, when a plan knows them. */
  edited?: readonly string[];
}

export interface BuiltArgv {
  argv: string[];
  format: OutputFormat;
  report: ReportSource;
  env?: Record<string, string>;
  /**
   * The folder, relative to the package, the runner names test files from in its output when
   * it names them relative to a folder it was given (uvu); absent: from the package.
   */
  namesFrom?: string;
  /**
   * Arguments that make the runner print where a test hangs `HANG_SECONDS_TOKEN` seconds into
   * it, shortly before the run is stopped (pytest's faulthandler dump): the Stop's timeout line
   * then names the code it was in.
   */
  hangArgs?: string[];
}

export interface SuiteMatcher {
  isTest(path: string): boolean;
  /**
   * A file the runner loads before every test file of this suite, named by its config (jasmine's
   * `helpers`): what it imports reaches every test, as a conftest.py's imports reach its folder.
   */
  isSetup?(path: string): boolean;
  /** Where the shape came from, for `explain`: "pyproject.toml testpaths", "vitest defaults". */
  evidence: string;
  /** The config could not be read statically: only the runner itself knows its tests. */
  opaque?: string;
  /**
   * Tests of other configs of the same runner that the package's scripts name (jest's
   * `test:e2e` config), which the runner's own list of `opaque` tests leaves out.
   */
  otherConfigs?(path: string): boolean;
}

export interface TestLister {
  /** argv run in the package folder; its stdout is the list. */
  argv(runner: DetectedRunner): string[];
  /** Package-relative test files from the runner's stdout (absolute paths under `packageAbs`). */
  parse(stdout: string, packageAbs: string): string[] | undefined;
  /** Files whose content decides the list: the cache is keyed by their hashes. */
  configFiles(view: ProjectView, dir: string): string[];
}

export interface RunnerProbe {
  argv: string[];
  collects: boolean;
  /** Exit codes besides 0 that still mean it started (pytest's 5: nothing collected). */
  okExits?: readonly number[];
}

export type JunitDialect = "pytest" | "php" | "jvm" | "bun" | "deno" | "swift" | "nextest";

/**
 * Stand-ins in a planned argv that the executor replaces with real temporary paths. A NUL
 * byte cannot occur in a file name, so no user path is ever mistaken for one.
 */
export const REPORT_TOKEN = "\u0000tailtest-report\u0000";
export const REPORTER_TOKEN = "\u0000tailtest-reporter\u0000";
/** In `hangArgs`: the seconds after which a test counts as hanging, set by the executor. */
export const HANG_SECONDS_TOKEN = "\u0000tailtest-hang-seconds\u0000";
/**
 * `CONFIG_WITHOUT_SPEC_TOKEN` then a JS config file (relative to the run's folder) is replaced by
 * the path of a CommonJS config written for the run that loads that file and leaves out its
 * `spec`: mocha adds a config's `spec` to the files it is given, so a run of chosen files would
 * run the whole suite.
 */
export const CONFIG_WITHOUT_SPEC_TOKEN = "\u0000tailtest-config-without-spec\u0000";

/** A planned argument as a person reads it: each stand-in named for what it becomes. */
export function displayArg(arg: string): string {
  if (arg.startsWith(CONFIG_WITHOUT_SPEC_TOKEN))
    return `<${arg.slice(CONFIG_WITHOUT_SPEC_TOKEN.length)} less its spec>`;
  return arg.split(REPORT_TOKEN).join("<report>").split(REPORTER_TOKEN).join("<reporter>");
}

/** The config `CONFIG_WITHOUT_SPEC_TOKEN` stands for: `config` (absolute) less its `spec`. */
export function configWithoutSpecSource(config: string): string {
  return [
    "// tailtest: the project's config less its spec (the files to run are on the command line).",
    `const config = Object.assign({}, require(${JSON.stringify(config)}));`,
    "delete config.spec;",
    "module.exports = config;",
    "",
  ].join("\n");
}

export const FILE_REPORT: ReportSource = { kind: "file" };
export const OUTPUT_REPORT: ReportSource = { kind: "output" };

/** Escapes a literal for use inside a regular expression passed to a runner. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

export function anchoredAlternation(names: readonly string[]): string {
  return `^(?:${names.join("|")})$`;
}

/** Each id's segments, escaped and joined: the name a `-t`/`--grep` filter matches. */
export function idNames(ids: readonly TestId[], join: string): string[] {
  return ids.map((id) => id.segments.map(escapeRegex).join(join));
}

/** Each id's own test name (its last segment), escaped. */
export function lastNames(ids: readonly TestId[]): string[] {
  return ids.map((id) => escapeRegex(id.segments[id.segments.length - 1] ?? ""));
}

/** `--version` of the command's program: the probe of a runner that cannot cheaply load tests. */
export function versionProbe(runner: DetectedRunner): RunnerProbe {
  return { argv: [runner.command[0] ?? runner.id, "--version"], collects: false };
}
