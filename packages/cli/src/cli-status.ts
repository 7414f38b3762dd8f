import { runBin as runWith } from "./run-bin.ts";
import { addStatusCommand } from "./status-command.ts";

/**
 * `tailtest-status.cjs`: `tailtest status` alone (the launcher picks it when `status` is the first
 * word, `cliBundle`), so its start evaluates and deserialises only what status prints: not the
 * other commands' options, nor the test engine the whole bundle carries (docs/performance.md).
 */
export function runBin(argv: readonly string[]): Promise<number> {
  return runWith(argv, addStatusCommand);
}
