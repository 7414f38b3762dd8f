import { lstatSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parseConfigText, type Decision, type Mode } from "@tailtest/core";
import {
  handleEvent,
  openProject,
  STATE_DIR,
  type HookOutput,
  type Project,
} from "@tailtest/core/node";
import { parseHooksFile, runsTailtest } from "./install.ts";
import { CURSOR_SESSION_PATH, HOOKS_PATH } from "./paths.ts";
import {
  isCursorPayload,
  NO_OPINION_OUTPUT,
  renderDecision,
  translatePayload,
  type Translation,
} from "./translate.ts";

export { CURSOR_SESSION_PATH, isCursorPayload };

export interface CursorHookIO {
  stdin: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The hook's working directory: Cursor starts project hooks in the workspace root. */
  cwd: string;
}

export type { HookOutput };

type Payload = Extract<Translation, { ok: true }>["payload"];

/**
 * One Cursor hook call. It never throws and always exits 0 with a JSON object on stdout (Cursor
 * counts empty stdout as a failed hook). Bad input is one line on stderr and no opinion; an
 * internal error is no opinion in follow mode, and a block where Cursor has one in tdd and
 * strict mode (ADR 0002).
 */
export async function runCursorHook(io: CursorHookIO): Promise<HookOutput> {
  try {
    const translation = translatePayload(io.stdin);
    if (!translation.ok) return noOpinion(`tailtest: ignored a hook call: ${translation.error}\n`);
    const { event, payload } = translation;
    if (event === undefined) return noOpinion("");
    const root = projectRoot(io, payload);
    let project: Project | undefined;
    try {
      project = openProject(root, { sessionPath: CURSOR_SESSION_PATH });
      const decision = await handleEvent(project, event, { platform: "cursor" });
      const rendered = renderDecision(payload.hook_event_name, decision);
      return { stdout: `${rendered.stdout}\n`, stderr: rendered.stderr, exitCode: 0 };
    } catch (error) {
      const mode = project?.config.mode ?? readMode(root);
      return internalError(payload.hook_event_name, firstLine(error, root), mode);
    }
  } catch (error) {
    return noOpinion(`tailtest: internal error, skipped this hook: ${firstLine(error)}\n`);
  }
}

/** CURSOR_PROJECT_DIR, else the first workspace root, else the hook's working directory. */
function projectRoot(io: CursorHookIO, payload: Payload): string {
  return rootOf(io, payload.workspace_roots);
}

function rootOf(io: CursorHookIO, workspaceRoots: readonly string[] | undefined): string {
  const fromEnv = io.env["CURSOR_PROJECT_DIR"];
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  return workspaceRoots?.[0] ?? io.cwd;
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

function internalError(eventName: string, message: string, mode: Mode): HookOutput {
  if (mode === "follow") {
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
