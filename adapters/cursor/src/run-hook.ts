import { lstatSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parseConfigText, type Decision, type Mode } from "@tailtest/core";
import {
  findProjectRoot,
  handleEvent,
  HOOKS_OFF_ENV,
  openProject,
  STATE_DIR,
  type HookOutput,
  type Project,
} from "@tailtest/core/node";
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
 * One Cursor hook call. It never throws and always exits 0 with a JSON object on stdout (Cursor
 * counts empty stdout as a failed hook). ADR 0002: bad input is one line on stderr and no
 * opinion, and an internal error no opinion in follow mode and a block where Cursor has one in
 * tdd and strict mode; in tdd mode a preToolUse (the gate) that cannot be decided, for either
 * reason, is denied. `TAILTEST_HOOKS_OFF=1` (tailtest's own nested agents) answers `{}` at once.
 */
export async function runCursorHook(io: CursorHookIO): Promise<HookOutput> {
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
      const decision = await handleEvent(project, event, { platform: "cursor", identity });
      const rendered = renderDecision(payload.hook_event_name, decision);
      return { stdout: `${rendered.stdout}\n`, stderr: rendered.stderr, exitCode: 0 };
    } catch (error) {
      const mode = project?.config.mode ?? readMode(root);
      return internalError(payload.hook_event_name, firstLine(error, root), mode);
    }
  } catch (error) {
    return undecided(io, { kind: "internal", message: firstLine(error) });
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
  if (!io.stdin.includes('"cursor_version"') && !io.stdin.includes('"conversation_id"'))
    return undefined;
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

function noOpinion(stderr: string): HookOutput {
  return { stdout: `${NO_OPINION_OUTPUT}\n`, stderr, exitCode: 0 };
}

/** An error as one line, with the project's own path taken out (agents never see absolute paths). */
function firstLine(error: unknown, root?: string): string {
  const message = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
  if (root === undefined) return message;
  return message.replaceAll(`${root}/`, "").replaceAll(root, ".");
}

/** The configured mode when openProject itself failed; follow when even that cannot be read. */
function readMode(root: string): Mode {
  try {
    return parseConfigText(readFileSync(join(root, STATE_DIR, "config.json"), "utf8")).config.mode;
  } catch {
    return "follow";
  }
}

/** The project's mode, for a call whose payload could not be read. */
function modeAt(root: string): Mode {
  try {
    return openProject(root, { sessionPath: CURSOR_SESSION_PATH }).config.mode;
  } catch {
    return readMode(root);
  }
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
  if (gate && modeAt(rootOf(io, roots)) === "tdd") {
    return failClosed(
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

/** The gate's answer when it cannot decide in tdd mode: one line for the person, and a denial. */
function failClosed(problem: string): HookOutput {
  const reason = `tailtest tdd could not decide (${problem}), so this call is blocked: tdd mode fails closed. Try again; if it keeps failing, ask the person to run \`tailtest tdd status\` and look at the hook's output in Cursor.`;
  return {
    stdout: `${JSON.stringify(denyOutput(reason))}\n`,
    stderr: `tailtest: ${problem}; tdd mode denies this call\n`,
    exitCode: 0,
  };
}

function internalError(eventName: string, message: string, mode: Mode): HookOutput {
  // The gate: denied in tdd mode; there is nothing to gate in the other modes. A subagent is
  // never refused.
  if (eventName === "preToolUse" && mode === "tdd") return failClosed(`internal error: ${message}`);
  if (mode === "follow" || eventName === "preToolUse" || eventName === "subagentStart") {
    return noOpinion(`tailtest: internal error, skipped this hook: ${message}\n`);
  }
  // A guard that silently allows when it breaks is no guard: the end of the turn sends the
  // agent back, and a per-edit call tells it. Cursor's post-edit events cannot undo an edit.
  const block: Decision = {
    kind: "block",
    reason: `tailtest could not check this (internal error: ${message}). In ${mode} mode it does not let unchecked work pass: fix the cause, or set "mode": "follow" in .tailtest/config.json.`,
  };
  return {
    stdout: `${renderDecision(eventName, block).stdout}\n`,
    stderr: `tailtest: internal error in ${mode} mode, not letting it pass: ${message}\n`,
    exitCode: 0,
  };
}

/**
 * Whether Cursor would run this adapter's hooks for the project: the project's or the user's
 * hooks.json registers `@tailtest/cursor/dist/hook.js` and is a file Cursor loads (not reached
 * through a symlink, valid, no unknown event). The Claude Code adapter steps aside when it is,
 * so an edit is not handled twice.
 */
export function isCursorAdapterInstalled(root: string): boolean {
  return [join(root, HOOKS_PATH), join(homedir(), HOOKS_PATH)].some(loadsTailtest);
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
