import { cp, mkdir } from "node:fs/promises";
import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base.ts";

export default defineConfig({
  ...baseConfig,
  entry: { hook: "src/hook.ts", cli: "src/cli.ts", tailtest: "../../packages/cli/src/bin.ts" },
  // The package installs alone: every dependency, workspace packages included, is bundled.
  noExternal: [/.*/],
  dts: false,
  // esbuild's ESM output turns a bundled CommonJS `require("fs")` into a throwing shim unless a
  // real `require` is in scope. cli.ts and bin.ts carry their own shebang, which esbuild keeps
  // above this banner.
  banner: {
    js: 'import { createRequire as __tailtestCreateRequire } from "node:module";\nconst require = __tailtestCreateRequire(import.meta.url);',
  },
  // A plugin is loaded from its own folder (and copied into Claude Code's plugin cache), so its
  // hook must sit inside it.
  async onSuccess() {
    await mkdir("plugin/dist", { recursive: true });
    await cp("dist/hook.js", "plugin/dist/hook.js");
  },
});
