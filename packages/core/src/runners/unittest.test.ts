import { describe, expect, it } from "vitest";
import { runnerArgv } from "../engine/plan.ts";
import { createMemoryView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { detectPackageRunners } from "./project-runners.ts";
import { projectDiscovery } from "./unittest.ts";

/** A package laid out as tartley/colorama: tests inside it, named `<module>_test.py`. */
const colorama = (extra: Record<string, string>) =>
  createMemoryView({
    "pyproject.toml": '[project]\nname = "colorama"\n',
    "colorama/__init__.py": "",
    "colorama/ansi.py": "",
    "colorama/tests/__init__.py": "",
    "colorama/tests/ansi_test.py": "from ..ansi import Fore\n",
    "colorama/tests/utils.py": "",
    "colorama/tests/test_helpers.py": "",
    ...extra,
  });

describe("projectDiscovery: the project's own unittest discovery command", () => {
  it.each([
    [
      "Makefile",
      "test:\n\t$(python) -m unittest discover -p *_test.py\n",
      { pattern: "*_test.py" },
    ],
    [
      "tox.ini",
      "[testenv]\ncommands = python -m unittest discover -p '*_test.py'\n",
      { pattern: "*_test.py" },
    ],
    [
      "noxfile.py",
      'def tests(session):\n    session.run("python", "-m", "unittest", "discover", "-s", "src", "-p", "*_tests.py")\n',
      { start: "src", pattern: "*_tests.py" },
    ],
    ["tox.ini", "commands = python -m unittest discover pyflakes\n", { start: "pyflakes" }],
    [
      "Makefile",
      "test:\n\tpython -m unittest discover tests 'check_*.py' . && flake8\n",
      { start: "tests", pattern: "check_*.py", top: "." },
    ],
    [
      "Makefile",
      "test:\n\tpython3 -m unittest discover --start-directory=lib -v --pattern $(PATTERN)\n",
      { start: "lib" },
    ],
    ["Makefile", "# python -m unittest discover -p x_*.py\ntest:\n\tpytest\n", undefined],
    ["tox.ini", "commands = python -m unittest\n", undefined],
  ])("%s %j", (file, text, expected) => {
    expect(projectDiscovery(createMemoryView({ [file]: text }), "")).toEqual(expected);
  });
});

describe("a unittest project whose discovery pattern is its own", () => {
  it("runs discovery with the pattern and counts the files it matches as tests", () => {
    const view = colorama({ Makefile: "test:\n\tpython -m unittest discover -p *_test.py\n" });
    const [runner] = detectPackageRunners(view, "");
    expect(runner?.id).toBe("unittest");
    expect(runner?.command.slice(-7)).toEqual([
      "discover",
      "-s",
      ".",
      "-p",
      "*_test.py",
      "-t",
      ".",
    ]);
    const shape = suiteShape(view, runner!);
    expect(shape.isTest("colorama/tests/ansi_test.py")).toBe(true);
    expect(shape.isTest("colorama/tests/test_helpers.py")).toBe(false);
    expect(shape.isTest("colorama/tests/utils.py")).toBe(false);
    expect(runnerArgv(view, runner!, ["colorama/tests/ansi_test.py"], []).argv.slice(-2)).toEqual([
      "-v",
      "colorama/tests/ansi_test.py",
    ]);
  });

  it("keeps unittest's own pattern when the project names none", () => {
    const view = colorama({});
    const [runner] = detectPackageRunners(view, "");
    expect(runner?.command).not.toContain("-p");
    const shape = suiteShape(view, runner!);
    expect(shape.isTest("colorama/tests/test_helpers.py")).toBe(true);
    expect(shape.isTest("colorama/tests/ansi_test.py")).toBe(false);
  });
});
