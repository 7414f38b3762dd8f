import type { HookPlatform } from "@tailtest/core/hook";
import { CURSOR } from "@tailtest/core/quiet";
import { CURSOR_SESSION_PATH } from "./paths.ts";
import { renderDecision, translatePayload } from "./translate.ts";

/**
 * Cursor's hooks, as core's hook call reads them (`runHookCall`, ADR 0002). Every answer is a
 * JSON object (Cursor counts an empty stdout as a failed hook); the project is
 * `CURSOR_PROJECT_DIR`, else the first workspace root, else the project around the hook's folder
 * (Cursor starts project hooks in the workspace root); the session lives in .tailtest/, apart
 * from Claude Code's and Codex's.
 */
export const PLATFORM: HookPlatform = {
  name: "cursor",
  launcher: CURSOR,
  sessionPath: CURSOR_SESSION_PATH,
  translate: (stdin) => translatePayload(stdin),
  render: renderDecision,
};
