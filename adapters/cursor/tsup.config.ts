import { defineConfig } from "tsup";
import { adapterConfig } from "../../tsup.config.base.ts";

export default defineConfig(
  adapterConfig({
    hook: "src/hook.ts",
    cli: "src/cli.ts",
    // The Claude Code adapter calls it when Cursor runs a Claude Code hook.
    "run-hook": "src/run-hook.ts",
    tailtest: "../../packages/cli/src/bin.ts",
  }),
);
