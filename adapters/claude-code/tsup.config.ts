import { cp, mkdir, readdir, rm } from "node:fs/promises";
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
      // The `tailtest` bin: a launcher, and the command as a code-cached bundle it evaluates.
      tailtest: "../../packages/cli/src/launch.ts",
      "tailtest-main": "../../packages/cli/src/cli-main.ts",
    },
    // A plugin is loaded from its own folder (and copied into Claude Code's plugin cache), so
    // its hook, and the parser files the hook loads, must sit inside it.
    async () => {
      await rm("plugin/dist", { recursive: true, force: true });
      await mkdir("plugin/dist", { recursive: true });
      // The build's code caches, not one a local run wrote for itself.
      const caches = (await readdir("dist")).filter(
        (name) => name.endsWith(".cache") && !name.endsWith(".local.cache"),
      );
      for (const file of [...HOOK_FILES, ...caches, "tree-sitter.wasm", "tree-sitter-bash.wasm"]) {
        await cp(`dist/${file}`, `plugin/dist/${file}`);
      }
    },
  ),
);
