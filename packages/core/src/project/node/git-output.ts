import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";

/** How much of git's output is read at a time. */
const CHUNK = 256 * 1024;
/** An output larger than this is not taken (the project is not a project). */
const MAX_OUTPUT = 256 * 1024 * 1024;

/**
 * git's output kept in a temporary file, to be read a chunk at a time as often as needed and then
 * closed (which removes the file). A pipe's output is held by node three times over (its pieces,
 * one buffer, one string), megabytes each on a large tree; this holds one chunk.
 */
export interface GitOutputFile {
  /**
   * Hands the output to `each` as pieces of at most `size` bytes (256 KiB), each ending at a
   * record's end (the character `end`; a record longer than a piece is cut where the piece
   * ends). A piece is a view of one reused buffer, valid during its call only. False when the
   * file could not be read or the output is too large to be taken.
   */
  eachChunk(end: string, each: (chunk: Buffer) => void, size?: number): boolean;
  /** Closes and removes the file. */
  close(): void;
}

/**
 * Runs git with its output going to a temporary file; undefined when git failed (exit status
 * other than 0 or 1: `git grep` exits 1 when nothing matches, an answer) or ran past
 * `timeoutMs`. The caller closes what it is given.
 */
export function gitOutputFile(
  root: string,
  args: readonly string[],
  timeoutMs?: number,
): GitOutputFile | undefined {
  // Loaded here: most calls start no process.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const { tmpdir } = process.getBuiltinModule("node:os");
  let dir: string | undefined;
  let fd: number | undefined;
  const close = (): void => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  };
  try {
    dir = mkdtempSync(join(tmpdir(), "tailtest-git-"));
    fd = openSync(join(dir, "out"), "w+");
    const run = spawnSync("git", args, {
      cwd: root,
      stdio: ["ignore", fd, "ignore"],
      ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
    });
    if (run.error !== undefined || (run.status !== 0 && run.status !== 1)) {
      close();
      return undefined;
    }
  } catch {
    close();
    return undefined;
  }
  let buffer: Buffer | undefined;
  return {
    eachChunk: (end, each, size = CHUNK) => {
      if (fd === undefined) return false;
      if (buffer?.length !== size) buffer = Buffer.alloc(size);
      const stop = end.charCodeAt(0);
      let kept = 0;
      let position = 0;
      try {
        for (;;) {
          const read = readSync(fd, buffer, kept, size - kept, position);
          position += read;
          const filled = kept + read;
          if (filled === 0) return true;
          if (position > MAX_OUTPUT) return false;
          // The last record's end in the chunk (a record longer than a chunk is cut where it is).
          let cut = read === 0 ? filled : buffer.lastIndexOf(stop, filled - 1) + 1;
          if (cut === 0) cut = filled;
          each(buffer.subarray(0, cut));
          buffer.copy(buffer, 0, cut, filled);
          kept = filled - cut;
        }
      } catch {
        return false;
      }
    },
    close,
  };
}

/**
 * git's output handed to `each` as strings of at most about 256 KiB, each ending at a record's
 * end (the character `end`); false when git failed or ran past `timeoutMs` (`gitOutputFile`).
 */
export function eachGitChunk(
  root: string,
  args: readonly string[],
  end: string,
  each: (text: string) => void,
  timeoutMs?: number,
): boolean {
  const output = gitOutputFile(root, args, timeoutMs);
  if (output === undefined) return false;
  try {
    return output.eachChunk(end, (chunk) => each(chunk.toString("utf8")));
  } finally {
    output.close();
  }
}
