import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from "node:fs";
import { delimiter, join, sep } from "node:path";
import type { ProjectView } from "../project-view.ts";

const READ_CAP = 256 * 1024;

/**
 * A ProjectView over the real file system, rooted at `root`; reads are capped at 256 KB.
 *
 * Nothing outside the project is seen through it: a folder or file that is a symbolic link to a
 * place outside the project's real folder reads as absent, so an agent's `src -> /elsewhere` link
 * never makes tailtest read (or detect runners in) another tree. Installed packages are the one
 * exception: anything under a `node_modules` folder is the project's dependencies, which package
 * managers often link from a shared store.
 */
export function createFsView(root: string): ProjectView {
  const realRoot = realpathSafe(root) ?? root;
  // Joined as text, not with `path.join`: every question a hook asks goes through here, and
  // `join` normalises the root's characters again each time (dozens of calls are enough for V8 to
  // optimise node's `normalizeString`, ~10 M instructions of a queued edit's ~140 M). The system
  // calls read `.`, `..` and doubled separators as `join` would have written them, and a `..`
  // segment never gets this far (`look`).
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  const abs = (rel: string): string => (rel === "" ? root : `${prefix}${rel}`);
  // Whether each folder (by project path) really lies inside the project. A folder inside whose
  // own entry is no link is inside too, so only links cost a realpath.
  const folders = new Map<string, boolean>([["", true]]);
  const folderInside = (rel: string): boolean => {
    let inside = folders.get(rel);
    if (inside === undefined) {
      const slash = rel.lastIndexOf("/");
      const parent = slash === -1 ? "" : rel.slice(0, slash);
      const name = rel.slice(slash + 1);
      inside =
        name !== ".." &&
        folderInside(parent) &&
        (name === "node_modules" ||
          parent.split("/").includes("node_modules") ||
          lstatSafe(abs(rel))?.isSymbolicLink() !== true ||
          within(realpathSafe(abs(rel)), realRoot));
      folders.set(rel, inside);
    }
    return inside;
  };
  /** The entry's stat, following a link only when it stays inside; undefined when unseen. */
  const look = (rel: string): Stats | undefined => {
    if (rel === "") return statSafe(root);
    const slash = rel.lastIndexOf("/");
    if (rel.slice(slash + 1) === "..") return undefined;
    if (!folderInside(slash === -1 ? "" : rel.slice(0, slash))) return undefined;
    const entry = lstatSafe(abs(rel));
    if (entry === undefined || !entry.isSymbolicLink()) return entry;
    if (folderInside(rel)) return statSafe(abs(rel));
    // A virtualenv's interpreter is a link to the Python it was made from, outside the project:
    // it is the one file allowed to lead out (nothing is read through it; it is only run).
    return isVenvInterpreter(rel) ? statSafe(abs(rel)) : undefined;
  };
  const isVenvInterpreter = (rel: string): boolean => {
    const match = /^(.*)\/bin\/python[0-9.]*$/.exec(rel);
    return match !== null && lstatSafe(abs(`${match[1] ?? ""}/pyvenv.cfg`))?.isFile() === true;
  };
  // What each folder's last `isDirectory` saw, and what each listed folder was before its read.
  // (Four numbers each, not the `Stats`: its dates would outlive the young generation.)
  const seenFolders = new Map<string, FolderStamp>();
  const listed = new Map<string, FolderStamp>();
  return {
    host: hostFacts(),
    exists: (rel) => look(rel) !== undefined,
    isDirectory: (rel) => {
      const seen = look(rel);
      if (seen?.isDirectory() !== true) return false;
      seenFolders.set(rel, folderStamp(seen));
      return true;
    },
    readText: (rel) => (look(rel)?.isFile() === true ? readHead(abs(rel), READ_CAP) : undefined),
    list: (rel, checked) => {
      // A folder `isDirectory` has just seen (the name search goes into each) costs no second
      // `lstat`: that answer is as old as this one would be by the time it is read.
      if (checked === true) {
        const seen = seenFolders.get(rel);
        if (seen !== undefined) listed.set(rel, seen);
      } else {
        const seen = look(rel);
        if (seen?.isDirectory() !== true) return [];
        listed.set(rel, folderStamp(seen));
      }
      try {
        return readdirSync(abs(rel)).sort();
      } catch {
        return [];
      }
    },
    listedStamp: (rel) => listed.get(rel),
  };
}

/**
 * A folder's device, inode, modification and change times: the same four later mean the same
 * entries, since adding, removing or renaming an entry changes its modification time, and a folder
 * put in its place (or a link to one) has another inode. A coarse clock can hide a change made in
 * the same tick as the look: callers distrust a time as new as their own record of it.
 */
export function folderStamp(stats: Stats): FolderStamp {
  return [stats.dev, stats.ino, stats.mtimeMs, stats.ctimeMs];
}

type FolderStamp = readonly [number, number, number, number];

/** What `createFsView` sees of the folder at `abs` (a link followed), or undefined: no folder. */
export function statFolder(abs: string): Stats | undefined {
  const entry = lstatSafe(abs);
  const seen = entry?.isSymbolicLink() === true ? statSafe(abs) : entry;
  return seen?.isDirectory() === true ? seen : undefined;
}

/** What the machine offers: tools on PATH (looked up once each), environment variables. */
function hostFacts(): NonNullable<ProjectView["host"]> {
  const found = new Map<string, boolean>();
  const dirs = (process.env["PATH"] ?? "").split(delimiter).filter((dir) => dir !== "");
  return {
    onPath: (name) => {
      let hit = found.get(name);
      if (hit === undefined) {
        hit = dirs.some((dir) => {
          try {
            accessSync(join(dir, name), constants.X_OK);
            return statSync(join(dir, name)).isFile();
          } catch {
            return false;
          }
        });
        found.set(name, hit);
      }
      return hit;
    },
    env: (name) => process.env[name],
  };
}

/** Whether a real path is the folder `realRoot` or lies below it (an unknown path is not). */
function within(real: string | undefined, realRoot: string): boolean {
  if (real === undefined) return true;
  return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

/** The first `limit` bytes of a file as UTF-8, or undefined when it cannot be read. */
export function readHead(path: string, limit: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buffer = Buffer.alloc(limit);
    const size = readSync(fd, buffer, 0, limit, 0);
    return buffer.subarray(0, size).toString("utf8");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function realpathSafe(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

// A missing file is the common answer (a runner's manifests, a config looked for up the tree):
// `throwIfNoEntry: false` says so without building an exception with its stack trace, ~65 K
// instructions each, which an `explain` asked ~90 times. Anything else still throws here. One
// options object for every call: a later turn's check of a kept listing asks hundreds of folders.
const NO_ENTRY = { throwIfNoEntry: false } as const;
function statSafe(path: string): Stats | undefined {
  try {
    return statSync(path, NO_ENTRY);
  } catch {
    return undefined;
  }
}

function lstatSafe(path: string): Stats | undefined {
  try {
    return lstatSync(path, NO_ENTRY);
  } catch {
    return undefined;
  }
}
