import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { walkSkipsDir, walkedFileIgnored } from "../../filter/filter.ts";
import { isRunnerConfig } from "../test-weakening.ts";
import { detectLanguage } from "../../filter/languages.ts";
import {
  classifyTddFile,
  tddPatternsFromConfig,
  type TddFilePatterns,
} from "../../tdd/file-classes.ts";
import { STATE_DIR, type Project } from "../../project/node/project.ts";
import { writeAtomicPieces } from "../../state/node/store.ts";
import { hashFile, keepObjects } from "../../strict/node/strict-store.ts";
import { WHOLE_TREE_FLAGS, addV8Flags } from "../../hook/node/code-cache.ts";

/**
 * The end-of-turn check's own copy of the production files (ADR 0012): for each, its content
 * hash and inode, size, mtime and ctime, and in strict mode its bytes in `.tailtest/objects`
 * (content-addressed, so an unchanged file costs nothing more). It needs no git: it stands in for
 * git's content check where there is none (no work tree), where git stopped answering during the
 * session (a broken repository format, `.git` moved away) and where a `!` line in
 * `.tailtest-ignore` turns git's check off, so a change made behind the gate there is still found
 * by content (a put-back mtime does not hide it: a ctime cannot be put back) and, in strict, put
 * back. Bounded: past `MAX_FILES` files or `MAX_BYTES` of kept bytes the rest is not copied, and
 * the Stop says so.
 */

const TREE_SNAPSHOT_PATH = `${STATE_DIR}/tree-snapshot.json`;

/** At most this many production files are described. */
const MAX_FILES = 5_000;
/** At most this many bytes of production files are kept to put back. */
const MAX_BYTES = 64 * 1024 * 1024;

const SnapshotFileSchema = z.object({
  stat: z.string(),
  /** sha256 of the content. */
  id: z.string(),
  /** Kept in `.tailtest/objects` under its hash (strict). */
  kept: z.optional(z.boolean()),
});

export const TreeSnapshotSchema = z.object({
  v: z.literal(1),
  at: z.string(),
  files: z.record(z.string(), SnapshotFileSchema),
  /** Why some production files are not in it (a bound passed). */
  over: z.optional(z.string()),
  /**
   * Test files and runner configs are in it too, their bytes kept (a project git cannot compare:
   * the Stop reads a test weakened this turn against them, ADR 0012, the twenty-fifth round).
   */
  tests: z.optional(z.boolean()),
});

export type TreeSnapshot = z.infer<typeof TreeSnapshotSchema>;

function statKey(root: string, path: string): string | undefined {
  const stats = lstatSync(join(root, path), { bigint: true, throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile()) return undefined;
  return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/**
 * The project's production source files in sorted order (skipped folders and ignore rules left
 * out), at most `max` of them; `more` when there are others. Depth first, each folder's entries in
 * the order their paths sort (a folder's name as if it ended in `/`), so the first `max` are the
 * first of the whole sorted list without listing it: a 50,000-file tree's paths are never held
 * (its first strict session peaked 6-8 MiB higher listing them all), and the matcher keeps no
 * answer about a file (`walkedFileIgnored`). No symbolic link is followed; one is listed as a file
 * (and left out by `statKey`), as the walk before did.
 */
function productionFiles(
  project: Project,
  max = Number.POSITIVE_INFINITY,
  tests = false,
): { files: string[]; more: boolean } {
  const root = project.root;
  const patterns = tddPatternsFromConfig(project.config);
  const ignored = walkedFileIgnored(project.ignoreRules);
  const files: string[] = [];
  let more = false;
  const visit = (dir: string): void => {
    let listed;
    try {
      listed = readdirSync(dir === "" ? root : join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    const entries: { key: string; rel: string; folder: boolean }[] = [];
    for (const entry of listed) {
      const folder = entry.isDirectory();
      if (!folder && !entry.isFile() && !entry.isSymbolicLink()) continue;
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      entries.push({ key: folder ? `${entry.name}/` : entry.name, rel, folder });
    }
    entries.sort((a, b) => compareKeys(a.key, b.key));
    for (const { rel, folder } of entries) {
      if (more) return;
      if (folder) {
        if (!walkSkipsDir(rel, project.ignoreRules)) visit(rel);
        continue;
      }
      // The cheap classes first: the ignore matcher is asked only about production files.
      if (!(isProduction(rel, patterns) || (tests && isTestSide(rel, patterns)))) continue;
      if (ignored(rel)) continue;
      if (files.length === max) more = true;
      else files.push(rel);
    }
  };
  visit("");
  return { files, more };
}

const isProduction = (rel: string, patterns: Required<TddFilePatterns>) =>
  detectLanguage(rel) !== undefined && classifyTddFile(rel, patterns) === "prod";

/** A test file, or a runner config that decides which tests run (`isRunnerConfig`). */
const isTestSide = (rel: string, patterns: Required<TddFilePatterns>) =>
  (detectLanguage(rel) !== undefined && classifyTddFile(rel, patterns) === "test") ||
  isRunnerConfig(rel);

/** By UTF-16 code units, as `Array.prototype.sort` orders strings. */
function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * The whole-tree flag, and no TurboFan from here on: the walk and the copy are bound by their
 * system calls, so the optimising compiler's threads and code are memory for nothing (a first
 * strict session on 50,000 files peaked at 59.9-60.6 MiB with TurboFan off, 63.9-65.4 with it
 * on, for 2% more instructions; ADR 0014).
 */
const SNAPSHOT_FLAGS = [...WHOLE_TREE_FLAGS, "--no-turbofan"];

export function readTreeSnapshot(root: string): TreeSnapshot | undefined {
  try {
    const parsed = z.safeParse(
      TreeSnapshotSchema,
      JSON.parse(readFileSync(join(root, TREE_SNAPSHOT_PATH), "utf8")),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the snapshot (a turn's start, the end of a checked turn): what did not change since the
 * one before is not read again. `keep`: copy the bytes to put back (strict), into one pack past
 * the first few (`keepObjects`). The file is written entry by entry as the files are read, one
 * entry a line, and the one before is read a line at a time beside the walk (both are in the
 * walk's order): neither is ever held whole. What it returns is why it is not whole.
 */
export async function takeTreeSnapshot(
  project: Project,
  options: {
    now: () => Date;
    keep: boolean;
    /** Test files and runner configs too, their bytes always kept (no git to ask for them). */
    tests?: boolean;
    maxFiles?: number;
    maxBytes?: number;
  },
): Promise<{ over?: string }> {
  // Strict copies thousands of files: without these the process grows by megabytes.
  addV8Flags(SNAPSHOT_FLAGS);
  const maxFiles = options.maxFiles ?? MAX_FILES;
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  const root = project.root;
  let bytes = 0;
  let over: string | undefined;
  const tests = options.tests === true;
  const patterns = tddPatternsFromConfig(project.config);
  const listed = productionFiles(project, maxFiles, tests);
  if (listed.more) over = `more production files than the ${maxFiles} it copies`;
  const previous = earlierSnapshot(root);
  const objects = options.keep || tests ? keepObjects(root) : undefined;
  try {
    await writeAtomicPieces(join(root, TREE_SNAPSHOT_PATH), async (put) => {
      put(`{"v":1,"at":${JSON.stringify(options.now().toISOString())},"files":{`);
      let first = true;
      for (const path of listed.files) {
        const stat = statKey(root, path);
        if (stat === undefined) continue;
        const size = Number(stat.split(":")[1]);
        const known = previous.find(path);
        // A test's bytes are kept in either mode: its weakening is read against them.
        const wanted = options.keep || (tests && !isProduction(path, patterns));
        const keep = wanted && bytes + size <= maxBytes;
        if (wanted && !keep && over === undefined)
          over = `more than ${(maxBytes / 1024 / 1024).toFixed(0)} MiB of production files`;
        if (keep) bytes += size;
        let entry: TreeSnapshot["files"][string] | undefined;
        if (known !== undefined && known.stat === stat && (known.kept === true || !keep))
          entry = known;
        else {
          const id =
            keep && objects !== undefined ? objects.keep(path) : await hashFile(root, path);
          if (id === null) continue;
          entry = keep ? { stat, id, kept: true } : { stat, id };
        }
        put(`${first ? "\n" : ",\n"}${JSON.stringify(path)}:${JSON.stringify(entry)}`);
        first = false;
      }
      // What went into the pack is kept before the snapshot that says so is in place.
      objects?.finish();
      put(`\n}${tail(over, tests)}\n`);
    });
  } finally {
    previous.close();
    objects?.discard();
  }
  return over === undefined ? {} : { over };
}

/** The snapshot's fields after its files, and its closing brace. */
const tail = (over: string | undefined, tests: boolean) =>
  `${over === undefined ? "" : `,"over":${JSON.stringify(over)}`}${tests ? ',"tests":true' : ""}}`;

/** The earlier snapshot's entry of a path, asked in the walk's order. */
interface EarlierSnapshot {
  find: (path: string) => TreeSnapshot["files"][string] | undefined;
  close: () => void;
}

/** The bytes a line of the earlier snapshot is read by. */
const LINE_CHUNK = 64 * 1024;
/** A line longer than this is not one entry: the file is read whole (an older layout). */
const MAX_LINE = 1024 * 1024;
const SNAPSHOT_HEAD = /^\{"v":1,"at":"[^"]*","files":\{$/;

/**
 * The snapshot before, for `takeTreeSnapshot`: read a line (one file's entry) at a time as the
 * walk asks for paths in the same order it wrote them, so a later session never holds the 5,000
 * entries at once (844 KB of JSON on the bench's project, held and checked whole, was a later
 * strict session's peak). An entry that does not read ends the reading: the files after it are
 * read again, as if new. A snapshot in one line (written by an earlier tailtest) is read whole.
 */
function earlierSnapshot(root: string): EarlierSnapshot {
  let fd: number | undefined;
  try {
    fd = openSync(join(root, TREE_SNAPSHOT_PATH), "r");
  } catch {
    return { find: () => undefined, close: () => undefined };
  }
  const source = fd;
  const chunk = Buffer.allocUnsafe(LINE_CHUNK);
  let pending: Buffer = Buffer.alloc(0);
  let done = false;
  const nextLine = (): string | undefined => {
    for (;;) {
      const end = pending.indexOf(10);
      if (end !== -1) {
        const line = pending.toString("utf8", 0, end);
        pending = pending.subarray(end + 1);
        return line;
      }
      if (done || pending.length > MAX_LINE) return undefined;
      const count = readSync(source, chunk, 0, chunk.length, null);
      if (count === 0) done = true;
      else pending = Buffer.concat([pending, chunk.subarray(0, count)]);
    }
  };
  const head = nextLine();
  if (head === undefined || !SNAPSHOT_HEAD.test(head)) {
    closeSync(source);
    const whole = readTreeSnapshot(root);
    return { find: (path) => whole?.files[path], close: () => undefined };
  }
  let current: { path: string; entry: TreeSnapshot["files"][string] } | undefined;
  let ended = false;
  const advance = () => {
    current = undefined;
    const line = ended ? undefined : nextLine();
    const parsed = line === undefined ? undefined : entryOf(line);
    if (parsed === undefined) ended = true;
    else current = parsed;
  };
  advance();
  return {
    find: (path) => {
      while (current !== undefined && current.path < path) advance();
      return current?.path === path ? current.entry : undefined;
    },
    close: () => closeSync(source),
  };
}

/** One line of the snapshot's files: `"path":{…}`, with a comma after all but the last. */
function entryOf(line: string): { path: string; entry: TreeSnapshot["files"][string] } | undefined {
  if (!line.startsWith('"')) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(`{${line.endsWith(",") ? line.slice(0, -1) : line}}`);
  } catch {
    return undefined;
  }
  const keys = Object.keys(json as object);
  const path = keys[0];
  if (keys.length !== 1 || path === undefined) return undefined;
  const entry = z.safeParse(SnapshotFileSchema, (json as Record<string, unknown>)[path]);
  return entry.success ? { path, entry: entry.data } : undefined;
}

export interface TreeCompare {
  /** Production files whose content is not the snapshot's (or that are new or gone), sorted. */
  changed: string[];
  /**
   * What each held: `object` (its kept bytes, strict), `id: null` for a file that was not there;
   * neither for a file the snapshot described but did not keep.
   */
  before: Map<string, { id: string | null; object?: string; fromHead: false }>;
}

/** Compares the production files now with the snapshot, by content. */
export async function compareTreeSnapshot(
  project: Project,
  snapshot: TreeSnapshot,
): Promise<TreeCompare> {
  const root = project.root;
  const changed: string[] = [];
  const before: TreeCompare["before"] = new Map();
  // New files only count while the snapshot was whole: past its bound, an unlisted file is old,
  // and only the snapshot's files are looked at.
  const whole = snapshot.over === undefined;
  const paths = new Set([
    ...Object.keys(snapshot.files),
    ...(whole ? productionFiles(project, undefined, snapshot.tests === true).files : []),
  ]);
  for (const path of [...paths].sort()) {
    const was = snapshot.files[path];
    if (was === undefined) {
      // Only a regular file is new: a symbolic link (even a dangling one) is never copied, so it
      // is never counted as new and never removed by a revert.
      if (whole && statKey(root, path) !== undefined) {
        changed.push(path);
        before.set(path, { id: null, fromHead: false });
      }
      continue;
    }
    if (statKey(root, path) === was.stat) continue;
    if ((await hashFile(root, path)) === was.id) continue;
    changed.push(path);
    before.set(path, {
      id: was.id,
      ...(was.kept === true ? { object: was.id } : {}),
      fromHead: false,
    });
  }
  return { changed, before };
}
