import { defineConfig } from "tsup";
import { adapterConfig } from "../../tsup.config.base.ts";

export default defineConfig(
  adapterConfig({
    // hook.cjs is a small launcher; hook-main.cjs is the bundle it loads when a call needs it.
    hook: "src/hook.ts",
    "hook-main": "src/hook-main.ts",
    cli: "src/cli.ts",
    tailtest: "../../packages/cli/src/bin.ts",
  }),
);
