import { answerFollowEdit, answerSafely, type HookOutput } from "@tailtest/core/node/edit";
import { runHookWith, SILENT } from "./call.ts";

/**
 * The hook after a tool, in a bundle of its own (`hook-post.cjs`, ADR 0010): follow mode's answer
 * to an edit, the call an agent makes on every edit, without evaluating what `handleEvent` can
 * reach. Anything else (another mode, a shell command, a config that does not say the mode) is
 * answered undefined, before anything is written, and the launcher hands it to `hook-main.cjs`.
 */
export async function answerHook(stdin: string): Promise<HookOutput | undefined> {
  let deferred = false;
  const output = await answerSafely(async () => {
    const answer = await runHookWith(
      { stdin, env: process.env, cwd: process.cwd() },
      answerFollowEdit,
    );
    deferred = answer === undefined;
    return answer ?? SILENT;
  }, "");
  return deferred ? undefined : output;
}
