import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

export default defineConfig({
  ...baseConfig,
  entry: {
    index: "src/index.ts",
    "node/index": "src/node/index.ts",
    // What an adapter's hook imports instead of the indexes (see hook-api.ts).
    "hook-api": "src/hook-api.ts",
    "node/hook-api": "src/node/hook-api.ts",
    "node/edit-api": "src/node/edit-api.ts",
    "node/gate-api": "src/node/gate-api.ts",
    // What the `tailtest` command's status, explain and run import instead of the indexes.
    "status-api": "src/status-api.ts",
    "node/status-api": "src/node/status-api.ts",
    "node/explain-api": "src/node/explain-api.ts",
    "node/run-api": "src/node/run-api.ts",
    // The hook launchers' shortcut: node's own modules only (see quiet.ts).
    "node/quiet": "src/node/quiet.ts",
    // The adapters' builds train their hook bundle's V8 code cache with it.
    "node/code-cache": "src/node/code-cache.ts",
  },
});
