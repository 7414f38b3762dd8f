import { isTestFile } from "../filter/filter.ts";
import { parseJsonc } from "../util/jsonc.ts";
import {
  dirnameRel,
  joinRel,
  normalizeRel,
  type ProjectView,
  walkFiles,
} from "../project/project-view.ts";
import type { DetectedRunner } from "./project-runners.ts";
import {
  packageScripts,
  packageTestScript,
  scriptCommands,
  testBuildCommand,
  unquote,
} from "./shared.ts";
import type { SuiteMatcher } from "./spec.ts";
import { specOf } from "./table.ts";

/**
 * Tests that run only as TypeScript's output. A package whose test script runs the runner on
 * tsc's `outDir` (`"test": "mocha lib"`, `c8 mocha build/test`, `node --test dist/test/`) keeps
 * its tests as TypeScript under the config's `rootDir` (`src/test/main_test.ts`) and runs what
 * tsc made of them (`lib/test/main_test.js`): the output is build output, usually not in git, and
 * is stale until tsc runs. Such a package's tests are the sources whose output the runner
 * collects; a run of them builds first, names the output on the command line, and reads the
 * output's file names in the report back as the sources (ADR 0013).
 */
export interface CompiledTests {
  /** Package-relative: the folder tsc writes (`lib`), the one it compiles from (`src`, "" = the package). */
  outDir: string;
  rootDir: string;
  /** The tsconfig that says so, package-relative. */
  config: string;
  /** Whether the config compiles JavaScript sources too (`allowJs`). */
  allowJs: boolean;
  /**
   * Whether the test script's runner command (or mocha's `spec`) names the output: its whole
   * suite runs from there. Without, a source is run as its output only where the runner's
   * config collects that output and not the source (jest's `testMatch`, ava's `files`).
   */
  named: boolean;
}

/** Source extension → what tsc writes for it. */
const EMITS: Record<string, string> = {
  ".ts": ".js",
  ".tsx": ".js",
  ".mts": ".mjs",
  ".cts": ".cjs",
};
const JS_EMITS: Record<string, string> = {
  ".js": ".js",
  ".jsx": ".js",
  ".mjs": ".mjs",
  ".cjs": ".cjs",
};
/** What tsc wrote → the source extensions it may come from, in the order they are looked for. */
const SOURCES: Record<string, readonly string[]> = {
  ".js": [".ts", ".tsx", ".js", ".jsx"],
  ".mjs": [".mts", ".mjs"],
  ".cjs": [".cts", ".cjs"],
};

const cache = new WeakMap<ProjectView, Map<string, CompiledTests | null>>();

/**
 * The compiled layout of a TypeScript runner's package: the `outDir` of a tsconfig the package's
 * scripts compile with, `named` when the test script's runner command (or mocha's `spec`) names
 * it. Undefined for a package with no such config (a read of package.json and its tsconfig).
 */
export function compiledTests(
  view: ProjectView,
  runner: DetectedRunner,
): CompiledTests | undefined {
  if (!runner.languages.includes("typescript")) return undefined;
  let known = cache.get(view);
  if (known === undefined) cache.set(view, (known = new Map<string, CompiledTests | null>()));
  const key = `${runner.id}\u0000${runner.package_dir}`;
  let found = known.get(key);
  if (found === undefined) known.set(key, (found = readCompiled(view, runner) ?? null));
  return found ?? undefined;
}

/**
 * Where a runner's tests are when it collects tsc's output (`lib` of hanbi's `mocha lib`): the
 * folder they are built from, which the agent edits (`src, run from tsc's output in lib`).
 */
export function builtTestsAt(view: ProjectView, runner: DetectedRunner, at: string): string {
  const layout = compiledTests(view, runner);
  if (layout?.named !== true) return at;
  const folder = normalizeRel(at) ?? at;
  const { outDir, rootDir } = layout;
  if (folder !== outDir && !folder.startsWith(`${outDir}/`)) return at;
  const source = joinRel(rootDir, folder.slice(outDir.length + 1));
  return `${source === "" ? "the package" : source}, run from tsc's output in ${at}`;
}

function readCompiled(view: ProjectView, runner: DetectedRunner): CompiledTests | undefined {
  const dir = runner.package_dir;
  const named = [
    ...runnerWords(view, runner),
    ...scriptWords(specOf(runner.id).testsAt?.(view, dir) ?? ""),
  ];
  let first: CompiledTests | undefined;
  for (const config of tscConfigs(packageScripts(view, dir))) {
    const layout = readLayout(view, dir, config);
    if (layout === undefined) continue;
    const out = layout.outDir;
    if (named.some((word) => word === out || word.startsWith(`${out}/`)))
      return { ...layout, named: true };
    first ??= layout;
  }
  if (first === undefined) return undefined;
  const copy = copiedOutput(view, runner, first, named);
  return copy === undefined ? first : { ...first, outDir: copy, named: true };
}

/**
 * A build folder the runner's command names beside tsc's `outDir` (`node --test
 * dist-node/test/*.js` where tsc writes `dist/`): the test script's own build copies or
 * rearranges the output there (uuid's `scripts/build.sh`: `tsc`, then `cp -pr dist dist-node`).
 * Read as the output, laid out as tsc wrote it, when the test script builds first and the folder
 * is named like a build's (`dist-*`, `build-*`, `out-*`) and holds no TypeScript source.
 */
function copiedOutput(
  view: ProjectView,
  runner: DetectedRunner,
  layout: CompiledTests,
  named: readonly string[],
): string | undefined {
  if (testBuildCommand(view, runner.package_dir) === undefined) return undefined;
  for (const word of named) {
    const folder = word.split("/")[0] ?? "";
    if (folder === layout.outDir || !COPY_FOLDER.test(folder) || !word.includes("/")) continue;
    if (layout.rootDir !== "" && folder === layout.rootDir.split("/")[0]) continue;
    return folder;
  }
  return undefined;
}

const COPY_FOLDER = /^(?:dist|build|out|lib)[-_.][\w.-]+$/;

/**
 * The words of the test script's commands that run the runner (`c8 mocha lib`, `node --test
 * dist/test/`), not of its other commands (`rimraf dist && vitest`).
 */
function runnerWords(view: ProjectView, runner: DetectedRunner): string[] {
  const programs = Object.keys(specOf(runner.id).shellPrograms ?? {});
  const runs = (words: readonly string[]): boolean =>
    words.some((word) => {
      const name = unquote(word).split("/").pop() ?? "";
      return programs.includes(name) || (runner.id === "node-test" && word === "--test");
    });
  return scriptCommands(packageTestScript(view, runner.package_dir))
    .filter(runs)
    .flatMap((words) => scriptWords(words.join(" ")));
}

/** A script's words that may be paths, `./` and a trailing slash taken off, quotes dropped. */
function scriptWords(script: string): string[] {
  return scriptCommands(script)
    .flat()
    .map((word) => unquote(word).replace(/^\.\//, "").replace(/\/+$/, ""))
    .filter((word) => word !== "" && !word.startsWith("-"));
}

/** The tsconfigs the package's scripts give tsc (`tsc -p tsconfig.build.json`), then tsconfig.json. */
function tscConfigs(scripts: Record<string, string>): string[] {
  const configs: string[] = [];
  for (const script of Object.values(scripts))
    for (const words of scriptCommands(script)) {
      const at = words.findIndex((word) => word === "tsc" || word.endsWith("/tsc"));
      if (at === -1) continue;
      for (let i = at + 1; i < words.length; i += 1) {
        const word = unquote(words[i] ?? "");
        const inline = /^--project=(.+)$/.exec(word)?.[1];
        const value =
          inline ?? (/^(-p|--project|-b|--build)$/.test(word) ? words[i + 1] : undefined);
        if (value === undefined) continue;
        const path = unquote(value).replace(/^\.\//, "").replace(/\/+$/, "");
        configs.push(/\.json$/.test(path) ? path : joinRel(path, "tsconfig.json"));
      }
    }
  return [...new Set([...configs, "tsconfig.json"])];
}

interface TsOptions {
  outDir?: string;
  rootDir?: string;
  allowJs?: boolean;
  include?: string[];
  exclude?: string[];
}

/** A tsconfig's `outDir`, `rootDir`, `allowJs` and `include`, through relative `extends`. */
function readLayout(view: ProjectView, dir: string, config: string): CompiledTests | undefined {
  const options: TsOptions = {};
  let at: string | undefined = config;
  for (let depth = 0; at !== undefined && depth < 5; depth += 1)
    at = mergeConfig(options, parseJsonc(view.readText(joinRel(dir, at)) ?? ""), dirnameRel(at));
  const outDir = options.outDir;
  if (outDir === undefined || outDir === "") return undefined;
  const rootDir =
    options.rootDir ??
    (options.include === undefined
      ? sourceRoot(view, dir, outDir, options.exclude ?? [])
      : includedRoot(options.include));
  // The output inside the sources it is built from (or the other way round) is not this layout.
  if (rootDir !== "" && (outDir.startsWith(`${rootDir}/`) || rootDir.startsWith(`${outDir}/`)))
    return undefined;
  if (rootDir === outDir) return undefined;
  return { outDir, rootDir, config, allowJs: options.allowJs === true, named: false };
}

/**
 * Fills what `options` lacks from one config's text (its folder `from`, package-relative); the
 * config it extends, when that is a relative path.
 */
function mergeConfig(options: TsOptions, json: unknown, from: string): string | undefined {
  if (json === null || typeof json !== "object") return undefined;
  const { compilerOptions, include, exclude, extends: parent } = json as Record<string, unknown>;
  const own = (compilerOptions ?? {}) as Record<string, unknown>;
  const path = (value: unknown): string | undefined =>
    typeof value === "string" ? normalizeRel(joinRel(from, value)) : undefined;
  options.outDir ??= path(own["outDir"]);
  options.rootDir ??= path(own["rootDir"]);
  if (typeof own["allowJs"] === "boolean") options.allowJs ??= own["allowJs"];
  if (Array.isArray(exclude))
    options.exclude ??= exclude
      .filter((entry): entry is string => typeof entry === "string")
      .map((entry) => normalizeRel(joinRel(from, entry)) ?? "");
  if (Array.isArray(include))
    options.include ??= include
      .filter((entry): entry is string => typeof entry === "string")
      .map((entry) => normalizeRel(joinRel(from, entry)) ?? "");
  return typeof parent === "string" && parent.startsWith(".")
    ? normalizeRel(joinRel(from, parent))
    : undefined;
}

/**
 * tsc's root for a config with neither `rootDir` nor `include` (it compiles every TypeScript file
 * of the package but the output and `exclude`): the one top folder that holds them (`src`), ""
 * when the package's own folder holds one, or several folders do, or the look is cut short. A
 * bounded look: the package's entries, then each folder until its first TypeScript file.
 */
function sourceRoot(
  view: ProjectView,
  dir: string,
  outDir: string,
  exclude: readonly string[],
): string {
  let budget = SOURCE_ROOT_BUDGET;
  const skipped = (name: string): boolean =>
    name.startsWith(".") ||
    name === "node_modules" ||
    name === outDir ||
    exclude.some((entry) => entry === name || entry.startsWith(`${name}/*`));
  const holdsTypeScript = (folder: string, depth: number): boolean => {
    for (const name of view.list(joinRel(dir, folder))) {
      if ((budget -= 1) < 0) return true;
      const path = joinRel(folder, name);
      if (TS_SOURCE.test(name)) return true;
      if (depth < 6 && !name.startsWith(".") && name !== "node_modules")
        if (!/\.[\w]+$/.test(name) && view.isDirectory(joinRel(dir, path)))
          if (holdsTypeScript(path, depth + 1)) return true;
    }
    return false;
  };
  const roots: string[] = [];
  for (const name of view.list(dir)) {
    if (skipped(name)) continue;
    if (TS_SOURCE.test(name)) return "";
    if (/\.[\w]+$/.test(name) || !view.isDirectory(joinRel(dir, name))) continue;
    if (holdsTypeScript(name, 1)) roots.push(name);
    if (budget < 0 || roots.length > 1) return "";
  }
  return roots.length === 1 ? (roots[0] ?? "") : "";
}

const SOURCE_ROOT_BUDGET = 400;
const TS_SOURCE = /(?<!\.d)\.[cm]?tsx?$/;

/** The folder every `include` pattern starts in (`["src/**\/*.ts"]` → `src`), "" when none. */
function includedRoot(include: readonly string[]): string {
  const folders = include.map((pattern) => {
    const parts = pattern.split("/");
    const fixed = parts.findIndex((part) => /[*?{[]/.test(part) || /\.[cm]?[jt]sx?$/.test(part));
    return (fixed === -1 ? parts : parts.slice(0, fixed)).join("/");
  });
  let common = folders[0] ?? "";
  for (const folder of folders.slice(1))
    while (common !== "" && folder !== common && !folder.startsWith(`${common}/`))
      common = dirnameRel(common);
  return common;
}

/** What tsc writes for a package-relative source, or undefined when it compiles none there. */
export function toCompiled(layout: CompiledTests, path: string): string | undefined {
  const { rootDir, outDir } = layout;
  if (rootDir !== "" && !path.startsWith(`${rootDir}/`)) return undefined;
  if (path.startsWith(`${outDir}/`) || /\.d\.[cm]?ts$/.test(path)) return undefined;
  const ext = /\.[cm]?[jt]sx?$/.exec(path)?.[0] ?? "";
  const emitted = EMITS[ext] ?? (layout.allowJs ? JS_EMITS[ext] : undefined);
  if (emitted === undefined) return undefined;
  const rest = rootDir === "" ? path : path.slice(rootDir.length + 1);
  return joinRel(outDir, `${rest.slice(0, -ext.length)}${emitted}`);
}

/**
 * The source a package-relative output file was built from: the first that exists of the
 * sources it may come from, else the output itself.
 */
export function fromCompiled(
  layout: CompiledTests,
  path: string,
  exists: (path: string) => boolean,
): string {
  const { rootDir, outDir } = layout;
  if (!path.startsWith(`${outDir}/`)) return path;
  const ext = /\.[cm]?js$/.exec(path)?.[0] ?? "";
  const stem = joinRel(rootDir, path.slice(outDir.length + 1, path.length - ext.length));
  for (const source of SOURCES[ext] ?? []) {
    const candidate = `${stem}${source}`;
    if (toCompiled(layout, candidate) === path && exists(candidate)) return candidate;
  }
  return path;
}

/**
 * The runner's suite read through the build: a source is also a test when the runner collects
 * what tsc makes of it and it looks like a test (by its name or a test folder: `mocha lib`
 * collects every module of the package, `lib/main.js` among them); the output itself is no test
 * of the project's.
 */
export function compiledSuite(inner: SuiteMatcher, layout: CompiledTests): SuiteMatcher {
  const inOut = (path: string): boolean =>
    layout.named && (path === layout.outDir || path.startsWith(`${layout.outDir}/`));
  const built = (path: string, test: (path: string) => boolean): boolean => {
    const compiled = toCompiled(layout, path);
    return compiled !== undefined && test(compiled);
  };
  const from = layout.rootDir === "" ? "the package" : `${layout.rootDir}/`;
  return {
    ...inner,
    evidence: layout.named
      ? `${inner.evidence}, run from tsc's output (${layout.outDir}/ built from ${from})`
      : inner.evidence,
    isTest: (path) =>
      !inOut(path) &&
      (inner.isTest(path) ||
        (looksLikeTest(path) && built(path, (compiled) => inner.isTest(compiled)))),
    isSetup: (path) =>
      !inOut(path) &&
      (inner.isSetup?.(path) === true ||
        built(path, (compiled) => inner.isSetup?.(compiled) === true)),
  };
}

/**
 * The package-relative test files a run names, each as the runner collects it: a source the
 * runner collects only as tsc's output becomes that output. `layout` is there when any did (the
 * run then builds first). A run of the whole suite runs the runner's own spec, from the output
 * when the test script names it.
 */
export function compiledRunFiles(
  view: ProjectView,
  runner: DetectedRunner,
  files: readonly string[],
): { files: string[]; layout?: CompiledTests } {
  const layout = compiledTests(view, runner);
  if (layout === undefined) return { files: [...files] };
  const suite = specOf(runner.id).suite(view, runner);
  if (files.length === 0)
    return layout.named
      ? { files: builtSuite(view, runner.package_dir, layout, suite), layout }
      : { files: [] };
  let built = false;
  const named = files.map((file) => {
    const compiled = toCompiled(layout, file);
    if (compiled === undefined || suite.isTest(file) || !suite.isTest(compiled)) return file;
    built = true;
    return compiled;
  });
  return built ? { files: named, layout } : { files: named };
}

/**
 * The whole suite as the output of the test sources there are now, sorted: what the test script's
 * folder or glob collects after the build, less the output a deleted source left behind (it would
 * still run, red or green, though no test of the project's is there), and found before the build
 * (a glob expanded on a fresh clone names nothing). Empty, so the runner's own spec runs, when no
 * source is found or the bounded walk is cut.
 */
function builtSuite(
  view: ProjectView,
  dir: string,
  layout: CompiledTests,
  inner: SuiteMatcher,
): string[] {
  const { outDir, rootDir } = layout;
  const outputs = walkFiles(view, dir, rootDir, {
    depth: SUITE_DEPTH,
    files: SUITE_FILES,
    skip: new Set(["node_modules"]),
    keep: (path) => {
      if (path === outDir || path.startsWith(`${outDir}/`) || !looksLikeTest(path)) return false;
      const compiled = toCompiled(layout, path);
      return compiled !== undefined && !inner.isTest(path) && inner.isTest(compiled);
    },
  });
  if (outputs.length === SUITE_FILES) return [];
  return outputs.map((path) => toCompiled(layout, path) ?? path).sort();
}

const SUITE_FILES = 5000;
const SUITE_DEPTH = 12;

const TEST_FOLDER = /(^|\/)(test|tests|__tests__|spec|specs)\//;

function looksLikeTest(path: string): boolean {
  return isTestFile(path) || TEST_FOLDER.test(path);
}

/**
 * The build a run of compiled tests makes first: the test script's own build when it has one,
 * else tsc with the config that names the output.
 */
export function compiledBuild(
  view: ProjectView,
  runner: DetectedRunner,
  layout: CompiledTests,
): string {
  return testBuildCommand(view, runner.package_dir) ?? `tsc -p ${layout.config}`;
}

/** A package's compiled layout with its folders project-relative, as a run plan keeps it. */
export interface RunLayout {
  out_dir: string;
  root_dir: string;
  allow_js: boolean;
}

export function runLayout(dir: string, layout: CompiledTests): RunLayout {
  return {
    out_dir: joinRel(dir, layout.outDir),
    root_dir: joinRel(dir, layout.rootDir),
    allow_js: layout.allowJs,
  };
}

function asLayout(run: RunLayout): CompiledTests {
  return {
    outDir: run.out_dir,
    rootDir: run.root_dir,
    allowJs: run.allow_js,
    config: "",
    named: true,
  };
}

/** Project-relative test files as the run names them: the sources' output (a run's own without a layout). */
export function runFilesOf(run: RunLayout | undefined, files: readonly string[]): string[] {
  if (run === undefined) return [...files];
  const layout = asLayout(run);
  return files.map((file) => toCompiled(layout, file) ?? file);
}

/**
 * A parsed run's file names read back as the sources (`lib/test/main_test.js` →
 * `src/test/main_test.ts`): what the project edits, selects and names is the source. Unchanged
 * without a layout.
 */
export function sourcesOfRun<
  T extends { tests: { id: { file: string } }[]; errors: { file?: string }[] },
>(run: RunLayout | undefined, parsed: T, exists: (path: string) => boolean): T {
  if (run === undefined) return parsed;
  const layout = asLayout(run);
  const back = (file: string): string => fromCompiled(layout, file, exists);
  return {
    ...parsed,
    tests: parsed.tests.map((test) => ({ ...test, id: { ...test.id, file: back(test.id.file) } })),
    errors: parsed.errors.map((error) =>
      error.file === undefined ? error : { ...error, file: back(error.file) },
    ),
  };
}
