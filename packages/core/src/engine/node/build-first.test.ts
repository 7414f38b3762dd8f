import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { commitAll, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { handleEvent } from "../../hook/node/handle-event.ts";
import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import { openProject } from "../../project/node/project.ts";
import { detectPackageRunners } from "../../runners/project-runners.ts";
import { planSuites } from "../plan.ts";
import { executePlan } from "./execute.ts";

let temp: TempProject | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

const clock = () => new Date("2026-12-06T10:00:00.000Z");
const call = (event: HookEvent): Promise<Decision> =>
  handleEvent(openProject(temp?.root ?? ""), event, { platform: "claude-code", now: clock });

/**
 * A package whose tests import its build (`../dist/index.js`), as a TypeScript library compiled
 * by `tsc` does: here the build copies `src/` to `dist/` (and refuses a file marked broken, as a
 * compiler refuses a type error), and the test script builds before `node --test`.
 */
const FILES = {
  "package.json": JSON.stringify({
    name: "calc",
    version: "1.0.0",
    type: "module",
    main: "dist/index.js",
    scripts: { build: "node build.mjs", test: "npm run build && node --test" },
  }),
  ".gitignore": "dist/\n",
  "build.mjs": [
    'import { cpSync, readdirSync, readFileSync } from "node:fs";',
    'for (const name of readdirSync("src"))',
    '  if (readFileSync(`src/${name}`, "utf8").includes("BROKEN")) {',
    "    console.error(`src/${name}: does not compile`);",
    "    process.exit(2);",
    "  }",
    'cpSync("src", "dist", { recursive: true });',
    "",
  ].join("\n"),
  "src/math.js": "export const add = (a, b) => a + b;\n",
  "src/index.js": 'export { add } from "./math.js";\n',
  "test/index.test.js": [
    'import test from "node:test";',
    'import assert from "node:assert";',
    'import { add } from "../dist/index.js";',
    'test("add", () => assert.equal(add(1, 2), 3));',
    "",
  ].join("\n"),
};

async function started(): Promise<string> {
  temp = makeProject(FILES);
  execFileSync("node", ["build.mjs"], { cwd: temp.root });
  await commitAll(temp.root);
  await call({ kind: "SessionStarted", sessionId: "s1", source: "startup" });
  return temp.root;
}

async function edited(root: string, text: string): Promise<Decision> {
  temp?.write("src/math.js", text);
  return call({ kind: "FilesEdited", paths: [join(root, "src/math.js")] });
}

/** The end of the turn builds what the tests load before it runs them. */
describe("tests that load the package's build", () => {
  it("an edit of a source the build reads runs those tests, on a fresh build", async () => {
    const root = await started();
    const note = await edited(root, "export const add = (a, b) => a - b;\n");
    expect(JSON.stringify(note)).toContain("test/index.test.js");
    const stop = await call({ kind: "TurnEnded", stopHookActive: false });
    // The last build still adds: only a fresh one shows the bug.
    expect(stop.kind).toBe("block");
    if (stop.kind !== "block") return;
    expect(stop.reason).toContain("FAIL test/index.test.js");
    expect(stop.reason).toContain("Re-run them: npm run build && node --test test/index.test.js");
  }, 60_000);

  it("a build that fails is the turn's error, with its output", async () => {
    const root = await started();
    await edited(root, "export const add = (a, b) => a + b; // BROKEN\n");
    const stop = await call({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    if (stop.kind !== "block") return;
    expect(stop.reason).toContain("the build the tests load (npm run build) failed");
    expect(stop.reason).toContain("src/math.js: does not compile");
  }, 60_000);

  it("a harmless edit builds, runs and stays green", async () => {
    const root = await started();
    await edited(root, "// adds\nexport const add = (a, b) => a + b;\n");
    const stop = await call({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).not.toBe("block");
    expect(JSON.stringify(stop)).toContain("1 test passed");
  }, 60_000);
});

/**
 * A src-layout package installed into the project's virtualenv as a copy (`pip install .`, not
 * `-e`): the tests import that copy, so an edit of `src/` is run with `src/` first on the path.
 */
describe("a src-layout package installed as a copy in the virtualenv", () => {
  it("the end of the turn runs the tests on the edited sources, not the installed copy", async () => {
    temp = makeProject({
      "pyproject.toml":
        '[project]\nname = "calcpkg"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      ".gitignore": ".venv/\n",
      "src/calcpkg/__init__.py": "def add(a, b):\n    return a + b\n",
      "tests/test_add.py":
        "from calcpkg import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    });
    const root = temp.root;
    execFileSync("python3", ["-m", "venv", "--system-site-packages", ".venv"], { cwd: root });
    // What `pip install .` leaves: the package copied into site-packages.
    const site = execFileSync(
      join(root, ".venv/bin/python"),
      ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
      { encoding: "utf8" },
    ).trim();
    cpSync(join(root, "src/calcpkg"), join(site, "calcpkg"), { recursive: true });
    await commitAll(root);
    await call({ kind: "SessionStarted", sessionId: "s1", source: "startup" });
    temp.write("src/calcpkg/__init__.py", "def add(a, b):\n    return a - b\n");
    // The project's own run tests the installed copy, and passes.
    const own = spawnSync(join(root, ".venv/bin/python"), ["-m", "pytest", "-q"], { cwd: root });
    expect(own.status).toBe(0);
    await call({ kind: "FilesEdited", paths: [join(root, "src/calcpkg/__init__.py")] });
    const stop = await call({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    if (stop.kind !== "block") return;
    expect(stop.reason).toContain("FAIL tests/test_add.py::test_add");
  }, 120_000);
});

/** The project's own TypeScript compiler, as the package's `node_modules/.bin/tsc`. */
function linkTsc(root: string): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  symlinkSync(tsc, join(root, "node_modules/.bin/tsc"));
}

/**
 * A package whose tests run only as tsc's output (43081j/hanbi: `"test": "mocha lib"`, tests in
 * `src/test/*_test.ts`, `lib/` gitignored and built by `prepare`): the tests are the TypeScript
 * sources; a run builds first and names the output; the report reads back as the sources.
 */
const COMPILED = {
  "package.json": JSON.stringify({
    name: "calc",
    version: "1.0.0",
    type: "module",
    main: "lib/math.js",
    scripts: { build: "tsc", prepare: "npm run build", test: "node --test lib/test/" },
  }),
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      rootDir: "./src",
      outDir: "./lib",
      module: "node16",
      target: "es2022",
      strict: true,
      types: [],
    },
    include: ["src/**/*.ts"],
  }),
  ".gitignore": "lib/\nnode_modules/\n",
  "src/node.d.ts": [
    'declare module "node:test" {',
    "  export default function test(name: string, fn: () => void): void;",
    "}",
    'declare module "node:assert" {',
    "  export function equal(actual: unknown, expected: unknown): void;",
    "}",
    "",
  ].join("\n"),
  "src/math.ts": "export const add = (a: number, b: number): number => a + b;\n",
  "src/test/math_test.ts": [
    'import test from "node:test";',
    'import { equal } from "node:assert";',
    'import { add } from "../math.js";',
    'test("add", () => equal(add(1, 2), 3));',
    "",
  ].join("\n"),
};

describe("tests that run only as tsc's output", () => {
  async function startedCompiled(): Promise<string> {
    temp = makeProject(COMPILED);
    linkTsc(temp.root);
    execFileSync("node", [join(temp.root, "node_modules/.bin/tsc")], { cwd: temp.root });
    await commitAll(temp.root);
    await call({ kind: "SessionStarted", sessionId: "s1", source: "startup" });
    return temp.root;
  }

  async function editedMath(root: string, text: string): Promise<Decision> {
    temp?.write("src/math.ts", text);
    return call({ kind: "FilesEdited", paths: [join(root, "src/math.ts")] });
  }

  it("an edit of a source runs its TypeScript test, built fresh, named as the source", async () => {
    const root = await startedCompiled();
    const note = await editedMath(
      root,
      "export const add = (a: number, b: number): number => a - b;\n",
    );
    expect(JSON.stringify(note)).toContain("src/test/math_test.ts");
    const stop = await call({ kind: "TurnEnded", stopHookActive: false });
    // The output the last build left still adds: only a fresh build shows the bug.
    expect(stop.kind).toBe("block");
    if (stop.kind !== "block") return;
    expect(stop.reason).toContain("FAIL src/test/math_test.ts");
    // The re-run command runs the output the runner can load, not the TypeScript source.
    expect(stop.reason).toMatch(
      /Re-run them: tsc -p tsconfig\.json && [^\n]*\blib\/test\/math_test\.js(\n|$)/,
    );
  }, 60_000);

  it("a harmless edit builds, runs the compiled test and stays green", async () => {
    const root = await startedCompiled();
    await editedMath(
      root,
      "// adds\nexport const add = (a: number, b: number): number => a + b;\n",
    );
    const stop = await call({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).not.toBe("block");
    expect(JSON.stringify(stop)).toContain("1 test passed");
  }, 60_000);

  it("a whole-suite run names the tests there are: a deleted test's output left in lib/ does not run", async () => {
    // strict's `refactor start` runs the whole suite: `node --test lib/test/` would still run the
    // output tsc left for a test whose source is gone (here a failing one).
    temp = makeProject({
      ...COMPILED,
      "src/test/gone_test.ts": [
        'import test from "node:test";',
        'import { equal } from "node:assert";',
        'test("gone", () => equal(1, 2));',
        "",
      ].join("\n"),
    });
    linkTsc(temp.root);
    execFileSync("node", [join(temp.root, "node_modules/.bin/tsc")], { cwd: temp.root });
    rmSync(join(temp.root, "src/test/gone_test.ts"));
    const view = openProject(temp.root).view;
    const runner = detectPackageRunners(view, "").find((found) => found.id === "node-test");
    if (runner === undefined) throw new Error("no node-test runner");
    const [plan] = planSuites(view, [runner]).runs;
    if (plan === undefined) throw new Error("no plan");
    const result = await executePlan(plan, { root: temp.root, timeoutMs: 60_000 });
    expect(result.status).toBe("passed");
    expect(result.tests.map((test) => test.id.file)).toEqual(["src/test/math_test.ts"]);
  }, 60_000);

  it("a type error is the build's failure, with tsc's message", async () => {
    const root = await startedCompiled();
    await editedMath(root, "export const add = (a: number, b: number): number => `${a}`;\n");
    const stop = await call({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    if (stop.kind !== "block") return;
    expect(stop.reason).toContain("the build the tests load (tsc -p tsconfig.json) failed");
    expect(stop.reason).toContain("src/math.ts");
  }, 60_000);
});
