import { answerHookCall, handleEvent, type HookOutput } from "@tailtest/core/node/hook";
import { PLATFORM } from "./platform.ts";

/**
 * Everything a hook call needs beyond `@tailtest/core/quiet`, loaded by `hook.ts` only when the
 * call may have an opinion: core's hook call with `handleEvent`. It never throws (ADR 0002).
 */
export const answerHook = (stdin: string): Promise<HookOutput> =>
  answerHookCall(PLATFORM, stdin, handleEvent);
