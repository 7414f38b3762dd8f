import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import lockfile from "proper-lockfile";
import * as z from "zod/mini";
import { markCreatedState } from "../../hook/node/created-state.ts";

/** A JSON state file with a versioned schema and a way to build a fresh one. */
export interface StateFile<T> {
  path: string;
  /** A zod or zod/mini schema (the ones hooks read every call are zod/mini: ADR 0009). */
  schema: z.core.$ZodType<T>;
  create: () => T;
  /** Changes appended beside the file without its lock (`appendState`), folded in by readers. */
  journal?: Journal<T>;
  /**
   * What a read that writes nothing back checks, when the whole `schema` costs more to build than
   * the read is worth (a hook process builds each schema it parses): `appendState` without the
   * lock, and `readState` asked for `{ hot: true }`. It checks the fields those readers and the
   * journal's `fold` use, and passes the rest through unchecked (a loose object), so its value is
   * a `T` only in what it checks. Such a value never reaches the file: every write is
   * `updateState`'s, which parses the file with `schema` under the lock (and moves aside what
   * does not pass).
   */
  hotSchema?: z.core.$ZodType;
}

/**
 * How far a state has folded its journal in: the journal file's inode (a rotated or recreated
 * journal is another file) and the bytes of it already folded.
 */
export interface JournalCursor {
  ino: number;
  bytes: number;
}

/**
 * An append-only journal of a state file's changes (ADR 0010): a writer appends one line with one
 * `O_APPEND` write and an fsync of that file, without the lock and without rewriting the state;
 * every reader folds the lines past the state's cursor in, and a reader holding the lock writes
 * them into the state and moves the cursor on. Lines are records `fold` reads; one it cannot read
 * (a write torn by a crash) changes nothing, and the lines after it still count.
 */
export interface Journal<T> {
  path: string;
  cursor(value: T): JournalCursor | undefined;
  withCursor(value: T, cursor: JournalCursor): T;
  /** The value with one line applied; a line that is not a record leaves the value as it is. */
  fold(value: T, line: string): T;
  /** Past this size a locked reader starts the journal afresh (default `JOURNAL_ROTATE_BYTES`). */
  rotateBytes?: number;
}

/** A state file that could not be used and was moved aside (never deleted). */
export interface Recovery {
  movedTo: string;
  reason: string;
}

export interface ReadResult<T> {
  value: T;
  existed: boolean;
  /** Set when the file exists but cannot be used; `readState` leaves it in place. */
  problem?: string;
}

export interface UpdateResult<T, R> {
  value: T;
  result: R;
  recovered?: Recovery;
}

/** How long a lock is waited for, and when a holder that stopped refreshing it is presumed dead. */
export interface LockWait {
  /** A lock not refreshed for this long belongs to a dead process and is taken over. */
  staleMs: number;
  /** How often a holder refreshes its lock. */
  updateMs: number;
  /** How long to wait for a lock another process holds before giving up. */
  waitMs: number;
  /** Back-off between tries: from `minDelayMs`, growing 1.3× per try, at most `maxDelayMs`. */
  minDelayMs: number;
  maxDelayMs: number;
  /**
   * The work only appends whole lines with one O_APPEND write each: past a gate's deadline
   * (`boundLockWaits`) it runs without the lock instead of failing, so nothing is lost.
   */
  appendOnly?: boolean;
}

/**
 * Every state file's lock: hooks of one turn can land together. Waited for up to 25 s, inside
 * every hook's configured timeout (30 s at session start, 660 s around tools): a hundred hooks at
 * once on a 2-core machine once queued past a 10 s budget and lost entries.
 */
export const STATE_LOCK: LockWait = {
  staleMs: 10_000,
  updateMs: 2_000,
  waitMs: 25_000,
  minDelayMs: 5,
  maxDelayMs: 100,
};

/** `STATE_LOCK` for work that only appends whole lines (event logs). */
export const APPEND_LOCK: LockWait = { ...STATE_LOCK, appendOnly: true };

/**
 * Runs `work` holding the lock `<path>.lock`. Only a lock held by another process is waited for:
 * any other failure (a read-only or full disk, no permission) is thrown at once, where
 * proper-lockfile's own retries would wait out every try on an error that cannot go away.
 */
export async function withFileLock<R>(
  path: string,
  wait: LockWait,
  work: () => Promise<R>,
): Promise<R> {
  mkdirSync(dirname(path), { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await acquireLock(path, wait);
  } catch (error) {
    if (wait.appendOnly === true && Date.now() >= lockDeadline) return work();
    throw error;
  }
  try {
    return await work();
  } finally {
    await release();
  }
}

/**
 * A gate (a pre-tool hook in tdd or strict) answers in time or not at all: the platform lets a
 * tool call through when its hook times out. Past this moment (ms since the epoch) no lock is
 * waited for: the wait throws, and the gate's caller denies (ADR 0002).
 */
let lockDeadline = Number.POSITIVE_INFINITY;

/**
 * How long after its process started a gate may still wait for a lock: well inside the 30 s the
 * installers give Codex's and Cursor's gates, where a timed-out gate lets the tool call through.
 */
export const GATE_LOCK_BUDGET_MS = 4_000;

/**
 * Until the returned function is called, no lock is waited for past `budgetMs` after this process
 * started. A gate calls it back when it has answered, so a process that answers more than one
 * call (a test, a long-lived caller) is not left with a deadline long past.
 */
export function boundLockWaits(budgetMs: number = GATE_LOCK_BUDGET_MS): () => void {
  const before = lockDeadline;
  // When the process started, from `process.uptime()`: the global `performance` loads node's
  // perf_hooks (~12 M instructions, a seventh of `node -e 0`) on a gate's first touch of it.
  const started = Date.now() - process.uptime() * 1000;
  lockDeadline = Math.min(lockDeadline, started + budgetMs);
  return () => {
    lockDeadline = before;
  };
}

async function acquireLock(path: string, wait: LockWait): Promise<() => Promise<void>> {
  const deadline = Math.min(Date.now() + wait.waitMs, lockDeadline);
  let delay = wait.minDelayMs;
  for (;;) {
    try {
      return await lockfile.lock(path, {
        realpath: false,
        stale: wait.staleMs,
        update: wait.updateMs,
        retries: 0,
        lockfilePath: `${path}.lock`,
      });
    } catch (error) {
      const held = (error as NodeJS.ErrnoException | undefined)?.code === "ELOCKED";
      if (!held || Date.now() >= deadline) throw error;
    }
    await new Promise((done) => setTimeout(done, delay * (0.5 + Math.random())));
    delay = Math.min(wait.maxDelayMs, delay * 1.3);
  }
}

/**
 * proper-lockfile loads signal-exit as it is imported, which re-raises any signal it sees when it
 * holds the only listener. A file-size limit (`ulimit -f`) raises SIGXFSZ on a write node would
 * otherwise fail with EFBIG, so the hook died instead of answering, on any write (a strict-mode
 * snapshot before any lock was the last one found). A listener of our own, set as this module
 * loads, keeps the write's error, which the hook reports like a full disk.
 */
if (process.platform !== "win32") process.on("SIGXFSZ", () => undefined);

const recoveries: Recovery[] = [];

/**
 * State files this process moved aside, oldest first, and forgets them: the hook's launcher
 * reports them in its one stderr line, whichever event met the bad file.
 */
export function takeRecoveries(): Recovery[] {
  return recoveries.splice(0);
}

/*
 * The file operations are synchronous: a hook does one thing at a time, and node's promise file
 * API costs a hook process the loading of its stream modules (~5 ms) for nothing.
 */

/**
 * Reads a state file without locking: writers rename atomically, so a read sees a whole file.
 * `hot`: checked with the file's `hotSchema` (when it has one), for a reader of those fields
 * only that writes nothing back.
 */
export async function readState<T>(
  file: StateFile<T>,
  options: { hot?: boolean } = {},
): Promise<ReadResult<T>> {
  return Promise.resolve(readStateSync(file, options));
}

/** `readState`, for callers that are not async (a sharded state reads many files in one lock). */
export function readStateSync<T>(
  file: StateFile<T>,
  options: { hot?: boolean } = {},
): ReadResult<T> {
  const schema = options.hot === true ? (file.hotSchema ?? file.schema) : file.schema;
  let text: string;
  try {
    text = readFileSync(file.path, "utf8");
  } catch (error) {
    if (isMissing(error)) return { value: file.create(), existed: false };
    return { value: file.create(), existed: true, problem: describeError(error) };
  }
  const parsed =
    takePrefetched(file, text, schema) ??
    (options.hot === true ? parseHot(file, text) : parseState(file, text, schema));
  if (!parsed.ok) return { value: file.create(), existed: true, problem: parsed.reason };
  const value =
    file.journal === undefined ? parsed.value : foldUnlocked(file.journal, parsed.value);
  return { value, existed: true };
}

/**
 * Read-modify-write under an exclusive lock, then an atomic rename, so concurrent hook
 * processes never lose an update. A file that cannot be parsed is moved aside and rebuilt.
 */
export async function updateState<T, R = undefined>(
  file: StateFile<T>,
  change: (current: T) => { value: T; result: R },
): Promise<UpdateResult<T, R>> {
  return withFileLock(file.path, STATE_LOCK, async () => {
    let current: T;
    let recovered: Recovery | undefined;
    const read = readForUpdate(file);
    if (read.ok) current = read.value;
    else {
      markCreatedState();
      current = file.create();
      if (read.reason !== undefined) {
        recovered = moveAside(file.path, read.reason);
        recoveries.push(recovered);
      }
    }
    const taken = file.journal === undefined ? undefined : takeJournal(file.journal, current);
    const changed = change(taken === undefined ? current : taken.value);
    const { result } = changed;
    const value =
      taken === undefined || file.journal === undefined
        ? changed.value
        : file.journal.withCursor(changed.value, taken.cursor);
    const text = `${JSON.stringify(value, null, 2)}\n`;
    // A change that changes nothing (an edit of a file already queued) writes nothing: no temp
    // file, no fsync, no rename, and the file keeps its time.
    if (!read.ok || read.text !== text) await writeAtomic(file.path, text);
    // What a rotation set aside is dropped once the state holding its lines is on disk.
    taken?.done();
    return recovered === undefined ? { value, result } : { value, result, recovered };
  });
}

export interface AppendResult<T> {
  /** The state as this call saw it before its change (the journal folded in). */
  before: T;
  /** The state with the change. */
  value: T;
  recovered?: Recovery;
}

/**
 * Records a change as one line of the state's journal: no lock, no read-modify-write of the
 * state, one `O_APPEND` write and an fsync of the journal alone (ADR 0010). A change the state
 * already holds (an edit of a file queued as it is) writes nothing. The locked `updateState` does
 * it instead when the state is missing or cannot be read (it is created or moved aside under the
 * lock), when the journal is not the one the state names (being rotated, or not started), and
 * when the journal was rotated while the line was written: the line is never lost, and folding it
 * twice is harmless (`fold` sets, it does not add).
 */
export async function appendState<T>(file: StateFile<T>, line: string): Promise<AppendResult<T>> {
  const journal = file.journal;
  if (journal === undefined || line.includes("\n"))
    throw new Error("appendState needs a journal and one line");
  const locked = async (): Promise<AppendResult<T>> => {
    const { value, result, recovered } = await updateState(file, (current) => ({
      value: journal.fold(current, line),
      result: current,
    }));
    return recovered === undefined
      ? { before: result, value }
      : { before: result, value, recovered };
  };
  let text: string;
  try {
    text = readFileSync(file.path, "utf8");
  } catch {
    return locked();
  }
  // What this path reads is checked; it writes only the line, never the state it read.
  const parsed = parseHot(file, text);
  if (!parsed.ok) return locked();
  const cursor = journal.cursor(parsed.value);
  if (cursor === undefined) return locked();
  const before = foldUnlocked(journal, parsed.value);
  const value = journal.fold(before, line);
  if (JSON.stringify(value) === JSON.stringify(before)) return { before, value };
  let fd: number;
  try {
    // Never created here: a journal the state does not name would not be read.
    fd = openSync(journal.path, fsConstants.O_WRONLY | fsConstants.O_APPEND);
  } catch (error) {
    if (isMissing(error)) return locked();
    throw error;
  }
  let ino: number;
  try {
    ino = fstatSync(fd).ino;
    if (ino === cursor.ino) {
      // A line starts with a newline too, so it never runs on from a line a crash cut short.
      const data = Buffer.from(`\n${line}\n`, "utf8");
      if (writeSync(fd, data) !== data.length) throw new Error("the journal line was cut short");
      fsyncSync(fd);
    }
  } finally {
    closeSync(fd);
  }
  // Not the journal the state names, or rotated while the line was written (it may be in the
  // file set aside after that was read): the lock holder's way.
  if (ino !== cursor.ino || inoOf(journal.path) !== ino) return locked();
  return { before, value };
}

/** A journal bigger than this is set aside and started afresh by the next locked reader. */
export const JOURNAL_ROTATE_BYTES = 64 * 1024;

/** The journal being rotated: kept until the state holding its lines is written. */
const ASIDE = ".folding";

function inoOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

function openToRead(path: string): number | undefined {
  try {
    return openSync(path, "r");
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** The whole lines of `fd` from byte `from` to `size`, and where the last whole line ends. */
function wholeLines(fd: number, from: number, size: number): { lines: string[]; end: number } {
  if (size <= from) return { lines: [], end: from };
  const buffer = Buffer.allocUnsafe(size - from);
  let got = 0;
  while (got < buffer.length) {
    const count = readSync(fd, buffer, got, buffer.length - got, from + got);
    if (count === 0) break;
    got += count;
  }
  // Past the last newline: a line still being written, or one a crash cut short. Not read yet.
  const last = got === 0 ? -1 : buffer.lastIndexOf(10, got - 1);
  if (last === -1) return { lines: [], end: from };
  const lines = buffer.toString("utf8", 0, last).split("\n");
  return { lines: lines.filter((one) => one !== ""), end: from + last + 1 };
}

function foldLines<T>(journal: Journal<T>, value: T, lines: readonly string[]): T {
  let folded = value;
  for (const line of lines) folded = journal.fold(folded, line);
  return folded;
}

/** A reader without the lock: the state with the journal's lines past its cursor, in memory. */
function foldUnlocked<T>(journal: Journal<T>, value: T): T {
  const cursor = journal.cursor(value);
  if (cursor === undefined) return value;
  let fd: number | undefined;
  try {
    fd = openToRead(journal.path);
  } catch {
    return value;
  }
  if (fd === undefined) return value;
  try {
    const stat = fstatSync(fd);
    // Another file (being rotated): its lines reach this state through the lock holder.
    if (stat.ino !== cursor.ino) return value;
    return foldLines(journal, value, wholeLines(fd, cursor.bytes, stat.size).lines);
  } finally {
    closeSync(fd);
  }
}

/**
 * Under the state's lock: the state with every journal line past its cursor folded in, and the
 * cursor to write with it. A journal the state does not name (the state was rebuilt, or a
 * rotation stopped before the state was written) is folded from its start and adopted; a missing
 * one is started; one past `JOURNAL_ROTATE_BYTES` is renamed aside, read to its end (every line
 * written before the rename) and started afresh. What was set aside is removed by `done`, after
 * the state is written; one found at the start (a rotation cut short) is folded from the cursor
 * when it is the journal the state names, else it was folded already.
 */
function takeJournal<T>(
  journal: Journal<T>,
  value: T,
): { value: T; cursor: JournalCursor; done: () => void } {
  const cursor = journal.cursor(value);
  const aside = `${journal.path}${ASIDE}`;
  let folded = value;
  const left = openToRead(aside);
  if (left !== undefined) {
    try {
      const stat = fstatSync(left);
      if (cursor !== undefined && stat.ino === cursor.ino)
        folded = foldLines(journal, folded, wholeLines(left, cursor.bytes, stat.size).lines);
    } finally {
      closeSync(left);
    }
  }
  const done = () => {
    try {
      unlinkSync(aside);
    } catch {
      // none was set aside
    }
  };
  const fd = openToRead(journal.path);
  if (fd === undefined) return { value: folded, cursor: startJournal(journal.path), done };
  let rotate: boolean;
  let end: number;
  let ino: number;
  try {
    const stat = fstatSync(fd);
    ino = stat.ino;
    const known = cursor !== undefined && stat.ino === cursor.ino;
    const from = known ? cursor.bytes : 0;
    rotate = left === undefined && stat.size >= (journal.rotateBytes ?? JOURNAL_ROTATE_BYTES);
    // After the rename no writer reaches this file: its size then holds every line written.
    if (rotate) renameSync(journal.path, aside);
    const read = wholeLines(fd, from, rotate ? fstatSync(fd).size : stat.size);
    folded = foldLines(journal, folded, read.lines);
    end = read.end;
  } finally {
    closeSync(fd);
  }
  if (rotate) return { value: folded, cursor: startJournal(journal.path), done };
  return { value: folded, cursor: { ino, bytes: end }, done };
}

/** A new, empty journal (under the lock: writers never create one). */
function startJournal(path: string): JournalCursor {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "a", 0o644);
  try {
    const stat = fstatSync(fd);
    return { ino: stat.ino, bytes: stat.size };
  } finally {
    closeSync(fd);
  }
}

/** Writes a whole file so that readers see either the old or the new content, never a mix. */
export async function writeAtomic(path: string, content: string | Uint8Array): Promise<void> {
  writeAtomicSync(path, content);
}

/** `writeAtomic`, for callers that are not async. */
export function writeAtomicSync(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = createTemp(path);
  try {
    try {
      const data = typeof content === "string" ? Buffer.from(content, "utf8") : content;
      if (!(data instanceof Uint8Array)) throw new TypeError("state is text or bytes");
      writeAll(temp.fd, data);
      fsyncSync(temp.fd);
    } finally {
      closeSync(temp.fd);
    }
    renameSync(temp.path, path);
  } catch (error) {
    // A full disk or a failed rename: the old file stays as it was, and no temp file is left.
    removeTemp(temp.path);
    throw error;
  }
}

/** Every byte of `data` to `fd`: a write may take fewer than it is given. */
function writeAll(fd: number, data: Uint8Array): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

function removeTemp(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // never created, or already gone
  }
}

/**
 * `writeAtomic` for a file too large to hold as one string: `fill` hands its text over piece by
 * piece (`put`), written through as 64 KiB gather; the file appears whole, or not at all when
 * `fill` throws.
 */
export async function writeAtomicPieces(
  path: string,
  fill: (put: (text: string) => void) => Promise<void>,
): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const temp = createTemp(path);
  try {
    try {
      let pending = "";
      const flush = () => {
        writeAll(temp.fd, Buffer.from(pending, "utf8"));
        pending = "";
      };
      await fill((text) => {
        pending += text;
        if (pending.length >= PIECE_CHARS) flush();
      });
      flush();
      fsyncSync(temp.fd);
    } finally {
      closeSync(temp.fd);
    }
    renameSync(temp.path, path);
  } catch (error) {
    removeTemp(temp.path);
    throw error;
  }
}

/** What `writeAtomicPieces` gathers before a write. */
const PIECE_CHARS = 64 * 1024;

let tempCount = 0;

/**
 * A new temp file beside `path`, opened exclusively: this process's id, the time and a count
 * keep names apart, and `wx` makes sure no other file is ever written over.
 */
function createTemp(path: string): { path: string; fd: number } {
  for (;;) {
    tempCount += 1;
    const temp = `${path}.${process.pid}.${Date.now().toString(36)}${tempCount}.tmp`;
    try {
      return { path: temp, fd: openSync(temp, "wx", 0o644) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

type ParseOutcome<T> = { ok: true; value: T } | { ok: false; reason: string };

function parseState<T>(
  file: StateFile<T>,
  text: string,
  schema: z.core.$ZodType = file.schema,
): ParseOutcome<T> {
  if (text.trim() === "") return { ok: false, reason: "the file is empty" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: "the file is not valid JSON" };
  }
  const version = (json as { version?: unknown } | null)?.version;
  const parsed = z.safeParse(schema, json);
  // A hot schema's value is a T in what it checks (`StateFile.hotSchema`).
  if (parsed.success) return { ok: true, value: parsed.data as T };
  if (typeof version === "number" && version > currentVersion(file)) {
    return { ok: false, reason: `it was written by a newer tailtest (schema version ${version})` };
  }
  const issue = parsed.error.issues[0];
  const where = issue === undefined ? "" : ` at "${issue.path.map(String).join(".") || "(top)"}"`;
  return { ok: false, reason: `it does not match the schema${where}` };
}

function readForUpdate<T>(
  file: StateFile<T>,
): { ok: true; value: T; text: string } | { ok: false; reason?: string } {
  let text: string;
  try {
    text = readFileSync(file.path, "utf8");
  } catch (error) {
    if (isMissing(error)) return { ok: false };
    return { ok: false, reason: describeError(error) };
  }
  const parsed = takePrefetched(file, text) ?? parseState(file, text);
  return parsed.ok ? { ...parsed, text } : parsed;
}

/**
 * The last lock-free read of each state file in this process (`readState` with `hot`, and
 * `appendState`'s read before its line), by path: a queued edit reads the session in both, and the
 * second parse of the same text is skipped. Only a text exactly the one parsed is taken, so a file
 * another process wrote since is parsed again; the values are never changed in place (every
 * change of a state is a new value), so handing the same one to both readers is safe.
 */
const hotReads = new Map<string, { text: string; schema: unknown; value: unknown }>();

function parseHot<T>(file: StateFile<T>, text: string): ParseOutcome<T> {
  const schema = file.hotSchema ?? file.schema;
  const last = hotReads.get(file.path);
  if (last !== undefined && last.text === text && last.schema === schema)
    return { ok: true, value: last.value as T };
  const parsed = parseState(file, text, schema);
  if (parsed.ok) hotReads.set(file.path, { text, schema, value: parsed.value });
  return parsed;
}

/** State files read and checked ahead of their use (`prefetchState`), by path: each taken once. */
const prefetched = new Map<string, { text: string; schema: unknown; value: unknown }>();

/**
 * Reads and checks a state file now, for a later `readState` or `updateState` of the same file in
 * this process: a process that waits on something else (the end of a turn waits on its test
 * runner) does the parse then instead of after. The later read still reads the file; only when
 * its text is exactly what was parsed here (same schema) is the parse skipped, so a file another
 * process wrote since is parsed again. Nothing is kept for a file that does not parse. Never
 * throws.
 */
export function prefetchState<T>(file: StateFile<T>): void {
  try {
    const text = readFileSync(file.path, "utf8");
    const parsed = parseState(file, text);
    if (parsed.ok) prefetched.set(file.path, { text, schema: file.schema, value: parsed.value });
  } catch {
    // No file, or none readable: the later read says so itself.
  }
}

function takePrefetched<T>(
  file: StateFile<T>,
  text: string,
  schema: z.core.$ZodType = file.schema,
): ParseOutcome<T> | undefined {
  const entry = prefetched.get(file.path);
  if (entry === undefined) return undefined;
  prefetched.delete(file.path);
  return entry.text === text && entry.schema === schema
    ? { ok: true, value: entry.value as T }
    : undefined;
}

function currentVersion<T>(file: StateFile<T>): number {
  const version = (file.create() as { version?: unknown }).version;
  return typeof version === "number" ? version : 0;
}

/**
 * Moves a state file that cannot be used aside (never deleted), to be rebuilt, and records it for
 * the hook's one stderr line. The caller holds the file's lock (or its state's).
 */
export function setAside(path: string, reason: string): Recovery {
  const recovered = moveAside(path, reason);
  recoveries.push(recovered);
  return recovered;
}

function moveAside(path: string, reason: string): Recovery {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const movedTo = `${path}.corrupt-${stamp}-${process.pid}`;
  renameSync(path, movedTo);
  return { movedTo, reason };
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === undefined ? "it cannot be read" : `it cannot be read (${code})`;
}
