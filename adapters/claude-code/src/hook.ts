import type * as HookMain from "./hook-main.ts";
import { answersNothing, readStdin, unreachableGateAnswer } from "./quiet.ts";

/**
 * The hook bin. It loads only node's own modules first: a call with no opinion for sure (the
 * hooks switched off, a PreToolUse in a follow-mode project) ends here, without evaluating the
 * bundle next to it (`hook-main.js`: zod, core, the shell parser), which is most of a hook's cost.
 */
const MAIN = "./hook-main.js";

let stdin = "";
try {
  stdin = await readStdin();
} catch {
  // Unreadable stdin reads as empty: hook-main reports it (and denies a tdd-mode PreToolUse).
}
if (!answersNothing(stdin, process.env)) {
  let main: typeof HookMain | undefined;
  try {
    // A computed specifier, so the build leaves hook-main.js a file of its own.
    main = (await import(new URL(MAIN, import.meta.url).href)) as typeof HookMain;
  } catch (error) {
    // The code, not the message: the message holds this machine's path, which agents never see.
    const code = (error as { code?: unknown } | null)?.code;
    const why = `${MAIN} did not load (${typeof code === "string" ? code : "error"})`;
    process.stdout.write(unreachableGateAnswer(stdin, process.env, why) ?? "");
    process.stderr.write(`tailtest: ${why}\n`);
  }
  if (main !== undefined) {
    const output = await main.answerHook(stdin);
    process.stdout.write(output.stdout);
    process.stderr.write(output.stderr);
    process.exitCode = output.exitCode;
  }
}
