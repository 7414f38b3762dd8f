import { joinRel, type ProjectView } from "../project/project-view.ts";
import { iniValue, tomlStrings } from "./config-text.ts";

/**
 * Python doctests as pytest runs them: a project that collects its modules' doctests
 * (`--doctest-modules`) has a test in every module with a `>>>` example, which a run of its test
 * files alone leaves out (boltons' `camel2under` is tested by its docstring only).
 */

/** Whether a Python source holds a doctest example (a `>>> ` line). */
export function hasPythonDoctests(source: string): boolean {
  return /^[ \t]*>>>(?:[ \t]|$)/m.test(source);
}

/**
 * Whether the project in `dir` runs its modules' doctests with pytest: `--doctest-modules` in
 * pytest's `addopts` (pyproject.toml, pytest.ini, tox.ini, setup.cfg), or in a pytest command
 * of tox.ini (boltons: `pytest --doctest-modules boltons tests`).
 */
export function pytestRunsDoctests(view: ProjectView, dir: string): boolean {
  const flag = /(^|\s)--doctest-modules(\s|$)/;
  const pyproject = view.readText(joinRel(dir, "pyproject.toml"));
  const fromToml =
    pyproject === undefined
      ? undefined
      : tomlStrings(pyproject, "tool.pytest.ini_options", "addopts");
  if (fromToml?.some((option) => flag.test(option)) === true) return true;
  for (const [file, section] of [
    ["pytest.ini", "pytest"],
    ["tox.ini", "pytest"],
    ["setup.cfg", "tool:pytest"],
  ] as const) {
    const text = view.readText(joinRel(dir, file));
    if (text !== undefined && flag.test(iniValue(text, section, "addopts") ?? "")) return true;
  }
  const tox = view.readText(joinRel(dir, "tox.ini")) ?? "";
  return /^[^#\n]*\bpy\.?test\b[^\n]*\s--doctest-modules\b/m.test(tox);
}
