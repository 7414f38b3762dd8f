import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { detectPackageRunners } from "./project-runners.ts";
import {
  coverageOff,
  doctestOptions,
  isDefaultTestFileName,
  pytestMissingPlugin,
  pytestRunFiles,
} from "./pytest.ts";
import { HANG_SECONDS_TOKEN } from "./spec.ts";
import { specOf } from "./table.ts";

describe("isDefaultTestFileName", () => {
  const defaults = picomatch(["test_*.py", "*_test.py"], { basename: true });

  it.each([
    ["test_calc.py", true],
    ["calc_test.py", true],
    ["test_.py", true],
    ["_test.py", true],
    ["test_calc.pyc", false],
    ["tests.py", false],
    [".calc_test.py", false],
    ["test.py", false],
    ["calc.py", false],
  ])("%s: %s, as picomatch says", (name, expected) => {
    expect(isDefaultTestFileName(name)).toBe(expected);
    expect(defaults(name)).toBe(expected);
  });

  it("answers as picomatch does for any file name", () => {
    const name = fc
      .array(fc.constantFrom("test", "_", ".", "py", "t", "s", "x", "\\\\", " ", "é"), {
        maxLength: 8,
      })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(name, (one) => isDefaultTestFileName(one) === defaults(one)),
      { numRuns: 20_000 },
    );
  });
});

describe("pytestMissingPlugin: an option only a plugin adds", () => {
  // pytest 7's words for a usage error (pytest 8 says `configfile:`).
  const usage = (args: string, config = "inifile: pytest.ini") =>
    `ERROR: usage: __main__.py [options] [file_or_dir] [file_or_dir] [...]\n__main__.py: error: unrecognized arguments: ${args}\n  ${config}\n  rootdir: /p\n`;
  it.each([
    ["--cov=pkg --cov-report=term", "`--cov=pkg` (from pytest.ini) needs the pytest-cov plugin"],
    ["-n 4", "`-n` (from pytest.ini) needs the pytest-xdist plugin"],
    ["--frob --timeout=5", "`--timeout=5` (from pytest.ini) needs the pytest-timeout plugin"],
    ["--reuse-db", "`--reuse-db` (from pytest.ini) needs the pytest-django plugin"],
  ])("%s", (args, said) => {
    const line = pytestMissingPlugin(usage(args));
    expect(line).toContain(said);
    expect(line).toMatch(/install pytest-[\w-]+ there \(or take the option out\)$/);
  });
  it("names the config's option, not the --no-cov tailtest adds after it", () => {
    expect(pytestMissingPlugin(usage("--no-cov --cov=pkg --cov-fail-under=90"))).toContain(
      "`--cov=pkg` (from pytest.ini) needs the pytest-cov plugin",
    );
  });
  it("names the config file pytest 8 reports", () => {
    expect(pytestMissingPlugin(usage("--cov", "configfile: pyproject.toml"))).toContain(
      "`--cov` (from pyproject.toml) needs the pytest-cov plugin",
    );
  });
  it("names pytest 7's absolute config path from the root", () => {
    expect(pytestMissingPlugin(usage("--cov", "inifile: /p/sub/tox.ini"))).toContain(
      "`--cov` (from sub/tox.ini)",
    );
    expect(pytestMissingPlugin(usage("--cov", "inifile: /elsewhere/setup.cfg"))).toContain(
      "`--cov` (from setup.cfg)",
    );
  });
  it.each([
    ["an option no known plugin adds: the run's own error", usage("--frob --no-such-option")],
    ["a test's failure that mentions the words", "E   AssertionError: unrecognized"],
    ["no output", ""],
  ])("%s", (_why, output) => {
    expect(pytestMissingPlugin(output)).toBeUndefined();
  });
});

describe("coverageOff: --no-cov where the config turns pytest-cov on", () => {
  it.each([
    [
      "pyproject addopts with --cov",
      {
        "pyproject.toml":
          '[tool.pytest.ini_options]\naddopts = "-ra --cov=pkg --cov-fail-under=90"\n',
      },
      ["--no-cov"],
    ],
    ["a bare --cov in pytest.ini", { "pytest.ini": "[pytest]\naddopts = --cov\n" }, ["--no-cov"]],
    [
      "setup.cfg's multi-line addopts",
      { "setup.cfg": "[tool:pytest]\naddopts =\n  -ra\n  --cov-report=xml\n" },
      ["--no-cov"],
    ],
    [
      "addopts without coverage",
      { "pytest.ini": "[pytest]\naddopts = -ra --strict-markers\n" },
      [],
    ],
    ["a config that already says --no-cov", { "pytest.ini": "[pytest]\naddopts = --no-cov\n" }, []],
    [
      "an option that only starts with the letters",
      { "pytest.ini": "[pytest]\naddopts = --cover\n" },
      [],
    ],
    ["no config", {}, []],
  ])("%s", (_name, files, expected) => {
    expect(coverageOff(createMemoryView(files), "")).toEqual(expected);
  });
});

describe("pytest-django's settings", () => {
  const shapeOf = (files: Record<string, string>) => {
    const view = createMemoryView({ ".venv/pyvenv.cfg": "", ".venv/bin/python": "", ...files });
    return suiteShape(view, detectPackageRunners(view, "")[0]!);
  };

  it("are loaded before every test, as the config or manage.py names them", () => {
    const ini = shapeOf({
      "pytest.ini": "[pytest]\nDJANGO_SETTINGS_MODULE = config.settings.test\n",
      "config/settings/test.py": "from .base import *\n",
    });
    expect(ini.isSetup("config/settings/test.py")).toBe(true);
    expect(ini.isSetup("config/settings/base.py")).toBe(false);
    const manage = shapeOf({
      "pytest.ini": "[pytest]\n",
      "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'site_.settings')\n",
      "site_/settings.py": "ROOT_URLCONF = 'site_.urls'\n",
    });
    expect(manage.isSetup("site_/settings.py")).toBe(true);
    expect(shapeOf({ "pytest.ini": "[pytest]\n" }).isSetup("site_/settings.py")).toBe(false);
  });
});

describe("a hanging test's stack dump", () => {
  const argvOf = (files: Record<string, string>) => {
    const view = createMemoryView({ ...files, "tests/test_a.py": "def test_a():\n    pass\n" });
    const [runner] = detectPackageRunners(view, "");
    return specOf("pytest").argv({ view, runner: runner!, files: ["tests/test_a.py"], ids: [] });
  };

  it("asks pytest's faulthandler for one before the run's stop", () => {
    expect(argvOf({ "pytest.ini": "[pytest]\n" }).hangArgs).toEqual([
      "-o",
      `faulthandler_timeout=${HANG_SECONDS_TOKEN}`,
    ]);
  });

  it("not where the config takes faulthandler out: -W error would stop pytest on the option", () => {
    expect(
      argvOf({ "pytest.ini": "[pytest]\naddopts = -W error -p no:faulthandler\n" }).hangArgs,
    ).toBeUndefined();
  });
});

describe("the files of a run, as pytest's own run meets them", () => {
  const CONFTEST =
    "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef names(doctest_namespace):\n    doctest_namespace['x'] = 1\n";
  const view = (conftest: string) =>
    createMemoryView({
      "pytest.ini": "[pytest]\ntestpaths = tests docs\naddopts = --doctest-glob='*.rst'\n",
      "tests/conftest.py": conftest,
      "tests/test_big.py": "def test_a():\n    assert True\n\n\ndef test_b():\n    assert True\n",
      "tests/test_small.py": "def test_a():\n    pass\n",
      "docs/a.rst": ">>> x\n1\n",
    });
  it.each([
    [
      "tests before docs, by testpaths",
      CONFTEST,
      ["docs/a.rst", "tests/test_big.py"],
      ["tests/test_big.py", "docs/a.rst"],
    ],
    [
      "a page alone gets the conftest folder's smallest test first",
      CONFTEST,
      ["docs/a.rst"],
      ["tests/test_small.py", "docs/a.rst"],
    ],
    [
      "no fixture filling doctest_namespace: the page alone",
      "import pytest\n",
      ["docs/a.rst"],
      ["docs/a.rst"],
    ],
  ])("%s", (_, conftest, files, expected) => {
    expect(pytestRunFiles(view(conftest), "", files)).toEqual(expected);
  });
});

describe("the doctest options of a run", () => {
  const view = createMemoryView({
    "pytest.ini": "[pytest]\naddopts = --doctest-glob='*.rst' --doctest-modules\n",
    "calc.py":
      'def add(a, b):\n    """\n    >>> add(1, 2)\n    3\n    """\n    assert a is not None\n    return a + b\n',
    "docs/usage.rst": ">>> from calc import add\n>>> assert add(1, 2) == 3\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
  });
  it("asks for module doctests only for a Python module with doctests", () => {
    expect(doctestOptions(view, "", ["calc.py", "tests/test_calc.py"])).toEqual([
      "--doctest-modules",
      "--assert=plain",
    ]);
    // A page is collected by the project's --doctest-glob; its assert keeps pytest's rewriting.
    expect(doctestOptions(view, "", ["docs/usage.rst", "tests/test_calc.py"])).toEqual([]);
  });
});
