import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import { detectPackageRunners, type DetectedRunner } from "../runners/project-runners.ts";
import {
  listedFolder,
  mentions,
  snapshotOwner,
  comparePaths,
  mentionTokens,
  nameWord,
  relatedTests,
  subjectName,
  testSubject,
  withoutTestSuffix,
  type RelatedInput,
} from "./related.ts";
import { suggestTestPath } from "./suggest.ts";
import {
  NEVER,
  SUPPORT_NAMES,
  iniValue,
  jsConfigStrings,
  suiteShape,
  tomlStrings,
} from "./suite.ts";
import { quickTest, requiredLiterals } from "../util/literal-guard.ts";

function runnerOf(files: Record<string, string>, dir = ""): DetectedRunner {
  const runner = detectPackageRunners(createMemoryView(files), dir)[0];
  if (runner === undefined) throw new Error("no runner");
  return runner;
}

describe("withoutTestSuffix: the regex it stands for, without compiling it", () => {
  const SUFFIX = /([._-]|\b)(test|tests|spec|specs|Test|Tests|Spec)$/i;
  it.each([
    ["calc_test", "calc"],
    ["option.parse.test", "option.parse"],
    ["Button-SPEC", "Button"],
    ["user.specs", "user"],
    ["test", ""],
    ["Tests", ""],
    ["latest", "latest"],
    ["contest", "contest"],
    ["foo test", "foo "],
    ["foo__test", "foo_"],
    ["x.tests", "x"],
    ["respec", "respec"],
    ["a\u017Fpec", "a\u017Fpec"],
    ["te\u017Ft", "te\u017Ft"],
    ["é-test", "é"],
    ["étest", "é"],
    ["", ""],
  ])("%j → %j", (name, expected) => {
    expect(withoutTestSuffix(name)).toBe(expected);
    expect(name.replace(SUFFIX, "")).toBe(expected);
  });
  it("answers as the regex on random names", () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = [
      "t",
      "e",
      "s",
      "T",
      "E",
      "S",
      "p",
      "c",
      "C",
      "P",
      ".",
      "_",
      "-",
      " ",
      "x",
      "1",
      "\u017F",
      "é",
    ];
    for (let run = 0; run < 20000; run += 1) {
      const name = Array.from(
        { length: Math.floor(random() * 8) },
        () => alphabet[Math.floor(random() * alphabet.length)] ?? "",
      ).join("");
      expect(withoutTestSuffix(name), name).toBe(name.replace(SUFFIX, ""));
    }
  });
});

describe("the suite's name patterns are guarded by their own literals", () => {
  // quickTest runs them only on a path holding one of these, so most paths never compile them.
  it.each([
    [
      NEVER,
      [
        "node_modules",
        ".git",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "dist",
        "build",
        "coverage",
        "__pycache__",
        ".tailtest",
      ],
    ],
    [
      SUPPORT_NAMES,
      ["conftest.py", "__init__.py", "setup", ".setup.", "utils", "helper", "setup", "helper"],
    ],
  ])("%s needs one of %j", (pattern, literals) => {
    expect(requiredLiterals(pattern)).toEqual(literals);
  });
  it.each([
    "tests/conftest.py",
    "src/pkg/__init__.py",
    "test/setupTests.ts",
    "vitest.setup.mts",
    "Test_Helpers.js",
    "helpers.cjs",
    "HELPER.TSX",
    "node_modules/x/test_a.py",
    "a/.Git/b",
    "a/build",
    "tests/test_calc.py",
    "calc.py",
  ])("%s: the same answer as the patterns' own test", (path) => {
    const name = path.split("/").pop() ?? path;
    expect(quickTest(NEVER, path)).toBe(NEVER.test(path));
    expect(quickTest(SUPPORT_NAMES, name)).toBe(SUPPORT_NAMES.test(name));
  });
});

describe("suiteShape: the project's test files as its runner sees them", () => {
  const cases: [string, Record<string, string>, string[], string[]][] = [
    [
      "pytest defaults",
      { "pytest.ini": "[pytest]\n" },
      ["tests/test_a.py", "tests/a_test.py", "pkg/test_b.py"],
      ["tests/conftest.py", "tests/helpers.py", "src/pkg/a.py", ".venv/lib/test_x.py"],
    ],
    [
      "pytest testpaths and python_files from pyproject.toml",
      {
        "pyproject.toml":
          '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npython_files = ["check_*.py", "tests.py"]\n',
      },
      ["tests/check_a.py", "tests/app/tests.py"],
      ["tests/test_a.py", "other/check_b.py"],
    ],
    [
      "pytest testpaths naming a file, collected whatever its name (python-slugify)",
      {
        "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["test.py", "checks"]\n',
      },
      ["test.py", "checks/test_a.py"],
      ["checks/helpers.py", "tests/test_b.py", "slugify/slugify.py"],
    ],
    [
      "pytest addopts --ignore and --ignore-glob in pyproject.toml",
      {
        "pyproject.toml":
          '[tool.pytest.ini_options]\naddopts = [\n  "--ignore=pkg/fuzz_test.py",\n  "-ra --ignore ./slow/ --ignore-glob=*_py2[0-9]_test.py",\n]\n',
      },
      ["pkg/core_test.py", "tests/test_fuzz.py", "slower/test_a.py"],
      ["pkg/fuzz_test.py", "slow/test_b.py", "slow/deep/c_test.py", "pkg/x/a_py27_test.py"],
    ],
    [
      "pytest addopts --ignore in a pytest.ini, over continuation lines",
      { "pytest.ini": "[pytest]\naddopts =\n    -q\n    --ignore=tests/manual\n" },
      ["tests/test_a.py", "tests/manual_test.py"],
      ["tests/manual/test_b.py"],
    ],
    [
      "pytest norecursedirs: a folder's name, and a path (marshmallow's tests/mypy_test_cases)",
      {
        "pyproject.toml":
          '[tool.pytest.ini_options]\nnorecursedirs = ".git env venv tests/mypy_test_cases *_data"\n',
      },
      ["tests/test_a.py", "tests/mypy/test_b.py", "pkg/tests/test_c.py", "environ/test_e.py"],
      [
        "tests/mypy_test_cases/test_validation_error.py",
        "pkg/tests/mypy_test_cases/test_d.py",
        "venv/lib/test_x.py",
        "tests/env/test_y.py",
        "tests/big_data/deep/test_z.py",
      ],
    ],
    [
      "pytest python_files over several lines of setup.cfg",
      { "setup.cfg": "[tool:pytest]\npython_files =\n    tests.py\n    test_*.py\n" },
      ["app/tests.py", "app/tests/test_views.py"],
      ["app/views.py"],
    ],
    [
      "Django tests/ packages without a pytest-django config",
      { "pytest.ini": "[pytest]\n", "manage.py": "" },
      ["polls/tests/test_views.py", "polls/tests/test_models.py"],
      ["polls/views.py", "polls/tests/__init__.py"],
    ],
    [
      "vitest defaults",
      { "package.json": '{"devDependencies":{"vitest":"4"}}' },
      ["src/a.test.ts", "test/b.spec.tsx", "x.test.mjs"],
      ["src/a.ts", "node_modules/x/a.test.js", "dist/a.test.js"],
    ],
    [
      "vitest include",
      {
        "package.json": '{"devDependencies":{"vitest":"4"}}',
        "vitest.config.ts":
          'export default defineConfig({ test: { include: ["tests/**/*.check.ts"] } })',
      },
      ["tests/a/b.check.ts"],
      ["src/a.test.ts"],
    ],
    [
      "jest defaults: __tests__ and *.test.*",
      { "package.json": '{"devDependencies":{"jest":"29"}}' },
      ["src/__tests__/a.js", "src/b.test.js", "c.spec.jsx"],
      ["src/a.js"],
    ],
    [
      "jest testMatch and roots from package.json",
      {
        "package.json":
          '{"devDependencies":{"jest":"29"},"jest":{"roots":["<rootDir>/test"],"testMatch":["**/*.unit.js"]}}',
      },
      ["test/datetime/format.unit.js"],
      ["src/format.unit.js", "test/a.test.js"],
    ],
    [
      "node --test with a folder in the test script",
      { "package.json": '{"scripts":{"test":"node --test tests/"}}' },
      ["tests/option.parse.test.js", "tests/help.test.mjs"],
      ["test/other.test.js", "lib/option.js"],
    ],
    [
      "node --test defaults",
      { "package.json": '{"scripts":{"test":"node --test"}}' },
      ["test/a.js", "lib/b.test.cjs", "test-c.mjs"],
      ["lib/b.js"],
    ],
    [
      "mocha's default spec",
      { "package.json": '{"devDependencies":{"mocha":"10"}}' },
      ["test/a.js"],
      ["test/sub/b.js", "lib/a.js"],
    ],
    [
      "mocha spec from .mocharc.yml",
      {
        "package.json": '{"devDependencies":{"mocha":"10"}}',
        ".mocharc.yml": "spec:\n  - 'spec/**/*.spec.js'\n",
      },
      ["spec/a/b.spec.js"],
      ["test/a.js"],
    ],
    ["cargo integration tests", { "Cargo.toml": "[package]" }, ["tests/parse.rs"], ["src/lib.rs"]],
  ];
  it.each(cases)("%s", (_name, files, tests, others) => {
    const view = createMemoryView(files);
    const runner = runnerOf(files);
    const shape = suiteShape(view, runner);
    for (const test of tests) expect([test, shape.isTest(test)]).toEqual([test, true]);
    for (const other of others) expect([other, shape.isTest(other)]).toEqual([other, false]);
  });

  it("a package's shape only claims files inside the package", () => {
    const files = { "web/package.json": '{"devDependencies":{"vitest":"4"}}' };
    const shape = suiteShape(createMemoryView(files), runnerOf(files, "web"));
    expect(shape.isTest("web/src/a.test.ts")).toBe(true);
    expect(shape.isTest("api/src/a.test.ts")).toBe(false);
  });

  it("knows test support apart from tests", () => {
    const files = { "pytest.ini": "" };
    const shape = suiteShape(createMemoryView(files), runnerOf(files));
    expect(shape.isSupport("tests/conftest.py")).toBe(true);
    expect(shape.isSupport("conftest.py")).toBe(true);
    expect(shape.isSupport("tests/helpers.py")).toBe(true);
    expect(shape.isSupport("tests/test_a.py")).toBe(false);
    expect(shape.isSupport("src/pkg/helpers.py")).toBe(false);
  });
});

describe("config readers", () => {
  it("reads ini keys with continuation lines", () => {
    expect(iniValue("[pytest]\ntestpaths = a\n  b\nx = 1\n", "pytest", "testpaths")).toBe("a   b");
    expect(iniValue("[other]\ntestpaths = a\n", "pytest", "testpaths")).toBeUndefined();
  });
  it("reads TOML strings and arrays from one table only", () => {
    const text =
      '[tool.x]\ntestpaths = ["no"]\n[tool.pytest.ini_options]\ntestpaths = [\n "a",\n \'b\'\n]\n';
    expect(tomlStrings(text, "tool.pytest.ini_options", "testpaths")).toEqual(["a", "b"]);
    expect(tomlStrings(text, "tool.none", "testpaths")).toBeUndefined();
    const brackets =
      '[tool.pytest.ini_options]\naddopts = [\n  "--ignore-glob=*_[0-9].py",  # a ] and a "quote"\n  "-q",\n]\n';
    expect(tomlStrings(brackets, "tool.pytest.ini_options", "addopts")).toEqual([
      "--ignore-glob=*_[0-9].py",
      "-q",
    ]);
  });
  it("reads literal string arrays from JS configs", () => {
    expect(jsConfigStrings("include: ['a/**', \"b\"],", "include")).toEqual(["a/**", "b"]);
    expect(jsConfigStrings("include: someVariable,", "include")).toBeUndefined();
  });
});

describe("relatedTests: a changed file's tests, by evidence", () => {
  const input = (
    file: string,
    tests: string[],
    importers: Record<string, string[][]> = {},
    isSupport = (rel: string) => rel.endsWith("conftest.py"),
  ): RelatedInput => ({
    file,
    tests,
    isTest: (rel) => tests.includes(rel),
    isSupport,
    importers: (rel) => importers[rel],
  });
  const pick = (file: string, tests: string[], importers: Record<string, string[][]> = {}) =>
    relatedTests(input(file, tests, importers)).map((t) => [t.path, t.evidence]);

  it("a test's support module pairs with the tests that import it, not the one named like it", () => {
    // pyjwt: tests/utils.py is a helper; tests/test_utils.py tests jwt/utils.py.
    const tests = ["tests/test_utils.py", "tests/test_api_jwt.py"];
    const support = (rel: string) => rel === "tests/utils.py";
    const related = (importers: Record<string, string[][]>) =>
      relatedTests(input("tests/utils.py", tests, importers, support)).map((t) => [
        t.path,
        t.evidence,
      ]);
    expect(related({ "tests/utils.py": [["tests/test_api_jwt.py"]] })).toEqual([
      ["tests/test_api_jwt.py", "imports"],
    ]);
    // With no import graph yet, the name is all there is to go by.
    expect(related({})).toEqual([["tests/test_utils.py", "name"]]);
  });

  it("normalises leading underscores and package __init__ files", () => {
    expect(subjectName("src/pkg/_cached.py")).toBe("cached");
    expect(subjectName("src/pkg/__init__.py")).toBe("pkg");
    expect(subjectName("src/datetime/index.ts")).toBe("datetime");
    expect(testSubject("tests/test_cached.py")).toBe("cached");
    expect(testSubject("tests/option.parse.test.js")).toBe("option.parse");
    expect(testSubject("src/FooTest.java")).toBe("foo");
  });

  it("says a package's __init__.py test is named after its folder, not after __init__.py", () => {
    // pyparsing: tests/test_diagram.py is pyparsing/diagram/__init__.py's, by the folder's name.
    const tests = ["tests/test_diagram.py", "tests/test_results.py"];
    const detail = (file: string) =>
      relatedTests(input(file, tests)).map((t) => [t.path, t.evidence, t.detail]);
    expect(detail("pyparsing/diagram/__init__.py")).toEqual([
      ["tests/test_diagram.py", "name", "named after diagram/"],
    ]);
    expect(detail("pyparsing/results.py")).toEqual([
      ["tests/test_results.py", "name", "named after results.py"],
    ]);
  });

  it("among transitive importers, a test whose name shares a word with the file's comes first", () => {
    // sqlparse: every test imports only `sqlparse`; test_split.py is the splitter's.
    const tests = ["tests/test_cli.py", "tests/test_format.py", "tests/test_split.py"];
    expect(
      pick("sqlparse/engine/statement_splitter.py", tests, {
        "sqlparse/engine/statement_splitter.py": [
          ["sqlparse/engine/__init__.py"],
          ["sqlparse/__init__.py"],
          tests,
        ],
      }).map(([path]) => path),
    ).toEqual(["tests/test_split.py", "tests/test_cli.py", "tests/test_format.py"]);
    // commander: suggestSimilar.js → help.suggestion.test.js, not by path order.
    const js = ["tests/args.literal.test.js", "tests/help.suggestion.test.js"];
    expect(
      pick("lib/suggestSimilar.js", js, { "lib/suggestSimilar.js": [["lib/command.js"], js] }).map(
        ([path]) => path,
      ),
    ).toEqual(["tests/help.suggestion.test.js", "tests/args.literal.test.js"]);
    // express: every test requires the package; `req.*` tests are request.js's.
    const web = ["test/app.render.js", "test/req.query.js", "test/res.send.js"];
    const through = (file: string) =>
      pick(file, web, { [file]: [["lib/express.js"], ["index.js"], web] }).map(([path]) => path);
    expect(through("lib/request.js")).toEqual([
      "test/req.query.js",
      "test/app.render.js",
      "test/res.send.js",
    ]);
    expect(through("lib/response.js")[0]).toBe("test/res.send.js");
    expect(through("lib/application.js")[0]).toBe("test/app.render.js");
    // A short word only counts as the start of the file's: `res` is not `address`'s.
    expect(through("lib/address.js")).toEqual(web);
  });

  it("_cached.py is covered by tests/test_cached.py", () => {
    expect(pick("src/pkg/_cached.py", ["tests/test_cached.py", "tests/test_other.py"])).toEqual([
      ["tests/test_cached.py", "name"],
    ]);
  });

  it("a package's __init__.py by the package's tests and every test importing the package", () => {
    expect(
      pick("src/pkg/__init__.py", ["tests/test_pkg.py", "tests/test_api.py"], {
        "src/pkg/__init__.py": [["tests/test_api.py", "src/pkg/cli.py"]],
      }),
    ).toEqual([
      ["tests/test_pkg.py", "name"],
      ["tests/test_api.py", "imports"],
    ]);
  });

  it("families and per-module folders", () => {
    const tests = [
      "tests/option.parse.test.js",
      "tests/options.test.js",
      "tests/optional.test.js",
      "test/datetime/format.test.js",
      "test/datetime/parse.test.js",
    ];
    expect(pick("lib/option.js", tests)).toEqual([
      ["tests/option.parse.test.js", "family"],
      ["tests/options.test.js", "family"],
    ]);
    expect(pick("src/datetime.js", tests)).toEqual([
      ["test/datetime/format.test.js", "family"],
      ["test/datetime/parse.test.js", "family"],
    ]);
  });

  it("a generic name pairs only with a test in the same place", () => {
    const tests = ["test/utils.test.ts", "packages/b/test/utils.test.ts", "test/utilities.test.ts"];
    expect(
      pick("src/utils.ts", tests, {
        "src/utils.ts": [["test/utilities.test.ts"], ["packages/b/test/utils.test.ts"]],
      }),
    ).toEqual([
      ["test/utilities.test.ts", "imports"],
      ["packages/b/test/utils.test.ts", "imports-via"],
    ]);
    expect(pick("src/utils.ts", ["src/utils.test.ts"])).toEqual([["src/utils.test.ts", "name"]]);
  });

  it("tests that import the file through barrels, nearest first", () => {
    const related = relatedTests(
      input("src/parse.ts", ["test/parse.test.ts", "test/url.test.ts", "test/far.test.ts"], {
        "src/parse.ts": [
          ["src/url.ts", "test/parse.test.ts"],
          ["src/index.ts", "test/url.test.ts"],
          ["test/far.test.ts"],
        ],
      }),
    );
    expect(related.map((t) => [t.path, t.evidence, t.hops])).toEqual([
      ["test/parse.test.ts", "name", 0],
      ["test/url.test.ts", "imports-via", 2],
      ["test/far.test.ts", "imports-via", 3],
    ]);
  });

  it("a changed test is its own test; a conftest.py reaches the tests below it", () => {
    const tests = ["tests/test_a.py", "tests/api/test_b.py", "other/test_c.py"];
    expect(pick("tests/test_a.py", tests)).toEqual([["tests/test_a.py", "self"]]);
    expect(pick("tests/api/conftest.py", tests)).toEqual([["tests/api/test_b.py", "support"]]);
  });

  it("a module a conftest.py imports reaches the tests below it, which may use only its fixtures", () => {
    // python-semver: tests/test_immutable.py imports nothing of the package; it takes a Version
    // from conftest.py's `version` fixture.
    const tests = ["tests/test_immutable.py", "tests/test_bump.py", "other/test_c.py"];
    const related = relatedTests(
      input("src/semver/version.py", tests, {
        "src/semver/version.py": [
          ["src/semver/__init__.py"],
          ["tests/conftest.py", "tests/test_bump.py"],
        ],
      }),
    );
    expect(related.map((t) => [t.path, t.evidence, t.hops, t.detail])).toEqual([
      ["tests/test_bump.py", "imports-via", 2, "imports it through the project's modules (2 hops)"],
      [
        "tests/test_immutable.py",
        "imports-via",
        3,
        "runs with tests/conftest.py, which imports it",
      ],
    ]);
  });

  it("a module a runner's helper imports reaches every test the runner loads it before", () => {
    // marked under jasmine: test/specs/run-spec.js imports no source; jasmine.json's `helpers`
    // loads test/helpers/helpers.js, which imports src/marked.js, before every spec.
    const tests = ["test/specs/run-spec.js", "test/unit/Lexer-spec.js"];
    const setup = (rel: string) => (rel === "test/helpers/helpers.js" ? tests : []);
    const graph = {
      "src/helpers.js": [["src/Lexer.js"], ["src/marked.js", "test/unit/Lexer-spec.js"]],
      "src/marked.js": [["test/helpers/helpers.js"]],
    };
    const withSetup = (file: string) =>
      relatedTests({
        ...input(file, tests, {
          ...graph,
          "src/helpers.js": [...graph["src/helpers.js"], ["test/helpers/helpers.js"]],
        }),
        setupScope: setup,
        isSupport: (rel) => rel.startsWith("test/helpers/"),
      }).map((t) => [t.path, t.evidence, t.detail]);
    expect(withSetup("src/helpers.js")).toEqual([
      [
        "test/unit/Lexer-spec.js",
        "imports-via",
        "imports it through the project's modules (2 hops)",
      ],
      [
        "test/specs/run-spec.js",
        "imports-via",
        "runs with test/helpers/helpers.js, which imports it",
      ],
    ]);
    // The helper itself, changed: every test it is loaded before.
    expect(
      withSetup("test/helpers/helpers.js").map(([path, evidence]) => [path, evidence]),
    ).toEqual([
      ["test/specs/run-spec.js", "support"],
      ["test/unit/Lexer-spec.js", "support"],
    ]);
  });

  it("a Django site's view reaches every test through the settings' URLconfs", () => {
    // MDN's LocalLibrary: no test imports views.py, forms.py reaches the view tests only through
    // it; the settings (loaded before every test by Django's runner) name the root URLconf,
    // which includes the app's.
    const tests = ["catalog/tests/test_forms.py", "catalog/tests/test_views.py"];
    const setup = (rel: string) => (rel === "locallibrary/settings.py" ? tests : []);
    const graph = {
      "catalog/forms.py": [
        ["catalog/tests/test_forms.py", "catalog/views.py"],
        ["catalog/urls.py"],
        ["locallibrary/urls.py"],
        ["locallibrary/settings.py"],
      ],
    };
    const related = (file: string) =>
      relatedTests({ ...input(file, tests, graph), setupScope: setup }).map((t) => [
        t.path,
        t.evidence,
        t.detail,
      ]);
    expect(related("catalog/forms.py")).toEqual([
      ["catalog/tests/test_forms.py", "name", "named after forms.py"],
      [
        "catalog/tests/test_views.py",
        "imports-via",
        "runs with locallibrary/settings.py, which imports it",
      ],
    ]);
    // The settings themselves, changed: every test they are loaded before, whatever their name.
    expect(related("locallibrary/settings.py").map(([path, evidence]) => [path, evidence])).toEqual(
      [
        ["catalog/tests/test_forms.py", "support"],
        ["catalog/tests/test_views.py", "support"],
      ],
    );
  });

  it("a helper is related to the tests that import it", () => {
    expect(
      pick("tests/helpers.py", ["tests/test_a.py", "tests/test_b.py"], {
        "tests/helpers.py": [["tests/test_b.py"]],
      }),
    ).toEqual([["tests/test_b.py", "imports"]]);
  });

  it("nothing related: an empty list, never a guess", () => {
    expect(pick("src/billing.py", ["tests/test_cart.py"])).toEqual([]);
  });
});

describe("suggestTestPath: the project's own convention", () => {
  const nodeTest = runnerOf({
    "package.json": '{"scripts":{"test":"node --test"}}',
    "tsconfig.json": "{}",
  });
  it("a node --test suite of .js tests gets a .js test even with a tsconfig", () => {
    expect(
      suggestTestPath({
        file: "lib/parse.js",
        runner: nodeTest,
        tests: ["test/args.test.js", "test/help.test.js"],
        fallback: "test/parse.test.ts",
      }),
    ).toBe("test/parse.test.js");
  });
  it("no .ts test for node --test without a loader, even with no test yet", () => {
    expect(
      suggestTestPath({
        file: "src/a.ts",
        runner: nodeTest,
        tests: [],
        fallback: "test/a.test.ts",
      }),
    ).toBe("test/a.test.js");
  });
  it("the project's .ts tests keep their extension where they run compiled (uuid)", () => {
    // `node --test dist-node/test/*.js` after a build: the tests are src/test/*.test.ts.
    const compiled = runnerOf({
      "package.json": '{"scripts":{"pretest":"tsc","test":"node --test dist/test/*.js"}}',
      "tsconfig.json": '{"compilerOptions":{"outDir":"dist","rootDir":"src"}}',
    });
    expect(
      suggestTestPath({
        file: "src/v9.ts",
        runner: compiled,
        tests: ["src/test/v1.test.ts", "src/test/v4.test.ts"],
        fallback: "src/v9.test.ts",
      }),
    ).toBe("src/test/v9.test.ts");
  });
  it("beside the source, __tests__ folders, spec infix", () => {
    const vitest = runnerOf({ "package.json": '{"devDependencies":{"vitest":"4"}}' });
    expect(
      suggestTestPath({
        file: "src/a/b.ts",
        runner: vitest,
        tests: ["src/x.spec.ts", "src/y/z.spec.ts"],
        fallback: "src/a/b.test.ts",
      }),
    ).toBe("src/a/b.spec.ts");
    expect(
      suggestTestPath({
        file: "src/a/b.ts",
        runner: vitest,
        tests: ["src/__tests__/x.test.ts", "src/y/__tests__/z.test.ts"],
        fallback: "",
      }),
    ).toBe("src/a/__tests__/b.test.ts");
    // jest-community/jest-junit: a root __tests__/ tree of the utils/ modules' tests, flat (a
    // utils/__tests__/ would not even match its jest config's testMatch).
    const jest = runnerOf({ "package.json": '{"devDependencies":{"jest":"27"}}' });
    expect(
      suggestTestPath({
        file: "utils/addOne.js",
        runner: jest,
        tests: [
          "__tests__/buildJsonResults.test.js",
          "__tests__/getOptions.test.js",
          "integration-tests/reporter/__tests__/simple.test.js",
        ],
        fallback: "",
      }),
    ).toBe("__tests__/addOne.test.js");
  });
  it("the suffix the project's tests end in, whatever joins it (graphql-js's -test)", () => {
    // graphql/graphql-js: `mocha src/**/__tests__/**/*-test.ts`; an `x.ts` there is no test.
    const mocha = runnerOf({ "package.json": '{"devDependencies":{"mocha":"9"}}' });
    const suggest = (tests: string[]) =>
      suggestTestPath({ file: "src/jsutils/pathKey.ts", runner: mocha, tests, fallback: "" });
    expect(
      suggest(["src/jsutils/__tests__/inspect-test.ts", "src/language/__tests__/lexer-test.ts"]),
    ).toBe("src/jsutils/__tests__/pathKey-test.ts");
    expect(suggest(["test/claim-exp.tests.js", "test/jwt.hs.tests.js"])).toBe(
      "test/pathKey.tests.js",
    );
  });
  it("no infix where the project's tests have none, except beside the source", () => {
    // sindresorhus/p-queue: `node --import=tsx/esm --test test/*.ts`, tests named by topic.
    const nodeTs = runnerOf({
      "package.json": '{"scripts":{"test":"node --import=tsx/esm --test test/*.ts"}}',
    });
    expect(
      suggestTestPath({
        file: "source/lower-bound.ts",
        runner: nodeTs,
        tests: ["test/debug.ts", "test/priority-queue.ts", "test/strict.ts"],
        fallback: "test/lower-bound.test.ts",
      }),
    ).toBe("test/lower-bound.ts");
    const vitest = runnerOf({ "package.json": '{"devDependencies":{"vitest":"4"}}' });
    expect(
      suggestTestPath({
        file: "src/a.ts",
        runner: vitest,
        tests: ["src/b.ts", "src/c.ts"],
        fallback: "src/a.test.ts",
      }),
    ).toBe("src/a.test.ts");
  });
  it("python: test_x.py or x_test.py, a leading underscore dropped", () => {
    const pytest = runnerOf({ "pytest.ini": "" });
    expect(
      suggestTestPath({
        file: "src/pkg/_cache.py",
        runner: pytest,
        tests: ["tests/test_a.py"],
        fallback: "tests/test__cache.py",
      }),
    ).toBe("tests/test_cache.py");
    expect(
      suggestTestPath({
        file: "pkg/cache.py",
        runner: pytest,
        tests: ["tests/a_test.py", "tests/b_test.py"],
        fallback: "",
      }),
    ).toBe("tests/cache_test.py");
  });
  it("a mirrored test tree: the existing folder that mirrors the source, never a made-up one", () => {
    // Python-Markdown: tests/test_syntax/extensions/ mirrors markdown/extensions/.
    const unittest = runnerOf({ "pyproject.toml": "[project]\nname = 'markdown'\n" });
    const tests = [
      "tests/test_apis.py",
      "tests/test_syntax/extensions/test_abbr.py",
      "tests/test_syntax/extensions/test_toc.py",
      "tests/test_syntax/inline/test_links.py",
    ];
    const at = (file: string, list = tests) =>
      suggestTestPath({ file, runner: unittest, tests: list, fallback: "" });
    expect(at("markdown/extensions/strike.py")).toBe("tests/test_syntax/extensions/test_strike.py");
    // No folder mirrors the package root: the tree's root, not tests/markdown/.
    expect(at("markdown/compact.py")).toBe("tests/test_compact.py");
    // tests/unit/a mirrors src/a: a new sub-folder goes under it.
    const unit = ["tests/unit/a/test_x.py", "tests/unit/a/b/test_y.py", "tests/unit/d/test_z.py"];
    expect(at("src/a/c/new.py", unit)).toBe("tests/unit/a/c/test_new.py");
    expect(at("src/a/b/new.py", unit)).toBe("tests/unit/a/b/test_new.py");
  });
  it("python: a package's own tests folder, the nearest above the source", () => {
    // h11's layout: h11/tests/test_io.py covers h11/_readers.py; no tests/ at the root.
    const pytest = runnerOf({ "tox.ini": "[testenv]\ncommands = pytest h11\n" });
    const tests = ["h11/tests/test_io.py", "h11/tests/test_util.py", "h11/sub/tests/test_a.py"];
    expect(
      suggestTestPath({
        file: "h11/_new.py",
        runner: pytest,
        tests,
        fallback: "tests/test_new.py",
      }),
    ).toBe("h11/tests/test_new.py");
    expect(suggestTestPath({ file: "h11/sub/b.py", runner: pytest, tests, fallback: "" })).toBe(
      "h11/sub/tests/test_b.py",
    );
    expect(suggestTestPath({ file: "other/c.py", runner: pytest, tests, fallback: "" })).toBe(
      "other/tests/test_c.py",
    );
  });
});

describe("relatedTests: repeated module names across apps", () => {
  const tests = [
    "polls/tests/test_models.py",
    "blog/tests/test_models.py",
    "tests/p0/test_m1.py",
    "tests/p1/test_m1.py",
  ];
  const pick = (file: string) =>
    relatedTests({ file, tests, isTest: (rel) => tests.includes(rel), isSupport: () => false }).map(
      (t) => t.path,
    );
  it("a name matches the test in the same app, not every app's", () => {
    expect(pick("polls/models.py")).toEqual(["polls/tests/test_models.py"]);
    expect(pick("src/big/p0/m1.py")).toEqual(["tests/p0/test_m1.py"]);
  });
  it("a flat test folder keeps every match", () => {
    expect(pick("src/pkg/m1.py")).toEqual(["tests/p0/test_m1.py", "tests/p1/test_m1.py"]);
  });
});

describe("a package's src/index.ts is not a per-module folder", () => {
  it("takes no test in src/__tests__/ as its family; its own importers still come", () => {
    const tests = [
      "src/__tests__/index.test.ts",
      "src/__tests__/command.test.ts",
      "src/__tests__/variable.test.ts",
      "test/datetime/format.test.ts",
    ];
    const related = relatedTests({
      file: "src/index.ts",
      tests,
      isTest: (rel) => tests.includes(rel),
      isSupport: () => false,
      importers: () => [["src/__tests__/index.test.ts"]],
    });
    expect(related.map((test) => [test.path, test.evidence])).toEqual([
      ["src/__tests__/index.test.ts", "imports"],
    ]);
    // A module's own folder still gathers its tests.
    const datetime = relatedTests({
      file: "src/datetime/index.ts",
      tests,
      isTest: (rel) => tests.includes(rel),
      isSupport: () => false,
    });
    expect(datetime.map((test) => test.path)).toEqual(["test/datetime/format.test.ts"]);
  });
});

describe("nameWord: only tests whose path spells the name can match it by name", () => {
  const tests = [
    "tests/test_cached.py",
    "tests/test_pkg.py",
    "tests/option.parse.test.js",
    "tests/options.test.js",
    "tests/optional.test.js",
    "tests/Option.test.js",
    "test/datetime/format.test.js",
    "test/Datetime/parse.test.js",
    "test/utils.test.ts",
    "src/utils.test.ts",
    "tests/test_option_parse.py",
    "tests/test_status.py",
    "tests/test_statu.py",
    "tests/__init__/test_x.py",
    "tests/test_a+b.py",
    "tests/p3/test_m7.py",
  ];
  const related = (file: string, among: readonly string[]) =>
    relatedTests({
      file,
      tests: among,
      isTest: (rel) => tests.includes(rel),
      isSupport: () => false,
    });
  it.each([
    "src/pkg/_cached.py",
    "src/pkg/__init__.py",
    "lib/option.js",
    "lib/options.js",
    "src/datetime.js",
    "src/datetime/index.ts",
    "src/utils.ts",
    "src/status.py",
    "src/a+b.py",
    "src/big/p3/m7.py",
    "src/__init__.py",
  ])("%s: the same tests from the matching paths as from all", (file) => {
    const pattern = nameWord(file);
    const near = pattern === undefined ? tests : tests.filter((test) => pattern.test(test));
    expect(related(file, near)).toEqual(related(file, tests));
  });
  it("a name that is not plain ASCII looks at every test", () => {
    expect(nameWord("src/größe.py")).toBeUndefined();
  });
});

describe("mentions: a file loaded by name, not by import", () => {
  it("tokens: the path tail and a distinctive stem, never a generic one", () => {
    expect(mentionTokens("solo/templatetags/solo_tags.py")).toEqual([
      "templatetags/solo_tags",
      "solo_tags",
    ]);
    expect(mentionTokens("src/locale/fr.js")).toEqual(["locale/fr"]);
    expect(mentionTokens("src/utils.js")).toEqual(["src/utils"]);
    // A fixture loaded by its folder: the folder below fixtures/ (oclif/test).
    expect(mentionTokens("test/fixtures/multi/src/commands/foo/bar.js")).toEqual([
      "foo/bar",
      "fixtures/multi",
    ]);
    expect(mentions("join(__dirname, 'fixtures/multi')", ["fixtures/multi"])).toBe(
      "fixtures/multi",
    );
  });
  it("a whole word in the test's text", () => {
    expect(mentions("{% load solo_tags %}", ["solo_tags"])).toBe("solo_tags");
    expect(mentions("import '../../src/locale/fr'", ["locale/fr"])).toBe("locale/fr");
    expect(mentions("import '../../src/locale/fr-ca'", ["locale/fr"])).toBeUndefined();
    expect(mentions("my_solo_tags_x", ["solo_tags"])).toBeUndefined();
  });
});

describe("listedFolder: a folder a test lists and loads the files of", () => {
  const lists = "var issues = path.resolve(__dirname, 'issues');\nfs.readdirSync(issues);\n";
  it("the folder, or one above the file's, named whole by a test that lists a folder", () => {
    expect(listedFolder(lists, "issues")).toBe("issues");
    expect(listedFolder(lists, "issues/deep")).toBe("issues");
    expect(listedFolder('glob("./fixtures/")', "fixtures/multi")).toBe("fixtures");
  });
  it("not a folder only part of a string, above the test, or named by a test that lists none", () => {
    expect(listedFolder(lists.replace("'issues'", "'issues-old'"), "issues")).toBeUndefined();
    expect(listedFolder("const dir = 'issues';", "issues")).toBeUndefined();
    expect(listedFolder(lists, "")).toBeUndefined();
    expect(listedFolder(lists, "../issues")).toBeUndefined();
  });
});

describe("snapshotOwner: the test a snapshot file belongs to", () => {
  it("the test beside its __snapshots__ folder, by the snapshot's name", () => {
    expect(snapshotOwner("src/__tests__/__snapshots__/Values.test.js.snap")).toBe(
      "src/__tests__/Values.test.js",
    );
    expect(snapshotOwner("__snapshots__/a.spec.ts.snap")).toBe("a.spec.ts");
    expect(snapshotOwner("src/__tests__/Values.test.js")).toBeUndefined();
    expect(snapshotOwner("src/snapshots/a.test.js.snap")).toBeUndefined();
  });
});

describe("comparePaths: localeCompare's order without the collation", () => {
  const segments = [
    "a",
    "b",
    "m1",
    "m10",
    "m2",
    "test_a",
    "test-a",
    "a.test",
    "a_b",
    "x y",
    "@s",
    "a+b",
    "Z",
    "é",
    "B",
    "_",
  ];
  const paths: string[] = [];
  for (const one of segments)
    for (const two of segments) paths.push(`${one}/${two}.py`, `${one}${two}`, `${one}.${two}`);
  it("orders every pair as localeCompare does", () => {
    const differ: string[][] = [];
    for (const a of paths)
      for (const b of paths)
        if (Math.sign(comparePaths(a, b)) !== Math.sign(a.localeCompare(b))) differ.push([a, b]);
    expect(differ).toEqual([]);
  });
});
