import { PLATFORM } from "tailtest:adapter/platform";
import { answerHookCall, handleEvent, type HookOutput } from "../core-node-hook.ts";

/**
 * Everything a hook call needs beyond the launcher, loaded by `hook.cjs` only when the call may
 * have an opinion: core's hook call with `handleEvent`, for the adapter's platform
 * (`tailtest:adapter/platform`: its `src/platform.ts`). It never throws (ADR 0002).
 */
export const answerHook = (stdin: string): Promise<HookOutput> =>
  answerHookCall(PLATFORM, stdin, handleEvent);
