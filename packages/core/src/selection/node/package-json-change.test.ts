import { commitAll, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { openProject } from "../../project/node/project.ts";
import { chooseTests } from "./choose-tests.ts";
import { headText } from "./package-json-change.ts";

/** A package.json edit runs the suite only when it changed how the runner runs (real git). */

let temp: TempProject | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

const PACKAGE = {
  name: "calc",
  version: "1.0.0",
  scripts: { test: "jest", lint: "eslint ." },
  devDependencies: { jest: "^29" },
  jest: { testEnvironment: "node" },
};

async function committed(): Promise<TempProject> {
  temp = makeProject({
    "package.json": JSON.stringify(PACKAGE, null, 2),
    "src/sum.js": "exports.sum = (a, b) => a + b;\n",
    "src/__tests__/sum.test.js": "const { sum } = require('../sum');\n",
    "src/__tests__/other.test.js": "test('x', () => {});\n",
  });
  await commitAll(temp.root);
  return temp;
}

async function chosenFor(project: TempProject, edited: Record<string, unknown>) {
  project.write("package.json", JSON.stringify({ ...PACKAGE, ...edited }, null, 2));
  const chosen = await chooseTests(openProject(project.root), ["package.json"], { write: false });
  return chosen.plan.runs.map((run) => [run.runner.id, run.test_files]);
}

const SUITE = [["jest", ["src/__tests__/other.test.js", "src/__tests__/sum.test.js"]]];

describe("chooseTests for an edited package.json", () => {
  it.each<[string, Record<string, unknown>, unknown[]]>([
    ["a version bump runs nothing", { version: "1.0.1" }, []],
    ["a new dependency runs nothing", { dependencies: { ms: "^2" } }, []],
    ["another script runs nothing", { scripts: { test: "jest", lint: "eslint src" } }, []],
    ["the runner's own key runs the suite", { jest: { testEnvironment: "jsdom" } }, SUITE],
    ["the test script runs the suite", { scripts: { test: "jest --ci", lint: "eslint ." } }, SUITE],
    [
      "a script the test script calls runs the suite",
      { scripts: { test: "npm run unit", unit: "jest", lint: "eslint ." } },
      SUITE,
    ],
    ["the module type runs the suite", { type: "module" }, SUITE],
    ["babel's settings run the suite", { babel: { presets: ["@babel/preset-env"] } }, SUITE],
  ])("%s", async (_, edited, expected) => {
    expect(await chosenFor(await committed(), edited)).toEqual(expected);
  });

  it("outside git, with nothing to compare with, runs the suite", async () => {
    temp = makeProject({
      "package.json": JSON.stringify(PACKAGE),
      "src/__tests__/other.test.js": "test('x', () => {});\n",
      "src/__tests__/sum.test.js": "test('y', () => {});\n",
    });
    expect(await chosenFor(temp, { version: "1.0.1" })).toEqual(SUITE);
  });

  it("in git, a package.json HEAD does not hold yet runs nothing", async () => {
    const project = await committed();
    project.write("web/package.json", JSON.stringify(PACKAGE));
    project.write("web/src/__tests__/sum.test.js", "test('y', () => {});\n");
    const chosen = await chooseTests(openProject(project.root), ["web/package.json"], {
      write: false,
    });
    expect(chosen.plan.runs).toEqual([]);
  });

  it("reads HEAD's text from a project below the repository's top", async () => {
    temp = makeProject({ "web/package.json": '{"name":"web"}\n' });
    await commitAll(temp.root);
    expect(headText(`${temp.root}/web`, "package.json")).toBe('{"name":"web"}\n');
    expect(headText(`${temp.root}/web`, "missing.json")).toBeUndefined();
  });
});
