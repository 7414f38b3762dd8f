import { describe, expect, it } from "vitest";
import {
  compilePathAliases,
  folderMain,
  normalizeRel,
  aliasSpecifierWords,
  packageImportWords,
  packageImports,
  resolveJsImport,
  resolvePythonImport,
  workspaceAliases,
  type ResolveContext,
} from "./resolve.ts";
import { parseJsonc } from "../util/jsonc.ts";

function context(files: string[], extra: Partial<ResolveContext> = {}): ResolveContext {
  return { files: new Set(files), aliases: [], pythonRoots: [""], ...extra };
}

describe("normalizeRel", () => {
  it.each([
    ["a/./b/../c", "a/c"],
    ["./x", "x"],
    ["a/..", ""],
    ["..", undefined],
    ["a/../../b", undefined],
  ])("%s → %s", (input, output) => {
    expect(normalizeRel(input)).toBe(output);
  });
});

describe("resolvePythonImport", () => {
  const files = [
    "pkg/__init__.py",
    "pkg/a.py",
    "pkg/sub/__init__.py",
    "pkg/sub/b.py",
    "src/lib/__init__.py",
    "src/lib/core.py",
    "scripts/helper.py",
    "scripts/run.py",
  ];
  const imp = (module: string, level = 0, names?: string[] | "*") => ({
    module,
    level,
    names,
    line: 1,
  });

  it.each([
    ["pkg/sub/b.py", imp("a", 2, ["x"]), ["pkg/a.py"]],
    ["pkg/sub/b.py", imp("", 1, ["b"]), ["pkg/sub/b.py"]],
    ["pkg/sub/b.py", imp("", 1, ["thing"]), ["pkg/sub/__init__.py"]],
    ["pkg/sub/b.py", imp("", 2, ["a", "other"]), ["pkg/__init__.py", "pkg/a.py"]],
    ["main.py", imp("pkg.sub.b"), ["pkg/sub/b.py"]],
    ["main.py", imp("pkg.sub"), ["pkg/sub/__init__.py"]],
    ["main.py", imp("pkg", 0, ["a"]), ["pkg/a.py"]],
    ["main.py", imp("pkg", 0, "*"), ["pkg/__init__.py"]],
    ["main.py", imp("os.path"), []],
    ["pkg/a.py", imp("", 5, ["x"]), []],
    // A script's own folder is on sys.path when it runs.
    ["scripts/run.py", imp("helper", 0, ["go"]), ["scripts/helper.py"]],
  ])("%s: %j", (from, entry, expected) => {
    expect(resolvePythonImport(context(files), from, entry)).toEqual(expected);
  });

  it("looks in the configured roots (a src layout)", () => {
    expect(resolvePythonImport(context(files), "main.py", imp("lib.core"))).toEqual([]);
    expect(
      resolvePythonImport(context(files, { pythonRoots: ["", "src"] }), "main.py", imp("lib.core")),
    ).toEqual(["src/lib/core.py"]);
  });
});

describe("resolveJsImport", () => {
  const files = [
    "src/a.ts",
    "src/b.tsx",
    "src/lib/index.ts",
    "src/util.js",
    "src/esm.mts",
    "src/comp.vue",
    "packages/web/src/x.ts",
  ];
  const aliases = [
    compilePathAliases([
      {
        dir: "",
        compilerOptions: { baseUrl: ".", paths: { "@/*": ["src/*"], "#lib": ["src/lib"] } },
      },
    ]),
  ].filter((entry) => entry !== undefined);

  it.each([
    ["src/b.tsx", "./a", "src/a.ts"],
    ["src/b.tsx", "./a.js", "src/a.ts"],
    ["src/a.ts", "./b.jsx", "src/b.tsx"],
    ["src/a.ts", "./b", "src/b.tsx"],
    ["src/a.ts", "./lib", "src/lib/index.ts"],
    ["src/a.ts", "./lib/index.js", "src/lib/index.ts"],
    ["src/a.ts", "./util.js", "src/util.js"],
    ["src/a.ts", "./esm.mjs", "src/esm.mts"],
    ["src/a.ts", "./comp.vue", "src/comp.vue"],
    ["src/a.ts", "./a?raw", "src/a.ts"],
    ["src/a.ts", "@/lib", "src/lib/index.ts"],
    ["src/a.ts", "#lib", "src/lib/index.ts"],
    ["src/a.ts", "src/util", "src/util.js"],
    ["src/a.ts", "react", undefined],
    ["src/a.ts", "node:fs", undefined],
    ["src/a.ts", "../../../x", undefined],
    ["src/a.ts", "./missing", undefined],
  ])("%s imports %s", (from, specifier, expected) => {
    expect(resolveJsImport(context(files, { aliases }), from, specifier)).toBe(expected);
  });

  it("uses the nearest config's aliases", () => {
    const nested = compilePathAliases([
      { dir: "packages/web", compilerOptions: { paths: { "~/*": ["./src/*"] } } },
    ]);
    const both = context(files, { aliases: [...aliases, ...(nested ? [nested] : [])] });
    expect(resolveJsImport(both, "packages/web/src/y.ts", "~/x")).toBe("packages/web/src/x.ts");
    expect(resolveJsImport(both, "packages/web/src/y.ts", "@/a")).toBeUndefined();
    expect(resolveJsImport(both, "src/a.ts", "~/x")).toBeUndefined();
  });
});

describe("compilePathAliases", () => {
  it("takes baseUrl and paths through the extends chain, paths relative to baseUrl", () => {
    expect(
      compilePathAliases([
        { dir: "app", compilerOptions: { paths: { "@/*": ["src/*"] } } },
        { dir: "", compilerOptions: { baseUrl: "./app" } },
      ]),
    ).toEqual({ scope: "app", base_url: "app", paths: [["@/*", ["app/src/*"]]] });
    expect(compilePathAliases([{ dir: "", compilerOptions: {} }])).toBeUndefined();
  });
});

describe("parseJsonc", () => {
  it("reads comments and trailing commas, keeps // inside strings", () => {
    expect(parseJsonc('{\n // c\n "a": "http://x", /* b */\n "b": [1, 2,],\n}\n')).toEqual({
      a: "http://x",
      b: [1, 2],
    });
    expect(parseJsonc("{ nope")).toBeUndefined();
  });
});

describe("workspace packages resolve to their sources", () => {
  const files = new Set([
    "packages/ui/src/index.ts",
    "packages/ui/src/button.ts",
    "packages/core/lib/main.js",
    "apps/web/src/page.ts",
  ]);
  const context = {
    files: { has: (path: string) => files.has(path) },
    aliases: [
      workspaceAliases("packages/ui", {
        name: "@acme/ui",
        exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
      }),
      workspaceAliases("packages/core", { name: "core-lib", main: "./lib/main.js" }),
    ].filter((entry) => entry !== undefined),
    pythonRoots: [""],
  };
  it.each([
    ["@acme/ui", "packages/ui/src/index.ts"],
    ["@acme/ui/button", "packages/ui/src/button.ts"],
    ["core-lib", "packages/core/lib/main.js"],
    ["react", undefined],
  ])("%s → %s", (specifier, expected) => {
    expect(resolveJsImport(context, "apps/web/src/page.ts", specifier)).toBe(expected);
  });
  it("a nameless manifest, or a root one without exports, adds nothing", () => {
    expect(workspaceAliases("packages/x", { version: "1" })).toBeUndefined();
    expect(workspaceAliases("", { name: "root" })).toBeUndefined();
  });
  it("a root package with exports imports itself by name (Node's self-reference)", () => {
    const own = workspaceAliases("", { name: "hast-util-to-html", exports: "./index.js" });
    const self = {
      files: { has: (path: string) => ["index.js", "lib/handle/raw.js"].includes(path) },
      aliases: own === undefined ? [] : [own],
      pythonRoots: [""],
    };
    expect(resolveJsImport(self, "test/raw.js", "hast-util-to-html")).toBe("index.js");
    expect(resolveJsImport(self, "test/raw.js", "hast-util-to-html/lib/handle/raw.js")).toBe(
      "lib/handle/raw.js",
    );
  });
});

describe("a relative path that names a folder with a package.json main", () => {
  // qs's layout: `main` is `lib/index.js`, and its tests require the package as `'../'`.
  const files = ["lib/index.js", "lib/parse.js", "index.js", "packages/x/dist/x.js"];
  const aliases = [
    folderMain("", { name: "qs", main: "lib/index.js" }),
    folderMain("packages/x", { main: "./dist/x" }),
  ].filter((entry) => entry !== undefined);
  const qs = { files: { has: (path: string) => files.includes(path) }, aliases, pythonRoots: [""] };
  it.each([
    ["test/parse.js", "../", "lib/index.js"],
    ["test/parse.js", "..", "lib/index.js"],
    ["index.test.js", ".", "lib/index.js"],
    ["test/parse.js", "../lib/parse", "lib/parse.js"],
    ["test/parse.js", "../index.js", "index.js"],
    ["packages/x/test/a.js", "..", "packages/x/dist/x.js"],
  ])("%s requires %s: %s", (from, specifier, expected) => {
    expect(resolveJsImport(qs, from, specifier)).toBe(expected);
  });
  it("a main that names no file falls back to the folder's index; no main adds nothing", () => {
    const gone = [folderMain("", { main: "build/missing.js" })].filter((e) => e !== undefined);
    expect(resolveJsImport({ ...qs, aliases: gone }, "test/parse.js", "../")).toBe("index.js");
    expect(folderMain("", { name: "qs" })).toBeUndefined();
    expect(folderMain("", { main: "/abs/x.js" })).toBeUndefined();
    expect(folderMain("", { main: "." })).toBeUndefined();
  });
  it("is never reached by a bare name", () => {
    expect(resolveJsImport(qs, "test/parse.js", "qs")).toBeUndefined();
  });
  it("a main into a build that is not in the tree reads the source it was built from", () => {
    // `require('..')` of a TypeScript package whose `main` is `dist/index.js`.
    const built = [folderMain("", { main: "dist/index.js" })].filter((e) => e !== undefined);
    const tree = context(["src/index.ts", "src/parse.ts"], { aliases: built });
    expect(resolveJsImport(tree, "test/parse.test.js", "..")).toBe("src/index.ts");
    expect(resolveJsImport(tree, "test/parse.test.js", "../")).toBe("src/index.ts");
  });
});

describe("workspace packages whose exports hold conditions or subpaths", () => {
  // micromark's layout: the conditions are the exports object itself (no "." key), the default
  // names a build that is not in the tree, and `micromark/stream` is a subpath of its own.
  const files = new Set([
    "packages/micromark/dev/index.js",
    "packages/micromark/dev/stream.js",
    "packages/util-character/dev/index.js",
    "packages/util-symbol/lib/default.js",
    "packages/kit/src/icons/star.ts",
    "packages/kit/src/index.ts",
    "packages/kit/src/vanilla.ts",
  ]);
  const aliases = [
    workspaceAliases("packages/micromark", {
      name: "micromark",
      exports: {
        ".": { development: "./dev/index.js", default: "./index.js" },
        "./stream": { development: "./dev/stream.js", default: "./stream.js" },
        "./package.json": "./package.json",
      },
    }),
    workspaceAliases("packages/util-character", {
      name: "micromark-util-character",
      exports: { types: "./dev/index.d.ts", development: "./dev/index.js", default: "./index.js" },
    }),
    workspaceAliases("packages/util-symbol", {
      name: "micromark-util-symbol",
      exports: "./lib/default.js",
    }),
    workspaceAliases("packages/kit", {
      name: "@acme/kit",
      exports: {
        ".": "./dist/index.js",
        "./icons/*": { import: "./dist/icons/*.js" },
        "./vanilla": "./vanilla.mjs",
      },
    }),
  ].filter((entry) => entry !== undefined);
  const context = { files: { has: (path: string) => files.has(path) }, aliases, pythonRoots: [""] };

  it.each([
    ["micromark", "packages/micromark/dev/index.js"],
    ["micromark/stream", "packages/micromark/dev/stream.js"],
    ["micromark-util-character", "packages/util-character/dev/index.js"],
    ["micromark-util-symbol", "packages/util-symbol/lib/default.js"],
    ["@acme/kit", "packages/kit/src/index.ts"],
    ["@acme/kit/icons/star", "packages/kit/src/icons/star.ts"],
    // A subpath naming a build folder the source does not mirror: where `name/*` looks.
    ["@acme/kit/vanilla", "packages/kit/src/vanilla.ts"],
    ["micromark/missing", undefined],
  ])("%s → %s", (specifier, expected) => {
    expect(resolveJsImport(context, "test/io/text/code.js", specifier)).toBe(expected);
  });
});

describe("a package.json imports map", () => {
  const files = ["src/calc.js", "src/lib/index.ts", "test/helpers.js", "web/src/a.ts", "web/x.js"];
  const root = packageImports("", {
    imports: {
      "#multiply": "./test/helpers.js",
      "#t/*": { node: "./test/*", default: "./test/*" },
      "#pkg": "some-package",
      nohash: "./src/calc.js",
    },
  });
  const web = packageImports("web", { imports: { "#x": "./x.js" } });
  const tsconfig = compilePathAliases([
    { dir: "", compilerOptions: { paths: { "#lib": ["src/lib"] } } },
  ]);
  const all = [root, web, tsconfig].filter((entry) => entry !== undefined);

  it("keeps the # keys and the project paths they name", () => {
    expect(root?.paths).toEqual([
      ["#multiply", ["test/helpers.js"]],
      ["#t/*", ["test/*"]],
    ]);
    expect(packageImports("", { imports: ["#x"] })).toBeUndefined();
    expect(packageImports("", { name: "x" })).toBeUndefined();
  });

  it.each([
    ["src/calc.js", "#multiply", "test/helpers.js"],
    ["src/calc.js", "#t/helpers.js", "test/helpers.js"],
    ["src/calc.js", "#lib", "src/lib/index.ts"],
    ["src/calc.js", "#x", undefined],
    ["web/src/a.ts", "#x", "web/x.js"],
    ["web/src/a.ts", "#multiply", undefined],
  ])("%s imports %s", (from, specifier, expected) => {
    expect(resolveJsImport(context(files, { aliases: all }), from, specifier)).toBe(expected);
  });

  it("names the keys an import of a file must spell", () => {
    expect(packageImportWords(all, "test/helpers.js")).toEqual(["#multiply", "#t/"]);
    expect(packageImportWords(all, "test/other.js")).toEqual(["#t/"]);
    expect(packageImportWords(all, "src/calc.js")).toEqual([]);
  });
});

describe("aliasSpecifierWords: an entry an alias reaches past its star", () => {
  const vue = [
    { scope: "", paths: [["@vue/*", ["packages/*/src"]]] as [string, string[]][] },
    { scope: "", paths: [["@/*", ["src/*"]]] as [string, string[]][] },
  ];
  it.each<[string, string[]]>([
    // vue's tsconfig: `@vue/reactivity` is packages/reactivity/src, whose entry is index.ts.
    ["packages/reactivity/src/index.ts", ["@vue/reactivity"]],
    ["packages/runtime-core/src/index.ts", ["@vue/runtime-core"]],
    // A module under it is reached by no alias specifier (`@vue/reactivity/ref` is no path).
    ["packages/reactivity/src/ref.ts", []],
    // An alias whose star ends its target spells the entry's folder already.
    ["src/ui/index.ts", []],
    ["lib/index.ts", []],
  ])("%s → %j", (rel, words) => {
    expect(aliasSpecifierWords(vue, rel)).toEqual(words);
  });
});

/**
 * A test that imports the package's build (`../dist/index.js`) tests what `src/` builds into:
 * the build folder is no project file, so the import is read as the source it was built from.
 */
describe("an import of build output reads the source it was built from", () => {
  const files = ["src/index.ts", "src/math.ts", "src/esm.js", "packages/a/src/index.ts"];
  it.each([
    ["test/index.test.js", "../dist/index.js", "src/index.ts"],
    ["test/index.test.js", "../dist", "src/index.ts"],
    ["test/math.test.js", "../build/esm/math.js", "src/math.ts"],
    ["test/math.test.js", "../out/cjs/math", "src/math.ts"],
    ["packages/a/test/a.test.js", "../dist/index.mjs", "packages/a/src/index.ts"],
    ["test/x.test.js", "../dist/missing.js", undefined],
    ["test/math.test.js", "../lib/math.js", "src/math.ts"],
    ["test/x.test.js", "../lib/missing.js", undefined],
  ])("%s imports %s → %s", (from, specifier, expected) => {
    expect(resolveJsImport(context(files), from, specifier)).toBe(expected);
  });

  it("a build folder the project holds as files is read as it is", () => {
    const held = context([...files, "dist/index.js", "lib/math.js"]);
    expect(resolveJsImport(held, "test/index.test.js", "../dist/index.js")).toBe("dist/index.js");
    expect(resolveJsImport(held, "test/math.test.js", "../lib/math.js")).toBe("lib/math.js");
  });

  // tsc with `rootDir: "."` and `outDir: "build"` mirrors the whole tree: yargs-parser's tests
  // import `../build/lib/index.js`, built from `lib/index.ts`; no `src/` there.
  it.each([
    ["test/parser.mjs", "../build/lib/index.js", "lib/index.ts"],
    ["test/utils.mjs", "../build/lib/string-utils.js", "lib/string-utils.ts"],
    ["test/root.mjs", "../dist/main.js", "main.ts"],
    ["test/x.mjs", "../build/lib/missing.js", undefined],
  ])("with the build folder taken out: %s imports %s → %s", (from, specifier, expected) => {
    const tree = context(["lib/index.ts", "lib/string-utils.ts", "main.ts"]);
    expect(resolveJsImport(tree, from, specifier)).toBe(expected);
  });

  it("a source under src/ wins over one with the build folder taken out", () => {
    const both = context(["src/index.ts", "index.ts"]);
    expect(resolveJsImport(both, "test/a.test.js", "../dist/index.js")).toBe("src/index.ts");
  });
});
