import { join } from "node:path";
import { CLAUDE_CODE, launchHook } from "@tailtest/core/quiet";

/**
 * The hook bin, built as CommonJS (`dist/hook.cjs`). It loads only node's own modules first: a
 * call with no opinion for sure (the hooks switched off, a pre-tool call in a follow-mode
 * project) ends here, without evaluating the bundle next to it (`hook-main.cjs`: zod, core, the
 * shell parser). A follow-mode edit is answered by `hook-post.cjs`, a bundle of just that; any
 * other call evaluates `hook-main.cjs`, each with its V8 code cache (core's code-cache.ts).
 */
void launchHook(CLAUDE_CODE, join(__dirname, "hook-main.cjs"), join(__dirname, "hook-post.cjs"));
