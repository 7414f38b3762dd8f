import * as z from "zod/mini";
import {
  DEFAULT_CONFIG,
  parseConfigText,
  type Config,
  type ConfigResult,
  type Mode,
} from "../config/config.ts";
import type { CodexTrust } from "./codex-trust.ts";
import { isSkippedDir, type IgnoreRules } from "../filter/filter.ts";
import { parseHookSettings } from "./hook-groups.ts";
import { detectLanguage, type Language } from "../filter/languages.ts";
import { parseJsonObject } from "./project-files.ts";
import type { ProjectView } from "../project/project-view.ts";
import {
  detectProjectRunners,
  runnerLabel,
  type DetectedRunner,
} from "../runners/project-runners.ts";
import type { RunnerProbe } from "../runners/spec.ts";
import { specOf } from "../runners/table.ts";
import { classifyTddFile, tddPatternsFromConfig } from "../tdd/file-classes.ts";

/**
 * `tailtest doctor`: a project's health for tailtest, as checks that are ok, warn or fail. Pure:
 * the CLI lists the files and reads the texts; this decides and renders.
 */

export const DoctorStatusSchema = z.enum(["ok", "warn", "fail"]);
export type DoctorStatus = z.infer<typeof DoctorStatusSchema>;

export const DoctorCheckIdSchema = z.enum([
  "config",
  "mode",
  "runners",
  "tests",
  "hooks",
  "strict",
  "start",
]);
export type DoctorCheckId = z.infer<typeof DoctorCheckIdSchema>;

export const DoctorCheckSchema = z.object({
  id: DoctorCheckIdSchema,
  status: DoctorStatusSchema,
  /** One line. */
  summary: z.string().check(
    z.minLength(1),
    z.refine((text) => !text.includes("\n"), "one line"),
  ),
  detail: z.optional(z.array(z.string())),
});
export type DoctorCheck = z.infer<typeof DoctorCheckSchema>;

export const DoctorReportSchema = z.object({
  /** The worst status of the checks. */
  status: DoctorStatusSchema,
  checks: z.array(DoctorCheckSchema),
});
export type DoctorReport = z.infer<typeof DoctorReportSchema>;

export const DOCTOR_CONFIG_PATH = ".tailtest/config.json";

/** The most files the CLI lists; past it the test count is a lower bound. */
export const DOCTOR_FILE_CAP = 100_000;

/** Rust files read to look for inline `#[test]`s (cargo and nextest keep tests in the source). */
const INLINE_SCAN_CAP = 500;

export const DoctorPlatformSchema = z.enum(["claude-code", "cursor", "codex"]);
export type DoctorPlatform = z.infer<typeof DoctorPlatformSchema>;

interface PlatformSpec {
  id: DoctorPlatform;
  label: string;
  /** Where `tailtest-<agent> init` puts the hooks, relative to the project root. */
  files: readonly string[];
  /** A handler is tailtest's when its command contains one of these. */
  markers: readonly string[];
  /** The file the installed command runs from the project's node_modules, when it does. */
  hookFile?: string;
  packageName: string;
}

const PLATFORMS: readonly PlatformSpec[] = [
  {
    id: "claude-code",
    label: "Claude Code",
    files: [".claude/settings.json", ".claude/settings.local.json"],
    markers: ["@tailtest/claude-code", "tailtest-claude-code"],
    hookFile: "node_modules/@tailtest/claude-code/dist/hook.cjs",
    packageName: "@tailtest/claude-code",
  },
  {
    id: "cursor",
    label: "Cursor",
    files: [".cursor/hooks.json"],
    markers: ["@tailtest/cursor", "tailtest-cursor"],
    hookFile: "node_modules/@tailtest/cursor/dist/hook.cjs",
    packageName: "@tailtest/cursor",
  },
  {
    id: "codex",
    label: "Codex",
    files: [".codex/hooks.json", ".codex/config.toml"],
    markers: ["@tailtest/codex", "tailtest-codex"],
    // Codex's command walks up from the session's folder to a node_modules that has the hook,
    // which may be above the project: not checked here.
    packageName: "@tailtest/codex",
  },
];

/** Every file the hooks check reads, for the CLI to pass in (`hookTexts`). */
export const DOCTOR_HOOK_FILES: readonly string[] = PLATFORMS.flatMap((platform) => [
  ...platform.files,
]);

/** Folder names the listing never enters, at any depth. */
export const DOCTOR_SKIPPED_DIRS: ReadonlySet<string> = new Set([
  "node_modules",
  ".git",
  ".tailtest",
  "dist",
  "build",
  "target",
  ".venv",
  "venv",
  "vendor",
  "__pycache__",
]);

/**
 * True for a folder (project-relative, `/` separators) the listing does not enter: the names
 * above anywhere, plus what the filter skips (caches, tool state, root build output) and what
 * the ignore rules exclude.
 */
export function isDoctorSkippedDir(relDir: string, rules?: IgnoreRules): boolean {
  const name = relDir.split("/").at(-1) ?? relDir;
  return DOCTOR_SKIPPED_DIRS.has(name) || isSkippedDir(relDir, rules);
}

/** True for a file the ignore rules exclude (its folder was not skipped). */
export function isDoctorIgnoredFile(relPath: string, rules?: IgnoreRules): boolean {
  return rules?.matcher.ignores(relPath) === true;
}

export interface DoctorInput {
  view: ProjectView;
  /** `.tailtest/config.json`'s text; undefined when there is none. */
  configText: string | undefined;
  /** The project's files (relative, `/` separators), skipped folders and ignored files left out. */
  files: readonly string[];
  /** The listing stopped at `DOCTOR_FILE_CAP`. */
  filesTruncated?: boolean;
  /** The texts of `DOCTOR_HOOK_FILES`, by path; a missing key or undefined: no such file. */
  hookTexts: Readonly<Record<string, string | undefined>>;
  /** Those of them that are TOML, parsed by the caller (the TOML library `status` uses). */
  hookTomls?: Readonly<Record<string, ParsedToml>>;
  /** Codex's project and per-hook trust (`codex-trust.ts`), when its hooks are installed. */
  codexTrust?: CodexTrust | undefined;
}

/** A TOML file as parsed by the caller: its value, or why it could not be parsed. */
export type ParsedToml = { value: unknown } | { problem: string };

/** The checks, in a fixed order: config, mode, runners, tests, hooks, and strict in strict mode. */
export function diagnoseProject(input: DoctorInput): DoctorReport {
  const configResult: ConfigResult | undefined =
    input.configText === undefined ? undefined : parseConfigText(input.configText);
  const config = configResult?.config ?? DEFAULT_CONFIG;
  const runners = sortRunners(detectProjectRunners(input.view, 2, config.runners));
  const tests = findTestFiles(input.view, input.files, config, runners);

  const checks: DoctorCheck[] = [
    checkConfig(configResult),
    checkMode(config.mode, input.configText),
    checkRunners(runners, tests),
    checkTests(tests, input.filesTruncated === true),
    checkHooks(input.view, input.hookTexts, input.hookTomls ?? {}, input.codexTrust),
  ];
  if (config.mode === "strict") checks.push(checkStrict(tests, runners));
  return { status: worstStatus(checks), checks };
}

/** What starting one runner said (`tailtest doctor` runs the probes `runnerProbes` plans). */
export interface RunnerProbeResult {
  label: string;
  cwd: string;
  argv: readonly string[];
  /** Exit code (null: killed or could not start). */
  exitCode: number | null;
  /** Exit codes besides 0 that still mean it started (the probe's `okExits`). */
  okExits?: readonly number[] | undefined;
  /** Whether the probe loaded the project's tests (the probe's `collects`). */
  collects?: boolean | undefined;
  /** Why it could not start at all (ENOENT…), when it could not. */
  spawnError?: string;
  output: string;
  timedOut: boolean;
}

/** The command that shows a runner starts and, where cheap, loads the project's tests. */
export function runnerProbe(runner: DetectedRunner): RunnerProbe {
  return specOf(runner.id).probe(runner);
}

/**
 * The runner-start check: every runner must start, and pytest must load the project's tests (a
 * wrong interpreter fails here, in one line, instead of at every end of a turn).
 */
export function checkRunnerStarts(results: readonly RunnerProbeResult[]): DoctorCheck {
  const failures: string[] = [];
  for (const result of results) {
    const where = result.cwd === "" ? "" : ` in ${result.cwd}/`;
    if (result.spawnError !== undefined) {
      failures.push(
        `${result.label}${where} cannot start: ${result.argv[0] ?? ""} (${result.spawnError})`,
      );
      continue;
    }
    if (result.timedOut) {
      failures.push(`${result.label}${where} did not answer in time: ${result.argv.join(" ")}`);
      continue;
    }
    // pytest: 0 collected, 5 nothing to collect; anything else is a start or import failure.
    const ok =
      result.exitCode === 0 ||
      (result.exitCode !== null && (result.okExits ?? []).includes(result.exitCode));
    if (ok) continue;
    const cause =
      result.output
        .split("\n")
        .map((line) => line.trim())
        .find((line) => /^E\s+\S|Error:|No module named|not found|cannot find/i.test(line)) ??
      `exit ${String(result.exitCode)}`;
    failures.push(
      `${result.label}${where} cannot start or load the tests: ${cause.replace(/^E\s+/, "").slice(0, 200)}`,
    );
  }
  if (results.length === 0) return check("start", "warn", "no runner to start");
  if (failures.length > 0)
    return check("start", "fail", failures[0] ?? "a runner cannot start", failures.slice(1));
  return check(
    "start",
    "ok",
    `${results.map((result) => result.label).join(", ")} started${collected(results)}`,
  );
}

/** " (pytest collected the tests)": the runners whose probe loaded the project's tests. */
function collected(results: readonly RunnerProbeResult[]): string {
  const labels = [...new Set(results.filter((r) => r.collects === true).map((r) => r.label))];
  return labels.length === 0 ? "" : ` (${labels.join(", ")} collected the tests)`;
}

/** 1 when a check failed, else 0. */
export function doctorExitCode(report: DoctorReport): number {
  return report.checks.some((check) => check.status === "fail") ? 1 : 0;
}

const STATUS_WIDTH = 6;
const ID_WIDTH = 10;

/** One line per check (`ok    runners   vitest (.)`), its detail lines indented below it. */
export function renderDoctorReport(report: DoctorReport): string {
  const indent = " ".repeat(STATUS_WIDTH + ID_WIDTH);
  const lines = report.checks.flatMap((check) => [
    `${check.status.padEnd(STATUS_WIDTH)}${check.id.padEnd(ID_WIDTH)}${check.summary}`,
    ...(check.detail ?? []).map((line) => `${indent}${line}`),
  ]);
  return `${lines.join("\n")}\n`;
}

const STATUS_RANK: Readonly<Record<DoctorStatus, number>> = { ok: 0, warn: 1, fail: 2 };

function worstStatus(checks: readonly DoctorCheck[]): DoctorStatus {
  let worst: DoctorStatus = "ok";
  for (const check of checks) {
    if (STATUS_RANK[check.status] > STATUS_RANK[worst]) worst = check.status;
  }
  return worst;
}

function check(
  id: DoctorCheckId,
  status: DoctorStatus,
  summary: string,
  detail: readonly string[] = [],
): DoctorCheck {
  return { id, status, summary, ...(detail.length > 0 ? { detail: [...detail] } : {}) };
}

// ---------------------------------------------------------------------------------------------
// config, mode

/** config.ts's lines start with `tailtest: `, which the report's layout already says. */
function withoutPrefix(line: string): string {
  return line.replace(/^tailtest: /, "");
}

function checkConfig(result: ConfigResult | undefined): DoctorCheck {
  if (result === undefined) {
    return check("config", "ok", `no ${DOCTOR_CONFIG_PATH}: tailtest uses the defaults`);
  }
  const problems = [...(result.ok ? [] : result.errors), ...result.warnings].map(withoutPrefix);
  const [first, ...rest] = problems;
  if (first === undefined) return check("config", "ok", `${DOCTOR_CONFIG_PATH} is valid`);
  return check("config", result.ok ? "warn" : "fail", first, rest);
}

const MODE_TEXT: Readonly<Record<Mode, string>> = {
  follow: "tests follow each edit and run at the end of the turn",
  tdd: "Red → Green → Refactor: production edits wait for a failing test",
  strict: "every production edit must advance a claimed failing test",
};

function checkMode(mode: Mode, configText: string | undefined): DoctorCheck {
  const json = parseJsonObject(configText);
  const fromConfig = json.ok && json.value["mode"] === mode;
  const source = fromConfig ? `set in ${DOCTOR_CONFIG_PATH}` : "the default";
  return check("mode", "ok", `${mode} (${source}): ${MODE_TEXT[mode]}`);
}

// ---------------------------------------------------------------------------------------------
// runners, tests

/** The root's runners first, then by package folder; the runner table's order within one. */
function sortRunners(runners: readonly DetectedRunner[]): DetectedRunner[] {
  return [...runners].sort((a, b) => compareText(a.package_dir, b.package_dir));
}

function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function packageLabel(dir: string): string {
  return dir === "" ? "." : `${dir}/`;
}

function runnerSummary(runner: DetectedRunner): string {
  return `${runnerLabel(runner.id)} (${packageLabel(runner.package_dir)})`;
}

interface TestFiles {
  /** Sorted project-relative paths. */
  paths: string[];
  languages: Map<string, Language>;
}

function findTestFiles(
  view: ProjectView,
  files: readonly string[],
  config: Config,
  runners: readonly DetectedRunner[],
): TestFiles {
  const patterns = tddPatternsFromConfig(config);
  const inline = runners.some((runner) => specOf(runner.id).inline === true);
  const languages = new Map<string, Language>();
  let inlineReads = 0;
  for (const raw of files) {
    const path = raw.replace(/\\/g, "/").replace(/^\.\//, "");
    const language = detectLanguage(path);
    if (language === undefined || languages.has(path) || isTestSupport(path)) continue;
    const fileClass = classifyTddFile(path, patterns);
    if (fileClass === "test" || fileClass === "e2e_test") {
      languages.set(path, language);
    } else if (inline && language === "rust" && inlineReads < INLINE_SCAN_CAP) {
      inlineReads += 1;
      if (/#\[(test|cfg\(test\))\]/.test(view.readText(path) ?? "")) languages.set(path, language);
    }
  }
  return { paths: [...languages.keys()].sort(compareText), languages };
}

/**
 * Files that sit among the tests and match test patterns, but hold no test: pytest's
 * `conftest.py` (fixtures and hooks), a tests package's `__init__.py`, a JS runner's setup file.
 * Counted as tests they would make a project without a single test look tested.
 */
const TEST_SUPPORT = [
  /^conftest\.py$/,
  /^__init__\.py$/,
  /^(setupTests|(vitest|jest|test)[.-]setup)\.[cm]?[jt]sx?$/,
];

function isTestSupport(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return TEST_SUPPORT.some((pattern) => pattern.test(name));
}

/** A test file's top folder (`tests/`), or `./` for files at the root. */
function topFolder(path: string): string {
  const slash = path.indexOf("/");
  return slash === -1 ? "./" : `${path.slice(0, slash)}/`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function checkRunners(runners: readonly DetectedRunner[], tests: TestFiles): DoctorCheck {
  if (runners.length === 0) {
    const python = [...tests.languages.values()].includes("python");
    return check("runners", "warn", "no test runner detected", [
      "tailtest looks for a manifest (package.json, pyproject.toml, pytest.ini, go.mod, Cargo.toml, Gemfile, …) at the root and up to two folders down",
      ...(python ? ["Python tests fall back to the standard library's unittest"] : []),
    ]);
  }
  return check(
    "runners",
    "ok",
    runners.map(runnerSummary).join(", "),
    runners.map(
      (runner) => `${runnerSummary(runner)}: ${runner.command.join(" ")} (${runner.evidence})`,
    ),
  );
}

const MAX_FOLDERS_IN_SUMMARY = 6;

function checkTests(tests: TestFiles, truncated: boolean): DoctorCheck {
  const cut = truncated
    ? [`the listing stopped after ${DOCTOR_FILE_CAP} files: there may be more`]
    : [];
  if (tests.paths.length === 0) {
    return check("tests", "warn", "no test files found", [
      "looked for test files by name (test_*.py, *.test.ts, *_test.go, *Test.java, …) and in test folders (tests/, test/, spec/, __tests__/)",
      ...cut,
    ]);
  }
  const counts = new Map<string, number>();
  for (const path of tests.paths) {
    const folder = topFolder(path);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  const folders = [...counts.keys()].sort(compareText);
  const shown = folders.slice(0, MAX_FOLDERS_IN_SUMMARY);
  const more =
    folders.length > shown.length ? ` and ${folders.length - shown.length} more folders` : "";
  return check(
    "tests",
    "ok",
    `${plural(tests.paths.length, "test file")} in ${shown.join(", ")}${more}`,
    [
      ...folders.map((folder) => `${folder}: ${plural(counts.get(folder) ?? 0, "test file")}`),
      ...cut,
    ],
  );
}

// ---------------------------------------------------------------------------------------------
// hooks

/** What every hook command `init` writes passes (the launcher's `EVENT_FLAG`). */
const EVENT_FLAG = "--event=";

interface HookFileFinding {
  path: string;
  /** How many events run tailtest (undefined: installed, not counted, as in TOML). */
  events: number | undefined;
  installed: boolean;
  /** The file's commands run the hook from the project's node_modules. */
  usesLocalHook: boolean;
  problem?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The commands of one event's entries: Cursor's handlers, or Claude's and Codex's groups. */
function commandsOf(entries: unknown): string[] {
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry: unknown) => {
    if (!isRecord(entry)) return [];
    const own = typeof entry["command"] === "string" ? [entry["command"]] : [];
    return [...own, ...commandsOf(entry["hooks"])];
  });
}

function inspectJsonHooks(platform: PlatformSpec, path: string, text: string): HookFileFinding {
  const parsed = platform.id === "cursor" ? parseJsonObject(text) : parseHookSettings(text);
  if (!parsed.ok) {
    const problem = `${path} ${parsed.error}`;
    return { path, events: 0, installed: false, usesLocalHook: false, problem };
  }
  return inspectHooksTable(platform, path, parsed.value["hooks"]);
}

/** A parsed `hooks` table (JSON or TOML): event name to its groups or handlers. */
function inspectHooksTable(platform: PlatformSpec, path: string, hooks: unknown): HookFileFinding {
  const ours = Object.values(isRecord(hooks) ? hooks : {}).map((entries) =>
    commandsOf(entries).filter((command) =>
      platform.markers.some((marker) => command.includes(marker)),
    ),
  );
  const events = ours.filter((commands) => commands.length > 0).length;
  const hookFile = platform.hookFile;
  const usesLocalHook =
    hookFile !== undefined && ours.some((commands) => commands.some((c) => c.includes(hookFile)));
  // Since every command names its event, an empty stdin still gets that event's answer; an
  // older install's commands do not, and `init` rewrites them.
  const unnamed = ours.some((commands) => commands.some((c) => !c.includes(EVENT_FLAG)));
  const problem = unnamed
    ? `${path} has hook commands that do not name their event (an older install): re-run npx tailtest-${platform.id} init`
    : undefined;
  return {
    path,
    events,
    installed: events > 0,
    usesLocalHook,
    ...(problem === undefined ? {} : { problem }),
  };
}

/**
 * One hooks file. A TOML file is read from the caller's parse (the library `status` reads Codex's
 * config with), so every way TOML can write a `hooks` table (`[hooks]`, `[[hooks.Stop]]`, dotted
 * keys, inline tables) counts, and a comment that names the package does not.
 */
function inspectHookFile(
  platform: PlatformSpec,
  path: string,
  text: string,
  toml: ParsedToml | undefined,
): HookFileFinding {
  if (!path.endsWith(".toml")) return inspectJsonHooks(platform, path, text);
  if (toml === undefined || "problem" in toml) {
    const problem = `${path} ${toml?.problem ?? "was not parsed"}`;
    return { path, events: 0, installed: false, usesLocalHook: false, problem };
  }
  const hooks = isRecord(toml.value) ? toml.value["hooks"] : undefined;
  return inspectHooksTable(platform, path, hooks);
}

interface PlatformFinding {
  platform: PlatformSpec;
  installed: boolean;
  /** The files that hold tailtest's hooks. */
  files: string[];
  lines: string[];
  problems: string[];
  /** Something an installed platform needs is wrong, or a file is unreadable. */
  problem: boolean;
}

function describeInstalled(findings: readonly HookFileFinding[]): string {
  return findings
    .filter((finding) => finding.installed)
    .map((finding) =>
      finding.events === undefined
        ? finding.path
        : `${finding.path} (${plural(finding.events, "event")})`,
    )
    .join(", ");
}

function inspectPlatform(
  view: ProjectView,
  platform: PlatformSpec,
  texts: Readonly<Record<string, string | undefined>>,
  tomls: Readonly<Record<string, ParsedToml>>,
): PlatformFinding {
  const findings = platform.files.flatMap((path) => {
    const text = texts[path];
    return text === undefined ? [] : [inspectHookFile(platform, path, text, tomls[path])];
  });
  const installed = findings.some((finding) => finding.installed);
  const problems = findings.flatMap((finding) =>
    finding.problem === undefined ? [] : [`${platform.label}: ${finding.problem}`],
  );
  const lines: string[] = [];
  if (installed) {
    lines.push(`${platform.label}: installed in ${describeInstalled(findings)}`);
  } else if (findings.length === 0) {
    lines.push(`${platform.label}: not installed (no ${platform.files.join(" or ")})`);
  } else {
    const seen = findings.map((finding) => finding.path).join(", ");
    lines.push(`${platform.label}: not installed (no tailtest hooks in ${seen})`);
  }
  const hookFile = platform.hookFile;
  const missingHook =
    hookFile !== undefined &&
    findings.some((finding) => finding.usesLocalHook) &&
    !view.exists(hookFile);
  if (missingHook) {
    problems.push(
      `${platform.label}: the hooks run ${hookFile}, which is missing: npm i -D ${platform.packageName}`,
    );
  }
  lines.push(...problems);
  const files = findings.filter((finding) => finding.installed).map((finding) => finding.path);
  return { platform, installed, files, lines, problems, problem: problems.length > 0 };
}

/** Which platforms' hooks are installed in a project, where, and what is wrong with them. */
export const HookInstallSchema = z.object({
  platform: DoctorPlatformSchema,
  label: z.string(),
  installed: z.boolean(),
  /** Project-relative files holding tailtest's hooks. */
  files: z.array(z.string()),
  /** One line each: an unreadable hooks file, a hook that runs a missing file. */
  problems: z.array(z.string()),
});
export type HookInstall = z.infer<typeof HookInstallSchema>;

/**
 * The hooks check's findings per platform (Claude Code, Cursor, Codex), for `tailtest status`:
 * `texts` holds `DOCTOR_HOOK_FILES` by path, as for `diagnoseProject`.
 */
export function findHookInstalls(
  view: ProjectView,
  texts: Readonly<Record<string, string | undefined>>,
  tomls: Readonly<Record<string, ParsedToml>> = {},
): HookInstall[] {
  return PLATFORMS.map((platform) => {
    const finding = inspectPlatform(view, platform, texts, tomls);
    return {
      platform: platform.id,
      label: platform.label,
      installed: finding.installed,
      files: finding.files,
      problems: finding.problems,
    };
  });
}

function checkHooks(
  view: ProjectView,
  texts: Readonly<Record<string, string | undefined>>,
  tomls: Readonly<Record<string, ParsedToml>>,
  codexTrust: CodexTrust | undefined,
): DoctorCheck {
  const findings = PLATFORMS.map((platform) => inspectPlatform(view, platform, texts, tomls));
  // Codex runs a project's hooks only once the project and each hook are trusted (codex-trust.ts).
  const codex = findings.find((finding) => finding.platform.id === "codex");
  if (codex?.installed === true && codexTrust?.pending === true) {
    codex.problem = true;
    const trustLines = codexTrust.lines.map((line) => `Codex: ${line}`);
    codex.lines.push(...trustLines);
    codex.problems.push(...trustLines);
  }
  const lines = findings.flatMap((finding) => finding.lines);
  const installed = findings.filter((finding) => finding.installed).map((f) => f.platform.label);
  const missing = findings.filter((finding) => !finding.installed).map((f) => f.platform.label);
  if (installed.length === 0) {
    return check(
      "hooks",
      "warn",
      "no agent's hooks are installed: run npx tailtest-claude-code init (or -cursor, -codex)",
      [...lines, "(a Claude Code plugin loaded with --plugin-dir is not visible here)"],
    );
  }
  const status = findings.some((finding) => finding.problem) ? "warn" : "ok";
  const notFor = missing.length === 0 ? "" : `; not for ${missing.join(", ")}`;
  return check("hooks", status, `installed for ${installed.join(", ")}${notFor}`, lines);
}

// ---------------------------------------------------------------------------------------------
// strict

const REFACTOR_PROPOSAL =
  "write a first test, or run `tailtest refactor start` to work without the per-edit gate (the verify command must pass before the turn ends)";

function checkStrict(tests: TestFiles, runners: readonly DetectedRunner[]): DoctorCheck {
  if (tests.paths.length === 0) {
    return check("strict", "fail", "strict mode on a project without tests locks every edit out", [
      REFACTOR_PROPOSAL,
    ]);
  }
  // Python always has a runner: the standard library's unittest when nothing names pytest.
  const covered = new Set<Language>(["python", ...runners.flatMap((runner) => runner.languages)]);
  const uncovered = new Map<Language, number>();
  for (const language of tests.languages.values()) {
    if (!covered.has(language)) uncovered.set(language, (uncovered.get(language) ?? 0) + 1);
  }
  const uncoveredLines = [...uncovered.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([language, count]) => `no runner for ${plural(count, `${language} test file`)}`);
  const runnable = tests.paths.length - [...uncovered.values()].reduce((a, b) => a + b, 0);
  if (runnable === 0) {
    return check(
      "strict",
      "fail",
      `strict mode with ${plural(tests.paths.length, "test file")} that no runner can run locks every edit out`,
      [
        ...uncoveredLines,
        "configure a runner (a test script in package.json, pytest in pyproject.toml, …), or run `tailtest refactor start` to work without the per-edit gate (the verify command must pass before the turn ends)",
      ],
    );
  }
  return check(
    "strict",
    "ok",
    `strict mode can gate edits: ${plural(runnable, "test file")} a runner can run`,
    uncoveredLines,
  );
}
