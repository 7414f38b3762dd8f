import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
} from "node:fs";
import { dirname, join } from "node:path";
import * as z from "zod/mini";
import {
  buildIgnoreRules,
  isSkippedDir,
  walkSkipsDir,
  TEST_DATA_DIRS,
  type IgnoreRules,
} from "../../filter/filter.ts";
import {
  compareWithBaseline,
  ignoreChanged,
  parseDiffRaw,
  parseLsTree,
  parseStatusV2,
  planCompare,
  rebaseIgnoreRules,
  TURN_BASELINE_VERSION,
  TurnBaselineSchema,
  type BaselineFile,
  type IgnoreSources,
  type StatusEntry,
  type TurnBaseline,
  type WorkTreeStatus,
} from "../turn-baseline.ts";
import type { SessionState } from "../../state/session.ts";
import { classifyTddFile, shapesCode, tddPatternsFromConfig } from "../../tdd/file-classes.ts";
import { isRunnerConfig } from "../test-weakening.ts";
import { detectLanguage } from "../../filter/languages.ts";
import { sessionFile, STATE_DIR, type Project } from "../../project/node/project.ts";
import { readState, updateState, writeAtomic } from "../../state/node/store.ts";
import { restoreFile, snapshotFile } from "../../strict/node/strict-store.ts";
import {
  git,
  inSourceFolder,
  missingTrackedFiles,
  newlyMissing,
  sweepTurn,
} from "../../project/node/mtime-sweep.ts";
import { compareTreeSnapshot, readTreeSnapshot, takeTreeSnapshot } from "./tree-snapshot.ts";
import { eachGitChunk } from "../../project/node/git-output.ts";
import { gitBlob } from "./git-blobs.ts";

/**
 * The content-based end-of-turn check of tdd and strict (see `turn-baseline.ts`): a baseline of
 * the work tree taken when a turn begins (and again at the end of each checked turn), compared
 * with the work tree at the Stop by content, and, in strict, a way back to the baseline's bytes
 * for a production file changed outside the gate. Needs git; elsewhere the caller falls back to
 * the mtime sweep (`project/node/mtime-sweep.ts`).
 */

/** Where the baseline is kept (a cache: a missing or unreadable one means the mtime sweep). */
export const TURN_BASELINE_PATH = `${STATE_DIR}/turn-baseline.json`;

/** Where each agent session's own baseline is kept (`turnBaselinePath`). */
const TURN_BASELINES_DIR = `${STATE_DIR}/turn-baselines`;

/**
 * The baseline of one agent session (its log key, `tdd-store.ts` `agentKey`): a session that
 * starts, or begins a turn, takes its own and leaves another's alone, so a session started in the
 * middle of another's turn (by a script that runs `claude -p`) no longer wipes the changes that
 * turn made before it (ADR 0012, the twenty-eighth round). Without a key, the project's one.
 */
export function turnBaselinePath(key?: string): string {
  if (key === undefined || key === "" || key === "default" || !/^[A-Za-z0-9._-]+$/.test(key))
    return TURN_BASELINE_PATH;
  return `${TURN_BASELINES_DIR}/${key.replace(/^\.+/, "_")}.json`;
}

/** A session's baseline not written for this long is another's that ended: removed at a start. */
const STALE_BASELINE_MS = 7 * 24 * 3_600_000;

/** Removes the baselines of sessions not heard from for a week (a start's housekeeping). */
export function pruneTurnBaselines(root: string, now: Date): void {
  let names: string[];
  try {
    names = readdirSync(join(root, TURN_BASELINES_DIR));
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(root, TURN_BASELINES_DIR, name);
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (stats?.isFile() === true && now.getTime() - stats.mtimeMs > STALE_BASELINE_MS)
      rmSync(path, { force: true });
  }
}

/** Files read for content ids larger than this are compared by size and times only. */
const HASH_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Settings that let `git status` call a changed file clean, overridden for the check (ADR 0012):
 * an fsmonitor hook that reports nothing, `core.ignoreStat`, a `checkStat=minimal` that ignores
 * ctime, a user-wide excludes file, and a clean filter (`filter.<x>.clean = git show HEAD:%f`
 * with a `filter=x` attribute) that hands git the committed bytes. Git LFS's own filter stays.
 */
export function trustedStatusArgs(root: string): { args: string[]; lfs: boolean } {
  const args = [
    // `core.worktree` (or a worktree's own config) pointed at a copy: git would compare that.
    ...workTreeArgs(root),
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.ignoreStat=false",
    "-c",
    "core.checkStat=default",
    "-c",
    "core.trustctime=true",
    "-c",
    "core.excludesFile=",
  ];
  const filters = git(root, ["config", "-z", "--get-regexp", "^filter\\..*\\.(clean|process)$"]);
  const names = new Set<string>();
  let lfs = false;
  for (const entry of (filters ?? "").split("\0")) {
    const newline = entry.indexOf("\n");
    const key = newline === -1 ? entry : entry.slice(0, newline);
    const value = newline === -1 ? "" : entry.slice(newline + 1);
    const name = key.slice("filter.".length, key.lastIndexOf("."));
    if (name === "lfs" && /^git-lfs (clean|filter-process)\b/.test(value)) lfs = true;
    else if (name !== "") names.add(name);
  }
  for (const name of names)
    args.push("-c", `filter.${name}.clean=`, "-c", `filter.${name}.process=`);
  return { args, lfs: lfs && !names.has("lfs") };
}

/**
 * The project as git's work tree, whatever the repository's config says: a `core.worktree`
 * pointed at a committed copy made `git status` compare the copy, and every write to the project
 * went unseen (the twenty-first round). The content check runs only where the project is the top
 * of a work tree (`usable`), so this names the folder git would have found itself.
 */
function workTreeArgs(root: string): string[] {
  return [`--work-tree=${root}`];
}

/**
 * Tracked paths git is told not to look at (`update-index --assume-unchanged` or
 * `--skip-worktree`), with their index blob: `git status` never lists them, so they are read.
 * So is tracked source under Git LFS's filter (`filter=lfs`, from any attributes file): its clean
 * command, kept for git's answer (`trustedStatusArgs`), is the repository's config, and one that
 * only began like Git LFS's own (`git-lfs clean -- %f || git show HEAD:%f`) handed git the
 * committed bytes of any file the agent gave the attribute.
 */
function unwatchedPaths(root: string, lfsKept: boolean): Map<string, string | null> | undefined {
  const found = new Map<string, string | null>();
  // With no Git LFS filter kept there is no clean command to trust: git reads the bytes.
  const lfs = !lfsKept
    ? ""
    : git(root, [...workTreeArgs(root), "ls-files", "-s", "-z", "--", ":(attr:filter=lfs)"]);
  if (lfs === undefined) return undefined;
  for (const match of lfs.matchAll(LFS_TRACKED)) {
    const path = match[2] as string;
    if (detectLanguage(path) !== undefined) found.set(path, match[1] as string);
  }
  // Every tracked file is listed (50,000 lines on a large tree) and few are told apart: the
  // output is read a chunk at a time and searched, not held and split into a string per line.
  const done = eachGitChunk(
    root,
    ["--no-optional-locks", ...workTreeArgs(root), "ls-files", "-v", "-s", "-z"],
    "\0",
    (text) => {
      // `<tag> <mode> <blob> <stage>\t<path>`: a lowercase tag is assume-unchanged, S skip-worktree.
      for (const match of text.matchAll(UNWATCHED))
        found.set(match[3] as string, match[2] as string);
    },
    10_000,
  );
  return done ? found : undefined;
}

/** A record of `git ls-files -v -s -z` for a path git does not look at (`unwatchedPaths`). */
const UNWATCHED = /(?<![^\0])([a-zS]) \d+ ([0-9a-f]+) \d+\t([^\0]+)/g;
/** A record of `git ls-files -s -z`: `<mode> <blob> <stage>\t<path>`. */
const LFS_TRACKED = /(?<![^\0])\d+ ([0-9a-f]+) \d+\t([^\0]+)/g;

/**
 * The work tree as git sees it, ignored paths included (`--ignored=matching`: an ignored folder
 * as the folder alone, an ignored file elsewhere by its path): a folder's `.gitignore` that
 * ignores itself is seen only there, and a file it hides is judged against the baseline's rules.
 */
function statusOf(root: string): WorkTreeStatus | undefined {
  const trusted = trustedStatusArgs(root);
  const text = git(root, [
    ...trusted.args,
    "status",
    "--porcelain=v2",
    "-z",
    "--branch",
    "--untracked-files=all",
    "--ignored=matching",
  ]);
  if (text === undefined) return undefined;
  const status = parseStatusV2(text);
  // An untracked folder git lists whole (`--untracked-files=all` lists every other untracked
  // file by itself) holds a repository of its own: git does not look inside, so a new package
  // there (`calc/__init__.py` beside `calc.py`, in a folder made with `git init calc`) was
  // neither seen nor put back. Its files are judged one by one, as a folder a new rule hides is.
  for (const [path, entry] of [...status.entries])
    if (entry.untracked && !entry.ignored && path.endsWith("/")) {
      status.entries.delete(path);
      for (const file of filesUnder(root, path))
        status.entries.set(file, { head: null, untracked: true, ignored: false });
    }
  const unwatched = unwatchedPaths(root, trusted.lfs);
  if (unwatched === undefined) return undefined;
  for (const [path, blob] of unwatched)
    if (!status.entries.has(path))
      status.entries.set(path, { head: blob, untracked: false, ignored: false });
  return status;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

export function readIgnoreSources(root: string, status: WorkTreeStatus): IgnoreSources {
  const sources: IgnoreSources = {};
  const gitignore = readText(join(root, ".gitignore"));
  const tailtestIgnore = readText(join(root, ".tailtest-ignore"));
  const exclude = readText(join(root, ".git", "info", "exclude"));
  if (gitignore !== undefined) sources.gitignore = gitignore;
  if (tailtestIgnore !== undefined) sources.tailtestIgnore = tailtestIgnore;
  if (exclude !== undefined) sources.exclude = exclude;
  const nested: Record<string, string | null> = {};
  for (const path of status.entries.keys())
    if (isNestedIgnoreFile(path)) nested[path] = readText(join(root, path)) ?? null;
  sources.nested = nested;
  return sources;
}

const isNestedIgnoreFile = (path: string) => path.endsWith("/.gitignore");

/**
 * The rules a path was judged by at the baseline: `info/exclude`, the root's `.gitignore`, then
 * every folder's (deeper ones last, as git lets them override), and `.tailtest-ignore`. `folders`
 * are the folders' texts then; without them only the project-level rules.
 */
function rulesOf(sources: IgnoreSources, folders?: ReadonlyMap<string, string>): IgnoreRules {
  const nested = [...(folders ?? new Map<string, string>())]
    .sort(([a], [b]) => a.split("/").length - b.split("/").length || a.localeCompare(b))
    .flatMap(([path, text]) => rebaseIgnoreRules(path.slice(0, -"/.gitignore".length), text));
  const gitignore = [sources.exclude, sources.gitignore, ...nested].filter(
    (text) => text !== undefined,
  );
  return buildIgnoreRules({
    gitignore: gitignore.length === 0 ? undefined : gitignore.join("\n"),
    tailtestIgnore: sources.tailtestIgnore,
  });
}

/**
 * Every folder's `.gitignore` as it was at the baseline: the ones it listed, and the tracked ones
 * git called clean then (the work tree's text while git still does, else HEAD's of that moment).
 * Read only in a turn whose ignore rules changed.
 */
function foldersThen(
  root: string,
  baseline: TurnBaseline,
  now: WorkTreeStatus,
): Map<string, string> | undefined {
  const texts = new Map<string, string>();
  for (const [path, text] of Object.entries(baseline.ignore.nested ?? {}))
    if (text !== null) texts.set(path, text);
  const listed = git(root, [...workTreeArgs(root), "ls-files", "-z", "--", ":(glob)**/.gitignore"]);
  if (listed === undefined) return undefined;
  for (const path of listed.split("\0")) {
    if (!isNestedIgnoreFile(path) || baseline.ignore.nested?.[path] !== undefined) continue;
    const text = now.entries.has(path)
      ? headText(root, baseline.head, path)
      : readText(join(root, path));
    if (text !== undefined) texts.set(path, text);
  }
  return texts;
}

/** A file's text in a commit (undefined: no commit, or not in it). */
function headText(root: string, head: string | null, path: string): string | undefined {
  return head === null ? undefined : git(root, ["show", `${head}:${path}`]);
}

/** A folder no source file is judged in (a virtual environment, a cache), or one under it. */
function skippedFolder(dir: string, rules: IgnoreRules): boolean {
  const parts = dir.replace(/\/$/, "").split("/");
  return parts.some((_, index) => walkSkipsDir(parts.slice(0, index + 1).join("/"), rules));
}

/** At most this many files are read under a folder a rule added in the turn hides. */
const HIDDEN_FOLDER_FILES = 2_000;

/**
 * The files under a folder git lists whole (`dir/`: ignored, or a repository of its own), depth
 * first, up to the bound.
 */
function filesUnder(root: string, dir: string, found: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(join(root, dir));
  } catch {
    return found;
  }
  for (const name of names.sort()) {
    if (found.length >= HIDDEN_FOLDER_FILES) break;
    // A repository's own store, not its files.
    if (name === ".git") continue;
    const rel = `${dir}${name}`;
    const stats = lstatSync(join(root, rel), { throwIfNoEntry: false });
    if (stats?.isDirectory() === true) filesUnder(root, `${rel}/`, found);
    else if (stats !== undefined) found.push(rel);
  }
  return found;
}

function hashName(head: string | null): "sha1" | "sha256" {
  return head !== null && head.length === 64 ? "sha256" : "sha1";
}

/** git's blob id of a work-tree path (a link's target text, as git stores it), null: absent. */
function contentId(root: string, path: string, algorithm: "sha1" | "sha256"): string | null {
  const full = join(root, path);
  const stats = lstatSync(full, { throwIfNoEntry: false });
  if (stats === undefined || stats.isDirectory()) return null;
  let bytes: Buffer;
  try {
    if (stats.isSymbolicLink()) bytes = Buffer.from(readlinkSync(full));
    else if (!stats.isFile()) return null;
    else if (stats.size > HASH_LIMIT_BYTES) bytes = Buffer.from(`large:${stats.size}`);
    else bytes = readFileSync(full);
  } catch {
    return null;
  }
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** inode, size, mtime and ctime in ns: `touch -d` puts an mtime back, never a ctime. */
function statKey(root: string, path: string): string | undefined {
  const stats = lstatSync(join(root, path), { bigint: true, throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

export interface BaselineOptions {
  now: () => Date;
  /** The agent session whose baseline this is (`turnBaselinePath`); none: the project's. */
  key?: string | undefined;
  /** Paths whose bytes are kept in `.tailtest/objects` to revert to (strict's production files). */
  keep?: (path: string) => boolean;
}

function relevant(path: string): boolean {
  // A runner config (`pytest.ini`, `pyproject.toml`) is no source file, yet it can leave a test
  // out of every run: the Stop reads its change (`test-weakening.ts`). Nor is a file the tests
  // read (a test folder's data file, a `.env` the settings load), whose edit runs the tests that
  // read it: tdd and strict keep no queue, so what the look does not see their Stop never runs.
  if (inSourceFolder(path)) return true;
  if (!isRunnerConfig(path) && !shapesCode(path) && !readByTests(path)) return false;
  return !inSkippedFolder(path);
}

/** A dotenv file, or a file in a test or fixtures folder: the end of a turn runs its readers. */
function readByTests(path: string): boolean {
  const parts = path.split("/");
  const name = parts[parts.length - 1] ?? "";
  if (name === ".env" || /^\.env\.[\w.-]+$/.test(name)) return true;
  return parts.slice(0, -1).some((dir) => TEST_DATA_DIRS.has(dir));
}

function inSkippedFolder(path: string): boolean {
  const parts = path.split("/");
  for (let depth = 1; depth < parts.length; depth += 1)
    if (isSkippedDir(parts.slice(0, depth).join("/"))) return true;
  return false;
}

async function baselineOf(
  project: Project,
  status: WorkTreeStatus,
  options: BaselineOptions,
  known?: TurnBaseline,
): Promise<TurnBaseline> {
  const algorithm = hashName(status.head);
  const files: Record<string, BaselineFile> = {};
  for (const [path, entry] of status.entries) {
    if (entry.ignored || !relevant(path)) continue;
    const stat = statKey(project.root, path);
    const cached = known?.files[path];
    const id =
      cached !== undefined && stat !== undefined && cached.stat === stat
        ? cached.id
        : contentId(project.root, path, algorithm);
    const file: BaselineFile = { id };
    if (entry.head !== undefined) file.head = entry.head;
    if (stat !== undefined) file.stat = stat;
    if (options.keep?.(path) === true)
      file.object =
        cached?.object !== undefined && cached.id === id
          ? cached.object
          : await snapshotFile(project.root, path);
    files[path] = file;
  }
  return {
    v: TURN_BASELINE_VERSION,
    at: options.now().toISOString(),
    head: status.head,
    files,
    ignore: readIgnoreSources(project.root, status),
  };
}

/** Whether the content check can stand in for the mtime sweep in this project. */
function usable(project: Project): boolean {
  // `.tailtest-ignore` re-including what git ignores: git would never list those files.
  const reincludes = project.view.readText(".tailtest-ignore");
  if (reincludes !== undefined && /^\s*!/m.test(reincludes)) return false;
  // The project is the top of a work tree (a `.git` folder, or a worktree's `.git` file).
  return existsSync(join(project.root, ".git"));
}

/**
 * Takes and keeps the baseline (a turn's start); false when this project has none. In strict mode,
 * and wherever git cannot give one, tailtest's own copy of the production files is taken too
 * (`tree-snapshot.ts`): it stands in when git cannot answer at the Stop.
 */
export async function recordBaseline(project: Project, options: BaselineOptions): Promise<boolean> {
  const status = usable(project) ? statusOf(project.root) : undefined;
  // Without git, the copy holds the test files' bytes too: a test weakened this turn is read
  // against them at the Stop (`test-weakening.ts`), as git's blobs are read where git answers.
  if (options.keep !== undefined || status === undefined)
    await takeTreeSnapshot(project, {
      now: options.now,
      keep: options.keep !== undefined,
      tests: status === undefined,
    });
  if (status === undefined) return false;
  await saveBaseline(
    project.root,
    await baselineOf(project, status, options, readBaseline(project.root, options.key)),
    options.key,
  );
  return true;
}

export function readBaseline(root: string, key?: string): TurnBaseline | undefined {
  const text = readText(join(root, turnBaselinePath(key)));
  if (text === undefined) return undefined;
  try {
    const parsed = z.safeParse(TurnBaselineSchema, JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function saveBaseline(
  root: string,
  baseline: TurnBaseline,
  key?: string,
): Promise<void> {
  const path = join(root, turnBaselinePath(key));
  mkdirSync(dirname(path), { recursive: true });
  await writeAtomic(path, `${JSON.stringify(baseline)}\n`);
}

export interface TurnCheck {
  /** Source files whose content is not the baseline's, sorted. */
  changed: string[];
  /** What each held at the baseline. */
  before: Map<string, BaselineFile & { fromHead: boolean }>;
  /** When the baseline was taken (ms). */
  since: number;
  /** Whether the project-level ignore rules changed since the baseline. */
  ignoreRulesChanged: boolean;
  /** The baseline for the next turn: the work tree as it is now. */
  next: () => Promise<TurnBaseline>;
}

function headChanges(
  root: string,
  then: string | null,
  now: string | null,
): Map<string, { old: string | null; new: string | null }> | undefined {
  if (then === now) return new Map();
  if (then === null || now === null) {
    const listed = git(root, ["ls-tree", "-r", "-z", (now ?? then) as string]);
    if (listed === undefined) return undefined;
    const changes = new Map<string, { old: string | null; new: string | null }>();
    for (const [path, blob] of parseLsTree(listed))
      changes.set(path, then === null ? { old: null, new: blob } : { old: blob, new: null });
    return changes;
  }
  const diff = git(root, ["diff", "--raw", "-z", "--no-renames", "--no-abbrev", then, now, "--"]);
  return diff === undefined ? undefined : parseDiffRaw(diff);
}

/** HEAD's blob of each path (null: not in HEAD), one `git cat-file --batch-check`. */
function headBlobs(root: string, head: string | null, paths: readonly string[]) {
  const blobs = new Map<string, string | null>();
  const asked = paths.filter((path) => !path.includes("\n"));
  if (head === null || asked.length === 0) return blobs;
  const answer = git(
    root,
    ["cat-file", "--batch-check"],
    asked.map((path) => `${head}:${path}\n`).join(""),
  );
  if (answer === undefined) return undefined;
  const lines = answer.split("\n");
  asked.forEach((path, index) => {
    const [id, type] = (lines[index] ?? "").split(" ");
    blobs.set(path, type === "blob" && id !== undefined ? id : null);
  });
  return blobs;
}

/**
 * Compares the work tree with the baseline by content. Undefined when there is no baseline or
 * git cannot answer (the caller then sweeps by mtime). Tracked files are compared whatever the
 * ignore rules say; an untracked file counts when the baseline's rules did not ignore it.
 */
export function checkTurn(
  project: Project,
  baseline: TurnBaseline | undefined,
  options: BaselineOptions,
): TurnCheck | undefined {
  if (baseline === undefined || !usable(project)) return undefined;
  const root = project.root;
  const status = statusOf(root);
  if (status === undefined) return undefined;
  const rulesChanged = ignoreChanged(baseline.ignore, readIgnoreSources(root, status));
  // An ignore rule added this turn (at the root or in a folder) may hide a new file: what git
  // ignores now is judged by the rules of the turn's start, every folder's included.
  const folders = rulesChanged ? foldersThen(root, baseline, status) : new Map<string, string>();
  if (folders === undefined) return undefined;
  const thenRules = rulesOf(baseline.ignore, folders);
  const changes = headChanges(root, baseline.head, status.head);
  if (changes === undefined) return undefined;
  const entries = new Map<string, StatusEntry>();
  for (const [path, entry] of status.entries) {
    if (!entry.ignored) entries.set(path, entry);
    else if (!rulesChanged || thenRules.matcher.ignores(path)) continue;
    else if (!path.endsWith("/")) entries.set(path, entry);
    else if (!skippedFolder(path, thenRules))
      for (const file of filesUnder(root, path)) entries.set(file, entry);
  }
  const now: WorkTreeStatus = { head: status.head, entries };
  const input = { baseline, now, headChanges: changes, relevant };
  const plan = planCompare(input);
  const heads = headBlobs(root, now.head, plan.lookups);
  if (heads === undefined) return undefined;
  const algorithm = hashName(now.head);
  const work = (path: string) => {
    const cached = baseline.files[path];
    if (cached?.stat !== undefined && cached.stat === statKey(root, path)) return cached.id;
    return contentId(root, path, algorithm);
  };
  const result = compareWithBaseline(input, plan, heads, work);
  const tracked = (path: string) => {
    const entry = now.entries.get(path);
    const was = result.before.get(path);
    return (entry !== undefined && !entry.untracked) || (was?.fromHead === true && was.id !== null);
  };
  // A new runner or build config is no source file, yet it can leave tests out or rewrite the
  // code they load (a `babel.config.json` babel-jest reads, a `pytest.ini` that takes over from
  // `pyproject.toml`): untracked, it counts like a new module.
  const changed = result.changed.filter(
    (path) =>
      tracked(path) ||
      ((inSourceFolder(path, thenRules) || isRunnerConfig(path) || shapesCode(path)) &&
        !thenRules.matcher.ignores(path)),
  );
  return {
    changed,
    before: result.before,
    since: Date.parse(baseline.at),
    ignoreRulesChanged: rulesChanged,
    // The status as git gave it: the baseline skips ignored files, but keeps their folders'
    // `.gitignore` texts.
    next: () => baselineOf(project, status, options, baseline),
  };
}

/**
 * Puts a file back to what the baseline held (strict): its kept object, HEAD's blob of that
 * moment, or no file. What it held until now is kept in `.tailtest/objects` first (returned).
 * Undefined when the baseline's bytes are not to be had (a file dirty at the baseline that was
 * not kept).
 */
export async function revertToBaseline(
  project: Project,
  path: string,
  before: BaselineFile & { fromHead: boolean },
): Promise<{ discarded: string | null } | undefined> {
  const root = project.root;
  let bytes: Buffer | null | undefined;
  if (before.object !== undefined) bytes = undefined;
  else if (before.id === null) bytes = null;
  else if (before.fromHead) {
    bytes = gitBlob(root, before.id, HASH_LIMIT_BYTES);
    if (bytes === undefined) return undefined;
  } else return undefined;
  const discarded = await snapshotFile(root, path);
  if (before.object !== undefined) {
    // A kept object that is missing or torn is not put back: the change is still reported.
    if (!(await restoreFile(root, path, before.object))) return undefined;
  } else if (bytes === null) rmSync(join(root, path), { force: true });
  else if (bytes !== undefined) await writeAtomic(join(root, path), bytes);
  return { discarded };
}

/** What a baseline keeps in strict mode: the source and test files' bytes, to revert to. */
export function baselineOptions(project: Project, now: () => Date, key?: string): BaselineOptions {
  if (project.config.mode !== "strict") return { now, key };
  const patterns = tddPatternsFromConfig(project.config);
  // Tests and other source files too: one that production code imports is put back like
  // production code (`test-imports.ts`), and one already dirty at the turn's start has no other
  // copy.
  return {
    now,
    key,
    keep: (path) =>
      detectLanguage(path) !== undefined || classifyTddFile(path, patterns) !== "other",
  };
}

export interface TurnLook {
  /**
   * The mtime look only: tailtest's copy of the production files stood in for git's content
   * check (`tree-snapshot.ts`), so a put-back mtime hides nothing and strict can put files back.
   */
  copy?: {
    /** Why part of the production files is not in the copy (a bound passed), said every Stop. */
    over?: string;
  };
  /** Files changed since the turn's start, sorted (source files; the caller classifies). */
  changed: string[];
  /** Since when (ms). */
  since: number;
  /** By content (a baseline and git), or by mtime (the fallback). */
  via: "content" | "mtime";
  /** Content only: what each changed file held at the turn's start. */
  before?: Map<string, BaselineFile & { fromHead: boolean }>;
  ignoreRulesChanged: boolean;
  /**
   * Why the content check that this session had could not run now (`.git` moved away or made
   * unreadable, a `!` line added to `.tailtest-ignore`): the mtime look that stands in for it
   * misses a write that puts the old mtime back, so the Stop says so.
   */
  lost?: string;
  /** Records the look: the next turn starts from the work tree as it is then. */
  finish: () => Promise<void>;
}

/**
 * The Stop's sentence when git's content check is lost (tdd and strict say it every turn); with
 * `copy`, tailtest's own copy of the production files stood in for it.
 */
export function lostCheckLine(reason: string, strict: boolean, copy = false): string {
  if (copy)
    return `This turn's changes could not be compared with the turn's start by git (${reason}): the production files were compared with tailtest's own copy instead${strict ? ", and what changed outside the gate was put back" : ""}; other files may go unseen. Put back what made it so; the person can check the work tree with git status.`;
  return `This turn's changes could not be compared by content with the turn's start (${reason}): a change made outside the gate may go unseen${strict ? " and cannot be put back" : ""}. Put back what made it so; the person can check the work tree with git status.`;
}

export { partialCopyLine } from "../turn-baseline.ts";

/**
 * Why the look fell back to mtimes when the session's baseline is gone: tailtest never removes
 * it (but a week after it was last written), so a program did (a write that put the old mtime
 * back was otherwise unseen in tdd).
 */
export function baselineGone(key?: string): string {
  return `tailtest's record of the turn's start, ${turnBaselinePath(key)}, was removed or made unreadable by something other than tailtest`;
}

/** Why a project that had a baseline cannot be compared by content now. */
function lostReason(project: Project): string {
  if (!existsSync(join(project.root, ".git"))) return "the project's .git is gone";
  const reincludes = project.view.readText(".tailtest-ignore");
  if (reincludes !== undefined && /^\s*!/m.test(reincludes))
    return ".tailtest-ignore now re-includes files git ignores";
  return "git could not read the work tree";
}

/**
 * The end of a turn in tdd and strict: what changed since the turn's start, by content when the
 * project is a git work tree with a baseline, else by mtime and git's deleted files (and a
 * baseline is taken for the next turn). A baseline that cannot be compared with is kept, so every
 * Stop says so until git can answer again.
 */
export async function lookAtTurn(
  project: Project,
  now: () => Date,
  key?: string,
): Promise<TurnLook> {
  const file = sessionFile(project, now);
  const { value: session } = await readState(file);
  const start = now();
  const options = baselineOptions(project, now, key);
  const markSession = (extra: Partial<SessionState>) =>
    updateState(file, (current) => ({
      value: { ...current, last_sweep_at: start.toISOString(), ...extra },
      result: undefined,
    }));
  const baseline = readBaseline(project.root, key);
  const check = checkTurn(project, baseline, options);
  if (check !== undefined)
    return {
      changed: check.changed,
      since: check.since,
      via: "content",
      before: check.before,
      ignoreRulesChanged: check.ignoreRulesChanged,
      finish: async () => {
        await saveBaseline(project.root, await check.next(), key);
        if (options.keep !== undefined) await takeTreeSnapshot(project, { now, keep: true });
        await markSession({ sweep_seen: {}, baseline_kept: true });
      },
    };
  // Without git's answer the walk keeps source files only: a runner or code-shaping config the
  // turn wrote (a new `babel.config.json`, package.json's `jest` section) is looked at too.
  const { changed, since, seen } = sweepTurn(
    project,
    session,
    start.getTime(),
    (path) => (isRunnerConfig(path) || shapesCode(path)) && !inSkippedFolder(path),
  );
  const missing = missingTrackedFiles(project.root);
  const deleted = newlyMissing(session.missing_seen, missing);
  // Without git's answer, the production files are compared with tailtest's own copy.
  const snapshot = readTreeSnapshot(project.root);
  const tree = snapshot === undefined ? undefined : await compareTreeSnapshot(project, snapshot);
  // A baseline git cannot compare with now, or one a program removed (tailtest never does).
  let lost: string | undefined;
  if (baseline !== undefined) lost = lostReason(project);
  else if (session.baseline_kept === true) lost = baselineGone(key);
  return {
    // A production file in the copy counts by content only (a `touch` changes nothing there).
    changed: [
      ...new Set([
        ...[...changed, ...deleted].filter(
          (path) => snapshot?.files[path] === undefined || tree?.changed.includes(path) === true,
        ),
        ...(tree?.changed ?? []),
      ]),
    ].sort(),
    since: snapshot === undefined ? since : Math.min(since, Date.parse(snapshot.at)),
    via: "mtime",
    ...(tree === undefined ? {} : { before: tree.before }),
    ...(snapshot === undefined
      ? {}
      : { copy: snapshot.over === undefined ? {} : { over: snapshot.over } }),
    ignoreRulesChanged: false,
    ...(lost === undefined ? {} : { lost }),
    finish: async () => {
      const kept = await recordBaseline(project, options);
      await markSession({
        sweep_seen: seen,
        ...(missing === undefined ? {} : { missing_seen: missing }),
        baseline_kept: kept,
      });
    },
  };
}
