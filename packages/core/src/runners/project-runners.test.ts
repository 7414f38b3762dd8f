import { join } from "node:path";
import { FIXTURES_DIR, RUNNER_FIXTURES } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { createFsView } from "../project/node/fs-view.ts";
import { createMemoryView, memoView, type ProjectView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { renderRunnerList } from "../notes/notes.ts";
import {
  commandForTestFiles,
  detectPackageRunners,
  detectProjectRunners,
  findOwningPackage,
  findTestTarget,
  resolveRunner,
  RunnerIdSchema,
  shellCommandForTestFiles,
  type DetectedRunner,
  type TestNameMemo,
} from "./project-runners.ts";

describe("runner detection on the fixture projects", () => {
  it.each(RUNNER_FIXTURES.map((fixture) => [fixture.dir, fixture] as const))(
    "%s",
    (_dir, fixture) => {
      const view = createFsView(join(FIXTURES_DIR, "runners", fixture.dir));
      const runners = detectPackageRunners(view, "");
      expect(runners.map((runner) => runner.id)).toEqual([fixture.runner]);
      const resolution = resolveRunner(view, fixture.source, fixture.language);
      expect(resolution.runner?.id).toBe(fixture.runner);
      expect(resolution.runner?.evidence).toMatch(fixture.evidence);
      const target = findTestTarget(view, resolution.runner!, fixture.source);
      expect(target.path).toBe(fixture.test);
      expect(target.exists).toBe(true);
    },
  );

  it("every runner in the table has a fixture (swift: no toolchain here, parser samples only)", () => {
    const covered = new Set(RUNNER_FIXTURES.map((fixture) => fixture.runner));
    const uncovered = RunnerIdSchema.options.filter((id) => !covered.has(id));
    expect(uncovered).toEqual(["swift"]);
  });

  it("in a monorepo the nearest package with its own manifest owns a file", () => {
    const view = createFsView(join(FIXTURES_DIR, "runners", "monorepo"));
    expect(findOwningPackage(view, "services/billing/calc.py")).toBe("services/billing");
    expect(findOwningPackage(view, "packages/web/src/calc.ts")).toBe("packages/web");
    const py = resolveRunner(view, "services/billing/calc.py", "python");
    expect(py.runner).toMatchObject({
      id: "pytest",
      package_dir: "services/billing",
      test_dir: "tests",
    });
    expect(findTestTarget(view, py.runner!, "services/billing/calc.py")).toEqual({
      kind: "file",
      path: "services/billing/tests/test_calc.py",
      exists: true,
    });
    const ts = resolveRunner(view, "packages/web/src/calc.ts", "typescript");
    expect(ts.runner).toMatchObject({ id: "vitest", package_dir: "packages/web" });
    expect(findTestTarget(view, ts.runner!, "packages/web/src/calc.ts").path).toBe(
      "packages/web/src/calc.test.ts",
    );
    expect(detectProjectRunners(view).map((r) => `${r.id}@${r.package_dir}`)).toEqual([
      "vitest@packages/web",
      "pytest@services/billing",
    ]);
  });
});

describe("a test found by its name when it is not where the convention puts it", () => {
  it.each([
    [
      "a nested test package (pytest)",
      {
        "pyproject.toml": "[tool.pytest.ini_options]\n",
        "src/pkg/signer.py": "",
        "tests/test_pkg/__init__.py": "",
        "tests/test_pkg/test_signer.py": "",
      },
      "python",
      "src/pkg/signer.py",
      "tests/test_pkg/test_signer.py",
    ],
    [
      "a private module's test named without its underscore (vitest)",
      {
        "package.json": '{"scripts":{"test":"vitest run"}}',
        "src/_utils.ts": "",
        "test/utils.test.ts": "",
      },
      "typescript",
      "src/_utils.ts",
      "test/utils.test.ts",
    ],
    [
      "a private module's test beside it (jest)",
      {
        "package.json": '{"scripts":{"test":"jest"}}',
        "lib/_parse.js": "",
        "lib/parse.test.js": "",
      },
      "javascript",
      "lib/_parse.js",
      "lib/parse.test.js",
    ],
    [
      "a tests folder beside the sources (jest, ts-jest)",
      {
        "package.json": '{"scripts":{"test":"jest --coverage"}}',
        "jest.config.js": 'module.exports = { roots: ["<rootDir>/src"] }\n',
        "tsconfig.json": "{}",
        "src/array.ts": "",
        "src/tests/array.test.ts": "",
      },
      "typescript",
      "src/array.ts",
      "src/tests/array.test.ts",
    ],
    [
      // npm/node-semver: one module per function, each tested at the same path under test/.
      "a mirrored test tree without a .test suffix (tap)",
      {
        "package.json": '{"scripts":{"test":"tap"},"devDependencies":{"tap":"^16.0.0"}}',
        "functions/diff.js": "",
        "test/functions/diff.js": "",
      },
      "javascript",
      "functions/diff.js",
      "test/functions/diff.js",
    ],
    [
      // jshttp/negotiator: lib/<header>.js tested by test/<header>.js, mocha's default spec.
      "a flat test folder without a .test suffix (mocha)",
      {
        "package.json": '{"scripts":{"test":"mocha"},"devDependencies":{"mocha":"9"}}',
        "lib/charset.js": "",
        "test/charset.js": "",
      },
      "javascript",
      "lib/charset.js",
      "test/charset.js",
    ],
    [
      // graphql/graphql-js: `mocha src/**/__tests__/**/*-test.ts`.
      "a __tests__ folder of -test files (mocha)",
      {
        "package.json": '{"scripts":{"test":"mocha src/**/__tests__/**/*-test.ts"}}',
        "tsconfig.json": "{}",
        "src/language/blockString.ts": "",
        "src/language/__tests__/blockString-test.ts": "",
      },
      "typescript",
      "src/language/blockString.ts",
      "src/language/__tests__/blockString-test.ts",
    ],
    [
      "a test folder beside the sources (mocha)",
      {
        "package.json": '{"scripts":{"test":"mocha lib/test"}}',
        "lib/parse.js": "",
        "lib/test/parse.test.js": "",
      },
      "javascript",
      "lib/parse.js",
      "lib/test/parse.test.js",
    ],
    [
      "a workspace package's entry, tested at the root by its folder's name (lukeed/polka)",
      {
        "package.json":
          '{"scripts":{"test":"tape tests/*.js | tap-spec"},"workspaces":["packages/*"]}',
        "packages/url/package.json": '{"name":"@polka/url"}',
        "packages/url/index.js": "",
        "tests/util/index.js": "",
        "tests/polka.js": "",
        "tests/url.js": "",
      },
      "javascript",
      "packages/url/index.js",
      "tests/url.js",
    ],
    [
      "a subpath's entry beside the root's, each with its test (ai/nanoid)",
      {
        "package.json": '{"type":"module","scripts":{"test":"node --test test/*.test.js"}}',
        "index.js": "",
        "non-secure/index.js": "",
        "test/index.test.js": "",
        "test/non-secure.test.js": "",
      },
      "javascript",
      "non-secure/index.js",
      "test/non-secure.test.js",
    ],
  ] as const)("%s", (_name, files, language, source, test) => {
    const view = createMemoryView(files);
    const runner = resolveRunner(view, source, language).runner;
    expect(runner).toBeDefined();
    expect(findTestTarget(view, runner!, source)).toEqual({
      kind: "file",
      path: test,
      exists: true,
    });
  });

  it("never names a helper or the root's test for a nested entry module with no test", () => {
    // Every folder's entry is index.js: a name search for it found `tests/util/index.js`.
    const view = createMemoryView({
      "package.json": '{"scripts":{"test":"tape tests/*.js"}}',
      "index.js": "",
      "packages/send/index.js": "",
      "tests/index.js": "",
      "tests/util/index.js": "",
    });
    const runner = resolveRunner(view, "packages/send/index.js", "javascript").runner!;
    expect(findTestTarget(view, runner, "packages/send/index.js")).toMatchObject({
      exists: false,
    });
    expect(findTestTarget(view, runner, "index.js")).toMatchObject({
      path: "tests/index.js",
      exists: true,
    });
  });

  it("names the conventional path when no test has the name anywhere", () => {
    const view = createMemoryView({
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      "src/pkg/signer.py": "",
      "tests/test_pkg/test_other.py": "",
    });
    const runner = resolveRunner(view, "src/pkg/signer.py", "python").runner!;
    expect(findTestTarget(view, runner, "src/pkg/signer.py")).toMatchObject({ exists: false });
  });
});

describe("a workspace member that runs its runner by a `test:<part>` script", () => {
  // TanStack/virtual: vitest in the root's devDependencies, each package runs it by
  // `"test:lib": "vitest"` from its own folder, where its vite.config.ts sets jsdom and setup
  // files. Run from the root, every React test failed on `HTMLElement is not defined`.
  const files = {
    "package.json": JSON.stringify({
      scripts: { test: "pnpm run test:ci", "test:ci": "nx run-many --targets=test:lib" },
      workspaces: ["packages/*"],
      devDependencies: { vitest: "^4.1.4" },
    }),
    "packages/core/package.json": JSON.stringify({
      scripts: {
        "test:eslint": "eslint ./src",
        "test:lib": "vitest",
        "test:lib:dev": "pnpm run test:lib --watch",
      },
    }),
    "packages/core/vite.config.ts":
      "export default { test: { dir: './tests', environment: 'jsdom' } }",
    "packages/core/src/index.ts": "",
    "packages/core/tests/index.test.ts": "",
    "node_modules/.bin/vitest": "",
    "packages/watched/package.json": JSON.stringify({
      scripts: { "test:bench": "vitest bench", "test:watch": "vitest --watch" },
    }),
    "packages/watched/src/index.ts": "",
  };

  it("is vitest's package, run from its folder", () => {
    const view = createMemoryView(files);
    const resolution = resolveRunner(view, "packages/core/src/index.ts", "typescript");
    expect(resolution.runner).toMatchObject({
      id: "vitest",
      package_dir: "packages/core",
      command: ["../../node_modules/.bin/vitest", "run"],
    });
    expect(resolution.reason).toBe("package.json scripts.test:lib runs vitest in packages/core/");
  });

  it("is not when its only such scripts watch or benchmark: the root's runner", () => {
    const view = createMemoryView(files);
    const resolution = resolveRunner(view, "packages/watched/src/index.ts", "typescript");
    expect(resolution.runner).toMatchObject({ id: "vitest", package_dir: "" });
  });
});

describe("a sub-folder with only a requirements file", () => {
  it("is no package of its own (the docs' requirements.txt), unless it has tests", () => {
    const files = {
      "pyproject.toml": '[project]\nname = "lib"\n',
      "lib/core.py": "",
      "tests/test_core.py": "",
      "docs/requirements.txt": "sphinx\n",
      "docs/conf.py": "",
      "tools/requirements.txt": "requests\n",
      "tools/test_fetch.py": "",
    };
    expect(
      detectProjectRunners(createMemoryView(files)).map((r) => `${r.id}@${r.package_dir}`),
    ).toEqual(["unittest@", "unittest@tools"]);
  });
});

describe("a tests/ package with a setup.py of its own (wbond/asn1crypto)", () => {
  const asn1crypto = (extra: Record<string, string> = {}) => ({
    "setup.py": "from setuptools import setup\nsetup(name='asn1crypto')\n",
    "tox.ini": "[testenv]\ncommands = {envpython} run.py ci\n",
    "asn1crypto/__init__.py": "",
    "asn1crypto/util.py": "def int_to_bytes(value): ...\n",
    "tests/__init__.py": "def test_classes(): ...\n",
    // Ships the tests as asn1crypto_tests; not a project the tests run from.
    "tests/setup.py": "from setuptools import setup\nsetup(name='asn1crypto_tests')\n",
    "tests/_unittest_compat.py": "",
    "tests/test_util.py":
      "import unittest\n\nfrom asn1crypto import util\n\nfrom ._unittest_compat import patch\n",
    ...extra,
  });

  it("runs them from the root, where their relative imports resolve", () => {
    const [runner, ...others] = detectProjectRunners(createMemoryView(asn1crypto()));
    expect(others).toEqual([]);
    expect([runner?.id, runner?.package_dir, runner?.test_dir]).toEqual(["unittest", "", "tests"]);
    expect(runner?.command.slice(-5)).toEqual(["discover", "-s", "tests", "-t", "."]);
  });

  it.each<[string, Record<string, string>]>([
    ["without an __init__.py", { "tests/__init__.py": undefined as unknown as string }],
    ["with pytest's own configuration", { "tests/setup.cfg": "[tool:pytest]\n" }],
    ["with a package.json", { "tests/package.json": "{}" }],
  ])("stays a package of its own %s", (_how, extra) => {
    const files = Object.fromEntries(
      Object.entries(asn1crypto(extra)).filter(([, text]) => text !== undefined),
    );
    expect(detectProjectRunners(createMemoryView(files)).map((r) => r.package_dir)).toContain(
      "tests",
    );
  });
});

describe("a cargo-fuzz crate (dtolnay/dissimilar's fuzz/)", () => {
  const crate = (extra: Record<string, string> = {}) => ({
    "Cargo.toml": '[package]\nname = "dissimilar"\nversion = "1.0.10"\nedition = "2021"\n',
    "src/lib.rs": "mod find;\n\n#[cfg(test)]\nmod tests;\n",
    "src/find.rs": "pub fn find() {}\n",
    "src/tests.rs": "use super::*;\n\n#[test]\nfn test_find() {}\n",
    "tests/test.rs": "#[test]\nfn test_unicode() {}\n",
    // What `cargo fuzz init` writes: a registry crate, targets that are no tests.
    "fuzz/Cargo.toml":
      '[package]\nname = "dissimilar-fuzz"\npublish = false\n\n[package.metadata]\ncargo-fuzz = true\n\n[dependencies]\ndissimilar = { path = ".." }\nlibfuzzer-sys = "0.4"\n\n[[bin]]\nname = "dissimilar_diff"\npath = "fuzz_targets/dissimilar_diff.rs"\ntest = false\n\n[workspace]\n',
    "fuzz/fuzz_targets/dissimilar_diff.rs": "#![no_main]\nfuzz_target!(|data: &[u8]| {});\n",
    ...extra,
  });

  it.each<[string, Record<string, string>, string]>([
    ["cargo", {}, "cargo@"],
    ["nextest", { ".config/nextest.toml": "[profile.default]\n" }, "nextest@"],
  ])("gets no %s run of its own (the full suite would fetch libfuzzer-sys)", (_id, extra, only) => {
    expect(
      detectProjectRunners(createMemoryView(crate(extra))).map((r) => `${r.id}@${r.package_dir}`),
    ).toEqual([only]);
  });

  it("owns its fuzz targets: they resolve to no runner, not the crate they fuzz", () => {
    const view = createMemoryView(crate());
    const target = resolveRunner(view, "fuzz/fuzz_targets/dissimilar_diff.rs", "rust");
    expect(target.runner).toBeUndefined();
    expect(target.reason).toContain("fuzz/");
    expect(resolveRunner(view, "src/find.rs", "rust").runner).toMatchObject({ id: "cargo" });
  });
});

describe("a data folder's manifest (BurntSushi/toml's testdata/Cargo.toml)", () => {
  it("is no package: a testdata/ folder holds fixtures, not a project", () => {
    const files = {
      "go.mod": "module github.com/BurntSushi/toml\n\ngo 1.19\n",
      "decode.go": "package toml\n",
      "decode_test.go": "package toml\n",
      // A TOML file a benchmark decodes, which happens to be a Cargo manifest.
      "testdata/Cargo.toml": '[package]\nname = "cargo"\nversion = "0.1.0"\n',
    };
    expect(
      detectProjectRunners(createMemoryView(files)).map((r) => `${r.id}@${r.package_dir}`),
    ).toEqual(["go@"]);
  });
});

describe("pytest named by the tests alone (pypa/packaging 24.2)", () => {
  const packaging = (extra: Record<string, string> = {}) => ({
    "pyproject.toml": '[project]\nname = "packaging"\n',
    "src/packaging/utils.py": "def canonicalize_name(name): ...\n",
    "tests/__init__.py": "",
    "tests/test_utils.py": "import pytest\n\nfrom packaging.utils import canonicalize_name\n",
    ...extra,
  });
  it.each<[string, Record<string, string>, string]>([
    [
      "its requirements in tests/",
      { "tests/requirements.txt": "coverage\npytest>=6.2.0\n" },
      "tests/requirements.txt lists pytest",
    ],
    [
      "its noxfile",
      { "noxfile.py": 'session.run("pytest", *session.posargs)\n' },
      "noxfile.py runs pytest",
    ],
    ["a test file's import", {}, "tests/test_utils.py imports pytest"],
    [
      "a test function unittest would never run",
      {
        "tests/test_utils.py":
          "from packaging.utils import canonicalize_name\n\n\ndef test_x():\n    assert canonicalize_name('A') == 'a'\n",
      },
      "tests/test_utils.py has test functions (pytest's style)",
    ],
  ])("runs from the root by %s", (_how, extra, evidence) => {
    const runners = detectProjectRunners(createMemoryView(packaging(extra)));
    expect(runners.map((r) => [r.id, r.package_dir, r.evidence])).toEqual([
      ["pytest", "", evidence],
    ]);
  });

  it("stays unittest when nothing names pytest", () => {
    const view = createMemoryView(
      packaging({ "tests/test_utils.py": "import unittest\n\nclass T(unittest.TestCase): ...\n" }),
    );
    expect(detectProjectRunners(view).map((r) => r.id)).toEqual(["unittest"]);
  });
});

describe("unittest with its tests inside the package", () => {
  it("discovers from the folder tox names, so the package's test files are tests", () => {
    const view = createMemoryView({
      "setup.py": "setup()",
      "tox.ini": "[testenv]\ncommands = python -m unittest discover flakes\n",
      "flakes/__init__.py": "",
      "flakes/checker.py": "",
      "flakes/test/__init__.py": "",
      "flakes/test/harness.py": "from flakes import checker\n",
      "flakes/test/test_api.py": "from flakes.test.harness import TestCase\n",
    });
    const [runner] = detectPackageRunners(view, "");
    expect(runner?.command.slice(-5)).toEqual(["discover", "-s", "flakes", "-t", "."]);
    const shape = suiteShape(view, runner!);
    expect(shape.isTest("flakes/test/test_api.py")).toBe(true);
    expect(shape.isTest("flakes/test/harness.py")).toBe(false);
    expect(shape.isTest("flakes/checker.py")).toBe(false);
  });

  it("without a discover command, discovers from the project's folder", () => {
    const view = createMemoryView({
      "setup.py": "setup()",
      "flakes/__init__.py": "",
      "flakes/test/__init__.py": "",
      "flakes/test/test_api.py": "",
    });
    const [runner] = detectPackageRunners(view, "");
    expect(runner?.command.slice(-5)).toEqual(["discover", "-s", ".", "-t", "."]);
    expect(suiteShape(view, runner!).isTest("flakes/test/test_api.py")).toBe(true);
  });
});

describe("a package script running a JSX test through a loader (mdx-js/mdx's React package)", () => {
  const view = (script: string) =>
    createMemoryView({
      "package.json": JSON.stringify({ scripts: { test: "npm run test-api", "test-api": script } }),
      "lib/index.js": "export const x = 1\n",
      "test/index.jsx": "import {test} from 'node:test'\nimport {x} from '../lib/index.js'\n",
      "test/helper.js": "",
    });

  it("is node:test with the script's flags, and its .jsx files are tests", () => {
    const project = view(
      "node --conditions development --loader=../../script/jsx-loader.js test/index.jsx",
    );
    const [runner] = detectPackageRunners(project, "");
    expect(runner?.id).toBe("node-test");
    expect(runner?.command).toEqual([
      "node",
      "--conditions",
      "development",
      "--loader=../../script/jsx-loader.js",
      "--test",
    ]);
    const shape = suiteShape(project, runner!);
    expect(shape.isTest("test/index.jsx")).toBe(true);
    expect(shape.isTest("test/helper.js")).toBe(true);
    expect(shape.isTest("lib/index.js")).toBe(false);
  });

  it("without a loader, plain node cannot run the .jsx file: no node:test runner from it", () => {
    const [runner] = detectPackageRunners(view("node --conditions development test/index.jsx"), "");
    expect(runner?.id).not.toBe("node-test");
  });
});

describe("a node --test script with node flags (sindresorhus/p-queue: tsx loads the .ts tests)", () => {
  const runnerOf = (script: string) =>
    detectPackageRunners(
      createMemoryView({
        "package.json": JSON.stringify({ type: "module", scripts: { test: script } }),
        "tsconfig.json": "{}",
        "source/lower-bound.ts": "export default 1\n",
        "test/priority-queue.ts": "import {test} from 'node:test'\n",
      }),
      "",
    )[0];

  it.each([
    [
      "xo && node --import=tsx/esm --test test/*.ts && del-cli dist && tsc && tsd",
      ["node", "--import=tsx/esm", "--test"],
    ],
    [
      'node --test --import tsx --test-reporter=spec --test-reporter-destination=stdout "test/**/*.ts"',
      ["node", "--test", "--import", "tsx"],
    ],
    [
      "c8 node --experimental-strip-types --experimental-test-coverage --watch --test",
      ["node", "--experimental-strip-types", "--test"],
    ],
    ["node --test test/", ["node", "--test"]],
    ["node --test-only --test --test-concurrency=1 test/", ["node", "--test"]],
  ])("%s → %j", (script, command) => {
    const runner = runnerOf(script);
    expect(runner?.id).toBe("node-test");
    expect(runner?.command).toEqual(command);
  });

  it("every run loads the script's loader, and a source's named test is TypeScript", () => {
    const view = createMemoryView({
      "package.json": JSON.stringify({
        scripts: { test: "xo && node --import=tsx/esm --test test/*.ts" },
      }),
      "tsconfig.json": "{}",
      "source/queue.ts": "export const q = 1\n",
      "test/queue.ts": "import {test} from 'node:test'\n",
    });
    const runner = detectPackageRunners(view, "")[0]!;
    expect(commandForTestFiles(runner, ["test/queue.ts"])).toEqual([
      "node",
      "--import=tsx/esm",
      "--test",
      "test/queue.ts",
    ]);
    expect(suiteShape(view, runner).isTest("test/queue.ts")).toBe(true);
    expect(findTestTarget(view, runner, "source/lower-bound.ts").path).toMatch(/\.ts$/);
  });
});

describe("detection through a memoized view", () => {
  const files = {
    "package.json": JSON.stringify({
      scripts: { test: "vitest run" },
      devDependencies: { vitest: "^4.1.0" },
    }),
    "src/calc.ts": "export const add = (a: number, b: number) => a + b;\n",
    "test/calc.test.ts": "import { add } from '../src/calc';\n",
  };

  it("detects a folder once, and answers as a fresh detection does", () => {
    const inner = createMemoryView(files);
    let reads = 0;
    const view: ProjectView = {
      ...inner,
      readText: (rel) => ((reads += 1), inner.readText(rel)),
    };
    const memo = memoView(view);
    const first = resolveRunner(memo, "src/calc.ts", "typescript");
    const after = reads;
    const again = resolveRunner(memo, "src/calc.ts", "typescript");
    expect(reads).toBe(after);
    expect(again).toEqual(first);
    expect(first).toEqual(resolveRunner(createMemoryView(files), "src/calc.ts", "typescript"));
    expect(first.runner?.id).toBe("vitest");
  });

  it("keeps the answers of different overrides apart", () => {
    const memo = memoView(createMemoryView(files));
    const plain = detectPackageRunners(memo, "");
    const told = detectPackageRunners(memo, "", { javascript: { command: ["npx", "vitest"] } });
    expect(plain[0]?.command).not.toEqual(["npx", "vitest"]);
    expect(told[0]?.command).toEqual(["npx", "vitest"]);
  });
});

describe("detection rules", () => {
  it.each([
    [
      { "package.json": '{"scripts":{"test":"vitest run"},"devDependencies":{"jest":"1"}}' },
      "vitest",
    ],
    [{ "package.json": '{"scripts":{"test":"jest --ci"}}' }, "jest"],
    [{ "package.json": '{"devDependencies":{"vitest":"4"}}' }, "vitest"],
    [{ "package.json": '{"devDependencies":{"jest":"30"}}' }, "jest"],
    [{ "package.json": '{"devDependencies":{"mocha":"11"}}' }, "mocha"],
    [{ "package.json": '{"scripts":{"test":"node --test test/"}}' }, "node-test"],
    [
      {
        "package.json":
          '{"scripts":{"test":"tsc && npm run test-cov","test-cov":"c8 -- npm run test-api",' +
          '"test-api":"node --conditions development test/index.js"}}',
        "test/index.js": "import './a.js'\n",
        "test/a.js": "import test from 'node:test'\n",
      },
      "node-test",
    ],
    [{ "package.json": "{}", "bunfig.toml": "" }, "bun"],
    [{ "package.json": "{}", "vitest.config.ts": "" }, "vitest"],
    [{ "package.json": "{}", ".mocharc.yml": "" }, "mocha"],
    [{ "deno.jsonc": "{}" }, "deno"],
    [{ "deno.json": "{}", "package.json": '{"devDependencies":{"vitest":"4"}}' }, "vitest"],
    [{ "requirements.txt": "flask\npytest==8.0\n" }, "pytest"],
    [{ "requirements.txt": "flask\n" }, "unittest"],
    [{ "setup.py": "setup(tests_require=['pytest'])" }, "pytest"],
    [{ "setup.py": "setup()" }, "unittest"],
    [{ Pipfile: "[dev-packages]\npytest = '*'\n" }, "pytest"],
    [
      {
        "pyproject.toml": '[project]\ndependencies=[]\n[dependency-groups]\ndev = ["pytest>=8"]\n',
      },
      "pytest",
    ],
    [{ "pyproject.toml": "[project]\nname='x'\n", "conftest.py": "" }, "pytest"],
    [{ Gemfile: 'gem "rspec-rails"' }, "rspec"],
    [{ Gemfile: 'gem "rails"', test: "", "test/x_test.rb": "" }, "minitest"],
    [{ "composer.json": '{"require-dev":{"phpunit/phpunit":"^11"}}' }, "phpunit"],
    [{ "phpunit.xml.dist": "<phpunit/>" }, "phpunit"],
    [{ "build.gradle": "" }, "gradle"],
    [{ "App.csproj": "<Project/>" }, "dotnet"],
    [{ "global.json": "{}" }, "dotnet"],
    [{ "Package.swift": "" }, "swift"],
  ])("%j → %s", (files, expected) => {
    const runners = detectPackageRunners(createMemoryView(files), "");
    expect(runners[0]?.id).toBe(expected);
  });

  it("a test script running one file with plain node is node --test when its tests use node:test", () => {
    const files = (index: string) =>
      createMemoryView({
        "package.json":
          '{"scripts":{"test":"npm run test-api","test-api":"node -C development test/index.js"}}',
        "test/index.js": index,
        "test/a.js": "import assert from 'node:assert'\nimport test from 'node:test'\n",
        "test/b.js": "const test = require('tape')\n",
      });
    const runner = detectPackageRunners(files("import './a.js'\n"), "")[0];
    expect(runner?.id).toBe("node-test");
    expect(runner?.command).toEqual(["node", "-C", "development", "--test"]);
    // A harness of its own (tape, a script): no runner.
    expect(detectPackageRunners(files("import './b.js'\n"), "")[0]?.id).toBeUndefined();
  });

  it("a polyglot package gets one runner per language", () => {
    const view = createMemoryView({
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      "package.json": '{"devDependencies":{"vitest":"4"}}',
      "go.mod": "module x",
    });
    expect(detectPackageRunners(view, "").map((r) => r.id)).toEqual(["pytest", "vitest", "go"]);
  });

  it("uses the project's virtualenv, $VIRTUAL_ENV, then uv or poetry only when on PATH", () => {
    const venv = createMemoryView({
      "pytest.ini": "",
      ".venv/pyvenv.cfg": "",
      ".venv/bin/python": "",
    });
    expect(detectPackageRunners(venv, "")[0]?.command).toEqual([
      ".venv/bin/python",
      "-m",
      "pytest",
    ]);
    // A folder named .venv that is no virtualenv (no pyvenv.cfg) is not taken for one.
    const fake = createMemoryView({ "pytest.ini": "", ".venv/bin/python": "" });
    expect(detectPackageRunners(fake, "")[0]?.command).toEqual(["python3", "-m", "pytest"]);
    // A root venv serves a package below it, reached from the package folder.
    const nested = createMemoryView({
      ".venv/pyvenv.cfg": "",
      ".venv/bin/python": "",
      "api/pytest.ini": "",
    });
    expect(detectPackageRunners(nested, "api")[0]?.command).toEqual([
      "../.venv/bin/python",
      "-m",
      "pytest",
    ]);
    const host = (tools: string[], env: Record<string, string> = {}) => ({
      onPath: (name: string) => tools.includes(name),
      env: (name: string) => env[name],
    });
    const uvFiles = { "pytest.ini": "", "uv.lock": "" };
    const uv = { ...createMemoryView(uvFiles), host: host(["uv"]) };
    expect(detectPackageRunners(uv, "")[0]?.command).toEqual([
      "uv",
      "run",
      "python",
      "-m",
      "pytest",
    ]);
    // A lock file alone is not enough: without uv on PATH, `uv run` would fail every time.
    const noUv = { ...createMemoryView(uvFiles), host: host([]) };
    expect(detectPackageRunners(noUv, "")[0]?.command).toEqual(["python3", "-m", "pytest"]);
    const active = {
      ...createMemoryView({ "pytest.ini": "", "poetry.lock": "" }),
      host: host(["poetry"], { VIRTUAL_ENV: "/opt/env" }),
    };
    expect(detectPackageRunners(active, "")[0]?.command).toEqual([
      "/opt/env/bin/python",
      "-m",
      "pytest",
    ]);
  });

  it("uses the maven and gradle wrappers when present", () => {
    expect(
      detectPackageRunners(createMemoryView({ "pom.xml": "", mvnw: "" }), "")[0]?.command,
    ).toEqual(["./mvnw", "test"]);
    expect(
      detectPackageRunners(createMemoryView({ "build.gradle.kts": "", gradlew: "" }), "")[0]
        ?.command,
    ).toEqual(["./gradlew", "test"]);
  });

  it("config overrides replace the command and the test folder", () => {
    const view = createMemoryView({ "pytest.ini": "" });
    const [runner] = detectPackageRunners(view, "", {
      python: { command: ["uv", "run", "pytest", "-x"], test_dir: "checks" },
    });
    expect(runner).toMatchObject({ command: ["uv", "run", "pytest", "-x"], test_dir: "checks" });
    expect(runner?.evidence).toMatch(/command from config/);
  });

  it.each([
    ["tests beside the modules: the default folder is missing", { "fire/core_test.py": "" }, true],
    ["a tests/ folder", { "tests/test_core.py": "" }, undefined],
    ["a test/ folder (one of pytest's folders)", { "test/test_core.py": "" }, undefined],
  ])("says whether the runner's test folder exists: %s", (_name, files, missing) => {
    const view = createMemoryView({ "pyproject.toml": "[tool.pytest.ini_options]\n", ...files });
    const [runner] = detectPackageRunners(view, "");
    expect(runner?.test_dir).toBe(Object.keys(files)[0]?.startsWith("test/") ? "test" : "tests");
    expect(runner?.test_dir_missing).toBe(missing);
  });

  it.each([
    [
      "a src layout's package (gweis/isodate)",
      {
        "setup.py": "",
        "src/isodate/__init__.py": "",
        "src/isodate/tests/__init__.py": "",
        "src/isodate/tests/test_date.py": "",
      },
      "unittest",
      "src/isodate/tests",
    ],
    [
      "a flat package (pyflakes/test/)",
      {
        "setup.py": "",
        "pyflakes/__init__.py": "",
        "pyflakes/test/__init__.py": "",
        "pyflakes/test/test_api.py": "",
      },
      "unittest",
      "pyflakes/test",
    ],
    [
      "pytest's, in the package",
      {
        "pytest.ini": "",
        "pkg/__init__.py": "",
        "pkg/tests/__init__.py": "",
        "pkg/tests/test_a.py": "",
      },
      "pytest",
      "pkg/tests",
    ],
  ])("names the tests inside the package: %s", (_name, files, id, dir) => {
    const [runner] = detectPackageRunners(createMemoryView(files), "");
    expect(runner).toMatchObject({ id, test_dir: dir });
    expect(runner?.test_dir_missing).toBeUndefined();
    expect(renderRunnerList(runner === undefined ? [] : [runner])).toBe(
      `python: ${id} (tests in ${dir}/)`,
    );
  });

  it.each([
    [
      "a setup file only: tests beside the source",
      { "src/test/setup.ts": "", "src/hooks/useToggle.test.ts": "" },
      "javascript/typescript: vitest (tests beside the source)",
    ],
    [
      "a setup file beside a test",
      { "src/test/setup.ts": "", "src/test/App.test.tsx": "" },
      "javascript/typescript: vitest (tests in src/test/)",
    ],
    [
      "an empty test folder made for them",
      { "src/test/.gitkeep": "", "src/App.test.tsx": "" },
      "javascript/typescript: vitest (tests in src/test/)",
    ],
    [
      "a helpers folder before the tests folder",
      { "test/utils.ts": "", "src/__tests__/a.test.ts": "" },
      "javascript/typescript: vitest (tests in src/__tests__/)",
    ],
  ])("takes a test folder by the tests it holds: %s", (_name, files, said) => {
    const view = createMemoryView({
      "package.json": JSON.stringify({ devDependencies: { vitest: "4.0.0" } }),
      "vite.config.ts": "export default { test: { setupFiles: ['./src/test/setup.ts'] } }",
      ...files,
    });
    expect(renderRunnerList(detectPackageRunners(view, ""))).toBe(said);
  });

  it.each([
    [
      "npm workspaces, each package with its test/",
      { workspaces: ["packages/*"] },
      { "packages/core/test/math.test.ts": "", "packages/app/src/cart.ts": "" },
      "javascript/typescript: vitest (tests at packages/*/test/)",
    ],
    [
      "yarn's { packages }, a folder named as is",
      { workspaces: { packages: ["./tools/cli"] } },
      { "tools/cli/tests/run.test.ts": "" },
      "javascript/typescript: vitest (tests at tools/cli/tests/)",
    ],
    [
      "members whose test folders hold helpers only",
      { workspaces: ["packages/*"] },
      { "packages/core/test/setup.ts": "", "packages/core/src/a.test.ts": "" },
      "javascript/typescript: vitest (tests beside the source)",
    ],
  ])("says where a workspace root's tests are: %s", (_name, manifest, files, said) => {
    const view = createMemoryView({
      "package.json": JSON.stringify({ ...manifest, devDependencies: { vitest: "4.0.0" } }),
      ...files,
    });
    expect(renderRunnerList(detectPackageRunners(view, ""))).toBe(said);
  });

  it("a configured test folder the project lacks is missing too", () => {
    const view = createMemoryView({ "pytest.ini": "", "checks/test_a.py": "" });
    const [there] = detectPackageRunners(view, "", { python: { test_dir: "checks" } });
    const [absent] = detectPackageRunners(view, "", { python: { test_dir: "specs" } });
    expect([there?.test_dir_missing, absent?.test_dir_missing]).toEqual([undefined, true]);
  });

  it("python without any manifest falls back to unittest; other languages report no runner", () => {
    const view = createMemoryView({ "tool.py": "x = 1" });
    const py = resolveRunner(view, "tool.py", "python");
    expect(py.runner?.id).toBe("unittest");
    expect(py.reason).toMatch(/unittest/);
    const go = resolveRunner(view, "main.go", "go");
    expect(go).toEqual({ runner: undefined, reason: "no go test runner found for main.go" });
  });

  it.each([
    ["module-level test functions", { "tests/test_calc.py": "def test_add():\n    assert 1\n" }],
    ["a root conftest.py", { "conftest.py": "", "tests/test_calc.py": "" }],
    ["a test importing pytest", { "test_calc.py": "import pytest\n" }],
  ])("python without any manifest whose tests say pytest (%s) runs pytest", (_, tests) => {
    const view = createMemoryView({ "calc.py": "def add(a, b):\n    return a + b\n", ...tests });
    const py = resolveRunner(view, "calc.py", "python");
    expect(py.runner).toMatchObject({ id: "pytest", package_dir: "" });
    expect(py.reason).toMatch(/in the project root$/);
    // What the session's start lists is what a file's edit resolves to.
    expect(detectProjectRunners(view).map((r) => `${r.id}@${r.package_dir}`)).toEqual(["pytest@"]);
  });

  it("python without any manifest and TestCase classes only stays on unittest", () => {
    const view = createMemoryView({
      "calc.py": "",
      "tests/test_calc.py":
        "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n",
    });
    expect(resolveRunner(view, "calc.py", "python").runner?.id).toBe("unittest");
    expect(detectProjectRunners(view)).toEqual([]);
  });

  it("walks up past a package without a runner for the language", () => {
    const view = createMemoryView({
      "pytest.ini": "",
      "tools/gen/package.json": "{}",
      "tools/gen/helper.py": "",
    });
    expect(resolveRunner(view, "tools/gen/helper.py", "python").runner).toMatchObject({
      id: "pytest",
      package_dir: "",
    });
  });
});

describe("test paths", () => {
  const target = (
    files: Record<string, string>,
    src: string,
    language: Parameters<typeof resolveRunner>[2],
  ) => {
    const view = createMemoryView({ ...files, [src]: "x" });
    const runner = resolveRunner(view, src, language).runner!;
    return findTestTarget(view, runner, src);
  };

  it.each([
    [{ "pytest.ini": "" }, "src/billing.py", "python", "tests/test_billing.py"],
    [{ "pytest.ini": "", "test/.keep": "" }, "app/billing.py", "python", "test/test_billing.py"],
    [
      { "pytest.ini": "", "tests/services/test_billing.py": "" },
      "src/services/billing.py",
      "python",
      "tests/services/test_billing.py",
    ],
    [{ "pytest.ini": "", "billing_test.py": "" }, "billing.py", "python", "billing_test.py"],
    [{ "pytest.ini": "" }, "notebooks/report.ipynb", "python", "tests/test_report.py"],
    [
      { "package.json": '{"devDependencies":{"vitest":"4"}}', "tsconfig.json": "{}" },
      "src/util/math.ts",
      "typescript",
      "src/util/math.test.ts",
    ],
    [
      { "package.json": '{"devDependencies":{"vitest":"4"}}', "tsconfig.json": "{}" },
      "src/App.vue",
      "javascript",
      "src/App.test.ts",
    ],
    [
      { "package.json": '{"devDependencies":{"jest":"4"}}' },
      "src/a.jsx",
      "javascript",
      "src/a.test.jsx",
    ],
    [
      { "package.json": '{"devDependencies":{"jest":"4"}}', "__tests__/x.test.js": "" },
      "src/lib/a.js",
      "javascript",
      "__tests__/lib/a.test.js",
    ],
    [
      { "package.json": '{"devDependencies":{"vitest":"4"}}', "src/a.spec.ts": "" },
      "src/a.ts",
      "typescript",
      "src/a.spec.ts",
    ],
    [
      { "package.json": '{"devDependencies":{"mocha":"4"}}' },
      "lib/a.mjs",
      "javascript",
      "test/a.test.mjs",
    ],
    [{ "deno.json": "{}" }, "src/a.ts", "typescript", "src/a_test.ts"],
    [{ "go.mod": "" }, "internal/pay/charge.go", "go", "internal/pay/charge_test.go"],
    [{ Gemfile: 'gem "rspec"' }, "app/models/user.rb", "ruby", "spec/models/user_spec.rb"],
    [{ Gemfile: 'gem "minitest"' }, "lib/shop/cart.rb", "ruby", "test/shop/cart_test.rb"],
    [
      {
        "composer.json": '{"require-dev":{"phpunit/phpunit":"1"}}',
        "tests/Feature/.keep": "",
        "tests/Unit/.keep": "",
      },
      "app/Http/Controllers/PayController.php",
      "php",
      "tests/Feature/Http/Controllers/PayControllerTest.php",
    ],
    [
      { "composer.json": '{"require-dev":{"phpunit/phpunit":"1"}}', "tests/Unit/.keep": "" },
      "src/Money.php",
      "php",
      "tests/Unit/MoneyTest.php",
    ],
    [
      { "pom.xml": "" },
      "src/main/java/com/shop/Cart.java",
      "java",
      "src/test/java/com/shop/CartTest.java",
    ],
    [
      { "build.gradle.kts": "" },
      "src/main/kotlin/shop/Cart.kt",
      "kotlin",
      "src/test/kotlin/shop/CartTest.kt",
    ],
    [
      { "Shop.sln": "", "tests/Shop.Tests/Shop.Tests.csproj": "" },
      "src/Shop/Orders/Cart.cs",
      "csharp",
      "tests/Shop.Tests/Orders/CartTests.cs",
    ],
    [
      { "Package.swift": "" },
      "Sources/Shop/Cart.swift",
      "swift",
      "Tests/ShopTests/CartTests.swift",
    ],
  ])("%j: %s → %s", (files, src, language, expected) => {
    expect(target(files as Record<string, string>, src, language as never).path).toBe(expected);
  });

  it("rust tests are an inline block in the file itself", () => {
    expect(target({ "Cargo.toml": "" }, "src/parse.rs", "rust")).toEqual({
      kind: "inline",
      path: "src/parse.rs",
      exists: true,
    });
  });
});

describe("commands for single test files", () => {
  const run = (
    files: Record<string, string>,
    language: Parameters<typeof resolveRunner>[2],
    src: string,
    tests: string[],
  ) => {
    const runner = resolveRunner(createMemoryView({ ...files, [src]: "" }), src, language).runner!;
    return commandForTestFiles(runner, tests);
  };

  it.each([
    [
      { "pytest.ini": "" },
      "python",
      "a.py",
      ["tests/test_a.py"],
      ["python3", "-m", "pytest", "tests/test_a.py"],
    ],
    [
      { "setup.py": "" },
      "python",
      "a.py",
      ["tests/test_a.py"],
      ["python3", "-m", "unittest", "tests/test_a.py"],
    ],
    [
      { "package.json": '{"devDependencies":{"vitest":"4"}}' },
      "typescript",
      "a.ts",
      ["a.test.ts", "b.test.ts"],
      [
        "npx",
        "--no-install",
        "vitest",
        "run",
        "--coverage.enabled=false",
        "a.test.ts",
        "b.test.ts",
      ],
    ],
    [
      { "package.json": '{"devDependencies":{"jest":"4"}}' },
      "javascript",
      "a.js",
      ["a.test.js"],
      ["npx", "--no-install", "jest", "--coverage=false", "--runTestsByPath", "a.test.js"],
    ],
    [
      { "package.json": '{"scripts":{"test":"bun test"}}' },
      "typescript",
      "a.ts",
      ["a.test.ts"],
      ["bun", "test", "./a.test.ts"],
    ],
    [
      { "go.mod": "" },
      "go",
      "pkg/a.go",
      ["pkg/a_test.go", "pkg/b_test.go"],
      ["go", "test", "./pkg"],
    ],
    [
      { "Cargo.toml": "" },
      "rust",
      "src/a.rs",
      ["tests/api.rs"],
      ["cargo", "test", "--test", "api"],
    ],
    [
      // A module shared by the tests (tests/common/mod.rs) is no target: `--test mod` fails.
      { "Cargo.toml": "" },
      "rust",
      "src/a.rs",
      ["tests/api.rs", "tests/common/mod.rs", "tests/cli/main.rs"],
      ["cargo", "test", "--test", "api", "--test", "cli"],
    ],
    [
      { "pom.xml": "" },
      "java",
      "A.java",
      ["src/test/java/x/ATest.java"],
      ["mvn", "test", "-Dtest=ATest", "-Dsurefire.failIfNoSpecifiedTests=false"],
    ],
    [
      { "build.gradle": "" },
      "java",
      "A.java",
      ["src/test/java/x/ATest.java"],
      ["gradle", "test", "--tests", "ATest"],
    ],
    [
      { "x.csproj": "" },
      "csharp",
      "A.cs",
      ["T/ATests.cs"],
      ["dotnet", "test", "--filter", "FullyQualifiedName~ATests"],
    ],
  ])("%j %s", (files, language, src, tests, expected) => {
    expect(run(files as Record<string, string>, language as never, src, tests)).toEqual(expected);
  });

  it("runs from the owning package with package-relative paths", () => {
    const view = createMemoryView({ "svc/pytest.ini": "", "svc/a.py": "" });
    const runner = resolveRunner(view, "svc/a.py", "python").runner!;
    expect(runner.package_dir).toBe("svc");
    expect(commandForTestFiles(runner, ["svc/tests/test_a.py"])).toEqual([
      "python3",
      "-m",
      "pytest",
      "tests/test_a.py",
    ]);
  });
});

describe("the name-matched Python test follows the project's naming", () => {
  const files = { "pyproject.toml": "[tool.pytest.ini_options]\n", "tests/test_cached.py": "" };
  const view = createMemoryView(files);
  const runner = detectPackageRunners(view, "")[0]!;
  it.each([
    ["src/pkg/_cached.py", "tests/test_cached.py", true],
    ["src/pkg/_fresh.py", "tests/test_fresh.py", false],
    ["src/pkg/__init__.py", "tests/test_pkg.py", false],
  ])("%s → %s", (source, path, exists) => {
    expect(findTestTarget(view, runner, source)).toEqual({ kind: "file", path, exists });
  });
});

describe("the name search answered from a kept listing", () => {
  /** A memo in memory: what `keep` was given, answered as `test-names.ts` answers from its file. */
  const memoryMemo = () => {
    const kept = new Map<string, readonly string[]>();
    const memo: TestNameMemo & { kept: typeof kept } = {
      kept,
      first: (roots, names) => {
        const files = kept.get(roots.join("\n"));
        if (files === undefined) return undefined;
        return files.find((path) => names.has(path.slice(path.lastIndexOf("/") + 1))) ?? null;
      },
      keep: (roots, listing) =>
        void kept.set(
          roots.join("\n"),
          listing.flatMap(({ dir, files }) => files.map((name) => `${dir}/${name}`)),
        ),
    };
    return memo;
  };
  const files = {
    "pyproject.toml": "[tool.pytest.ini_options]\n",
    "tests/test_calc.py": "",
    "tests/unit/test_signer.py": "",
    "tests/unit/deep/test_signer.py": "",
    "tests/unit/deep/er/test_cache.py": "",
    "tests/unit/a.b/test_dotted.py": "",
    "tests/unit/test_box.py/keep.txt": "",
    "tests/zz/test_box.py": "",
    "tests/.hidden/test_hidden.py": "",
    "test/test_second.py": "",
  };
  const sources = [
    "src/pkg/fresh.py",
    "src/pkg/signer.py",
    "src/pkg/_cache.py",
    "src/pkg/dotted.py",
    "src/pkg/box.py",
    "src/pkg/hidden.py",
    "src/pkg/second.py",
    "calc.py",
  ];

  it("answers every file as the search on disk does, after one whole search kept its listing", () => {
    const view = createMemoryView(files);
    const runner = detectPackageRunners(view, "")[0]!;
    const memo = memoryMemo();
    expect(findTestTarget(view, runner, "src/pkg/fresh.py", memo)).toEqual({
      kind: "file",
      path: "tests/test_fresh.py",
      exists: false,
    });
    expect([...memo.kept.keys()]).toEqual(["tests\ntest"]);
    const listing = memo.kept.get("tests\ntest")!;
    // The folders gone into are not listed; a folder with a source's name is, as a file.
    expect(listing).toContain("tests/unit/deep/er/test_cache.py");
    expect(listing).toContain("tests/unit/test_box.py");
    expect(listing).not.toContain("tests/unit");
    for (const source of sources)
      expect(findTestTarget(view, runner, source, memo), source).toEqual(
        findTestTarget(view, runner, source),
      );
    expect(findTestTarget(view, runner, "src/pkg/box.py", memo).path).toBe("tests/zz/test_box.py");
  });

  it("a kept test since deleted is looked for on disk again", () => {
    const memo = memoryMemo();
    const before = createMemoryView(files);
    const runner = detectPackageRunners(before, "")[0]!;
    findTestTarget(before, runner, "src/pkg/fresh.py", memo);
    const after = createMemoryView(
      Object.fromEntries(
        Object.entries(files).filter(([path]) => path !== "tests/unit/test_signer.py"),
      ),
    );
    expect(findTestTarget(after, runner, "src/pkg/signer.py", memo).path).toBe(
      "tests/unit/deep/test_signer.py",
    );
  });

  it("a listing kept before a test was added does not know it: dropping it is the keeper's part", () => {
    const memo = memoryMemo();
    const before = createMemoryView(files);
    const runner = detectPackageRunners(before, "")[0]!;
    findTestTarget(before, runner, "src/pkg/fresh.py", memo);
    const after = createMemoryView({ ...files, "tests/unit/deep/test_fresh.py": "" });
    expect(findTestTarget(after, runner, "src/pkg/fresh.py", memo).exists).toBe(false);
    memo.kept.clear();
    expect(findTestTarget(after, runner, "src/pkg/fresh.py", memo)).toEqual({
      kind: "file",
      path: "tests/unit/deep/test_fresh.py",
      exists: true,
    });
  });

  it("in a large tree, goes into a folder named like no source, whatever folders of tests hold", () => {
    // Past 64 listed entries a folder of source names alone is told apart by one regex: a folder
    // whose name ends like a source's but is none (`.pyc`, `.py.bak`) is still gone into.
    const large = {
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      ...Object.fromEntries(
        Array.from({ length: 70 }, (_, i) => [`tests/a/test_m${i}.py`, ""] as const),
      ),
      "tests/b/Test_B.PY": "",
      "tests/b/mod.pyc/test_fresh.py": "",
      "tests/b/x.py.bak/test_other.py": "",
      "tests/c/TEST_C.Py": "",
    };
    const view = createMemoryView(large);
    const runner = detectPackageRunners(view, "")[0]!;
    const memo = memoryMemo();
    expect(findTestTarget(view, runner, "src/pkg/fresh.py", memo).path).toBe(
      "tests/b/mod.pyc/test_fresh.py",
    );
    expect(findTestTarget(view, runner, "src/pkg/other.py", memo).path).toBe(
      "tests/b/x.py.bak/test_other.py",
    );
    expect(findTestTarget(view, runner, "src/pkg/nowhere.py", memo).path).toBe(
      "tests/test_nowhere.py",
    );
    const listing = [...memo.kept.values()][0]!;
    expect(listing).toContain("tests/a/test_m69.py");
    expect(listing).toContain("tests/c/TEST_C.Py");
    expect(listing).not.toContain("tests/b/mod.pyc");
  });

  it("lists each folder it goes into as one `isDirectory` has just answered for", () => {
    // A file system view then asks no second `lstat` per folder (fs-view.ts `list`).
    const disk = createMemoryView(files);
    const unchecked: string[] = [];
    const view: ProjectView = {
      ...disk,
      list: (rel, checked) => {
        if (checked !== true) unchecked.push(rel);
        return disk.list(rel);
      },
    };
    const runner = detectPackageRunners(disk, "")[0]!;
    expect(findTestTarget(view, runner, "src/pkg/fresh.py").path).toBe("tests/test_fresh.py");
    expect(unchecked).toEqual([]);
  });

  it("a search that finds the name keeps nothing", () => {
    const memo = memoryMemo();
    const view = createMemoryView(files);
    const runner = detectPackageRunners(view, "")[0]!;
    findTestTarget(view, runner, "src/pkg/signer.py", memo);
    expect(memo.kept.size).toBe(0);
  });
});

describe("shellCommandForTestFiles: a venv's console scripts on the re-run's PATH", () => {
  const runner = (pkg: string, python: string): DetectedRunner => ({
    id: "pytest",
    languages: ["python"],
    package_dir: pkg,
    command: [python, "-m", "pytest"],
    evidence: "test",
  });
  const scripts = '[project]\nname = "greet"\n\n[project.scripts]\ngreet = "greet.cli:main"\n';

  it("puts the venv's bin/ first when the project declares console scripts", () => {
    const view = createMemoryView({ "pyproject.toml": scripts });
    expect(shellCommandForTestFiles(runner("", ".venv/bin/python"), ["tests/a.py"], view)).toBe(
      'PATH="$PWD/.venv/bin:$PATH" .venv/bin/python -m pytest tests/a.py',
    );
    const nested = createMemoryView({
      "libs/greet/setup.cfg":
        "[options.entry_points]\nconsole_scripts =\n    greet = greet.cli:main\n",
    });
    expect(
      shellCommandForTestFiles(
        runner("libs/greet", "../../.venv/bin/python"),
        ["libs/greet/tests/a.py"],
        nested,
      ),
    ).toBe(
      '(cd libs/greet && PATH="$PWD/../../.venv/bin:$PATH" ../../.venv/bin/python -m pytest tests/a.py)',
    );
  });

  it("leaves the command alone without console scripts or a project venv", () => {
    const plain = createMemoryView({ "pyproject.toml": '[project]\nname = "greet"\n' });
    expect(shellCommandForTestFiles(runner("", ".venv/bin/python"), ["tests/a.py"], plain)).toBe(
      ".venv/bin/python -m pytest tests/a.py",
    );
    const view = createMemoryView({ "pyproject.toml": scripts });
    expect(shellCommandForTestFiles(runner("", "python3"), ["tests/a.py"], view)).toBe(
      "python3 -m pytest tests/a.py",
    );
  });
});
