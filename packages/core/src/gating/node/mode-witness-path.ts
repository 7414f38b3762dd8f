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
  try {
    if (path === undefined || !existsSync(path)) return false;
    const text = readFileSync(path, "utf8");
    return modes.some((mode) => text.includes(`"mode":${JSON.stringify(mode)}`));
  } catch {
    return false;
  }
}

/**
 * Two FNV-1a hashes of the root and session path, as 16 hex digits: a name of fixed length for
 * any root. The file says the root and session path it is for, so a collision reads as no copy.
 */
export function witnessKey(root: string, sessionPath: string): string {
  const text = `${root}\0${sessionPath}`;
  return `${fnv(text, 0x811c9dc5)}${fnv(text, 0x050c5d1f)}`;
}

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
