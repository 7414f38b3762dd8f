import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import {
  deletedConfigOwner,
  packageJsonRunner,
  runnerConfigOwner,
  runnerSettingsOfPackageJson,
} from "./runner-config.ts";

const CRATE = '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n';
const PYPROJECT = '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n';
const VITEST_PACKAGE =
  '{"name":"web","scripts":{"test":"vitest run"},"devDependencies":{"vitest":"^4"}}';

/** Which edited files are a runner's own config: the suite's tests run for them. */
describe("runnerConfigOwner", () => {
  it.each<[string, Record<string, string>, string, string | undefined]>([
    ["pytest.ini", { "pytest.ini": "[pytest]\n" }, "pytest.ini", "pytest@"],
    [
      "pyproject.toml with pytest's table",
      { "pyproject.toml": PYPROJECT },
      "pyproject.toml",
      "pytest@",
    ],
    [
      "pyproject.toml when pytest reads pytest.ini",
      { "pyproject.toml": PYPROJECT, "pytest.ini": "[pytest]\n" },
      "pyproject.toml",
      undefined,
    ],
    [
      "setup.cfg without [tool:pytest]",
      { "setup.cfg": "[metadata]\nname = calc\n", "pytest.ini": "[pytest]\n" },
      "setup.cfg",
      undefined,
    ],
    [
      "a package's vitest config",
      {
        "packages/web/package.json": VITEST_PACKAGE,
        "packages/web/vitest.config.ts": "export default {};\n",
      },
      "packages/web/vitest.config.ts",
      "vitest@packages/web",
    ],
    [
      "vite's config where vitest has none of its own",
      { "package.json": VITEST_PACKAGE, "vite.config.ts": "export default { test: {} };\n" },
      "vite.config.ts",
      "vitest@",
    ],
    [
      "vite's config that vitest's own merges",
      {
        "package.json": VITEST_PACKAGE,
        "vite.config.mts": "export default {};\n",
        "vitest.config.mts":
          "import viteConfig from './vite.config.mts';\nexport default mergeConfig(viteConfig, {});\n",
      },
      "vite.config.mts",
      "vitest@",
    ],
    [
      "vite's config beside a vitest config that ignores it",
      {
        "package.json": VITEST_PACKAGE,
        "vite.config.ts": "export default {};\n",
        "vitest.config.ts": "export default { test: {} };\n",
      },
      "vite.config.ts",
      undefined,
    ],
    [
      "vite's config in an app no vitest tests",
      {
        "package.json": '{"name":"app","devDependencies":{"vite":"^7"}}',
        "vite.config.ts": "export default {};\n",
      },
      "vite.config.ts",
      undefined,
    ],
    ["package.json", { "package.json": VITEST_PACKAGE }, "package.json", undefined],
    [
      "a jest config where vitest runs the tests",
      { "package.json": VITEST_PACKAGE, "jest.config.js": "module.exports = {};\n" },
      "jest.config.js",
      undefined,
    ],
    [
      "a file that is no config",
      { "pytest.ini": "[pytest]\n", "README.md": "x\n" },
      "README.md",
      undefined,
    ],
    ["a config that is not there", { "pyproject.toml": PYPROJECT }, "pytest.ini", undefined],
    [
      "tox.ini's [pytest]",
      { "tox.ini": "[tox]\nenvlist = py3\n\n[pytest]\ntestpaths = testing\n" },
      "tox.ini",
      "pytest@",
    ],
    [
      "setup.cfg's [tool:pytest]",
      { "setup.cfg": "[metadata]\nname = calc\n\n[tool:pytest]\ntestpaths = tests\n" },
      "setup.cfg",
      "pytest@",
    ],
    ["a crate's Cargo.toml", { "Cargo.toml": CRATE }, "Cargo.toml", "cargo@"],
    [
      "a workspace member's Cargo.toml",
      { "Cargo.toml": '[workspace]\nmembers = ["crates/a"]\n', "crates/a/Cargo.toml": CRATE },
      "crates/a/Cargo.toml",
      "cargo@crates/a",
    ],
    [
      "Cargo.toml where nextest runs the tests",
      { "Cargo.toml": CRATE, ".config/nextest.toml": "[profile.default]\n" },
      "Cargo.toml",
      "nextest@",
    ],
    ["go.mod", { "go.mod": "module example.com/calc\n\ngo 1.22\n" }, "go.mod", "go@"],
    [
      "a unittest project's setup.cfg (unittest reads no file)",
      { "setup.cfg": "[metadata]\nname = calc\n", "tests/__init__.py": "" },
      "setup.cfg",
      undefined,
    ],
  ])("%s", (_, files, path, expected) => {
    const owner = runnerConfigOwner(createMemoryView(files), path);
    expect(owner === undefined ? undefined : `${owner.id}@${owner.package_dir}`).toBe(expected);
  });
});

const JEST_PACKAGE = '{"name":"api","scripts":{"test":"jest"},"devDependencies":{"jest":"^30"}}';
const MOCHA_PACKAGE = '{"name":"lib","scripts":{"test":"mocha"},"devDependencies":{"mocha":"^11"}}';
const PYTEST_PYPROJECT = '[project]\nname = "calc"\ndependencies = ["pytest"]\n';

/** Which deleted files were a runner's own config: the suite runs by what is left. */
describe("deletedConfigOwner", () => {
  it.each<[string, Record<string, string>, string, string | undefined, string | undefined]>([
    ["jest.config.js", { "package.json": JEST_PACKAGE }, "jest.config.js", "", "jest@"],
    [".mocharc.yml", { "package.json": MOCHA_PACKAGE }, ".mocharc.yml", undefined, "mocha@"],
    [
      "pytest.ini, its text unknown",
      { "pyproject.toml": PYTEST_PYPROJECT },
      "pytest.ini",
      undefined,
      "pytest@",
    ],
    [
      "setup.cfg that held [tool:pytest]",
      { "pyproject.toml": PYTEST_PYPROJECT },
      "setup.cfg",
      "[tool:pytest]\ntestpaths = tests\n",
      "pytest@",
    ],
    [
      "setup.cfg that held no pytest section",
      { "pyproject.toml": PYTEST_PYPROJECT },
      "setup.cfg",
      "[metadata]\nname = calc\n",
      undefined,
    ],
    [
      "setup.cfg, its text unknown",
      { "pyproject.toml": PYTEST_PYPROJECT },
      "setup.cfg",
      undefined,
      undefined,
    ],
    [
      "tox.ini when pytest.ini is what pytest reads",
      { "pyproject.toml": PYTEST_PYPROJECT, "pytest.ini": "[pytest]\n" },
      "tox.ini",
      "[pytest]\naddopts = -q\n",
      undefined,
    ],
    [
      "a jest config where vitest runs the tests",
      { "package.json": VITEST_PACKAGE },
      "jest.config.js",
      "",
      undefined,
    ],
    ["a file that is no config", { "package.json": JEST_PACKAGE }, "src/app.js", "", undefined],
    [
      "a config still there",
      { "package.json": JEST_PACKAGE, "jest.config.js": "" },
      "jest.config.js",
      "",
      undefined,
    ],
  ])("%s", (_, files, path, before, expected) => {
    const owner = deletedConfigOwner(createMemoryView(files), path, () => before);
    expect(owner === undefined ? undefined : `${owner.id}@${owner.package_dir}`).toBe(expected);
  });
});

describe("packageJsonRunner", () => {
  it.each<[string, Record<string, string>, string, string | undefined]>([
    ["a vitest package's", { "package.json": VITEST_PACKAGE }, "package.json", "vitest@"],
    [
      "a workspace package's",
      { "packages/web/package.json": VITEST_PACKAGE },
      "packages/web/package.json",
      "vitest@packages/web",
    ],
    [
      "a Python project's",
      { "package.json": '{"name":"docs"}', "pytest.ini": "" },
      "package.json",
      undefined,
    ],
    ["no package.json", { "package.json": VITEST_PACKAGE }, "src/package.json", undefined],
    ["another file", { "package.json": VITEST_PACKAGE }, "tsconfig.json", undefined],
  ])("%s", (_, files, path, expected) => {
    const owner = packageJsonRunner(createMemoryView(files), path);
    expect(owner === undefined ? undefined : `${owner.id}@${owner.package_dir}`).toBe(expected);
  });
});

describe("runnerSettingsOfPackageJson", () => {
  const base = { name: "x", version: "1.0.0", scripts: { test: "mocha", build: "tsc" } };
  const of = (pkg: Record<string, unknown>, id: "mocha" | "jest" = "mocha") =>
    runnerSettingsOfPackageJson(JSON.stringify(pkg), id);
  it("is the same across edits no runner reads", () => {
    expect(of({ ...base, version: "2.0.0", dependencies: { a: "1" } })).toBe(of(base));
    expect(of({ ...base, scripts: { test: "mocha", build: "tsc -b" } })).toBe(of(base));
    expect(of({ ...base, jest: { bail: true } })).toBe(of(base));
  });
  it.each<[string, Record<string, unknown>]>([
    ["the runner's key", { ...base, mocha: { spec: "test/**" } }],
    ["the test script", { ...base, scripts: { test: "mocha --bail", build: "tsc" } }],
    ["a script it calls", { ...base, scripts: { test: "npm run build", build: "mocha" } }],
    ["type", { ...base, type: "module" }],
    ["imports", { ...base, imports: { "#x": "./x.js" } }],
  ])("differs when %s changes", (_, pkg) => {
    expect(of(pkg)).not.toBe(of(base));
  });
  it("is undefined for a text that is no JSON object", () => {
    expect(runnerSettingsOfPackageJson("{", "jest")).toBeUndefined();
    expect(runnerSettingsOfPackageJson("[1]", "jest")).toBeUndefined();
  });
});
