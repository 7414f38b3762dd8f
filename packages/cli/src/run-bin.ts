import { guardOutput, onProcessSignals } from "./closed-output.ts";
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
    { stdout: process.stdout, stderr: process.stderr },
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
    interactive: useLiveProgress(process.env, process.stderr.isTTY === true),
    stdoutIsTerminal: process.stdout.isTTY === true,
    onStopSignal: output.onStopSignal,
  });
  return readerGone ? EXIT.ok : exitCode;
}
