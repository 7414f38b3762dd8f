import type { HookPlatform } from "@tailtest/core/hook";
import { CODEX } from "@tailtest/core/quiet";
import { renderDecision, translatePayload } from "./translate.ts";

/**
 * Codex's hooks, as core's hook call reads them (`runHookCall`, ADR 0002). Codex runs hooks in
 * the session's folder and names no project: the nearest folder with .tailtest/ above the
 * payload's `cwd` (init makes one), else the git root, else that folder.
 */
export const PLATFORM: HookPlatform = {
  name: "codex",
  launcher: CODEX,
  translate: (stdin) => translatePayload(stdin),
  render: (eventName, decision) => ({ stdout: renderDecision(eventName, decision), stderr: "" }),
};
