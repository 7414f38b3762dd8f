import {
  appendFileSync,
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { copiesInForce } from "./state-copy.ts";

/**
 * One agent's part of an append-only state log (`.tailtest/events.jsonl`,
 * `.tailtest/tdd-applied.jsonl`): the bytes from the first line naming its key to the end. The
 * logs hold every session's lines and only grow, so a hook that read all of a project's history
 * to find its own lines paid for months of it on every call (ADR 0010, thirteenth round). While
 * the copy is in force (state-copy.ts), where the agent's first line starts is kept beside the
 * copy, in `<copy>.starts` (a `<key> <file> <offset>` line, appended when a read first finds the
 * key; before the key has a line, `<key> <file> ~<offset>`: none of its lines starts before
 * there, kept once that skips 64 KiB), and the next read starts there. Past 64 KiB, the starts
 * file keeps its newest half.
 *
 * The copy is only appended to by tailtest, and is only ever replaced by a new file (seeded once,
 * removed with its `.starts` when no session gates, mode-witness.ts), so an agent's first line
 * never moves, nor does a line come before it. A kept start is still checked before it is used:
 * the copy must be the same file (its inode and birth time), the offset must start a line within it, and a
 * first line's must name the key; else the whole log is read, as without the index. The project's own files (no copy in force) are read
 * whole: an agent can write them, and the index is only as trusted as the file beside it.
 */

export interface KeyedBytes {
  /** The log's bytes from `offset` to its end. */
  bytes: Buffer;
  /** Where `bytes` start in the file: 0, or the start of the key's first line. */
  offset: number;
}

/** The file the starts of `log`'s copy are kept in. */
export function startsPath(copy: string): string {
  return `${copy}.starts`;
}

/**
 * The bytes of `relPath`'s log a reader of `key`'s lines needs: from the key's first line when
 * the copy is in force and its start is known, else the whole file. `mark` is the key as the
 * log's writer spells it (`"agent_key":"<key>"`, ASCII). Throws what reading the log throws (a
 * missing log: ENOENT).
 */
export function readKeyedLog(
  root: string,
  relPath: string,
  key: string,
  mark: Buffer,
  projectPath: string,
): KeyedBytes {
  const copy = copiesInForce(root)?.(relPath);
  if (copy === undefined) return { bytes: readFileSync(projectPath), offset: 0 };
  // A key is `[A-Za-z0-9._-]` (tdd-store.ts); another could not be one word of a `.starts` line.
  if (!/^[\w.-]+$/.test(key)) return { bytes: readFileSync(copy), offset: 0 };
  const fd = openSync(copy, "r");
  try {
    const stats = fstatSync(fd);
    const { size } = stats;
    // The file, not just its name: a copy removed and made again may reuse the inode number.
    const ino = `${stats.ino}.${Math.round(stats.birthtimeMs * 1000)}`;
    // A small log is read whole: its starts would cost more to look up than they save.
    if (size < SKIP_WORTH_KEEPING) return { bytes: readWhole(fd, size), offset: 0 };
    const starts = startsPath(copy);
    const kept = keptStart(starts, key, ino);
    let from = 0;
    let bytes: Buffer | undefined;
    if (kept !== undefined && kept.at > 0 && kept.at <= size) {
      // From one byte before the start, to see that a line ends there.
      const tail = Buffer.allocUnsafe(size - kept.at + 1);
      const part = tail.subarray(0, readAll(fd, tail, kept.at - 1));
      const lineEnd = part.indexOf(0x0a, 1);
      const first = part.subarray(1, lineEnd === -1 ? part.length : lineEnd);
      if (part[0] === 0x0a && (!kept.line || first.includes(mark))) {
        from = kept.at;
        bytes = part.subarray(1);
      }
    }
    bytes ??= readWhole(fd, size);
    // What the next read can skip: up to the key's first line, or, with none yet, up to the last
    // whole line (kept once it skips enough to matter: a line per read would grow the file).
    const found = bytes.indexOf(mark);
    const next =
      from + (found === -1 ? bytes.lastIndexOf(0x0a) : bytes.lastIndexOf(0x0a, found - 1)) + 1;
    if (found !== -1 ? next > from || kept?.line === false : next - from >= SKIP_WORTH_KEEPING)
      keepStart(starts, key, ino, next, found !== -1);
    return { bytes, offset: from };
  } finally {
    closeSync(fd);
  }
}

/** Bytes of other agents' lines worth a `.starts` line when the key has none yet. */
const SKIP_WORTH_KEEPING = 64 * 1024;

/** The file's bytes from its start (as many as it has up to `size`). */
function readWhole(fd: number, size: number): Buffer {
  const whole = Buffer.allocUnsafe(size);
  return whole.subarray(0, readAll(fd, whole, 0));
}

/** Reads from `position` until `buffer` is full or the file ends; the bytes read. */
function readAll(fd: number, buffer: Buffer, position: number): number {
  let done = 0;
  while (done < buffer.length) {
    const read = readSync(fd, buffer, done, buffer.length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done;
}

/**
 * The last start kept for `key` in this file (its inode), if any: where its first line starts
 * (`line`), or, before it had one, where the whole lines then read ended (`~<offset>`).
 */
function keptStart(
  starts: string,
  key: string,
  ino: string,
): { at: number; line: boolean } | undefined {
  let text: string;
  try {
    text = readFileSync(starts, "latin1");
  } catch {
    return undefined;
  }
  const prefix = `${key} ${ino} `;
  // Read as one more line, the file's first is found like the others.
  const from = `\n${text}`.lastIndexOf(`\n${prefix}`);
  if (from === -1) return undefined;
  const end = text.indexOf("\n", from);
  if (end === -1) return undefined;
  const value = /^(~?)([1-9][0-9]{0,14})$/.exec(text.slice(from + prefix.length, end));
  return value === null ? undefined : { at: Number(value[2]), line: value[1] === "" };
}

/**
 * Keeps a start: one whole line in one O_APPEND write. Not fsynced: a start lost is found again
 * by the next read of the whole log, which the start only saves. Each session's agents add a
 * line or two, so past `STARTS_CAP` the file is rewritten with its newest lines (the sessions
 * most likely still running); an older key's next read reads the whole log and keeps its start
 * again. A line another process appends while the file is rewritten may be lost the same way.
 */
function keepStart(starts: string, key: string, ino: string, at: number, line: boolean): void {
  if (at === 0) return;
  try {
    appendFileSync(starts, `${key} ${ino} ${line ? "" : "~"}${at}\n`);
    if (statSync(starts).size > STARTS_CAP) compactStarts(starts);
  } catch {
    // The folder cannot be written: the next read reads the whole log again.
  }
}

/** The size past which `.starts` keeps only its newest lines (about half of it). */
const STARTS_CAP = 64 * 1024;

/** Rewrites `.starts` with the whole lines of its last `STARTS_CAP / 2` bytes, by a rename. */
function compactStarts(starts: string): void {
  const text = readFileSync(starts, "latin1");
  const cut = text.indexOf("\n", text.length - STARTS_CAP / 2 - 1) + 1;
  const scratch = `${starts}.${process.pid}.tmp`;
  writeFileSync(scratch, text.slice(cut), "latin1");
  renameSync(scratch, starts);
}
