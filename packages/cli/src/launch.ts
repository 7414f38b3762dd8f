#!/usr/bin/env node
import { writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadBundle } from "@tailtest/core/quiet";
import packageJson from "../package.json" with { type: "json" };
import { cliBundle, cliRoute } from "./cli-route.ts";

/**
 * The `tailtest` bin (`@tailtest/cli`'s `dist/tailtest.cjs`, and `dist/bin.js`, the same as an ES
 * module, for the repository's tests and scripts): the whole command is one CommonJS
 * bundle beside it (`tailtest-main.cjs`), evaluated through `vm.Script` with a V8 code cache per
 * command, as the hooks are (ADR 0010): a command's start is then mostly node's own, where an
 * ES module graph of the same code was compiled again on every call. The first call of a
 * command writes its cache (`*.local.cache`, never packed) for the next ones. The published bin
 * is CommonJS: an ES module entry costs a process node's ES module loader (~24 M instructions,
 * a quarter of `node -e 0`), before any of tailtest runs.
 */
const argv = process.argv.slice(2);
// `tailtest --version` alone is answered here, as commander would (program.ts), with no bundle.
const version = argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v");
if (version) writeSync(1, `${packageJson.version}\n`);
else void runBundle();

async function runBundle(): Promise<void> {
  // The CommonJS bin knows its folder; only the ES module one goes through a URL (node's URL
  // functions, compiled lazily on every call, cost the CommonJS bin ~1 M instructions).
  const here = typeof __dirname === "string" ? __dirname : dirname(fileURLToPath(import.meta.url));
  const bundle = join(here, cliBundle(argv));
  const loaded = loadBundle<{ runBin: (argv: readonly string[]) => Promise<number> }>(
    bundle,
    cliRoute(argv),
  );
  process.exitCode = await loaded.exports.runBin(argv);
  loaded.keepCache();
}
