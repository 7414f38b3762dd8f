import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import type { DetectedRunner } from "./project-runners.ts";
import { suiteShape } from "../selection/suite.ts";
import { jsonArrayIn, opaqueJsConfig, packageRelative, pytestSettings } from "./config-text.ts";
import { jest } from "./jest.ts";
import { pytest } from "./pytest.ts";
import { vitest } from "./vitest.ts";

describe("opaqueJsConfig: when a JS config cannot be read as text", () => {
  const cases: [string, string, string | undefined][] = [
    [
      "literal include",
      'export default defineConfig({ test: { include: ["a/**/*.ts"] } });',
      undefined,
    ],
    ["no test keys", "export default defineConfig({ plugins: [vue()] });", undefined],
    [
      "a glob that looks like a comment",
      'export default { test: { include: ["src/**/*.test.ts", "x/**/*.spec.ts"] } };',
      undefined,
    ],
    [
      "defineConfig with an arrow",
      "export default defineConfig(({ mode }) => ({ test: {} }));",
      "c.ts exports a function",
    ],
    [
      "module.exports arrow",
      "module.exports = () => ({ testMatch: [] });",
      "c.ts exports a function",
    ],
    [
      "async function",
      "module.exports = async function () { return {}; };",
      "c.ts exports a function",
    ],
    ["projects", "export default { test: { projects: ['a', 'b'] } };", "c.ts has projects"],
    [
      "mergeConfig",
      "export default mergeConfig(base, defineConfig({}));",
      "c.ts builds on another config",
    ],
    ["spread", "module.exports = { ...base, verbose: true };", "c.ts builds on another config"],
    ["computed include", "export default { test: { include: globs } };", "c.ts computes include"],
    ["commented-out projects", "// projects: ['a']\nexport default { test: {} };", undefined],
  ];
  it.each(cases)("%s", (_name, text, expected) => {
    expect(opaqueJsConfig("c.ts", text, ["include", "testMatch"])).toBe(expected);
  });
});

describe("reading a runner's list", () => {
  it("finds the JSON array after warnings and makes paths package-relative", () => {
    const out =
      'warn: something [x]\n[\n  { "file": "/p/pkg/test/a.test.ts" },\n  { "file": "/elsewhere/b.test.ts" }\n]\n';
    expect(jsonArrayIn(out)).toHaveLength(2);
    expect(vitest.listTests?.parse(out, "/p/pkg")).toEqual(["test/a.test.ts"]);
    expect(jest.listTests?.parse('["/p/pkg/a.test.js","/p/pkg/__tests__/b.js"]', "/p/pkg")).toEqual(
      ["a.test.js", "__tests__/b.js"],
    );
    expect(jest.listTests?.parse("no list at all", "/p/pkg")).toBeUndefined();
    expect(packageRelative("./x/a.test.js", "/p")).toBe("x/a.test.js");
  });

  it("asks with the project's own command: `run` becomes `list`, its options kept", () => {
    const runner = (id: "vitest" | "jest", command: string[]): DetectedRunner => ({
      id,
      languages: ["typescript"],
      package_dir: "",
      command,
      evidence: "",
    });
    expect(
      vitest.listTests?.argv(
        runner("vitest", ["npx", "--no-install", "vitest", "run", "--project", "a"]),
      ),
    ).toEqual(["npx", "--no-install", "vitest", "list", "--filesOnly", "--json", "--project", "a"]);
    expect(jest.listTests?.argv(runner("jest", ["node_modules/.bin/jest", "--ci"]))).toEqual([
      "node_modules/.bin/jest",
      "--ci",
      "--listTests",
      "--json",
    ]);
  });

  it("the suite says a config is opaque, and which files key the cache", () => {
    const view = createMemoryView({
      "package.json": '{ "devDependencies": { "vitest": "4" } }',
      "vitest.workspace.ts": "export default ['packages/*'];",
      "vitest.config.ts": "export default {};",
    });
    const runner: DetectedRunner = {
      id: "vitest",
      languages: ["typescript"],
      package_dir: "",
      command: ["vitest", "run"],
      evidence: "",
    };
    expect(vitest.suite(view, runner).opaque).toBe("vitest.workspace.ts lists projects");
    expect(vitest.listTests?.configFiles(view, "")).toEqual([
      "vitest.config.ts",
      "vitest.workspace.ts",
      "package.json",
    ]);
    const noAnswer = suiteShape(view, runner, { note: "it did not answer" });
    expect(noAnswer.evidence).toBe("vitest defaults (*.test.*, *.spec.*); it did not answer");
    const answered = suiteShape(view, runner, { files: new Set(["t/x.ts"]), note: "listed" });
    expect([answered.isTest("t/x.ts"), answered.isTest("a.test.ts"), answered.evidence]).toEqual([
      true,
      false,
      "listed",
    ]);
  });
});

describe("pytest: a conftest.py that changes collection", () => {
  const runner: DetectedRunner = {
    id: "pytest",
    languages: ["python"],
    package_dir: "",
    command: ["python3", "-m", "pytest"],
    evidence: "",
  };
  it.each([
    [
      "def pytest_collect_file(parent, file_path):\n    pass\n",
      "conftest.py changes what pytest collects",
    ],
    ['collect_ignore = ["setup.py"]\n', "conftest.py changes what pytest collects"],
    ["import pytest\n\n@pytest.fixture\ndef db():\n    return 1\n", undefined],
  ])("%j", (conftest, expected) => {
    const view = createMemoryView({ "pytest.ini": "[pytest]\n", "conftest.py": conftest });
    expect(pytest.suite(view, runner).opaque).toBe(expected);
  });

  // python-attrs/attrs' shape: tests/conftest.py leaves a Python 3.14 test out on older Pythons.
  const ATTRS_CONFTEST =
    'collect_ignore = []\nif not PY_3_14_PLUS:\n    collect_ignore.extend(["test_forward_references.py"])\n';

  it.each([
    [{ "pyproject.toml": '[tool.pytest]\ntestpaths = ["tests"]\n' }, "tests/conftest.py"],
    [{ "pytest.ini": "[pytest]\n" }, "tests/conftest.py"],
    [{ "pytest.ini": "[pytest]\ntestpaths = checks\n" }, "checks/conftest.py"],
  ])("a test folder's conftest.py that leaves files out: %j", (config, conftest) => {
    const view = createMemoryView({ ...config, [conftest]: ATTRS_CONFTEST });
    expect(pytest.suite(view, runner).opaque).toBe(`${conftest} changes what pytest collects`);
    expect(pytest.listTests?.configFiles(view, "")).toEqual([Object.keys(config)[0], conftest]);
  });

  it("a conftest.py in a folder testpaths does not name is not read", () => {
    const view = createMemoryView({
      "pytest.ini": "[pytest]\ntestpaths = checks\n",
      "tests/conftest.py": ATTRS_CONFTEST,
      "checks/conftest.py": "import pytest\n",
    });
    expect(pytest.suite(view, runner).opaque).toBeUndefined();
  });

  it("reads node ids from --collect-only -q, and nothing from a crash", () => {
    const out =
      "tests/test_a.py::test_x\ntests/test_a.py::T::test_y\nsub/b_test.py::test_z[1]\n\n3 tests collected in 0.1s\n";
    expect(pytest.listTests?.parse(out, "/p")).toEqual([
      "tests/test_a.py",
      "tests/test_a.py",
      "sub/b_test.py",
    ]);
    expect(pytest.listTests?.parse("\nno tests collected in 0.01s\n", "/p")).toEqual([]);
    expect(pytest.listTests?.parse("Traceback (most recent call last):\n", "/p")).toBeUndefined();
  });
});

describe("vitest's test.include, not a nested block's include", () => {
  const runner: DetectedRunner = {
    id: "vitest",
    languages: ["typescript"],
    package_dir: "",
    command: ["vitest", "run"],
    evidence: "",
  };
  const cases: [string, string, string[]][] = [
    [
      "coverage.include lists the sources: the defaults stand",
      "export default defineConfig({\n  test: {\n    globals: true,\n    coverage: {\n      include: ['src/**/*'],\n      exclude: ['**/__tests__/**'],\n    },\n  },\n})\n",
      ["src/__tests__/command.test.ts"],
    ],
    [
      "an include after the coverage block is the test block's own",
      "export default { test: { coverage: { include: ['src/**'] }, include: ['checks/**/*.ts'] } };",
      ["checks/a.ts"],
    ],
    [
      "a brace inside a string or a comment does not end the block",
      "export default { test: { name: '}', /* { */ include: ['checks/**/*.ts'] } };",
      ["checks/a.ts"],
    ],
    [
      "a key of a later top-level block is not the test block's",
      "export default { test: { globals: true }, server: { include: ['src/**'] } };",
      ["src/__tests__/command.test.ts"],
    ],
  ];
  it.each(cases)("%s", (_name, text, tests) => {
    const view = createMemoryView({ "vitest.config.ts": text });
    const shape = vitest.suite(view, runner);
    const files = ["src/command.ts", "src/__tests__/command.test.ts", "checks/a.ts"];
    expect(files.filter((file) => shape.isTest(file))).toEqual(tests);
  });
});

describe("pytestSettings: the one config file pytest reads", () => {
  it.each([
    [
      "a hidden .pytest.ini",
      { ".pytest.ini": "[pytest]\naddopts = -x --doctest-modules\n" },
      ["-x", "--doctest-modules"],
    ],
    [
      "pytest.ini before pyproject.toml's table",
      {
        "pytest.ini": "[pytest]\naddopts = -x\n",
        "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-q"\n',
      },
      ["-x"],
    ],
    [
      "an empty pytest.ini still wins",
      { "pytest.ini": "", "tox.ini": "[pytest]\naddopts = -q\n" },
      undefined,
    ],
    [
      "pyproject.toml's ini-style string, split as pytest does",
      { "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-v --doctest-glob=README.md"\n' },
      ["-v", "--doctest-glob=README.md"],
    ],
    [
      "pytest 9's native [tool.pytest] array",
      { "pyproject.toml": '[tool.pytest]\naddopts = ["-v", "--doctest-modules"]\n' },
      ["-v", "--doctest-modules"],
    ],
    ["pytest.toml's [pytest]", { "pytest.toml": '[pytest]\naddopts = ["-q"]\n' }, ["-q"]],
    [
      "tox.ini's [pytest] before setup.cfg's",
      {
        "tox.ini": "[tox]\nenvlist = py\n\n[pytest]\naddopts = -x\n",
        "setup.cfg": "[tool:pytest]\naddopts = -q\n",
      },
      ["-x"],
    ],
    [
      "setup.cfg when tox.ini has no [pytest]",
      { "tox.ini": "[tox]\nenvlist = py\n", "setup.cfg": "[tool:pytest]\naddopts = -q\n" },
      ["-q"],
    ],
  ])("%s", (_, files, expected) => {
    expect(pytestSettings(createMemoryView(files), "")("addopts")).toEqual(expected);
  });
});

describe("pytestSettings", () => {
  it("finds the config file once for every key asked", () => {
    const view = createMemoryView({
      "tox.ini": "[tox]\nenvlist = py\n",
      "setup.cfg": "[tool:pytest]\naddopts = -q --doctest-modules\ntestpaths = tests src\n",
    });
    let reads = 0;
    const readText = view.readText.bind(view);
    view.readText = (path) => {
      reads += 1;
      return readText(path);
    };
    const setting = pytestSettings(view, "");
    const found = reads;
    expect(setting("addopts")).toEqual(["-q", "--doctest-modules"]);
    expect(setting("testpaths")).toEqual(["tests", "src"]);
    expect(setting("python_files")).toBeUndefined();
    expect(reads).toBe(found);
  });
});
