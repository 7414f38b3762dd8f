import { describe, expect, it } from "vitest";
import { flakyRerun, planRun, planSuites } from "../engine/plan.ts";
import { summarizeRun } from "../engine/summarize.ts";
import { createMemoryView } from "../project/project-view.ts";
import { detectProjectRunners } from "./project-runners.ts";
import { loadsBuildOutput, shadowedSources, testBuildCommand } from "./shared.ts";

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: "calc", version: "1.0.0", ...extra, scripts });

/** The build a package's tests run after, read from its test and pretest scripts. */
describe("testBuildCommand", () => {
  it.each<[string, Record<string, string>, string | undefined]>([
    [
      "a test script that builds first",
      { build: "tsc", test: "npm run build && node --test" },
      "npm run build",
    ],
    [
      "pnpm's and yarn's short calls",
      { "build:ts": "tsc", test: "pnpm build:ts && ava" },
      "npm run build:ts",
    ],
    [
      "a build tool called directly",
      { test: "tsc -p tsconfig.build.json && mocha" },
      "tsc -p tsconfig.build.json",
    ],
    [
      "a pretest that compiles",
      { compile: "tsc", pretest: "npm run compile", test: "mocha" },
      "npm run compile",
    ],
    [
      "variables before the command",
      { build: "rollup -c", test: "NODE_ENV=test npm run build && vitest run" },
      "npm run build",
    ],
    [
      "a build in a subshell, and a quoted separator kept inside its word",
      { test: "(NODE_ENV=test tsc -p .) && node --test 'test/a;b.test.js'" },
      "tsc -p .",
    ],
    ["lint and test only", { lint: "eslint .", test: "npm run lint && vitest run" }, undefined],
    ["a build script the package lacks", { test: "npm run build && node --test" }, undefined],
    ["no scripts that build", { test: "jest" }, undefined],
  ])("%s", (_, scripts, expected) => {
    const view = createMemoryView({ "package.json": pkg(scripts) });
    expect(testBuildCommand(view, "")).toBe(expected);
  });
});

/** Whether a test loads what a build wrote. */
describe("loadsBuildOutput", () => {
  it.each<[string, Record<string, string>, string, boolean]>([
    ["a relative import of dist/", {}, 'import { add } from "../dist/index.js";', true],
    ["a require of build/", {}, 'const { add } = require("../build/math");', true],
    ["a dynamic import of out/", {}, 'const m = await import("../out/index.mjs");', true],
    ["an import of the sources", {}, 'import { add } from "../src/index.ts";', false],
    [
      "the package's own name, whose main is built",
      { "package.json": pkg({}, { main: "dist/index.js", exports: "./dist/index.js" }) },
      'import { add } from "calc";',
      true,
    ],
    [
      "the package's own name, whose exports name its sources",
      { "package.json": pkg({}, { exports: "./src/index.js" }) },
      'import { add } from "calc";',
      false,
    ],
    [
      "lib/ beside the sources it is built from",
      { "src/math.ts": "" },
      'const { add } = require("../lib/math");',
      true,
    ],
    ["lib/ as the sources themselves (express, qs)", {}, 'const qs = require("../lib");', false],
    [
      "the package's own name, whose main is lib/ built from src/",
      { "package.json": pkg({}, { main: "lib/index.js" }), "src/index.ts": "" },
      'import { add } from "calc";',
      true,
    ],
    [
      "the package's own name, whose main is its lib/ sources",
      { "package.json": pkg({}, { main: "lib/index.js" }), "lib/index.js": "" },
      'import { add } from "calc";',
      false,
    ],
    [
      "another package",
      { "package.json": pkg({}, { main: "dist/index.js" }) },
      'import x from "dist";',
      false,
    ],
  ])("%s", (_, files, text, expected) => {
    const view = createMemoryView({ ...files, "test/index.test.js": text });
    expect(loadsBuildOutput(view, "", "test/index.test.js")).toBe(expected);
  });

  it("a package's build folder, not another package's", () => {
    const view = createMemoryView({
      "packages/a/test/a.test.js":
        'import x from "../dist/index.js";\nimport y from "../../b/dist/b.js";',
      "packages/c/test/c.test.js": 'import y from "../../b/dist/b.js";',
    });
    expect(loadsBuildOutput(view, "packages/a", "packages/a/test/a.test.js")).toBe(true);
    expect(loadsBuildOutput(view, "packages/c", "packages/c/test/c.test.js")).toBe(false);
  });
});

/** A run whose tests load the build builds first; one that reads the sources does not. */
describe("a planned run builds first when its tests load build output", () => {
  const files = {
    "package.json": pkg({ build: "tsc", test: "npm run build && node --test" }),
    "src/math.js": "export const add = (a, b) => a + b;\n",
    "test/built.test.js": 'import { add } from "../dist/math.js";\n',
    "test/source.test.js": 'import { add } from "../src/math.js";\n',
  };
  it.each([
    ["test/built.test.js", "npm run build"],
    ["test/source.test.js", undefined],
  ])("%s", (test, build) => {
    const plan = planRun(createMemoryView(files), [{ kind: "file", path: test }]);
    expect(plan.runs).toHaveLength(1);
    expect(plan.runs[0]?.build).toBe(build);
  });

  it.each([
    ["a test that loads the build", files, "npm run build"],
    [
      "tests of the sources only",
      { ...files, "test/built.test.js": 'import { add } from "../src/math.js";\n' },
      undefined,
    ],
  ])("the whole suite, %s", (_, project, build) => {
    const view = createMemoryView(project);
    const runners = detectProjectRunners(view, 2);
    const plan = planSuites(view, runners);
    expect(plan.runs.map((run) => [run.runner.id, run.build])).toEqual([["node-test", build]]);
  });

  it("the run that tells a flaky failure from a red one does not build again", () => {
    const view = createMemoryView(files);
    const [run] = planRun(view, [{ kind: "file", path: "test/built.test.js" }]).runs;
    if (run === undefined) throw new Error("no run planned");
    const result = summarizeRun(
      run,
      { tests: [], errors: [] },
      { exitCode: 1, timedOut: false, durationMs: 1, output: "" },
    );
    expect(run.build).toBe("npm run build");
    expect(flakyRerun(view, run, result).build).toBeUndefined();
  });
});

/** A src-layout package installed as a copy into the project's virtualenv shadows its sources. */
describe("shadowedSources", () => {
  const base = {
    ".venv/pyvenv.cfg": "home = /usr/bin\n",
    ".venv/bin/python": "",
    "src/calc/__init__.py": "",
  };
  it.each<[string, Record<string, string>, string, string, string | undefined]>([
    [
      "a copy in site-packages",
      { ".venv/lib/python3.12/site-packages/calc/__init__.py": "" },
      "",
      ".venv/bin/python",
      "src",
    ],
    [
      "an editable install (a .pth file, no copy)",
      { ".venv/lib/python3.12/site-packages/_calc.pth": "/project/src\n" },
      "",
      ".venv/bin/python",
      undefined,
    ],
    [
      "another package's copy",
      { ".venv/lib/python3.12/site-packages/other/__init__.py": "" },
      "",
      ".venv/bin/python",
      undefined,
    ],
    [
      "the machine's python",
      { ".venv/lib/python3.12/site-packages/calc/__init__.py": "" },
      "",
      "python3",
      undefined,
    ],
  ])("%s", (_, files, dir, python, expected) => {
    const view = createMemoryView({ ...base, ...files });
    expect(shadowedSources(view, dir, python)).toBe(expected);
  });

  it("a package folder's run through the root's virtualenv", () => {
    const view = createMemoryView({
      ".venv/lib/python3.12/site-packages/calc/__init__.py": "",
      "libs/calc/src/calc/__init__.py": "",
    });
    expect(shadowedSources(view, "libs/calc", "../../.venv/bin/python")).toBe("src");
  });
});
