import { readdirSync, rmSync, type Dirent } from "node:fs";
import { join } from "node:path";

/**
 * What tailtest does to a project before one of its own Python runs, so the run executes the
 * project's sources and nothing compiled in their place (ADR 0012).
 *
 * Python runs a `__pycache__/calc.cpython-311.pyc` whose header holds the mtime and size of
 * `calc.py` without reading the source, so a file planted there with the right code over a wrong
 * `calc.py` made tailtest's runs pass over a source that fails on a fresh checkout. Every
 * `__pycache__` folder of the project's own code is removed before the run: Python compiles the
 * modules a test imports again (and writes them back, unless told not to). Installed packages
 * (virtualenvs, `site-packages`) and the interpreter's library keep theirs. A cache of tailtest's
 * own (`PYTHONPYCACHEPREFIX`) read none of the project's either, but its first run in a project
 * compiled the library and pytest as well: several seconds, past a short `test_timeout_seconds`.
 */

/** Entries a search for compiled modules lists at most (a large tree is searched that far). */
const SEARCH_BOUND = 20_000;
/** Folders that hold no module of the project's own (installed packages, caches, VCS, tools). */
const NOT_THE_PROJECTS = new Set(["node_modules", "site-packages", "dist-packages"]);
/** `calc.pyc`: only a name with no other dot is a module's (`calc.cpython-311.pyc` is not). */
const SOURCELESS = /^([^.]+)\.pyc$/;
/** `calc.cpython-311-x86_64-linux-gnu.so`, `calc.abi3.so`, `calc.so`, `calc.cp311-win_amd64.pyd`. */
const EXTENSION = /^([^.]+)(\.[^.]+)?\.(so|pyd)$/;

/**
 * Removes the `__pycache__` folders of the project's own code, and returns the compiled Python
 * modules that Python imports in place of a source a fresh checkout would run (project-relative):
 * a `calc.pyc` outside `__pycache__` with no `calc.py` beside it (Python imports a sourceless
 * `.pyc` as the module), and an extension module (`calc.cpython-311-x86_64-linux-gnu.so`) beside
 * a `calc.py` (Python prefers it to the source). Ignore rules do not hide them: they are what a
 * `.gitignore` usually leaves out. Installed packages, virtualenvs and dot-folders are not
 * searched.
 */
export function prepareForPython(root: string): string[] {
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
        if (entry.name === "__pycache__") removeCache(join(root, rel));
        else if (!entry.name.startsWith(".") && !NOT_THE_PROJECTS.has(entry.name))
          pending.push(rel);
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

function removeCache(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // A concurrent run writing the same folder: what it left there it compiled from the source.
  }
}

/** Why a run over compiled modules (`prepareForPython`) is not trusted, in one line. */
export function compiledShadowsReason(paths: readonly string[]): string {
  const named = paths.slice(0, 3).join(", ") + (paths.length > 3 ? ", …" : "");
  return `Python imports compiled code in place of the source a fresh checkout runs (${named}): the run is not trusted while they are there`;
}
