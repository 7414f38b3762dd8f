import { cp, mkdir, rm } from "node:fs/promises";
import { defineConfig } from "tsup";
import { adapterConfig, HOOK_FILES } from "../../tsup.config.base.ts";

export default defineConfig(
  adapterConfig(
    {
      // hook.cjs is a small launcher; hook-main.cjs is the bundle it loads when a call needs it,
      // hook-post.cjs and hook-gate.cjs the ones it loads for an edit tool's calls (ADR 0010).
      hook: "src/hook.ts",
      "hook-main": "src/hook-main.ts",
      "hook-post": "src/hook-post.ts",
      "hook-gate": "src/hook-gate.ts",
      cli: "src/cli.ts",
    },
    // A plugin is loaded from its own folder (and copied into Claude Code's plugin cache), so
    // its hook, and the parser files the hook loads, must sit inside it. No code caches: each
    // node that runs the plugin writes its own on first use (ADR 0011).
    async () => {
      await rm("plugin/dist", { recursive: true, force: true });
      await mkdir("plugin/dist", { recursive: true });
      for (const file of [...HOOK_FILES, "tree-sitter.wasm", "tree-sitter-bash.wasm"]) {
        await cp(`dist/${file}`, `plugin/dist/${file}`);
      }
    },
  ),
);
