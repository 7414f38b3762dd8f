import { fstatSync } from "node:fs";
import { fdStream, guardOutput, onProcessSignals } from "./closed-output.ts";
import { EXIT, runCli } from "./program.ts";
import { useLiveProgress } from "./terminal.ts";

/**
 * The `tailtest` command on this process's streams: its exit code. A reader that went away
 * (`tailtest status | head -1`) ends the command quietly with exit 0. Both bins run this: the
 * bin's bundle (`launch.ts` → `tailtest-main.cjs`).
 */
export async function runBin(argv: readonly string[]): Promise<number> {
  let readerGone = false;
  const output = guardOutput(
    { stdout: fdStream(1, () => process.stdout), stderr: fdStream(2, () => process.stderr) },
    onProcessSignals,
    () => {
      readerGone = true;
      process.exitCode = EXIT.ok;
    },
  );
  const exitCode = await runCli(argv, {
    stdout: output.stdout,
    stderr: output.stderr,
    cwd: process.cwd(),
    interactive: useLiveProgress(process.env, isTerminal(2)),
    stdoutIsTerminal: isTerminal(1),
    onStopSignal: output.onStopSignal,
  });
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
