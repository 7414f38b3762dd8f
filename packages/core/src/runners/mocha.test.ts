import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import { flatYaml, mocha, withoutConfigSpec } from "./mocha.ts";
import { CONFIG_WITHOUT_SPEC_TOKEN, configWithoutSpecSource, displayArg } from "./spec.ts";
import { detectPackageRunners, type DetectedRunner } from "./project-runners.ts";
import { renderRunnerList } from "../notes/notes.ts";

const runner: DetectedRunner = {
  id: "mocha",
  languages: ["javascript"],
  package_dir: "",
  command: ["node_modules/.bin/mocha"],
  test_dir: "test",
  evidence: "package.json depends on mocha",
};

const argvOf = (files: Record<string, string>, chosen: string[]) =>
  mocha.argv({ view: createMemoryView(files), runner, files: chosen, ids: [] }).argv;

describe("a run of chosen files with a mocha config that declares spec", () => {
  // mocha adds a config's spec to the files on its command line: the whole suite would run.
  it.each([
    [
      ".mocharc.yml",
      "spec: 'lib/*.test.js'\ntimeout: 5000\nrequire:\n  - ./test/setup.js\n  - source-map-support/register\nrecursive: true\n",
      [
        "--no-config",
        "--timeout=5000",
        "--require=./test/setup.js",
        "--require=source-map-support/register",
        "--recursive",
      ],
    ],
    [
      ".mocharc.json",
      '{ "$schema": "x", "spec": ["test/**/*.spec.js"], "ui": "tdd", "exit": false, "reporter": "dot" }',
      ["--no-config", "--ui=tdd", "--no-exit"],
    ],
    [".mocharc.yaml", "# spec only\nspec: [test/a.js, test/b.js]\n", ["--no-config"]],
  ])("%s: its other options become flags", (name, text, flags) => {
    const argv = argvOf({ "package.json": "{}", [name]: text }, ["test/one.test.js"]);
    expect(argv.slice(1, 1 + flags.length)).toEqual(flags);
    expect(argv.at(-1)).toBe("test/one.test.js");
  });

  it("package.json's mocha key: --no-package", () => {
    const pkg = JSON.stringify({ mocha: { spec: "test/**/*.js", timeout: 200 } });
    expect(withoutConfigSpec(createMemoryView({ "package.json": pkg }), "")).toEqual([
      "--no-package",
      "--timeout=200",
    ]);
  });

  it.each([
    ["no spec", { ".mocharc.yml": "timeout: 5000\n" }],
    [
      "an ES module config (mocha cannot load it)",
      { ".mocharc.mjs": "export const spec = 'x';\n" },
    ],
    ["a JS config with no spec", { ".mocharc.js": "module.exports = { timeout: 5 };\n" }],
    ["a nested map", { ".mocharc.yml": "spec: a.js\nnode-option:\n  foo: bar\n" }],
    ["JSON with comments", { ".mocharc.jsonc": '// c\n{ "spec": "a.js" }' }],
    ["an object value", { ".mocharc.json": '{ "spec": "a.js", "x": { "y": 1 } }' }],
  ])("left alone: %s", (_why, files) => {
    expect(withoutConfigSpec(createMemoryView({ "package.json": "{}", ...files }), "")).toEqual([]);
  });

  it.each([".mocharc.js", ".mocharc.cjs"])(
    "%s: the run's own config loads it less its spec",
    (name) => {
      const text = "module.exports = { spec: ['test/*.spec.js'], timeout: 5000 };\n";
      const argv = argvOf({ "package.json": "{}", [name]: text }, ["test/one.spec.js"]);
      expect(argv.slice(1, 3)).toEqual(["--config", `${CONFIG_WITHOUT_SPEC_TOKEN}${name}`]);
      expect(displayArg(argv[2] ?? "")).toBe(`<${name} less its spec>`);
      const source = configWithoutSpecSource("/p/.mocharc.js");
      expect(source).toContain('require("/p/.mocharc.js")');
      expect(source).toContain("delete config.spec;");
    },
  );

  it("the whole suite keeps the config", () => {
    const argv = argvOf({ "package.json": "{}", ".mocharc.yml": "spec: lib/*.test.js\n" }, []);
    expect(argv).not.toContain("--no-config");
  });
});

describe("a whole-suite run", () => {
  const pkg = JSON.stringify({ scripts: { test: 'mocha --forbid-only "test/**/*.test.ts"' } });
  it("names the test script's files when no rc file declares spec (oclif/test)", () => {
    const argv = argvOf({ "package.json": pkg, ".mocharc.json": '{"import":["tsx"]}' }, []);
    expect(argv.at(-1)).toBe("test/**/*.test.ts");
  });
  it("leaves them to the rc file's spec, and chosen files alone", () => {
    const withSpec = { "package.json": pkg, ".mocharc.yml": "spec: test/**/*.test.ts\n" };
    expect(argvOf(withSpec, [])).not.toContain("test/**/*.test.ts");
    expect(argvOf({ "package.json": pkg }, ["test/a.test.ts"]).at(-1)).toBe("test/a.test.ts");
    expect(argvOf({ "package.json": pkg }, ["test/a.test.ts"])).not.toContain("test/**/*.test.ts");
  });
});

describe("the test script's loading options", () => {
  // hexo: `mocha test/scripts/**/*.ts --require ts-node/register`, no rc file says how to load
  // a .ts file; a run without the --require failed to load every test.
  const pkg = JSON.stringify({
    scripts: {
      test: "mocha test/scripts/**/*.ts --require ts-node/register -t 5000 --exit --parallel --reporter dot",
    },
  });
  const view = createMemoryView({ "package.json": pkg });
  const carried = ["--require=ts-node/register", "--timeout=5000", "--exit"];
  it("every run carries them, chosen files or the whole suite", () => {
    const chosen = argvOf({ "package.json": pkg }, ["test/scripts/helpers/date.ts"]);
    expect(chosen.slice(1, 4)).toEqual(carried);
    expect(chosen).not.toContain("--parallel");
    expect(chosen.filter((arg) => arg === "--reporter")).toHaveLength(1);
    expect(argvOf({ "package.json": pkg }, []).slice(1, 4)).toEqual(carried);
  });
  it("the re-run line names them too", () => {
    expect(mocha.fileOptions?.(view, "", ["test/scripts/helpers/date.ts"])).toEqual(carried);
  });
});

describe("the test script's files when it calls the script that runs mocha", () => {
  // graphql-js: `test` lints, type-checks, then `npm run testonly`, whose mocha names the files;
  // its .mocharc.yml only requires a register and adds the `ts` extension.
  const files = {
    "package.json": JSON.stringify({
      scripts: {
        test: "npm run lint && npm run testonly && npm run check:integrations",
        lint: "eslint --cache .",
        testonly: "mocha --full-trace -r ./setup.js --timeout 5000 src/**/__tests__/**/*-test.ts",
        "check:integrations": "mocha integrationTests/*-test.js",
      },
    }),
    ".mocharc.yml": "require:\n  - 'resources/ts-register.js'\nextension:\n  - 'ts'\n",
  };
  it("runs them as the whole suite, without the options' values", () => {
    const argv = argvOf(files, []);
    expect(argv.at(-1)).toBe("src/**/__tests__/**/*-test.ts");
    expect(argv).not.toContain("5000");
    expect(argv).not.toContain("integrationTests/*-test.js");
  });
  it("takes them as the suite's shape", () => {
    const shape = mocha.suite?.(createMemoryView(files), runner);
    expect(shape?.isTest("src/language/__tests__/lexer-test.ts")).toBe(true);
    expect(shape?.isTest("src/language/lexer.ts")).toBe(false);
    expect(shape?.isTest("test/lexer.js")).toBe(false);
  });
});

describe("flatYaml", () => {
  it("reads scalars, inline and block lists, and refuses the rest", () => {
    expect(flatYaml("a: 1\nb: 'x y'\nc: [p, \"q\"]\nd:\n  - r\n# note\ne: true # on\n")).toEqual({
      a: "1",
      b: "x y",
      c: ["p", "q"],
      d: ["r"],
      e: true,
    });
    expect(flatYaml("a: |\n  text\n")).toBeUndefined();
    expect(flatYaml("- loose\n")).toBeUndefined();
  });
});

/** The session's line says where mocha's tests are when they are in no test/ folder. */
describe("where a mocha project's tests are", () => {
  const pkg = (test: string) =>
    JSON.stringify({ scripts: { test }, devDependencies: { mocha: "^11" } });
  it.each<[string, Record<string, string>, string]>([
    [
      "the test script's spec (graphql-js)",
      {
        "package.json": pkg("mocha --full-trace 'src/**/__tests__/**/*-test.ts'"),
        "src/__tests__/a-test.ts": "",
      },
      "javascript/typescript: mocha (tests at src/**/__tests__/**/*-test.ts)",
    ],
    [
      "an rc file's spec before the script's",
      {
        "package.json": pkg("mocha lib/*.js"),
        ".mocharc.yml": "spec: 'spec/**/*.spec.js'\n",
      },
      "javascript/typescript: mocha (tests at spec/**/*.spec.js)",
    ],
    [
      "mocha's default folder, missing",
      { "package.json": pkg("mocha") },
      "javascript/typescript: mocha (no test/ folder)",
    ],
    [
      "a test/ folder",
      { "package.json": pkg("mocha 'test/**/*.js'"), "test/a.js": "" },
      "javascript/typescript: mocha (tests in test/)",
    ],
  ])("%s", (_, files, line) => {
    expect(renderRunnerList(detectPackageRunners(createMemoryView(files), ""))).toBe(line);
  });
});
