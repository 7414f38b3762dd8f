import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { inspectEdit, openProject } from "../../project/node/project.ts";
import { selectRelated } from "./graph-selection.ts";

let temp: TempProject | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

describe("a Python test helper no import names", () => {
  // venusian's layout: tests scan fixture packages, whose modules pkgutil imports.
  const files = {
    "setup.cfg": "[tool:pytest]\ntestpaths =\n    tests\naddopts = --ignore=tests/fixtures/\n",
    "src/scan/__init__.py": "def scan(package):\n    return package\n",
    "tests/__init__.py": "",
    "tests/fixtures/__init__.py": "",
    "tests/fixtures/two/__init__.py": "",
    "tests/fixtures/two/mod1.py": "class Class:\n    pass\n",
    "tests/fixtures/two/mod2.py": "from .mod1 import Class\n",
    "tests/test_scan.py":
      "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_two(self):\n        from tests.fixtures import two\n        from tests.fixtures.two.mod1 import Class\n        from scan import scan\n        scan(two)\n",
    "tests/test_other.py": "def test_other():\n    assert True\n",
  };

  it("is run by the tests that import its package", async () => {
    temp = makeProject(files);
    const selection = await selectRelated(openProject(temp.root), ["tests/fixtures/two/mod2.py"], {
      write: false,
    });
    expect(selection.related.get("tests/fixtures/two/mod2.py")).toEqual([
      {
        path: "tests/test_scan.py",
        evidence: "imports-via",
        detail: "imports its package tests.fixtures.two",
        hops: 2,
      },
    ]);
    // A module some test imports keeps that evidence alone.
    const direct = await selectRelated(openProject(temp.root), ["tests/fixtures/two/mod1.py"], {
      write: false,
    });
    expect(direct.related.get("tests/fixtures/two/mod1.py")?.map((t) => t.path)).toEqual([
      "tests/test_scan.py",
    ]);
    expect(direct.related.get("tests/fixtures/two/mod1.py")?.[0]?.evidence).toBe("imports");
  });
});

describe("a module only a jest setup file reaches", () => {
  // jest-dom's layout: setupFilesAfterEnv imports src/index.js, which registers every matcher
  // with expect.extend; the tests in src/__tests__/ call the matchers and import no source.
  const files = {
    "package.json": JSON.stringify({
      scripts: { test: "jest" },
      devDependencies: { jest: "29.7.0" },
    }),
    "jest.config.js":
      "module.exports = {\n  setupFilesAfterEnv: ['<rootDir>/tests/setup-env.js'],\n  testPathIgnorePatterns: ['/__tests__/helpers/'],\n}\n",
    "tests/setup-env.js": "import '../src/index'\n",
    "src/index.js": "import * as matchers from './matchers'\nexpect.extend(matchers)\n",
    "src/matchers.js":
      "export {toBeChecked} from './to-be-checked'\nexport {toHaveClass} from './to-have-class'\n",
    "src/utils.js": "export const getTag = (el) => el.tagName.toLowerCase()\n",
    "src/to-be-checked.js":
      "import {getTag} from './utils'\nexport function toBeChecked(el) { return {pass: getTag(el) === 'input'} }\n",
    "src/to-have-class.js": "export function toHaveClass(el) { return {pass: true} }\n",
    "src/__tests__/to-be-checked.js":
      "test('checked', () => expect({tagName: 'INPUT'}).toBeChecked())\n",
    "src/__tests__/to-have-class.js": "test('class', () => expect({}).toHaveClass())\n",
  };

  it("is run by every test of that runner, through the setup file", async () => {
    temp = makeProject(files);
    const selection = await selectRelated(
      openProject(temp.root),
      ["src/utils.js", "src/matchers.js"],
      {
        write: false,
      },
    );
    expect(selection.related.get("src/matchers.js")?.map((t) => [t.path, t.evidence])).toEqual([
      ["src/__tests__/to-be-checked.js", "imports-via"],
      ["src/__tests__/to-have-class.js", "imports-via"],
    ]);
    expect(selection.related.get("src/matchers.js")?.[0]?.detail).toBe(
      "runs with tests/setup-env.js, which imports it",
    );
    expect(
      selection.related
        .get("src/utils.js")
        ?.map((t) => t.path)
        .sort(),
    ).toEqual(["src/__tests__/to-be-checked.js", "src/__tests__/to-have-class.js"]);
  });
});

describe("a Python module whose doctests the project runs", () => {
  // boltons' layout: tox runs `pytest --doctest-modules boltons tests`; camel2under has no other test.
  const files = {
    "tox.ini": "[testenv]\ncommands = pytest --doctest-modules boltons tests\n",
    "boltons/__init__.py": "",
    "boltons/strutils.py":
      'def camel2under(s):\n    """\n    >>> camel2under(\'AB\')\n    \'a_b\'\n    """\n    return s\n',
    "boltons/plain.py": "def f():\n    return 1\n",
    "tests/__init__.py": "",
    "tests/test_strutils.py":
      "from boltons import strutils\n\n\ndef test_x():\n    assert strutils\n",
  };

  it("is its own test, first; a module without doctests, or a project without them, is not", async () => {
    temp = makeProject(files);
    const select = async (file: string) =>
      (await selectRelated(openProject(temp!.root), [file], { write: false })).related
        .get(file)
        ?.map((test) => [test.path, test.evidence]);
    expect(await select("boltons/strutils.py")).toEqual([
      ["boltons/strutils.py", "self"],
      ["tests/test_strutils.py", "name"],
    ]);
    expect(await select("boltons/plain.py")).not.toContainEqual(["boltons/plain.py", "self"]);
    temp.write("tox.ini", "[testenv]\ncommands = pytest boltons tests\n");
    expect(await select("boltons/strutils.py")).toEqual([["tests/test_strutils.py", "name"]]);
  });
});

describe("a text file of examples pytest runs as doctests (`--doctest-glob`)", () => {
  // sortedcontainers' layout: tox.ini's [pytest] collects docs/*.rst, whose examples import the
  // package; SortedList.reverse's message is checked by docs/introduction.rst alone.
  const files = {
    "tox.ini":
      '[pytest]\naddopts=\n    --doctest-modules\n    --doctest-glob "*.rst"\ntestpaths=docs src/sc tests\n',
    "src/sc/__init__.py": "from .sortedlist import SortedList\n",
    "src/sc/sortedlist.py":
      "class SortedList:\n    def reverse(self):\n        raise NotImplementedError\n",
    "docs/introduction.rst":
      "Intro\n=====\n\n    >>> from sc import SortedList\n    >>> SortedList().reverse()\n",
    "docs/other.rst": "Other\n=====\n\n    >>> import json\n",
    "README.rst": "    >>> from sc import SortedList\n",
    "tests/__init__.py": "",
    "tests/test_sortedlist.py":
      "from sc import SortedList\n\n\ndef test_x():\n    assert SortedList\n",
  };

  it("is a test of the package its examples import, under testpaths only", async () => {
    temp = makeProject(files);
    const select = async (file: string) =>
      (await selectRelated(openProject(temp!.root), [file], { write: false })).related
        .get(file)
        ?.map((test) => [test.path, test.evidence]);
    expect(await select("src/sc/sortedlist.py")).toEqual([
      ["tests/test_sortedlist.py", "name"],
      ["docs/introduction.rst", "imports-via"],
    ]);
    temp.write("tox.ini", "[pytest]\naddopts = --doctest-modules\ntestpaths = docs src/sc tests\n");
    expect(await select("src/sc/sortedlist.py")).toEqual([["tests/test_sortedlist.py", "name"]]);
  });
});

describe("a README pytest runs as a doctest (`--doctest-glob=README.md` in addopts)", () => {
  // python-tabulate's layout: pyproject's addopts runs the README's examples, no testpaths.
  const files = {
    "pyproject.toml":
      '[tool.pytest.ini_options]\naddopts = "-v --doctest-modules --doctest-glob=README.md"\n',
    "tabulate/__init__.py": "def tabulate(rows):\n    return str(rows)\n",
    "README.md": "```pycon\n>>> from tabulate import tabulate\n>>> tabulate([])\n'[]'\n```\n",
    "CHANGELOG.md": "- 0.9: first\n",
    "test/test_api.py":
      "from tabulate import tabulate\n\n\ndef test_x():\n    assert tabulate([])\n",
  };

  it("is its own test, which explain names; another page is not", async () => {
    temp = makeProject(files);
    const project = openProject(temp.root);
    const selection = await selectRelated(project, ["README.md", "CHANGELOG.md"], {
      write: false,
    });
    expect(selection.related.get("README.md")).toEqual([
      {
        path: "README.md",
        evidence: "self",
        detail: "pytest runs its examples as doctests",
        hops: 0,
      },
    ]);
    expect(selection.related.get("CHANGELOG.md")).toBeUndefined();
    expect(inspectEdit(project, "README.md").runOnly).toBe(true);
  });
});

describe("files a test loads by listing their folder (js-yaml's test/issues/, test/samples-common/)", () => {
  const files = {
    "package.json": JSON.stringify({ scripts: { test: "npm run lint && mocha" } }),
    "index.js": "module.exports.load = require('./lib/loader').load;\n",
    "lib/loader.js": "exports.load = (s) => s;\n",
    "lib/snippet.js": "module.exports = (s) => s;\n",
    "test/00-units.js":
      "var path = require('path');\nvar fs = require('fs');\ndescribe('Units', function () {\n  var directory = path.resolve(__dirname, 'units');\n  fs.readdirSync(directory).forEach(function (file) {\n    require(path.resolve(directory, file));\n  });\n});\n",
    "test/units/snippet.js":
      "var snippet = require('../../lib/snippet');\nit('snippet', function () {\n  snippet('x');\n});\n",
    "test/10-loader.js":
      "var fs = require('fs');\nvar path = require('path');\nvar yaml = require('../');\ndescribe('Loader', function () {\n  var samplesDir = path.resolve(__dirname, 'samples-common');\n  fs.readdirSync(samplesDir).forEach(function (name) {\n    it(name, function () { yaml.load(fs.readFileSync(path.join(samplesDir, name), 'utf8')); });\n  });\n});\n",
    "test/samples-common/construct-int.js": "module.exports = { a: 1 };\n",
    "test/samples-common/construct-int.yml": "a: 1\n",
    "test/30-issues.js":
      "var path = require('path');\nvar fs = require('fs');\ndescribe('Issues', function () {\n  var issues = path.resolve(__dirname, 'issues');\n  fs.readdirSync(issues).forEach(function (file) {\n    require(path.resolve(issues, file));\n  });\n});\n",
    "test/issues/0093.js":
      "var yaml = require('../../');\nit('0093', function () {\n  yaml.load('a');\n});\n",
    "test/40-other.js":
      "var samples = 'issues';\nit('names a folder it never lists', function () {});\n",
  };

  it("is run by the test that lists its folder, edited or reached through what it imports", async () => {
    temp = makeProject(files);
    const selection = await selectRelated(
      openProject(temp.root),
      ["test/issues/0093.js", "test/samples-common/construct-int.yml", "lib/snippet.js"],
      { write: false },
    );
    const paths = (file: string): string[] =>
      (selection.related.get(file) ?? []).map((test) => test.path);
    expect(paths("test/issues/0093.js")).toEqual(["test/30-issues.js"]);
    expect(selection.related.get("test/issues/0093.js")?.[0]?.detail).toBe("runs with 0093.js");
    expect(paths("test/samples-common/construct-int.yml")).toEqual(["test/10-loader.js"]);
    expect(paths("lib/snippet.js")).toEqual(["test/00-units.js"]);
  });

  it("reaches the listing test through the package, and no test that only names the folder", async () => {
    temp = makeProject(files);
    const selection = await selectRelated(openProject(temp.root), ["lib/loader.js"], {
      write: false,
    });
    const paths = (selection.related.get("lib/loader.js") ?? []).map((test) => test.path);
    expect(paths).toContain("test/10-loader.js");
    expect(paths).toContain("test/30-issues.js");
    expect(paths).not.toContain("test/40-other.js");
  });
});

describe("a jest snapshot file", () => {
  const files = {
    "package.json": JSON.stringify({ scripts: { test: "jest" } }),
    "jest.config.js": "module.exports = { testMatch: ['**/__tests__/**/*.test.js'] };\n",
    "src/values.js": "export const values = (x) => x;\n",
    "src/__tests__/values.test.js":
      "import { values } from '../values';\ntest('values', () => { expect(values(1)).toMatchSnapshot(); });\n",
    "src/__tests__/__snapshots__/values.test.js.snap":
      "// Jest Snapshot v1\n\nexports[`values 1`] = `1`;\n",
  };

  it("is run by the test that writes it", async () => {
    temp = makeProject(files);
    const file = "src/__tests__/__snapshots__/values.test.js.snap";
    const selection = await selectRelated(openProject(temp.root), [file], { write: false });
    expect(selection.related.get(file)).toEqual([
      {
        path: "src/__tests__/values.test.js",
        evidence: "name",
        detail: "its snapshot file",
        hops: 0,
      },
    ]);
  });
});

describe("a flat module whose pytest options are in a hidden .pytest.ini", () => {
  // r1chardj0n3s/parse: parse.py at the root, `.pytest.ini` (pytest's config, read before
  // pyproject.toml) adds --doctest-modules --doctest-glob=README.rst; a Result's repr is checked by
  // the README's examples alone.
  const files = {
    ".pytest.ini": "[pytest]\naddopts = --doctest-modules --doctest-glob=README.rst\n",
    "pyproject.toml": '[project]\nname = "parse"\n\n[tool.setuptools]\npy-modules = ["parse"]\n',
    "parse.py":
      'def parse(f, s):\n    """\n    >>> parse("{}", "a")\n    \'a\'\n    """\n    return s\n',
    "README.rst": ">>> from parse import *\n>>> parse('{}', 'a')\n'a'\n",
    "tests/requirements.txt": "pytest\n",
    "tests/test_findall.py": "import parse\n\n\ndef test_x():\n    assert parse.parse\n",
  };

  it("runs the module's own doctests and the README's", async () => {
    temp = makeProject(files);
    const related = (
      await selectRelated(openProject(temp.root), ["parse.py"], { write: false })
    ).related
      .get("parse.py")
      ?.map((test) => test.path);
    expect(related).toContain("parse.py");
    expect(related).toContain("README.rst");
    expect(related).toContain("tests/test_findall.py");
  });
});

describe("data files a conftest.py lists for its fixtures (hpack's tests/test_fixtures/)", () => {
  // python-hyper/hpack: conftest.py lists tests/test_fixtures/<implementation>/ (a path from the
  // checkout's root) and parametrizes a fixture over the JSON stories; the integration test only
  // asks for the fixture.
  const files = {
    "pyproject.toml": '[project]\nname = "hp"\n',
    "src/hp/__init__.py": "def decode(data):\n    return data\n",
    "tests/conftest.py":
      "import json\nimport os\n\nimport pytest\n\nstory_files = [\n    os.path.join('tests/test_fixtures', d, name)\n    for d in os.listdir('tests/test_fixtures')\n    for name in os.listdir(os.path.join('tests/test_fixtures', d))\n]\n\n\n@pytest.fixture(params=story_files)\ndef story(request):\n    with open(request.param) as f:\n        return json.load(f)\n",
    "tests/test_integration.py":
      "from hp import decode\n\n\ndef test_story(story):\n    assert decode(story)\n",
    "tests/test_fixtures/nghttp2/story_00.json": '{"cases": []}\n',
    "other/conftest.py": "import os\nfiles = os.listdir('tests/test_fixtures')\n",
    "other/test_other.py": "def test_other():\n    assert True\n",
  };

  it("runs the tests the conftest.py that lists their folder reaches", async () => {
    temp = makeProject(files);
    const file = "tests/test_fixtures/nghttp2/story_00.json";
    const selection = await selectRelated(openProject(temp.root), [file], { write: false });
    expect(selection.related.get(file)).toEqual([
      {
        path: "tests/test_integration.py",
        evidence: "mentions",
        detail: "runs with tests/conftest.py, which lists tests/test_fixtures/",
        hops: 0,
      },
    ]);
  });
});

describe("a data file a conftest.py fixture opens by name (a pandas project's tests/data/)", () => {
  // A conftest's `datapath` fixture is the test folder's `data/`; another fixture reads
  // `Path(datapath, "frame_good.csv")` with pandas; the tests ask only for the fixtures.
  const files = {
    "pyproject.toml": '[project]\nname = "frames"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n',
    "frames/__init__.py": "def label(row):\n    return row\n",
    "tests/__init__.py": "",
    "tests/conftest.py":
      'from pathlib import Path\n\nimport pytest\n\n_cases = [{"csv_in": "conv_good.csv", "csv_out": "frame_good.csv"}]\n\n\n@pytest.fixture()\ndef datapath(request):\n    return Path(request.path.parent, "data")\n\n\n@pytest.fixture(params=_cases)\ndef good(datapath, request):\n    return Path(datapath, request.param["csv_out"]).read_text()\n',
    "tests/test_label.py":
      "from frames import label\n\n\ndef test_label(good):\n    assert label(good)\n",
    "tests/test_other.py": "def test_other():\n    assert True\n",
    "tests/data/frame_good.csv": "id,label\n1,A0-XA\n",
    "tests/data/unused.csv": "id\n1\n",
    "other/conftest.py": "FILES = ['frame_good.csv']\n",
    "other/test_elsewhere.py": "def test_elsewhere():\n    assert True\n",
  };

  it("runs the tests of the conftest above it, not another folder's naming a file so named", async () => {
    temp = makeProject(files);
    const file = "tests/data/frame_good.csv";
    const selection = await selectRelated(openProject(temp.root), [file, "tests/data/unused.csv"], {
      write: false,
    });
    const found = selection.related.get(file) ?? [];
    expect(found.map((test) => test.path).sort()).toEqual([
      "tests/test_label.py",
      "tests/test_other.py",
    ]);
    expect(found.find((test) => test.path === "tests/test_label.py")).toEqual({
      path: "tests/test_label.py",
      evidence: "mentions",
      detail: "runs with tests/conftest.py, which names frame_good",
      hops: 0,
    });
    expect(selection.related.get("tests/data/unused.csv") ?? []).toEqual([]);
  });
});

describe("a .env file settings read at import (fastapi-nano's Starlette Config)", () => {
  // app/core/config.py reads the root's .env as it is imported; the API test reaches it only
  // through app.main; a pure-function test imports nothing that reads it.
  const files = {
    "pyproject.toml": '[project]\nname = "svc"\n',
    ".env": "API_TOKEN_MINUTES=5\n",
    ".env.test": "API_TOKEN_MINUTES=1\n",
    ".env.example": "API_TOKEN_MINUTES=\n",
    "app/__init__.py": "",
    "app/core/__init__.py": "",
    "app/core/config.py":
      'from pathlib import Path\n\nfrom starlette.config import Config\n\nconfig = Config(Path(__file__).parent.parent.parent / ".env")\nMINUTES = config("API_TOKEN_MINUTES", cast=int)\n',
    "app/main.py": "from app.core import config\n\n\ndef minutes():\n    return config.MINUTES\n",
    "app/calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_api.py":
      "from app.main import minutes\n\n\ndef test_minutes():\n    assert minutes() == 5\n",
    "tests/test_calc.py":
      "from app.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    "tests/test_env.py":
      'from dotenv import dotenv_values\n\n\ndef test_test_env():\n    assert dotenv_values(".env.test")\n',
  };

  it("runs the tests of the modules that read it, and of a test that reads .env.test", async () => {
    temp = makeProject(files);
    const selection = await selectRelated(
      openProject(temp.root),
      [".env", ".env.test", ".env.example"],
      { write: false },
    );
    expect(selection.related.get(".env")).toEqual([
      {
        path: "tests/test_api.py",
        evidence: "imports-via",
        detail:
          "reads it through app/core/config.py, which it imports through the project's modules (2 hops)",
        hops: 3,
      },
    ]);
    expect(selection.related.get(".env.test")).toEqual([
      { path: "tests/test_env.py", evidence: "imports-via", detail: "reads it itself", hops: 1 },
    ]);
    expect(selection.related.get(".env.example") ?? []).toEqual([]);
  });

  it("queues an edit to it to run those tests, and none for a .env of no Python project", () => {
    temp = makeProject({ ...files, "web/.env": "PORT=3000\n", "web/package.json": "{}\n" });
    const project = openProject(temp.root);
    expect(inspectEdit(project, join(temp.root, ".env")).runOnly).toBe(true);
    expect(inspectEdit(project, join(temp.root, ".env")).verdict.language).toBe("python");
    expect(inspectEdit(project, join(temp.root, "web/.env")).runOnly).toBeUndefined();
    // Gitignored, as a .env with secrets mostly is: the settings still read it.
    temp.write(".gitignore", ".env\nweb/\n");
    const ignored = openProject(temp.root);
    expect(inspectEdit(ignored, join(temp.root, ".env")).runOnly).toBe(true);
  });
});

describe("a Jinja template of a Flask app (flaskr's flaskr/templates/)", () => {
  // pallets/flask's tutorial: the blueprints render templates by a path below templates/, the
  // templates extend base.html, and the tests reach the views only through the app's client.
  const files = {
    "pyproject.toml":
      '[project]\nname = "app"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    "app/__init__.py":
      "from flask import Flask\n\n\ndef create_app():\n    app = Flask(__name__)\n    from . import blog\n\n    app.register_blueprint(blog.bp)\n    return app\n",
    "app/blog.py":
      'from flask import Blueprint, render_template\n\nbp = Blueprint("blog", __name__)\n\n\n@bp.route("/")\ndef index():\n    return render_template("blog/index.html")\n',
    "app/auth.py": "def login():\n    return None\n",
    "app/templates/base.html": "<title>{% block title %}{% endblock %}</title>\n",
    "app/templates/blog/index.html":
      "{% extends 'base.html' %}\n{% block title %}Posts{% endblock %}\n",
    "app/templates/unused.html": "<p>never rendered</p>\n",
    "tests/conftest.py":
      "import pytest\n\nfrom app import create_app\n\n\n@pytest.fixture\ndef client():\n    return create_app().test_client()\n",
    "tests/test_blog.py":
      'from app import blog\n\n\ndef test_index(client):\n    assert b"Posts" in client.get("/").data\n',
    "tests/test_auth.py":
      "from app.auth import login\n\n\ndef test_login():\n    assert login() is None\n",
    "static/index.html": "<p>not a template</p>\n",
  };

  it("runs the tests of the modules that render it, or render a template extending it", async () => {
    temp = makeProject(files);
    const project = openProject(temp.root);
    const templates = ["app/templates/blog/index.html", "app/templates/base.html"];
    const selection = await selectRelated(project, [...templates, "app/templates/unused.html"], {
      write: false,
    });
    const paths = (file: string): string[] =>
      (selection.related.get(file) ?? []).map((test) => test.path);
    expect(selection.related.get("app/templates/blog/index.html")?.[0]).toEqual({
      path: "tests/test_blog.py",
      evidence: "imports-via",
      detail: "rendered by app/blog.py (named after blog.py)",
      hops: 1,
    });
    // conftest.py imports the app, which imports the blueprint: every test gets it.
    expect(paths("app/templates/blog/index.html")).toEqual([
      "tests/test_blog.py",
      "tests/test_auth.py",
    ]);
    expect(paths("app/templates/base.html")).toEqual(["tests/test_blog.py", "tests/test_auth.py"]);
    expect(selection.related.get("app/templates/unused.html") ?? []).toEqual([]);
    const insight = (rel: string) => inspectEdit(project, join(temp?.root ?? "", rel));
    expect(insight("app/templates/blog/index.html").runOnly).toBe(true);
    expect(insight("static/index.html").verdict.queue).toBe(false);
    expect(insight("static/index.html").runOnly).toBeUndefined();
  });
});

describe("a fastify app whose routes and plugins @fastify/autoload registers", () => {
  // fastify-cli's layout: app.js autoloads plugins/ and routes/ by folder; the tests build the
  // app through test/helper.js, which names app.js only in a path; lib/ helps a route.
  const files = {
    "package.json": JSON.stringify({
      scripts: { test: "node --test test/**/*.test.js" },
      dependencies: { fastify: "^5.0.0", "@fastify/autoload": "^6.0.0" },
    }),
    "app.js":
      "const path = require('node:path')\nconst AutoLoad = require('@fastify/autoload')\nmodule.exports = async function (fastify, opts) {\n  fastify.register(AutoLoad, { dir: path.join(__dirname, 'plugins') })\n  fastify.register(AutoLoad, { dir: path.join(__dirname, 'routes') })\n}\n",
    "plugins/store.js":
      "module.exports = async function (fastify) { fastify.decorate('store', new Map()) }\n",
    "lib/slug.js": "exports.slugify = (title) => title.toLowerCase()\n",
    "routes/todos/index.js":
      "const { slugify } = require('../../lib/slug')\nmodule.exports = async function (fastify) {\n  fastify.post('/', async (request) => slugify(request.body.title))\n}\n",
    "routes/root.js":
      "module.exports = async function (fastify) { fastify.get('/', async () => ({ root: true })) }\n",
    "test/helper.js":
      "const { build: buildApplication } = require('fastify-cli/helper')\nconst path = require('node:path')\nconst AppPath = path.join(__dirname, '..', 'app.js')\nmodule.exports = { build: (t) => buildApplication([AppPath], {}) }\n",
    "test/routes/todos.test.js":
      "const { test } = require('node:test')\nconst { build } = require('../helper')\ntest('todos', async (t) => { await build(t) })\n",
    "test/routes/root.test.js":
      "const { test } = require('node:test')\nconst { build } = require('../helper')\ntest('root', async (t) => { await build(t) })\n",
    "test/plugins/other.test.js":
      "const { test } = require('node:test')\ntest('alone', () => {})\n",
  };

  it("runs a route's tests for what it requires, and the app's tests for what it autoloads", async () => {
    temp = makeProject(files);
    const edited = ["lib/slug.js", "plugins/store.js", "app.js"];
    const selection = await selectRelated(openProject(temp.root), edited, { write: false });
    const paths = (file: string): string[] =>
      (selection.related.get(file) ?? []).map((test) => test.path).sort();
    expect(paths("lib/slug.js")).toEqual(["test/routes/todos.test.js"]);
    expect(selection.related.get("lib/slug.js")?.[0]).toMatchObject({
      evidence: "imports-via",
      detail: "through routes/todos/index.js (named after todos/)",
    });
    const app = ["test/routes/root.test.js", "test/routes/todos.test.js"];
    expect(paths("app.js")).toEqual(app);
    expect(paths("plugins/store.js")).toEqual(app);
  });

  it("runs the app's tests too for a shared plugin a test of its own imports", async () => {
    // fastify-cli's plugins/support.js: wrapped in fastify-plugin, its decorator reaches the
    // routes; its own test registers it alone, a route's test sees it only through the app.
    const plugin = "const fp = require('fastify-plugin')\n";
    temp = makeProject({
      ...files,
      "plugins/store.js": `${plugin}module.exports = fp(async function (fastify) { fastify.decorate('store', new Map()) })\n`,
      "routes/todos/index.js":
        "module.exports = async function (fastify) {\n  fastify.get('/', async () => [...fastify.store])\n}\n",
      "test/plugins/store.test.js":
        "const { test } = require('node:test')\nconst Store = require('../../plugins/store')\ntest('store', () => Store)\n",
    });
    const edited = ["plugins/store.js", "routes/todos/index.js"];
    const selection = await selectRelated(openProject(temp.root), edited, { write: false });
    const paths = (file: string): string[] =>
      (selection.related.get(file) ?? []).map((test) => test.path).sort();
    expect(paths("plugins/store.js")).toEqual([
      "test/plugins/store.test.js",
      "test/routes/root.test.js",
      "test/routes/todos.test.js",
    ]);
    // A route keeps what it registers to itself: its own test only.
    expect(paths("routes/todos/index.js")).toEqual(["test/routes/todos.test.js"]);
  });

  it("reads the helper of a TypeScript app that the test script's glob runs as a test", async () => {
    // fastify-cli's TypeScript starter: `node --test -r ts-node/register "test/**/*.ts"` takes
    // test/helper.ts for a test, and it builds `path.join(__dirname, '..', 'src', 'app.ts')`.
    temp = makeProject({
      "package.json": JSON.stringify({
        scripts: { test: 'node --test -r ts-node/register "test/**/*.ts"' },
        dependencies: { fastify: "^5.0.0", "@fastify/autoload": "^6.0.0" },
      }),
      "src/app.ts": files["app.js"].replace("require('node:path')", "require('path')"),
      "src/plugins/store.ts": files["plugins/store.js"],
      "test/helper.ts":
        "import * as path from 'node:path'\nconst helper = require('fastify-cli/helper.js')\nconst AppPath = path.join(__dirname, '..', 'src', 'app.ts')\nexport async function build () { return helper.build([AppPath], {}) }\n",
      "test/routes/root.test.ts":
        "import { test } from 'node:test'\nimport { build } from '../helper'\ntest('root', async () => { await build() })\n",
    });
    const edited = ["src/app.ts", "src/plugins/store.ts"];
    const selection = await selectRelated(openProject(temp.root), edited, { write: false });
    for (const file of edited)
      expect((selection.related.get(file) ?? []).map((test) => test.path)).toContain(
        "test/routes/root.test.ts",
      );
  });
});
