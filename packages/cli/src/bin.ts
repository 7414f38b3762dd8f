#!/usr/bin/env node
import { guardOutput } from "./closed-output.ts";
import { onProcessSignals } from "./commands/watch.ts";
import { EXIT, runCli } from "./index.ts";
import { useLiveProgress } from "./terminal.ts";

// A reader that went away (`tailtest status | head -1`) ends the command quietly with exit 0.
let readerGone = false;
const output = guardOutput(
  { stdout: process.stdout, stderr: process.stderr },
  onProcessSignals,
  () => {
    readerGone = true;
    process.exitCode = EXIT.ok;
  },
);

const exitCode = await runCli(process.argv.slice(2), {
  stdout: output.stdout,
  stderr: output.stderr,
  cwd: process.cwd(),
  interactive: useLiveProgress(process.env, process.stderr.isTTY === true),
  stdoutIsTerminal: process.stdout.isTTY === true,
  onStopSignal: output.onStopSignal,
});
process.exitCode = readerGone ? EXIT.ok : exitCode;
