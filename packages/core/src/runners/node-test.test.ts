import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import { nodeTest } from "./node-test.ts";
import { suiteShape } from "../selection/suite.ts";
import { detectPackageRunners, type DetectedRunner } from "./project-runners.ts";

const runner: DetectedRunner = {
  id: "node-test",
  languages: ["javascript", "typescript"],
  package_dir: "",
  command: ["node", "--import=tsx/esm", "--test"],
  test_dir: "test",
  evidence: "package.json scripts.test",
};

const argvOf = (files: Record<string, string>, chosen: string[]) =>
  nodeTest.argv({ view: createMemoryView(files), runner, files: chosen, ids: [] }).argv;

const pqueue = {
  "package.json": JSON.stringify({
    scripts: { test: "xo && node --import=tsx/esm --test test/*.ts && tsc" },
  }),
  "test/basic.ts": "",
  "test/strict.ts": "",
  "test/fixtures/helper.ts": "",
  "test/notes.md": "",
  "source/index.ts": "",
};

describe("a whole-suite node --test run", () => {
  it("names the test script's files, its globs expanded (Node 20 expands none)", () => {
    const argv = argvOf(pqueue, []);
    expect(argv.slice(-2)).toEqual(["test/basic.ts", "test/strict.ts"]);
    expect(argv).not.toContain("test/fixtures/helper.ts");
  });

  it("keeps the script's folders and files, and drops what does not exist", () => {
    const files = {
      "package.json": JSON.stringify({
        scripts: { test: "node --test tests/ extra.test.js gone/" },
      }),
      "tests/a.test.js": "",
      "extra.test.js": "",
    };
    expect(argvOf(files, []).slice(-2)).toEqual(["extra.test.js", "tests/"]);
  });

  it("leaves chosen files alone, and Node's defaults when the script names nothing", () => {
    expect(argvOf(pqueue, ["test/strict.ts"]).slice(-1)).toEqual(["test/strict.ts"]);
    expect(argvOf(pqueue, ["test/strict.ts"])).not.toContain("test/basic.ts");
    const bare = { "package.json": JSON.stringify({ scripts: { test: "node --test" } }) };
    expect(argvOf(bare, []).at(-1)).toMatch(/^--test-reporter-destination=/);
  });
});

describe("a whole-suite run of a script that runs one file with plain node (mdx-js/mdx)", () => {
  const react = {
    "package.json": JSON.stringify({
      scripts: {
        test: "npm run test-coverage",
        "test-api":
          "node --conditions development --loader=../../script/jsx-loader.js test/index.jsx",
        "test-coverage": "c8 --100 --reporter lcov npm run test-api",
      },
    }),
    "test/index.jsx": 'import assert from "node:assert/strict";\nimport {test} from "node:test";\n',
    "lib/index.js": "",
  };

  it("names that file, which Node's default patterns do not find (a .jsx)", () => {
    const view = createMemoryView(react);
    const [detected] = detectPackageRunners(view, "").filter((one) => one.id === "node-test");
    expect(detected?.command).toEqual([
      "node",
      "--conditions",
      "development",
      "--loader=../../script/jsx-loader.js",
      "--test",
    ]);
    const argv = nodeTest.argv({
      view,
      runner: { ...runner, command: detected?.command ?? [] },
      files: [],
      ids: [],
    }).argv;
    expect(argv.at(-1)).toBe("test/index.jsx");
  });
});

describe("a test script reaching `tsx --test` through npm-run-all (helmet)", () => {
  const helmet = createMemoryView({
    "package.json": JSON.stringify({
      type: "module",
      scripts: {
        "test:eslint": "eslint --cache .",
        "test:node": "tsx --test test/*.ts",
        "test:typescript": "tsc --noEmit",
        build: "tsx ./build/build-package.ts",
        test: "run-p --aggregate-output test:*",
      },
      devDependencies: { tsx: "^4.22.4", "npm-run-all2": "^9.0.2" },
    }),
    "tsconfig.json": "{}",
    "node_modules/.bin/tsx": "",
    "index.ts": "",
    "middlewares/x-frame-options/index.ts": "",
    "test/helpers.ts": "",
    "test/index.test.ts": "",
    "test/x-frame-options.test.ts": "",
  });

  it("is node --test run by tsx, its suite the script's glob", () => {
    const found = detectPackageRunners(helmet, "").find((r) => r.id === "node-test");
    expect(found?.command).toEqual(["node_modules/.bin/tsx", "--test"]);
    const shape = suiteShape(helmet, found!);
    expect(shape.isTest("test/x-frame-options.test.ts")).toBe(true);
    expect(shape.isTest("middlewares/x-frame-options/index.ts")).toBe(false);
    const argv = nodeTest.argv({ view: helmet, runner: found!, files: [], ids: [] }).argv;
    expect(argv.slice(-3)).toEqual([
      "test/helpers.ts",
      "test/index.test.ts",
      "test/x-frame-options.test.ts",
    ]);
  });
});

describe("better-node-test's `bnt` in the test script (nanoid)", () => {
  const nanoid = {
    "package.json": JSON.stringify({
      type: "module",
      scripts: {
        "test:coverage": "bnt --coverage 100 --coverage-exclude 'test/*'",
        "test:lint": "oxlint",
        "test:versions": "node ./test/check-versions.js",
        test: "pnpm run /^test:/",
      },
      devDependencies: { "better-node-test": "^1.0.0" },
    }),
    "index.js": "",
    "test/index.test.js": "",
    "test/pool.test.js": "",
    "test/benchmark.js": "",
    "test/check-versions.js": "",
    "non-secure/index.js": "",
    "node_modules/dep/a.test.js": "",
  };
  const detect = (files: Record<string, string>) =>
    detectPackageRunners(createMemoryView(files), "").find((r) => r.id === "node-test");

  it("is node --test on bnt's files: *.test/*.spec .js/.ts, outside node_modules", () => {
    const found = detect(nanoid);
    expect(found?.command).toEqual(["node", "--test"]);
    expect(found?.evidence).toMatch(/bnt/);
    const view = createMemoryView(nanoid);
    const { argv, env } = nodeTest.argv({ view, runner: found!, files: [], ids: [] });
    expect(argv.slice(-2)).toEqual(["test/index.test.js", "test/pool.test.js"]);
    expect(env).toEqual({ NODE_ENV: "test" });
    const shape = nodeTest.suite(view, found!);
    expect(shape.isTest("test/index.test.js")).toBe(true);
    // Node's own defaults would run every .js file under test/: bnt does not.
    expect(shape.isTest("test/benchmark.js")).toBe(false);
    expect(shape.isTest("node_modules/dep/a.test.js")).toBe(false);
  });

  it("strips types when a test is TypeScript, and runs only the files the script names", () => {
    const ts = {
      "package.json": JSON.stringify({ scripts: { test: "bnt test/a.test.ts -t fast && tsc" } }),
      "test/a.test.ts": "",
      "test/b.test.ts": "",
    };
    const found = detect(ts);
    expect(found?.command).toEqual(["node", "--test", "--experimental-strip-types"]);
    const view = createMemoryView(ts);
    expect(nodeTest.suite(view, found!).isTest("test/b.test.ts")).toBe(false);
    expect(nodeTest.argv({ view, runner: found!, files: [], ids: [] }).argv.at(-1)).toBe(
      "test/a.test.ts",
    );
  });

  it("is not bnt where the script runs node --test itself, nor for a word that only holds it", () => {
    const both = {
      "package.json": JSON.stringify({ scripts: { test: "node --test test/ && bnt" } }),
      "test/a.test.js": "",
    };
    expect(detect(both)?.command).toEqual(["node", "--test"]);
    expect(
      nodeTest.argv({ view: createMemoryView(both), runner: detect(both)!, files: [], ids: [] })
        .env,
    ).toBeUndefined();
    const other = { "package.json": JSON.stringify({ scripts: { test: "bnt-lint && abnt" } }) };
    expect(detect(other)).toBeUndefined();
  });
});
