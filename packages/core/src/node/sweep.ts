import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { fdir } from "fdir";
import { isSkippedDir } from "../filter.ts";
import { detectLanguage } from "../languages.ts";
import type { Project } from "./project.ts";

export interface SweepResult {
  /** Project-relative paths of source-language files modified at or after `sinceMs`. */
  changed: string[];
  /** How many candidate files had their mtime read. */
  checked: number;
}

/**
 * Finds the source files changed since a moment, by any tool (Codex's shell writes fire no edit
 * hook). Skipped folders — dependencies, caches, tool state, root build output and whatever the
 * ignore rules exclude — are never entered; files in a language tailtest does not know are
 * ruled out by name; only the rest are stat'ed, and no file is read.
 */
export function sweepChangedFiles(project: Project, sinceMs: number): SweepResult {
  const root = project.root;
  const files = new fdir()
    .withRelativePaths()
    .exclude((_name, dirPath) => {
      const rel = relativeDir(root, dirPath);
      return rel !== "" && isSkippedDir(rel, project.ignoreRules);
    })
    .filter((path) => detectLanguage(path) !== undefined)
    .crawl(root)
    .sync();
  const changed: string[] = [];
  for (const rel of files) {
    const stats = statSync(join(root, rel), { throwIfNoEntry: false });
    if (stats !== undefined && stats.mtimeMs >= sinceMs) changed.push(rel.replaceAll("\\", "/"));
  }
  changed.sort();
  return { changed, checked: files.length };
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
  const result = spawnSync("git", ["ls-files", "--deleted", "-z"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 5000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0 || typeof result.stdout !== "string") return undefined;
  return [...new Set(result.stdout.split("\0").filter((path) => path !== ""))].sort();
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
