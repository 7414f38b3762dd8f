import { fstatSync, statSync } from "node:fs";
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
  // Asked when a command first reads them (colours, a progress line, help's width): `explain`
  // never does, so a terminal's fds cost it nothing.
  let interactive: boolean | undefined;
  let stdoutIsTerminal: boolean | undefined;
  const exitCode = await runProgram(
    argv,
    {
      stdout: output.stdout,
      stderr: output.stderr,
      cwd: process.cwd(),
      get interactive() {
        return (interactive ??= useLiveProgress(process.env, isTerminal(2)));
      },
      get stdoutIsTerminal() {
        return (stdoutIsTerminal ??= isTerminal(1));
      },
      onStopSignal: output.onStopSignal,
    },
    addCommands,
  );
  return readerGone ? EXIT.ok : exitCode;
}

/**
 * Whether fd 1 or 2 is a terminal, without `process.stdout.isTTY` (which builds node's stdio
 * stream) and, for a pipe, a file or `/dev/null`, without node's tty module (which loads net and
 * the streams: ~45 M instructions): only a character device can be a terminal, and `/dev/null`
 * (`> /dev/null`, a script's or a service's output) is one that is not.
 */
export function isTerminal(fd: number): boolean {
  let rdev: number;
  try {
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice()) return false;
    rdev = stat.rdev;
  } catch {
    return false;
  }
  try {
    const nul = statSync("/dev/null", { throwIfNoEntry: false });
    if (nul?.isCharacterDevice() === true && nul.rdev === rdev) return false;
  } catch {
    // No /dev/null to compare with: the terminal check below decides.
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}
