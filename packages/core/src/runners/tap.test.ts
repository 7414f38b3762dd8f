import { describe, expect, it } from "vitest";
import { runnerArgv } from "../engine/plan.ts";
import { createMemoryView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { detectPackageRunners } from "./project-runners.ts";

/** A package run by tap 21 with `test` as its test script (dotenv's shape). */
const project = (test: string, extra: Record<string, string> = {}) =>
  createMemoryView({
    "package.json": JSON.stringify({ scripts: { test }, devDependencies: { tap: "^21.7.4" } }),
    "node_modules/.bin/tap": "",
    "node_modules/tap/package.json": '{"name":"tap","version":"21.7.4"}',
    "lib/main.js": "module.exports = {};\n",
    "tests/test-parse.js": "const t = require('tap');\nrequire('../lib/main');\n",
    "tests/types/test.ts": "import { parse } from '../../lib/main';\n",
    ...extra,
  });

const DOTENV =
  "npm run build && npm run lint && tap run tests/**/*.js --allow-empty-coverage --disable-coverage --timeout=60000";

describe("the files a test script gives tap", () => {
  it("are its suite, in place of tap's default folders (dotenv)", () => {
    const view = project(DOTENV);
    const runner = detectPackageRunners(view, "").find((r) => r.id === "tap")!;
    const shape = suiteShape(view, runner);
    expect(shape.isTest("tests/test-parse.js")).toBe(true);
    // A tsc-only typings check in a tap default folder is not in the script's glob.
    expect(shape.isTest("tests/types/test.ts")).toBe(false);
    expect(shape.evidence).toMatch(/test script's tap files/);
    // The whole suite runs the script's glob; chosen files run alone.
    expect(runnerArgv(view, runner, [], []).argv.slice(-1)).toEqual(["tests/**/*.js"]);
    expect(runnerArgv(view, runner, ["tests/test-parse.js"], []).argv).toEqual([
      "node_modules/.bin/tap",
      "--reporter=tap",
      "--disable-coverage",
      "tests/test-parse.js",
    ]);
  });

  it.each([
    ["tap -R spec --timeout 30 test/*.js", "test/a.js", "lib/a.js"],
    ["tap --node-arg=--expose-gc ./test", "test/a.js", "tests/a.js"],
  ])("%s: an option's value is no file", (test, inSuite, outside) => {
    const view = project(test);
    const runner = detectPackageRunners(view, "").find((r) => r.id === "tap")!;
    const shape = suiteShape(view, runner);
    expect(shape.isTest(inSuite)).toBe(true);
    expect(shape.isTest(outside)).toBe(false);
  });

  it("a bare `tap` keeps tap's default folders", () => {
    const view = project("tap");
    const runner = detectPackageRunners(view, "").find((r) => r.id === "tap")!;
    expect(suiteShape(view, runner).isTest("tests/types/test.ts")).toBe(true);
  });
});
