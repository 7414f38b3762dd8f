import { describe, expect, it } from "vitest";
import type { RunPlan } from "./plan.ts";
import { redSummary, rerunCommands } from "./rerun.ts";
import type { RunResult } from "./summarize.ts";
import type { RunnerId } from "../runners/project-runners.ts";
import { createMemoryView } from "../project/project-view.ts";

function run(id: RunnerId, packageDir: string, command: string[]): RunPlan {
  return {
    runner: { id, languages: ["python"], package_dir: packageDir, command, evidence: "test" },
    cwd: packageDir,
    argv: command,
    env: {},
    format: "unittest-text",
    report: { kind: "output" },
    test_files: [],
    requested: [],
    sources: {},
  };
}

function result(id: RunnerId, red: string[], loadErrors: string[] = []): RunResult {
  return {
    runner: id,
    cwd: "",
    command: [],
    status: red.length + loadErrors.length > 0 ? "failed" : "passed",
    exit_code: red.length > 0 ? 1 : 0,
    duration_ms: 1,
    tests: [
      ...red.map((file, index) => ({
        id: { runner: id, file, segments: [`test_${index}`] },
        status: "fail" as const,
      })),
      { id: { runner: id, file: "tests/test_green.py", segments: ["ok"] }, status: "pass" },
    ],
    errors: loadErrors.map((file) => ({ file, message: "E   SyntaxError", kind: "collection" })),
    reason: "",
    output_tail: "",
  };
}

const UNITTEST = [".venv/bin/python", "-m", "unittest", "discover", "-s", "tests", "-t", "."];

describe("rerunCommands: the project's own command for the red test files", () => {
  const cases: Array<[string, RunPlan[], RunResult[], string[]]> = [
    [
      "unittest at the root, a mirrored tree, each file once",
      [run("unittest", "", UNITTEST)],
      [
        result("unittest", [
          "tests/test_syntax/inline/test_emphasis.py",
          "tests/test_legacy.py",
          "tests/test_legacy.py",
        ]),
      ],
      [
        ".venv/bin/python -m unittest tests/test_legacy.py tests/test_syntax/inline/test_emphasis.py",
      ],
    ],
    [
      "a workspace package's vitest, from its folder; a file that could not load counts",
      [run("vitest", "packages/core", ["npx", "--no-install", "vitest", "run"])],
      [result("vitest", ["packages/core/src/a.test.ts"], ["packages/core/test/b.test.ts"])],
      [
        "(cd packages/core && npx --no-install vitest run --coverage.enabled=false src/a.test.ts test/b.test.ts)",
      ],
    ],
    [
      "go names packages, not files",
      [run("go", "", ["go", "test", "./..."])],
      [result("go", ["", "internal/x"])],
      ["go test . ./internal/x"],
    ],
    [
      "a green run and a run without a plan add nothing; a path with a space is quoted",
      [run("pytest", "", ["python3", "-m", "pytest"]), run("jest", "", ["npx", "jest"])],
      [result("pytest", []), result("jest", ["__tests__/my file.test.js"]), result("go", ["x"])],
      ["npx jest --coverage=false --runTestsByPath '__tests__/my file.test.js'"],
    ],
  ];
  it.each(cases)("%s", (_name, runs, results, expected) => {
    expect(rerunCommands(runs, results)).toEqual(expected);
  });

  it("the variables the test script sets come first, as the script runs it", () => {
    const view = createMemoryView({
      "package.json": JSON.stringify({
        scripts: { test: "cross-env NODE_ENV=test TZ='Europe/Paris' vitest" },
        devDependencies: { vitest: "4.0.0" },
      }),
    });
    const vitest = run("vitest", "", ["node_modules/.bin/vitest", "run"]);
    expect(rerunCommands([vitest], [result("vitest", ["src/a.test.ts"])], view)).toEqual([
      "NODE_ENV=test TZ=Europe/Paris node_modules/.bin/vitest run --coverage.enabled=false src/a.test.ts",
    ]);
    const inPackage = { ...vitest, runner: { ...vitest.runner, package_dir: "web" } };
    const nested = createMemoryView({ "web/package.json": view.readText("package.json") ?? "" });
    expect(rerunCommands([inPackage], [result("vitest", ["web/a.test.ts"])], nested)).toEqual([
      "(cd web && NODE_ENV=test TZ=Europe/Paris node_modules/.bin/vitest run --coverage.enabled=false a.test.ts)",
    ]);
  });

  it("tests that run as tsc's output: built first, the output named, in a package too", () => {
    const mocha: RunPlan = {
      ...run("mocha", "", ["node_modules/.bin/mocha"]),
      build: "tsc -p tsconfig.json",
      compiled: { out_dir: "lib", root_dir: "src", allow_js: false },
    };
    const red = result("mocha", ["src/test/main_test.ts"]);
    expect(rerunCommands([mocha], [red])).toEqual([
      "tsc -p tsconfig.json && node_modules/.bin/mocha lib/test/main_test.js",
    ]);
    const inPackage: RunPlan = {
      ...mocha,
      runner: { ...mocha.runner, package_dir: "pkg" },
      compiled: { out_dir: "pkg/build", root_dir: "pkg", allow_js: false },
    };
    expect(rerunCommands([inPackage], [result("mocha", ["pkg/test/a.test.mts"])])).toEqual([
      "(cd pkg && tsc -p tsconfig.json) && (cd pkg && node_modules/.bin/mocha build/test/a.test.mjs)",
    ]);
  });

  it("a run stopped at the timeout: its files that had not all passed, one of which hangs", () => {
    const pytest = {
      ...run("pytest", "", ["python3", "-m", "pytest"]),
      test_files: ["tests/test_green.py", "tests/test_slow.py", "tests/test_later.py"],
    };
    const stopped: RunResult = { ...result("pytest", []), status: "timeout", exit_code: null };
    expect(rerunCommands([pytest], [stopped])).toEqual([
      "python3 -m pytest tests/test_later.py tests/test_slow.py",
    ]);
    // A whole-suite run named no files: nothing to name.
    expect(rerunCommands([{ ...pytest, test_files: [] }], [stopped])).toEqual([]);
  });
});

describe("redSummary: where the red tests are, most first", () => {
  it("counts tests per file across runs and says nothing for a single red test", () => {
    expect(redSummary([result("unittest", ["tests/a.py"])])).toBe("");
    expect(
      redSummary([
        result("unittest", ["tests/b.py", "tests/a.py", "tests/a.py"], ["tests/c.py"]),
        result("vitest", ["web/x.test.ts"]),
      ]),
    ).toBe(
      "5 red tests in 4 files: tests/a.py (2), tests/b.py (1), tests/c.py (1), web/x.test.ts (1).",
    );
  });

  it("names the file a Go failure points at, not its package's folder", () => {
    // go test -json names packages: a test's id is its folder ("" for the root package), and
    // expr's lexer table failing read "2 red tests in 1 file: parser/lexer (2)".
    const go = (folder: string, failures: Array<string | undefined>): RunResult => ({
      ...result("go", []),
      status: "failed",
      tests: failures.map((failure, index) => ({
        id: { runner: "go", file: folder, segments: ["TestLex", `case_${index}`] },
        status: "fail" as const,
        ...(failure === undefined ? {} : { failure }),
      })),
    });
    expect(
      redSummary([
        go("parser/lexer", [undefined, "    parser/lexer/lexer_test.go:358: got Identifier"]),
      ]),
    ).toBe("2 red tests in 1 file: parser/lexer/lexer_test.go (2).");
    expect(redSummary([go("", ["    sql_test.go:12: bad", "    uuid_test.go:40: bad"])])).toBe(
      "2 red tests in 2 files: sql_test.go (1), uuid_test.go (1).",
    );
    expect(
      rerunCommands([run("go", "", ["go", "test", "./..."])], [go("x", ["  x/a_test.go:1: no"])]),
    ).toEqual(["go test ./x"]);
  });

  it("places a Go parent test by its subtests and an example by the file declaring it", () => {
    // gorilla/mux, a seeded bug: the root package's parent tests and its `Example…` functions
    // fail without a `x_test.go:N:` line, and read "55 red tests in 4 files: … (13)".
    const tests = [
      { segments: ["TestMiddleware"] },
      { segments: ["TestMiddleware", "call"], failure: "    middleware_test.go:72: got 0" },
      { segments: ["TestMethods"] },
      { segments: ["TestMethods", "put"], failure: "    mux_test.go:2580: wrong handler" },
      { segments: ["ExampleCORS"], failure: "got:\nwant:\nGET" },
    ];
    const red: RunResult = {
      ...result("go", []),
      status: "failed",
      tests: tests.map((test) => ({
        id: { runner: "go", file: "", segments: test.segments },
        status: "fail" as const,
        ...(test.failure === undefined ? {} : { failure: test.failure }),
      })),
    };
    const view = createMemoryView({
      "go.mod": "module example.com/mux\n",
      "middleware_test.go": "package mux\n\nfunc TestMiddleware(t *testing.T) {}\n",
      "mux_test.go": "package mux\n\nfunc TestMethods(t *testing.T) {}\n",
      "example_cors_test.go": "package mux_test\n\nfunc ExampleCORS() {}\n",
    });
    expect(redSummary([red], view)).toBe(
      "5 red tests in 3 files: middleware_test.go (2), mux_test.go (2), example_cors_test.go (1).",
    );
    expect(rerunCommands([run("go", "", ["go", "test", "./..."])], [red], view)).toEqual([
      "go test .",
    ]);
  });

  it("re-runs the files of a run that broke outside any test", () => {
    // gorilla/mux: a seeded bug panicked in a test file's init(), the block had no command.
    const panicked: RunResult = {
      ...result("go", []),
      status: "error",
      exit_code: 1,
      tests: [],
      errors: [{ file: "", message: "panic: runtime error", kind: "crash" }],
    };
    const plan = {
      ...run("go", "", ["go", "test", "./..."]),
      test_files: ["mux_test.go", "old_test.go"],
    };
    expect(rerunCommands([plan], [panicked])).toEqual(["go test ."]);
  });

  it("names at most twelve files", () => {
    const files = Array.from(
      { length: 14 },
      (_, i) => `tests/test_${String(i).padStart(2, "0")}.py`,
    );
    const text = redSummary([result("unittest", files)]);
    expect(text).toMatch(/^14 red tests in 14 files: tests\/test_00\.py \(1\), /);
    expect(text).toContain("tests/test_11.py (1), and 2 more.");
    expect(text).not.toContain("test_12");
  });
});
