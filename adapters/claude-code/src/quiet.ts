import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Hook calls whose answer is "no opinion" whatever core would say, told apart before the bundle
 * (zod, core, the parsers) is evaluated: that evaluation is most of a hook's cost, and a
 * PreToolUse holds the tool call until the hook exits. This module imports nothing but node.
 */

/** Core's HOOKS_OFF_ENV (a test keeps the two equal): set for tailtest's own plan reviewer. */
export const HOOKS_OFF = "TAILTEST_HOOKS_OFF";

/** Core's STATE_DIR and config file. */
const CONFIG_FILE = join(".tailtest", "config.json");

type Env = Readonly<Record<string, string | undefined>>;

/**
 * True when the call has no opinion for sure: the hooks are switched off, or it is a well-formed
 * Claude Code PreToolUse in a project whose config says follow mode (or has no config), where
 * every gate answers nothing. Anything else (Cursor's payloads, bad input, another mode, a
 * config that does not read cleanly) goes the whole way.
 */
export function answersNothing(stdin: string, env: Env): boolean {
  if (env[HOOKS_OFF] === "1") return true;
  const root = preToolUseRoot(stdin, env);
  return root !== undefined && isFollowProject(root);
}

/**
 * The launcher could not load the bundle (a broken install): a PreToolUse in a project that is
 * not in follow mode is denied, as any gate that cannot decide (ADR 0002); undefined otherwise.
 */
export function unreachableGateAnswer(stdin: string, env: Env, why: string): string | undefined {
  const root = preToolUseRoot(stdin, env);
  if (root === undefined || isFollowProject(root)) return undefined;
  return `${JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: `tailtest could not decide (${why}), so this call is blocked: outside follow mode tailtest fails closed. Ask the person to reinstall @tailtest/claude-code.`,
    },
  })}\n`;
}

/** The project of a well-formed Claude Code PreToolUse (not Cursor's), else undefined. */
function preToolUseRoot(stdin: string, env: Env): string | undefined {
  if (!stdin.includes('"PreToolUse"')) return undefined;
  // Cursor runs Claude Code hooks with its own payloads; the full path handles those.
  if (stdin.includes('"cursor_version"') || stdin.includes('"conversation_id"')) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(stdin);
  } catch {
    return undefined;
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return undefined;
  const payload = json as Record<string, unknown>;
  const input = payload["tool_input"];
  const cwd = payload["cwd"];
  if (
    payload["hook_event_name"] !== "PreToolUse" ||
    typeof payload["session_id"] !== "string" ||
    typeof cwd !== "string" ||
    typeof payload["tool_name"] !== "string" ||
    input === null ||
    typeof input !== "object" ||
    Array.isArray(input)
  )
    return undefined;
  const fromEnv = env["CLAUDE_PROJECT_DIR"];
  return fromEnv === undefined || fromEnv === "" ? cwd : fromEnv;
}

/** No config, or one that parses and leaves `mode` at follow. */
function isFollowProject(root: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(root, CONFIG_FILE), "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
  try {
    const config = JSON.parse(text) as unknown;
    if (config === null || typeof config !== "object" || Array.isArray(config)) return false;
    const mode = (config as Record<string, unknown>)["mode"];
    return mode === undefined || mode === "follow";
  } catch {
    return false;
  }
}

/** The whole of stdin as text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
