import * as z from "zod/mini";
import { baseName, extensionOf, stemOf } from "../filter/languages.ts";
import { dirnameRel, joinRel, normalizeRel, type ProjectView } from "../project/project-view.ts";
import type { CandidateContext, Detection, RunnerSpec } from "./spec.ts";
import { lazy } from "../util/lazy.ts";

/** Project reading and test-path helpers the runner records share. Pure. */

export function read(view: ProjectView, dir: string, name: string): string | undefined {
  return view.readText(joinRel(dir, name));
}

export function has(view: ProjectView, dir: string, name: string): boolean {
  return view.exists(joinRel(dir, name));
}

/**
 * A crate `cargo fuzz init` made (`[package.metadata] cargo-fuzz = true`, in `fuzz/` beside the
 * crate it fuzzes, its own `[workspace]`): fuzz targets built with `test = false` and a registry
 * crate (libfuzzer-sys), no tests. `cargo test` there tests nothing and fails where the registry
 * is out of reach, so it is no runner's package.
 */
export function isCargoFuzzCrate(view: ProjectView, dir: string): boolean {
  return /^\s*cargo-fuzz\s*=\s*true\b/m.test(read(view, dir, "Cargo.toml") ?? "");
}

export function firstExisting(
  view: ProjectView,
  dir: string,
  names: readonly string[],
): string | undefined {
  return names.find((name) => has(view, dir, name));
}

export function requirementFiles(view: ProjectView, dir: string): string[] {
  return view.list(dir).filter((name) => /^requirements[\w.-]*\.(txt|in)$/.test(name));
}

function readPackageJson(view: ProjectView, dir: string): PackageJson | undefined {
  const text = read(view, dir, "package.json");
  if (text === undefined) return undefined;
  // Every JavaScript runner's detection reads the same manifest: parsed and checked once per
  // text, as a real package's scripts and dependencies cost zod ~0.6 M instructions a check and a
  // queued edit made ~15 of them (10 M of a 188 M call on uuid).
  const known = PACKAGE_JSONS.get(text);
  if (known !== undefined) return known;
  let pkg: PackageJson = {};
  try {
    const result = PackageJsonSchema.safeParse(JSON.parse(text));
    if (result.success) pkg = result.data;
  } catch {
    // Not JSON: a package with no scripts or dependencies.
  }
  if (PACKAGE_JSONS.size >= 64) PACKAGE_JSONS.clear();
  PACKAGE_JSONS.set(text, pkg);
  return pkg;
}

/** Checked manifests by text (a process reads a handful of packages' manifests). */
const PACKAGE_JSONS = new Map<string, PackageJson>();

/** Built when a package.json is first read (a Python project's edits read none). */
const PackageJsonSchema = lazy(() => {
  const table = z.optional(z.record(z.string(), z.unknown()));
  return z.looseObject({
    scripts: table,
    dependencies: table,
    devDependencies: table,
    peerDependencies: table,
  });
});
type PackageJson = z.infer<typeof PackageJsonSchema>;

function nodeDeps(pkg: PackageJson): Set<string> {
  return new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
}

/**
 * `scripts.test` with the scripts it runs by name spelled in after each call (`npm run test-api`,
 * `pnpm test:unit`, `yarn run test-coverage`, `c8 pnpm unit`), three levels deep: a project whose
 * `test` builds, lints, then `npm run test-api` runs its tests in `test-api`. pnpm's regex form
 * (`pnpm run /^test:/`, postcss) runs every script whose name matches, each spelled in. A name
 * is spelled in only when the package has that script; `npm <name>` runs one only by `run`.
 */
function testScript(pkg: PackageJson): string {
  const scripts = pkg.scripts ?? {};
  const body = (name: string, depth: number): string | undefined => {
    const text = scripts[name];
    return typeof text === "string" ? expand(text, depth - 1) : undefined;
  };
  const spell = (call: string, names: readonly string[], depth: number): string => {
    const found = names.map((called) => body(called, depth)).filter((text) => text !== undefined);
    return found.length === 0 ? call : `${call} ( ${found.join(" ; ")} )`;
  };
  const expand = (text: string, depth: number): string =>
    depth === 0
      ? text
      : text
          .replace(SCRIPT_CALL, (call: string, _quote: string, name: string) =>
            spell(call, calledScripts(scripts, name), depth),
          )
          .replace(RUN_ALL_CALL, (call: string, args: string) =>
            spell(call, runAllScripts(scripts, args), depth),
          );
  const script = scripts["test"];
  return typeof script === "string" ? expand(script, 3) : "";
}

/** `npm run X`, `pnpm [run] X`, `yarn [run] X`, X a script's name or pnpm's `/regex/`. */
const SCRIPT_CALL =
  /\b(?:npm\s+run(?:-script)?|pnpm(?:\s+run)?|yarn(?:\s+run)?)\s+(["']?)(\/[^\s"']+\/|[\w:.-]+)\1/gi;

/** npm-run-all's commands and the words after them (`run-p --aggregate-output test:*`). */
const RUN_ALL_CALL = /\b(?:run-p|run-s|npm-run-all)((?:\s+[^\s;&|()]+)+)/g;

/**
 * The scripts an npm-run-all call runs, in its order: each word not a flag is a name or a glob
 * whose `*` stays inside a `:`-separated part and `**` crosses them (helmet's `test:*`).
 */
function runAllScripts(scripts: Record<string, unknown>, args: string): string[] {
  const names = Object.keys(scripts).filter((name) => name !== "test");
  return args
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/^(["'])(.*)\1$/, "$2"))
    .filter((word) => !word.startsWith("-"))
    .flatMap((pattern) => {
      const source = pattern
        .split("**")
        .map((part) =>
          part
            .split("*")
            .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
            .join("[^:]*"),
        )
        .join(".*");
      const regex = new RegExp(`^${source}$`);
      return names.filter((name) => regex.test(name));
    });
}

/** Words after `pnpm` or `yarn` that are the tool's own command, never a script. */
const PACKAGE_MANAGER_COMMANDS = new Set([
  "add",
  "dlx",
  "exec",
  "i",
  "install",
  "link",
  "pack",
  "publish",
  "remove",
  "run",
  "test",
  "update",
]);

/**
 * The scripts a call names: the one of that name, or every one pnpm's `run /regex/` matches
 * (none when the regex does not compile); never a package manager's own command.
 */
function calledScripts(scripts: Record<string, unknown>, name: string): string[] {
  const source = /^\/(.+)\/$/.exec(name)?.[1];
  if (source === undefined) return PACKAGE_MANAGER_COMMANDS.has(name) ? [] : [name];
  try {
    const regex = new RegExp(source);
    return Object.keys(scripts).filter((script) => script !== "test" && regex.test(script));
  } catch {
    return [];
  }
}

/** Every script of a package's package.json, by name (none without one). */
export function packageScripts(view: ProjectView, dir: string): Record<string, string> {
  const scripts = readPackageJson(view, dir)?.scripts ?? {};
  return Object.fromEntries(
    Object.entries(scripts).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

/** A package's expanded test script (`testScript`), "" without a package.json or a script. */
export function packageTestScript(view: ProjectView, dir: string): string {
  const pkg = readPackageJson(view, dir);
  return pkg === undefined ? "" : testScript(pkg);
}

/**
 * The arguments `tool` gets in the package's test script, as words with their quotes dropped:
 * the words after the first word that is the tool (`tool` or a path ending in `/tool`), up to
 * a shell operator (`uvu … | tap-spec`, `tape … && eslint`). Undefined when the script never
 * runs it.
 */
export function scriptToolArgs(view: ProjectView, dir: string, tool: string): string[] | undefined {
  for (const words of scriptCommands(packageTestScript(view, dir))) {
    const start = words.findIndex((word) => word === tool || word.endsWith(`/${tool}`));
    if (start !== -1) return words.slice(start + 1).map(unquote);
  }
  return undefined;
}

/**
 * A script's commands, each as its words with their quotes kept: a word runs until a space or a
 * shell operator (`&&`, `||`, `;`, `|`, a parenthesis) outside quotes, and an operator ends a
 * command (`cross-env FORCE_COLOR=2 vitest && eslint .` is two).
 */
export function scriptCommands(script: string): string[][] {
  const tokens = script.match(/(?:[^\s"'&|;()]|"[^"]*"|'[^']*')+|&&|\|\||[;|()]/g) ?? [];
  const commands: string[][] = [];
  let command: string[] = [];
  for (const token of [...tokens, ";"]) {
    if (!/^(?:&&|\|\||[;|()])$/.test(token)) {
      command.push(token);
      continue;
    }
    if (command.length > 0) commands.push(command);
    command = [];
  }
  return commands;
}

/** A word with the quotes around it dropped. */
export function unquote(word: string): string {
  return word.replace(/^(["'])(.*)\1$/, "$2");
}

/** Scripts whose name says they build what the tests load (`build`, `compile`, `build:ts`). */
const BUILD_SCRIPT = /^(?:build|compile|bundle|tsc)(?:[:-][\w:.-]*)?$/;
/** Build tools a script may call itself before its runner (`tsc && ava`). */
const BUILD_TOOL =
  /^(?:tsc|tsup|rollup|esbuild|babel|swc|unbuild|microbundle|webpack|pkgroll|tsc-multi|vite\s+build)(?:\s|$)/;
/** `npm run X`, `pnpm [run] X`, `yarn [run] X` as a whole command. */
const WHOLE_SCRIPT_CALL =
  /^(?:npm\s+run(?:-script)?|pnpm(?:\s+run)?|yarn(?:\s+run)?)\s+(["']?)([\w:.-]+)\1$/;

/**
 * The build a package's tests run after, as one shell line: the commands of its `pretest` and
 * `test` scripts that build (`"test": "npm run build && node --test"`, `tsc && ava`, a `pretest`
 * that compiles). A script called by name runs through `npm run`, which every Node install has
 * and which puts the package's tools on the PATH. Undefined when neither script builds.
 */
export function testBuildCommand(view: ProjectView, dir: string): string | undefined {
  const scripts = readPackageJson(view, dir)?.scripts ?? {};
  const steps: string[] = [];
  for (const name of ["pretest", "test"]) {
    const text = scripts[name];
    if (typeof text !== "string") continue;
    for (const words of scriptCommands(text)) {
      const first = words.findIndex((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word));
      const command = first === -1 ? "" : words.slice(first).join(" ");
      const called = WHOLE_SCRIPT_CALL.exec(command)?.[2];
      if (called !== undefined && BUILD_SCRIPT.test(called) && typeof scripts[called] === "string")
        steps.push(`npm run ${called}`);
      else if (BUILD_TOOL.test(command)) steps.push(command);
    }
  }
  return steps.length === 0 ? undefined : [...new Set(steps)].join(" && ");
}

/**
 * Build folders at a package's root: what a test importing from one loads was built. `lib/` is
 * one only when the package's scripts build (the caller asks them first) and `src/` exists.
 */
const BUILD_FOLDER = /^(dist|build|out|lib)(?:\/|$)/;

/**
 * Whether a test file (project-relative) of the package `dir` loads build output: a relative
 * import into the package's `dist/`, `build/`, `out/` (or `lib/` beside a `src/`), or the
 * package's own name when its `main`, `module` or `exports` point into one. Such a test runs
 * what the last build left.
 */
export function loadsBuildOutput(view: ProjectView, dir: string, testFile: string): boolean {
  const text = view.readText(testFile);
  if (text === undefined) return false;
  const from = testFile.slice(0, testFile.lastIndexOf("/") + 1);
  const prefix = dir === "" ? "" : `${dir}/`;
  const built = (path: string): boolean => {
    const folder = BUILD_FOLDER.exec(path)?.[1];
    return folder !== undefined && (folder !== "lib" || view.isDirectory(`${prefix}src`));
  };
  let ownName: string | undefined;
  let ownBuilt: boolean | undefined;
  for (const match of text.matchAll(IMPORTED)) {
    const specifier = match[2] ?? "";
    if (specifier.startsWith(".")) {
      const target = normalizeRel(`${from}${specifier}`);
      if (target !== undefined && target.startsWith(prefix) && built(target.slice(prefix.length)))
        return true;
      continue;
    }
    if (ownBuilt === undefined) {
      const pkg = readPackageJson(view, dir);
      ownName = typeof pkg?.["name"] === "string" ? pkg["name"] : undefined;
      const entries = JSON.stringify([pkg?.["main"], pkg?.["module"], pkg?.["exports"]]);
      ownBuilt = [...entries.matchAll(/"(?:\.\/)?((?:dist|build|out|lib)\/)/g)].some((entry) =>
        built(entry[1] as string),
      );
    }
    if (
      ownBuilt &&
      ownName !== undefined &&
      (specifier === ownName || specifier.startsWith(`${ownName}/`))
    )
      return true;
  }
  return false;
}

/** A module specifier in `import … from`, `import(…)`, `require(…)` or a bare `import '…'`. */
const IMPORTED =
  /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|^\s*import\s*)(["'])([^"'\n]+)\1/gm;

/** Programs that only set variables for the command after them in a script. */
const ENV_WRAPPERS = new Set(["cross-env", "cross-env-shell", "env"]);

/**
 * The variables a package's test script sets for its runner's command, the one `runs` matches:
 * `cross-env FORCE_COLOR=2 vitest`, `NODE_OPTIONS=--expose-gc jest`. A suite may need them to be
 * green (vitest-axe's snapshots hold the colours `FORCE_COLOR=2` turns on), so a run of chosen
 * files gets them too. {} without a script, or when the runner's command sets none.
 */
export function scriptEnv(view: ProjectView, dir: string, runs: RegExp): Record<string, string> {
  for (const words of scriptCommands(packageTestScript(view, dir))) {
    if (!runs.test(words.join(" "))) continue;
    const found: Record<string, string> = {};
    for (const word of words) {
      if (ENV_WRAPPERS.has(word)) continue;
      const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(word);
      if (assignment === null) break;
      found[assignment[1] as string] = unquote(assignment[2] as string);
    }
    return found;
  }
  return {};
}

/**
 * The Python that has the project's dependencies: the project's virtualenv (`.venv/`, `venv/`,
 * in the package or at the root), the active `$VIRTUAL_ENV`, then a project tool's environment
 * (uv, poetry, pipenv, hatch, pdm) only when that tool is on PATH (a lock file alone is not
 * enough: `uv run` without uv fails every time), else `python3`.
 */
export function pythonCommand(view: ProjectView, dir: string, module: string): string[] {
  for (const venv of [".venv", "venv", ".env", "env"]) {
    for (const base of dir === "" ? [""] : [dir, ""]) {
      if (!view.exists(joinRel(base, venv, "pyvenv.cfg"))) continue;
      const python = joinRel(base, venv, "bin/python");
      if (!view.exists(python)) continue;
      // The run starts in the package folder: a root venv is reached from there.
      const rel = base === dir ? joinRel(venv, "bin/python") : joinRel(upTo(dir), python);
      return [rel, "-m", module];
    }
  }
  const active = view.host?.env("VIRTUAL_ENV");
  if (active !== undefined && active !== "") return [`${active}/bin/python`, "-m", module];
  const tools: readonly [string, string, readonly string[]][] = [
    ["uv.lock", "uv", ["uv", "run", "python"]],
    ["poetry.lock", "poetry", ["poetry", "run", "python"]],
    ["Pipfile.lock", "pipenv", ["pipenv", "run", "python"]],
    ["pdm.lock", "pdm", ["pdm", "run", "python"]],
  ];
  for (const [lock, tool, prefix] of tools) {
    if (has(view, dir, lock) && view.host?.onPath(tool) === true) return [...prefix, "-m", module];
  }
  const pyproject = read(view, dir, "pyproject.toml") ?? "";
  // The regex only on a pyproject naming the table: V8 compiles it on its first run.
  if (
    pyproject.includes("[tool.hatch") &&
    /^\[tool\.hatch/m.test(pyproject) &&
    view.host?.onPath("hatch") === true
  )
    return ["hatch", "run", "python", "-m", module];
  return ["python3", "-m", module];
}

/**
 * The `src/` folder to put first on a Python run's path (relative to the package folder) when
 * the project's virtualenv holds an installed copy (not an editable install) of a package that
 * folder holds: the tests would import that copy, not the sources this turn changed (`pip install
 * .` copies a src-layout package into `site-packages`; nothing puts `src/` on the path). Undefined
 * when no such copy is there, or the run's Python is no virtualenv of the project.
 */
export function shadowedSources(
  view: ProjectView,
  dir: string,
  python: string,
): string | undefined {
  const venv = /^(.*)\/bin\/python[\d.]*$/.exec(python)?.[1];
  const venvRel =
    venv === undefined || venv.startsWith("/") ? undefined : normalizeRel(joinRel(dir, venv));
  if (venvRel === undefined || !view.isDirectory(joinRel(dir, "src"))) return undefined;
  const sites = view
    .list(joinRel(venvRel, "lib"))
    .filter((name) => name.startsWith("python"))
    .map((name) => joinRel(venvRel, "lib", name, "site-packages"));
  if (sites.length === 0) return undefined;
  const shadowed = view
    .list(joinRel(dir, "src"))
    .filter((name) => view.exists(joinRel(dir, "src", name, "__init__.py")))
    .some((name) => sites.some((site) => view.exists(joinRel(site, name, "__init__.py"))));
  return shadowed ? "src" : undefined;
}

/**
 * How a package runs an installed JS tool: its own (or a workspace root's) `node_modules/.bin`
 * entry, else through the package manager its lock file names when that manager is on PATH
 * (`pnpm exec`, `yarn` — Plug'n'Play included —, `bun x`), else `npx --no-install`, which never
 * fetches a package from the registry.
 */
export function jsToolCommand(view: ProjectView, dir: string, tool: string): string[] {
  const bases: string[] = [];
  for (let base = dir; ; base = dirnameRel(base)) {
    bases.push(base);
    if (base === "") break;
  }
  for (const base of bases) {
    const bin = joinRel(base, "node_modules/.bin", tool);
    if (view.exists(bin))
      return [base === dir ? joinRel("node_modules/.bin", tool) : joinRel(upTo(dir), bin)];
  }
  const managers: readonly [RegExp, string, readonly string[]][] = [
    [/^pnpm-lock\.yaml$/, "pnpm", ["pnpm", "exec", tool]],
    [/^yarn\.lock$/, "yarn", ["yarn", tool]],
    [/^bun\.lockb?$/, "bun", ["bun", "x", tool]],
  ];
  for (const base of bases) {
    const names = view.list(base);
    for (const [lock, manager, argv] of managers) {
      if (names.some((name) => lock.test(name)) && view.host?.onPath(manager) === true)
        return [...argv];
    }
  }
  return ["npx", "--no-install", tool];
}

/** `../..` from a package folder back to the root. */
function upTo(dir: string): string {
  return dir === ""
    ? ""
    : dir
        .split("/")
        .map(() => "..")
        .join("/");
}

/** Path of a source file below the usual source roots, for mirrored test trees. */
export function mirrored(src: string, roots: readonly string[]): string {
  for (const root of roots) {
    if (src.startsWith(`${root}/`)) return src.slice(root.length + 1);
  }
  return src;
}

function jsTestExtension(src: string, typescript: boolean): string {
  const ext = extensionOf(src);
  if (ext === ".vue" || ext === ".svelte") return typescript ? ".ts" : ".js";
  if (ext === ".jsx" && typescript) return ".tsx";
  if (ext === ".js" && typescript) return ".ts";
  return ext;
}

export function jsCandidates(
  src: string,
  testDir: string | undefined,
  ctx: CandidateContext,
  kinds: readonly string[],
): string[] {
  const dir = dirnameRel(src);
  const stem = stemOf(src);
  const ext = jsTestExtension(src, ctx.typescript);
  const beside = kinds.map((kind) => joinRel(dir, `${stem}.${kind}${ext}`));
  // graphql-js's `__tests__/lexer-test.ts` too, found when it exists.
  const nested = [`${stem}.test${ext}`, `${stem}-test${ext}`].map((name) =>
    joinRel(dir, "__tests__", name),
  );
  // A tests folder beside the sources (`src/tests/array.test.ts` for `src/array.ts`): found when
  // it exists, never proposed as the first test to write.
  const sibling = ["tests", "test"].map((folder) => joinRel(dir, folder, `${stem}.test${ext}`));
  if (testDir === undefined) return [...beside, ...nested, ...sibling];
  const folder = entryFolder(src);
  const inDir =
    folder === undefined
      ? [
          joinRel(testDir, dirnameRel(mirrored(src, ["src", "lib"])), `${stem}.test${ext}`),
          joinRel(testDir, `${stem}.test${ext}`),
        ]
      : [
          joinRel(testDir, folder.path, `${stem}.test${ext}`),
          joinRel(testDir, dirnameRel(folder.path), `${folder.name}.test${ext}`),
          joinRel(testDir, `${folder.name}.test${ext}`),
        ];
  return [...inDir, ...beside, ...nested, ...sibling];
}

/**
 * A Python package's own tests folder (a package inside it: `pyflakes/test/`,
 * `src/isodate/tests/`), for a project with no tests/ beside its manifest; the first by name.
 */
export function pythonTestDirInside(view: ProjectView, dir: string): string | undefined {
  for (const base of ["", "src"]) {
    const at = joinRel(dir, base);
    if (base !== "" && !view.isDirectory(at)) continue;
    for (const name of view.list(at)) {
      if (name.startsWith(".") || !view.exists(joinRel(at, name, "__init__.py"))) continue;
      const tests = PYTHON_TEST_PACKAGES.find((folder) =>
        view.exists(joinRel(at, name, folder, "__init__.py")),
      );
      if (tests !== undefined) return joinRel(base, name, tests);
    }
  }
  return undefined;
}

const PYTHON_TEST_PACKAGES = ["tests", "test"];

/**
 * A runner that runs every file of its test folder (tap, mocha's `./test`) needs no `.test`
 * suffix: `test/functions/cmp.js` (mirrored) or `test/cmp.js` for `functions/cmp.js`. Found when
 * they exist, never proposed as the first test to write.
 */
export function suffixlessCandidates(src: string, testDir: string | undefined): string[] {
  if (testDir === undefined) return [];
  const name = baseName(src);
  const folder = entryFolder(src);
  if (folder !== undefined) {
    const named = `${folder.name}${extensionOf(src)}`;
    return [
      joinRel(testDir, folder.path, name),
      joinRel(testDir, dirnameRel(folder.path), named),
      joinRel(testDir, named),
    ];
  }
  return [
    joinRel(testDir, dirnameRel(mirrored(src, ["src", "lib"])), name),
    joinRel(testDir, name),
  ];
}

/**
 * The folder a nested entry module stands for (`packages/url/index.js`, `non-secure/index.js`):
 * its test in a test folder is named after the folder (`tests/url.js`,
 * `test/non-secure.test.js`), as Python's `pkg/__init__.py` is tested by `test_pkg.py`; a
 * `test/index.test.js` there is the package root's. Undefined for any other module and for the
 * root's own `index.js` (`src/index.ts` too).
 */
export function entryFolder(src: string): { path: string; name: string } | undefined {
  if (stemOf(src) !== "index") return undefined;
  const path = dirnameRel(mirrored(src, ["src", "lib"]));
  if (path === "") return undefined;
  return { path, name: path.slice(path.lastIndexOf("/") + 1) };
}

export function classNames(files: readonly string[]): string[] {
  return [...new Set(files.map((file) => stemOf(file)))];
}

export function pythonCandidates(src: string, testDir: string): string[] {
  const raw = stemOf(src);
  const dir = dirnameRel(src);
  // Tests name a module without its leading underscores (`_cached.py` → `test_cached.py`) and a
  // package by its folder (`pkg/__init__.py` → `test_pkg.py`).
  const stem = raw === "__init__" ? (dir.split("/").pop() ?? raw) : raw.replace(/^_+/, "") || raw;
  const sub = dirnameRel(mirrored(src, ["src"]));
  const named = (name: string) => [
    joinRel(testDir, `test_${name}.py`),
    joinRel(testDir, sub, `test_${name}.py`),
    joinRel(testDir, `${name}_test.py`),
    joinRel(dir, `test_${name}.py`),
    joinRel(dir, `${name}_test.py`),
  ];
  return [...new Set([...named(stem), ...(stem === raw ? [] : named(raw))])];
}

export function rustCandidates(src: string): string[] {
  return [src];
}

export function rustFileCommand(command: readonly string[], files: readonly string[]): string[] {
  const integration = files.flatMap((file) => cargoTestTarget(file) ?? []);
  return [...command, ...integration.flatMap((name) => ["--test", name])];
}

/**
 * The integration test target a file under `tests/` is, as cargo finds them: `tests/x.rs` is
 * `x`, `tests/x/main.rs` is `x`; a module beside them (`tests/common/mod.rs`, shared by the
 * tests that declare `mod common;`) is none, and `--test mod` would fail the whole run.
 */
export function cargoTestTarget(file: string): string | undefined {
  const match = /^tests\/(?:([^/]+)\.rs|([^/]+)\/main\.rs)$/.exec(file);
  return match === null ? undefined : (match[1] ?? match[2]);
}

export function phpCandidates(src: string, testDir: string, ctx: CandidateContext): string[] {
  const name = `${stemOf(src)}Test.php`;
  const sub = dirnameRel(mirrored(src, ["src", "app"]));
  const feature = /(^|\/)(Http|Controllers)\//.test(src);
  const suites = feature ? ["Feature", "Unit"] : ["Unit", "Feature"];
  const existing = suites.filter((suite) =>
    ctx.view.isDirectory(joinRel(ctx.packageDir, testDir, suite)),
  );
  const preferred = existing.map((suite) => joinRel(testDir, suite, sub, name));
  return [...preferred, joinRel(testDir, sub, name), joinRel(testDir, name)];
}

export function jvmCandidates(src: string): string[] {
  const match = /^(.*?)src\/main\/(java|kotlin)\/(.*)$/.exec(src);
  const ext = extensionOf(src);
  const name = `${stemOf(src)}Test${ext}`;
  if (match !== null) {
    const [, prefix = "", lang = "java", rest = ""] = match;
    return [joinRel(prefix, "src/test", lang, dirnameRel(rest), name)];
  }
  return [joinRel("src/test", ext === ".kt" ? "kotlin" : "java", name)];
}

export function dotnetCandidates(
  src: string,
  _testDir: string | undefined,
  ctx: CandidateContext,
): string[] {
  const parts = src.split("/");
  const srcIndex = parts[0] === "src" ? 1 : 0;
  const project = parts[srcIndex] ?? "App";
  const rest = parts.slice(srcIndex + 1, -1);
  const name = `${stemOf(src)}Tests.cs`;
  const projects = [`${project}.Tests`, `${project}.Test`, `${project}.UnitTests`];
  const found: string[] = [];
  for (const root of ["tests", "test", ""]) {
    for (const candidate of projects) {
      if (ctx.view.isDirectory(joinRel(ctx.packageDir, root, candidate)))
        found.push(joinRel(root, candidate, ...rest, name));
    }
  }
  return [...found, joinRel("tests", `${project}.Tests`, ...rest, name)];
}

/**
 * Which JS runner a package.json uses: its test script first, then its dependencies, then
 * config files; among runners, the table's order decides.
 */
export function detectByPackageJson(
  view: ProjectView,
  dir: string,
  id: string,
  table: readonly RunnerSpec[],
  /** Asked, with the expanded test script, when no runner's script, dependency or file is found. */
  fallback?: (script: string) => Detection | undefined,
): Detection | undefined {
  const pkg = readPackageJson(view, dir);
  if (pkg === undefined) return undefined;
  const script = testScript(pkg);
  const deps = nodeDeps(pkg);
  const order = table.flatMap((spec) =>
    spec.packageJson === undefined ? [] : [{ id: spec.id, ...spec.packageJson }],
  );
  const byScript = order.find((entry) => entry.script.test(script));
  const byDep = order.find((entry) => entry.dependency !== undefined && deps.has(entry.dependency));
  const names = view.list(dir);
  const byFile = order.find(
    (entry) => entry.configFile !== undefined && names.some((name) => entry.configFile?.test(name)),
  );
  let winner: string | undefined;
  let evidence = "";
  if (byScript !== undefined)
    [winner, evidence] = [byScript.id, `package.json scripts.test runs ${byScript.id}`];
  else if (byDep !== undefined)
    [winner, evidence] = [byDep.id, `package.json depends on ${byDep.dependency ?? byDep.id}`];
  else if (byFile !== undefined) {
    const file = names.find((name) => byFile.configFile?.test(name) === true) ?? "";
    [winner, evidence] = [byFile.id, `${file} present`];
  } else {
    const named = namedTestScript(pkg, order);
    if (named !== undefined)
      [winner, evidence] = [named.id, `package.json scripts.${named.name} runs ${named.id}`];
  }
  if (winner === undefined && fallback !== undefined) return fallback(script);
  return winner === id ? { evidence } : undefined;
}

/**
 * The runner a package's `test:<part>` script runs when nothing else names one: a pnpm or nx
 * workspace member keeps its runner in the root's devDependencies and runs it by a script such
 * as `test:lib` or `test:unit` (TanStack's packages: `"test:lib": "vitest"`, no `test`), from its
 * own folder where its `vite.config.ts` is. Scripts for watching or a browser's end-to-end run
 * are not the package's tests, nor is a benchmark.
 */
function namedTestScript(
  pkg: PackageJson,
  order: readonly { id: string; script: RegExp }[],
): { id: string; name: string } | undefined {
  const scripts = pkg.scripts ?? {};
  for (const [name, text] of Object.entries(scripts)) {
    if (typeof text !== "string" || !/^test[:-]/.test(name) || /watch|dev|e2e|bench/.test(name))
      continue;
    const entry = order.find((candidate) => candidate.script.test(text));
    if (entry !== undefined) return { id: entry.id, name };
  }
  return undefined;
}

/** A file at the package root whose name starts with `-` would reach the runner as an option. */
export function notAnOption(file: string): string {
  return file.startsWith("-") ? `./${file}` : file;
}

/**
 * Whether a package-relative path is the Django settings module a project's tests run with:
 * `manage.py`'s `DJANGO_SETTINGS_MODULE` default, or `module` when the runner's config names one
 * (pytest-django's `DJANGO_SETTINGS_MODULE`, `--settings=`); `site/settings.py` or a settings
 * package's `site/settings/__init__.py`. Django loads it before every test, and through its
 * `ROOT_URLCONF` every URLconf and view a test client reaches, which no test imports.
 */
export function djangoSettingsMatcher(
  view: ProjectView,
  dir: string,
  module?: string,
): ((path: string) => boolean) | undefined {
  const named =
    module ??
    /DJANGO_SETTINGS_MODULE["']\s*,\s*["']([\w.]+)["']/.exec(
      read(view, dir, "manage.py") ?? "",
    )?.[1];
  if (named === undefined || !/^[\w.]+$/.test(named)) return undefined;
  const base = named.replace(/\./g, "/");
  return (path) => path === `${base}.py` || path === `${base}/__init__.py`;
}
