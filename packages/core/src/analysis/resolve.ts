import * as z from "zod/mini";
import { dirnameRel, normalizeRel } from "../project/project-view.ts";
import type { PythonImport } from "./python-module.ts";

/**
 * Import specifiers to project files, by the rules Python and TypeScript/Node follow, against a
 * set of known project files (no file system access: every lookup is a set membership).
 */

/** `compilerOptions.paths` of one tsconfig/jsconfig, already made project-relative. */
export const PathAliasesSchema = z.object({
  /** The folder of the config: it applies to files below it. */
  scope: z.string(),
  /** `baseUrl`, project-relative; bare specifiers are looked for there too. */
  base_url: z.optional(z.string()),
  /** Pattern (one `*` at most) → project-relative targets (same `*`). */
  paths: z.array(z.tuple([z.string(), z.array(z.string())])),
});
export type PathAliases = z.infer<typeof PathAliasesSchema>;

export interface ResolveContext {
  /** Whether a project file exists: a set of the walk's files, or a look at the project. */
  files: { has(path: string): boolean };
  /** One entry per tsconfig/jsconfig that says `paths` or `baseUrl`. */
  aliases: readonly PathAliases[];
  /** Folders Python's absolute imports start from (`""` is the project root). */
  pythonRoots: readonly string[];
  /** The project's console scripts, name → the module of its entry point (`python-scripts.ts`). */
  pythonScripts?: Readonly<Record<string, string>>;
}

// Kept in project-view.ts, which the hooks' bundles load anyway: a hook importing it from here
// would evaluate this module's schemas on every call.
export { normalizeRel };

function join(dir: string, rest: string): string | undefined {
  return normalizeRel(dir === "" ? rest : `${dir}/${rest}`);
}

// ---------------------------------------------------------------- Python

/** The project files a Python import statement loads (modules, packages, named submodules). */
export function resolvePythonImport(
  context: ResolveContext,
  fromFile: string,
  entry: PythonImport,
): string[] {
  const modulePath = entry.module === "" ? "" : entry.module.split(".").join("/");
  const bases =
    entry.level > 0 ? relativeBase(fromFile, entry.level) : absoluteBases(context, fromFile);
  for (const base of bases) {
    if (base === undefined) continue;
    const found = resolvePythonFrom(context, base, modulePath, entry.names);
    if (found.length > 0) return found;
  }
  return [];
}

function relativeBase(fromFile: string, level: number): (string | undefined)[] {
  let dir: string | undefined = dirnameRel(fromFile);
  for (let i = 1; i < level && dir !== undefined; i += 1)
    dir = dir === "" ? undefined : dirnameRel(dir);
  return [dir];
}

/** The configured roots, then the folder a script or test run from its own folder sees. */
function absoluteBases(context: ResolveContext, fromFile: string): string[] {
  const bases = [...context.pythonRoots];
  // pytest (rootdir-relative "prepend") and `python path/to/script.py` put the first folder
  // above the file that is not a package on sys.path.
  let dir = dirnameRel(fromFile);
  while (dir !== "" && context.files.has(`${dir}/__init__.py`)) dir = dirnameRel(dir);
  if (!bases.includes(dir)) bases.push(dir);
  return bases;
}

function pythonModuleFile(context: ResolveContext, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  for (const candidate of [`${path}.py`, `${path}/__init__.py`]) {
    const normalized = normalizeRel(candidate);
    if (normalized !== undefined && context.files.has(normalized)) return normalized;
  }
  return undefined;
}

function packageInitOf(context: ResolveContext, dir: string): string | undefined {
  const init = join(dir, "__init__.py");
  return init !== undefined && context.files.has(init) ? init : undefined;
}

function resolvePythonFrom(
  context: ResolveContext,
  base: string,
  modulePath: string,
  names: PythonImport["names"],
): string[] {
  const moduleDir = modulePath === "" ? base : join(base, modulePath);
  if (moduleDir === undefined) return [];
  // `from . import x` names the package itself: its __init__.py.
  const module =
    modulePath === "" ? packageInitOf(context, base) : pythonModuleFile(context, moduleDir);
  const found: string[] = [];
  let attribute = names === undefined || names === "*";
  if (names !== undefined && names !== "*") {
    for (const name of names) {
      const sub = pythonModuleFile(context, join(moduleDir, name));
      if (sub !== undefined) found.push(sub);
      else attribute = true;
    }
  }
  if (module !== undefined && (attribute || found.length === 0)) found.unshift(module);
  return found;
}

// ---------------------------------------------------------------- JavaScript / TypeScript

const TS_FOR_JS: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

const JS_EXTENSIONS = [
  ".ts",
  ".tsx",
  ".mts",
  ".cts",
  ".js",
  ".jsx",
  ".mjs",
  ".cjs",
  ".vue",
  ".svelte",
];

/** The project file an import specifier names, or undefined (a package, a missing file). */
export function resolveJsImport(
  context: ResolveContext,
  fromFile: string,
  specifier: string,
): string | undefined {
  // A query (`./a?raw`) is a bundler's; `#name` is a package import, kept.
  const clean = specifier.replace(/\?.*$/, "");
  if (isRelative(clean)) {
    const path = join(dirnameRel(fromFile), clean);
    return tryJsPath(context, path, true) ?? builtFrom(context, path);
  }
  if (clean.startsWith("/") || clean.startsWith("node:") || clean === "") return undefined;
  const imported = clean.startsWith("#")
    ? packageImportTarget(context, fromFile, clean)
    : undefined;
  if (imported !== undefined) return imported;
  const aliases = nearestAliases(context.aliases, fromFile);
  const viaConfig = aliases === undefined ? undefined : aliasedPath(context, aliases, clean);
  if (viaConfig !== undefined) return viaConfig;
  if (aliases?.base_url !== undefined) {
    const found = tryJsPath(context, join(aliases.base_url, clean));
    if (found !== undefined) return found;
  }
  // A runner config's aliases (jest `moduleNameMapper`, vite `resolve.alias`), the nearest one.
  const runner = nearestScoped(context.aliases, RUNNER_ALIAS_SCOPE, fromFile);
  const viaRunner = runner === undefined ? undefined : aliasedPath(context, runner, clean);
  if (viaRunner !== undefined) return viaRunner;
  // A monorepo's own packages, by their package.json names, resolve to their sources.
  for (const workspace of context.aliases) {
    if (workspace.scope !== WORKSPACE_SCOPE) continue;
    const found = aliasedPath(context, workspace, clean);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isRelative(specifier: string): boolean {
  return (
    specifier.startsWith("./") ||
    specifier.startsWith("../") ||
    specifier === "." ||
    specifier === ".."
  );
}

/**
 * Build folders (`dist/`, `build/`, `out/`, `lib/`) and the format folders a build may put in
 * them (`esm/`, `cjs/`). `lib/` is many a package's real source folder (express, qs): it is read
 * as a build only when the file is no project file and its source is found elsewhere.
 */
const BUILD_FOLDERS = new Set(["dist", "build", "out", "lib"]);
const FORMAT_FOLDERS = new Set(["esm", "cjs", "mjs", "src"]);

/**
 * The source a build-output path was built from, for a test that imports `../dist/index.js`
 * (the build is not in the project's files): the same path under the package's `src/`, or with
 * the build folder taken out (tsc with `rootDir: "."` builds `lib/index.ts` to
 * `build/lib/index.js`: yargs-parser's tests import that), with any JavaScript or TypeScript
 * extension. The innermost build folder is tried first. Undefined when no such source exists.
 */
function builtFrom(context: ResolveContext, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const parts = path.split("/");
  for (let at = parts.length - 1; at >= 0; at -= 1) {
    if (!BUILD_FOLDERS.has(parts[at] ?? "")) continue;
    const from = FORMAT_FOLDERS.has(parts[at + 1] ?? "") ? at + 2 : at + 1;
    const prefix = parts.slice(0, at);
    // A bundler names its output by format (`index.mjs`, `index.cjs` from `index.ts`).
    const rest = parts
      .slice(from)
      .join("/")
      .replace(/\.(?:[cm]?js|d\.[cm]?ts)$/, "");
    const found =
      tryJsPath(context, [...prefix, "src", rest].filter((part) => part !== "").join("/"), true) ??
      (rest === "" ? undefined : tryJsPath(context, [...prefix, rest].join("/"), true));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first project file an alias entry's targets for `specifier` name. */
function aliasedPath(
  context: ResolveContext,
  aliases: PathAliases,
  specifier: string,
): string | undefined {
  for (const target of aliasTargets(aliases, specifier)) {
    const found = tryJsPath(context, normalizeRel(target));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The scope of the alias entries that map a folder to its package.json `main`. */
export const FOLDER_MAIN_SCOPE = "*main*";

/**
 * A folder's package.json `main` as an alias entry of the folder itself: Node reads it for a
 * `require('../')` of the folder, before the folder's `index.js` (qs's tests require the package
 * as `'../'`, whose `main` is `lib/index.js`). Undefined without a `main` that names a file in
 * the project.
 */
export function folderMain(dir: string, manifest: unknown): PathAliases | undefined {
  if (manifest === null || typeof manifest !== "object") return undefined;
  const main = (manifest as Record<string, unknown>)["main"];
  if (typeof main !== "string" || main.startsWith("/")) return undefined;
  const target = join(dir, main);
  if (target === undefined || target === dir) return undefined;
  return { scope: FOLDER_MAIN_SCOPE, paths: [[dir, [target]]] };
}

/** The scope of the alias entries that map workspace package names to their folders. */
export const WORKSPACE_SCOPE = "*workspace*";

/** The export conditions whose targets are read, most source-like first. */
const EXPORT_CONDITIONS = [
  "source",
  "development",
  "import",
  "module",
  "node",
  "default",
  "require",
];

/**
 * The alias entries of one workspace package: its name to its source entry (`source`, then
 * `exports`/`module`/`main` with a build folder read as `src/`, then `src/index`, `index`),
 * each subpath of its `exports` map (`"./stream": {"development": "./dev/stream.js"}` for
 * `name/stream`, `./*` patterns too), and `name/*` to its `src/` and its folder. An `exports`
 * object whose keys are all conditions is the `"."` entry (Node's shorthand). The root package
 * too when it has an `exports` map: Node lets a package import itself by name then (tests that
 * `import {x} from 'its-name'`).
 */
export function workspaceAliases(dir: string, manifest: unknown): PathAliases | undefined {
  if (manifest === null || typeof manifest !== "object") return undefined;
  const pkg = manifest as Record<string, unknown>;
  const name = pkg["name"];
  if (typeof name !== "string" || name === "") return undefined;
  if (dir === "" && (pkg["exports"] === undefined || pkg["exports"] === null)) return undefined;
  const entries = exportTargets(dir, pkg["source"], [], 0);
  const exported = pkg["exports"];
  const map =
    exported !== null && typeof exported === "object" && !Array.isArray(exported)
      ? (exported as Record<string, unknown>)
      : undefined;
  const subpaths = map !== undefined && Object.keys(map).some((key) => key.startsWith("."));
  for (const value of [subpaths ? map["."] : exported, pkg["module"], pkg["main"]])
    exportTargets(dir, value, entries, 0);
  for (const fallback of ["src/index", "index"]) {
    const path = join(dir, fallback);
    if (path !== undefined && !entries.includes(path)) entries.push(path);
  }
  const paths: [string, string[]][] = [[name, entries]];
  if (subpaths && map !== undefined) paths.push(...exportSubpaths(dir, name, map));
  paths.push([`${name}/*`, dir === "" ? ["src/*", "*"] : [`${dir}/src/*`, `${dir}/*`]]);
  return { scope: WORKSPACE_SCOPE, paths };
}

/**
 * The project paths an `exports`/`main` value names: a `./` string as written and with its build
 * folder read as `src/` (extension dropped), or a conditions object's targets, most source-like
 * condition first (nested up to three deep).
 */
function exportTargets(dir: string, value: unknown, into: string[], depth: number): string[] {
  if (typeof value === "string") {
    if (!value.startsWith(".")) return into;
    const clean = value.replace(/^\.\//, "").replace(/\.d\.ts$/, "");
    const source = clean
      .replace(/^(dist|build|lib|out|esm|cjs)\//, "src/")
      .replace(/\.[cm]?js$/, "");
    for (const entry of [clean, source]) {
      const path = join(dir, entry);
      if (path !== undefined && !into.includes(path)) into.push(path);
    }
  } else if (value !== null && typeof value === "object" && !Array.isArray(value) && depth < 3) {
    const conditions = value as Record<string, unknown>;
    for (const key of EXPORT_CONDITIONS) exportTargets(dir, conditions[key], into, depth + 1);
  }
  return into;
}

/** An `exports` map's subpaths (`./stream`, `./icons/*`) as alias entries of `name/...`. */
function exportSubpaths(
  dir: string,
  name: string,
  map: Record<string, unknown>,
): [string, string[]][] {
  const paths: [string, string[]][] = [];
  for (const [key, value] of Object.entries(map)) {
    if (!key.startsWith("./") || key === "./package.json") continue;
    const sub = key.slice(2);
    // Then where `name/*` would look, so a subpath naming only a build still finds its source.
    const found = exportTargets(dir, value, [], 0);
    for (const fallback of [join(dir, `src/${sub}`), join(dir, sub)])
      if (fallback !== undefined && !found.includes(fallback)) found.push(fallback);
    paths.push([`${name}/${sub}`, found]);
  }
  return paths;
}

/** The scope of a runner config's aliases (`runner-aliases.ts`) starts with this, then its folder. */
export const RUNNER_ALIAS_SCOPE = "*runner*:";

/** The scope of a package.json's `imports` map starts with this, then its folder. */
export const PACKAGE_IMPORTS_SCOPE = "*imports*:";

/**
 * A package.json's `imports` map (`"#helpers": "./test/helpers.js"`, `"#t/*": "./test/*"`, or
 * conditions: every target they name) as alias entries for the files below its folder, which
 * Node and the bundlers resolve `import "#helpers"` by.
 */
export function packageImports(dir: string, manifest: unknown): PathAliases | undefined {
  if (manifest === null || typeof manifest !== "object") return undefined;
  const map = (manifest as Record<string, unknown>)["imports"];
  if (map === null || typeof map !== "object" || Array.isArray(map)) return undefined;
  const paths: [string, string[]][] = [];
  const targetsOf = (value: unknown, into: string[], depth: number): void => {
    if (typeof value === "string") {
      const path = value.startsWith("./") ? join(dir, value) : undefined;
      if (path !== undefined && !into.includes(path)) into.push(path);
    } else if (value !== null && typeof value === "object" && depth < 4)
      for (const inner of Object.values(value as Record<string, unknown>))
        targetsOf(inner, into, depth + 1);
  };
  for (const [pattern, value] of Object.entries(map as Record<string, unknown>)) {
    if (!pattern.startsWith("#")) continue;
    const targets: string[] = [];
    targetsOf(value, targets, 0);
    if (targets.length > 0) paths.push([pattern, targets]);
  }
  return paths.length === 0 ? undefined : { scope: `${PACKAGE_IMPORTS_SCOPE}${dir}`, paths };
}

/**
 * What an import of `rel` through a package.json `imports` map must spell: each key whose target
 * can be the file, up to its `*` (`#mul` for `"#mul": "./test/helpers.js"`, `#t/` for
 * `"#t/*": "./test/*"`), so a search for importers finds `require("#mul")`.
 */
export function packageImportWords(all: readonly PathAliases[], rel: string): string[] {
  const words: string[] = [];
  for (const entry of all) {
    if (!entry.scope.startsWith(PACKAGE_IMPORTS_SCOPE)) continue;
    for (const [pattern, targets] of entry.paths) {
      const reaches = targets.some((target) => {
        const star = target.indexOf("*");
        if (star !== -1) return rel.startsWith(target.slice(0, star));
        const stem = target.replace(/\.[cm]?[jt]sx?$/, "");
        return rel === target || rel.startsWith(`${stem}.`) || rel.startsWith(`${target}/index.`);
      });
      const star = pattern.indexOf("*");
      const word = star === -1 ? pattern : pattern.slice(0, star);
      if (reaches && !words.includes(word)) words.push(word);
    }
  }
  return words;
}

/**
 * The specifiers by which a tsconfig alias whose target goes on past its star (vue's `"@vue/*"`
 * to `packages/<name>/src`) reaches `rel` when `rel` is that folder's entry: `@vue/reactivity`
 * for `packages/reactivity/src/index.ts`. Such a specifier spells neither the entry's folder
 * (`src`) nor its name, so the cold search looks for it whole. An alias whose star ends its
 * target spells the folder already (`"@/*"` to `src/*`: `@/ui` for `src/ui/index.ts`).
 */
export function aliasSpecifierWords(all: readonly PathAliases[], rel: string): string[] {
  const noExt = rel.replace(/\.[cm]?[jt]sx?$/, "");
  if (!/(^|\/)index$/.test(noExt)) return [];
  const dir = noExt.slice(0, Math.max(0, noExt.lastIndexOf("/")));
  const words: string[] = [];
  for (const aliases of all) {
    if (aliases.scope.startsWith(PACKAGE_IMPORTS_SCOPE)) continue;
    for (const [pattern, targets] of aliases.paths) {
      const at = pattern.indexOf("*");
      if (at === -1) continue;
      for (const target of targets) {
        const star = target.indexOf("*");
        if (star === -1 || star === target.length - 1) continue;
        const head = target.slice(0, star);
        const tail = target.slice(star + 1);
        const capture =
          dir.startsWith(head) && dir.endsWith(tail)
            ? dir.slice(head.length, dir.length - tail.length)
            : undefined;
        if (capture === undefined || capture === "" || capture.includes("/")) continue;
        const word = `${pattern.slice(0, at)}${capture}${pattern.slice(at + 1)}`;
        if (!words.includes(word)) words.push(word);
      }
    }
  }
  return words;
}

/** The project file `#name` reaches through the nearest package.json `imports` map. */
function packageImportTarget(
  context: ResolveContext,
  fromFile: string,
  specifier: string,
): string | undefined {
  const imports = nearestPackageImports(context.aliases, fromFile);
  for (const target of imports === undefined ? [] : aliasTargets(imports, specifier)) {
    const found = tryJsPath(context, normalizeRel(target));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The `imports` map of the nearest package.json above a file that has one. */
function nearestPackageImports(all: readonly PathAliases[], file: string): PathAliases | undefined {
  return nearestScoped(all, PACKAGE_IMPORTS_SCOPE, file);
}

/** Of the entries whose scope is `kind` then a folder, the one nearest above `file`. */
function nearestScoped(
  all: readonly PathAliases[],
  kind: string,
  file: string,
): PathAliases | undefined {
  let best: { entry: PathAliases; dir: string } | undefined;
  for (const entry of all) {
    if (!entry.scope.startsWith(kind)) continue;
    const dir = entry.scope.slice(kind.length);
    const inside = dir === "" || file.startsWith(`${dir}/`);
    if (inside && (best === undefined || dir.length > best.dir.length)) best = { entry, dir };
  }
  return best?.entry;
}

/** The config that applies to a file: the one whose folder is the nearest above it. */
function nearestAliases(all: readonly PathAliases[], file: string): PathAliases | undefined {
  let best: PathAliases | undefined;
  for (const entry of all) {
    if (
      entry.scope === WORKSPACE_SCOPE ||
      entry.scope.startsWith(PACKAGE_IMPORTS_SCOPE) ||
      entry.scope.startsWith(RUNNER_ALIAS_SCOPE)
    )
      continue;
    const inside = entry.scope === "" || file.startsWith(`${entry.scope}/`);
    if (inside && (best === undefined || entry.scope.length > best.scope.length)) best = entry;
  }
  return best;
}

/** TypeScript's rule: the matching pattern with the longest prefix wins; its targets in order. */
function aliasTargets(aliases: PathAliases, specifier: string): string[] {
  let best: { prefixLength: number; targets: string[]; star: string } | undefined;
  for (const [pattern, targets] of aliases.paths) {
    const star = pattern.indexOf("*");
    if (star === -1) {
      if (pattern === specifier) return targets;
      continue;
    }
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (
      specifier.length >= prefix.length + suffix.length &&
      specifier.startsWith(prefix) &&
      specifier.endsWith(suffix) &&
      (best === undefined || prefix.length > best.prefixLength)
    ) {
      best = {
        prefixLength: prefix.length,
        targets,
        star: specifier.slice(prefix.length, specifier.length - suffix.length),
      };
    }
  }
  if (best === undefined) return [];
  const star = best.star;
  return best.targets.map((target) => target.replace("*", star));
}

/**
 * The project file a path names, as Node looks: the file, with a JavaScript or TypeScript
 * extension, then (for a relative specifier, `folders`) the folder's package.json `main`, then
 * its `index`.
 */
function tryJsPath(
  context: ResolveContext,
  path: string | undefined,
  folders = false,
): string | undefined {
  if (path === undefined) return undefined;
  const { files } = context;
  if (files.has(path)) return path;
  const dot = path.lastIndexOf(".");
  const ext = dot > path.lastIndexOf("/") ? path.slice(dot) : "";
  for (const replacement of TS_FOR_JS[ext] ?? []) {
    const candidate = path.slice(0, dot) + replacement;
    if (files.has(candidate)) return candidate;
  }
  for (const extension of JS_EXTENSIONS) if (files.has(path + extension)) return path + extension;
  const main = folders ? folderMainPath(context, path) : undefined;
  if (main !== undefined) return main;
  const prefix = path === "" ? "index" : `${path}/index`;
  for (const extension of JS_EXTENSIONS)
    if (files.has(prefix + extension)) return prefix + extension;
  return undefined;
}

/** The project file a folder's package.json `main` names (`folderMain`'s entry), if any. */
export function folderMainPath(context: ResolveContext, path: string): string | undefined {
  for (const entry of context.aliases) {
    const [folder, targets] = entry.paths[0] ?? [];
    if (entry.scope !== FOLDER_MAIN_SCOPE || folder !== path) continue;
    // A `main` into a build that is not in the tree reads the source it was built from.
    for (const target of targets ?? []) {
      const found = tryJsPath(context, target) ?? builtFrom(context, target);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * `compilerOptions.paths`/`baseUrl` of a parsed tsconfig chain (the config first, then what it
 * extends), made project-relative. Paths are relative to `baseUrl` when there is one, else to the
 * config that declares them.
 */
export function compilePathAliases(
  chain: readonly {
    dir: string;
    compilerOptions: { baseUrl?: string; paths?: Record<string, readonly string[]> };
  }[],
): PathAliases | undefined {
  const scope = chain[0]?.dir;
  if (scope === undefined) return undefined;
  let baseUrl: string | undefined;
  let paths: { from: string; value: Record<string, readonly string[]> } | undefined;
  for (const config of chain) {
    const options = config.compilerOptions;
    if (baseUrl === undefined && typeof options.baseUrl === "string")
      baseUrl = join(config.dir, options.baseUrl);
    if (paths === undefined && options.paths !== undefined)
      paths = { from: config.dir, value: options.paths };
  }
  if (baseUrl === undefined && paths === undefined) return undefined;
  const relativeTo = baseUrl ?? paths?.from ?? scope;
  const compiled: [string, string[]][] = Object.entries(paths?.value ?? {}).map(
    ([pattern, targets]) => [
      pattern,
      targets.flatMap((target) => {
        const resolved = join(relativeTo, target);
        return resolved === undefined ? [] : [resolved];
      }),
    ],
  );
  return {
    scope,
    ...(baseUrl === undefined ? {} : { base_url: baseUrl }),
    paths: compiled,
  };
}
