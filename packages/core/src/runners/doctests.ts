import { joinRel, type ProjectView } from "../project/project-view.ts";
import { pytestSetting } from "./config-text.ts";

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
function under(file: string, path: string): boolean {
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
  if (pytestSetting(view, dir, "addopts")?.some((option) => FLAG.test(option)) === true) {
    const roots = pytestSetting(view, dir, "testpaths");
    if (roots === undefined || roots.some((root) => under(file, root))) return true;
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
    if (paths.length === 0 || paths.some((path) => under(file, path))) return true;
  }
  return false;
}
