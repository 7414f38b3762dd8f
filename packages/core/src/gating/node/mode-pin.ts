import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfigText, type Mode } from "../../config/config.ts";
import { GATE_STRENGTH, loosens } from "../gate-strength.ts";
import {
  openProject,
  sessionFile,
  SESSION_PATHS,
  STATE_DIR,
  type Project,
} from "../../project/node/project.ts";
import { readState, updateState } from "../../state/node/store.ts";
import { readWitness, setWitness } from "./mode-witness.ts";

/**
 * The mode is pinned for the session (ADR 0012): a gating mode ends only when the person says
 * so. The session file records the mode the session runs in; a config that is deleted, names a
 * weaker mode or does not say the mode during a session leaves that mode in force for every
 * gate, and every end of a turn, start note and `tailtest status` says so until the person runs
 * `tailtest mode confirm` (or an installer). A stricter config takes effect at once.
 */

export const CONFIRM_COMMAND = "tailtest mode confirm";

export interface ModePin {
  /** The session's mode, kept in force. */
  pinned: Mode;
  /** What the config says instead, in words: "says follow", "is missing", "does not say…". */
  configSays: string;
  /**
   * Set when the session file itself says less than the copy tailtest keeps of its mode
   * (mode-witness.ts): the file (project-relative) and what it says ("says follow", "is
   * missing"). Something other than tailtest changed it.
   */
  sessionFile?: { path: string; says: string };
}

/** The pin, if the config says less than the session's mode (undefined: the config rules). */
export function pinOf(project: Project, sessionMode: Mode | undefined): ModePin | undefined {
  if (sessionMode === undefined || sessionMode === "follow") return undefined;
  if (project.modeUnsure !== undefined)
    return { pinned: sessionMode, configSays: `does not say the mode (${project.modeUnsure})` };
  const mode = project.config.mode;
  if (!loosens(sessionMode, mode)) return undefined;
  const exists = existsSync(join(project.root, STATE_DIR, "config.json"));
  return { pinned: sessionMode, configSays: exists ? `says ${mode}` : "is missing" };
}

/**
 * `pinOf`, with the copy of the session's mode that tailtest keeps outside the project
 * (mode-witness.ts): a session file that says a weaker mode than its copy, or is gone, was
 * changed by something else, and the copy's mode is kept, as a weaker config's would be. A config
 * that says the copy's mode or a stricter one rules as before.
 */
export function pinWithWitness(
  project: Project,
  sessionPath: string,
  sessionMode: Mode | undefined,
  witness: Mode | undefined,
): ModePin | undefined {
  const tampered =
    witness !== undefined &&
    witness !== "follow" &&
    (sessionMode === undefined || loosens(witness, sessionMode));
  if (!tampered) return pinOf(project, sessionMode);
  const pin = pinOf(project, witness);
  if (pin === undefined) return undefined;
  const says = sessionMode === undefined ? "is missing or unreadable" : `says ${sessionMode}`;
  return { ...pin, sessionFile: { path: sessionPath, says } };
}

/** The line the person reads at every end of a turn while the pin holds. */
export function pinLine(pin: ModePin): string {
  if (pin.sessionFile !== undefined)
    return `tailtest: ${pin.sessionFile.path} ${pin.sessionFile.says}, but tailtest pinned this session to ${pin.pinned} mode: something other than tailtest changed it. The session keeps ${pin.pinned} mode (.tailtest/config.json ${pin.configSays}) until the person runs \`${CONFIRM_COMMAND}\` (an agent may not).`;
  return `tailtest: .tailtest/config.json ${pin.configSays}, but this session keeps ${pin.pinned} mode until the person runs \`${CONFIRM_COMMAND}\` (an agent may not).`;
}

/** The pinned project: the session's mode in force, with the pin's line among its problems. */
export function pinnedProject(project: Project, pin: ModePin): Project {
  return {
    ...project,
    config: { ...project.config, mode: pin.pinned },
    configProblems: [...project.configProblems, pinLine(pin)],
  };
}

/** The mode a config file says as the person left it; undefined when it does not say one. */
export function configFileMode(root: string): Mode | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, STATE_DIR, "config.json"), "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "follow" : undefined;
  }
  const parsed = parseConfigText(text);
  return parsed.ok || parsed.config.mode !== "follow" ? parsed.config.mode : undefined;
}

export interface Confirmed {
  mode: Mode;
  /** The modes the sessions were pinned to before (none: nothing was pinned). */
  was: Mode[];
}

/**
 * `tailtest mode confirm`: every session file takes the mode the config says now. Refused (one
 * line, thrown) when the config does not say a mode: there is nothing to confirm.
 */
export async function confirmMode(root: string): Promise<Confirmed> {
  const mode = configFileMode(root);
  if (mode === undefined)
    throw new Error(
      ".tailtest/config.json does not say the mode; fix it first, then confirm the mode it says",
    );
  const was: Mode[] = [];
  for (const sessionPath of SESSION_PATHS) {
    // The copy of each session's mode (mode-witness.ts) follows the person's word; a session
    // file that says less than its copy (or is gone) had the copy's mode in force.
    const kept = readWitness(root, sessionPath);
    setWitness(root, sessionPath, mode);
    const exists = existsSync(join(root, sessionPath));
    if (!exists && (kept === undefined || kept === "follow")) continue;
    const file = sessionFile(openProject(root, { sessionPath }));
    const seen = await readState(file);
    if (seen.existed && seen.problem !== undefined && kept === undefined) continue;
    const said = seen.existed && seen.problem === undefined ? seen.value.mode : undefined;
    const before = strongerOf(said, kept);
    if (before === undefined || (before === mode && said === mode)) continue;
    if (before !== mode) was.push(before);
    // A loosened mode is said at the next end of a turn: the agent may have run this.
    await updateState(file, (session) => ({
      value: {
        ...session,
        mode,
        ...(loosens(before, mode)
          ? { mode_confirmed_from: session.mode_confirmed_from ?? before }
          : {}),
      },
      result: undefined,
    }));
  }
  return { mode, was };
}

function strongerOf(a: Mode | undefined, b: Mode | undefined): Mode | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return GATE_STRENGTH[b] > GATE_STRENGTH[a] ? b : a;
}
