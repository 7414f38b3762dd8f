import { PLATFORM } from "tailtest:adapter/platform";
import { answerFollowEdit, answerHookPart } from "../core-node-edit.ts";

/**
 * The hook after a tool, in a bundle of its own (`hook-post.cjs`, ADR 0010): follow mode's answer
 * to an edit, the call an agent makes on every edit, without evaluating what `handleEvent` can
 * reach. Anything else (another mode, a shell command, a config that does not say the mode,
 * another agent's call) is answered undefined, before anything is written, and the launcher
 * hands it to `hook-main.cjs`.
 */
export const answerHook = (stdin: string) => answerHookPart(PLATFORM, stdin, answerFollowEdit);
