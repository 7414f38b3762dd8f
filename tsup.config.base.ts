import { execFile } from "node:child_process";
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Options } from "tsup";
import ts from "typescript";
import { stampBuild } from "./packages/core/src/hook/node/code-cache.ts";
import { launcherStub } from "./packages/core/src/hook/node/launcher-stub.ts";
import { removeStaleCaches } from "./packages/core/src/hook/node/stale-caches.ts";
import { requiredLiterals } from "./packages/core/src/util/literal-guard.ts";

const execFileAsync = promisify(execFile);

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

/** Every dependency inside the bundle, workspace packages read from their sources. */
const bundleEverything: Pick<Options, "noExternal" | "dts" | "esbuildOptions"> = {
  noExternal: [/.*/],
  dts: false,
  esbuildOptions(options) {
    options.conditions = ["@tailtest/source"];
  },
};

/**
 * The `tailtest` command, as `@tailtest/cli` publishes it: one ES module bundle with every
 * dependency inside and the bash parser's .wasm files beside it, so the package installs with no
 * dependencies (no native builds, nothing resolved per package manager). It is the one package
 * with a `tailtest` bin; the adapters depend on it instead of bundling a copy each.
 */
export function cliConfig(entry: Record<string, string>): Options {
  return {
    ...baseConfig,
    ...bundleEverything,
    entry,
    banner: { js: ESM_REQUIRE_BANNER },
    async onSuccess() {
      await copyParserWasm();
    },
  };
}

/**
 * esbuild's ESM output turns a bundled CommonJS `require("fs")` into a throwing shim unless a real
 * `require` is in scope. A bin carries its own shebang, which esbuild keeps above this banner.
 */
const ESM_REQUIRE_BANNER =
  'import { createRequire as __tailtestCreateRequire } from "node:module";\nconst require = __tailtestCreateRequire(import.meta.url);';

/** commander's `child_process`, loaded when used (scripts/hook-shims/lazy-child-process.cjs). */
const commanderLazyChildProcess: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "commander-lazy-child-process",
  setup(build) {
    const shim = fileURLToPath(
      new URL("./scripts/hook-shims/lazy-child-process.cjs", import.meta.url),
    );
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: shim } : undefined,
    );
  },
};

/**
 * A library in the hook bundles and the command's, loaded on its first call through a shim of
 * scripts/hook-shims/ (each says why), for the importers `from` accepts: the shim's own require
 * gets the library, resolved from core, which depends on it.
 */
function lazyLibrary(
  name: string,
  shimFile: string,
  from: (importer: string) => boolean = () => true,
): EsbuildPlugin {
  return {
    name: `lazy-${name}`,
    setup(build) {
      const shim = fileURLToPath(new URL(`./scripts/hook-shims/${shimFile}`, import.meta.url));
      const core = fileURLToPath(new URL("./packages/core/", import.meta.url));
      // A package name: letters, digits and dashes, nothing a pattern would read otherwise.
      const filter = new RegExp(`^${name}$`);
      build.onResolve({ filter }, async (args) => {
        // build.resolve below comes through here again, marked: esbuild's own resolution then.
        if ((args.pluginData as { real?: boolean } | undefined)?.real === true) return undefined;
        if (args.importer !== shim) return from(args.importer) ? { path: shim } : undefined;
        const real = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: core,
          pluginData: { real: true },
        });
        return real.errors.length > 0 ? { errors: real.errors } : { path: real.path };
      });
    },
  };
}

/**
 * proper-lockfile, loaded on its first lock (scripts/hook-shims/lazy-proper-lockfile.cjs): with
 * retry and signal-exit, which sets up its emitter as it loads; most calls take no lock.
 */
const lazyProperLockfile = lazyLibrary("proper-lockfile", "lazy-proper-lockfile.cjs");

/**
 * picomatch, for core's own modules, loaded on its first call
 * (scripts/hook-shims/lazy-picomatch.cjs): core only calls it, and most calls match no glob.
 */
const lazyPicomatch = lazyLibrary("picomatch", "lazy-picomatch.cjs", (importer) =>
  /[\\/]packages[\\/]core[\\/]src[\\/]/.test(importer),
);

const LITERAL_GUARD = fileURLToPath(
  new URL("./packages/core/src/util/literal-guard.ts", import.meta.url),
);

/**
 * Each core module that guards patterns with `quickTest` (util/literal-guard.ts) gets its regex
 * literals' guards read here, at build time, and handed to `primeGuards` as it loads, in the
 * command's and the hooks' bundles: reading ~65 pattern sources cost every `explain` ~5 M
 * instructions and a queued edit ~7 M. The guards are `requiredLiterals`'
 * own answers for each literal's source and flags, keyed by both, so a guard can only be the one
 * the call would have read; a pattern built at run time is read then, as before.
 */
const primedGuards: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "tailtest-primed-guards",
  setup(build) {
    build.onLoad({ filter: /[\\/]packages[\\/]core[\\/]src[\\/].*\.ts$/ }, async (args) => {
      if (args.path === LITERAL_GUARD || args.path.endsWith(".test.ts")) return undefined;
      const source = await readFile(args.path, "utf8");
      if (!/from "[^"]*literal-guard\.ts"/.test(source)) return undefined;
      const entries = primedGuardEntries(source, args.path);
      if (entries.length === 0) return undefined;
      const prime = `import { primeGuards as __tailtestPrimeGuards } from ${JSON.stringify(LITERAL_GUARD)};\n__tailtestPrimeGuards(${asciiJson(entries)});\n`;
      return { contents: `${source}\n${prime}`, loader: "ts" };
    });
  },
};

/** `[flags/source, guard]` for each regex literal of a TypeScript module (see `primedGuards`). */
export function primedGuardEntries(
  source: string,
  file = "module.ts",
): [string, readonly string[] | null][] {
  const entries = new Map<string, readonly string[] | null>();
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = (node as ts.RegularExpressionLiteral).text;
      const end = text.lastIndexOf("/");
      const pattern = new RegExp(text.slice(1, end), text.slice(end + 1));
      entries.set(`${pattern.flags}/${pattern.source}`, requiredLiterals(pattern) ?? null);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return [...entries];
}

/** JSON with every non-ASCII character escaped: the bundles stay ASCII (read as Latin-1). */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The `tailtest` command as one minified CommonJS bundle (`tailtest-main.cjs`), which the bin's
 * launcher (packages/cli/src/launch.ts) evaluates with a V8 code cache per command, as the hooks
 * are: a command's own modules are still evaluated only when it is chosen. Stamped with its hash
 * (the cache's name) and with no `import()` left, which node 20 does not run from a cached script.
 * A command with a bundle of its own (`name`, e.g. `tailtest-status`) is built the same way, with
 * zod's JIT off as in the hooks: a command parses each schema once or twice.
 */
export function cliBundleConfig(entry: string, name = "tailtest-main"): Options {
  const own = name !== "tailtest-main";
  return {
    ...baseConfig,
    ...bundleEverything,
    entry: { [name]: entry },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    minify: true,
    esbuildOptions(options) {
      options.conditions = ["@tailtest/source"];
      if (own) options.inject = [ZOD_JITLESS];
      options.alias = {
        "graceful-fs": fileURLToPath(
          new URL("./scripts/hook-shims/graceful-fs.cjs", import.meta.url),
        ),
        assert: fileURLToPath(new URL("./scripts/hook-shims/assert.cjs", import.meta.url)),
      };
    },
    // Node 20 knows `node:` everywhere; kept, so the plugin below sees node's modules by name.
    removeNodeProtocol: false,
    // proper-lockfile (with retry and signal-exit, which sets up its emitter as it loads) on the
    // first lock only: `status` and `explain` take none.
    esbuildPlugins: [commanderLazyChildProcess, lazyProperLockfile, lazyPicomatch, primedGuards],
    clean: false,
    // A getter, as in the hook bundles: `pathToFileURL` at the top cost every call node's URL
    // functions compiled lazily, for a value no command's bundle reads on its way.
    define: { "import.meta.url": "__tailtestMeta.url" },
    banner: {
      js: 'var __tailtestMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } }, __tailtestNodeRequire = require;',
    },
    async onSuccess() {
      const file = `dist/${name}.cjs`;
      await writeFile(file, lowerNodeImports(await readFile(file, "utf8"), file));
      // `clean` is off (the bundles share dist/): each node's caches of earlier builds go here.
      removeStaleCaches(file, stampBuild(file).id);
    },
  };
}

/**
 * The `tailtest` bin as CommonJS (`tailtest.cjs`): the launcher (packages/cli/src/launch.ts) and
 * the node-only modules it needs, with no ES module loader in the process (ADR 0010).
 */
export function cliLauncherConfig(entry: string): Options {
  return {
    ...baseConfig,
    ...bundleEverything,
    entry: { tailtest: entry },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    clean: false,
    define: { "import.meta.url": "__tailtestMeta.url" },
    banner: {
      js: 'var __tailtestMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };',
    },
  };
}

/**
 * A library's `import("<node module>")` as a require through the bundle's own (see
 * scripts/train-code-cache.mjs, which does the same for the hook bundles); any other `import()`
 * left is an error.
 */
function lowerNodeImports(text: string, file: string): string {
  const lowered = text.replace(
    /\bimport\((["'])((?:node:)?[a-z_/]+)\1\)/g,
    (_all, _quote, name: string) =>
      `Promise.resolve(__tailtestNodeRequire(${JSON.stringify(name)}))`,
  );
  const left = /\bimport\(/.exec(lowered);
  if (left !== null)
    throw new Error(`${file}: an import() that is not of a node module is left at ${left.index}`);
  return lowered;
}

/** Injected first into a bundle whose zod schemas are each parsed once or twice (zod-jitless.ts). */
const ZOD_JITLESS = fileURLToPath(
  new URL("./packages/core/src/hook/node/zod-jitless.ts", import.meta.url),
);

/** The hook files every adapter ships, besides the parser's .wasm files. */
export const HOOK_FILES = ["hook.cjs", "hook-main.cjs", "hook-post.cjs", "hook-gate.cjs"];

/** What an adapter's build says about it: everything else of its bins is shared. */
export interface AdapterBuild {
  /** Its launcher facts: the name of a `QuietPlatform` constant of core's `hook/node/launcher.ts`. */
  launcher: "CLAUDE_CODE" | "CODEX" | "CURSOR";
  /** Run after the hook build (a Claude Code plugin copies the hook files into its folder). */
  afterBuild?: () => Promise<void>;
}

const fromRepo = (path: string) => fileURLToPath(new URL(`./${path}`, import.meta.url));

/**
 * The bins every adapter ships, the same code for each (core's `src/entries/node/adapter/` and
 * cli's `src/adapter-bin.ts`), with the adapter's own parts supplied here as modules the entries
 * import: `tailtest:adapter/platform` (its `src/platform.ts`), `tailtest:adapter/program` (its
 * `src/program.ts`, the installer) and `tailtest:adapter/launcher` (its launcher facts). The
 * adapter's package keeps only what differs.
 */
function adapterModules(launcher: AdapterBuild["launcher"]): EsbuildPlugin {
  const own: Record<string, string> = { platform: "src/platform.ts", program: "src/program.ts" };
  return {
    name: "tailtest-adapter-modules",
    setup(build) {
      build.onResolve({ filter: /^tailtest:adapter\// }, (args) => {
        const name = args.path.slice("tailtest:adapter/".length);
        if (name === "launcher") return { path: name, namespace: "tailtest-adapter" };
        const file = Object.hasOwn(own, name) ? own[name] : undefined;
        if (file === undefined) return { errors: [{ text: `no adapter module ${args.path}` }] };
        return { path: resolve(file) };
      });
      build.onLoad({ filter: /^launcher$/, namespace: "tailtest-adapter" }, () => ({
        contents: `export { ${launcher} as LAUNCHER } from ${JSON.stringify(fromRepo("packages/core/src/hook/node/launcher.ts"))};`,
        loader: "ts",
        resolveDir: process.cwd(),
      }));
    },
  };
}

type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];

/** The shared entries of an adapter's hook bundles (see `adapterModules`). */
const ADAPTER_HOOK_ENTRIES = {
  hook: "packages/core/src/entries/node/adapter/hook.ts",
  "hook-main": "packages/core/src/entries/node/adapter/hook-main.ts",
  "hook-post": "packages/core/src/entries/node/adapter/hook-post.ts",
  "hook-gate": "packages/core/src/entries/node/adapter/hook-gate.ts",
};

/**
 * An adapter package installs alone: one bundle per entry with every dependency inside
 * (one copy of core), and the parser's .wasm files beside it. Two builds:
 *
 * - the hook (`hook.cjs`, the launcher, and `hook-main.cjs`, `hook-post.cjs`, `hook-gate.cjs`,
 *   the bundles it evaluates) as minified CommonJS: a hook is a fresh process on every edit, and
 *   a CommonJS entry with no ES module loader, a smaller text and a V8 code cache (trained here,
 *   see scripts/train-code-cache.mjs) is what keeps it near the cost of `node -e 0`;
 * - the installer (`cli.js`) as ES modules; the `tailtest` command is `@tailtest/cli`'s
 *   (`cliConfig`), a dependency of every adapter.
 */
export function adapterConfig({ launcher, afterBuild }: AdapterBuild): Options[] {
  const modules = adapterModules(launcher);
  const hookEntries = Object.fromEntries(
    Object.entries(ADAPTER_HOOK_ENTRIES).map(([name, path]) => [name, fromRepo(path)]),
  );
  return [
    {
      ...baseConfig,
      ...bundleEverything,
      entry: { cli: fromRepo("packages/cli/src/adapter-bin.ts") },
      // The hook build writes beside this one: its files are not this build's to clean.
      clean: ["!hook*.cjs", "!*.cache", "!*.wasm"],
      banner: { js: ESM_REQUIRE_BANNER },
      esbuildPlugins: [modules],
    },
    {
      ...baseConfig,
      ...bundleEverything,
      entry: hookEntries,
      format: ["cjs"],
      outExtension: () => ({ js: ".cjs" }),
      minify: true,
      esbuildOptions(options) {
        options.conditions = ["@tailtest/source"];
        options.inject = [ZOD_JITLESS];
        // proper-lockfile's graceful-fs and signal-exit's assert, replaced by what a hook needs
        // of them (scripts/hook-shims/: each says why).
        options.alias = {
          "graceful-fs": fileURLToPath(
            new URL("./scripts/hook-shims/graceful-fs.cjs", import.meta.url),
          ),
          assert: fileURLToPath(new URL("./scripts/hook-shims/assert.cjs", import.meta.url)),
        };
      },
      esbuildPlugins: [modules, lazyProperLockfile, lazyPicomatch, primedGuards],
      clean: false,
      // The shell parser finds its .wasm files beside the bundle through import.meta.url, worked
      // out when read: node's pathToFileURL costs a call that does not use it ~1.7 M instructions
      // (its functions compiled on first use), and only hook-main's shell route reads it.
      define: { "import.meta.url": "__tailtestMeta.url" },
      // scripts/train-code-cache.mjs turns a bundled library's `import("<node module>")` into
      // __tailtestNodeRequire: node 20 runs no import() from a script compiled from a cache.
      banner: {
        js: 'var __tailtestMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } }, __tailtestNodeRequire = require;',
      },
      async onSuccess() {
        // The launcher inside a stub that evaluates it with a code cache (launcher-stub.ts).
        await writeFile("dist/hook.cjs", launcherStub(await readFile("dist/hook.cjs", "utf8")));
        await copyParserWasm();
        await trainCodeCache();
        await afterBuild?.();
      },
    },
  ];
}

/** Runs scripts/train-code-cache.mjs on this adapter's hook bundle (see that script). */
async function trainCodeCache(): Promise<void> {
  const script = fileURLToPath(new URL("./scripts/train-code-cache.mjs", import.meta.url));
  await execFileAsync(process.execPath, [script, "dist/hook-main.cjs"], { env: process.env });
}
