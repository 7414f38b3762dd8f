import { closeSync, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import type { Budget } from "../budget.ts";
import { walkSkipsDir, walkedFileIgnored, type IgnoreRules } from "../../filter/filter.ts";

export interface WalkVisitor {
  /** A file (project-relative, `/` separators) that no ignore rule excludes. */
  file(rel: string, name: string): void;
}

/**
 * Lists the project folder by folder, breadth first, entries sorted: never entering a folder the
 * filter skips (dependencies, caches, tool state, root build output, ignored folders), skipping
 * ignored files, following no symbolic link. `pending` holds the folders still to list; the walk
 * stops when it is empty (true) or when the budget runs out (false), and a later call with the
 * same `pending` goes on from there. Linear: each folder is listed once.
 */
export function continueWalk(
  root: string,
  rules: IgnoreRules,
  pending: string[],
  budget: Budget,
  visitor: WalkVisitor,
): boolean {
  const ignored = walkedFileIgnored(rules);
  let tracked: ReadonlySet<string> | undefined;
  // A .gitignore pattern leaves a file git tracks alone (graphql/dataloader's `index.js` for
  // release files, and its tracked src/index.js): git is asked once, and only when a source file
  // only .gitignore excludes turns up.
  const skipped = (rel: string): boolean => {
    if (!ignored(rel)) return false;
    if (!SOURCE.test(rel) || rules.matcher.test(rel).rule?.mark !== ".gitignore") return true;
    tracked ??= trackedFiles(root);
    return !tracked.has(rel);
  };
  while (pending.length > 0) {
    if (budget.expired()) return false;
    const dir = pending.shift() ?? "";
    let entries;
    try {
      entries = readdirSync(dir === "" ? root : join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => compareNames(a.name, b.name));
    for (const entry of entries) {
      // Joined, not concatenated: `${dir}/${name}` is two cons strings that the first regular
      // expression run on the path flattens into a third; a walk keeps 50,000 of these.
      const rel = dir === "" ? entry.name : [dir, entry.name].join("/");
      if (entry.isDirectory()) {
        if (!walkSkipsDir(rel, rules)) pending.push(rel);
      } else if (entry.isFile() && !skipped(rel)) {
        visitor.file(rel, entry.name);
      }
    }
  }
  return true;
}

const SOURCE = /\.(?:[cm]?[jt]sx?|py|go|rs)$/;

/** The files git tracks under `root`, root-relative; empty outside a work tree. */
function trackedFiles(root: string): ReadonlySet<string> {
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const result = spawnSync("git", ["ls-files", "-z"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 5000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return new Set(result.status === 0 ? result.stdout.split("\0").filter(Boolean) : []);
}

function compareNames(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * A file's whole text, or its complete lines within the first `cap` bytes when it is larger
 * (undefined when it cannot be read): a module's imports are at its top, and a test file of
 * generated cases may be megabytes (idna's test_idna_uts46.py, 1.4 MB of UTS 46 vectors).
 */
export function readLeadingLines(path: string, cap: number): string | undefined {
  const whole = readSmallFile(path, cap);
  if (whole !== undefined) return whole;
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.allocUnsafe(cap);
    let read = 0;
    while (read < cap) {
      const got = readSync(fd, buffer, read, cap - read, read);
      if (got === 0) break;
      read += got;
    }
    // The last line may be cut (mid-character too): only the lines before it are kept.
    const end = buffer.subarray(0, read).lastIndexOf(0x0a);
    return end === -1 ? "" : buffer.toString("utf8", 0, end + 1);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A file's whole text when it is at most `cap` bytes; undefined when it is larger or cannot be
 * read. Reads exactly the file's size (no buffer of the cap's size per file: a scan reads tens
 * of thousands of small files).
 */
export function readSmallFile(path: string, cap: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    if (size > cap) return undefined;
    const buffer = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const got = readSync(fd, buffer, read, size - read, read);
      if (got === 0) break;
      read += got;
    }
    return buffer.toString("utf8", 0, read);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
