import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fdir } from "fdir";
import {
  isSkippedDir,
  trackedFileIgnored,
  walkSkipsDir,
  type IgnoreRules,
} from "../../filter/filter.ts";
import { detectLanguage } from "../../filter/languages.ts";
import { SWEEP_SLACK_MS, sweepSince, type SessionState } from "../../state/session.ts";
import type { Project } from "./project.ts";

export interface SweepResult {
  /** Project-relative paths of source-language files modified at or after `sinceMs`. */
  changed: string[];
  /** The mtime (ms) of each changed file. */
  mtimes: Map<string, number>;
  /** How many candidate files had their mtime read. */
  checked: number;
  /** Where the candidates came from: git's view of the work tree, or a walk of every folder. */
  via: "git" | "walk";
  /**
   * The changed files git does not track (the rest of `changed` it does), when git was asked:
   * queueing them needs no `git ls-files` per file to tell new from existing.
   */
  untracked?: Set<string>;
}

/**
 * Finds the source files changed since a moment, by any tool (Codex's shell writes fire no edit
 * hook). In a git work tree the candidates are what git reports as changed or untracked, and the
 * files of commits made since the moment (an agent may commit in its turn); elsewhere every
 * folder is walked. Either way only files in a language tailtest knows, outside skipped folders
 * and ignore rules, are stat'ed, and no file is read.
 */
export function sweepChangedFiles(
  project: Project,
  sinceMs: number,
  also?: (path: string) => boolean,
): SweepResult {
  const fromGit = gitCandidates(project, sinceMs);
  if (fromGit === undefined) return walkChangedFiles(project, sinceMs, also);
  const candidates = [...fromGit.paths].filter(
    (rel) =>
      isSweepCandidate(project, rel, !fromGit.untracked.has(rel)) ||
      (also?.(rel) === true && !project.ignoreRules.matcher.ignores(rel)),
  );
  return {
    ...changedAmong(project.root, candidates, sinceMs),
    via: "git",
    untracked: fromGit.untracked,
  };
}

export interface TurnSweep {
  /** Changed since the last look and not already seen by it, sorted. */
  changed: string[];
  untracked?: Set<string>;
  /** Where the sweep looked from (ms). */
  since: number;
  /** For the session's `sweep_seen`: what the next sweep will look at again. */
  seen: Record<string, number>;
}

/**
 * The end-of-turn sweep of a session (follow, tdd and strict): the files changed since
 * `sweepSince(session)`, less those the last sweep already saw unchanged. `startMs` is when this
 * sweep began; the files changed in the slack before it are remembered for the next one.
 */
export function sweepTurn(
  project: Project,
  session: SessionState,
  startMs: number,
  /** Files of no known language to look at too (tdd's and strict's runner configs). */
  also?: (path: string) => boolean,
): TurnSweep {
  const since = sweepSince(session);
  const result = sweepChangedFiles(project, since, also);
  const before = session.sweep_seen ?? {};
  const seen: Record<string, number> = {};
  for (const [path, mtime] of result.mtimes)
    if (mtime >= startMs - SWEEP_SLACK_MS) seen[path] = mtime;
  return {
    changed: result.changed.filter((path) => before[path] !== result.mtimes.get(path)),
    ...(result.untracked === undefined ? {} : { untracked: result.untracked }),
    since,
    seen,
  };
}

/**
 * The walk: every folder not skipped, every file in a language tailtest knows, and those `also`
 * keeps (tdd's and strict's look: a new `babel.config.json`, a changed `package.json`).
 */
export function walkChangedFiles(
  project: Project,
  sinceMs: number,
  also?: (path: string) => boolean,
): SweepResult {
  const root = project.root;
  const files = new fdir()
    .withRelativePaths()
    .exclude((_name, dirPath) => {
      const rel = relativeDir(root, dirPath);
      return rel !== "" && walkSkipsDir(rel, project.ignoreRules);
    })
    .filter((path) => walkKeeps(path) || also?.(path.replaceAll("\\", "/")) === true)
    .crawl(root)
    .sync();
  return { ...changedAmong(root, files, sinceMs), via: "walk" };
}

/** A file the walk keeps: a known language, and no build output in the root `bin/` it entered. */
function walkKeeps(path: string): boolean {
  const language = detectLanguage(path);
  if (language === undefined) return false;
  return !path.startsWith("bin/") || !isSkippedDir("bin", undefined, language);
}

function changedAmong(
  root: string,
  files: readonly string[],
  sinceMs: number,
): Omit<SweepResult, "via"> {
  const changed: string[] = [];
  const mtimes = new Map<string, number>();
  for (const rel of files) {
    const stats = statSync(join(root, rel), { throwIfNoEntry: false });
    if (stats !== undefined && stats.isFile() && stats.mtimeMs >= sinceMs) {
      const path = rel.replaceAll("\\", "/");
      changed.push(path);
      mtimes.set(path, stats.mtimeMs);
    }
  }
  changed.sort();
  return { changed, mtimes, checked: files.length };
}

/**
 * What the walk would have looked at: a known language, no skipped folder on the way. A file git
 * tracks is judged as the filter judges it: `.gitignore` does not skip it, `.tailtest-ignore` does.
 */
function isSweepCandidate(project: Project, rel: string, tracked: boolean): boolean {
  if (tracked) return inSourceFolder(rel) && !trackedFileIgnored(rel, project.ignoreRules);
  return inSourceFolder(rel, project.ignoreRules) && !project.ignoreRules.matcher.ignores(rel);
}

/** A file in a language tailtest knows, with no skipped folder (by these rules) on its way. */
export function inSourceFolder(rel: string, rules?: IgnoreRules): boolean {
  const language = detectLanguage(rel);
  if (language === undefined) return false;
  const parts = rel.split("/");
  for (let depth = 1; depth < parts.length; depth += 1)
    if (isSkippedDir(parts.slice(0, depth).join("/"), rules, language)) return false;
  return true;
}

const GIT_TIMEOUT_MS = 10_000;

/** git's output, or undefined when it failed; `input` goes to its stdin. */
export function git(root: string, args: readonly string[], input?: string): string | undefined {
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const result = spawnSync("git", ["--no-optional-locks", ...args], {
    cwd: root,
    encoding: "utf8",
    ...(input === undefined
      ? { stdio: ["ignore", "pipe", "ignore"] }
      : { input, stdio: ["pipe", "pipe", "ignore"] }),
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: 256 * 1024 * 1024,
  });
  return result.status === 0 && typeof result.stdout === "string" ? result.stdout : undefined;
}

/**
 * Project-relative paths git says may have changed: modified, added, renamed or untracked (not
 * ignored), plus every file of a commit made since `sinceMs`. Undefined when git cannot answer
 * for the whole project: not a work tree, the project is not its top, git failed, or
 * `.tailtest-ignore` re-includes files (`!pattern`) that git ignores and would never report.
 */
function gitCandidates(
  project: Project,
  sinceMs: number,
): { paths: Set<string>; untracked: Set<string> } | undefined {
  const root = project.root;
  if (!existsSync(join(root, ".git"))) return undefined;
  const reincludes = project.view.readText(".tailtest-ignore");
  if (reincludes !== undefined && /^\s*!/m.test(reincludes)) return undefined;
  const status = git(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]);
  if (status === undefined) return undefined;
  const paths = new Set<string>();
  const untracked = new Set<string>();
  const fields = status.split("\0");
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? "";
    if (field.length < 4) continue;
    const code = field.slice(0, 2);
    paths.add(field.slice(3));
    if (code === "??") untracked.add(field.slice(3));
    // A rename or copy names its source next; the source is gone or unchanged.
    if (code.includes("R") || code.includes("C")) i += 1;
  }
  if (committedSince(root, sinceMs)) {
    const since = Math.floor(sinceMs / 1000);
    const log = git(root, ["log", `--since=@${since}`, "--name-only", "--format=", "-z", "HEAD"]);
    if (log === undefined) return undefined;
    for (const path of log.split(/[\0\n]/)) if (path !== "") paths.add(path);
  }
  return { paths, untracked };
}

/**
 * Whether HEAD may have moved since `sinceMs`: the reflog of HEAD is written on every commit,
 * amend, reset or checkout, so its time says; without one (a worktree's `.git` file, reflogs
 * off) git is asked.
 */
function committedSince(root: string, sinceMs: number): boolean {
  const reflog = statSync(join(root, ".git", "logs", "HEAD"), { throwIfNoEntry: false });
  return reflog === undefined || reflog.mtimeMs >= sinceMs;
}

/** fdir hands `exclude` an absolute folder path with a trailing separator. */
function relativeDir(root: string, dirPath: string): string {
  const trimmed = dirPath.replace(/[\\/]+$/, "");
  if (trimmed.length <= root.length) return "";
  return trimmed.slice(root.length + 1).replaceAll("\\", "/");
}

/**
 * Tracked files missing from the work tree (`git ls-files --deleted`), project-relative and
 * sorted; undefined outside a git work tree or when git cannot tell. A deletion changes no file's
 * modification time, so the sweep above cannot see one; git can, for what it tracks.
 */
export function missingTrackedFiles(root: string): string[] | undefined {
  const listed = git(root, ["ls-files", "--deleted", "-z"]);
  if (listed === undefined) return undefined;
  return [...new Set(listed.split("\0").filter((path) => path !== ""))].sort();
}

/** Files missing now that were not at the last look; none before a first look. */
export function newlyMissing(
  seen: readonly string[] | undefined,
  now: readonly string[] | undefined,
): string[] {
  if (seen === undefined || now === undefined) return [];
  const before = new Set(seen);
  return now.filter((path) => !before.has(path));
}
