import { describe, expect, it } from "vitest";
import { standInReason, standInTargets } from "./stand-in.ts";

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
  ])("%s", (_name, testFile, text, targets, found) => {
    expect(standInTargets(testFile, text, targets)).toEqual(found);
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
  ])("not a stand-in: %s", (_name, testFile, text, targets) => {
    expect(standInTargets(testFile, text, targets)).toEqual([]);
  });

  it("names the file and the next step", () => {
    expect(standInReason("test/calc.test.js", ["src/calc.js"])).toBe(
      "test/calc.test.js mocks or patches src/calc.js itself, so its pass proves nothing of that file: test the real code (mock only what it calls), then run the test again",
    );
  });
});
