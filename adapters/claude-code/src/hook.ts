import { CLAUDE_CODE, launchHook } from "@tailtest/core/quiet";

/**
 * The hook bin. It loads only node's own modules first: a call with no opinion for sure (the
 * hooks switched off, a PreToolUse in a follow-mode project) ends here, without evaluating the
 * bundle next to it (`hook-main.js`: zod, core, the shell parser), which is most of a hook's cost.
 * A computed specifier, so the build leaves hook-main.js a file of its own.
 */
await launchHook(CLAUDE_CODE, new URL("./hook-main.js", import.meta.url));
