import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import lockfile from "proper-lockfile";
import type { z } from "zod";

/** A JSON state file with a versioned schema and a way to build a fresh one. */
export interface StateFile<T> {
  path: string;
  schema: z.ZodType<T>;
  create: () => T;
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

/** How every state lock waits: hooks of one turn can land together; wait ~10 s, never drop. */
export const LOCK_OPTIONS = {
  realpath: false,
  stale: 10_000,
  update: 2_000,
  // Hooks of one agent turn can land together; wait up to ~10 s rather than drop an update.
  retries: { retries: 200, factor: 1.3, minTimeout: 5, maxTimeout: 100, randomize: true },
} as const;

/** Reads a state file without locking: writers rename atomically, so a read sees a whole file. */
export async function readState<T>(file: StateFile<T>): Promise<ReadResult<T>> {
  let text: string;
  try {
    text = await readFile(file.path, "utf8");
  } catch (error) {
    if (isMissing(error)) return { value: file.create(), existed: false };
    return { value: file.create(), existed: true, problem: describeError(error) };
  }
  const parsed = parseState(file, text);
  return parsed.ok
    ? { value: parsed.value, existed: true }
    : { value: file.create(), existed: true, problem: parsed.reason };
}

/**
 * Read-modify-write under an exclusive lock, then an atomic rename, so concurrent hook
 * processes never lose an update. A file that cannot be parsed is moved aside and rebuilt.
 */
export async function updateState<T, R = undefined>(
  file: StateFile<T>,
  change: (current: T) => { value: T; result: R },
): Promise<UpdateResult<T, R>> {
  await mkdir(dirname(file.path), { recursive: true });
  const release = await lockfile.lock(file.path, {
    ...LOCK_OPTIONS,
    lockfilePath: `${file.path}.lock`,
  });
  try {
    let current: T;
    let recovered: Recovery | undefined;
    const read = await readForUpdate(file);
    if (read.ok) current = read.value;
    else {
      current = file.create();
      if (read.reason !== undefined) recovered = await moveAside(file.path, read.reason);
    }
    const { value, result } = change(current);
    await writeAtomic(file.path, `${JSON.stringify(value, null, 2)}\n`);
    return recovered === undefined ? { value, result } : { value, result, recovered };
  } finally {
    await release();
  }
}

/** Writes a whole file so that readers see either the old or the new content, never a mix. */
export async function writeAtomic(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temp, "w", 0o644);
  try {
    await handle.writeFile(content, typeof content === "string" ? "utf8" : undefined);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

type ParseOutcome<T> = { ok: true; value: T } | { ok: false; reason: string };

function parseState<T>(file: StateFile<T>, text: string): ParseOutcome<T> {
  if (text.trim() === "") return { ok: false, reason: "the file is empty" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: "the file is not valid JSON" };
  }
  const version = (json as { version?: unknown } | null)?.version;
  const parsed = file.schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  if (typeof version === "number" && version > currentVersion(file)) {
    return { ok: false, reason: `it was written by a newer tailtest (schema version ${version})` };
  }
  const issue = parsed.error.issues[0];
  const where = issue === undefined ? "" : ` at "${issue.path.map(String).join(".") || "(top)"}"`;
  return { ok: false, reason: `it does not match the schema${where}` };
}

async function readForUpdate<T>(
  file: StateFile<T>,
): Promise<{ ok: true; value: T } | { ok: false; reason?: string }> {
  let text: string;
  try {
    text = await readFile(file.path, "utf8");
  } catch (error) {
    if (isMissing(error)) return { ok: false };
    return { ok: false, reason: describeError(error) };
  }
  return parseState(file, text);
}

function currentVersion<T>(file: StateFile<T>): number {
  const version = (file.create() as { version?: unknown }).version;
  return typeof version === "number" ? version : 0;
}

async function moveAside(path: string, reason: string): Promise<Recovery> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const movedTo = `${path}.corrupt-${stamp}-${process.pid}`;
  await rename(path, movedTo);
  return { movedTo, reason };
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === undefined ? "it cannot be read" : `it cannot be read (${code})`;
}
