#!/usr/bin/env node
import { runInstaller } from "./program.ts";

process.exitCode = await runInstaller(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
