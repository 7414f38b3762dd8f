import { answerSafely, type HookOutput } from "@tailtest/core/node/hook";
import { runHook } from "./run-hook.ts";

/**
 * Everything a hook call needs beyond `@tailtest/core/quiet`, loaded by `hook.ts` only when the
 * call may have an opinion. It never throws (`answerSafely`, ADR 0002).
 */
export function answerHook(stdin: string): Promise<HookOutput> {
  return answerSafely(() => runHook({ stdin, env: process.env, cwd: process.cwd() }), "");
}
