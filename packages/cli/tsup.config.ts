import { defineConfig } from "tsup";
import { cliBundleConfig, cliConfig } from "../../tsup.config.base.ts";

// The published package is the `tailtest` command alone (package.json `files`): `bin.js`, a small
// launcher (src/launch.ts) that answers `--version` itself and otherwise evaluates the whole
// command, `tailtest-main.cjs`, with a V8 code cache per command (ADR 0010). index.js is for
// scripts/gen-docs.mjs; src/installer.ts is read from source by the adapters' builds.
export default defineConfig([
  {
    ...cliConfig({ bin: "src/launch.ts", index: "src/index.ts" }),
    // The bundle build writes beside this one: its files are not this build's to clean.
    clean: ["!tailtest-main.cjs", "!*.cache", "!*.wasm"],
  },
  cliBundleConfig("src/cli-main.ts"),
]);
