import { existsSync } from "node:fs";
import { join } from "node:path";
import { witnessFolder, witnessKey, witnessNames, type WitnessEnv } from "./mode-witness-path.ts";

/**
 * tailtest's own copy of the project state files that open a tdd or strict gate (ADR 0012, tenth
 * round): `.tailtest/events.jsonl` (Reds, runs, Greens, claims, the gate's audit),
 * `.tailtest/tdd-applied.jsonl`, and strict's checkpoint beside them. A program the agent runs can
 * append a Red or a claim to the project's files under a name no shell rule reads; the copy is
 * kept where the mode's copy is (mode-witness-path.ts), outside the project. Every line tailtest
 * appends to a project log is appended to its copy too; while a session's mode copy says tdd or
 * strict, the gates and the Stop read the copy alone, so a line only the project's file holds
 * moves nothing. A copy missing then reads as no Red and no claim: a stricter gate, never a
 * looser one. With no state folder (no home), no session is witnessed and the project's files
 * are read, as before. Once a copy was kept, the project says so (`COPY_MARK`): a state folder
 * removed with its mode copies then leaves the copy in force, read as empty (ADR 0012, eleventh
 * round), rather than sending the gates back to the project's files.
 *
 * Loads nothing but node's path and what mode-witness-path.ts loads: the gates read it.
 */

/** The session files whose mode has a copy (core's SESSION_PATHS). */
const WITNESSED = [".tailtest/session.json", ".tailtest/cursor-session.json"];
const GATING = ["tdd", "strict"];

/**
 * Where the copy of a project file (project-relative) lives, whether or not it is in force:
 * one name per project and file, in the folder of the mode copies. Undefined without a folder.
 */
export function copyPath(
  root: string,
  relPath: string,
  env: WitnessEnv = process.env,
): string | undefined {
  const folder = witnessFolder(env);
  if (folder === undefined) return undefined;
  const name = relPath.slice(relPath.lastIndexOf("/") + 1);
  return join(folder, `${witnessKey(root, ".tailtest")}.${name}`);
}

/** The project's append-only state logs that have a copy. */
export const STATE_LOGS = [".tailtest/events.jsonl", ".tailtest/tdd-applied.jsonl"] as const;

/** Beside the copies: how many lines the Stop last said tailtest did not write (forged-lines.ts). */
export const FOREIGN_COUNT = ".tailtest/foreign-lines";

/** In the project: a copy of its state was kept (written with the copies, removed with them). */
export const COPY_MARK = ".tailtest/state-copied";

/** Beside the copies: the mode copies were found removed (mode-witness.ts), for the Stop to say. */
export const REMOVED_NOTE = ".tailtest/copy-removed";

/** Whether a session of the project has a mode copy that says tdd or strict. */
export function witnessGates(root: string, env: WitnessEnv = process.env): boolean {
  return WITNESSED.some((file) => witnessNames(root, file, GATING, env));
}

/** Whether the copies are read: a session's mode copy gates, or the project says one was kept. */
export function copyInForce(root: string, env: WitnessEnv = process.env): boolean {
  return witnessGates(root, env) || existsSync(join(root, COPY_MARK));
}

/**
 * Where the copies of the project's files are while the copy is in force (a project-relative
 * path to its copy's path), else undefined: one reading of the mode copies and one key for any
 * number of files (strict's log, checkpoint and its part; an append's log).
 */
export function copiesInForce(
  root: string,
  env: WitnessEnv = process.env,
): ((relPath: string) => string) | undefined {
  if (!copyInForce(root, env)) return undefined;
  const folder = witnessFolder(env);
  if (folder === undefined) return undefined;
  const prefix = join(folder, `${witnessKey(root, ".tailtest")}.`);
  return (relPath) => `${prefix}${relPath.slice(relPath.lastIndexOf("/") + 1)}`;
}

/**
 * The file a gate reads for a project file: its copy while the copy is in force, else the
 * project's own.
 */
export function readPath(root: string, relPath: string, env: WitnessEnv = process.env): string {
  return copiesInForce(root, env)?.(relPath) ?? join(root, relPath);
}
