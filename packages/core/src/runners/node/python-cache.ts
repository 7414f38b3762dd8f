import { existsSync, readdirSync, realpathSync, rmSync } from "node:fs";
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
