import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import { importedPackages, isRunnerConfigName, testSupportFiles } from "./test-support.ts";

describe("testSupportFiles", () => {
  it("takes the conftest chain, runner config, helpers and fixtures, never other tests or code", () => {
    const view = createMemoryView({
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      "pytest.ini": "[pytest]\n",
      "conftest.py": "",
      "calc.py": "x = 1\n",
      "src/app/core.py": "x = 1\n",
      "tests/conftest.py": "",
      "tests/helpers.py": "def make():\n    pass\n",
      "tests/test_other.py": "def test_x():\n    pass\n",
      "tests/fixtures/users.json": "[]\n",
      "tests/fixtures/factory.py": "x = 1\n",
      "tests/unit/conftest.py": "",
      "tests/unit/test_calc.py": "def test_add():\n    pass\n",
      "tests/unit/test_more.py": "def test_more():\n    pass\n",
      "tests/unit/builders.py": "x = 1\n",
      "tests/e2e/conftest.py": "",
      "README.md": "# x\n",
    });
    expect(testSupportFiles(view, "tests/unit/test_calc.py")).toEqual([
      "conftest.py",
      "pyproject.toml",
      "pytest.ini",
      "tests/conftest.py",
      "tests/fixtures/factory.py",
      "tests/fixtures/users.json",
      "tests/helpers.py",
      "tests/unit/builders.py",
      "tests/unit/conftest.py",
    ]);
  });

  it("a JS test's config and setup files up to the package and the root", () => {
    const view = createMemoryView({
      "package.json": "{}\n",
      "packages/web/package.json": "{}\n",
      "packages/web/vitest.config.ts": "export default {}\n",
      "packages/web/src/__tests__/setup.ts": "",
      "packages/web/src/__tests__/page.test.ts": "",
      "packages/web/src/__tests__/other.test.ts": "",
      "packages/web/src/page.ts": "",
    });
    expect(testSupportFiles(view, "packages/web/src/__tests__/page.test.ts")).toEqual([
      "package.json",
      "packages/web/package.json",
      "packages/web/src/__tests__/setup.ts",
      "packages/web/vitest.config.ts",
    ]);
  });

  it("every variant of a JS runner's config name, outranking ones included", () => {
    const view = createMemoryView({
      "package.json": "{}\n",
      ".mocharc.json": '{"spec": "test/**/*.test.js"}\n',
      // mocha reads .mocharc.jsonc before .mocharc.json; vitest reads vite.config.* without a
      // vitest.config.*; babel-jest reads either babel file.
      ".mocharc.jsonc": '{"spec": "test/**/*.test.js"}\n',
      "vite.config.cjs": "module.exports = {};\n",
      "babel.config.cts": "export default {};\n",
      ".babelrc.json": "{}\n",
      "src/calc.js": "",
      "test/calc.test.js": "",
    });
    expect(testSupportFiles(view, "test/calc.test.js")).toEqual([
      ".babelrc.json",
      ".mocharc.json",
      ".mocharc.jsonc",
      "babel.config.cts",
      "package.json",
      "vite.config.cjs",
    ]);
  });

  it("the files a runner config or the test script names, but not production code", () => {
    const view = createMemoryView({
      "package.json": JSON.stringify({
        main: "src/calc.js",
        scripts: { test: "node --require ./setup/register.cjs --test", build: "node x/build.js" },
      }),
      "x/build.js": "",
      ".mocharc.yml": "require: ./setup/mocha-hooks.js\n",
      "jest.config.js":
        'module.exports = { setupFilesAfterEnv: ["<rootDir>/setup/after-env.js"], moduleNameMapper: { "^calc$": "<rootDir>/mocks/calc.js" } };\n',
      "vitest.config.ts":
        'export default { test: { setupFiles: ["./setup/vitest.ts"] }, resolve: { alias: { "@": "./src/index.ts" } } };\n',
      "setup/register.cjs": "",
      "setup/mocha-hooks.js": "",
      "setup/after-env.js": "",
      "setup/vitest.ts": "",
      "setup/unnamed.js": "",
      "mocks/calc.js": "",
      "src/calc.js": "",
      "src/index.ts": "",
      "test/calc.test.js": "",
    });
    const patterns = { test: ["setup/", "mocks/"] };
    expect(testSupportFiles(view, "test/calc.test.js", patterns)).toEqual([
      ".mocharc.yml",
      "jest.config.js",
      "mocks/calc.js",
      "package.json",
      "setup/after-env.js",
      "setup/mocha-hooks.js",
      "setup/register.cjs",
      "setup/vitest.ts",
      "vitest.config.ts",
    ]);
  });

  it("the test's own snapshots, every file of them, not another folder's", () => {
    const view = createMemoryView({
      "package.json": "{}\n",
      "test/calc.test.js": "",
      "test/__snapshots__/calc.test.js.snap": "exports[`calc 1`] = `6`;\n",
      "test/__snapshots__/calc.output.txt": "6\n",
      "other/x.test.js": "",
      "other/__snapshots__/x.test.js.snap": "",
    });
    expect(testSupportFiles(view, "test/calc.test.js")).toEqual([
      "package.json",
      "test/__snapshots__/calc.output.txt",
      "test/__snapshots__/calc.test.js.snap",
    ]);
  });

  it("a file a config names outside the project, relative or absolute, whether it exists or not", () => {
    const view = createMemoryView({
      "package.json": "{}\n",
      "vitest.config.js":
        'export default { test: { setupFiles: ["../home/fix.js", "/opt/x/setup.js"] } };\n',
      "web/jest.config.js":
        'module.exports = { setupFiles: ["<rootDir>/../../shared/jest.js"] };\n',
      "web/test/page.test.js": "",
      "test/calc.test.js": "",
    });
    expect(testSupportFiles(view, "test/calc.test.js")).toEqual([
      "../home/fix.js",
      "/opt/x/setup.js",
      "package.json",
      "vitest.config.js",
    ]);
    expect(testSupportFiles(view, "web/test/page.test.js")).toContain("../shared/jest.js");
  });

  it("every file of a test area that is not a test, whatever its type; never production code", () => {
    const view = createMemoryView({
      "package.json": "{}\n",
      "README.md": "# x\n",
      "src/calc.js": "",
      "src/notes.txt": "",
      "test/calc.test.js": "",
      "test/other.test.js": "",
      "test/mul.txt": "6\n",
      "test/fixtures/expected.yaml": "mul: 6\n",
      "test/fixtures/deep/input.csv": "a,b\n",
      "test/cases/unnamed.txt": "",
    });
    expect(testSupportFiles(view, "test/calc.test.js")).toEqual([
      "package.json",
      "test/fixtures/deep/input.csv",
      "test/fixtures/expected.yaml",
      "test/mul.txt",
    ]);
  });

  it("the files the test's own text names, but not production code or other tests", () => {
    const view = createMemoryView({
      "package.json": "{}\n",
      "src/calc.js": "",
      "test/other.test.js": "",
      "test/cases/mul.txt": "6\n",
      "test/calc.test.js":
        'const calc = require("../src/calc.js");\nrequire("./other.test.js");\nconst data = read(join(__dirname, "cases/mul.txt"));\n',
    });
    expect(testSupportFiles(view, "test/calc.test.js")).toEqual([
      "package.json",
      "test/cases/mul.txt",
    ]);
  });

  it("a file the test names from the project's root, where it runs: not code, not a test", () => {
    const view = createMemoryView({
      "pytest.ini": "[pytest]\n",
      "calc.py": "",
      "expected.txt": "6\n",
      "data/cases.json": "[]\n",
      "tests/test_other.py": "",
      "tests/test_calc.py":
        'import calc\n\n\ndef test_mul():\n    want = open("expected.txt").read()\n    cases = open("data/cases.json")\n    open("calc.py"), open("tests/test_other.py"), open("missing.txt")\n',
    });
    expect(testSupportFiles(view, "tests/test_calc.py")).toEqual([
      "data/cases.json",
      "expected.txt",
      "pytest.ini",
    ]);
  });

  it("a snapshot resolver's snapshots: every project file named after the test", () => {
    const files = {
      "package.json": "{}\n",
      "resolver.js": "module.exports = {};\n",
      "snaps/calc.test.js.snap": "exports[`calc 1`] = `6`;\n",
      "snaps/other.test.js.snap": "",
      "node_modules/x/calc.test.js.snap": "",
      "test/calc.test.js": "",
    };
    const resolved = createMemoryView({
      ...files,
      "jest.config.js": 'module.exports = { snapshotResolver: "./resolver.js" };\n',
    });
    expect(testSupportFiles(resolved, "test/calc.test.js", { test: ["resolver.js"] })).toEqual([
      "jest.config.js",
      "package.json",
      "resolver.js",
      "snaps/calc.test.js.snap",
    ]);
    const plain = createMemoryView({ ...files, "jest.config.js": "module.exports = {};\n" });
    expect(testSupportFiles(plain, "test/calc.test.js")).toEqual([
      "jest.config.js",
      "package.json",
    ]);
  });

  it("names a runner config by every name a runner looks up, above the root too", () => {
    for (const name of [".mocharc.json", "vitest.config.mts", "package.json", "pytest.ini"])
      expect(isRunnerConfigName(name), name).toBe(true);
    for (const name of ["README.md", "calc.js", "mocharc.json"])
      expect(isRunnerConfigName(name), name).toBe(false);
  });
});

describe("importedPackages", () => {
  it("names the packages a test imports by name, not relative or node: ones", () => {
    expect(
      importedPackages(
        [
          "var request = require('supertest')",
          'import { expect } from "chai";',
          'import sinon from "sinon/pkg/sinon.js";',
          'import "@testing-library/jest-dom/vitest";',
          'const m = await import("@acme/calc/sub");',
          'import { add } from "../src/calc";',
          "const fs = require('node:fs')",
          'import { x } from "./helpers.js";',
        ].join("\n"),
      ),
    ).toEqual(["@acme/calc", "@testing-library/jest-dom", "chai", "sinon", "supertest"]);
  });
});
