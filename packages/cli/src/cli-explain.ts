import { addExplainCommand } from "./explain-command.ts";
import { runBin as runWith } from "./run-bin.ts";

/** `tailtest-explain.cjs`: `tailtest explain` alone, as `cli-status.ts` is for status. */
export function runBin(argv: readonly string[]): Promise<number> {
  return runWith(argv, addExplainCommand);
}
