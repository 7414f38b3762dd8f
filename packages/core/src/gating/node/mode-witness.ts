import { constants, copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as z from "zod/mini";
import { ModeSchema, type Mode } from "../../config/config.ts";
import { GATE_STRENGTH } from "../gate-strength.ts";
import { writeAtomicSync } from "../../state/node/store.ts";
import { lazy } from "../../util/lazy.ts";
import {
  forgetWitnessReads,
  witnessPath,
  witnessText,
  type WitnessEnv,
} from "./mode-witness-path.ts";
import {
  COPY_MARK,
  copyPath,
  FOREIGN_COUNT,
  REMOVED_NOTE,
  STATE_LOGS,
  witnessGates,
} from "./state-copy.ts";

/**
 * A copy of each session's pinned mode, kept where the session file is not (ADR 0012, eighth
 * round). The session file is the pin, and a program in the agent's shell could rewrite its
 * `"mode"` to follow (or delete it) with the config deleted: every hook then ran in follow mode
 * and nothing was said. The copy is written by tailtest alone, when a session starts, when the
 * session takes a stricter mode, and when the person confirms a mode; a session file that says
 * less than its copy is one something else changed, and the copy's mode stays in force (said at
 * every start and end of a turn) until the person runs `tailtest mode confirm`.
 *
 * Outside the project, so a search of the project does not find it, and among the paths an
 * agent's command may not write (write-identity.ts). A copy that cannot be written (no home
 * folder, a read-only one) is left out: the session file alone pins, as before.
 */

const WitnessSchema = lazy(() =>
  z.object({ root: z.string(), session: z.string(), mode: ModeSchema }),
);

/** The mode the copy says for a root and session file; undefined when there is none. */
export function readWitness(
  root: string,
  sessionPath: string,
  env: WitnessEnv = process.env,
): Mode | undefined {
  const path = witnessPath(root, sessionPath, env);
  const text = path === undefined ? undefined : witnessText(path);
  if (text === undefined) return undefined;
  try {
    const parsed = WitnessSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return undefined;
    const { data } = parsed;
    return data.root === root && data.session === sessionPath ? data.mode : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The copy says `mode` from now on (a new session, the person's confirmation); follow removes
 * it. Never throws: without a copy the session file alone pins.
 */
export function setWitness(
  root: string,
  sessionPath: string,
  mode: Mode,
  env: WitnessEnv = process.env,
): void {
  const path = witnessPath(root, sessionPath, env);
  if (path === undefined) return;
  try {
    if (mode === "follow") {
      rmSync(path, { force: true });
      forgetWitnessReads();
      dropCopies(root, env);
    } else {
      // Copies were kept (the project's mark) yet no mode copy gates: they were removed.
      const removed = existsSync(join(root, COPY_MARK)) && !witnessGates(root, env);
      writeAtomicSync(path, `${JSON.stringify({ root, session: sessionPath, mode })}\n`);
      forgetWitnessReads();
      const note = removed ? copyPath(root, REMOVED_NOTE, env) : undefined;
      if (note !== undefined) writeFileSync(note, "removed\n");
      seedCopies(root, env);
    }
  } catch {
    // no copy (already none, or the folder cannot be written)
  } finally {
    // What this call read of the copies is not what they say now (a write that failed midway).
    forgetWitnessReads();
  }
}

/**
 * The copies of the state logs (state-copy.ts) start, the first time a session of the project
 * gates, as the project's logs then are: lines an older tailtest wrote are not named as forged.
 * A copy already there is never replaced; once the project says copies were kept (`COPY_MARK`),
 * none is seeded again: a copy missing then was removed, and the project's lines are not taken.
 */
function seedCopies(root: string, env: WitnessEnv): void {
  const mark = join(root, COPY_MARK);
  if (existsSync(mark)) return;
  for (const log of STATE_LOGS) {
    const copy = copyPath(root, log, env);
    if (copy === undefined || existsSync(copy) || !existsSync(join(root, log))) continue;
    try {
      copyFileSync(join(root, log), copy, constants.COPYFILE_EXCL);
    } catch {
      // Another hook seeded it, or the folder cannot be written.
    }
  }
  // Only a mode copy the gates read (state-copy.ts's session files) puts the copies in force.
  if (!witnessGates(root, env)) return;
  try {
    mkdirSync(dirname(mark), { recursive: true });
    writeFileSync(mark, "tailtest keeps a copy of this project's tdd/strict state\n", {
      flag: "wx",
    });
  } catch {
    // Another hook wrote it, or the project cannot be written (nor then its logs).
  }
}

/** What state-copy.ts keeps for a project: the logs, strict's checkpoint, the Stop's count. */
const COPIED = [
  ...STATE_LOGS,
  // Where each agent's lines start in a copy (keyed-read.ts): they go with the copy.
  ...STATE_LOGS.map((log) => `${log}.starts`),
  ".tailtest/strict-state.json",
  ".tailtest/strict-closed.json",
  FOREIGN_COUNT,
  REMOVED_NOTE,
];

/**
 * Once no session of the project gates (the person confirmed follow, a session started in
 * follow), its copies go: the next gating session seeds them afresh from the project's files, so
 * what tailtest wrote meanwhile, while no copy was in force, is not named as forged then.
 */
function dropCopies(root: string, env: WitnessEnv): void {
  if (witnessGates(root, env)) return;
  try {
    rmSync(join(root, COPY_MARK), { force: true });
  } catch {
    // The project cannot be written: the copies stay in force, read as tailtest wrote them.
  }
  for (const file of COPIED) {
    const copy = copyPath(root, file, env);
    if (copy === undefined) return;
    try {
      rmSync(copy, { force: true });
    } catch {
      // The folder cannot be written: the copies stay, and are read only while one gates.
    }
  }
}

/** The copy takes `mode` when it is stricter than what the copy says (or there is none). */
export function raiseWitness(
  root: string,
  sessionPath: string,
  mode: Mode,
  env: WitnessEnv = process.env,
): void {
  if (mode === "follow") return;
  const kept = readWitness(root, sessionPath, env);
  if (kept !== undefined && GATE_STRENGTH[kept] >= GATE_STRENGTH[mode]) return;
  setWitness(root, sessionPath, mode, env);
}
