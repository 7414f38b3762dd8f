import { describe, expect, it } from "vitest";
import { runnerArgv } from "../engine/plan.ts";
import { createMemoryView } from "../project/project-view.ts";
import {
  doctestImports,
  hasPythonDoctests,
  pytestDoctestFiles,
  pytestRunsDoctests,
} from "./doctests.ts";
import { detectPackageRunners } from "./project-runners.ts";

describe("hasPythonDoctests", () => {
  it.each([
    ['def f():\n    """\n    >>> f()\n    1\n    """\n', true],
    [">>> import x\n", true],
    ['def f():\n    """Returns 1 (compare `a >>> b`)."""\n', false],
    ["x = 1 >> 2\n", false],
  ])("%j → %s", (source, expected) => {
    expect(hasPythonDoctests(source)).toBe(expected);
  });
});

describe("pytestRunsDoctests: where a project asks pytest for its modules' doctests", () => {
  it.each([
    [
      { "pytest.ini": "[pytest]\naddopts=\n\t--doctest-modules\n\t--import-mode importlib\n" },
      true,
    ],
    [{ "tox.ini": "[pytest]\naddopts = -r a --doctest-modules\n" }, true],
    [{ "setup.cfg": "[tool:pytest]\naddopts = --doctest-modules\n" }, true],
    [{ "pyproject.toml": '[tool.pytest.ini_options]\naddopts = ["--doctest-modules"]\n' }, true],
    // boltons: only tox's command passes it.
    [
      {
        "tox.ini":
          "[testenv]\ncommands = pytest --doctest-modules {envsitepackagesdir}/boltons tests\n",
      },
      true,
    ],
    [{ "tox.ini": "[testenv]\ncommands = python -m py.test --doctest-modules boltons\n" }, true],
    // pluggy: a commented-out option, and addopts without it.
    [{ "tox.ini": "[pytest]\n#--pyargs --doctest-modules --ignore=.tox\naddopts=-r a\n" }, false],
    [
      { "pyproject.toml": '[tool.pytest.ini_options]\ndoctest_optionflags = ["ELLIPSIS"]\n' },
      false,
    ],
    [{ "setup.cfg": "[flake8]\naddopts = --doctest-modules\n" }, false],
    // validators: the flag, but pytest collects tests/ alone, never the package's doctests.
    [
      {
        "pyproject.toml":
          '[tool.pytest.ini_options]\ntestpaths = "tests"\naddopts = ["--doctest-modules"]\n',
      },
      false,
    ],
    [{ "pytest.ini": "[pytest]\ntestpaths = boltons tests\naddopts = --doctest-modules\n" }, true],
    // A tox command given other paths does not collect this one.
    [{ "tox.ini": "[testenv]\ncommands = pytest --doctest-modules docs tests\n" }, false],
  ])("%j → %s", (files, expected) => {
    expect(pytestRunsDoctests(createMemoryView(files), "", "boltons/strutils.py")).toBe(expected);
  });
});

describe("pytest's argv for a module whose doctests were selected", () => {
  const view = createMemoryView({
    "tox.ini": "[testenv]\ncommands = pytest --doctest-modules pkg tests\n",
    "pkg/__init__.py": "",
    "pkg/strutils.py": 'def f():\n    """\n    >>> f()\n    1\n    """\n    return 1\n',
    "pkg/plain.py": "def g():\n    return 2\n",
    "tests/test_strutils.py": "def test_f(): pass\n",
  });
  const argv = (files: string[]) => {
    const [runner] = detectPackageRunners(view, "");
    return runnerArgv(view, runner!, files, []).argv.filter((arg) => !arg.includes("junit"));
  };

  it("passes --doctest-modules with the module, and not for test files alone", () => {
    expect(argv(["pkg/strutils.py", "tests/test_strutils.py"]).slice(-3)).toEqual([
      "--doctest-modules",
      "pkg/strutils.py",
      "tests/test_strutils.py",
    ]);
    expect(argv(["tests/test_strutils.py"])).not.toContain("--doctest-modules");
    expect(argv(["pkg/plain.py", "tests/test_strutils.py"])).not.toContain("--doctest-modules");
    expect(argv(["pkg/strutils.py", "tests/test_strutils.py"])).not.toContain("--assert=plain");
  });

  it("keeps a named module's asserts unrewritten, as the whole suite leaves them", () => {
    // jaraco.functools: `chainable`'s doctest shows the bare AssertionError its assert raises;
    // pytest rewrites the asserts of a module named on its command line, never of one it finds.
    const chainable =
      'def chainable(method):\n    """\n    >>> chainable(len)("a")\n    Traceback (most recent call last):\n    ...\n    AssertionError\n    """\n    def wrapper(*args):\n        assert method(*args) is None\n    return wrapper\n';
    const withAssert = createMemoryView({
      "tox.ini": "[testenv]\ncommands = pytest --doctest-modules pkg tests\n",
      "pkg/functools.py": chainable,
      "tests/test_functools.py": "def test_f(): pass\n",
    });
    const [runner] = detectPackageRunners(withAssert, "");
    const built = runnerArgv(
      withAssert,
      runner!,
      ["pkg/functools.py", "tests/test_functools.py"],
      [],
    );
    expect(built.argv.slice(-4)).toEqual([
      "--doctest-modules",
      "--assert=plain",
      "pkg/functools.py",
      "tests/test_functools.py",
    ]);
    // Test files alone keep pytest's assert messages.
    expect(runnerArgv(withAssert, runner!, ["tests/test_functools.py"], []).argv).not.toContain(
      "--assert=plain",
    );
  });
});

describe("pytestDoctestFiles: the text files a project's --doctest-glob collects", () => {
  it.each([
    [
      '[pytest]\naddopts = --doctest-glob "*.rst"\ntestpaths = docs\n',
      ["docs/a.rst", "docs/deep/b.rst"],
    ],
    ["[pytest]\naddopts = --doctest-glob=*.md\n", ["docs/c.md"]],
    [
      "[pytest]\naddopts = --doctest-glob *.rst --doctest-glob *.md\ntestpaths = docs\n",
      ["docs/a.rst", "docs/c.md", "docs/deep/b.rst"],
    ],
    [
      "[pytest]\naddopts = --doctest-glob '*.rst'\n",
      ["README.rst", "docs/a.rst", "docs/deep/b.rst"],
    ],
    ["[pytest]\naddopts = --doctest-modules\n", []],
  ])("%j → %j", (ini, expected) => {
    const view = createMemoryView({
      "tox.ini": ini,
      "README.rst": "",
      "docs/a.rst": "",
      "docs/c.md": "",
      "docs/deep/b.rst": "",
      ".tox/x.rst": "",
      "docs/_build/y.rst": "",
    });
    expect(pytestDoctestFiles(view, "")).toEqual(expected);
    // Asked about one page: the same answer for it, and no walk for a name no glob takes.
    for (const page of ["docs/a.rst", "docs/c.md", "README.rst"])
      expect(pytestDoctestFiles(view, "", page).includes(page)).toBe(expected.includes(page));
    const list = view.list.bind(view);
    view.list = (dir) => {
      throw new Error(`listed ${dir} for a page no glob takes`);
    };
    expect(pytestDoctestFiles(view, "", "docs/notes.txt")).toEqual([]);
    view.list = list;
  });
});

describe("doctestImports: the top-level modules a text's examples import", () => {
  it("reads `from` and `import` examples, not prose", () => {
    const text = [
      "Import it with ``from prose import x``.",
      "    >>> from sortedcontainers import SortedList",
      "    >>> import os.path, json as j",
      ">>> from .relative import y",
      "    ... import continued",
    ].join("\n");
    expect([...doctestImports(text)].sort()).toEqual(["json", "os", "sortedcontainers"]);
  });
});
