import { defineConfig } from "tsup";
import { cliConfig } from "../../tsup.config.base.ts";

// The published package is the `tailtest` command alone (package.json `files`). index.js is for
// scripts/gen-docs.mjs; src/installer.ts is read from source by the adapters' builds.
export default defineConfig(cliConfig({ bin: "src/bin.ts", index: "src/index.ts" }));
