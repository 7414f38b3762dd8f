import type { Mode } from "../config/config.ts";
import type { HookEvent } from "./hook-event.ts";

/**
 * What a hook does when it breaks (ADR 0002), the same on every platform; each adapter only
 * renders the answer in its own output shape.
 */

/** An error as one line, with the project's own path taken out (agents never see machine paths). */
export function errorLine(error: unknown, root?: string): string {
  const first = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
  const message =
    root === undefined || root === ""
      ? first
      : first.replaceAll(`${root}/`, "").replaceAll(root, ".");
  return message.length <= ERROR_LINE_CAP ? message : `${message.slice(0, ERROR_LINE_CAP - 1)}…`;
}

/**
 * An error's line is at most this long: an error can quote a path or a command of megabytes (a
 * payload field), and the line goes to the agent and the person.
 */
export const ERROR_LINE_CAP = 500;

/** Outside follow mode, a gate (a pre-tool hook) that cannot decide denies the call. */
export function gateFailsClosed(mode: Mode): boolean {
  return mode !== "follow";
}

/**
 * Whether an internal error on this (already read) event is held outside follow mode: a tool
 * that ran (its change was not checked: the agent is told) and the end of a turn, held once —
 * never while the stop hook is already active, so a hook that keeps failing cannot hold the agent
 * forever (Codex has no cap on Stop blocks). Gates deny on their own (`gateFailsClosed`); the
 * session's ends have nothing to hold.
 */
export function holdsAfterError(event: HookEvent): boolean {
  switch (event.kind) {
    case "FilesEdited":
    case "CommandFinished":
      return true;
    case "TurnEnded":
      return !event.stopHookActive;
    case "EditRequested":
    case "CommandRequested":
    case "PlanSubmitted":
    case "SessionStarted":
    case "TurnStarted":
    case "SubagentStarted":
    case "SessionEnded":
      return false;
  }
}

/** The deny reason of a gate that could not decide (`problem`: what went wrong, one line). */
export function couldNotDecideReason(mode: Mode, problem: string): string {
  return `tailtest ${mode} mode could not decide (${problem}), so this call is blocked: ${mode} mode fails closed. Try again; if it keeps failing, ask the person to run \`tailtest tdd status\` and look at .tailtest/.`;
}

/** The reason given to the agent when a change or a turn could not be checked. */
export function notCheckedReason(mode: Mode, message: string): string {
  return (
    `tailtest could not check this (internal error: ${message}). In ${mode} mode it does not ` +
    `let unchecked work through; fix the cause, or ask the person to set "mode": "follow" in ` +
    `.tailtest/config.json.`
  );
}
