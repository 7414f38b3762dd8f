import { describe, expect, it } from "vitest";
import { planRun, planSuites } from "../engine/plan.ts";
import { createMemoryView, type ProjectView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { compiledTests, fromCompiled, sourcesOfRun, toCompiled } from "./compiled.ts";
import { detectPackageRunners, type DetectedRunner } from "./project-runners.ts";

/** 43081j/hanbi's layout: `mocha lib` runs what tsc built from `src/`, tests in `src/test/`. */
const HANBI = {
  "package.json": JSON.stringify({
    name: "hanbi",
    type: "module",
    main: "./lib/main.js",
    scripts: { build: "tsc", test: "mocha lib", prepare: "npm run build" },
    devDependencies: { mocha: "^11", typescript: "^6" },
  }),
  "tsconfig.json":
    '{ "compilerOptions": { "rootDir": "./src", "outDir": "./lib", // built by prepare\n }, "include": ["src/**/*.ts"] }',
  ".mocharc.json": '{ "bail": false, "recursive": true }',
  "src/main.ts": "export function stub() {}\n",
  "src/symbol.ts": "export const x = 1;\n",
  "src/test/main_test.ts": "import { stub } from '../main.js';\n",
};

/** googleapis' layout: `c8 mocha build/test`, tsc's `rootDir` the package, tests in `test/`. */
const WHOLE_PACKAGE = {
  "package.json": JSON.stringify({
    name: "gax",
    scripts: { compile: "tsc -p .", test: "c8 mocha build/test", pretest: "npm run compile" },
    devDependencies: { mocha: "^11", typescript: "^5", c8: "^10" },
  }),
  "tsconfig.json": JSON.stringify({ extends: "./tsconfig.base.json", include: ["src", "test"] }),
  "tsconfig.base.json": JSON.stringify({ compilerOptions: { outDir: "build", rootDir: "." } }),
  "src/index.ts": "export const a = 1;\n",
  "src/util/retry.mts": "export const b = 1;\n",
  "test/test.index.ts": "import { a } from '../src/index';\n",
  "test/fixtures/data.ts": "export const c = 1;\n",
};

/**
 * uuidjs/uuid's layout: tsc writes `dist/` from `src/` (no rootDir, no include), the build script
 * copies it to `dist-node/`, and `node --test dist-node/test/*.js` runs the copy after `pretest`.
 */
const COPIED = {
  "package.json": JSON.stringify({
    name: "uuid",
    type: "module",
    scripts: {
      build: "./scripts/build.sh",
      pretest: "npm run build",
      test: "node --test --enable-source-maps dist-node/test/*.js",
    },
    devDependencies: { typescript: "5.4.3" },
  }),
  "tsconfig.json": JSON.stringify({
    compilerOptions: { module: "NodeNext", outDir: "./dist" },
    exclude: ["dist", "examples"],
  }),
  "scripts/build.sh": "tsc -p tsconfig.json\ncp -pr dist dist-node\n",
  "examples/node/example.ts": "export {};\n",
  "src/v4.ts": "export default function v4() {}\n",
  "src/test/v4.test.ts": "import v4 from '../v4.js';\n",
};

function mochaOf(view: ProjectView): DetectedRunner {
  const runner = detectPackageRunners(view, "").find((found) => found.id === "mocha");
  if (runner === undefined) throw new Error("no mocha runner");
  return runner;
}

describe("a package whose tests run from tsc's output", () => {
  it("is read from the test script and the tsconfig (hanbi: mocha lib, rootDir src)", () => {
    const view = createMemoryView(HANBI);
    expect(compiledTests(view, mochaOf(view))).toEqual({
      outDir: "lib",
      rootDir: "src",
      config: "tsconfig.json",
      allowJs: false,
      named: true,
    });
  });

  it("says where the tests are kept, not the output the runner collects", () => {
    const hanbi = createMemoryView(HANBI);
    expect(mochaOf(hanbi).tests_at).toBe("src, run from tsc's output in lib");
    const whole = createMemoryView(WHOLE_PACKAGE);
    // Its tests are in test/, the folder mocha's default names: said as that folder.
    expect(mochaOf(whole)).toMatchObject({ test_dir: "test" });
    expect(mochaOf(whole).tests_at).toBeUndefined();
    const sources = createMemoryView({
      ...HANBI,
      "package.json": JSON.stringify({
        name: "hanbi",
        scripts: { test: "mocha 'src/**/*_test.ts'" },
        devDependencies: { mocha: "^11" },
      }),
    });
    expect(mochaOf(sources).tests_at).toBe("src/**/*_test.ts");
  });

  it("follows `tsc -p` and a relative `extends` (googleapis: c8 mocha build/test)", () => {
    const view = createMemoryView(WHOLE_PACKAGE);
    expect(compiledTests(view, mochaOf(view))).toMatchObject({ outDir: "build", rootDir: "" });
  });

  it("takes tsc's root from `include` when the config sets no rootDir", () => {
    const view = createMemoryView({
      ...HANBI,
      "tsconfig.json": '{ "compilerOptions": { "outDir": "lib" }, "include": ["src/**/*"] }',
    });
    expect(compiledTests(view, mochaOf(view))).toMatchObject({ outDir: "lib", rootDir: "src" });
  });

  it("is not the suite's where the runner's own command names no output folder", () => {
    // `rimraf lib` names the output, but the runner collects the sources themselves.
    const view = createMemoryView({
      ...HANBI,
      "package.json": JSON.stringify({
        name: "hanbi",
        scripts: { test: "rimraf lib && mocha 'src/**/*_test.ts'" },
        devDependencies: { mocha: "^11" },
      }),
    });
    expect(compiledTests(view, mochaOf(view))).toMatchObject({ outDir: "lib", named: false });
    expect(suiteShape(view, mochaOf(view)).evidence).not.toContain("tsc's output");
    // Its whole suite builds nothing.
    expect(planSuites(view, [mochaOf(view)]).runs[0]?.build).toBeUndefined();
  });

  it("reads a build folder the test script copies tsc's output to (uuid: dist-node)", () => {
    const view = createMemoryView(COPIED);
    const runner = detectPackageRunners(view, "").find((found) => found.id === "node-test");
    if (runner === undefined) throw new Error("no node-test runner");
    // tsc's root is src/, the one folder with TypeScript that the config does not exclude.
    expect(compiledTests(view, runner)).toMatchObject({
      outDir: "dist-node",
      rootDir: "src",
      named: true,
    });
    expect(suiteShape(view, runner).isTest("src/test/v4.test.ts")).toBe(true);
    const [run] = planRun(view, [{ kind: "file", path: "src/test/v4.test.ts" }]).runs;
    expect(run?.argv.at(-1)).toBe("dist-node/test/v4.test.js");
    expect(run?.build).toBe("npm run build");
    // Without a build in the test script the folder is not the output's.
    const unbuilt = createMemoryView({
      ...COPIED,
      "package.json": JSON.stringify({
        name: "uuid",
        scripts: { test: "node --test dist-node/test/*.js" },
        devDependencies: { typescript: "5.4.3" },
      }),
    });
    const plain = detectPackageRunners(unbuilt, "").find((found) => found.id === "node-test");
    if (plain === undefined) throw new Error("no node-test runner");
    expect(compiledTests(unbuilt, plain)).toMatchObject({ outDir: "dist", named: false });
  });

  it("takes no root folder when TypeScript sits in several top folders", () => {
    const view = createMemoryView({
      ...COPIED,
      "tsconfig.json": JSON.stringify({ compilerOptions: { outDir: "dist" } }),
    });
    const runner = detectPackageRunners(view, "").find((found) => found.id === "node-test");
    if (runner === undefined) throw new Error("no node-test runner");
    // examples/ is compiled too: tsc's root is the package.
    expect(compiledTests(view, runner)).toMatchObject({ rootDir: "" });
  });

  it("runs a source as its output where the runner's config collects only the output", () => {
    // jest without a TypeScript transform, told to collect the build: `tsc && jest`.
    const view = createMemoryView({
      ...HANBI,
      "package.json": JSON.stringify({
        name: "hanbi",
        scripts: { test: "jest" },
        devDependencies: { jest: "^29", typescript: "^5" },
        jest: { testMatch: ["**/lib/**/*_test.js"] },
      }),
    });
    const jest = detectPackageRunners(view, "").find((found) => found.id === "jest");
    if (jest === undefined) throw new Error("no jest runner");
    expect(suiteShape(view, jest).isTest("src/test/main_test.ts")).toBe(true);
    const [run] = planRun(view, [{ kind: "file", path: "src/test/main_test.ts" }]).runs;
    expect(run?.argv).toContain("lib/test/main_test.js");
    expect(run?.build).toBe("tsc -p tsconfig.json");
  });

  it("counts the test sources as the suite's tests, never a module or the output", () => {
    const view = createMemoryView(HANBI);
    const shape = suiteShape(view, mochaOf(view));
    expect(shape.isTest("src/test/main_test.ts")).toBe(true);
    // mocha collects lib/main.js too, but a module is no test.
    expect(shape.isTest("src/main.ts")).toBe(false);
    expect(shape.isTest("lib/test/main_test.js")).toBe(false);
    expect(shape.evidence).toContain("run from tsc's output (lib/ built from src/)");
  });

  it("counts a test folder's files as tests when the runner collects only that folder", () => {
    const view = createMemoryView(WHOLE_PACKAGE);
    const shape = suiteShape(view, mochaOf(view));
    expect(shape.isTest("test/test.index.ts")).toBe(true);
    expect(shape.isTest("src/index.ts")).toBe(false);
  });

  it("runs the output of the chosen tests, built first, and keeps the sources as the run's files", () => {
    const view = createMemoryView(HANBI);
    const [run] = planRun(view, [{ kind: "file", path: "src/test/main_test.ts" }]).runs;
    expect(run?.argv.at(-1)).toBe("lib/test/main_test.js");
    expect(run?.build).toBe("tsc -p tsconfig.json");
    expect(run?.test_files).toEqual(["src/test/main_test.ts"]);
    expect(run?.compiled).toEqual({ out_dir: "lib", root_dir: "src", allow_js: false });
  });

  it("builds with the test script's own build when it has one", () => {
    const view = createMemoryView(WHOLE_PACKAGE);
    const [run] = planRun(view, [{ kind: "file", path: "test/test.index.ts" }]).runs;
    expect(run?.argv.at(-1)).toBe("build/test/test.index.js");
    expect(run?.build).toBe("npm run compile");
  });

  it("builds before a run of the whole suite, which runs the output of the test sources there are", () => {
    // A test whose source was deleted leaves its output in lib/: `mocha lib` would still run it.
    const view = createMemoryView({
      ...HANBI,
      "lib/main.js": "export function stub() {}\n",
      "lib/test/main_test.js": "import { stub } from '../main.js';\n",
      "lib/test/removed_test.js": "throw new Error('stale');\n",
    });
    const [run] = planSuites(view, [mochaOf(view)]).runs;
    expect(run?.build).toBe("tsc -p tsconfig.json");
    expect(run?.argv).toContain("lib/test/main_test.js");
    expect(run?.argv.some((arg) => arg.includes("removed_test") || arg === "lib")).toBe(false);
    expect(run?.test_files).toEqual([]);
  });

  it("names a whole suite's output before the build, so a fresh clone's glob is not empty (uuid)", () => {
    // `node --test dist-node/test/*.js`: Node 20 expands no glob, and dist-node/ does not exist
    // until the build the run makes first.
    const view = createMemoryView(COPIED);
    const runner = detectPackageRunners(view, "").find((found) => found.id === "node-test");
    if (runner === undefined) throw new Error("no node-test runner");
    const [run] = planSuites(view, [runner]).runs;
    expect(run?.build).toBe("npm run build");
    expect(run?.argv.at(-1)).toBe("dist-node/test/v4.test.js");
  });

  it("leaves a package whose runner collects the sources as it was", () => {
    const view = createMemoryView({
      ...HANBI,
      "package.json": JSON.stringify({
        name: "hanbi",
        scripts: { test: "mocha 'src/**/*_test.ts'" },
        devDependencies: { mocha: "^11" },
      }),
    });
    const [run] = planRun(view, [{ kind: "file", path: "src/test/main_test.ts" }]).runs;
    expect(run?.argv.at(-1)).toBe("src/test/main_test.ts");
    expect(run?.build).toBeUndefined();
    expect(run?.compiled).toBeUndefined();
  });
});

describe("output and source names", () => {
  const layout = {
    outDir: "lib",
    rootDir: "src",
    config: "tsconfig.json",
    allowJs: false,
    named: true,
  };

  it.each([
    ["src/a/b.ts", "lib/a/b.js"],
    ["src/a/b.tsx", "lib/a/b.js"],
    ["src/a/b.mts", "lib/a/b.mjs"],
    ["src/a/b.cts", "lib/a/b.cjs"],
    ["src/a/b.d.ts", undefined],
    ["src/a/b.js", undefined],
    ["test/b.ts", undefined],
  ])("%s is built as %s", (source, output) => {
    expect(toCompiled(layout, source)).toBe(output);
  });

  it("reads an output back as the source that exists, else leaves it", () => {
    const exists = (path: string) => path === "src/a/b.tsx" || path === "src/c.mts";
    expect(fromCompiled(layout, "lib/a/b.js", exists)).toBe("src/a/b.tsx");
    expect(fromCompiled(layout, "lib/c.mjs", exists)).toBe("src/c.mts");
    expect(fromCompiled(layout, "lib/gone.js", exists)).toBe("lib/gone.js");
  });

  it("names a parsed run's tests and errors by their sources", () => {
    const parsed = {
      tests: [
        {
          id: { runner: "mocha" as const, file: "pkg/lib/t_test.js", segments: ["x"] },
          status: "fail" as const,
        },
      ],
      errors: [
        { file: "pkg/lib/t_test.js", message: "boom", kind: "collection" as const },
        { message: "m", kind: "crash" as const },
      ],
    };
    const run = { out_dir: "pkg/lib", root_dir: "pkg/src", allow_js: false };
    const named = sourcesOfRun(run, parsed, (path) => path === "pkg/src/t_test.ts");
    expect(named.tests[0]?.id.file).toBe("pkg/src/t_test.ts");
    expect(named.errors.map((error) => error.file)).toEqual(["pkg/src/t_test.ts", undefined]);
  });
});
