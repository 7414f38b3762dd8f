import { cp, mkdir, rm } from "node:fs/promises";
import { defineConfig } from "tsup";
import { adapterConfig, HOOK_FILES } from "../../tsup.config.base.ts";

// The hook bins and the installer bin are shared by every adapter (tsup.config.base.ts).
export default defineConfig(
  adapterConfig({
    launcher: "CLAUDE_CODE",
    // A plugin is loaded from its own folder (and copied into Claude Code's plugin cache), so
    // its hook, and the parser files the hook loads, must sit inside it. No code caches: each
    // node that runs the plugin writes its own on first use (ADR 0011).
    async afterBuild() {
      await rm("plugin/dist", { recursive: true, force: true });
      await mkdir("plugin/dist", { recursive: true });
      for (const file of [...HOOK_FILES, "tree-sitter.wasm", "tree-sitter-bash.wasm"]) {
        await cp(`dist/${file}`, `plugin/dist/${file}`);
      }
    },
  }),
);
