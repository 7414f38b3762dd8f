import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

export default defineConfig({
  ...baseConfig,
  entry: { index: "src/index.ts", bin: "src/bin.ts" },
});
