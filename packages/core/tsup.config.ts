import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

export default defineConfig({
  ...baseConfig,
  entry: {
    index: "src/index.ts",
    "node/index": "src/node/index.ts",
    // The hook launchers' shortcut: node's own modules only (see quiet.ts).
    "node/quiet": "src/node/quiet.ts",
  },
});
