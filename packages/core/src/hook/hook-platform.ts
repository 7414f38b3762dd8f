import type { Mode } from "../config/config.ts";
import type { Decision, HookEvent } from "./hook-event.ts";
import {
  couldNotDecideReason,
  gateFailsClosed,
  holdsAfterError,
  notCheckedReason,
} from "./failure-policy.ts";

/**
 * What an adapter tells core about its agent's hooks, and the one failure policy (ADR 0002) every
 * platform's hook follows with it. The flow that uses both (read → translate → decide → render)
 * is `runHookCall` in `node/hook-call.ts`; an adapter's `src/platform.ts` is one `HookPlatform`.
 */

export type HookEnv = Readonly<Record<string, string | undefined>>;

/** A payload as JSON, before or after its schema. */
export type PayloadRecord = Readonly<Record<string, unknown>>;

/** What one hook call prints and how it exits (node/hook-process.ts's `HookOutput`). */
export interface HookAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Who is calling, from the payload: tdd mode keeps one log per agent. */
export interface CallIdentity {
  sessionId: string;
  transcriptPath?: string | undefined;
}

/** A payload read against the platform's schemas. */
export type HookTranslation =
  | {
      ok: true;
      /** undefined: an event tailtest has no opinion on. */
      event: HookEvent | undefined;
      /** The platform's own event name, which the answer is rendered for. */
      eventName: string;
      payload: PayloadRecord;
      identity: CallIdentity;
    }
  | { ok: false; error: string };

/** A Decision in the platform's output shape: `stdout` without its newline, "" for none. */
export interface Rendered {
  stdout: string;
  stderr: string;
}

/** The launcher's facts about a platform (`@tailtest/core/quiet`'s records satisfy this). */
export interface LauncherFacts {
  /** The one event whose answer can refuse a tool call before it runs. */
  gateEvent: string;
  /** What the agent reads as no opinion, newline included ("" or Cursor's `{}`). */
  noOpinion: string;
  /** The project of a call (undefined: the payload does not say; the hook's folder decides). */
  projectRoot(payload: PayloadRecord, env: HookEnv, cwd: string): string | undefined;
}

/** One agent's hooks, as an adapter describes them. */
export interface HookPlatform {
  name: "claude-code" | "codex" | "cursor";
  launcher: LauncherFacts;
  /** The project-relative session file, when the platform keeps its own. */
  sessionPath?: string;
  /** The hook's stdin → a platform-neutral event; it may throw (that is an internal error). */
  translate(stdin: string, env: HookEnv): HookTranslation;
  render(eventName: string, decision: Decision): Rendered;
  /**
   * The answer to a call another agent made through this platform's hooks (Cursor runs Claude
   * Code's), which that agent's own adapter handles; undefined for this platform's own calls.
   */
  otherAgentsCall?(stdin: string): HookAnswer | undefined;
}

/** The platform's "no opinion", with an optional line for the person. */
export function noOpinion(platform: HookPlatform, stderr = ""): HookAnswer {
  return { stdout: platform.launcher.noOpinion, stderr, exitCode: 0 };
}

/** A decision as the hook prints it. */
export function renderAnswer(
  platform: HookPlatform,
  eventName: string,
  decision: Decision,
): HookAnswer {
  const rendered = platform.render(eventName, decision);
  const stdout = rendered.stdout === "" ? "" : `${rendered.stdout}\n`;
  return { stdout, stderr: rendered.stderr, exitCode: 0 };
}

/** Why a call could not be decided before tailtest knew what it was. */
export interface Undecided {
  kind: "input" | "internal";
  message: string;
}

/**
 * A call tailtest could not read (bad stdin, an off-schema payload, a translation that threw).
 * `mode` is the project's when the call may be the gate (its event is the gate's or cannot be
 * told), else undefined: outside follow mode such a gate is denied, anything else is one line on
 * stderr and no opinion.
 */
export function undecidedAnswer(
  platform: HookPlatform,
  cause: Undecided,
  mode: Mode | undefined,
): HookAnswer {
  const input = cause.kind === "input";
  if (mode !== undefined && gateFailsClosed(mode)) {
    const problem = input
      ? `could not read this hook call: ${cause.message}`
      : `internal error: ${cause.message}`;
    return deniedAnswer(platform, mode, problem);
  }
  return noOpinion(
    platform,
    input
      ? `tailtest: ignored a hook call: ${cause.message}\n`
      : `tailtest: internal error, skipped this hook: ${cause.message}\n`,
  );
}

/** Whether an unreadable call may be the gate: its event is the gate's, or cannot be told. */
export function mayBeGate(platform: HookPlatform, eventName: string | undefined): boolean {
  return eventName === undefined || eventName === platform.launcher.gateEvent;
}

/**
 * An internal error after the payload was read. follow mode fails open. Outside it the gate
 * denies; a tool that ran tells the agent its change was not checked, and the end of a turn is
 * held once (`holdsAfterError`: never while the stop hook is already active), where the platform
 * can carry a block on that event at all; everything else is one line on stderr and no opinion.
 */
export function internalErrorAnswer(
  platform: HookPlatform,
  event: HookEvent,
  eventName: string,
  mode: Mode,
  message: string,
): HookAnswer {
  const skipped = noOpinion(platform, `tailtest: internal error, skipped this hook: ${message}\n`);
  if (eventName === platform.launcher.gateEvent)
    return gateFailsClosed(mode)
      ? deniedAnswer(platform, mode, `internal error: ${message}`)
      : skipped;
  if (mode === "follow" || !holdsAfterError(event)) return skipped;
  const held = platform.render(eventName, {
    kind: "block",
    reason: notCheckedReason(mode, message),
  });
  // An event whose output the agent never reads (Cursor's afterFileEdit) cannot carry it.
  if (held.stdout === "" || `${held.stdout}\n` === platform.launcher.noOpinion) return skipped;
  return {
    stdout: `${held.stdout}\n`,
    stderr: `tailtest: internal error in ${mode} mode, not letting it through: ${message}\n`,
    exitCode: 0,
  };
}

/** A gate that could not decide outside follow mode: denied, with one line for the person. */
function deniedAnswer(platform: HookPlatform, mode: Mode, problem: string): HookAnswer {
  const reason = couldNotDecideReason(mode, problem);
  const rendered = platform.render(platform.launcher.gateEvent, { kind: "deny", reason });
  return {
    stdout: `${rendered.stdout}\n`,
    stderr: `tailtest: ${problem}; ${mode} mode denies this call (it fails closed)\n`,
    exitCode: 0,
  };
}

/** A payload's JSON object when stdin is one (a leading BOM allowed), else undefined. */
export function payloadRecord(stdin: string): PayloadRecord | undefined {
  let json: unknown;
  try {
    json = JSON.parse(stdin.replace(/^\uFEFF/, ""));
  } catch {
    return undefined;
  }
  return typeof json === "object" && json !== null && !Array.isArray(json)
    ? (json as PayloadRecord)
    : undefined;
}
