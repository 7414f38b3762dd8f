import { defineConfig } from "tsup";
import { cliBundleConfig, cliConfig, cliLauncherConfig } from "../../tsup.config.base.ts";

// The published package is the `tailtest` command alone (package.json `files`): `tailtest.cjs`, a small
// launcher (src/launch.ts) that answers `--version` itself and otherwise evaluates the whole
// command, `tailtest-main.cjs`, with a V8 code cache per command (ADR 0010). index.js is for
// scripts/gen-docs.mjs; src/installer.ts is read from source by the adapters' builds.
export default defineConfig([
  {
    ...cliConfig({ bin: "src/launch.ts", index: "src/index.ts" }),
    // The bundle build writes beside this one: its files are not this build's to clean.
    clean: ["!tailtest-main.cjs", "!tailtest.cjs", "!*.cache", "!*.wasm"],
  },
  cliBundleConfig("src/cli-main.ts"),
  // The published bin (package.json `bin`): the same launcher as CommonJS.
  cliLauncherConfig("src/launch.ts"),
]);
