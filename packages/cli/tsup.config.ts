import { defineConfig } from "tsup";
import { cliConfig } from "../../tsup.config.base.ts";

// The published package is the `tailtest` command alone; src/index.ts and src/installer.ts are
// read from source by the adapters' builds.
export default defineConfig(cliConfig({ bin: "src/bin.ts" }));
