import { handleEvent } from "@tailtest/core/node/hook";
import { mayBeCursorPayload } from "@tailtest/core/quiet";
import { HOOKS_OFF_ENV } from "@tailtest/core/node/edit";
import { NO_OUTPUT, runHookWith, type HookIO, type HookOutput } from "./call.ts";

export type { HookIO, HookOutput };

/**
 * One Claude Code hook call, answered by core's `handleEvent` (call.ts holds the policy: ADR
 * 0002). Cursor also runs the hooks in `.claude/settings.json`, with its own payload
 * (hook-protocols §2.6). Such a call is Cursor's: when the Cursor adapter is installed it handles
 * the event and this hook steps aside; otherwise this hook answers exactly as the Cursor adapter
 * would.
 */
export async function runHook(io: HookIO): Promise<HookOutput> {
  // The nested agent of tailtest's own plan review: its hooks have no opinion at all.
  if (io.env[HOOKS_OFF_ENV] === "1") return NO_OUTPUT;
  const cursor = await cursorCall(io);
  if (cursor !== undefined) return cursor;
  return (await runHookWith(io, handleEvent)) ?? NO_OUTPUT;
}

/**
 * A Claude Code hook run by Cursor: handled once, by whichever adapter owns the event. Cursor's
 * module is loaded only for a payload that names Cursor's fields.
 */
async function cursorCall(io: HookIO): Promise<HookOutput | undefined> {
  if (!mayBeCursorPayload(io.stdin)) return undefined;
  const cursor = await import("@tailtest/cursor/run-hook");
  const root = cursor.cursorCallRoot(io);
  if (root === undefined) return undefined;
  // Cursor answers are never empty: it counts empty stdout as a failed hook.
  if (cursor.isCursorAdapterInstalled(root)) return { stdout: "{}\n", stderr: "", exitCode: 0 };
  return cursor.runCursorHook(io);
}
