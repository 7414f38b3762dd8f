import { describe, expect, it } from "vitest";
import { planSuites, REPORT_TOKEN, runnerArgv } from "../engine/plan.ts";
import { createMemoryView } from "../project/project-view.ts";
import { suiteShape } from "../selection/suite.ts";
import { detectPackageRunners, shellCommandForTestFiles } from "./project-runners.ts";
import { specOf } from "./table.ts";

/** The argv of a run of one chosen file in a package whose test script is `test`. */
const argvFor = (test: string) => {
  const view = createMemoryView({
    "package.json": JSON.stringify({ scripts: { test }, devDependencies: { jest: "30.2.0" } }),
    "node_modules/.bin/jest": "",
    "jest.unit.js": "module.exports = {}\n",
  });
  const runner = detectPackageRunners(view, "").find((r) => r.id === "jest");
  return runnerArgv(view, runner!, ["test/a.test.ts"], []).argv;
};

describe("a jest run keeps the test script's colours, config, forced exit and workers", () => {
  it.each([
    // jest-extended: snapshots of coloured messages are red when jest colours nothing.
    ["jest --color=true", ["--color=true"]],
    ["jest --colors --ci --coverage", ["--colors"]],
    ["jest --no-color", ["--no-color"]],
    ["jest --config jest.unit.js --runInBand", ["--config=jest.unit.js", "--runInBand"]],
    // A suite whose files share a database or a port: in parallel workers they fail one another.
    ["NODE_ENV=test jest -i --detectOpenHandles", ["--runInBand"]],
    ["jest --maxWorkers=2 --testTimeout 20000", ["--maxWorkers=2", "--testTimeout=20000"]],
    ["jest -w 1", ["--maxWorkers=1"]],
    ["jest --max-workers=50% --run-in-band=false", ["--maxWorkers=50%"]],
    // An app whose pool or timer outlives the tests: without it jest waits for the timeout.
    ["jest --forceExit --detectOpenHandles", ["--forceExit"]],
    ["cross-env NODE_ENV=test jest --watchAll=false --force-exit", ["--forceExit"]],
    ["jest -c 'jest.unit.js' && tsc --noEmit --color", ["--config=jest.unit.js"]],
    ["npm run lint && jest --config=jest.unit.js --color", ["--config=jest.unit.js", "--color"]],
    ["jest", []],
    ["kcd-scripts test", []],
  ])("%s", (script, kept) => {
    expect(argvFor(script)).toEqual([
      "node_modules/.bin/jest",
      ...kept,
      "--coverage=false",
      "--json",
      `--outputFile=${REPORT_TOKEN}`,
      "--testLocationInResults",
      "--runTestsByPath",
      "test/a.test.ts",
    ]);
  });
});

describe("a jest run collects no coverage", () => {
  // vercel/ms: `collectCoverage: true` and a 100 % `coverageThreshold` in jest.config.ts make a
  // run of one file exit 1 with every test green ("threshold not met"), a false block.
  it("in tailtest's run and in the re-run command it prints", () => {
    const view = createMemoryView({
      "package.json": JSON.stringify({
        scripts: { test: "jest" },
        devDependencies: { jest: "30" },
      }),
      "node_modules/.bin/jest": "",
      "jest.config.ts":
        "export default { collectCoverage: true, coverageThreshold: { global: { lines: 100 } } };\n",
    });
    const runner = detectPackageRunners(view, "").find((r) => r.id === "jest");
    expect(runnerArgv(view, runner!, ["src/a.test.ts"], []).argv).toContain("--coverage=false");
    expect(specOf("jest").fileCommand(runner!.command, ["src/a.test.ts"])).toEqual([
      "node_modules/.bin/jest",
      "--coverage=false",
      "--runTestsByPath",
      "src/a.test.ts",
    ]);
  });
});

describe("jest's testPathIgnorePatterns", () => {
  it.each([
    [
      "a helpers folder under __tests__ (jest-dom)",
      "module.exports = {\n  testPathIgnorePatterns: ['/node_modules/', '/__tests__/helpers/'],\n}\n",
      ["src/__tests__/to-be-checked.js"],
      ["src/__tests__/helpers/document.js", "node_modules/x/__tests__/a.js"],
    ],
    [
      "<rootDir> anchors a pattern at the package",
      "module.exports = {\n  testPathIgnorePatterns: ['<rootDir>/e2e/'],\n}\n",
      ["test/a.test.js", "src/e2e/a.test.js"],
      ["e2e/a.test.js"],
    ],
  ])("%s", (_name, config, tests, ignored) => {
    const view = createMemoryView({
      "package.json": JSON.stringify({ scripts: { test: "jest" }, devDependencies: { jest: "1" } }),
      "jest.config.js": config,
    });
    const shape = suiteShape(
      view,
      detectPackageRunners(view, "").find((r) => r.id === "jest")!,
    );
    for (const path of tests) expect(shape.isTest(path), path).toBe(true);
    for (const path of ignored) expect(shape.isTest(path), path).toBe(false);
  });
});

describe("the variables a test script sets for its runner", () => {
  it.each([
    // vitest-axe: its snapshots hold the colours FORCE_COLOR=2 turns on.
    ["cross-env FORCE_COLOR=2 vitest", "vitest", { FORCE_COLOR: "2" }],
    [
      "NODE_OPTIONS='--expose-gc' TZ=UTC jest --ci",
      "jest",
      { NODE_OPTIONS: "--expose-gc", TZ: "UTC" },
    ],
    ["env LANG=C node --test test/", "node-test", { LANG: "C" }],
    ["cross-env NODE_ENV=production npm run build && jest", "jest", {}],
    ["jest FOO=1", "jest", {}],
    ["vitest", "vitest", {}],
  ])("%s", (test, id, env) => {
    const view = createMemoryView({
      "package.json": JSON.stringify({
        scripts: { test },
        devDependencies: { [id === "node-test" ? "x" : id]: "1" },
      }),
      "test/a.test.js": "import test from 'node:test'\n",
    });
    const runner = detectPackageRunners(view, "").find((r) => r.id === id);
    expect(planSuites(view, [runner!]).runs[0]?.env).toEqual({ ...env, CI: "1" });
  });
});

/**
 * A Create React App keeps jest's config inside `react-scripts test` (JSX through babel-preset-
 * react-app, CSS modules stubbed): jest runs through it, once, with every option passed on.
 */
describe("jest through react-scripts, craco or react-app-rewired", () => {
  it.each([
    ["react-scripts test", "react-scripts"],
    ["craco test", "craco"],
    ["react-app-rewired test --env=jsdom", "react-app-rewired"],
  ])("%s", (test, tool) => {
    const view = createMemoryView({
      "package.json": JSON.stringify({
        scripts: { test },
        dependencies: { [tool]: "5.0.1", react: "18.3.1" },
      }),
      [`node_modules/.bin/${tool}`]: "",
      "src/App.test.js": "",
    });
    const runner = detectPackageRunners(view, "").find((r) => r.id === "jest");
    expect(runner?.command).toEqual([`node_modules/.bin/${tool}`, "test", "--watchAll=false"]);
    const argv = runnerArgv(view, runner!, ["src/App.test.js"], []).argv;
    expect(argv.slice(0, 3)).toEqual([`node_modules/.bin/${tool}`, "test", "--watchAll=false"]);
    expect(argv).toContain("--json");
    expect(argv.slice(-2)).toEqual(["--runTestsByPath", "src/App.test.js"]);
  });
});

describe("a jest config that another script names (NestJS's test:e2e)", () => {
  const nest = (scripts: Record<string, string>) =>
    createMemoryView({
      "package.json": JSON.stringify({
        scripts,
        devDependencies: { jest: "30.2.0" },
        jest: { rootDir: "src", testRegex: ".*\\.spec\\.ts$" },
      }),
      "node_modules/.bin/jest": "",
      "test/jest-e2e.json": JSON.stringify({ rootDir: ".", testRegex: ".e2e-spec.ts$" }),
      "jest.e2e.config.js": "module.exports = { testMatch: ['<rootDir>/e2e/**/*.test.ts'] };\n",
    });
  const jestOf = (view: ReturnType<typeof nest>) =>
    detectPackageRunners(view, "").find((r) => r.id === "jest")!;
  const TAIL = [
    "--coverage=false",
    "--json",
    `--outputFile=${REPORT_TOKEN}`,
    "--testLocationInResults",
  ];

  it("takes the e2e specs for tests, by the config's own rootDir and testRegex", () => {
    const view = nest({ test: "jest", "test:e2e": "jest --config ./test/jest-e2e.json" });
    const shape = suiteShape(view, jestOf(view));
    for (const path of ["src/app.controller.spec.ts", "test/app.e2e-spec.ts"])
      expect(shape.isTest(path), path).toBe(true);
    for (const path of ["src/app.e2e-spec.ts.map", "src/app.service.ts", "e2e/a.test.ts"])
      expect(shape.isTest(path), path).toBe(false);
  });

  it("runs an e2e spec with its config, and unit and e2e specs as two projects", () => {
    const view = nest({ test: "jest", "test:e2e": "jest --config ./test/jest-e2e.json" });
    const argv = (files: string[]) => runnerArgv(view, jestOf(view), files, []).argv;
    expect(argv(["src/app.controller.spec.ts"])).toEqual([
      "node_modules/.bin/jest",
      ...TAIL,
      "--runTestsByPath",
      "src/app.controller.spec.ts",
    ]);
    expect(argv(["test/app.e2e-spec.ts"])).toEqual([
      "node_modules/.bin/jest",
      "--config=test/jest-e2e.json",
      ...TAIL,
      "--runTestsByPath",
      "test/app.e2e-spec.ts",
    ]);
    expect(argv(["src/app.controller.spec.ts", "test/app.e2e-spec.ts"])).toEqual([
      "node_modules/.bin/jest",
      "--projects",
      ".",
      "test/jest-e2e.json",
      ...TAIL,
      "--runTestsByPath",
      "src/app.controller.spec.ts",
      "test/app.e2e-spec.ts",
    ]);
    // The whole suite is the test script's: the e2e config is not part of it.
    expect(argv([])).toEqual(["node_modules/.bin/jest", ...TAIL]);
  });

  it("says so in the command it prints to run the specs again", () => {
    const view = nest({
      test: "jest --config=jest.unit.js",
      "test:e2e": "jest -c test/jest-e2e.json",
    });
    const run = (files: string[]) => shellCommandForTestFiles(jestOf(view), files, view);
    expect(run(["test/app.e2e-spec.ts"])).toBe(
      "node_modules/.bin/jest --config=test/jest-e2e.json --coverage=false --runTestsByPath test/app.e2e-spec.ts",
    );
    // The test script's own config, which a re-run left out too.
    expect(run(["src/a.spec.ts"])).toBe(
      "node_modules/.bin/jest --config=jest.unit.js --coverage=false --runTestsByPath src/a.spec.ts",
    );
  });

  it("follows a second jest command in the test script, in the whole suite too", () => {
    const view = nest({ test: "jest && jest -c jest.e2e.config.js" });
    const shape = suiteShape(view, jestOf(view));
    expect(shape.isTest("e2e/login.test.ts")).toBe(true);
    expect(shape.isTest("src/e2e/login.test.ts")).toBe(false);
    expect(runnerArgv(view, jestOf(view), [], []).argv).toEqual([
      "node_modules/.bin/jest",
      "--projects",
      ".",
      "jest.e2e.config.js",
      ...TAIL,
    ]);
  });

  it("leaves a config named by no file, or a watch script's, alone", () => {
    const view = nest({
      test: "jest",
      "test:watch": "jest --watch",
      "test:x": "jest -c gone.json",
    });
    expect(runnerArgv(view, jestOf(view), ["test/app.e2e-spec.ts"], []).argv).toEqual([
      "node_modules/.bin/jest",
      ...TAIL,
      "--runTestsByPath",
      "test/app.e2e-spec.ts",
    ]);
    expect(suiteShape(view, jestOf(view)).isTest("test/app.e2e-spec.ts")).toBe(false);
  });
});
