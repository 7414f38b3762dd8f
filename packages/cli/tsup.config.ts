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
    clean: ["!tailtest-*.cjs", "!tailtest.cjs", "!*.cache", "!*.wasm"],
  },
  cliBundleConfig("src/cli-main.ts"),
  // `status` and `explain` alone: a call of either evaluates only its own command (cli-route.ts).
  cliBundleConfig("src/cli-status.ts", "tailtest-status"),
  cliBundleConfig("src/cli-explain.ts", "tailtest-explain"),
  // The published bin (package.json `bin`): the same launcher as CommonJS.
  cliLauncherConfig("src/launch.ts"),
]);
