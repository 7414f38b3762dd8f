import { resolve } from "node:path";
import {
  couldNotDecideReason,
  errorLine,
  gateFailsClosed,
  holdsAfterError,
  notCheckedReason,
  type Mode,
} from "@tailtest/core/hook";
import type { Decision, HookEvent } from "@tailtest/core/hook";
import {
  answerPartSafely,
  configuredMode,
  findProjectRoot,
  HOOKS_OFF_ENV,
  openProject,
  type HandleOptions,
  type HookOutput,
  type Project,
} from "@tailtest/core/node/edit";
import { renderDecision, translatePayload } from "./translate.ts";

export interface HookIO {
  stdin: string;
  /** The hook's environment. Codex sets no project variable, so the root comes from `cwd`. */
  env: Readonly<Record<string, string | undefined>>;
  /** The process's folder, against which a relative payload `cwd` resolves. */
  cwd: string;
}

export type { HookOutput };

export const SILENT: HookOutput = { stdout: "", stderr: "", exitCode: 0 };

/**
 * What answers an event: core's `handleEvent` (run-hook.ts), or follow mode's answer to an edit
 * alone (hook-post.ts), which leaves anything else to the former by answering undefined.
 */
export type Handler = (
  project: Project,
  event: HookEvent,
  options: HandleOptions,
) => Promise<Decision | undefined>;

/** The only event whose answer can refuse a tool call before it runs (tdd mode's gate). */
const GATE_EVENT = "PreToolUse";

/**
 * One Codex hook call (ADR 0002).
 *
 * - `TAILTEST_HOOKS_OFF=1` (a nested agent tailtest started itself): no output, nothing done.
 * - Bad input is one line on stderr and no opinion, except before a tool runs in tdd mode: a
 *   gate that cannot read its call denies it.
 * - An internal error fails open in follow mode. In tdd mode a PreToolUse denies; in tdd and
 *   strict modes an edit can be flagged after the fact and a turn's end held once (not again on
 *   a re-stop): Codex has no cap on Stop blocks, so a hook that keeps failing must not hold the
 *   agent forever.
 */
export async function runHookWith(io: HookIO, handle: Handler): Promise<HookOutput | undefined> {
  if (io.env[HOOKS_OFF_ENV] === "1") return SILENT;
  const translation = translatePayload(io.stdin);
  if (!translation.ok) return badInput(io, translation.error);
  const { event, payload } = translation;
  if (event === undefined) return SILENT;
  const root = findProjectRoot(resolve(io.cwd, payload.cwd));
  let project: Project | undefined;
  try {
    // Codex runs hooks in the session's folder and names no project: the nearest folder with
    // .tailtest/ (init makes one), else the git root, else that folder.
    project = openProject(root);
    const decision = await handle(project, event, {
      platform: "codex",
      // Each agent's tdd log is keyed by the session (and, for a subagent, the event's agentId).
      identity: {
        sessionId: payload.session_id,
        transcriptPath: payload.transcript_path ?? undefined,
      },
    });
    if (decision === undefined) return undefined;
    return withNewline(renderDecision(payload.hook_event_name, decision));
  } catch (error) {
    const message = errorLine(error, root);
    // A config that does not say the mode leaves the session's (configuredMode reads it).
    const mode =
      project !== undefined && project.modeUnsure === undefined
        ? project.config.mode
        : configuredMode(root);
    if (payload.hook_event_name === GATE_EVENT) {
      if (!gateFailsClosed(mode))
        return { ...SILENT, stderr: `tailtest: internal error, skipped this hook: ${message}\n` };
      return denied(mode, `internal error: ${message}`);
    }
    if (mode !== "follow" && holdsAfterError(event)) {
      const reason = notCheckedReason(mode, message);
      const stdout = renderDecision(payload.hook_event_name, { kind: "block", reason });
      if (stdout !== "")
        return {
          stdout: `${stdout}\n`,
          stderr: `tailtest: internal error: ${message}\n`,
          exitCode: 0,
        };
    }
    return { ...SILENT, stderr: `tailtest: internal error, skipped this hook: ${message}\n` };
  }
}

/**
 * stdin that is not a Codex payload. It may still be a PreToolUse (garbage says nothing about
 * its event): in tdd mode that call is denied, since Codex takes a deny only from PreToolUse and
 * throws the reply away for any other event, which then fails open.
 */
function badInput(io: HookIO, error: string): HookOutput {
  const hint = payloadHint(io.stdin);
  const skipped: HookOutput = { ...SILENT, stderr: `tailtest: ignored a hook call: ${error}\n` };
  if (hint.event !== undefined && hint.event !== GATE_EVENT) return skipped;
  const root = findProjectRoot(resolve(io.cwd, hint.cwd ?? "."));
  const mode = configuredMode(root);
  if (!gateFailsClosed(mode)) return skipped;
  return denied(mode, `could not read this hook call: ${error}`);
}

/** A gate that could not decide, outside follow mode: denied, with one line for the person. */
function denied(mode: Mode, problem: string): HookOutput {
  return {
    stdout: `${renderDecision(GATE_EVENT, { kind: "deny", reason: couldNotDecideReason(mode, problem) })}\n`,
    stderr: `tailtest: ${problem}; ${mode} mode denies this call (it fails closed)\n`,
    exitCode: 0,
  };
}

/** What bad stdin still says: its event name and folder, when those fields are strings. */
function payloadHint(stdin: string): { event?: string; cwd?: string } {
  let json: unknown;
  try {
    json = JSON.parse(stdin.replace(/^\uFEFF/, ""));
  } catch {
    return {};
  }
  if (json === null || typeof json !== "object") return {};
  const { hook_event_name: event, cwd } = json as Record<string, unknown>;
  return {
    ...(typeof event === "string" ? { event } : {}),
    ...(typeof cwd === "string" ? { cwd } : {}),
  };
}

function withNewline(stdout: string): HookOutput {
  return { ...SILENT, stdout: stdout === "" ? "" : `${stdout}\n` };
}

/**
 * The answer of a part of the hook (`hook-post.cjs`, `hook-gate.cjs`, ADR 0010): the handler's,
 * or undefined when it leaves the call to `hook-main.cjs`.
 */
export async function answerPart(stdin: string, handle: Handler): Promise<HookOutput | undefined> {
  return answerPartSafely(
    () => runHookWith({ stdin, env: process.env, cwd: process.cwd() }, handle),
    SILENT,
    "",
  );
}
