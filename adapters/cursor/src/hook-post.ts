import { answerFollowEdit, answerSafely, type HookOutput } from "@tailtest/core/node/edit";
import { noOpinion, runCursorHookWith } from "./call.ts";
import { NO_OPINION_OUTPUT } from "./translate.ts";

/**
 * The hook after a tool, in a bundle of its own (`hook-post.cjs`, ADR 0010): follow mode's answer
 * to an edit, the call an agent makes on every edit, without evaluating what `handleEvent` can
 * reach. Anything else (another mode, a shell command, a config that does not say the mode) is
 * answered undefined, before anything is written, and the launcher hands it to `hook-main.cjs`.
 */
export async function answerHook(stdin: string): Promise<HookOutput | undefined> {
  let deferred = false;
  const output = await answerSafely(async () => {
    const io = { stdin, env: process.env, cwd: process.cwd() };
    const answer = await runCursorHookWith(io, answerFollowEdit);
    deferred = answer === undefined;
    return answer ?? noOpinion("");
  }, `${NO_OPINION_OUTPUT}\n`);
  return deferred ? undefined : output;
}
