import { fstatSync } from "node:fs";
import { fdStream, guardOutput, onProcessSignals } from "./closed-output.ts";
import { EXIT, runProgram, type AddCommands } from "./program-base.ts";
import { useLiveProgress } from "./terminal.ts";

/**
 * The `tailtest` command on this process's streams, with the given commands: its exit code. A
 * reader that went away (`tailtest status | head -1`) ends the command quietly with exit 0. Every
 * bundle the launcher evaluates runs this (`launch.ts` → `tailtest-main.cjs`, or a command's own).
 */
export async function runBin(argv: readonly string[], addCommands: AddCommands): Promise<number> {
  let readerGone = false;
  const output = guardOutput(
    { stdout: fdStream(1, () => process.stdout), stderr: fdStream(2, () => process.stderr) },
    onProcessSignals,
    () => {
      readerGone = true;
      process.exitCode = EXIT.ok;
    },
  );
  const exitCode = await runProgram(
    argv,
    {
      stdout: output.stdout,
      stderr: output.stderr,
      cwd: process.cwd(),
      interactive: useLiveProgress(process.env, isTerminal(2)),
      stdoutIsTerminal: isTerminal(1),
      onStopSignal: output.onStopSignal,
    },
    addCommands,
  );
  return readerGone ? EXIT.ok : exitCode;
}

/**
 * Whether fd 1 or 2 is a terminal, without `process.stdout.isTTY` (which builds node's stdio
 * stream) and, for a pipe or a file, without node's tty module (which loads net: ~15 M
 * instructions): only a character device can be a terminal.
 */
function isTerminal(fd: 1 | 2): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}
