import { join } from "node:path";

/**
 * Where the copy of a session's pinned mode lives (mode-witness.ts, ADR 0012): outside the
 * project, in the person's state folder (`$XDG_STATE_HOME/tailtest/pins`, else
 * `~/.local/state/tailtest/pins`), one small file per project and session file. This module
 * loads nothing but `node:path`: the hooks' launcher reads the copy on every follow-mode call.
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
