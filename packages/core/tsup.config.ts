import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

/*
 * The keys are the dist paths package.json's `exports` name; the sources behind them may move.
 */
export default defineConfig({
  ...baseConfig,
  entry: {
    index: "src/index.ts",
    "node/index": "src/entries/node/core-node.ts",
    // What an adapter's hook imports instead of the indexes (see entries/core-hook.ts).
    "hook-api": "src/entries/core-hook.ts",
    "node/hook-api": "src/entries/node/core-node-hook.ts",
    "node/edit-api": "src/entries/node/core-node-edit.ts",
    "node/gate-api": "src/entries/node/core-node-gate.ts",
    // What the `tailtest` command's status, explain and run import instead of the indexes.
    "status-api": "src/entries/core-status.ts",
    "node/status-api": "src/entries/node/core-node-status.ts",
    "node/explain-api": "src/entries/node/core-node-explain.ts",
    "node/run-api": "src/entries/node/core-node-run.ts",
    // The hook launchers' shortcut: node's own modules only (see hook/node/launcher.ts).
    "node/quiet": "src/hook/node/launcher.ts",
    // The adapters' builds train their hook bundle's V8 code cache with it.
    "node/code-cache": "src/hook/node/code-cache.ts",
  },
});
