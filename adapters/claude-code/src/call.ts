import {
  couldNotDecideReason,
  errorLine,
  gateFailsClosed,
  holdsAfterError,
  notCheckedReason,
  type Decision,
  type HookEvent,
  type Mode,
} from "@tailtest/core/hook";
import {
  answerPartSafely,
  configuredMode,
  HOOKS_OFF_ENV,
  openProject,
  type HandleOptions,
  type HookOutput,
  type Project,
} from "@tailtest/core/node/edit";
import { mayBeCursorPayload } from "@tailtest/core/quiet";
import { renderDecision, renderDeny, translatePayload } from "./translate.ts";

export interface HookIO {
  stdin: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The hook's working directory (Cursor runs Claude Code hooks in the workspace root). */
  cwd: string;
}

export type { HookOutput };

export const NO_OUTPUT: HookOutput = { stdout: "", stderr: "", exitCode: 0 };

/**
 * What answers an event: core's `handleEvent` (run-hook.ts), or follow mode's answer to an edit
 * alone (hook-post.ts), which leaves anything else to the former by answering undefined.
 */
export type Handler = (
  project: Project,
  event: HookEvent,
  options: HandleOptions,
) => Promise<Decision | undefined>;

/**
 * One Claude Code hook call (ADR 0002). In follow mode a hook never blocks the agent by failing:
 * bad input or an internal error is one line on stderr, no stdout, exit 0. In tdd and strict
 * modes a PreToolUse that cannot be decided is denied instead, with a reason saying so; an
 * internal error after a tool ran tells Claude the change was not checked, and one at the end of
 * a turn holds it once (never again while `stop_hook_active` is set, so a hook that keeps
 * failing cannot hold the agent forever). Anything else fails open, as does a payload that
 * cannot be read when it is not a PreToolUse. A call Cursor made is run-hook.ts's to route.
 */
export async function runHookWith(io: HookIO, handle: Handler): Promise<HookOutput | undefined> {
  // The nested agent of tailtest's own plan review: its hooks have no opinion at all.
  if (io.env[HOOKS_OFF_ENV] === "1") return NO_OUTPUT;
  const translation = translatePayload(io.stdin, io.env);
  if (!translation.ok) return badInput(io, translation.error);
  const { event, payload } = translation;
  if (event === undefined) return NO_OUTPUT;
  const eventName = payload.hook_event_name;
  const root = io.env["CLAUDE_PROJECT_DIR"] ?? payload.cwd;
  let project: Project | undefined;
  try {
    project = openProject(root);
    const decision = await handle(project, event, {
      platform: "claude-code",
      identity: {
        sessionId: payload.session_id,
        transcriptPath: payload.transcript_path ?? undefined,
      },
    });
    if (decision === undefined) return undefined;
    const stdout = renderDecision(eventName, decision);
    return { stdout: stdout === "" ? "" : `${stdout}\n`, stderr: "", exitCode: 0 };
  } catch (error) {
    const message = errorLine(error, root);
    // A config that does not say the mode leaves the session's (configuredMode reads it).
    const mode =
      project !== undefined && project.modeUnsure === undefined
        ? project.config.mode
        : configuredMode(root);
    if (eventName === "PreToolUse" && gateFailsClosed(mode))
      return failClosed(`internal error: ${message}`, mode);
    if (mode !== "follow" && holdsAfterError(event)) return notChecked(eventName, message, mode);
    return {
      stdout: "",
      stderr: `tailtest: internal error, skipped this hook: ${message}\n`,
      exitCode: 0,
    };
  }
}

/**
 * An internal error after a tool ran or at the end of a turn, in tdd or strict mode: the reason
 * goes to Claude. PostToolUse, Stop and SubagentStop take `{"decision":"block"}`;
 * PostToolUseFailure documents only `additionalContext`, which Claude reads as well.
 */
function notChecked(eventName: string, message: string, mode: Mode): HookOutput {
  const reason = notCheckedReason(mode, message);
  const decision: Decision =
    eventName === "PostToolUseFailure"
      ? { kind: "context", text: reason }
      : { kind: "block", reason };
  return {
    stdout: `${renderDecision(eventName, decision)}\n`,
    stderr: `tailtest: internal error in ${mode} mode, not letting it through: ${message}\n`,
    exitCode: 0,
  };
}

/**
 * Stdin tailtest cannot read. A PreToolUse (or a call whose event cannot even be told) in a tdd
 * or strict project is denied; anything else is one line on stderr and no opinion.
 */
function badInput(io: HookIO, error: string): HookOutput {
  const { eventName, cwd } = sniff(io.stdin);
  const root = io.env["CLAUDE_PROJECT_DIR"] ?? cwd ?? io.cwd;
  if (eventName === undefined || eventName === "PreToolUse") {
    const mode = configuredMode(root);
    if (gateFailsClosed(mode)) return failClosed(`could not read this hook call: ${error}`, mode);
  }
  return { stdout: "", stderr: `tailtest: ignored a hook call: ${error}\n`, exitCode: 0 };
}

function failClosed(message: string, mode: Mode): HookOutput {
  return {
    stdout: `${renderDeny(couldNotDecideReason(mode, message))}\n`,
    stderr: `tailtest: could not decide this hook call in ${mode} mode, so the tool call is denied: ${message}\n`,
    exitCode: 0,
  };
}

/** The event name and cwd of a payload that failed its schema, when it is JSON at all. */
function sniff(stdin: string): { eventName?: string; cwd?: string } {
  try {
    const json = JSON.parse(stdin.replace(/^\uFEFF/, "")) as Record<string, unknown> | null;
    if (json === null || typeof json !== "object") return {};
    const name = json["hook_event_name"];
    const cwd = json["cwd"];
    return {
      ...(typeof name === "string" ? { eventName: name } : {}),
      ...(typeof cwd === "string" && cwd !== "" ? { cwd } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * The answer of a part of the hook (`hook-post.cjs`, `hook-gate.cjs`, ADR 0010): the handler's,
 * or undefined when it leaves the call to `hook-main.cjs` (a call Cursor made, too).
 */
export async function answerPart(stdin: string, handle: Handler): Promise<HookOutput | undefined> {
  if (mayBeCursorPayload(stdin)) return undefined;
  return answerPartSafely(
    () => runHookWith({ stdin, env: process.env, cwd: process.cwd() }, handle),
    NO_OUTPUT,
    "",
  );
}
