import { defineConfig } from "tsup";
import { adapterConfig } from "../../tsup.config.base.ts";

export default defineConfig(
  adapterConfig({
    hook: "src/hook.ts",
    cli: "src/cli.ts",
    tailtest: "../../packages/cli/src/bin.ts",
  }),
);
