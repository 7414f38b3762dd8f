import { payloadRecord, type HookAnswer, type HookPlatform } from "@tailtest/core/hook";
import { CLAUDE_CODE, mayBeCursorPayload } from "@tailtest/core/quiet";
import { renderDecision, translatePayload } from "./translate.ts";

/**
 * Claude Code's hooks, as core's hook call reads them (`runHookCall`, ADR 0002). The project is
 * `CLAUDE_PROJECT_DIR` (always set, its hook protocol; an empty value names no project), else
 * the payload's `cwd`.
 */
export const PLATFORM: HookPlatform = {
  name: "claude-code",
  launcher: CLAUDE_CODE,
  translate(stdin, env) {
    const translation = translatePayload(stdin, env);
    if (!translation.ok) return translation;
    const { event, payload } = translation;
    return {
      ok: true,
      event,
      eventName: payload.hook_event_name,
      payload,
      identity: {
        sessionId: payload.session_id,
        transcriptPath: payload.transcript_path ?? undefined,
      },
    };
  },
  render: (eventName, decision) => ({ stdout: renderDecision(eventName, decision), stderr: "" }),
  otherAgentsCall: cursorCall,
};

/** Cursor's answer for "no opinion": it counts an empty stdout as a failed hook. */
const CURSOR_NO_OPINION: HookAnswer = {
  stdout: "{}\n",
  stderr:
    "tailtest: Cursor ran Claude Code's hook; tailtest answers Cursor through @tailtest/cursor's hooks (npx tailtest-cursor init)\n",
  exitCode: 0,
};

/**
 * Cursor also runs the hooks in `.claude/settings.json`, with its own payload (its published hook
 * protocol): it names Cursor's version, or has a conversation id and a camelCase event name. Such a
 * call is left to the Cursor adapter's own hooks, so an edit is never handled twice.
 */
function cursorCall(stdin: string): HookAnswer | undefined {
  // Every call passes here: one without Cursor's fields is not parsed twice.
  if (!mayBeCursorPayload(stdin)) return undefined;
  const json = payloadRecord(stdin);
  if (json === undefined) return undefined;
  const name = json["hook_event_name"];
  const cursor =
    "cursor_version" in json ||
    (typeof json["conversation_id"] === "string" &&
      typeof name === "string" &&
      /^[a-z][A-Za-z]*$/.test(name));
  return cursor ? CURSOR_NO_OPINION : undefined;
}
