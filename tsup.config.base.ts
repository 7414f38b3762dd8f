import { copyFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename } from "node:path";
import type { Options } from "tsup";

/** Shared build options: every package ships ESM for Node 20.19+. */
export const baseConfig: Options = {
  format: ["esm"],
  target: "node20",
  platform: "node",
  dts: true,
  clean: true,
  sourcemap: false,
  splitting: false,
};

/**
 * Core parses shell commands with tree-sitter-bash run as WebAssembly (loaded only when a shell
 * command is seen); a bundle looks for both files beside itself.
 */
const PARSER_WASM = ["web-tree-sitter/tree-sitter.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"];

/** Copies the bash parser's .wasm files into `outDir`, resolved from core's own dependencies. */
export async function copyParserWasm(outDir = "dist"): Promise<void> {
  const fromCore = createRequire(new URL("./packages/core/package.json", import.meta.url));
  for (const specifier of PARSER_WASM) {
    const source = fromCore.resolve(specifier);
    await copyFile(source, `${outDir}/${basename(source)}`);
  }
}

/**
 * An adapter package installs alone: one bundle per entry with every dependency inside,
 * workspace packages read from their sources (one copy of core even when an adapter bundles
 * another adapter's module), and the parser's .wasm files beside it.
 */
export function adapterConfig(
  entry: Record<string, string>,
  afterBuild?: () => Promise<void>,
): Options {
  return {
    ...baseConfig,
    entry,
    noExternal: [/.*/],
    dts: false,
    esbuildOptions(options) {
      options.conditions = ["@tailtest/source"];
    },
    // esbuild's ESM output turns a bundled CommonJS `require("fs")` into a throwing shim unless
    // a real `require` is in scope. cli.ts and bin.ts carry their own shebang, which esbuild
    // keeps above this banner.
    banner: {
      js: 'import { createRequire as __tailtestCreateRequire } from "node:module";\nconst require = __tailtestCreateRequire(import.meta.url);',
    },
    async onSuccess() {
      await copyParserWasm();
      await afterBuild?.();
    },
  };
}
