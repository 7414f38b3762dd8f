import { addAllCommands } from "./program.ts";
import { runBin as runWith } from "./run-bin.ts";

/**
 * `tailtest-main.cjs`: the whole command as one CommonJS bundle, which `launch.ts`
 * evaluates with a code cache. Each command's module is still loaded only when chosen
 * (program.ts), so a call compiles and runs only its command's part of the bundle.
 */
export function runBin(argv: readonly string[]): Promise<number> {
  return runWith(argv, addAllCommands);
}
