import picomatch from "picomatch";
import { joinRel, type ProjectView, walkFiles } from "../project/project-view.ts";
import { pytestSettings } from "./config-text.ts";

/**
 * Python doctests as pytest runs them: a project that collects its modules' doctests
 * (`--doctest-modules`) has a test in every module with a `>>>` example, which a run of its test
 * files alone leaves out (boltons' `camel2under` is tested by its docstring only).
 */

/** Whether a Python source holds a doctest example (a `>>> ` line). */
export function hasPythonDoctests(source: string): boolean {
  return /^[ \t]*>>>(?:[ \t]|$)/m.test(source);
}

/** Whether a package-relative file is under a path a pytest run is given (`boltons`, `src/`). */
export function underPath(file: string, path: string): boolean {
  const clean = path.replace(/^\.\//, "").replace(/\/+$/, "");
  return clean === "" || clean === "." || file === clean || `/${file}`.includes(`/${clean}/`);
}

const FLAG = /(^|\s)--doctest-modules(\s|$)/;

/**
 * Whether the project in `dir` runs the doctests of `file` (package-relative) with pytest:
 * `--doctest-modules` in pytest's `addopts` with the file among what pytest collects (under its
 * `testpaths`: validators passes the flag but collects only tests/), or a pytest command of
 * tox.ini passing it with a path the file is under (boltons: `pytest --doctest-modules
 * {envsitepackagesdir}/boltons tests`).
 */
export function pytestRunsDoctests(view: ProjectView, dir: string, file: string): boolean {
  const setting = pytestSettings(view, dir);
  if (setting("addopts")?.some((option) => FLAG.test(option)) === true) {
    const roots = setting("testpaths");
    if (roots === undefined || roots.some((root) => underPath(file, root))) return true;
  }
  const tox = view.readText(joinRel(dir, "tox.ini")) ?? "";
  for (const [line] of tox.matchAll(/^[^#\n]*\bpy\.?test\b[^\n]*\s--doctest-modules\b[^\n]*/gm)) {
    const words = line
      .slice(line.search(/\bpy\.?test\b/))
      .split(/\s+/)
      .slice(1);
    const paths = words
      .filter((word) => !word.startsWith("-") && !/^\{posargs/.test(word))
      .map((word) => word.replace(/^\{[^}]*\}\/?/, ""));
    if (paths.length === 0 || paths.some((path) => underPath(file, path))) return true;
  }
  return false;
}

/**
 * The text files pytest collects as doctests in the project in `dir` (package-relative, sorted):
 * those matching a `--doctest-glob` of pytest's `addopts` (`--doctest-glob "*.rst"`) under its
 * `testpaths` (else the package), at most `DOC_DEPTH` folders down and `DOC_LIMIT` files.
 * sortedcontainers' `docs/introduction.rst` holds the only test of `SortedList.reverse`'s message.
 * With `asked` (one package-relative file), nothing unless a glob takes that file's name.
 */
export function pytestDoctestFiles(view: ProjectView, dir: string, asked?: string): string[] {
  const setting = pytestSettings(view, dir);
  const options = setting("addopts") ?? [];
  const globs = options.flatMap((option, at) => {
    const inline = option.startsWith("--doctest-glob=")
      ? option.slice("--doctest-glob=".length)
      : undefined;
    const value = option === "--doctest-glob" ? options[at + 1] : inline;
    const clean = value?.replace(/^(["'])(.*)\1$/, "$2");
    return clean === undefined || clean === "" ? [] : [clean];
  });
  if (globs.length === 0) return [];
  const matches = picomatch(globs, { basename: true, dot: false });
  // Asked about one file (an edit of it): no walk when no glob takes its name.
  if (asked !== undefined && !matches(asked)) return [];
  const roots = (setting("testpaths") ?? ["."]).map((root) =>
    root.replace(/^\.\//, "").replace(/\/+$/, ""),
  );
  const found = new Set<string>();
  for (const root of roots) {
    const rel = root === "." ? "" : root;
    if (matches(rel)) found.add(rel);
    const bounds = {
      depth: DOC_DEPTH,
      files: DOC_LIMIT - found.size,
      skip: SKIPPED,
      keep: matches,
    };
    for (const file of walkFiles(view, dir, rel, bounds)) found.add(file);
  }
  return [...found].sort();
}

const DOC_DEPTH = 4;
const DOC_LIMIT = 200;
const SKIPPED = new Set(["node_modules", "__pycache__", "_build", "build", "dist", "venv"]);

/**
 * The top-level modules a doctest text imports in its examples (`>>> from sortedcontainers
 * import SortedList`, `>>> import a.b, c` → `sortedcontainers`, `a`, `c`).
 */
export function doctestImports(text: string): Set<string> {
  const found = new Set<string>();
  for (const [, from, names] of text.matchAll(
    /^[ \t]*>>>[ \t]+(?:from[ \t]+([\w.]+)[ \t]+import\b|import[ \t]+([\w., \t]+))/gm,
  )) {
    const modules = from === undefined ? (names ?? "").split(",") : [from];
    for (const module of modules) {
      const top = module.trim().split(/[.\s]/)[0] ?? "";
      if (top !== "") found.add(top);
    }
  }
  return found;
}
