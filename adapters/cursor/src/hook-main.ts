import { answerSafely, type HookOutput } from "@tailtest/core/node/hook";
import { runCursorHook } from "./run-hook.ts";
import { NO_OPINION_OUTPUT } from "./translate.ts";

/**
 * Everything a hook call needs beyond `@tailtest/core/quiet`, loaded by `hook.ts` only when the
 * call may have an opinion. It never throws: an unexpected error is one stderr line and `{}`
 * (Cursor counts an empty answer as a failed hook), through core's `answerSafely` (ADR 0002).
 */
export function answerHook(stdin: string): Promise<HookOutput> {
  return answerSafely(
    () => runCursorHook({ stdin, env: process.env, cwd: process.cwd() }),
    `${NO_OPINION_OUTPUT}\n`,
  );
}
