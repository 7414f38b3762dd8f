import { handleEvent } from "@tailtest/core/node/hook";
import { noOpinion, runCursorHookWith, type CursorHookIO, type HookOutput } from "./call.ts";

export {
  CURSOR_SESSION_PATH,
  cursorCallRoot,
  isCursorAdapterInstalled,
  isCursorPayload,
  type CursorHookIO,
  type HookOutput,
} from "./call.ts";

/** One Cursor hook call, answered by core's `handleEvent` (call.ts holds the policy: ADR 0002). */
export async function runCursorHook(io: CursorHookIO): Promise<HookOutput> {
  return (await runCursorHookWith(io, handleEvent)) ?? noOpinion("");
}
