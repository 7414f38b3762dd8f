import {
  closeSync,
  existsSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import {
  parseConfigText,
  DEFAULT_CONFIG,
  ModeSchema,
  type Config,
  type Mode,
} from "../../config/config.ts";
import { findRoot } from "../../hook/node/launcher.ts";
import { decideDepth, type DepthDecision } from "../../config/complexity.ts";
import {
  buildIgnoreRules,
  classifyFile,
  type FileVerdict,
  type IgnoreRules,
} from "../../filter/filter.ts";
import { moduleShape } from "../../filter/module-shape.ts";
import { goBuildNamesVersion, goModVersion } from "../../filter/go-build.ts";
import { writtenLanguage } from "../../filter/languages.ts";
import { HistoryFileSchema, emptyHistory, type HistoryFile } from "../../state/history-state.ts";
import { renderQueuedNote, type Covering } from "../../notes/notes.ts";
import type { ProjectView } from "../project-view.ts";
import {
  dotenvLanguage,
  pythonDotenv,
  pythonTemplate,
  templateLanguage,
  testDataLanguage,
} from "../test-data.ts";
import { doctestPageLanguage } from "../../runners/doctest-pages.ts";
import {
  mayBeRunnerConfig,
  packageJsonRunner,
  runnerConfigOwner,
} from "../../runners/runner-config.ts";
import {
  detectProjectRunners,
  findTestTarget,
  isPackageDir,
  resolveRunner,
  type DetectedRunner,
  type TestNameMemo,
  type TestTarget,
} from "../../runners/project-runners.ts";
import {
  createSession,
  foldJournalLine,
  makeSessionId,
  SessionHotSchema,
  SessionStateSchema,
  type PendingFile,
  type PendingStatus,
  type QueuedEdit as JournalEdit,
  type SessionState,
} from "../../state/session.ts";
import { createFsView, readHead } from "./fs-view.ts";
import { indexTracks } from "./git-index.ts";
import {
  appendState,
  type Journal,
  type Recovery,
  type StateFile,
} from "../../state/node/store.ts";

export const STATE_DIR = ".tailtest";
/** Where a session lives unless the platform keeps it elsewhere (Cursor: `CURSOR_SESSION_PATH`). */
export const DEFAULT_SESSION_PATH = `${STATE_DIR}/session.json`;
/**
 * Cursor's session file, apart from Claude Code's and Codex's (Cursor also runs their hooks).
 * Under .tailtest/ like all of tailtest's state: a user-level install adds nothing else to a
 * project, and the file is ignored and protected with the rest.
 */
export const CURSOR_SESSION_PATH = `${STATE_DIR}/cursor-session.json`;
/** Where Cursor's session lived before: moved to CURSOR_SESSION_PATH on the next open. */
export const LEGACY_CURSOR_SESSION_PATH = ".cursor/hooks/state/tailtest.json";
/** Every place a session may live, for commands that read whichever agents have one. */
export const SESSION_PATHS: readonly string[] = [DEFAULT_SESSION_PATH, CURSOR_SESSION_PATH];

/** Everything a hook needs to know about a project, read once per process. */
export interface Project {
  root: string;
  view: ProjectView;
  config: Config;
  /** One-line config problems; hooks run on defaults for those fields and say so once. */
  configProblems: string[];
  /**
   * Set when the config file exists but does not say which mode the project is in (it cannot
   * be read, is not JSON, or its `mode` is not a mode): the hooks keep the mode the session
   * started in rather than fall back to follow (`settleMode` in handle-event.ts).
   */
  modeUnsure?: string;
  ignoreRules: IgnoreRules;
  /** Project-relative path of this platform's session file. */
  sessionPath: string;
  /**
   * Kept answers of the test name search (`runners/node/test-names.ts`): set by a post-edit
   * note's caller only; everything else searches the disk.
   */
  testNames?: TestNameMemo;
}

export interface OpenOptions {
  /** Project-relative session file; `.tailtest/session.json` unless the platform says otherwise. */
  sessionPath?: string;
}

export function openProject(root: string, options: OpenOptions = {}): Project {
  const absRoot = checkedRoot(root);
  adoptLegacyCursorSession(absRoot);
  const view = createFsView(absRoot);
  const read = readConfigFile(absRoot);
  const parsed = read.text === undefined ? undefined : parseConfigText(read.text);
  const config = parsed?.config ?? DEFAULT_CONFIG;
  let configProblems: string[] = [];
  if (read.error !== undefined)
    configProblems = [
      `tailtest: ${STATE_DIR}/config.json cannot be read (${read.error}); using defaults.`,
    ];
  if (parsed !== undefined)
    configProblems = parsed.ok ? parsed.warnings : [...parsed.errors, ...parsed.warnings];
  const modeUnsure = read.error ?? (read.text === undefined ? undefined : unsureMode(read.text));
  const ignoreRules = buildIgnoreRules({
    gitignore: view.readText(".gitignore"),
    tailtestIgnore: view.readText(".tailtest-ignore"),
  });
  return {
    root: absRoot,
    view,
    config,
    configProblems,
    ...(modeUnsure === undefined ? {} : { modeUnsure }),
    ignoreRules,
    sessionPath: options.sessionPath ?? DEFAULT_SESSION_PATH,
  };
}

/**
 * Moves a Cursor session from where earlier versions kept it (`.cursor/hooks/state/`) into
 * .tailtest/, silently: a hard link, then the old name goes, so a session already at the new
 * place is never overwritten and two hooks doing this at once both end with the one file. Costs
 * one failing system call in a project without the old file. Any other failure leaves the old
 * file where it is (its session is lost to the hooks, never its data).
 */
export function adoptLegacyCursorSession(root: string): void {
  const from = join(root, LEGACY_CURSOR_SESSION_PATH);
  const to = join(root, CURSOR_SESSION_PATH);
  // Nearly always nothing to adopt: asked first, since a failed link builds an exception.
  if (!existsSync(from)) return;
  try {
    linkSync(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || !existsSync(from)) return;
    try {
      // The old file is there and .tailtest/ is not (Cursor without a config): make it, again.
      if (code === "ENOENT") mkdirSync(join(root, STATE_DIR), { recursive: true });
      linkSync(from, to);
    } catch (again) {
      // A file system without hard links: a rename, unless a session is already there.
      const code2 = (again as NodeJS.ErrnoException).code;
      if (code2 === "EEXIST" || code2 === "ENOENT" || existsSync(to)) return;
      try {
        renameSync(from, to);
      } catch {
        // Left where it is.
      }
      return;
    }
  }
  try {
    unlinkSync(from);
  } catch {
    // Already gone (another hook moved it): the new file is the session either way.
  }
}

/**
 * The project folder a hook was given, which must be an absolute path to a folder that exists:
 * a payload naming anything else is refused here, before any state folder could be created
 * (`mkdir -p` would otherwise make `.tailtest/` wherever a payload pointed).
 */
function checkedRoot(root: string): string {
  if (!isAbsolute(root)) throw new Error("the project folder is not an absolute path");
  let folder: boolean;
  try {
    folder = statSync(root).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      `the project folder cannot be used (${typeof code === "string" ? code : "error"})`,
      { cause: error },
    );
  }
  if (!folder) throw new Error("the project folder is not a folder");
  return resolve(root);
}

/** A config file larger than this is not a config (and is not read whole into a hook). */
const CONFIG_CAP = 1024 * 1024;

/** The config file's text, nothing when there is none, or why it cannot be read. */
function readConfigFile(root: string): { text?: string; error?: string } {
  let fd: number | undefined;
  try {
    fd = openSync(join(root, STATE_DIR, "config.json"), "r");
    if (fstatSync(fd).size > CONFIG_CAP) return { error: "larger than 1 MiB" };
    return { text: readFileSync(fd, "utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return {};
    return { error: typeof code === "string" ? code : "an unknown error" };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Why a readable config does not settle the mode, or nothing when it does. */
function unsureMode(text: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return "not valid JSON";
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return "not an object";
  const mode = (json as Record<string, unknown>)["mode"];
  if (mode === undefined) return undefined;
  return ModeSchema.safeParse(mode).success ? undefined : `"mode" is ${JSON.stringify(mode)}`;
}

/**
 * The project a hook call belongs to when the platform gives only a working directory (Codex):
 * the nearest folder above `cwd` holding `.tailtest/`, else the nearest git work tree root, else
 * `cwd` itself.
 */
export function findProjectRoot(cwd: string): string {
  // One walk for the hooks' launcher (which loads nothing but node) and the rest of core.
  return findRoot(cwd);
}

export function sessionFile(
  project: Project,
  now: () => Date = () => new Date(),
): StateFile<SessionState> {
  // A missing session is created by a read and again under the lock: the runners, which take a
  // look at every folder near the root, are detected once.
  let runners: DetectedRunner[] | undefined;
  const path = join(project.root, project.sessionPath);
  return {
    path,
    schema: SessionStateSchema,
    hotSchema: SessionHotSchema,
    journal: sessionJournal(path),
    create: () =>
      createSession({
        sessionId: makeSessionId(now(), Math.random),
        now: now().toISOString(),
        depth: project.config.depth,
        mode: project.config.mode,
        runners: [...(runners ??= detectProjectRunners(project.view, 2, project.config.runners))],
      }),
  };
}

/** Where a session file's journal lives: `session.json` → `session.edits.jsonl`. */
export function journalPathOf(sessionPath: string): string {
  const stem = sessionPath.endsWith(".json") ? sessionPath.slice(0, -".json".length) : sessionPath;
  return `${stem}.edits.jsonl`;
}

/**
 * The journal of a session file's queued edits (`session.edits.jsonl` beside `session.json`): an
 * edit is one appended line, folded into the session by its readers (ADR 0010).
 */
export function sessionJournal(sessionPath: string): Journal<SessionState> {
  return {
    path: journalPathOf(sessionPath),
    cursor: (session) => session.journal,
    withCursor: (session, cursor) => ({ ...session, journal: cursor }),
    fold: foldJournalLine,
  };
}

export function historyFile(project: Project): StateFile<HistoryFile> {
  return {
    path: join(project.root, STATE_DIR, "history.json"),
    schema: HistoryFileSchema,
    create: emptyHistory,
  };
}

/** What tailtest makes of one edited file, before anything is written. */
export interface EditInsight {
  /** Project-relative path with `/` separators (the input when it lies outside). */
  path: string;
  verdict: FileVerdict;
  status?: PendingStatus;
  runner?: DetectedRunner;
  runnerReason?: string;
  target?: TestTarget;
  depth?: DepthDecision;
  /** Lines the optional analyses add to the agent's note (`analysis/node/run-analyses.ts`). */
  notes?: readonly string[];
  /** A test or test support file: queued to be run at the end of the turn, with no note. */
  runOnly?: boolean;
  /** The existing tests related to it (selection), when the import graph is known. */
  covering?: Covering;
  /** The import graph would say which tests cover it but is not whole yet (`covering.ts`). */
  coveringUnknown?: boolean;
}

/**
 * The mode a project is in, for a hook whose own handling failed: what `openProject` reads or,
 * when the config exists but does not say the mode, the mode the session started in (as
 * handle-event.ts's `settleMode`); else the config file read on its own, else follow.
 */
export function configuredMode(root: string, options: OpenOptions = {}): Mode {
  try {
    const project = openProject(root, options);
    const session = sessionModeOf(join(project.root, project.sessionPath));
    if (project.modeUnsure !== undefined) return session ?? project.config.mode;
    // The session's mode is pinned (mode-pin.ts): a weaker config does not lower it.
    return session !== undefined && STRENGTH[session] > STRENGTH[project.config.mode]
      ? session
      : project.config.mode;
  } catch {
    try {
      return parseConfigText(readFileSync(join(root, STATE_DIR, "config.json"), "utf8")).config
        .mode;
    } catch {
      return "follow";
    }
  }
}

const STRENGTH: Readonly<Record<Mode, number>> = { follow: 0, tdd: 1, strict: 2 };

/** The mode a session file records, if it can be read. */
export function sessionModeOf(path: string): Mode | undefined {
  try {
    const json = JSON.parse(readFileSync(path, "utf8")) as { mode?: unknown } | null;
    const mode = ModeSchema.safeParse(json?.mode);
    return mode.success ? mode.data : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves a path an agent reported (absolute or relative to the root) to a project path. */
export function toProjectPath(project: Project, file: string): string | undefined {
  const abs = isAbsolute(file) ? file : join(project.root, file);
  let rel = relative(project.root, abs);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  try {
    // A symlink inside the project that points outside it is treated as outside. The native
    // realpath: one system call, where node's JavaScript one asks lstat of every folder up to the
    // root, and is compiled on first use in every hook (ADR 0010).
    const real = realpathSync.native(abs);
    const realRoot = realpathSync.native(project.root);
    const realRel = relative(realRoot, real);
    if (realRel.startsWith("..") || isAbsolute(realRel)) return undefined;
  } catch {
    // A file that no longer exists (deleted, or a dry run) keeps its lexical path.
  }
  rel = rel.split(sep).join("/");
  return rel;
}

const HEAD_BYTES = 8192;

/**
 * Files not worth a new test that the project may still test: an edit to one runs the tests
 * related to it at the end of the turn (none: nothing runs), and the agent is asked for nothing.
 */
const RUN_IF_TESTED: ReadonlySet<string> = new Set([
  "test",
  "test-support",
  "example",
  "script",
  "benchmark",
  "type-only",
  "re-export",
  // Code the filter files elsewhere: a locale table, settings, a migration, a story, generated
  // code. A test that loads it still says whether the change broke something.
  "asset",
  "config",
  "migration",
  "story",
  "generated",
]);

/** Kinds a file with no language of its own gets, run as test data inside a test folder. */
const TEST_DATA_KINDS: ReadonlySet<string> = new Set(["config", "docs", "asset", "unsupported"]);

/**
 * A file deeper than this is not looked at: each check walks the folders above it, so a path of
 * thousands of folders (a payload may name one) would cost seconds. No real project nests so.
 */
export const MAX_PATH_SEGMENTS = 128;

/**
 * A file not queued that the end of the turn still runs tests for (`runOnly`), or just its
 * verdict. An edited test (or conftest, helper) is run: a test broken in this turn must not end
 * it green. So is a test folder's data file (a JSON or text fixture: the tests beside it load
 * it), a Python project's template or `.env` (the tests of the modules that read it), a page
 * pytest runs as doctests (a test itself), and a runner's own config (`pytest.ini`,
 * `vitest.config.ts`: its suite's tests, as far as the time budget goes).
 */
function runOnlyInsight(
  project: Project,
  rel: string,
  verdict: Extract<FileVerdict, { queue: false }>,
): EditInsight {
  const owner =
    verdict.kind === "config" || mayBeRunnerConfig(rel)
      ? (runnerConfigOwner(project.view, rel, project.config.runners) ??
        packageJsonRunner(project.view, rel, project.config.runners))
      : undefined;
  if (owner !== undefined) return runOnlyEdit(rel, verdict, owner);
  // A .env is usually gitignored, yet the checkout's settings module reads it all the same.
  if (verdict.rule === "gitignore" && pythonDotenv(project.view, rel))
    return readersEdit(project, rel, verdict);
  const language =
    verdict.language ??
    (TEST_DATA_KINDS.has(verdict.kind)
      ? (testDataLanguage(project.view, rel) ??
        doctestPageLanguage(project.view, rel, project.config.runners) ??
        templateLanguage(project.view, rel) ??
        dotenvLanguage(project.view, rel))
      : undefined);
  if ((RUN_IF_TESTED.has(verdict.kind) || TEST_DATA_KINDS.has(verdict.kind)) && language) {
    const runner = resolveRunner(project.view, rel, language, project.config.runners);
    if (runner.runner !== undefined)
      return runOnlyEdit(
        rel,
        { ...verdict, language, reason: runOnlyReason(project, rel, verdict) },
        runner.runner,
      );
  }
  return { path: rel, verdict };
}

/**
 * Why a file is run, not queued: the filter's reason, except for a Python package's template,
 * which the filter, reading only the extension, calls "an asset or data file" (`explain` said
 * so of `app/templates/index.html`, whose tests are those of the views rendering it).
 */
function runOnlyReason(
  project: Project,
  rel: string,
  verdict: Extract<FileVerdict, { queue: false }>,
): string {
  if (verdict.language !== undefined || testDataLanguage(project.view, rel) !== undefined)
    return verdict.reason;
  const template = pythonTemplate(project.view, rel);
  return template === undefined
    ? verdict.reason
    : `a template, rendered by name (${template.name}) from ${template.root}/`;
}

/** A gitignored dotenv file a Python project reads: run with the tests of its readers. */
function readersEdit(
  project: Project,
  rel: string,
  verdict: Extract<FileVerdict, { queue: false }>,
): EditInsight {
  const runner = resolveRunner(project.view, rel, "python", project.config.runners).runner;
  if (runner === undefined) return { path: rel, verdict };
  return runOnlyEdit(rel, { ...verdict, language: "python" }, runner);
}

/**
 * A file queued only to run the tests that reach it, in `runner`'s language when the file has
 * none of its own (a config, a data file): no test is asked of it.
 */
export function runOnlyEdit(
  rel: string,
  verdict: FileVerdict,
  runner: DetectedRunner,
): EditInsight {
  const language = verdict.language ?? runner.languages[0];
  return {
    path: rel,
    verdict: verdict.queue
      ? verdict
      : { ...verdict, ...(language === undefined ? {} : { language }) },
    status: "existing",
    runner,
    runOnly: true,
  };
}

export function inspectEdit(
  project: Project,
  file: string,
  options: { status?: PendingStatus } = {},
): EditInsight {
  const rel = toProjectPath(project, file);
  if (rel === undefined) {
    return {
      path: file,
      verdict: { queue: false, kind: "outside", reason: "outside the project", rule: "outside" },
    };
  }
  if (rel.split("/").length > MAX_PATH_SEGMENTS) {
    const reason = `more than ${MAX_PATH_SEGMENTS} folders deep, not checked`;
    return { path: rel, verdict: { queue: false, kind: "unsupported", reason, rule: "too-deep" } };
  }
  const head = readHead(join(project.root, rel), HEAD_BYTES);
  // A head shorter than the bytes asked for is the whole file (UTF-8 decoding never lengthens).
  const headComplete = head !== undefined && Buffer.byteLength(head) < HEAD_BYTES;
  const context = {
    ignoreRules: project.ignoreRules,
    head,
    headComplete,
    packageDirs: detectPackageDirsOf(project, rel),
    extraTestPatterns: project.config.file_classes.test,
    productionPatterns: project.config.file_classes.production,
    exemptPatterns: project.config.file_classes.exempt,
    goVersion: goVersionFor(project.view, rel, head),
  };
  let verdict = classifyFile(rel, context);
  // A .gitignore pattern leaves a file git tracks alone: asked only when one matched.
  if (verdict.rule === "gitignore" && gitStatusOf(project.root, rel) === "existing")
    verdict = classifyFile(rel, { ...context, tracked: true });
  if (!verdict.queue) return runOnlyInsight(project, rel, verdict);
  const resolution = resolveRunner(project.view, rel, verdict.language, project.config.runners);
  const status = options.status ?? gitStatusOf(project.root, rel);
  // Only the project's own rules queue a file with no runtime code; its depth asks for nothing.
  const forced = verdict.rule !== "source";
  const shape = forced ? moduleShape(rel, verdict.language, head ?? "", headComplete) : undefined;
  const depth = decideDepth(project.config.depth, rel, head ?? "", verdict.language, {
    runtimeCode: shape === undefined || shape === "runtime",
  });
  const insight: EditInsight = {
    path: rel,
    verdict,
    status,
    runnerReason: resolution.reason,
    depth,
  };
  if (resolution.runner !== undefined) {
    insight.runner = resolution.runner;
    insight.target = findTestTarget(project.view, resolution.runner, rel, project.testNames);
  }
  return insight;
}

/**
 * The `go` line of the go.mod above a Go file whose build constraint names a Go version (read
 * only then: most files have none), so the filter can tell a file no allowed toolchain builds.
 */
function goVersionFor(
  view: ProjectView,
  rel: string,
  head: string | undefined,
): string | undefined {
  if (!rel.endsWith(".go") || head === undefined || !goBuildNamesVersion(head)) return undefined;
  const dirs = rel.split("/").slice(0, -1);
  for (let depth = dirs.length; depth >= 0; depth -= 1) {
    const goMod = view.readText([...dirs.slice(0, depth), "go.mod"].join("/"));
    if (goMod !== undefined) return goModVersion(goMod);
  }
  return undefined;
}

/** The package folders above a file, so `packages/web/dist/x.js` is recognised as output. */
function detectPackageDirsOf(project: Project, rel: string): string[] {
  const parts = rel.split("/").slice(0, -1);
  const dirs: string[] = [];
  for (let i = 1; i <= parts.length; i += 1) {
    const dir = parts.slice(0, i).join("/");
    if (isPackageDir(project.view, dir)) dirs.push(dir);
  }
  return dirs;
}

/**
 * New or existing: tracked by git means existing. Outside a git work tree a file counts as new
 * (the session's touched list refines this when queueing).
 */
export function gitStatusOf(root: string, rel: string): PendingStatus {
  // The index listing it is enough; git is asked about any other file (git-index.ts).
  if (indexTracks(root, rel) === true) return "existing";
  // Loaded here, not as the module loads: most hook calls start no process at all.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const result = spawnSync("git", ["ls-files", "--error-unmatch", "--", rel], {
    cwd: root,
    stdio: "ignore",
    timeout: 2000,
  });
  return result.status === 0 ? "existing" : "new";
}

export interface QueuedEdit {
  note: string;
  pendingCount: number;
  added: boolean;
  recovered?: Recovery;
}

/**
 * Queues an inspected source file in the session (one line of its journal, or a locked write when
 * there is no session yet: `appendState`) and renders the agent's note.
 */
export async function queueEdit(
  project: Project,
  insight: EditInsight,
  file = sessionFile(project),
  agentId?: string,
): Promise<QueuedEdit | undefined> {
  const { verdict } = insight;
  const runner =
    insight.runner === undefined
      ? {}
      : { runner: insight.runner.id, package_dir: insight.runner.package_dir };
  const agent = agentId === undefined ? {} : { agent_id: agentId };
  if (insight.runOnly === true && verdict.language !== undefined) {
    const entry: PendingFile = {
      path: insight.path,
      language: verdict.language,
      status: "existing",
      role: "test",
      ...runner,
      ...agent,
    };
    await appendState(file, JSON.stringify({ queue: entry } satisfies JournalEdit));
    return undefined;
  }
  if (!verdict.queue || insight.status === undefined) return undefined;
  const entry: PendingFile = {
    path: insight.path,
    language: verdict.language,
    status: insight.status,
    ...runner,
    ...(insight.target === undefined
      ? {}
      : { test_path: insight.target.path, test_exists: insight.target.exists }),
    ...(insight.depth === undefined ? {} : { depth: insight.depth.depth }),
    ...agent,
  };
  const edit: JournalEdit =
    insight.depth === undefined ? { queue: entry } : { queue: entry, score: insight.depth.score };
  const { before, value, recovered } = await appendState(file, JSON.stringify(edit));
  const pending = value.pending_files.find((one) => one.path === insight.path);
  const pendingCount = value.pending_files.filter((one) => one.role === undefined).length;
  const added = !before.pending_files.some((one) => one.path === insight.path);
  const note = renderQueuedNote({
    path: insight.path,
    status: pending?.status ?? insight.status,
    language: writtenLanguage(insight.path, verdict.language, () =>
      project.view.readText(insight.path),
    ),
    target: insight.target,
    runner: insight.runner,
    runnerReason: insight.runnerReason ?? "",
    pendingCount,
    depthNote: insight.depth?.note,
    extraNotes: insight.notes,
    covering: insight.covering,
    coveringUnknown: insight.coveringUnknown,
  });
  const queued: QueuedEdit = { note, pendingCount, added };
  if (recovered !== undefined) queued.recovered = recovered;
  return queued;
}
