import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

export default defineConfig({
  ...baseConfig,
  entry: { index: "src/index.ts", installer: "src/installer.ts", bin: "src/bin.ts" },
  // Each command is its own chunk, imported when chosen (program.ts).
  splitting: true,
});
