import {
  CURSOR_IN_CLAUDE_HOOKS,
  isCursorPayload,
  payloadRecord,
  type HookPlatform,
} from "@tailtest/core/hook";
import { CLAUDE_CODE, mayBeCursorPayload } from "@tailtest/core/quiet";
import { renderDecision, translatePayload } from "./translate.ts";

/**
 * Claude Code's hooks, as core's hook call reads them (`runHookCall`, ADR 0002). The project is
 * `CLAUDE_PROJECT_DIR` (always set, its hook protocol; an empty value names no project), else
 * the payload's `cwd`. Cursor also runs these hooks with its own payloads: such a call is left to
 * the Cursor adapter's own hooks, so an edit is never handled twice.
 */
export const PLATFORM: HookPlatform = {
  name: "claude-code",
  launcher: CLAUDE_CODE,
  translate: translatePayload,
  render: (eventName, decision) => ({ stdout: renderDecision(eventName, decision), stderr: "" }),
  // Every call passes here: one without Cursor's fields is not parsed twice.
  otherAgentsCall: (stdin) =>
    mayBeCursorPayload(stdin) && isCursorPayload(payloadRecord(stdin))
      ? CURSOR_IN_CLAUDE_HOOKS
      : undefined,
};
