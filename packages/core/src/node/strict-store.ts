import { createHash } from "node:crypto";
import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  formatStrictEvent,
  parseStrictLog,
  type StrictEventInput,
  type StrictLog,
} from "../strict/events.ts";
import { STATE_DIR } from "./project.ts";
import { STATE_LOCK, withFileLock, writeAtomic, type LockWait } from "./store.ts";
import { appendDurably, EVENTS_PATH } from "./tdd-store.ts";

/**
 * The node edge of strict mode: appending events to `.tailtest/events.jsonl` under a lock, reading
 * them back, and the content-addressed store of file snapshots (`.tailtest/objects/<sha256>`)
 * that a failed verification restores from. See ADR 0008.
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

/** Every strict event of the project, oldest first. A missing log has none. */
export async function readStrictLog(root: string): Promise<StrictLog> {
  let text: string;
  try {
    text = await readFile(join(root, EVENTS_PATH), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { events: [], problems: [], newer: false };
    throw error;
  }
  return parseStrictLog(text);
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
  await withFileLock(path, STATE_LOCK, () => appendDurably(path, text));
}

/** Runs `work` while no other verification of this project runs. */
export async function withVerifyLock<R>(root: string, work: () => Promise<R>): Promise<R> {
  return withFileLock(join(root, VERIFY_LOCK_PATH), VERIFY_LOCK, work);
}

export function sha256(content: Buffer | string): string {
  return createHash("sha256").update(content).digest("hex");
}

async function readIfFile(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

/** sha256 of a project file's bytes, or null when it does not exist. */
export async function hashFile(root: string, relPath: string): Promise<string | null> {
  const content = await readIfFile(join(root, relPath));
  return content === null ? null : sha256(content);
}

/** Stores content under its hash (once; objects never change) and returns the hash. */
async function putObject(root: string, content: Buffer): Promise<string> {
  const hash = sha256(content);
  const path = join(root, OBJECTS_DIR, hash);
  const stored = await stat(path).then(
    (info) => info.size === content.length,
    () => false,
  );
  if (!stored) await writeAtomic(path, content);
  return hash;
}

/** Keeps a project file's current content in the object store: its hash, or null if absent. */
export async function snapshotFile(root: string, relPath: string): Promise<string | null> {
  const content = await readIfFile(join(root, relPath));
  return content === null ? null : putObject(root, content);
}

/** Puts a project file back to a stored object (null: the file did not exist, so remove it). */
export async function restoreFile(root: string, relPath: string, object: string | null) {
  const path = join(root, relPath);
  if (object === null) {
    await rm(path, { force: true });
    return;
  }
  await writeAtomic(path, await readFile(join(root, OBJECTS_DIR, object)));
}
