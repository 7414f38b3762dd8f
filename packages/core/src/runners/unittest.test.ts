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

/** A Django project as `django-admin startproject` and `startapp` lay it out. */
const django = (extra: Record<string, string> = {}) =>
  createMemoryView({
    "requirements.txt": "Django>=3.2\n",
    "manage.py":
      "import os\nimport sys\n\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'site_.settings')\n",
    "site_/settings.py": "INSTALLED_APPS = ['shop']\n",
    "shop/models.py": "from django.db import models\n",
    "shop/tests.py": "from django.test import TestCase\n",
    "shop/tests/__init__.py": "",
    "shop/tests/test_views.py": "",
    ".venv/pyvenv.cfg": "",
    ".venv/bin/python": "",
    ...extra,
  });

describe("a Django project without pytest", () => {
  it("runs its tests by Django's own runner, a file as its dotted module", () => {
    const view = django();
    const [runner] = detectPackageRunners(view, "");
    expect(runner?.id).toBe("unittest");
    expect(runner?.command).toEqual([".venv/bin/python", "manage.py", "test", "--noinput"]);
    expect(
      runnerArgv(view, runner!, ["shop/tests.py", "shop/tests/test_views.py"], []).argv,
    ).toEqual([
      ".venv/bin/python",
      "manage.py",
      "test",
      "--noinput",
      "-v",
      "2",
      "shop.tests",
      "shop.tests.test_views",
    ]);
    const id = { runner: "unittest" as const, file: "shop/tests.py", segments: ["T", "test_a"] };
    expect(runnerArgv(view, runner!, [], [id]).argv.slice(4)).toEqual([
      "-v",
      "2",
      "shop.tests.T.test_a",
    ]);
    expect(runnerArgv(view, runner!, [], []).argv.slice(2)).toEqual([
      "test",
      "--noinput",
      "-v",
      "2",
    ]);
  });

  it("counts Django's discovery pattern from the project's folder as its tests", () => {
    const view = django();
    const shape = suiteShape(view, detectPackageRunners(view, "")[0]!);
    expect(shape.isTest("shop/tests.py")).toBe(true);
    expect(shape.isTest("shop/tests/test_views.py")).toBe(true);
    expect(shape.isTest("shop/models.py")).toBe(false);
  });

  it("loads the settings manage.py or --settings names before every test", () => {
    // What the settings name by string (ROOT_URLCONF, and the URLconfs' views) reaches every test.
    const view = django();
    const shape = suiteShape(view, detectPackageRunners(view, "")[0]!);
    expect(shape.isSetup("site_/settings.py")).toBe(true);
    expect(shape.isSetup("shop/models.py")).toBe(false);
    const split = django({
      "manage.py":
        'import os\nos.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_.settings.dev")\n',
      "site_/settings/__init__.py": "",
      "site_/settings/dev.py": "from .base import *\n",
    });
    const package_ = suiteShape(split, detectPackageRunners(split, "")[0]!);
    expect(package_.isSetup("site_/settings/dev.py")).toBe(true);
    expect(package_.isSetup("site_/settings/base.py")).toBe(false);
    const tox = django({
      "manage.py": "print('not django')\n",
      "tox.ini": "[testenv]\ncommands = python -m django test --settings=tests.settings\n",
    });
    expect(suiteShape(tox, detectPackageRunners(tox, "")[0]!).isSetup("tests/settings.py")).toBe(
      true,
    );
    const plain = django({ "manage.py": "print('a script of its own')\n" });
    expect(
      suiteShape(plain, detectPackageRunners(plain, "")[0]!).isSetup("site_/settings.py"),
    ).toBe(false);
  });

  it("is plain unittest when manage.py does not set Django up", () => {
    const view = django({ "manage.py": "print('a script of its own')\n" });
    expect(detectPackageRunners(view, "")[0]?.command).toContain("unittest");
  });

  it.each([
    [
      "tox.ini",
      "[testenv]\ncommands = python -m django test --settings=tests.settings {posargs}\n",
    ],
    [
      "tox.ini",
      "[testenv]\nsetenv =\n    DJANGO_SETTINGS_MODULE = tests.settings\ncommands =\n    python -W error -m django test -v2 {posargs:tests}\n",
    ],
    ["Makefile", "test:\n\tdjango-admin test --settings tests.settings\n"],
  ])("without manage.py, runs Django's runner as %s names it, with its settings", (name, text) => {
    const view = django({ "manage.py": "print('not django')\n", [name]: text });
    expect(detectPackageRunners(view, "")[0]?.command).toEqual([
      ".venv/bin/python",
      "-m",
      "django",
      "test",
      "--settings=tests.settings",
      "--noinput",
    ]);
    const runner = detectPackageRunners(view, "")[0]!;
    expect(runnerArgv(view, runner, ["shop/tests.py"], []).argv.slice(-3)).toEqual([
      "-v",
      "2",
      "shop.tests",
    ]);
  });

  it("runs an app's own runtests.py when it hands its arguments to Django's test command", () => {
    const view = django({
      "manage.py": "print('not django')\n",
      "runtests.py":
        "import os, sys\nfrom django.core.management import execute_from_command_line\n\nif __name__ == '__main__':\n    os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'tests.settings')\n    execute_from_command_line(sys.argv[:1] + ['test'] + sys.argv[1:])\n",
    });
    const runner = detectPackageRunners(view, "")[0]!;
    expect(runner.command).toEqual([".venv/bin/python", "runtests.py", "--noinput"]);
    // Options one word each: a runtests.py may tell options from labels by a leading `-`.
    expect(runnerArgv(view, runner, ["shop/tests.py"], []).argv).toEqual([
      ".venv/bin/python",
      "runtests.py",
      "--noinput",
      "--verbosity=2",
      "shop.tests",
    ]);
  });

  it.each([
    [
      "that does not pass its arguments on",
      "from django.core.management import execute_from_command_line\nexecute_from_command_line(['x', 'test'])\n",
    ],
    ["of a runner of its own", "import sys\nimport unittest\nunittest.main(argv=sys.argv)\n"],
  ])("is plain unittest with a runtests.py %s", (_, text) => {
    const view = django({ "manage.py": "print('not django')\n", "runtests.py": text });
    expect(detectPackageRunners(view, "")[0]?.command).toContain("unittest");
  });

  it("is plain unittest when the command files run Django's runner with no settings named", () => {
    const view = django({
      "manage.py": "print('not django')\n",
      "tox.ini": "[testenv]\ncommands = python -m django test\n",
    });
    expect(detectPackageRunners(view, "")[0]?.command).toContain("unittest");
  });

  it("leaves a Django project configured for pytest to pytest", () => {
    const view = django({
      "pytest.ini": "[pytest]\nDJANGO_SETTINGS_MODULE = site_.settings\n",
    });
    expect(detectPackageRunners(view, "")[0]?.id).toBe("pytest");
  });
});

/** A src layout as gweis/isodate 0.6: the tests inside the package, `setup.py test` only. */
const isodate = (extra: Record<string, string>) =>
  createMemoryView({
    "setup.py": "setup(package_dir={'': 'src'}, test_suite='isodate.tests.test_suite')\n",
    "tox.ini": "[testenv]\ncommands =\n    {envpython} setup.py test\n",
    "src/isodate/__init__.py": "",
    "src/isodate/isotime.py": "",
    "src/isodate/tests/__init__.py": "",
    "src/isodate/tests/test_time.py": "import unittest\n",
    ".venv/pyvenv.cfg": "",
    ".venv/bin/python": "",
    ...extra,
  });

describe("a src-layout package whose tests are inside it", () => {
  it("discovers from src/, the folder its package is imported from", () => {
    const view = isodate({});
    const [runner] = detectPackageRunners(view, "");
    expect(runner?.command.slice(1)).toEqual([
      "-m",
      "unittest",
      "discover",
      "-s",
      "src",
      "-t",
      "src",
    ]);
    expect(suiteShape(view, runner!).isTest("src/isodate/tests/test_time.py")).toBe(true);
    // The whole run names its modules from src/ (`isodate.tests.test_time`); a run of chosen
    // files, from the project's folder (`src.isodate.tests.test_time`).
    expect(runnerArgv(view, runner!, [], []).namesFrom).toBe("src");
    const chosen = runnerArgv(view, runner!, ["src/isodate/tests/test_time.py"], []);
    expect(chosen.argv.slice(-1)).toEqual(["src/isodate/tests/test_time.py"]);
    expect(chosen.namesFrom).toBeUndefined();
  });

  it.each([
    ["a tests/ folder at the root", { "tests/__init__.py": "", "tests/test_x.py": "" }, "tests"],
    ["src/ a package itself", { "src/__init__.py": "" }, "."],
    ["a test folder inside that is no package", { "src/isodate/tests/__init__.py": null }, "."],
  ])("keeps discovery from the project's folder with %s", (_, extra, start) => {
    const all: Record<string, string | null> = {
      "setup.py": "",
      "src/isodate/__init__.py": "",
      "src/isodate/tests/__init__.py": "",
      "src/isodate/tests/test_time.py": "",
      ...extra,
    };
    const files = Object.entries(all).filter(
      (entry): entry is [string, string] => entry[1] !== null,
    );
    const [runner] = detectPackageRunners(createMemoryView(Object.fromEntries(files)), "");
    expect(runner?.command.slice(-4)).toEqual(["-s", start, "-t", "."]);
  });

  it.each([
    ["tests/ with no __init__.py (polib)", {}, ["-s", "tests", "-t", "tests"], "tests"],
    ["tests/ a package", { "tests/__init__.py": "" }, ["-s", "tests", "-t", "."], undefined],
    [
      "its own discovery of a folder with no __init__.py",
      { "tox.ini": "[testenv]\ncommands = python -m unittest discover -s tests -p 'test*.py'\n" },
      ["-s", "tests", "-p", "test*.py", "-t", "tests"],
      "tests",
    ],
  ])(
    "discovers from a start folder that is no package as its own top: %s",
    (_, extra, tail, from) => {
      const view = createMemoryView({
        "setup.py": "from setuptools import setup\nsetup(py_modules=['polib'])\n",
        "polib.py": "",
        "tests/tests.py": "import unittest\nimport polib\n",
        "tests/test_utf8.po": "",
        ...extra,
      });
      const [runner] = detectPackageRunners(view, "");
      expect(runner?.command.slice(3)).toEqual(["discover", ...tail]);
      expect(suiteShape(view, runner!).isTest("tests/tests.py")).toBe(true);
      expect(runnerArgv(view, runner!, [], []).namesFrom).toBe(from);
    },
  );

  it("names a test of a class a function builds by its module, which unittest can load", () => {
    const view = isodate({});
    const [runner] = detectPackageRunners(view, "");
    const ids = ["TestA", "make.<locals>.TestB", "make.<locals>.TestC"].map((owner) => ({
      runner: "unittest" as const,
      file: "src/isodate/tests/test_time.py",
      segments: [owner, "test_a"],
    }));
    expect(runnerArgv(view, runner!, [], ids).argv.slice(4)).toEqual([
      "src.isodate.tests.test_time.TestA.test_a",
      "src.isodate.tests.test_time",
    ]);
  });
});
