import { describe, expect, it } from "vitest";
import { REPORTER_TOKEN, runnerArgv } from "../engine/plan.ts";
import { createMemoryView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { detectPackageRunners } from "./project-runners.ts";

/** A package run by jasmine with its config named in the test script (marked's habit). */
const project = (test: string, config: Record<string, string>) =>
  createMemoryView({
    "package.json": JSON.stringify({ scripts: { test }, devDependencies: { jasmine: "5.1.0" } }),
    "node_modules/.bin/jasmine": "",
    "src/Lexer.js": "",
    ...config,
  });

describe("a package whose test script runs jasmine", () => {
  it("runs the chosen spec files with the script's config and tailtest's reporter", () => {
    const view = project("jasmine --config=jasmine.json", {
      "jasmine.json": JSON.stringify({ spec_dir: "test", spec_files: ["**/*-spec.js"] }),
    });
    const [runner] = detectPackageRunners(view, "");
    expect(runner?.id).toBe("jasmine");
    const built = runnerArgv(view, runner!, ["test/unit/Lexer-spec.js"], []);
    expect(built.argv).toEqual([
      "node_modules/.bin/jasmine",
      "--config=jasmine.json",
      `--reporter=${REPORTER_TOKEN}`,
      "test/unit/Lexer-spec.js",
    ]);
    expect(built.format).toBe("jasmine-events");
  });

  it("loads its config's helpers before every spec: they are its setup files", () => {
    const view = project("jasmine --config=jasmine.json", {
      "jasmine.json": JSON.stringify({
        spec_dir: "test",
        spec_files: ["**/*-spec.js"],
        helpers: ["helpers/helpers.js"],
      }),
    });
    const shape = suiteShape(view, detectPackageRunners(view, "")[0]!);
    expect(shape.isSetup("test/helpers/helpers.js")).toBe(true);
    expect(shape.isSetup("test/helpers/html-differ.js")).toBe(false);
    expect(shape.isSetup("test/unit/Lexer-spec.js")).toBe(false);
  });

  it.each([
    [
      "the config the script names",
      "npm run build && jasmine --config=jasmine.json",
      {
        "jasmine.json": JSON.stringify({
          spec_dir: "test",
          spec_files: ["**/*-spec.js", "!**/skip-spec.js"],
          helpers: ["helpers/helpers.js"],
        }),
      },
      ["test/unit/Lexer-spec.js", "test/specs/run-spec.js"],
      ["test/helpers/helpers.js", "test/unit/utils.js", "spec/a-spec.js", "test/x/skip-spec.js"],
    ],
    [
      "jasmine's default config",
      "jasmine",
      {
        "spec/support/jasmine.json": JSON.stringify({
          spec_dir: "spec",
          spec_files: ["**/*[sS]pec.?(m)js"],
          helpers: ["helpers/**/*.?(m)js"],
        }),
      },
      ["spec/lexerSpec.js", "spec/deep/lexer.spec.mjs"],
      ["spec/helpers/someSpec.js", "spec/support/jasmine.json", "test/lexer.spec.js"],
    ],
    [
      "no config at all: jasmine init's",
      "jasmine",
      {},
      ["spec/lexerSpec.js"],
      ["test/lexerSpec.js", "spec/lexer.js"],
    ],
  ])("%s decides which files are specs", (_name, script, config, tests, others) => {
    const view = project(script, config);
    const shape = suiteShape(view, detectPackageRunners(view, "")[0]!);
    for (const file of tests) expect(shape.isTest(file), file).toBe(true);
    for (const file of others) expect(shape.isTest(file), file).toBe(false);
  });
});
