import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";

/** How much of git's output is read at a time. */
const CHUNK = 256 * 1024;
/** An output larger than this is not taken (the project is not a project). */
const MAX_OUTPUT = 256 * 1024 * 1024;

/**
 * git's output handed to `each` as strings of at most about 256 KiB, each ending at a record's
 * end (the character `end`); false when git failed (exit status other than 0 or 1: `git grep`
 * exits 1 when nothing matches, an answer) or ran past `timeoutMs`. The output goes to a temporary file read a chunk at
 * a time: a pipe's output is held by node three times over (its pieces, one buffer, one string),
 * megabytes each on a large tree; this holds one chunk.
 */
export function eachGitChunk(
  root: string,
  args: readonly string[],
  end: string,
  each: (text: string) => void,
  timeoutMs?: number,
): boolean {
  // Loaded here: most calls start no process.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const { tmpdir } = process.getBuiltinModule("node:os");
  let dir: string | undefined;
  let fd: number | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), "tailtest-git-"));
    fd = openSync(join(dir, "out"), "w+");
    const run = spawnSync("git", args, {
      cwd: root,
      stdio: ["ignore", fd, "ignore"],
      ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
    });
    if (run.error !== undefined || (run.status !== 0 && run.status !== 1)) return false;
    const buffer = Buffer.alloc(CHUNK);
    const stop = end.charCodeAt(0);
    let kept = 0;
    let position = 0;
    for (;;) {
      const read = readSync(fd, buffer, kept, CHUNK - kept, position);
      position += read;
      const filled = kept + read;
      if (filled === 0) break;
      // The last record's end in the chunk (a record longer than a chunk is cut where it is).
      let cut = read === 0 ? filled : buffer.lastIndexOf(stop, filled - 1) + 1;
      if (cut === 0) cut = filled;
      each(buffer.toString("utf8", 0, cut));
      buffer.copy(buffer, 0, cut, filled);
      kept = filled - cut;
      if (position > MAX_OUTPUT) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}
