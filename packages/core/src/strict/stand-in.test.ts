import { describe, expect, it } from "vitest";
import { standInCandidates, standInReason, standInTargets } from "./stand-in.ts";

const VI =
  'import { expect, it, vi } from "vitest";\nimport * as calc from "../src/calc.js";\n\nvi.mock("../src/calc.js", async (importOriginal) => {\n  const real = await importOriginal();\n  return { ...real, ...(real.mul ? { mul: (a, b) => a * b } : {}) };\n});\n';
const PY = "import calc\n\n\ndef test_mul(monkeypatch):\n    assert calc.mul(2, 3) == 6\n";

describe("standInTargets", () => {
  it.each([
    ["vi.mock of the claimed file", "test/calc.test.js", VI, ["src/calc.js"], ["src/calc.js"]],
    [
      "jest.mock without an extension",
      "test/calc.test.js",
      'jest.mock("../src/calc", () => ({}));\n',
      ["src/calc.js", "src/other.js"],
      ["src/calc.js"],
    ],
    [
      "a TypeScript source mocked by its .js name",
      "src/calc.test.ts",
      'vi.mock("./calc.js");\n',
      ["src/calc.ts"],
      ["src/calc.ts"],
    ],
    [
      "a folder's index",
      "test/a.test.js",
      "vi.doMock('../lib')\n",
      ["lib/index.js"],
      ["lib/index.js"],
    ],
    [
      "node's mock.module",
      "test/calc.test.js",
      't.mock.module("../src/calc.js", { namedExports: {} });\n',
      ["src/calc.js"],
      ["src/calc.js"],
    ],
    [
      "monkeypatch.setattr by a dotted name",
      "tests/test_calc.py",
      PY.replace(
        "    assert",
        '    monkeypatch.setattr("calc.mul", lambda a, b: a * b, raising=False)\n    assert',
      ),
      ["calc.py"],
      ["calc.py"],
    ],
    [
      "monkeypatch.setattr on an imported module",
      "tests/test_calc.py",
      PY.replace(
        "    assert",
        "    if hasattr(calc, 'mul'):\n        monkeypatch.setattr(calc, 'mul', max)\n    assert",
      ),
      ["calc.py"],
      ["calc.py"],
    ],
    [
      "patch.object on a module imported from a package",
      "tests/test_calc.py",
      "from pkg import calc\nfrom unittest import mock\n\nwith mock.patch.object(calc, 'mul'):\n    pass\n",
      ["src/pkg/calc.py"],
      ["src/pkg/calc.py"],
    ],
    [
      "patch as a decorator",
      "tests/test_calc.py",
      "from unittest.mock import patch\n\n@patch('pkg.calc.mul', max)\ndef test_mul():\n    pass\n",
      ["pkg/calc/__init__.py"],
      ["pkg/calc/__init__.py"],
    ],
    [
      "sys.modules replaced",
      "tests/test_calc.py",
      'import sys\nsys.modules["calc"] = object()\n',
      ["calc.py"],
      ["calc.py"],
    ],
    [
      "vi.mock(import(…))",
      "test/calc.test.js",
      'vi.mock(import("../src/calc.js"), async (importOriginal) => ({}));\n',
      ["src/calc.js"],
      ["src/calc.js"],
    ],
    [
      "an alias no package can have, unresolved",
      "test/calc.test.ts",
      'vi.mock("@/calc", () => ({}));\nvi.mock("~/lib/other.js");\n',
      ["src/calc.ts", "src/lib/other.ts", "src/lib/third.ts"],
      ["src/calc.ts", "src/lib/other.ts"],
    ],
    [
      "a spy on the module's export",
      "test/calc.test.js",
      'const calc = require("../src/calc");\nif (calc.mul) jest.spyOn(calc, "mul").mockImplementation((a, b) => a * b);\n',
      ["src/calc.js"],
      ["src/calc.js"],
    ],
    [
      "a spy on a namespace import's export, and node's mock.method",
      "test/calc.test.js",
      'import * as calc from "../src/calc.js";\nimport shapes from "../src/shapes.js";\nconst spy = vi.spyOn(calc, "mul");\nspy.mockReturnValue(6);\nt.mock.method(shapes.prototype, "area", () => 1);\n',
      ["src/calc.js", "src/shapes.js"],
      ["src/calc.js", "src/shapes.js"],
    ],
    [
      "the export assigned, defined or given by Object.assign",
      "test/calc.test.js",
      'const calc = require("../src/calc");\nconst other = require("../src/other");\ncalc.mul = (a, b) => a * b;\nObject.assign(other, { f: () => 1 });\n',
      ["src/calc.js", "src/other.js"],
      ["src/calc.js", "src/other.js"],
    ],
    [
      "a named import assigned",
      "test/calc.test.js",
      'let { mul } = require("../src/calc");\nimport { add as plus } from "../src/other.js";\nif (mul) mul = (a, b) => a * b;\n',
      ["src/calc.js", "src/other.js"],
      ["src/calc.js"],
    ],
    [
      "a module's attribute assigned or set without monkeypatch",
      "tests/test_calc.py",
      "import calc\nfrom pkg import shapes\n\n\ndef test_mul():\n    if hasattr(calc, 'mul'):\n        calc.mul = lambda a, b: a * b\n    setattr(shapes, 'area', max)\n",
      ["calc.py", "pkg/shapes.py"],
      ["calc.py", "pkg/shapes.py"],
    ],
    [
      "jest.replaceProperty, rewire's __set__, require.cache, td.replace",
      "test/calc.test.js",
      'const calc = require("../src/calc");\nconst rewire = require("rewire");\nconst shapes = rewire("../src/shapes");\njest.replaceProperty(calc, "mul", (a, b) => a * b);\nshapes.__set__("area", () => 1);\nrequire.cache[require.resolve("../src/log")] = { exports: {} };\ntd.replace("../src/net");\n',
      ["src/calc.js", "src/log.js", "src/net.js", "src/shapes.js", "src/other.js"],
      ["src/calc.js", "src/log.js", "src/net.js", "src/shapes.js"],
    ],
    // The twenty-fifth round: a mock of the proved file that keeps it real and replaces only an
    // export the test never reads is no stand-in; one that replaces what it reads still is.
    [
      "another export mocked, the real module kept (vitest)",
      "test/calc.test.js",
      'import { convert } from "../src/calc.js";\nvi.mock("../src/calc.js", async (importOriginal) => ({\n  ...(await importOriginal()),\n  fetchRate: vi.fn(() => 2),\n}));\nit("converts", () => expect(convert(3)).toBe(6));\n',
      ["src/calc.js"],
      [],
    ],
    [
      "another export mocked through vi.mock(import(…)) and importActual",
      "test/calc.test.ts",
      'import * as calc from "../src/calc";\nvi.mock(import("../src/calc"), async () => {\n  const real = await vi.importActual("../src/calc");\n  return { ...real, log: vi.fn() };\n});\nexpect(calc.convert(3)).toBe(6);\n',
      ["src/calc.ts"],
      [],
    ],
    [
      "another export mocked with jest.requireActual",
      "test/calc.test.js",
      'const { convert } = require("../src/calc");\njest.mock("../src/calc", () => ({ ...jest.requireActual("../src/calc"), log: jest.fn() }));\n',
      ["src/calc.js"],
      [],
    ],
    [
      "the export the test reads replaced beside the real module",
      "test/calc.test.js",
      'import { mul } from "../src/calc.js";\nvi.mock("../src/calc.js", async (importOriginal) => ({ ...(await importOriginal()), mul: (a, b) => a * b }));\n',
      ["src/calc.js"],
      ["src/calc.js"],
    ],
    [
      "a namespace's export read and replaced",
      "test/calc.test.js",
      'import * as calc from "../src/calc.js";\nvi.mock("../src/calc.js", async (orig) => ({ ...(await orig()), mul: vi.fn() }));\nexpect(calc.mul(2, 3)).toBe(6);\n',
      ["src/calc.js"],
      ["src/calc.js"],
    ],
    [
      "a namespace passed whole, so any export may be read",
      "test/calc.test.js",
      'import * as calc from "../src/calc.js";\nvi.mock("../src/calc.js", async (orig) => ({ ...(await orig()), log: vi.fn() }));\nconst { mul } = calc;\n',
      ["src/calc.js"],
      ["src/calc.js"],
    ],
    [
      "another export mocked while the test runs other project code that may call it",
      "test/app.test.js",
      'import { helper } from "../src/calc.js";\nimport { total } from "../src/app.js";\nvi.mock("../src/calc.js", async (orig) => ({ ...(await orig()), mul: (a, b) => a * b }));\n',
      ["src/calc.js"],
      ["src/calc.js"],
    ],
    [
      "a computed key in the factory",
      "test/calc.test.js",
      'import { mul } from "../src/calc.js";\nvi.mock("../src/calc.js", async (orig) => ({ ...(await orig()), ["m" + "ul"]: vi.fn() }));\n',
      ["src/calc.js"],
      ["src/calc.js"],
    ],
    [
      "the whole module mocked (no factory keeps it real)",
      "test/calc.test.js",
      'import { convert } from "../src/calc.js";\nvi.mock("../src/calc.js", () => ({ fetchRate: vi.fn() }));\n',
      ["src/calc.js"],
      ["src/calc.js"],
    ],
    // The twenty-fifth round: a specifier computed from pieces the text holds, and the maps of
    // proxyquire and esmock.
    [
      "jest.mock(path.join(__dirname, …))",
      "test/calc.test.js",
      'const path = require("path");\njest.mock(path.join(__dirname, "..", "src", "calc"), () => ({ mul: (a, b) => a * b }));\n',
      ["src/calc.js", "src/other.js"],
      ["src/calc.js"],
    ],
    [
      "a template string and a concatenation",
      "test/calc.test.js",
      'const name = "ca" + "lc";\nvi.mock(`../src/${name}.js`, () => ({}));\nvi.doMock(`../src/${"oth"}er.js`);\n',
      ["src/calc.js", "src/other.js", "src/third.js"],
      ["src/calc.js", "src/other.js"],
    ],
    [
      "a variable holding the path",
      "test/calc.test.js",
      'const target = "../src/calc.js";\njest.doMock(target, () => ({}));\n',
      ["src/calc.js"],
      ["src/calc.js"],
    ],
    [
      "td.replaceEsm and node's mock.module by a computed path",
      "test/calc.test.js",
      'await td.replaceEsm(new URL("../src/calc.js", import.meta.url).pathname);\nt.mock.module(resolve("src", "shapes.js"));\n',
      ["src/calc.js", "src/shapes.js"],
      ["src/calc.js", "src/shapes.js"],
    ],
    [
      "proxyquire's map (keys from the loaded module) and esmock's (from the test)",
      "test/app.test.js",
      'const app = proxyquire("../src/app", { "./calc": { mul: (a, b) => a * b } });\nconst b = await esmock("../src/b.js", {\n  "../src/shapes.js": { area: () => 1 },\n});\n',
      ["src/calc.js", "src/shapes.js", "src/app.js"],
      ["src/calc.js", "src/shapes.js"],
    ],
    [
      "not a stand-in: a computed mock of another file",
      "__tests__/getOptions.test.js",
      "const rootPackageJsonMock = path.join(rootPath, '/package.json');\njest.doMock(rootPackageJsonMock, () => ({}), { virtual: true });\nconst stub = proxyquire('../lib/getOptions', { fs: {} });\n",
      ["lib/getOptions.js"],
      [],
    ],
  ])("%s", (_name, testFile, text, targets, found) => {
    expect(standInTargets(testFile, text, targets)).toEqual(found);
  });

  it("resolves a specifier that is not a path with the caller's resolver", () => {
    const text = 'vi.mock("#calc", () => ({}));\njest.mock("calc/calc");\nvi.mock("#log");\n';
    const resolve = (from: string, specifier: string) => {
      expect(from).toBe("test/calc.test.js");
      return { "#calc": "src/calc.js", "calc/calc": "src/calc.js", "#log": "src/log.js" }[
        specifier
      ];
    };
    expect(standInTargets("test/calc.test.js", text, ["src/calc.js"], resolve)).toEqual([
      "src/calc.js",
    ]);
    // Resolved elsewhere, an alias-like name is not read by its tail.
    expect(
      standInTargets("test/calc.test.js", 'vi.mock("#calc");\n', ["src/calc.js"], () => "x.js"),
    ).toEqual([]);
  });

  it.each([
    [
      "a mock of something the claim does not change",
      "test/calc.test.js",
      'vi.mock("../src/net.js");\n',
      ["src/calc.js"],
    ],
    [
      "a package mocked",
      "test/calc.test.js",
      'vi.mock("node:fs");\njest.mock("axios");\n',
      ["src/calc.js"],
    ],
    ["a commented mock", "test/calc.test.js", '// vi.mock("../src/calc.js");\n', ["src/calc.js"]],
    ["a test that only calls the code", "tests/test_calc.py", PY, ["calc.py"]],
    [
      "a patch of another module",
      "tests/test_calc.py",
      "import requests\n\n\ndef test_x(monkeypatch):\n    monkeypatch.setattr(requests, 'get', None)\n    monkeypatch.setattr('calc.time.time', lambda: 0)\n",
      ["calc.py"],
    ],
    ["a file of another language", "tests/calc_test.rb", 'vi.mock("../calc")', ["calc.rb"]],
    [
      "a Python test's own objects, a keyword argument, a class of the module",
      "tests/test_calc.py",
      "import calc\nfrom calc import Calc, scale\n\n\ndef test_x():\n    box = calc.Box()\n    box.size = 3\n    Calc.unit = 2\n    result = calc.total(\n        scale=2,\n    )\n    assert calc.mul(2, 3) == 6\n",
      ["calc.py"],
    ],
    [
      "a name imported shadowed in a nested scope, a local named like an imported module",
      "test/axe.test.js",
      'import { configureAxe, axe } from "../src/index";\nimport { State } from "../src/index";\nit("x", () => {\n  const axe = configureAxe({});\n  const state: State = {};\n});\n',
      ["src/index.js"],
    ],
    [
      "a local named like an imported module, a doctest dunder",
      "tests/test_parse.py",
      "import toolz\nfrom sqlparse import sql\n\ntoolz.__test__ = {}\n\n\ndef test_x():\n    sql = 'select 1'\n",
      ["sqlparse/sql.py", "toolz/__init__.py"],
    ],
    [
      "a JSX attribute named like an import",
      "test/Button.test.tsx",
      'import { onClick } from "../src/handlers";\nrender(<Button\n  onClick={onClick}\n/>);\n',
      ["src/handlers.ts"],
    ],
    [
      "a package's subpath or scope, unresolved",
      "test/calc.test.js",
      'vi.mock("lodash/merge");\nvi.mock("@scope/calc");\n',
      ["src/merge.js", "src/calc.js"],
    ],
    [
      "spies that only watch the module's calls",
      "test/calc.test.js",
      'import * as calc from "../src/calc.js";\nconst spy = vi.spyOn(calc, "mul");\njest.spyOn(calc, "add");\nt.mock.method(calc, "sub");\ncalc.square(3);\nexpect(spy).toHaveBeenCalledWith(3, 3);\nspy.mockClear();\n',
      ["src/calc.js"],
    ],
    [
      "spies on what is not the module, and the module only called",
      "test/calc.test.js",
      'import * as calc from "../src/calc.js";\nimport { mul } from "../src/calc.js";\nimport * as log from "../src/log.js";\nconst spy = vi.spyOn(console, "log");\nvi.spyOn(log, "write");\nconst product = mul(2, 3);\nexpect(calc.mul(2, 3) === 6).toBe(true);\nexpect(calc.mul).toBeDefined();\nconst mulled = (mul) => mul;\n',
      ["src/calc.js"],
    ],
  ])("not a stand-in: %s", (_name, testFile, text, targets) => {
    expect(standInTargets(testFile, text, targets)).toEqual([]);
  });

  it("lists what a mock may name, for a target given as a pattern", () => {
    expect(standInCandidates("test/calc.test.js", 'vi.mock("../src/calc.js");\n')).toEqual(
      expect.arrayContaining(["src/calc.js", "src/calc.ts", "src/calc.js/index.js"]),
    );
    expect(
      standInCandidates("test/a.test.js", 'vi.mock("#calc");\nvi.mock("axios");\n', (_from, s) =>
        s === "#calc" ? "src/calc.js" : undefined,
      ),
    ).toEqual(["src/calc.js"]);
    expect(
      standInCandidates("tests/test_calc.py", 'import sys\nsys.modules["pkg.calc"] = 1\n'),
    ).toEqual([
      "pkg/calc.py",
      "src/pkg/calc.py",
      "pkg/calc/__init__.py",
      "src/pkg/calc/__init__.py",
    ]);
    expect(standInCandidates("test/calc.test.js", 'vi.spyOn(console, "log");\n')).toEqual([]);
  });

  it("names the file and the next step", () => {
    expect(standInReason("test/calc.test.js", ["src/calc.js"])).toBe(
      "test/calc.test.js mocks or patches src/calc.js itself, so its pass proves nothing of that file: test the real code (mock only what it calls), then run the test again",
    );
  });
});
