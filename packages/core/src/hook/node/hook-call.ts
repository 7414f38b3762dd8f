import type { Decision, HookEvent } from "../hook-event.ts";
import { errorLine } from "../failure-policy.ts";
import {
  internalErrorAnswer,
  mayBeGate,
  noOpinion,
  payloadRecord,
  renderAnswer,
  undecidedAnswer,
  type HookAnswer,
  type HookEnv,
  type HookPlatform,
  type PayloadRecord,
  type Undecided,
} from "../hook-platform.ts";
import type { HandleOptions } from "./handle-event.ts";
import { answerPartSafely, answerSafely } from "./hook-process.ts";
import {
  configuredMode,
  findProjectRoot,
  openProject,
  type Project,
} from "../../project/node/project.ts";
import { holdWitnessReads } from "../../gating/node/mode-witness-path.ts";
import { HOOKS_OFF } from "./launcher.ts";
import { workingDir } from "./working-dir.ts";

/** One hook call's input. */
export interface HookIO {
  stdin: string;
  env: HookEnv;
  /** The hook's working directory, where a platform that names no project finds it. */
  cwd: string;
}

/**
 * What answers an event: core's `handleEvent` (the `hook-main` bundle), or one of the edit
 * tools' answers (`answerFollowEdit`, `answerGatedEdit`), which leave anything else to the
 * former by answering undefined.
 */
export type Handler = (
  project: Project,
  event: HookEvent,
  options: HandleOptions,
) => Promise<Decision | undefined>;

/**
 * One hook call on any platform (ADR 0002): read → translate → decide → render, and the failure
 * policy in `hook/hook-platform.ts` when a step cannot be done. `TAILTEST_HOOKS_OFF=1` (tailtest's own
 * nested agents) is no opinion at once. Undefined: the handler left the call to another bundle.
 */
export async function runHookCall(
  platform: HookPlatform,
  io: HookIO,
  handle: Handler,
): Promise<HookAnswer | undefined> {
  // One reading of the session's mode copies answers the whole call (mode-witness-path.ts).
  const release = holdWitnessReads();
  try {
    return await runHeldCall(platform, io, handle);
  } finally {
    release();
  }
}

async function runHeldCall(
  platform: HookPlatform,
  io: HookIO,
  handle: Handler,
): Promise<HookAnswer | undefined> {
  if (io.env[HOOKS_OFF] === "1") return noOpinion(platform);
  const other = platform.otherAgentsCall?.(io.stdin);
  if (other !== undefined) return other;
  let translation: ReturnType<HookPlatform["translate"]>;
  try {
    translation = platform.translate(io.stdin, io.env);
  } catch (error) {
    return undecided(platform, io, { kind: "internal", message: errorLine(error) });
  }
  if (!translation.ok)
    return undecided(platform, io, { kind: "input", message: translation.error });
  const { event, eventName, payload, identity } = translation;
  if (event === undefined) return noOpinion(platform);
  const root = rootOf(platform, payload, io);
  const opened = openOptions(platform);
  let project: Project | undefined;
  try {
    project = openProject(root, opened);
    const decision = await handle(project, event, { platform: platform.name, identity });
    if (decision === undefined) return undefined;
    return renderAnswer(platform, eventName, decision);
  } catch (error) {
    // A config that does not say the mode leaves the session's (configuredMode reads it).
    const mode =
      project !== undefined && project.modeUnsure === undefined
        ? project.config.mode
        : configuredMode(root, opened);
    return internalErrorAnswer(platform, event, eventName, mode, errorLine(error, root));
  }
}

/** `runHookCall` for a handler that answers every call (`handleEvent`): always an answer. */
export async function runHook(
  platform: HookPlatform,
  io: HookIO,
  handle: Handler,
): Promise<HookAnswer> {
  return (await runHookCall(platform, io, handle)) ?? noOpinion(platform);
}

/**
 * A whole hook's answer (the `hook-main` bundle, with `handleEvent`): `runHook` on this process's
 * stdin, environment and folder, which never throws (`answerSafely`).
 */
export function answerHookCall(
  platform: HookPlatform,
  stdin: string,
  handle: Handler,
): Promise<HookAnswer> {
  return answerSafely(() => runHook(platform, ioOf(stdin), handle), platform.launcher.noOpinion);
}

/**
 * The answer of a part of the hook (`hook-post`, `hook-gate`, ADR 0010): the handler's, or
 * undefined when it leaves the call to `hook-main` (another agent's call, too).
 */
export async function answerHookPart(
  platform: HookPlatform,
  stdin: string,
  handle: Handler,
): Promise<HookAnswer | undefined> {
  if (platform.otherAgentsCall?.(stdin) !== undefined) return undefined;
  return answerPartSafely(
    () => runHookCall(platform, ioOf(stdin), handle),
    noOpinion(platform),
    platform.launcher.noOpinion,
  );
}

function ioOf(stdin: string): HookIO {
  return { stdin, env: process.env, cwd: workingDir() };
}

function openOptions(platform: HookPlatform): { sessionPath?: string } {
  return platform.sessionPath === undefined ? {} : { sessionPath: platform.sessionPath };
}

/** The platform's project of a call, else the project around the hook's folder. */
function rootOf(platform: HookPlatform, payload: PayloadRecord, io: HookIO): string {
  return platform.launcher.projectRoot(payload, io.env, io.cwd) ?? findProjectRoot(io.cwd);
}

/** A call that could not be read: the project's mode decides only when it may be the gate. */
function undecided(platform: HookPlatform, io: HookIO, cause: Undecided): HookAnswer {
  const sniffed = payloadRecord(io.stdin) ?? {};
  const name = sniffed["hook_event_name"];
  const eventName = typeof name === "string" ? name : undefined;
  const mode = mayBeGate(platform, eventName)
    ? configuredMode(rootOf(platform, sniffed, io), openOptions(platform))
    : undefined;
  return undecidedAnswer(platform, cause, mode);
}
