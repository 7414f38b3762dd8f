import type { HookOutput } from "@tailtest/core/node";
import { runHook } from "./run-hook.ts";

/**
 * Everything a hook call needs beyond `quiet.ts`, loaded by `hook.ts` only when the call may
 * have an opinion. It never throws: an unexpected error is one stderr line and no opinion, as
 * core's `runHookProcess` does for the other adapters (ADR 0002).
 */
export async function answerHook(stdin: string): Promise<HookOutput> {
  try {
    return await runHook({ stdin, env: process.env, cwd: process.cwd() });
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { stdout: "", stderr: `tailtest: skipped this hook: ${message}\n`, exitCode: 0 };
  }
}
