import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import * as z from "zod/mini";
import {
  checkpointOf,
  checkpointPart,
  closedPartOf,
  openIdsOf,
  readCheckpointPart,
  resumeSnapshot,
  snapshotOfCheckpoint,
  snapshotOfEvents,
  StrictCheckpointSchema,
  type CheckpointLog,
  type ClosedPart,
  type StrictCheckpoint,
  type StrictSnapshot,
} from "../checkpoint.ts";
import {
  formatStrictEvent,
  parseStrictLog,
  type StrictEventInput,
  type StrictLog,
} from "../strict-events.ts";
import type { ProjectView } from "../../project/project-view.ts";
import { isRunnerConfigName, testSupportFiles } from "../test-support.ts";
import { matcherRewrite, outcomeRewrite, outcomeRewriteReason } from "../outcome-rewrite.ts";
import {
  standInCandidates,
  standInReason,
  standInTargets,
  type SpecifierResolver,
} from "../stand-in.ts";
import { allowlistCovers } from "../../tdd/tdd-gate.ts";
import type { TddFilePatterns } from "../../tdd/file-classes.ts";
import { STATE_DIR } from "../../project/node/project.ts";
import {
  goEnvDescription,
  jsRunnerDescription,
  pythonStartupDescription,
} from "./installed-runtime.ts";
import {
  APPEND_LOCK,
  setAside,
  STATE_LOCK,
  withFileLock,
  writeAtomic,
  writeAtomicSync,
  type LockWait,
} from "../../state/node/store.ts";
import { appendLogged, EVENTS_PATH } from "../../tdd/node/tdd-store.ts";
import { copiesInForce } from "../../gating/node/state-copy.ts";

/**
 * The node edge of strict mode: appending events to `.tailtest/events.jsonl` under a lock, reading
 * them back, and the content-addressed store of file snapshots (`.tailtest/objects/<sha256>`, and
 * packs of many in `objects/packs/`) that a failed verification restores from. See ADR 0008.
 */

/** Project-relative folder of file snapshots, one file per sha256 of the content. */
export const OBJECTS_DIR = `${STATE_DIR}/objects`;
/** Held while a turn's claims are verified, so two stops never revert each other's work. */
const VERIFY_LOCK_PATH = `${STATE_DIR}/strict-verify`;

/** A verification runs tests: wait up to 10 minutes for another one to finish. */
const VERIFY_LOCK: LockWait = {
  staleMs: 30_000,
  updateMs: 5_000,
  waitMs: 600_000,
  minDelayMs: 50,
  maxDelayMs: 2_000,
};

/**
 * The files strict mode's state is read from: the project's log and checkpoint, or, while a
 * session's mode copy is in force, tailtest's copies of them outside the project
 * (state-copy.ts): a line or a checkpoint a program wrote into `.tailtest/` then moves nothing.
 */
interface StrictFiles {
  log: string;
  checkpoint: string;
  part: string;
}

function strictFiles(root: string): StrictFiles {
  const copy = copiesInForce(root);
  if (copy === undefined)
    return {
      log: join(root, EVENTS_PATH),
      checkpoint: join(root, STRICT_CHECKPOINT_PATH),
      part: join(root, STRICT_CHECKPOINT_PART_PATH),
    };
  return {
    log: copy(EVENTS_PATH),
    checkpoint: copy(STRICT_CHECKPOINT_PATH),
    part: copy(STRICT_CHECKPOINT_PART_PATH),
  };
}

/** Every strict event of the project, oldest first. A missing log has none. */
export async function readStrictLog(root: string): Promise<StrictLog> {
  let text: string;
  try {
    text = readFileSync(strictFiles(root).log, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { events: [], problems: [], newer: false };
    throw error;
  }
  return parseStrictLog(text);
}

/** The checkpoint of the reduced log (strict/checkpoint.ts): a cache, rebuilt from the log. */
export const STRICT_CHECKPOINT_PATH = `${STATE_DIR}/strict-state.json`;
/** Its part: the closed claims and tested ids, read only by a call that needs them. */
export const STRICT_CHECKPOINT_PART_PATH = `${STATE_DIR}/strict-closed.json`;

/** How every reader of the reduced state reads the log (`parseStrictLog`), checkpoints and all. */
const FOR_STATE = { forState: true } as const;

/** Events appended since the checkpoint before a reader writes a newer one. */
const CHECKPOINT_EVERY = 64;
/** How much of the log's start and end a checkpoint's hashes cover. */
const EDGE_BYTES = 4096;

export interface StrictLogState {
  snapshot: StrictSnapshot;
  /** A line written by a newer tailtest: decisions must not be taken on this log. */
  newer: boolean;
}

/**
 * The reduced log, read from its checkpoint and the lines appended since; the whole log is
 * replayed when the checkpoint is missing, unreadable, or does not match the log (another file,
 * shorter, or other bytes at either end of what it covers). Whoever replays more than a few
 * lines writes a new checkpoint, without the log's lock: a checkpoint only says what some prefix
 * of the log reduces to, so any complete one is right, and the last rename wins. Two writers can
 * leave one's checkpoint beside the other's part: a part names the point of the log it was taken
 * at, and one taken elsewhere is rebuilt from the log when read (`readClosedPart`).
 */
export function readStrictState(root: string): StrictLogState {
  const files = strictFiles(root);
  let fd: number;
  try {
    fd = openSync(files.log, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { snapshot: snapshotOfEvents([]), newer: false };
    throw error;
  }
  try {
    const { size, ino } = fstatSync(fd);
    const checkpoint = readCheckpoint(files);
    const usable =
      checkpoint !== undefined && matchesLog(fd, checkpoint.log, ino, size)
        ? snapshotOfCheckpoint(checkpoint, () => readClosedPart(files, checkpoint))
        : undefined;
    if (usable !== undefined && checkpoint !== undefined) {
      const tail = readLines(fd, checkpoint.log.bytes, size);
      const log = parseStrictLog(tail.text, FOR_STATE);
      if (log.newer) return { snapshot: usable, newer: true };
      const resumed = resumeSnapshot(usable, log.events);
      if (resumed !== undefined) {
        if (log.events.length >= CHECKPOINT_EVERY)
          saveCheckpoint(files, fd, resumed, ino, tail.end);
        return { snapshot: resumed, newer: false };
      }
    }
    const whole = readLines(fd, 0, size);
    const log = parseStrictLog(whole.text, FOR_STATE);
    if (log.newer) return { snapshot: snapshotOfEvents(log.events), newer: true };
    const snapshot = snapshotOfEvents(log.events);
    if (whole.end > 0) saveCheckpoint(files, fd, snapshot, ino, whole.end);
    return { snapshot, newer: false };
  } finally {
    closeSync(fd);
  }
}

const GATED_EDIT = /"type":"(snapshot|edit_applied|edit_reverted)"/;
const TIMESTAMP = /"ts":"([^"]+)"/;

/** In `readStrictEditsSince`'s sets: an event that did not say what the file held. */
export const ANY_CONTENT = "*";

/**
 * The edits the gate saw from `sinceMs` on (snapshot, edit_applied, edit_reverted events): per
 * path, every content (sha256, null: no file) those events say the file held, before or after
 * the edit. A file holding none of them was written again after the gate saw it; `refactored`:
 * the paths an edit was let through under no claim (refactor mode). Only lines of those types
 * stamped since then are parsed and validated.
 */
export function readStrictEditsSince(
  root: string,
  sinceMs: number,
): { seen: Map<string, Set<string | null>>; refactored: Set<string> } {
  const seen = new Map<string, Set<string | null>>();
  const refactored = new Set<string>();
  let text: string;
  try {
    text = readFileSync(strictFiles(root).log, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { seen, refactored };
    throw error;
  }
  const end = text.lastIndexOf("\n");
  const recent = text
    .slice(0, end + 1)
    .split("\n")
    .filter((line) => {
      if (!GATED_EDIT.test(line)) return false;
      const ts = TIMESTAMP.exec(line)?.[1];
      return ts !== undefined && Date.parse(ts) >= sinceMs;
    });
  const add = (path: string, object: string | null | undefined) => {
    const objects = seen.get(path) ?? new Set<string | null>();
    objects.add(object === undefined ? ANY_CONTENT : object);
    seen.set(path, objects);
  };
  for (const event of parseStrictLog(recent.map((line) => `${line}\n`).join("")).events) {
    if (Date.parse(event.ts) < sinceMs) continue;
    if (event.type === "snapshot" || event.type === "edit_applied") add(event.path, event.object);
    else if (event.type === "edit_reverted") add(event.path, event.restored);
    // An edit the gate let through under no claim: refactor mode's.
    if (event.type === "edit_applied" && event.claims.length === 0) refactored.add(event.path);
  }
  return { seen, refactored };
}

function readCheckpoint(files: StrictFiles): StrictCheckpoint | undefined {
  let text: string;
  try {
    text = readFileSync(files.checkpoint, "utf8");
  } catch {
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = z.safeParse(StrictCheckpointSchema, json);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The checkpoint's part (closed claims, tested ids), read when something first needs it: after
 * `readStrictState` returned, so it opens the log again. A part that is missing, taken at
 * another point of the log, or unreadable is rebuilt from the prefix of the log the checkpoint
 * covers (an unreadable one is moved aside first, never deleted) and written back. Throws only
 * when that prefix is no longer the one the checkpoint was taken of (the log was replaced since
 * the call began): a gate that cannot decide blocks.
 */
function readClosedPart(files: StrictFiles, checkpoint: StrictCheckpoint): ClosedPart {
  const openIds = openIdsOf(checkpoint) ?? new Set<string>();
  const path = files.part;
  let text: string | undefined;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    text = undefined;
  }
  if (text !== undefined) {
    const read = readCheckpointPart(text, checkpoint.log, openIds);
    if (read.part !== undefined) return read.part;
    if (read.problem === "corrupt")
      try {
        setAside(path, "the strict checkpoint's closed claims do not read");
      } catch {
        // Gone already (another reader moved it): rebuilt below all the same.
      }
  }
  const part = closedPartOf(replayPrefix(files, checkpoint.log), openIds);
  try {
    writeAtomicSync(path, `${JSON.stringify(checkpointPart(checkpoint.log, part))}\n`);
  } catch {
    // A read-only or full disk: the next reader replays the prefix again.
  }
  return part;
}

/** The snapshot of the log's prefix a checkpoint covers, checked to be that same prefix. */
function replayPrefix(files: StrictFiles, log: CheckpointLog): StrictSnapshot {
  const fd = openSync(files.log, "r");
  try {
    const { ino, size } = fstatSync(fd);
    if (!matchesLog(fd, log, ino, size))
      throw new Error("the strict event log changed under its checkpoint");
    const prefix = parseStrictLog(readLines(fd, 0, log.bytes).text, FOR_STATE);
    const snapshot = snapshotOfEvents(prefix.events);
    if (prefix.newer || snapshot.events !== log.events)
      throw new Error("the strict event log changed under its checkpoint");
    return snapshot;
  } finally {
    closeSync(fd);
  }
}

function readBytes(fd: number, from: number, to: number): Buffer {
  const buffer = Buffer.allocUnsafe(Math.max(0, to - from));
  let done = 0;
  while (done < buffer.length) {
    const count = readSync(fd, buffer, done, buffer.length - done, from + done);
    if (count === 0) break;
    done += count;
  }
  return buffer.subarray(0, done);
}

/** The complete lines between two offsets (`from` is a line's start), and where they end. */
function readLines(fd: number, from: number, size: number): { text: string; end: number } {
  const bytes = readBytes(fd, from, size);
  const last = bytes.lastIndexOf(0x0a);
  return { text: bytes.toString("utf8", 0, last + 1), end: from + last + 1 };
}

/**
 * The first and last (up to) 4 KiB of the log's first `bytes`, as base64: compared whole, a copy
 * and a string compare in node's own code, where hashing 8 KiB a byte at a time in JavaScript
 * cost every strict gate ~4.7 M instructions (ADR 0010).
 */
function edges(fd: number, bytes: number): { head: string; tail: string } {
  return {
    head: readBytes(fd, 0, Math.min(EDGE_BYTES, bytes)).toString("base64"),
    tail: readBytes(fd, Math.max(0, bytes - EDGE_BYTES), bytes).toString("base64"),
  };
}

function matchesLog(fd: number, log: StrictCheckpoint["log"], ino: number, size: number): boolean {
  if (log.ino !== ino || log.bytes > size) return false;
  const now = edges(fd, log.bytes);
  return now.head === log.head && now.tail === log.tail;
}

/**
 * Writes a checkpoint for the log's first `bytes`, its part first (a checkpoint is only used with
 * a part taken at the same point); a failure only costs the next call a replay.
 */
function saveCheckpoint(
  files: StrictFiles,
  fd: number,
  snapshot: StrictSnapshot,
  ino: number,
  bytes: number,
): void {
  try {
    const { checkpoint, part } = checkpointOf(snapshot, { ino, bytes, ...edges(fd, bytes) });
    writeAtomicSync(files.part, `${JSON.stringify(part)}\n`);
    writeAtomicSync(files.checkpoint, `${JSON.stringify(checkpoint)}\n`);
  } catch {
    // A read-only or full disk: the log is still read whole.
  }
}

/**
 * Appends events, validated, as one fsynced write under the log's lock. A torn last line (a
 * writer that died mid-append) is closed with a newline first and kept, never rewritten.
 */
export async function appendStrictEvents(
  root: string,
  events: readonly StrictEventInput[],
): Promise<void> {
  if (events.length === 0) return;
  const text = events.map((event) => `${formatStrictEvent(event)}\n`).join("");
  const path = join(root, EVENTS_PATH);
  await withFileLock(path, APPEND_LOCK, () => appendLogged(root, EVENTS_PATH, text));
}

/**
 * Appends the gate's refusals (`edit_denied`) with no lock: they never move the state
 * (`applyStrictEvent`), so nothing read under the lock depends on them, and one O_APPEND write of
 * whole lines lands whole whatever else is appended at the same moment. A hundred gates at once
 * no longer queue for the log's lock (and each other's fsyncs) only to say no.
 */
export async function appendStrictRefusals(
  root: string,
  events: readonly Extract<StrictEventInput, { type: "edit_denied" }>[],
): Promise<void> {
  if (events.length === 0) return;
  const text = events.map((event) => `${formatStrictEvent(event)}\n`).join("");
  await appendLogged(root, EVENTS_PATH, text);
}

/**
 * Appends the events `build` makes from the log's state as it is under the log's lock, and
 * returns what `build` returns: a number drawn from the state (a claim's) cannot be drawn by two
 * processes at once.
 */
export async function appendStrictEventsFrom<R>(
  root: string,
  build: (state: StrictLogState) => { events: readonly StrictEventInput[]; result: R },
): Promise<R> {
  const path = join(root, EVENTS_PATH);
  return withFileLock(path, STATE_LOCK, async () => {
    const { events, result } = build(readStrictState(root));
    if (events.length > 0)
      await appendLogged(
        root,
        EVENTS_PATH,
        events.map((event) => `${formatStrictEvent(event)}\n`).join(""),
      );
    return result;
  });
}

/** Runs `work` while no other verification of this project runs. */
export async function withVerifyLock<R>(root: string, work: () => Promise<R>): Promise<R> {
  return withFileLock(join(root, VERIFY_LOCK_PATH), VERIFY_LOCK, work);
}

export function sha256(content: Buffer | string): string {
  // node:crypto is loaded by the calls that hash, not by every hook that reads the log.
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(content).digest("hex");
}

/*
 * The file operations are synchronous, as in store.ts: a hook does one thing at a time, and the
 * promise API loads node's streams.
 */

/** Files are read in chunks of this size into one reused buffer, never held whole. */
const CHUNK_BYTES = 1024 * 1024;
let chunkBuffer: Buffer | undefined;

/** The reused read buffer (allocated on first use). */
function chunk(): Buffer {
  chunkBuffer ??= Buffer.allocUnsafe(CHUNK_BYTES);
  return chunkBuffer;
}

/** A read-only descriptor of a file, or null when it does not exist. */
function openIfFile(path: string): number | null {
  try {
    return openSync(path, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** sha256 of a project file's bytes, or null when it does not exist. Read in chunks. */
export async function hashFile(root: string, relPath: string): Promise<string | null> {
  const fd = openIfFile(join(root, relPath));
  if (fd === null) return null;
  try {
    const { createHash } = process.getBuiltinModule("node:crypto");
    const hash = createHash("sha256");
    const buffer = chunk();
    for (;;) {
      const count = readSync(fd, buffer, 0, buffer.length, null);
      if (count === 0) break;
      hash.update(buffer.subarray(0, count));
    }
    return hash.digest("hex");
  } finally {
    closeSync(fd);
  }
}

/** A test file a JavaScript runner runs. */
const JS_TEST = /\.(?:[cm]?[jt]sx?)$/;

/**
 * One hash of what a test's verdict depends on besides its file (`strict/test-support.ts`): each
 * support file's path and content hash, so a change, a new file or a removed one all change it,
 * and for a Python test the interpreter's start-up hooks and pytest, for a JavaScript one its
 * runner's installed packages (`installed-runtime.ts`).
 */
export async function supportHash(
  project: { root: string; view: ProjectView },
  testFile: string,
  patterns: TddFilePatterns,
): Promise<string> {
  const lines: string[] = [];
  // A support file outside the project is `../…` from the root or absolute; one that does not
  // exist is `-`, so creating it changes the hash.
  for (const path of testSupportFiles(project.view, testFile, patterns))
    lines.push(
      `${path}\0${(await hashFile(isAbsolute(path) ? "/" : project.root, path)) ?? "-"}\n`,
    );
  // Runners look for their config above the project root too (mocha's `.mocharc.*` and the
  // nearest package.json, vitest's and jest's config, pytest's ini files).
  for (const path of outsideRunnerConfigs(project.root))
    lines.push(`${path}\0${(await hashFile("/", path)) ?? "-"}\n`);
  // A Python test also runs the interpreter's start-up hooks and the installed pytest.
  if (testFile.endsWith(".py")) lines.push(pythonStartupDescription(project.root));
  // A JavaScript test also runs its runner's installed files (`node_modules/vitest`, `jest-circus`…).
  else if (JS_TEST.test(testFile)) lines.push(jsRunnerDescription(project.root, testFile));
  // A Go test is built with the go command's settings (`go env -w GOFLAGS=…`).
  else if (testFile.endsWith("_test.go")) lines.push(goEnvDescription());
  return sha256(lines.join(""));
}

/**
 * Why a pass is not trusted: a Python file of a Python test's support (the `conftest.py` chain,
 * the helpers of its test areas) rewrites what a run reports, or a JavaScript file of a
 * JavaScript test's support (a setup file, a helper) gives a built-in matcher a new body
 * (`outcome-rewrite.ts`). Undefined for other tests, or when none does. Read only after a pass.
 */
export function supportRewriteReason(
  project: { root: string; view: ProjectView },
  testFile: string,
  patterns: TddFilePatterns,
): string | undefined {
  const python = testFile.endsWith(".py");
  if (!python && !JS_TEST.test(testFile)) return undefined;
  for (const path of testSupportFiles(project.view, testFile, patterns)) {
    if (!(python ? path.endsWith(".py") : JS_TEST.test(path))) continue;
    let text: string;
    try {
      text = readFileSync(isAbsolute(path) ? path : join(project.root, path), "utf8");
    } catch {
      continue;
    }
    const words = python ? outcomeRewrite(text) : matcherRewrite(text);
    if (words !== undefined)
      return outcomeRewriteReason(path, words, python ? "pytest" : "its runner");
  }
  return undefined;
}

/**
 * Why a pass proves nothing of `targets`: the test, or a file of its support written before the
 * Red or the claim (a setup file, a `conftest.py`), mocks or patches one of them by name
 * (`stand-in.ts`); `resolve` reads a JavaScript specifier that is not a path from the file
 * (`stand-in-resolve.ts`). Undefined when none does. Read only after a pass.
 */
export function standInOfTargets(
  project: { root: string; view: ProjectView },
  testFile: string,
  patterns: TddFilePatterns,
  targets: readonly string[],
  resolve?: SpecifierResolver,
): string | undefined {
  if (targets.length === 0) return undefined;
  const python = testFile.endsWith(".py");
  if (!python && !JS_TEST.test(testFile)) return undefined;
  // A Green's entry may be a glob or a folder (`src/*`, `src/`): the files it covers are those
  // the mocks name, when they exist.
  const globs = targets.filter((target) => /[*?[]/.test(target) || target.endsWith("/"));
  const literal = targets.filter((target) => !globs.includes(target));
  const covered = (path: string, text: string) =>
    globs.length === 0
      ? []
      : standInCandidates(path, text, resolve).filter(
          (file) => allowlistCovers(globs, file) && project.view.exists(file),
        );
  const support = testSupportFiles(project.view, testFile, patterns).filter(
    (path) => !isAbsolute(path) && (python ? path.endsWith(".py") : JS_TEST.test(path)),
  );
  for (const path of [testFile, ...support]) {
    let text: string;
    try {
      text = readFileSync(join(project.root, path), "utf8");
    } catch {
      continue;
    }
    const mocked = [...standInTargets(path, text, literal, resolve), ...covered(path, text)];
    if (mocked.length > 0) return standInReason(path, [...new Set(mocked)]);
  }
  return undefined;
}

/** The runner config files in every folder above the project root, absolute. */
function outsideRunnerConfigs(root: string): string[] {
  const found: string[] = [];
  let dir = resolve(root);
  for (let parent = dirname(dir); parent !== dir; parent = dirname(dir)) {
    dir = parent;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.sort()) if (isRunnerConfigName(name)) found.push(join(dir, name));
  }
  return found;
}

const OBJECT_NAME = /^[0-9a-f]{64}$/;
let tempCount = 0;

/**
 * A new temp file in the objects folder, opened exclusively (never a 64-hex name). The folder is
 * made only when it is missing, not stat'ed or made once per object.
 */
function createObjectTemp(dir: string): { path: string; fd: number } {
  for (;;) {
    tempCount += 1;
    const path = join(dir, `tmp-${process.pid}-${Date.now().toString(36)}-${tempCount}`);
    try {
      return { path, fd: openSync(path, "wx") };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") mkdirSync(dir, { recursive: true });
      else if (code !== "EEXIST") throw error;
    }
  }
}

/**
 * Keeps a project file's current content in the object store: its hash, or null if absent.
 *
 * The file is read in chunks, hashed and copied as it is read, so a hook holds one chunk, never
 * the files' contents. An object is written to a temp name and renamed to its hash, with no
 * fsync: it is content-addressed, so every reader checks that its bytes hash to its name
 * (`readObject`), and one a crash left empty or torn counts as not kept (ADR 0008). A file that
 * fits in one chunk and whose object is already there is not written again.
 */
export async function snapshotFile(root: string, relPath: string): Promise<string | null> {
  return keepLoose(root, relPath);
}

/** `snapshotFile`, synchronous: a batch keeps its first files so (`keepObjects`). */
function keepLoose(root: string, relPath: string): string | null {
  const source = openIfFile(join(root, relPath));
  if (source === null) return null;
  const dir = join(root, OBJECTS_DIR);
  let temp: { path: string; fd: number } | undefined;
  let open = false;
  try {
    const hash = createHash("sha256");
    const buffer = chunk();
    let filled = 0;
    for (;;) {
      const count = readSync(source, buffer, filled, buffer.length - filled, null);
      if (count === 0) break;
      filled += count;
      if (filled === buffer.length) {
        if (temp === undefined) {
          temp = createObjectTemp(dir);
          open = true;
        }
        hash.update(buffer);
        writeAll(temp.fd, buffer);
        filled = 0;
      }
    }
    const rest = buffer.subarray(0, filled);
    hash.update(rest);
    const id = hash.digest("hex");
    const path = join(dir, id);
    if (temp === undefined) {
      if (statSync(path, { throwIfNoEntry: false })?.size === filled) return id;
      temp = createObjectTemp(dir);
      open = true;
    }
    writeAll(temp.fd, rest);
    open = false;
    closeSync(temp.fd);
    renameSync(temp.path, path);
    temp = undefined;
    return id;
  } finally {
    closeSync(source);
    if (temp !== undefined) {
      if (open) closeSync(temp.fd);
      rmSync(temp.path, { force: true });
    }
  }
}

/** node:crypto's createHash, loaded by the first call that hashes. */
function createHash(algorithm: "sha256") {
  return process.getBuiltinModule("node:crypto").createHash(algorithm);
}

/**
 * Packs: many objects in one file, `<name>.pack`, with its index `<name>.idx` (a line
 * `<sha256> <offset> <length>` per object). tailtest's copy of the production files
 * (`tree-snapshot.ts`) keeps thousands of files at a project's first strict session: one new file
 * each was most of that session's start (the file system's work to create 5,000 of them).
 */
export const PACKS_DIR = `${OBJECTS_DIR}/packs`;
/** What a pack gathers before a write. */
const PACK_BUFFER_BYTES = 256 * 1024;
/** A batch writes its first objects loose; only a batch that keeps more than these makes a pack. */
const LOOSE_FIRST = 16;
const INDEX_LINE = /^([0-9a-f]{64}) (\d+) (\d+)$/;

export interface ObjectBatch {
  /** Keeps a project file's current bytes (as `snapshotFile`): its hash, or null if absent. */
  keep: (relPath: string) => string | null;
  /** Puts the pack and its index in place: until then, what went into the pack is not kept. */
  finish: () => void;
  /** Removes an unfinished pack (after an error); nothing once finished. */
  discard: () => void;
}

/**
 * Keeps many files' bytes at once (`tree-snapshot.ts`): the first `looseFirst` as loose objects
 * (a turn that changed a few files adds no pack), the rest into one pack, each file read once
 * into the pack's buffer and hashed there. Like a loose object, a pack and its index are renamed
 * into place with no fsync: every read checks the bytes against the hash (`readObject`), so a
 * torn or missing pack, a torn index or a wrong offset only make its objects not kept.
 */
export function keepObjects(root: string, looseFirst = LOOSE_FIRST): ObjectBatch {
  const dir = join(root, PACKS_DIR);
  let loose = 0;
  /** The pack and its index under temp names, opened by the first object packed. */
  let files:
    { pack: { path: string; fd: number }; index: { path: string; fd: number } } | undefined;
  let buffer: Buffer | undefined;
  let filled = 0;
  /** Bytes of the pack already written. */
  let written = 0;
  /** Index lines not written yet. */
  let lines = "";
  const packed = new Set<string>();
  const flush = () => {
    if (files === undefined || buffer === undefined) return;
    writeAll(files.pack.fd, buffer.subarray(0, filled));
    written += filled;
    filled = 0;
    writeAll(files.index.fd, Buffer.from(lines, "latin1"));
    lines = "";
  };
  const open = () => {
    const pack = createObjectTemp(dir);
    try {
      return { pack, index: createObjectTemp(dir) };
    } catch (error) {
      closeSync(pack.fd);
      rmSync(pack.path, { force: true });
      throw error;
    }
  };
  const intoPack = (relPath: string): string | null => {
    const source = openIfFile(join(root, relPath));
    if (source === null) return null;
    try {
      files ??= open();
      buffer ??= Buffer.allocUnsafe(PACK_BUFFER_BYTES);
      const start = written + filled;
      const hash = createHash("sha256");
      for (;;) {
        if (filled === buffer.length) flush();
        const count = readSync(source, buffer, filled, buffer.length - filled, null);
        if (count === 0) break;
        hash.update(buffer.subarray(filled, filled + count));
        filled += count;
      }
      const id = hash.digest("hex");
      if (!packed.has(id)) {
        packed.add(id);
        lines += `${id} ${start} ${written + filled - start}\n`;
      } else if (start >= written) filled = start - written;
      return id;
    } finally {
      closeSync(source);
    }
  };
  /** Closes the temp files; with `name`, renames them into place first. */
  const close = (name?: string) => {
    if (files === undefined) return;
    const { pack, index } = files;
    files = undefined;
    try {
      closeSync(pack.fd);
      closeSync(index.fd);
      if (name !== undefined) {
        renameSync(pack.path, join(dir, `${name}.pack`));
        renameSync(index.path, join(dir, `${name}.idx`));
      }
    } finally {
      // Whatever did not reach its name (discarded, or after an error) is removed.
      rmSync(pack.path, { force: true });
      rmSync(index.path, { force: true });
    }
  };
  return {
    keep: (relPath) => {
      if (loose < looseFirst) {
        const id = keepLoose(root, relPath);
        if (id !== null) loose += 1;
        return id;
      }
      return intoPack(relPath);
    },
    finish: () => {
      if (files === undefined) return;
      flush();
      close(`${Date.now().toString(36)}-${process.pid}-${(tempCount += 1)}`);
    },
    discard: () => close(),
  };
}

/** A packed object's bytes, checked against its hash; undefined when no pack holds it whole. */
function readPacked(root: string, object: string): Buffer | undefined {
  const dir = join(root, PACKS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names.sort().reverse()) {
    if (!name.endsWith(".idx")) continue;
    const place = findInIndex(join(dir, name), object);
    if (place === undefined) continue;
    const bytes = readAt(join(dir, `${name.slice(0, -".idx".length)}.pack`), place);
    if (bytes !== undefined && sha256(bytes) === object) return bytes;
  }
  return undefined;
}

function findInIndex(path: string, object: string): { at: number; length: number } | undefined {
  let text: string;
  try {
    text = readFileSync(path, "latin1");
  } catch {
    return undefined;
  }
  for (let from = 0; ;) {
    const at = text.indexOf(object, from);
    if (at === -1) return undefined;
    from = at + object.length;
    if (at > 0 && text[at - 1] !== "\n") continue;
    const end = text.indexOf("\n", at);
    const line = INDEX_LINE.exec(text.slice(at, end === -1 ? text.length : end));
    if (line === null || end === -1) continue;
    return { at: Number(line[2]), length: Number(line[3]) };
  }
}

function readAt(path: string, place: { at: number; length: number }): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const bytes = Buffer.allocUnsafe(place.length);
    let done = 0;
    while (done < place.length) {
      const count = readSync(fd, bytes, done, place.length - done, place.at + done);
      if (count === 0) return undefined;
      done += count;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * A kept object's bytes, loose or from a pack, or undefined when it is not to be had: missing,
 * unreadable, or bytes that do not hash to its name (torn by a crash, changed by hand). Never a
 * wrong file's bytes.
 */
export function readObject(root: string, object: string): Buffer | undefined {
  if (!OBJECT_NAME.test(object)) return undefined;
  let bytes: Buffer | undefined;
  try {
    bytes = readFileSync(join(root, OBJECTS_DIR, object));
  } catch {
    bytes = undefined;
  }
  return bytes !== undefined && sha256(bytes) === object ? bytes : readPacked(root, object);
}

/**
 * Puts a project file back to a stored object (null: the file did not exist, so remove it).
 * False, and the file left as it is, when the object is not kept whole (`readObject`).
 */
export async function restoreFile(
  root: string,
  relPath: string,
  object: string | null,
): Promise<boolean> {
  const path = join(root, relPath);
  if (object === null) {
    rmSync(path, { force: true });
    return true;
  }
  const bytes = readObject(root, object);
  if (bytes === undefined) return false;
  await writeAtomic(path, bytes);
  return true;
}
