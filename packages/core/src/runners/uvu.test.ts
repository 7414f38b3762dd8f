import { describe, expect, it } from "vitest";
import { runnerArgv } from "../engine/plan.ts";
import { createMemoryView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { detectPackageRunners, findTestTarget } from "./project-runners.ts";
import { uvuScript } from "./uvu.ts";

/** A package run by uvu the way lukeed's packages are (klona: `uvu -r esm test -i suites`). */
const project = (test: string, extra: Record<string, string> = {}) =>
  createMemoryView({
    "package.json": JSON.stringify({ scripts: { test }, devDependencies: { uvu: "0.5.2" } }),
    "node_modules/.bin/uvu": "",
    "src/lite.js": "export function klona(x) { return x; }\n",
    "test/lite.js": "import { klona } from '../src/lite';\n",
    "test/suites/date.js": "export default function () {}\n",
    "test/nested/deep.test.js": "",
    ...extra,
  });

describe("a package whose test script runs uvu", () => {
  it("is run by uvu, with the test script's preloaded modules and one pattern for the files", () => {
    const view = project("uvu -r esm test -i suites");
    const [runner] = detectPackageRunners(view, "");
    expect(runner?.id).toBe("uvu");
    expect(
      runnerArgv(view, runner!, ["test/lite.js", "test/nested/deep.test.js"], []).argv,
    ).toEqual([
      "node_modules/.bin/uvu",
      "-c",
      "false",
      "-r",
      "esm",
      "test",
      "^(lite\\.js|nested\\/deep\\.test\\.js)$",
    ]);
    // The whole suite: the script's own folder, pattern and ignores.
    expect(runnerArgv(view, runner!, [], []).argv.slice(3)).toEqual([
      "-r",
      "esm",
      "test",
      "-i",
      "suites",
    ]);
    // uvu names each file from the folder it was given, for the parser to put back.
    expect(runnerArgv(view, runner!, [], []).namesFrom).toBe("test");
    expect(runnerArgv(view, runner!, ["test/lite.js"], []).namesFrom).toBe("test");
    expect(runnerArgv(project("uvu"), runner!, [], []).namesFrom).toBeUndefined();
    expect(runnerArgv(project("uvu ./ -r esm"), runner!, [], []).namesFrom).toBeUndefined();
    expect(runnerArgv(project("uvu ./test/ -r esm"), runner!, [], []).namesFrom).toBe("test");
  });

  it("counts as tests the files under its folder less the ignored ones", () => {
    const view = project("npm run build && uvu -r esm test -i suites");
    const [runner] = detectPackageRunners(view, "");
    const shape = suiteShape(view, runner!);
    expect(shape.isTest("test/lite.js")).toBe(true);
    expect(shape.isTest("test/nested/deep.test.js")).toBe(true);
    expect(shape.isTest("test/suites/date.js")).toBe(false);
    expect(shape.isTest("src/lite.js")).toBe(false);
    expect(findTestTarget(view, runner!, "src/lite.js")).toMatchObject({
      path: "test/lite.js",
      exists: true,
    });
  });

  it.each([
    ["uvu", ["test/lite.js", "src/a.test.js", "test.js"], ["src/lite.js", "test/lite.md"]],
    [
      'uvu src "\\.test\\.ts$" -r tsm -i deno',
      ["src/a.test.ts", "src/x/b.test.ts"],
      ["src/a.ts", "test/lite.js", "src/deno/c.test.ts"],
    ],
  ])("`%s`: uvu's own defaults, or its folder and pattern", (script, tests, others) => {
    const view = project(script);
    const shape = suiteShape(view, detectPackageRunners(view, "")[0]!);
    for (const file of tests) expect(shape.isTest(file), file).toBe(true);
    for (const file of others) expect(shape.isTest(file), file).toBe(false);
  });

  it("reads the script as uvu's command line: quoted pattern, repeated and --long options", () => {
    const view = project(
      "uvu packages '^(a|b)\\.js$' --require=tsm -r dotenv/config --ignore fixtures -b | tap-spec",
    );
    expect(uvuScript(view, "")).toEqual({
      dir: "packages",
      pattern: "^(a|b)\\.js$",
      ignores: ["fixtures"],
      requires: ["tsm", "dotenv/config"],
    });
  });
});

describe("a uvu command reached through scripts the test script runs by regex (postcss)", () => {
  const view = (scripts: Record<string, string>) =>
    createMemoryView({
      "package.json": JSON.stringify({ scripts, devDependencies: { uvu: "0.5.6" } }),
      "node_modules/.bin/uvu": "",
      "lib/list.js": "module.exports = {}\n",
      "test/list.test.ts": "import list = require('../lib/list.js')\n",
      "test/errors.ts": "import list = require('../lib/list.js')\n",
    });
  const postcss = {
    "test:lint": "eslint .",
    "test:coverage": "c8 pnpm unit",
    test: "FORCE_COLOR=1 pnpm run /^test:/",
    unit: 'uvu -r ts-node/register/transpile-only test "\\.test\\.(ts|js)$"',
  };

  it.each([
    ["pnpm run /^test:/ then c8 pnpm unit", postcss],
    ["a quoted regex", { ...postcss, test: 'pnpm run "/^test:.*/"' }],
    ["npm run of a script not named test", { ...postcss, test: "npm run lint && npm run unit" }],
  ])("%s: the preloaded register and the pattern are the unit script's", (_, scripts) => {
    const project = view({ ...scripts, lint: "eslint ." });
    const [runner] = detectPackageRunners(project, "");
    expect(runner?.id).toBe("uvu");
    expect(runnerArgv(project, runner!, ["test/list.test.ts"], []).argv.slice(3)).toEqual([
      "-r",
      "ts-node/register/transpile-only",
      "test",
      "^(list\\.test\\.ts)$",
    ]);
    const shape = suiteShape(project, runner!);
    expect(shape.isTest("test/list.test.ts")).toBe(true);
    expect(shape.isTest("test/errors.ts")).toBe(false);
  });

  it("spells in no package manager command that shares a script's name", () => {
    const project = view({ test: "pnpm install && uvu test", install: "uvu -r esm lib" });
    expect(uvuScript(project, "")).toMatchObject({ dir: "test", requires: [] });
  });
});
