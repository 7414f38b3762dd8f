import { describe, expect, it } from "vitest";
import { scanPythonModule, splitLogicalLines } from "./python-module.ts";

describe("splitLogicalLines", () => {
  it("joins bracketed and backslash-continued lines and drops comments", () => {
    const lines = splitLogicalLines(
      "from a import (\n    b,  # one\n    c,\n)\nx = 1 + \\\n    2\n# import nope\n",
    );
    expect(lines.map((line) => [line.line, line.code])).toEqual([
      [1, "from a import (     b,       c, )"],
      [5, "x = 1 +      2"],
    ]);
  });

  it("masks strings, so a docstring or a string is never code", () => {
    const [doc, call] = splitLogicalLines(
      '"""\nimport os\nfrom x import y\n"""\nprint("import z")\n',
    );
    expect(doc?.code).toBe('"0"');
    expect(doc?.strings).toEqual(["\nimport os\nfrom x import y\n"]);
    expect(call).toMatchObject({ code: 'print("0")', line: 5 });
  });

  it("keeps escaped quotes and prefixed strings inside their literal", () => {
    const [line] = splitLogicalLines("x = rb'a\\'b' + f\"{y}\\\"\" # c\n");
    expect(line?.strings).toEqual(["a\\'b", '{y}\\"']);
    expect(line?.code).toBe('x = "0" + "1"');
  });

  it("measures indentation with tabs as 8 columns", () => {
    const lines = splitLogicalLines("def f():\n\treturn 1\n");
    expect(lines.map((line) => line.indent)).toEqual([0, 8]);
  });
});

describe("scanPythonModule", () => {
  it("reads absolute, dotted, aliased and relative imports", () => {
    const module = scanPythonModule(
      [
        "import os, a.b.c as abc",
        "import   pkg . sub",
        "from . import sibling",
        "from ..core.models import (",
        "    User,",
        "    Group as G,  # comment",
        ")",
        "from .util import *",
        "from x import y; import z",
      ].join("\n"),
    );
    expect(module.imports).toEqual([
      { module: "os", level: 0, names: undefined, line: 1 },
      { module: "a.b.c", level: 0, names: undefined, line: 1 },
      { module: "pkg.sub", level: 0, names: undefined, line: 2 },
      { module: "", level: 1, names: ["sibling"], line: 3 },
      { module: "core.models", level: 2, names: ["User", "Group"], line: 4 },
      { module: "util", level: 1, names: "*", line: 8 },
      { module: "x", level: 0, names: ["y"], line: 9 },
      { module: "z", level: 0, names: undefined, line: 9 },
    ]);
    expect(module.defined).toEqual(
      expect.arrayContaining(["os", "abc", "pkg", "sibling", "User", "G", "y", "z"]),
    );
    expect(module.open).toBe(true);
  });

  it("lists public top-level def and class names, not nested or private ones", () => {
    const module = scanPythonModule(
      [
        "import json",
        "@decorator",
        "def charge(amount):",
        "    def inner(): pass",
        "    total = 1",
        "    from .deep import lazy",
        "    return total",
        "async def refund(x): return x",
        "class Invoice(Base):",
        "    def method(self): pass",
        "    VALUE = 2",
        "def _private(): pass",
        "RATE = 0.2",
        "A, B = 1, 2",
        "C: int = 3",
        "x == 4",
        "if TYPE_CHECKING:",
        "    from .types import T",
        "try:",
        "    import ujson as fast",
        "except ImportError:",
        "    fast = None",
        "    def fallback(): pass",
      ].join("\n"),
    );
    expect(module.publicNames).toEqual(["charge", "refund", "Invoice", "fallback"]);
    expect(module.defined).toEqual(
      expect.arrayContaining(["json", "RATE", "A", "B", "C", "T", "fast", "_private"]),
    );
    expect(module.defined).not.toContain("inner");
    expect(module.defined).not.toContain("total");
    expect(module.defined).not.toContain("VALUE");
    expect(module.defined).not.toContain("method");
    expect(module.defined).not.toContain("lazy");
    expect(module.defined).not.toContain("x");
    // An import inside a function is still a dependency of the file.
    expect(module.imports.map((entry) => entry.module)).toEqual(["json", "deep", "types", "ujson"]);
    expect(module.open).toBe(false);
  });

  it("prefers a literal __all__, with additions, over the def/class names", () => {
    const module = scanPythonModule(
      [
        "__all__ = [",
        '    "charge",  # the main one',
        "    'Invoice',",
        "]",
        "__all__ += ('refund',)",
        "__all__.append('VERSION')",
        '__all__.extend(["other"])',
        "def charge(): pass",
        "def helper(): pass",
      ].join("\n"),
    );
    expect(module.all).toEqual(["charge", "Invoice", "refund", "VERSION", "other"]);
    expect(module.publicNames).toEqual(module.all);
    expect(module.open).toBe(false);
  });

  it("is open when names cannot be known statically", () => {
    expect(scanPythonModule("__all__ = base.__all__ + ['x']\n").open).toBe(true);
    expect(scanPythonModule("def __getattr__(name):\n    return 1\n").open).toBe(true);
    expect(scanPythonModule("class A:\n    def __getattr__(self, n): pass\n").open).toBe(false);
  });

  it("reads nothing from strings, comments or a file that is all docstring", () => {
    const module = scanPythonModule(
      '"""Module.\n\nimport fake\ndef fake(): pass\n"""\n# from x import y\ns = "import q"\nt = \'\'\'\nclass Z: pass\n\'\'\'\n',
    );
    expect(module.imports).toEqual([]);
    expect(module.publicNames).toEqual([]);
    expect(module.defined).toEqual(["s", "t"]);
  });

  it("survives an unclosed string or bracket without reading past the damage", () => {
    const module = scanPythonModule('x = "unclosed\nimport os\n');
    expect(module.imports.map((entry) => entry.module)).toEqual(["os"]);
    expect(scanPythonModule("x = (1,\nimport os\n").imports).toEqual([]);
  });
});

describe("imports by a literal name, and literal sys.path folders", () => {
  it("reads import_module and __import__ with a literal name, anywhere in the module", () => {
    const module = scanPythonModule(
      [
        "import importlib",
        "from importlib import import_module",
        'mul = importlib.import_module("tests.helpers").mul',
        'helpers = import_module(".helpers", package=__package__)',
        'x = __import__("tests.fakes", fromlist=["mul"])',
        "def f(name):",
        '    return importlib.import_module("plugins." + name), import_module(name)',
        'obj.import_module("not.this")',
        'importlib.import_module(f"plugins.{name}")',
        "",
      ].join("\n"),
    );
    expect(module.imports.map((entry) => [entry.module, entry.level, entry.names])).toEqual([
      ["importlib", 0, undefined],
      ["importlib", 0, ["import_module"]],
      ["tests.helpers", 0, undefined],
      ["helpers", 1, undefined],
      ["tests.fakes", 0, undefined],
    ]);
    expect(module.defined).not.toContain("tests");
  });

  it("reads the URLconfs Django imports by name: include() and ROOT_URLCONF", () => {
    const urls = scanPythonModule(
      [
        "from django.urls import include, path",
        "urlpatterns = [",
        '    path("catalog/", include("catalog.urls")),',
        "    path('shop/', include(('shop.urls', 'shop'), namespace='shop')),",
        '    path("accounts/", include("django.contrib.auth.urls")),',
        "    path('x/', include(router.urls)),",
        "]",
        "",
      ].join("\n"),
    );
    expect(urls.imports.map((entry) => [entry.module, entry.level, entry.names])).toEqual([
      ["django.urls", 0, ["include", "path"]],
      ["catalog.urls", 0, undefined],
      ["shop.urls", 0, undefined],
      ["django.contrib.auth.urls", 0, undefined],
    ]);
    const settings = scanPythonModule("DEBUG = True\nROOT_URLCONF = 'locallibrary.urls'\n");
    expect(settings.imports.map((entry) => entry.module)).toEqual(["locallibrary.urls"]);
    expect(scanPythonModule('MY_URLCONF = "a.urls"\ninclude_x("b.urls")\n').imports).toEqual([]);
  });

  it("reads a console script a test starts by name as an import of its entry point's module", () => {
    const text = [
      "import subprocess",
      "",
      "def exe():",
      "    return os.environ.get('TOOL_EXE', 'nbstripout')",
      "",
      "def test_install(pytester):",
      "    pytester.run('nbstripout', '--install')",
      "    subprocess.run(['git', 'status'])",
      "",
    ].join("\n");
    const scripts = { nbstripout: "nbstripout._nbstripout", other: "nbstripout.other" };
    expect(scanPythonModule(text, scripts).scriptRuns).toEqual([
      { module: "nbstripout._nbstripout", level: 0, names: undefined, line: 4 },
    ]);
    expect(scanPythonModule(text).scriptRuns).toBeUndefined();
    expect(scanPythonModule(text, {}).scriptRuns).toBeUndefined();
    // A module that starts no process only names its command (a log line, a docstring).
    const named = 'log = logging.getLogger("nbstripout")\n"""nbstripout strips notebooks."""\n';
    expect(scanPythonModule(named, scripts).scriptRuns).toBeUndefined();
  });

  it("reads a module a test runs as a program (python -m) as imported, with its __main__", () => {
    const test = scanPythonModule(
      [
        "import subprocess, sys",
        "def test_greets():",
        "    out = subprocess.run(",
        '        [sys.executable, "-m", "greet", "Ann"],',
        "        capture_output=True,",
        "    )",
        '    subprocess.run(f"{sys.executable} -m greet.cli --help", shell=True)',
        "    subprocess.run('python3 -m tools.gen x', shell=True)",
        '    subprocess.run(["git", "commit", "-m", "message"])',
        '    run(["python", "-m", "..rel"])',
        '    subprocess.run(["python3.11", "-m",',
        '                    "tools.lint"])',
        "",
      ].join("\n"),
    );
    expect(test.imports.map((entry) => entry.module)).toEqual([
      "subprocess",
      "sys",
      "greet",
      "greet.__main__",
      "greet.cli",
      "greet.cli.__main__",
      "tools.gen",
      "tools.gen.__main__",
      "tools.lint",
      "tools.lint.__main__",
    ]);
  });

  it("reads no program run from a docstring or a bare string that shows the command", () => {
    const init = scanPythonModule(
      [
        '"""JSON for Python.',
        "",
        "Using pkg.tool from the shell::",
        "",
        '    $ echo \'{"json":"obj"}\' | python -m pkg.tool',
        '"""',
        "from .decoder import loads",
        "def main():",
        '    "Run it as `python -m pkg.cli`."',
        '    ("python -m pkg.other" "")',
        '    CMD = "python -m pkg.runner"',
        "",
      ].join("\n"),
    );
    expect(init.imports.map((entry) => entry.module)).toEqual([
      "decoder",
      "pkg.runner",
      "pkg.runner.__main__",
    ]);
  });

  it("reads the dotted paths of a module that imports by a computed name, only there", () => {
    const registry = [
      "from importlib import import_module",
      "PLUGINS = {",
      '    "table": "pkg.plugins.table.table",',
      '    "math": "pkg.plugins.math:render",',
      '    "prose": "Some words. Not a path",',
      '    "version": "1.2",',
      '    "dup": "pkg.plugins.table.table",',
      "}",
      "def load(name):",
      '    return import_module(PLUGINS[name].rsplit(".", 1)[0])',
      "",
    ].join("\n");
    expect(
      scanPythonModule(registry).loadable.map((entry) => [entry.module, entry.names, entry.line]),
    ).toEqual([
      ["pkg.plugins.table", ["table"], 2],
      ["pkg.plugins.math", ["render"], 2],
    ]);
    expect(scanPythonModule(registry).imports.map((entry) => entry.module)).toEqual(["importlib"]);
    const literalOnly = registry.replace('PLUGINS[name].rsplit(".", 1)[0]', '"pkg.plugins.table"');
    expect(scanPythonModule(literalOnly).loadable).toEqual([]);
    expect(scanPythonModule(registry.replace("import_module(P", "len(P")).loadable).toEqual([]);
    const ownHelper = registry.replace("def load(name):", "def import_module(path):");
    expect(scanPythonModule(ownHelper.replace("import_module(P", "len(P")).loadable).toEqual([]);
    const concatenated = 'import importlib\nX = "pkg.a.b"\nimportlib.import_module("pkg." + n)\n';
    expect(scanPythonModule(concatenated).loadable.map((entry) => entry.module)).toEqual(["pkg.a"]);
  });

  it("reads the folders a literal sys.path change adds, not a computed one", () => {
    const module = scanPythonModule(
      [
        "import os, sys",
        'sys.path.insert(0, "tests")',
        "sys.path.append('vendor')",
        'sys.path[0:0] = ["lib", "more"]',
        'sys.path += ["extra"]',
        'sys.path.insert(0, os.path.join(os.path.dirname(__file__), "computed"))',
        "",
      ].join("\n"),
    );
    expect(module.pathInserts).toEqual(["tests", "vendor", "lib", "more", "extra"]);
  });

  it("reads the folders named from __file__ in a module that changes sys.path", () => {
    const lines = [
      "import os, sys",
      "from pathlib import Path",
      'sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests"))',
      'HERE = Path(__file__).resolve().parent / "lib" / "more"',
      'OTHER = os.path.join(os.path.dirname(__file__), "..", "up")',
      'ABSOLUTE = os.path.join(os.path.dirname(__file__), "/etc")',
      "",
    ];
    expect(scanPythonModule(lines.join("\n")).ownInserts).toEqual(["tests", "lib/more", "../up"]);
    // A module that never touches sys.path puts nothing on it.
    const data = ["import os", 'DATA = os.path.join(os.path.dirname(__file__), "data")', ""];
    expect(scanPythonModule(data.join("\n")).ownInserts).toEqual([]);
  });

  it("reads the folders named from the working directory in a module that changes sys.path", () => {
    // autojump's tests: `sys.path.append(os.path.join(os.getcwd(), 'bin'))`, then bare imports.
    const lines = [
      "import os, sys",
      "from pathlib import Path",
      "sys.path.append(os.path.join(os.getcwd(), 'bin'))  # noqa",
      'sys.path.insert(0, str(Path.cwd() / "lib" / "more"))',
      'sys.path.insert(0, os.path.abspath("vendor"))',
      "HERE = os.path.abspath(__file__)",
      'ABSOLUTE = os.path.join(os.getcwd(), "/etc")',
      "",
    ];
    expect(scanPythonModule(lines.join("\n")).cwdInserts).toEqual(["bin", "lib/more", "vendor"]);
    // A module that never touches sys.path puts nothing on it.
    const data = ["import os", 'DATA = os.path.join(os.getcwd(), "data")', ""];
    expect(scanPythonModule(data.join("\n")).cwdInserts).toEqual([]);
  });
});
