import { PLATFORM } from "tailtest:adapter/platform";
import { answerGatedEdit, answerHookPart } from "../core-node-gate.ts";

/**
 * tdd and strict mode around an edit tool, in a bundle of its own (`hook-gate.cjs`, ADR 0010):
 * the gate before the write and the record after it, the calls an agent makes on every edit in
 * those modes, without evaluating what `handleEvent` can reach. Anything else (follow mode, a
 * shell command, a plan, a config that does not say the mode, another agent's call) is answered
 * undefined, before anything is written, and the launcher hands it to `hook-main.cjs`.
 */
export const answerHook = (stdin: string) => answerHookPart(PLATFORM, stdin, answerGatedEdit);
