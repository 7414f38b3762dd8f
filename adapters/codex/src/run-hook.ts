import { handleEvent } from "@tailtest/core/node/hook";
import { runHookWith, SILENT, type Handler, type HookIO, type HookOutput } from "./call.ts";

export type { HookIO, HookOutput };

/**
 * One Codex hook call, answered by core's `handleEvent` (call.ts holds the policy: ADR 0002).
 * The policy for core's failures is only reachable when core fails: tests pass a core that does.
 */
export async function runHook(io: HookIO, handle: Handler = handleEvent): Promise<HookOutput> {
  return (await runHookWith(io, handle)) ?? SILENT;
}
