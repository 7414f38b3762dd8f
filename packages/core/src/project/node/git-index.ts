import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { quickTest } from "../../util/literal-guard.ts";

/**
 * Whether git tracks a file, read from the work tree's index (`.git/index`) without starting
 * git: a `git` process costs a node process its `child_process` module and a spawn, more than
 * the rest of `tailtest explain` or a first edit's note. Only a yes is trusted: `true` when the
 * index lists the path, `undefined` when it does not or cannot be read here (another index
 * format, a SHA-256 repository, `GIT_DIR`/`GIT_INDEX_FILE` set, a sparse or split index), and
 * the caller asks git, which also knows case-folding, pathspecs and everything else.
 *
 * The index (git's `Documentation/gitformat-index.txt`): "DIRC", a version (2, 3 or 4) and an
 * entry count, then each entry's stat data, object name and flags, then its path: in versions 2
 * and 3 NUL-padded to a multiple of 8 bytes, in version 4 as how many bytes to drop from the
 * previous path (a varint) and the rest, NUL-ended.
 */
export function indexTracks(root: string, rel: string): true | undefined {
  if (process.env["GIT_DIR"] !== undefined || process.env["GIT_INDEX_FILE"] !== undefined)
    return undefined;
  const found = findGitDir(resolve(root));
  if (found === undefined) return undefined;
  const path = relative(found.top, resolve(root, rel)).split(sep).join("/");
  if (path === "" || path.startsWith("../") || isAbsolute(path)) return undefined;
  let index: Buffer;
  try {
    index = readFileSync(join(found.gitDir, "index"));
  } catch {
    return undefined;
  }
  return listsPath(index, Buffer.from(path, "utf8")) ? true : undefined;
}

/** The object name's size: SHA-1 (a SHA-256 repository is never read here). */
const HASH_BYTES = 20;
/** ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 bytes each). */
const STAT_BYTES = 40;
const EXTENDED_FLAG = 0x4000;
const NAME_MASK = 0x0fff;

/** Whether an index (its bytes) has an entry for `path` (UTF-8, `/`-separated). */
export function listsPath(index: Buffer, path: Buffer): boolean {
  if (index.length < 12 || index.toString("latin1", 0, 4) !== "DIRC") return false;
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) return false;
  const count = index.readUInt32BE(8);
  let at = 12;
  let previous = Buffer.alloc(0);
  for (let entry = 0; entry < count; entry += 1) {
    const start = at;
    at += STAT_BYTES + HASH_BYTES;
    if (at + 2 > index.length) return false;
    const flags = index.readUInt16BE(at);
    at += 2;
    if (version >= 3 && (flags & EXTENDED_FLAG) !== 0) at += 2;
    if (version === 4) {
      // How many bytes of the previous path to drop (git's offset varint), then the rest.
      let byte = index[at++] ?? 0;
      let drop = byte & 0x7f;
      while ((byte & 0x80) !== 0) {
        byte = index[at++] ?? 0;
        drop = ((drop + 1) << 7) | (byte & 0x7f);
      }
      const end = index.indexOf(0, at);
      if (end === -1 || drop > previous.length) return false;
      const name = Buffer.concat([
        previous.subarray(0, previous.length - drop),
        index.subarray(at, end),
      ]);
      if (name.equals(path)) return true;
      previous = name;
      at = end + 1;
      continue;
    }
    let length = flags & NAME_MASK;
    if (length === NAME_MASK) {
      const end = index.indexOf(0, at);
      if (end === -1) return false;
      length = end - at;
    }
    if (length === path.length && index.compare(path, 0, path.length, at, at + length) === 0)
      return true;
    // The entry, path and at least one NUL, padded to a multiple of 8 bytes.
    at = start + Math.floor((at - start + length + 8) / 8) * 8;
  }
  return false;
}

/**
 * The work tree's top and its git folder, found above `from`: a `.git` folder, or a `.git` file
 * naming it (a linked work tree, a submodule). A repository whose config names an object format
 * or extensions this reader does not know is left to git.
 */
function findGitDir(from: string): { top: string; gitDir: string } | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    let isDir: boolean | undefined;
    try {
      isDir = statSync(dotGit).isDirectory();
    } catch {
      isDir = undefined;
    }
    if (isDir !== undefined) {
      const gitDir = isDir ? dotGit : linkedGitDir(dir, dotGit);
      if (gitDir === undefined || !plainRepository(gitDir)) return undefined;
      return { top: dir, gitDir };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function linkedGitDir(top: string, dotGit: string): string | undefined {
  try {
    const line = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
    return line === undefined ? undefined : resolve(top, line);
  } catch {
    return undefined;
  }
}

/**
 * A repository of SHA-1 objects with a whole index: its config (the linked work tree's own and
 * the common one) names no `objectformat`, split or sparse index, nor a work tree elsewhere.
 */
/** What a plain repository's config never says (tested through `quickTest`: rarely compiled). */
export const UNPLAIN_CONFIG =
  /objectformat|splitindex|sparseindex|sparsecheckout|^\s*worktree\s*=/im;

function plainRepository(gitDir: string): boolean {
  const configs = [join(gitDir, "config")];
  try {
    const common = readFileSync(join(gitDir, "commondir"), "utf8").trim();
    configs.push(join(resolve(gitDir, common), "config"), join(gitDir, "config.worktree"));
  } catch {
    // Not a linked work tree.
  }
  for (const config of configs) {
    let text: string;
    try {
      text = readFileSync(config, "utf8");
    } catch {
      continue;
    }
    if (quickTest(UNPLAIN_CONFIG, text)) return false;
  }
  return true;
}
