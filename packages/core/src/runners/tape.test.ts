import { describe, expect, it } from "vitest";
import { REPORTER_TOKEN, runnerArgv } from "../engine/plan.ts";
import { createMemoryView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { recogniseTestCommand } from "../tdd/test-commands.ts";
import { detectPackageRunners, findTestTarget } from "./project-runners.ts";
import { tapeScript } from "./tape.ts";

/** A package run by tape the way ljharb's packages are (qs: `npm run tests-only`). */
const project = (scripts: Record<string, string>, extra: Record<string, string> = {}) =>
  createMemoryView({
    "package.json": JSON.stringify({ scripts, devDependencies: { tape: "^5.10.2", nyc: "^10" } }),
    "node_modules/.bin/tape": "",
    "lib/parse.js": "module.exports = function parse() {};\n",
    "test/parse.js": "var test = require('tape');\nvar qs = require('../');\n",
    "test/helpers/setup.js": "",
    ...extra,
  });

const QS = { test: "npm run tests-only", "tests-only": "nyc tape 'test/**/*.js'" };

describe("a package whose test script runs tape", () => {
  it("is found through the test scripts it runs, and runs chosen files with tailtest's preload", () => {
    const view = project(QS);
    const [runner] = detectPackageRunners(view, "");
    expect(runner).toMatchObject({
      id: "tape",
      command: ["node_modules/.bin/tape"],
      evidence: expect.stringMatching(/scripts\.test runs tape/),
    });
    const planned = runnerArgv(view, runner!, ["test/parse.js"], []);
    expect(planned.argv).toEqual(["node_modules/.bin/tape", "-r", REPORTER_TOKEN, "test/parse.js"]);
    expect(planned.format).toBe("tape-tap");
    // The whole suite: the script's own glob, which tape expands itself.
    expect(runnerArgv(view, runner!, [], []).argv.slice(3)).toEqual(["test/**/*.js"]);
    // A test id runs its whole file, once.
    const id = { runner: "tape" as const, file: "test/parse.js", segments: ["parses"] };
    expect(runnerArgv(view, runner!, ["test/parse.js"], [id]).argv.slice(3)).toEqual([
      "test/parse.js",
    ]);
  });

  it("keeps the script's own preloads first, and takes no piped reporter for a runner", () => {
    const view = project({ test: "tape -r @babel/register --require=esm test/*.js | tap-spec" });
    const [runner] = detectPackageRunners(view, "");
    expect(runner?.id).toBe("tape");
    expect(runnerArgv(view, runner!, ["test/parse.js"], []).argv).toEqual([
      "node_modules/.bin/tape",
      "-r",
      "@babel/register",
      "-r",
      "esm",
      "-r",
      REPORTER_TOKEN,
      "test/parse.js",
    ]);
  });

  it.each([
    ["tape 'test/**/*.js'", ["test/parse.js", "test/helpers/setup.js"], ["lib/parse.js"]],
    ['tape "test/*.js" -i .testignore', ["test/parse.js"], ["test/helpers/setup.js"]],
    ["tape test/index.js", ["test/index.js"], ["test/parse.js"]],
    // No files in the script: the usual folders.
    ["node test", ["test/parse.js", "tests/a.mjs"], ["lib/parse.js", "test/parse.ts"]],
  ])("`%s`: the files the script gives tape are its tests", (script, tests, others) => {
    const view = project({ test: script });
    const shape = suiteShape(view, detectPackageRunners(view, "")[0]!);
    for (const file of tests) expect(shape.isTest(file), file).toBe(true);
    for (const file of others) expect(shape.isTest(file), file).toBe(false);
  });

  it("reads the script as tape's command line", () => {
    const view = project({
      test: "nyc tape --ignore .gitignore -r ./test/setup.js 'test/**/*.js' test/extra.mjs && eslint",
    });
    expect(tapeScript(view, "")).toEqual({
      patterns: ["test/**/*.js", "test/extra.mjs"],
      requires: ["./test/setup.js"],
      given: true,
    });
  });

  it("looks for a module's test as tape projects name them", () => {
    const view = project(QS);
    const [runner] = detectPackageRunners(view, "");
    expect(findTestTarget(view, runner!, "lib/parse.js")).toMatchObject({
      path: "test/parse.js",
      exists: true,
    });
  });

  it("is told apart from node-tap, and from tape's browser runners", () => {
    const tap = project({ test: "tap test/*.js" }, {});
    expect(detectPackageRunners(tap, "")[0]?.id).not.toBe("tape");
    const browser = createMemoryView({
      "package.json": JSON.stringify({ scripts: { test: "tape-run < bundle.js" } }),
    });
    expect(detectPackageRunners(browser, "").map((runner) => runner.id)).not.toContain("tape");
  });

  it("recognises an agent's tape command as a test command", () => {
    const runners = detectPackageRunners(project(QS), "");
    for (const argv of [
      ["npx", "tape", "test/parse.js"],
      ["node_modules/.bin/tape", "test/parse.js"],
      ["tape", "test/**/*.js"],
    ])
      expect(recogniseTestCommand([argv], { runners }), argv.join(" ")).toMatchObject({
        isTest: true,
        runner: "tape",
      });
    expect(recogniseTestCommand([["tap", "test/x.js"]], { runners })).not.toMatchObject({
      runner: "tape",
    });
  });
});
