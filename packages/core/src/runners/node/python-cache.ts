import { existsSync, readdirSync, realpathSync, rmSync, type Dirent } from "node:fs";
import { join, parse } from "node:path";

/**
 * Where tailtest's own Python runs keep their bytecode (`PYTHONPYCACHEPREFIX`), inside its
 * protected state folder.
 *
 * Python runs a `__pycache__/calc.cpython-311.pyc` whose header holds the mtime and size of
 * `calc.py` without reading the source, so a file planted there with the right code over a wrong
 * `calc.py` made tailtest's runs pass over a source that fails on a fresh checkout (ADR 0012).
 * With a prefix Python neither reads nor writes any `__pycache__` folder: every `.pyc` comes from
 * this one. The mirror of the project's own files in it is emptied before each run (only the
 * modules a test imports are compiled again), so nothing planted there either is ever run; the
 * mirror of the interpreter's library, the packages installed for it and a virtualenv inside the
 * project stays warm (compiling those was most of the ~2.5 s a fresh prefix per run cost).
 */
export const PYTHON_CACHE_DIR = ".tailtest/pycache";

/** The environment of one of tailtest's Python runs in the project at `root` (absolute). */
export function pythonRunEnv(root: string): Record<string, string> {
  const prefix = join(root, PYTHON_CACHE_DIR);
  // Python mirrors a module by the path it imported it from: the cwd's real path, or the path a
  // `sys.path` entry spells; both spellings of the root are emptied.
  for (const base of new Set([root, realPath(root)])) emptyProjectMirror(prefix, base);
  // Written there even when the person's environment says not to write bytecode (an empty value
  // is unset for Python): it is not their tree, and without it every run compiles every module.
  return { PYTHONPYCACHEPREFIX: prefix, PYTHONDONTWRITEBYTECODE: "" };
}

const VENVS = new Set([".venv", "venv", ".env", "env"]);

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function emptyProjectMirror(prefix: string, base: string): void {
  const mirror = join(prefix, base.slice(parse(base).root.length));
  let names: string[];
  try {
    names = readdirSync(mirror);
  } catch {
    return;
  }
  for (const name of names) {
    // A virtualenv in the project (where `pythonCommand` looks) is installed packages, not the
    // project's code.
    if (VENVS.has(name) && existsSync(join(base, name, "pyvenv.cfg"))) continue;
    try {
      rmSync(join(mirror, name), { recursive: true, force: true });
    } catch {
      // A concurrent run writing the same folder: what it left there it compiled from the
      // source itself.
    }
  }
}

/** Entries a search for compiled modules lists at most (a large tree is searched that far). */
const SEARCH_BOUND = 20_000;
/** Folders that hold no module of the project's own (installed packages, caches, VCS, tools). */
const NOT_THE_PROJECTS = new Set(["node_modules", "__pycache__", "site-packages", "dist-packages"]);
/** `calc.cpython-311-x86_64-linux-gnu.so`, `calc.abi3.so`, `calc.so`, `calc.cp311-win_amd64.pyd`. */
/** `calc.pyc`: only a name with no other dot is a module's (`calc.cpython-311.pyc` is not). */
const SOURCELESS = /^([^.]+)\.pyc$/;
const EXTENSION = /^([^.]+)(\.[^.]+)?\.(so|pyd)$/;

/**
 * The project's compiled Python modules that Python imports in place of a source a fresh
 * checkout would run (project-relative): a `calc.pyc` outside `__pycache__` with no `calc.py`
 * beside it (Python imports a sourceless `.pyc` as the module), and an extension module
 * (`calc.cpython-311-x86_64-linux-gnu.so`) beside a `calc.py` (Python prefers it to the source).
 * Ignore rules do not hide them: they are what a `.gitignore` usually leaves out. Installed
 * packages, virtualenvs and dot-folders are not searched.
 */
export function compiledShadows(root: string): string[] {
  const found: string[] = [];
  const pending = [""];
  let listed = 0;
  while (pending.length > 0 && listed < SEARCH_BOUND) {
    const dir = pending.shift() ?? "";
    let entries: Dirent[];
    try {
      entries = readdirSync(dir === "" ? root : join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    listed += entries.length;
    const names = new Set(entries.map((entry) => entry.name));
    if (dir !== "" && names.has("pyvenv.cfg")) continue;
    for (const entry of entries) {
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !NOT_THE_PROJECTS.has(entry.name)) pending.push(rel);
        continue;
      }
      const bytecode = SOURCELESS.exec(entry.name);
      if (bytecode !== null) {
        if (!names.has(`${bytecode[1] ?? ""}.py`)) found.push(rel);
        continue;
      }
      const extension = EXTENSION.exec(entry.name);
      if (extension !== null && names.has(`${extension[1] ?? ""}.py`)) found.push(rel);
    }
  }
  return found.sort();
}

/** Why a run over compiled modules (`compiledShadows`) is not trusted, in one line. */
export function compiledShadowsReason(paths: readonly string[]): string {
  const named = paths.slice(0, 3).join(", ") + (paths.length > 3 ? ", …" : "");
  return `Python imports compiled code in place of the source a fresh checkout runs (${named}): the run is not trusted while they are there`;
}
