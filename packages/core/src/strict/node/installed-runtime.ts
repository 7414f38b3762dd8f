import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, join, sep } from "node:path";
import { importedPackages } from "../test-support.ts";

/**
 * What a Python test run executes before the test is even collected, outside the project's
 * sources (ADR 0012, "What strict's verdict depends on"): the interpreter's start-up hooks —
 * `*.pth` files, `sitecustomize.py`, `usercustomize.py` — and the packages installed beside them
 * (a new pytest plugin is a new entry there), in the project's virtual environments, the user's
 * site folder and the system's. One of them can make a wrong implementation pass (patch the code
 * under test on import, or turn a failure into a pass), so strict folds this description into a
 * Python test's support hash: changed since the red, the claim does not verify.
 *
 * Only folder listings and a few small files are read (no interpreter is started): a gate pays a
 * few milliseconds for it. Files are described by content (start-up hooks) or by inode, size,
 * mtime and ctime (pytest's own modules; `touch -d` puts back an mtime, never a ctime).
 */

/** Folders of a project that usually hold a virtual environment. */
const VENV_NAMES = [".venv", "venv", "env", ".env", "virtualenv"];

const STARTUP = /^(?:.+\.pth|sitecustomize\.py|usercustomize\.py)$/;

/** The pytest packages whose modules decide what a run reports. */
const RUNNER_PACKAGES = ["_pytest", "pytest", "pluggy"];

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `lib/python3.x/site-packages` (and Windows' `Lib/site-packages`) under a prefix. */
function sitePackagesUnder(prefix: string): string[] {
  const found: string[] = [];
  for (const lib of ["lib", "lib64", "Lib"]) {
    const base = join(prefix, lib);
    if (lib === "Lib") found.push(join(base, "site-packages"));
    for (const name of list(base))
      if (/^python\d/.test(name))
        found.push(join(base, name, "site-packages"), join(base, name, "dist-packages"));
  }
  return found.filter(isDir);
}

/** Every folder whose start-up hooks a Python test run of this project may load. */
export function pythonSiteFolders(root: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const prefixes = VENV_NAMES.map((name) => join(root, name));
  if (env.VIRTUAL_ENV !== undefined && env.VIRTUAL_ENV !== "") prefixes.push(env.VIRTUAL_ENV);
  const home = env.HOME;
  if (env.PYTHONUSERBASE !== undefined && env.PYTHONUSERBASE !== "")
    prefixes.push(env.PYTHONUSERBASE);
  if (home !== undefined && home !== "") {
    prefixes.push(join(home, ".local"));
    for (const version of list(join(home, "Library", "Python")))
      prefixes.push(join(home, "Library", "Python", version));
  }
  prefixes.push("/usr", "/usr/local");
  const folders = prefixes.flatMap(sitePackagesUnder);
  // Debian's interpreters also read /etc/python3.x/sitecustomize.py, and `lib/python3` holds
  // the distribution's own packages.
  for (const name of list("/etc")) if (/^python\d/.test(name)) folders.push(join("/etc", name));
  folders.push("/usr/lib/python3/dist-packages");
  return [...new Set(folders)].filter(isDir);
}

function statKey(path: string): string {
  try {
    const stats = statSync(path, { bigint: true });
    return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  } catch {
    return "-";
  }
}

function content(path: string): string {
  try {
    const bytes = readFileSync(path);
    const { createHash } = process.getBuiltinModule("node:crypto");
    return createHash("sha256").update(bytes).digest("hex");
  } catch {
    return "-";
  }
}

/** A runner package's modules by stat, sub-packages too (not `__pycache__`: runs rewrite it). */
function modulesOf(dir: string, depth = 0): string[] {
  const lines: string[] = [];
  for (const name of list(dir)) {
    if (name === "__pycache__") continue;
    const path = join(dir, name);
    if (isDir(path)) {
      if (depth < 3) lines.push(...modulesOf(path, depth + 1));
    } else lines.push(`${path}\0${statKey(path)}`);
  }
  return lines;
}

/**
 * A pytest plugin by its installed name (the thirty-sixth round): `pytest_cov`, `pytest_mock`,
 * hypothesis's `_hypothesis_pytestplugin.py`. pytest loads every installed plugin into every run,
 * and one rewritten (a `pytest_runtest_makereport` hook turning a failure into a pass) decides
 * what the run reports as pytest's own modules do.
 */
function pluginByName(name: string): boolean {
  return /pytest/i.test(name) && !/-info$/.test(name) && !STARTUP.test(name);
}

/** An installed pytest plugin's metadata (`pytest_xdist-3.5.0.dist-info`). */
const PYTEST_DIST = /^pytest[\w.-]*\.(?:dist|egg)-info$/i;

/**
 * The modules a plugin's `[pytest11]` entry points name (`xdist.plugin`: the `xdist` package),
 * by stat: a plugin whose package is not named after pytest.
 */
function entryPointModules(folder: string, dist: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(dist, "entry_points.txt"), "utf8");
  } catch {
    return [];
  }
  const section = /^\[pytest11\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text)?.[1] ?? "";
  const lines: string[] = [];
  for (const match of section.matchAll(/^[^=\n]+=\s*([\w.]+)/gm)) {
    const top = (match[1] ?? "").split(".")[0] ?? "";
    if (top === "" || RUNNER_PACKAGES.includes(top) || pluginByName(top)) continue;
    const path = join(folder, top);
    lines.push(...(isDir(path) ? modulesOf(path) : [`${path}.py\0${statKey(`${path}.py`)}`]));
  }
  return lines;
}

/** At most this many lines: a site folder is read by listing, never walked. */
const MAX_LINES = 20_000;

/**
 * One text describing the Python start-up environment of a project's test runs: every site
 * folder's entries by name, its start-up hooks by content, pytest's modules by stat.
 */
export function pythonStartupDescription(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const lines: string[] = [];
  for (const folder of pythonSiteFolders(root, env)) {
    for (const name of list(folder)) {
      if (lines.length >= MAX_LINES) break;
      const path = join(folder, name);
      lines.push(`${path}\0${STARTUP.test(name) ? content(path) : ""}`);
      if (RUNNER_PACKAGES.includes(name)) lines.push(...modulesOf(path));
      else if (pluginByName(name))
        lines.push(...(isDir(path) ? modulesOf(path) : [`${path}\0${statKey(path)}`]));
      else if (PYTEST_DIST.test(name)) lines.push(...entryPointModules(folder, path));
    }
  }
  for (const name of VENV_NAMES)
    for (const file of ["pyvenv.cfg", "bin/python", "bin/python3", "bin/pytest"]) {
      const path = join(root, name, file);
      lines.push(`${path}\0${statKey(path)}`);
    }
  return lines.join("\n");
}

/**
 * The go command's settings files, outside the project (the thirty-sixth round): `go env -w`
 * writes GOFLAGS there, and `GOFLAGS=-overlay=fixed.json` compiles a fixed copy of the code under
 * test in its place (or `-tags`, `-ldflags -X`, `-toolexec` change what is built) with no project
 * file changed. Every place the go command reads the user's file from (GOENV, the user's config
 * folder on Linux and macOS) and the toolchain's own `go.env`, each by content.
 */
export function goEnvDescription(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME;
  const paths = [
    ...(env.GOENV !== undefined && env.GOENV !== "" && env.GOENV !== "off" ? [env.GOENV] : []),
    ...(env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== ""
      ? [join(env.XDG_CONFIG_HOME, "go", "env")]
      : []),
    ...(home !== undefined && home !== ""
      ? [
          join(home, ".config", "go", "env"),
          join(home, "Library", "Application Support", "go", "env"),
        ]
      : []),
    ...(env.GOROOT !== undefined && env.GOROOT !== "" ? [join(env.GOROOT, "go.env")] : []),
    "/usr/local/go/go.env",
    "/usr/lib/go/go.env",
  ];
  return [...new Set(paths)].map((path) => `${path}\0${content(path)}`).join("\n");
}

/**
 * The installed packages that decide what a JavaScript test run reports: the runners, their own
 * parts and the assertion libraries they ship (a write to `jest-circus`'s or `@vitest/runner`'s
 * files, or to `chai`'s `assert`, can turn every failure into a pass).
 */
const JS_RUNNER_PACKAGE =
  /^(?:vitest|@vitest|vite-node|jest|jest-.+|@jest|expect|babel-jest|ts-jest|mocha|chai|ava|@ava|tap|@tapjs|tape|jasmine|jasmine-core|uvu|pretty-format)$/;

/** Their commands in `node_modules/.bin` (a shim replaced by a script runs something else). */
const JS_RUNNER_BIN = /^(?:vitest|jest|mocha|_mocha|ava|tap|tape|jasmine|uvu)$/;

/** The installed packages a test file imports by name, Node's own modules left out. */
function testImports(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8").slice(0, 200_000);
  } catch {
    return [];
  }
  return importedPackages(text).filter((name) => !isBuiltin(name));
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** At most this many files of runner packages are described (a gate pays a stat for each). */
const MAX_JS_FILES = 20_000;

/** Every file under a package folder by stat (not its nested node_modules), up to the cap. */
function packageFiles(dir: string, lines: string[], depth = 0): void {
  for (const name of list(dir)) {
    if (lines.length >= MAX_JS_FILES) return;
    if (name === "node_modules") continue;
    const path = join(dir, name);
    let stats;
    try {
      stats = lstatSync(path, { bigint: true });
    } catch {
      continue;
    }
    if (stats.isDirectory()) {
      if (depth < 12) packageFiles(path, lines, depth + 1);
    } else lines.push(`${path}\0${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`);
  }
}

/** The runner packages in one `node_modules` folder, scoped ones under their scope. */
function runnerPackagesIn(modules: string): string[] {
  const found: string[] = [];
  for (const name of list(modules)) {
    if (!JS_RUNNER_PACKAGE.test(name)) continue;
    if (name.startsWith("@"))
      for (const inner of list(join(modules, name))) found.push(join(modules, name, inner));
    else found.push(join(modules, name));
  }
  return found;
}

/**
 * One text describing the JavaScript test runners a test file's run loads (ADR 0012, "What
 * strict's verdict depends on"): in every `node_modules` from the test's folder up to the file
 * system's root, the runner packages (`JS_RUNNER_PACKAGE`), the installed packages the test file
 * imports by name (`importedPackages`: supertest, sinon…) and, where a link leads them into a
 * package store (pnpm), the runner packages beside them there, every file by inode, size, mtime
 * and ctime (any write changes a ctime, and `touch -d` cannot put one back; a replaced file has
 * a new inode), and the runner commands in `node_modules/.bin` by what they are and lead to. Only
 * listings and stats: no file is read.
 */
export function jsRunnerDescription(root: string, testFile: string): string {
  const lines: string[] = [];
  const seen = new Set<string>();
  const imported = testImports(join(root, testFile));
  const describePackage = (path: string) => {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      lines.push(`${path}\0-`);
      return;
    }
    lines.push(`${path}\0${real}`);
    if (seen.has(real)) return;
    seen.add(real);
    packageFiles(real, lines);
    return real;
  };
  let dir = dirname(join(root, testFile));
  for (;;) {
    const modules = join(dir, "node_modules");
    const bins = join(modules, ".bin");
    for (const name of list(bins))
      if (JS_RUNNER_BIN.test(name)) {
        const path = join(bins, name);
        let target = "-";
        try {
          target = realpathSync(path);
        } catch {
          // a dangling shim is described as such
        }
        lines.push(`${path}\0${target}\0${statKey(path)}`);
      }
    for (const name of imported) {
      const path = join(modules, name);
      // A workspace link into the project's own sources is production code, not support.
      if (isDir(path) && realOr(path).includes(`${sep}node_modules${sep}`)) describePackage(path);
    }
    for (const pkg of runnerPackagesIn(modules)) {
      const real = describePackage(pkg);
      if (real === undefined) continue;
      // pnpm: a package's dependencies are its siblings in the store's node_modules.
      const store = dirname(real.includes("/node_modules/@") ? dirname(real) : real);
      if (store !== modules && store.endsWith("node_modules"))
        for (const sibling of runnerPackagesIn(store)) describePackage(sibling);
    }
    if (lines.length >= MAX_JS_FILES) break;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return lines.join("\n");
}
