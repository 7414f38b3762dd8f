import { describe, expect, it } from "vitest";
import { leavesTestsOut, weakenedLine, weakeningForms } from "./test-weakening.ts";

const PY = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n";
const JS =
  'import { add } from "./calc";\n\nit("adds", () => {\n  expect(add(2, 3)).toBe(5);\n});\n';

describe("weakeningForms", () => {
  it.each([
    [
      "a pytest skip marker",
      "t/test_a.py",
      PY,
      PY.replace("def test_add", "@pytest.mark.skip\ndef test_add"),
      ["a skip (or expected failure) added"],
    ],
    [
      "an xfail marker",
      "t/test_a.py",
      PY,
      PY.replace("def test_add", "@pytest.mark.xfail\ndef test_add"),
      ["a skip (or expected failure) added"],
    ],
    [
      "pytest.skip() in the body",
      "t/test_a.py",
      PY,
      PY.replace("    assert", "    pytest.skip('later')\n    assert"),
      ["a skip (or expected failure) added"],
    ],
    [
      "the expected value changed",
      "t/test_a.py",
      PY,
      PY.replace("== 5", "== -1"),
      ["an assertion changed"],
    ],
    [
      "the assertion removed",
      "t/test_a.py",
      PY,
      PY.replace("    assert add(2, 3) == 5", "    add(2, 3)"),
      ["an assertion removed"],
    ],
    [
      "the assertion commented out",
      "t/test_a.py",
      PY,
      PY.replace("    assert", "    # assert"),
      ["an assertion removed"],
    ],
    ["or True", "t/test_a.py", PY, PY.replace("== 5", "== 5 or True"), ["an assertion changed"]],
    [
      "assert True in its place",
      "t/test_a.py",
      PY,
      PY.replace("assert add(2, 3) == 5", "assert True"),
      ["an assertion changed", "an assertion that cannot fail added"],
    ],
    ["deleted", "t/test_a.py", PY, undefined, ["deleted"]],
    [
      "it.skip",
      "src/a.test.ts",
      JS,
      JS.replace("it(", "it.skip("),
      ["a skip (or expected failure) added"],
    ],
    ["xit", "src/a.test.ts", JS, JS.replace("it(", "xit("), ["a skip (or expected failure) added"]],
    [
      "it.fails",
      "src/a.test.ts",
      JS,
      JS.replace("it(", "it.fails("),
      ["a skip (or expected failure) added"],
    ],
    [
      "expect(true)",
      "src/a.test.ts",
      JS,
      JS.replace("expect(add(2, 3)).toBe(5)", "expect(true).toBe(true)"),
      ["an assertion changed", "an assertion that cannot fail added"],
    ],
    [
      "a weaker matcher",
      "src/a.test.ts",
      JS,
      JS.replace("toBe(5)", "toBeDefined()"),
      ["an assertion changed"],
    ],
    [
      "the expected value (js)",
      "src/a.test.ts",
      JS,
      JS.replace("toBe(5)", "toBe(-1)"),
      ["an assertion changed"],
    ],
  ])("%s", (_name, path, before, after, forms) => {
    expect(weakeningForms(path, before, after)).toEqual(forms);
  });

  it.each([
    [
      "a new test beside",
      "t/test_a.py",
      PY,
      `${PY}\n\ndef test_mul():\n    assert mul(2, 3) == 6\n`,
    ],
    ["a function renamed in a refactor", "t/test_a.py", PY, PY.replaceAll("add", "plus")],
    ["a method renamed (js)", "src/a.test.ts", JS, JS.replaceAll("add", "plus")],
    [
      "an assertion added",
      "src/a.test.ts",
      JS,
      JS.replace("});", "  expect(add(0, 0)).toBe(0);\n});"),
    ],
    ["reformatted whitespace", "t/test_a.py", PY, PY.replace("add(2, 3) == 5", "add(2,3)==5")],
    ["a file of another language", "t/test_a.rb", "assert x", ""],
  ])("not weakened: %s", (_name, path, before, after) => {
    expect(weakeningForms(path, before, after)).toEqual([]);
  });

  it("says the files and the next step", () => {
    expect(
      weakenedLine("strict", [{ path: "tests/test_calc.py", forms: ["an assertion changed"] }]),
    ).toBe(
      "tailtest strict: a test or runner config changed this turn so that fewer tests run or can fail, with no failing test declared for it: tests/test_calc.py (an assertion changed). A test is not changed to match what the code does, nor left out of the run: put it back (git checkout -- <file>) and fix the code through a claim (tailtest claim …); if the person asked for this change, say so and why in your answer.",
    );
  });
});

const VITEST =
  'import { defineConfig } from "vitest/config";\n\nexport default defineConfig({\n  test: {\n    exclude: ["node_modules/**"],\n  },\n});\n';
const INI = "[pytest]\ntestpaths = tests\n";

describe("leavesTestsOut", () => {
  it.each([
    [
      "an entry added to vitest's exclude",
      "vitest.config.ts",
      VITEST,
      VITEST.replace('"node_modules/**"', '"node_modules/**", "src/calc.test.ts"'),
      ["`exclude` added or changed"],
    ],
    [
      "passWithNoTests",
      "vitest.config.ts",
      VITEST,
      VITEST.replace("    exclude", "    passWithNoTests: true,\n    exclude"),
      ["`passWithNoTests` added or changed"],
    ],
    [
      "a new vitest config with exclude",
      "vitest.config.mjs",
      undefined,
      VITEST,
      ["`exclude` added or changed"],
    ],
    [
      "jest's testPathIgnorePatterns",
      "jest.config.js",
      "module.exports = {};\n",
      'module.exports = {\n  testPathIgnorePatterns: [\n    "calc",\n  ],\n};\n',
      ["`testPathIgnorePatterns` added or changed"],
    ],
    [
      "package.json's test script",
      "package.json",
      '{"scripts":{"test":"vitest run"}}',
      '{"scripts":{"test":"vitest run --passWithNoTests"}}',
      ["`--passWithNoTests` added or changed"],
    ],
    [
      "addopts -k",
      "pytest.ini",
      INI,
      `${INI}addopts = -k "not test_add"\n`,
      ["`-k` added or changed"],
    ],
    [
      "addopts --deselect",
      "pytest.ini",
      INI,
      `${INI}addopts = --deselect tests/test_calc.py::test_add\n`,
      ["`--deselect` added or changed"],
    ],
    [
      "a pyproject's -k changed",
      "pyproject.toml",
      '[tool.pytest.ini_options]\naddopts = "-k slow"\n',
      "[tool.pytest.ini_options]\naddopts = \"-k 'slow or add'\"\n",
      ["`-k` added or changed"],
    ],
    [
      "a conftest deselecting",
      "tests/conftest.py",
      "",
      "def pytest_collection_modifyitems(config, items):\n    items[:] = []\n",
      ["`pytest_collection_modifyitems` added or changed"],
    ],
    [
      "a conftest's collect_ignore",
      "conftest.py",
      "",
      'collect_ignore = ["tests/test_calc.py"]\n',
      ["`collect_ignore` added or changed"],
    ],
  ])("%s", (_name, path, before, after, forms) => {
    expect(leavesTestsOut(path, before, after)).toEqual(forms);
  });

  it.each([
    [
      "a plugin added to a vitest config",
      "vitest.config.ts",
      VITEST,
      VITEST.replace("  test: {", "  plugins: [],\n  test: {"),
    ],
    [
      "the same exclude reformatted",
      "vitest.config.ts",
      VITEST,
      VITEST.replace('["node_modules/**"]', '[\n      "node_modules/**",\n    ]'),
    ],
    ["testpaths in pytest.ini", "pytest.ini", INI, INI.replace("tests", "tests src")],
    [
      "a conftest fixture",
      "tests/conftest.py",
      "",
      "import pytest\n\n@pytest.fixture\ndef two():\n    return 2\n",
    ],
    ["a source file", "src/calc.ts", "", "export const exclude = 1;\n"],
    // Package names and commands that hold a word of the lists are no setting of it.
    [
      "a dependency named like a setting",
      "package.json",
      '{\n  "dependencies": {\n    "zod": "4.1.0"\n  }\n}\n',
      '{\n  "dependencies": {\n    "p-retry": "6.2.0",\n    "@x/exclude": "1.0.0",\n    "zod": "4.1.0"\n  }\n}\n',
    ],
    [
      "a tox command running pytest as a module",
      "tox.ini",
      "[tox]\nenvlist = py312\n",
      "[tox]\nenvlist = py312\n\n[testenv]\ncommands =\n    python -m pytest {posargs}\n    coverage run -m pytest\n",
    ],
  ])("not said: %s", (_name, path, before, after) => {
    expect(leavesTestsOut(path, before, after)).toEqual([]);
  });
});
