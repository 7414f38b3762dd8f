import { cp, mkdir } from "node:fs/promises";
import { defineConfig } from "tsup";
import { adapterConfig } from "../../tsup.config.base.ts";

export default defineConfig(
  adapterConfig(
    {
      // hook.js is a small launcher; hook-main.js is the bundle it loads when a call needs it.
      hook: "src/hook.ts",
      "hook-main": "src/hook-main.ts",
      cli: "src/cli.ts",
      tailtest: "../../packages/cli/src/bin.ts",
    },
    // A plugin is loaded from its own folder (and copied into Claude Code's plugin cache), so
    // its hook, and the parser files the hook loads, must sit inside it.
    async () => {
      await mkdir("plugin/dist", { recursive: true });
      for (const file of ["hook.js", "hook-main.js", "tree-sitter.wasm", "tree-sitter-bash.wasm"]) {
        await cp(`dist/${file}`, `plugin/dist/${file}`);
      }
    },
  ),
);
