#!/usr/bin/env node
import { runInstaller } from "tailtest:adapter/program";

/**
 * Every adapter's installer bin (`dist/cli.js`, `tailtest-<agent> init | uninstall`), built with
 * the adapter's `src/program.ts` as `tailtest:adapter/program` (tsup.config.base.ts
 * `adapterConfig`). The one place an installer exits.
 */
process.exitCode = await runInstaller(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
