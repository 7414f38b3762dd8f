import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Where the copy of a session's pinned mode lives (mode-witness.ts, ADR 0012): outside the
 * project, in the person's state folder (`$XDG_STATE_HOME/tailtest/pins`, else
 * `~/.local/state/tailtest/pins`), one small file per project and session file. This module
 * loads nothing but node's path and fs: the hooks' launcher reads the copy on every follow-mode
 * call.
 */

export type WitnessEnv = Readonly<Record<string, string | undefined>>;

/** The folder of the copies; undefined when no home folder can be told. */
export function witnessFolder(env: WitnessEnv = process.env): string | undefined {
  const state = env["XDG_STATE_HOME"];
  if (state !== undefined && state.startsWith("/")) return join(state, "tailtest", "pins");
  const home = nonEmpty(env["HOME"]) ?? safeHome();
  return home === undefined ? undefined : join(home, ".local", "state", "tailtest", "pins");
}

/** The copy's file for a project root and one of its session files (project-relative). */
export function witnessPath(
  root: string,
  sessionPath: string,
  env: WitnessEnv = process.env,
): string | undefined {
  const folder = witnessFolder(env);
  return folder === undefined ? undefined : join(folder, `${witnessKey(root, sessionPath)}.json`);
}

/**
 * Whether the copy for a root and session file names one of `modes`, read as text (no schema: a caller
 * that finds it hands the call to the hook that reads it whole). False when there is none.
 */
export function witnessNames(
  root: string,
  sessionPath: string,
  modes: readonly string[],
  env: WitnessEnv = process.env,
): boolean {
  const path = witnessPath(root, sessionPath, env);
  const text = path === undefined ? undefined : witnessText(path);
  return (
    text !== undefined && modes.some((mode) => text.includes(`"mode":${JSON.stringify(mode)}`))
  );
}

/**
 * Each copy's text as a hook call first read it (null: none there), while a call holds the
 * reads (`holdWitnessReads`): the gates ask for it on every read and append of a state log, and
 * one call's answer comes from one reading of it. Cleared when the last holder ends and whenever
 * this process writes or removes a copy (`forgetWitnessReads`).
 */
const reads = new Map<string, string | null>();
let holders = 0;

/** Holds the copies' reads for one hook call; the function returned ends the hold. */
export function holdWitnessReads(): () => void {
  holders += 1;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    holders -= 1;
    if (holders === 0) reads.clear();
  };
}

/** Forgets what the held reads saw: this process wrote or removed a copy. */
export function forgetWitnessReads(): void {
  reads.clear();
}

/** A copy's text; undefined when there is none or it cannot be read. */
export function witnessText(path: string): string | undefined {
  const known = holders > 0 ? reads.get(path) : undefined;
  if (known !== undefined) return known ?? undefined;
  let text: string | null = null;
  try {
    // Asked first rather than read: a follow-mode call has none, and a failed read is an Error.
    if (existsSync(path)) text = readFileSync(path, "utf8");
  } catch {
    text = null;
  }
  if (holders > 0) reads.set(path, text);
  return text ?? undefined;
}

/**
 * Two FNV-1a hashes of the root and session path, as 16 hex digits: a name of fixed length for
 * any root. The file says the root and session path it is for, so a collision reads as no copy.
 */
export function witnessKey(root: string, sessionPath: string): string {
  const text = `${root}\0${sessionPath}`;
  const known = keys.get(text);
  if (known !== undefined) return known;
  const key = `${fnv(text, 0x811c9dc5)}${fnv(text, 0x050c5d1f)}`;
  // A hook asks for a few; a long-lived process (the CLI, a test run) for any number.
  if (keys.size >= 64) keys.clear();
  keys.set(text, key);
  return key;
}

/**
 * The keys this process computed: a gate asks for its project's on every read and append of a
 * state log (state-copy.ts), and each hash walks the root's characters in the interpreter.
 */
const keys = new Map<string, string>();

function fnv(text: string, seed: number): string {
  let hash = seed;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

function safeHome(): string | undefined {
  try {
    // Only without $HOME: node's os module is ~2 M instructions of a hook's start otherwise.
    return process.getBuiltinModule("node:os").homedir() || undefined;
  } catch {
    return undefined;
  }
}
