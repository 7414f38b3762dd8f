import { lstatSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { mayBeCursorPayload } from "@tailtest/core/quiet";
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
  findProjectRoot,
  HOOKS_OFF_ENV,
  openProject,
  type HandleOptions,
  type HookOutput,
  type Project,
} from "@tailtest/core/node/edit";
import { parseHooksFile, runsTailtest } from "./install.ts";
import { CURSOR_SESSION_PATH, HOOKS_PATH } from "./paths.ts";
import {
  denyOutput,
  isCursorPayload,
  NO_OPINION_OUTPUT,
  renderDecision,
  translatePayload,
} from "./translate.ts";

export { CURSOR_SESSION_PATH, isCursorPayload };

export interface CursorHookIO {
  stdin: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The hook's working directory: Cursor starts project hooks in the workspace root. */
  cwd: string;
}

export type { HookOutput };

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
 * One Cursor hook call. It never throws and always exits 0 with a JSON object on stdout (Cursor
 * counts empty stdout as a failed hook). ADR 0002: bad input is one line on stderr and no
 * opinion, except that in tdd mode a preToolUse (the gate) that cannot be read is denied; an
 * internal error is handled by `internalError`. `TAILTEST_HOOKS_OFF=1` (tailtest's own nested
 * agents) answers `{}` at once.
 */
export async function runCursorHookWith(
  io: CursorHookIO,
  handle: Handler,
): Promise<HookOutput | undefined> {
  if (io.env[HOOKS_OFF_ENV] === "1") return noOpinion("");
  try {
    const translation = translatePayload(io.stdin);
    if (!translation.ok) return undecided(io, { kind: "input", message: translation.error });
    const { event, payload, identity } = translation;
    if (event === undefined) return noOpinion("");
    const root = rootOf(io, payload.workspace_roots);
    let project: Project | undefined;
    try {
      project = openProject(root, { sessionPath: CURSOR_SESSION_PATH });
      const decision = await handle(project, event, { platform: "cursor", identity });
      if (decision === undefined) return undefined;
      const rendered = renderDecision(payload.hook_event_name, decision);
      return { stdout: `${rendered.stdout}\n`, stderr: rendered.stderr, exitCode: 0 };
    } catch (error) {
      const mode = project?.config.mode ?? modeAt(root);
      return internalError(event, payload.hook_event_name, errorLine(error, root), mode);
    }
  } catch (error) {
    return undecided(io, { kind: "internal", message: errorLine(error) });
  }
}

/**
 * CURSOR_PROJECT_DIR, else the first workspace root, else the project around the hook's working
 * directory (Cursor starts project hooks in the workspace root).
 */
function rootOf(io: CursorHookIO, workspaceRoots: readonly string[] | undefined): string {
  const fromEnv = io.env["CURSOR_PROJECT_DIR"];
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  return workspaceRoots?.[0] ?? findProjectRoot(io.cwd);
}

/** What can be read of a payload that failed its schema: its event and workspace roots. */
function peek(stdin: string): { eventName?: string; roots?: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(stdin.replace(/^\uFEFF/, ""));
  } catch {
    return {};
  }
  if (typeof json !== "object" || json === null) return {};
  const record = json as Record<string, unknown>;
  const name = record["hook_event_name"];
  const roots = record["workspace_roots"];
  return {
    ...(typeof name === "string" ? { eventName: name } : {}),
    ...(Array.isArray(roots)
      ? { roots: roots.filter((root): root is string => typeof root === "string") }
      : {}),
  };
}

/**
 * The project of a hook call when Cursor made it, else undefined. The Claude Code adapter asks
 * this first: Cursor runs Claude Code's hooks with its own payload (hook-protocols §2.6).
 */
export function cursorCallRoot(io: CursorHookIO): string | undefined {
  // Every Claude Code hook call passes here: a payload without Cursor's fields is not parsed twice.
  if (!mayBeCursorPayload(io.stdin)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(io.stdin.replace(/^\uFEFF/, ""));
  } catch {
    return undefined;
  }
  if (!isCursorPayload(json)) return undefined;
  const roots = (json as { workspace_roots?: unknown }).workspace_roots;
  const strings = Array.isArray(roots)
    ? roots.filter((root): root is string => typeof root === "string")
    : undefined;
  return rootOf(io, strings);
}

export function noOpinion(stderr: string): HookOutput {
  return { stdout: `${NO_OPINION_OUTPUT}\n`, stderr, exitCode: 0 };
}

/** The project's mode, for a call tailtest could not handle (Cursor's session file). */
function modeAt(root: string): Mode {
  return configuredMode(root, { sessionPath: CURSOR_SESSION_PATH });
}

/** Why a call could not be decided before tailtest knew what it was. */
interface Cause {
  kind: "input" | "internal";
  message: string;
}

/**
 * A call tailtest could not decide before it knew what it was (bad stdin, an off-schema payload,
 * a throw outside the project's handling). It may be the gate: in tdd mode a preToolUse, or a
 * call whose event cannot be read, is denied (Cursor reads `permission` only on permission
 * events); anything else is no opinion.
 */
function undecided(io: CursorHookIO, cause: Cause): HookOutput {
  const { eventName, roots } = peek(io.stdin);
  const gate = eventName === undefined || eventName === "preToolUse";
  const input = cause.kind === "input";
  const mode = gate ? modeAt(rootOf(io, roots)) : "follow";
  if (gateFailsClosed(mode)) {
    return failClosed(
      mode,
      input
        ? `could not read this hook call: ${cause.message}`
        : `internal error: ${cause.message}`,
    );
  }
  return noOpinion(
    input
      ? `tailtest: ignored a hook call: ${cause.message}\n`
      : `tailtest: internal error, skipped this hook: ${cause.message}\n`,
  );
}

/** The gate's answer when it cannot decide outside follow mode: one line, and a denial. */
function failClosed(mode: Mode, problem: string): HookOutput {
  return {
    stdout: `${JSON.stringify(denyOutput(couldNotDecideReason(mode, problem)))}\n`,
    stderr: `tailtest: ${problem}; ${mode} mode denies this call\n`,
    exitCode: 0,
  };
}

/**
 * An internal error after the payload was read (ADR 0002). follow mode fails open. In tdd mode a
 * preToolUse (the gate) is denied; in tdd and strict modes a postToolUse tells the agent, in
 * `additional_context` (all Cursor reads there), that the change was not checked, and the end of
 * a turn sends it back once with a `followup_message`, never while `loop_count` shows a followup
 * already went (a hook that keeps failing must not hold the agent forever). Everything else
 * (sessionStart, afterFileEdit, subagentStart, sessionEnd, a re-stop) fails open: one line on
 * stderr and `{}`.
 */
function internalError(
  event: HookEvent,
  eventName: string,
  message: string,
  mode: Mode,
): HookOutput {
  if (eventName === "preToolUse" && gateFailsClosed(mode))
    return failClosed(mode, `internal error: ${message}`);
  if (mode === "follow" || !holdsAfterError(event) || afterFileEdit(event, eventName)) {
    return noOpinion(`tailtest: internal error, skipped this hook: ${message}\n`);
  }
  const block: Decision = {
    kind: "block",
    reason: notCheckedReason(mode, message),
  };
  return {
    stdout: `${renderDecision(eventName, block).stdout}\n`,
    stderr: `tailtest: internal error in ${mode} mode, not letting it through: ${message}\n`,
    exitCode: 0,
  };
}

/**
 * afterFileEdit reports the same edit as postToolUse, but Cursor reads none of its output: only
 * postToolUse tells the agent that an edit was not checked.
 */
function afterFileEdit(event: HookEvent, eventName: string): boolean {
  return event.kind === "FilesEdited" && eventName !== "postToolUse";
}

/**
 * Whether Cursor would run this adapter's hooks for the project: the project's or the user's
 * hooks.json registers `@tailtest/cursor/dist/hook.cjs` and is a file Cursor loads (not reached
 * through a symlink, valid, no unknown event). The Claude Code adapter steps aside when it is,
 * so an edit is not handled twice.
 */
export function isCursorAdapterInstalled(root: string): boolean {
  // node:os is loaded only here: most hook calls never ask for the home folder.
  const home = process.getBuiltinModule("node:os").homedir();
  return [join(root, HOOKS_PATH), join(home, HOOKS_PATH)].some(loadsTailtest);
}

function loadsTailtest(path: string): boolean {
  try {
    if (lstatSync(dirname(path)).isSymbolicLink() || lstatSync(path).isSymbolicLink()) return false;
    const parsed = parseHooksFile(readFileSync(path, "utf8"));
    return parsed.ok && runsTailtest(parsed.value);
  } catch {
    return false;
  }
}

/**
 * The answer of a part of the hook (`hook-post.cjs`, `hook-gate.cjs`, ADR 0010): the handler's,
 * or undefined when it leaves the call to `hook-main.cjs`.
 */
export async function answerPart(stdin: string, handle: Handler): Promise<HookOutput | undefined> {
  return answerPartSafely(
    () => runCursorHookWith({ stdin, env: process.env, cwd: process.cwd() }, handle),
    noOpinion(""),
    `${NO_OPINION_OUTPUT}\n`,
  );
}
