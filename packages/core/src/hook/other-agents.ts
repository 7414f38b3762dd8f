import type { HookAnswer } from "./hook-platform.ts";

/**
 * Whether a hook payload comes from Cursor: it names its version, or it has a conversation id
 * and a camelCase event name (Claude Code's and Codex's are PascalCase). Cursor also runs the
 * hooks in `.claude/settings.json` with its own payloads (its hook protocol).
 */
export function isCursorPayload(json: unknown): boolean {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
  const record = json as Record<string, unknown>;
  if ("cursor_version" in record) return true;
  return (
    typeof record["conversation_id"] === "string" &&
    typeof record["hook_event_name"] === "string" &&
    /^[a-z][A-Za-z]*$/.test(record["hook_event_name"])
  );
}

/**
 * Cursor's answer when it runs Claude Code's hooks: no opinion as Cursor reads it (an empty
 * stdout is a failed hook there), and a line saying where tailtest answers Cursor, so an edit is
 * never handled twice.
 */
export const CURSOR_IN_CLAUDE_HOOKS: HookAnswer = {
  stdout: "{}\n",
  stderr:
    "tailtest: Cursor ran Claude Code's hook; tailtest answers Cursor through @tailtest/cursor's hooks (npx tailtest-cursor init)\n",
  exitCode: 0,
};
