import { describe, expect, it } from "vitest";
import { resolveJsImport, type ResolveContext } from "./resolve.ts";
import { runnerAliases } from "./runner-aliases.ts";

describe("runnerAliases", () => {
  it.each([
    {
      what: "jest.config.js moduleNameMapper (vuex)",
      rel: "jest.config.js",
      text: `module.exports = {
  rootDir: __dirname,
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/src/$1',
    '^test/(.*)$': '<rootDir>/test/$1',
    '\\\\.(css|less)$': '<rootDir>/mocks/style.js'
  },
  testMatch: ['<rootDir>/test/**/*.spec.js'],
}`,
      paths: [
        ["@/*", ["src/*"]],
        ["test/*", ["test/*"]],
      ],
    },
    {
      what: "a whole name, a prefix without a slash, an array of targets, a rootDir",
      rel: "web/jest.config.ts",
      text: `export default { rootDir: 'app', moduleNameMapper: { "^config$": "<rootDir>/config/index.ts", "^~(.*)$": ["<rootDir>/src$1", "<rootDir>/lib$1"] } }`,
      paths: [
        ["config", ["web/app/config/index.ts"]],
        ["~*", ["web/app/src*", "web/app/lib*"]],
      ],
    },
    {
      what: "package.json's jest key",
      rel: "package.json",
      text: JSON.stringify({ jest: { moduleNameMapper: { "^@lib/(.*)$": "<rootDir>/lib/$1" } } }),
      paths: [["@lib/*", ["lib/*"]]],
    },
    {
      what: "vitest resolve.alias, object form",
      rel: "vitest.config.ts",
      text: `import path from 'node:path'
export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname, './src'), '@test': path.resolve(__dirname, 'test') } },
})`,
      paths: [
        ["@", ["src"]],
        ["@/*", ["src/*"]],
        ["@test", ["test"]],
        ["@test/*", ["test/*"]],
      ],
    },
    {
      what: "vitest resolve.alias resolved from the working folder (eslint-plugin-import-lite)",
      rel: "vitest.config.ts",
      text: `export default defineConfig({
  resolve: {
    alias: {
      '~test': resolve('test'),
      '~': resolve('src'),
    },
  },
}) as ViteUserConfig`,
      paths: [
        ["~test", ["test"]],
        ["~test/*", ["test/*"]],
        ["~", ["src"]],
        ["~/*", ["src/*"]],
      ],
    },
    {
      what: "vite test.alias through new URL, and the array form",
      rel: "pkg/vite.config.mts",
      text: `export default defineConfig({
  test: { alias: { '@/': fileURLToPath(new URL('./src/', import.meta.url)) } },
  resolve: { alias: [{ find: '~', replacement: resolve(__dirname, 'lib') }] },
})`,
      paths: [
        ["@/*", ["pkg/src/*"]],
        ["~", ["pkg/lib"]],
        ["~/*", ["pkg/lib/*"]],
      ],
    },
    {
      what: "SvelteKit's plugin: $lib is src/lib, which no config spells (the generated tsconfig does)",
      rel: "vite.config.ts",
      text: `import { sveltekit } from '@sveltejs/kit/vite';
export default defineConfig({ plugins: [sveltekit({ adapter: adapter() })] })`,
      paths: [
        ["$lib", ["src/lib"]],
        ["$lib/*", ["src/lib/*"]],
      ],
    },
    {
      what: "SvelteKit's lib folder moved by files.lib, beside a resolve.alias",
      rel: "app/vite.config.js",
      text: `export default {
  plugins: [sveltekit({ files: { lib: 'src/shared' } })],
  resolve: { alias: { '@': path.resolve(__dirname, './src') } },
}`,
      paths: [
        ["@", ["app/src"]],
        ["@/*", ["app/src/*"]],
        ["$lib", ["app/src/shared"]],
        ["$lib/*", ["app/src/shared/*"]],
      ],
    },
  ])("reads $what", ({ rel, text, paths }) => {
    expect(runnerAliases(rel, text)?.paths).toEqual(paths);
  });

  it("reads nothing from a config without aliases or with only regex ones", () => {
    expect(
      runnerAliases("jest.config.js", "module.exports = { testMatch: ['**/*.spec.js'] }"),
    ).toBe(undefined);
    expect(
      runnerAliases(
        "jest.config.js",
        "module.exports = { moduleNameMapper: { '\\\\.(css|less)$': 'identity-obj-proxy' } }",
      ),
    ).toBe(undefined);
    expect(runnerAliases("package.json", JSON.stringify({ name: "x" }))).toBe(undefined);
  });

  it("lets a test's `@/util` import reach src/util.js, below the config's folder only", () => {
    const aliases = runnerAliases(
      "jest.config.js",
      "module.exports = { moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' } }",
    );
    const context: ResolveContext = {
      files: new Set(["src/util.js", "src/module/module.js", "src/index.js"]),
      aliases: aliases === undefined ? [] : [aliases],
      pythonRoots: [""],
    };
    expect(resolveJsImport(context, "test/unit/util.spec.js", "@/util")).toBe("src/util.js");
    expect(resolveJsImport(context, "test/a.spec.js", "@/module/module")).toBe(
      "src/module/module.js",
    );
    expect(resolveJsImport(context, "test/a.spec.js", "@/index")).toBe("src/index.js");
    expect(resolveJsImport(context, "test/a.spec.js", "@vue/x")).toBe(undefined);
  });

  it("lets a component's $lib imports reach a module, a rune module and a component", () => {
    const aliases = runnerAliases(
      "vite.config.ts",
      "export default defineConfig({ plugins: [sveltekit()] })",
    );
    const context: ResolveContext = {
      files: new Set(["src/lib/format.ts", "src/lib/stats.svelte.ts", "src/lib/Panel.svelte"]),
      aliases: aliases === undefined ? [] : [aliases],
      pythonRoots: [""],
    };
    const from = "src/routes/+page.svelte";
    expect(resolveJsImport(context, from, "$lib/format")).toBe("src/lib/format.ts");
    expect(resolveJsImport(context, from, "$lib/stats.svelte")).toBe("src/lib/stats.svelte.ts");
    expect(resolveJsImport(context, from, "$lib/stats.svelte.js")).toBe("src/lib/stats.svelte.ts");
    expect(resolveJsImport(context, from, "$lib/Panel.svelte")).toBe("src/lib/Panel.svelte");
  });
});
