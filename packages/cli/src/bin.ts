#!/usr/bin/env node
import { runCli } from "./index.ts";

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  interactive: process.stderr.isTTY === true && process.env.NO_COLOR === undefined,
  stdoutIsTerminal: process.stdout.isTTY === true,
});
