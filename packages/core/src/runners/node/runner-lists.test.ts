import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { copyFixtureWithDeps, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { detectPackageRunners, type DetectedRunner } from "../project-runners.ts";
import { suiteShape } from "../../selection/suite.ts";
import { openProject } from "../../project/node/project.ts";
import { askedKey, askRunners, TEST_LISTS_PATH } from "./runner-lists.ts";
import { selectRelated } from "../../selection/node/graph-selection.ts";

/**
 * Asking the runner for its tests, on the real vitest and jest fixtures with their own installed
 * runners: a config that is a function is not read as text, the runner lists the files once,
 * the answer is cached by the config's hash, and a runner that does not answer in time leaves
 * the config as read, with a note.
 */

const VITEST_FUNCTION_CONFIG = `import { defineConfig } from "vitest/config";

const suites = ["checks"];
export default defineConfig(() => ({
  test: { include: suites.map((dir) => \`\${dir}/**/*.ts\`) },
}));
`;

const CHECK = `import { expect, it } from "vitest";
import { add } from "../src/calc";

it("adds", () => {
  expect(add(1, 2)).toBe(3);
});
`;

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

function fixture(name: "vitest" | "jest" | "pytest-ini"): TempProject {
  const project = copyFixtureWithDeps(`runners/${name}`);
  projects.push(project);
  return project;
}

function runnerOf(root: string): DetectedRunner {
  const [runner] = detectPackageRunners(openProject(root).view, "");
  if (runner === undefined) throw new Error("no runner detected");
  return runner;
}

function cachedAt(root: string, runner: DetectedRunner): number | undefined {
  const state = JSON.parse(readFileSync(join(root, TEST_LISTS_PATH), "utf8")) as {
    lists: Record<string, { at: number }>;
  };
  return state.lists[askedKey(runner)]?.at;
}

describe("asking vitest for its tests when its config is a function", () => {
  it("lists the files once, caches them by the config's hash, asks again when it changes", async () => {
    const project = fixture("vitest");
    project.write("vitest.config.ts", VITEST_FUNCTION_CONFIG);
    project.write("checks/calc.ts", CHECK);
    const runner = runnerOf(project.root);
    const opened = openProject(project.root);
    expect(suiteShape(opened.view, runner).isTest("checks/calc.ts")).toBe(false);

    // A per-edit hook only takes an answer given before: none yet, and nothing is started.
    expect((await askRunners(opened, [runner], { cachedOnly: true })).size).toBe(0);
    expect(existsSync(join(project.root, TEST_LISTS_PATH))).toBe(false);
    // Files written before the question are not "newer" than its answer.
    const t0 = Date.now() + 1_000;
    const first = await askRunners(opened, [runner], { clock: () => t0 });
    const answer = first.get(askedKey(runner));
    expect([...(answer?.files ?? [])]).toEqual(["checks/calc.ts"]);
    expect(answer?.note).toMatch(
      /^vitest\.config\.ts exports a function: `.*vitest list --filesOnly --json` listed 1 test files$/,
    );
    const shape = suiteShape(opened.view, runner, answer);
    expect([shape.isTest("checks/calc.ts"), shape.isTest("src/calc.test.ts")]).toEqual([
      true,
      false,
    ]);
    expect(shape.evidence).toBe(answer?.note);
    expect(cachedAt(project.root, runner)).toBe(t0);
    const cachedOnly = await askRunners(opened, [runner], { cachedOnly: true });
    expect([...(cachedOnly.get(askedKey(runner))?.files ?? [])]).toEqual(["checks/calc.ts"]);

    // Same config: the cached answer, the runner is not asked again.
    const again = await askRunners(openProject(project.root), [runner], { clock: () => t0 + 1 });
    expect([...(again.get(askedKey(runner))?.files ?? [])]).toEqual(["checks/calc.ts"]);
    expect(cachedAt(project.root, runner)).toBe(t0);

    // A changed config is a new question.
    project.write(
      "vitest.config.ts",
      VITEST_FUNCTION_CONFIG.replace('["checks"]', '["checks", "src"]'),
    );
    const changed = await askRunners(openProject(project.root), [runner], { clock: () => t0 + 2 });
    expect([...(changed.get(askedKey(runner))?.files ?? [])]).toEqual([
      "checks/calc.ts",
      "src/calc.test.ts",
      "src/calc.ts",
    ]);
    expect(cachedAt(project.root, runner)).toBe(t0 + 2);
  });

  it("selection runs the test the runner listed and says how it knew", async () => {
    const project = fixture("vitest");
    project.write("vitest.config.ts", VITEST_FUNCTION_CONFIG);
    project.write("checks/calc.ts", CHECK);
    const selection = await selectRelated(openProject(project.root), ["src/calc.ts"]);
    expect(selection.related.get("src/calc.ts")?.map((test) => test.path)).toEqual([
      "checks/calc.ts",
    ]);
    expect(selection.notes.join("\n")).toMatch(
      /tailtest: vitest: vitest\.config\.ts exports a function: `.*` listed 1 test files\./,
    );
    // The list reused at the next turn is not said again (a green turn says one line).
    const again = await selectRelated(openProject(project.root), ["src/calc.ts"]);
    expect(again.related.get("src/calc.ts")?.map((test) => test.path)).toEqual(["checks/calc.ts"]);
    expect(again.notes.join("\n")).not.toContain("listed");
  });

  it("a config read as text is not asked about", async () => {
    const project = fixture("vitest");
    const runner = runnerOf(project.root);
    const answers = await askRunners(openProject(project.root), [runner]);
    expect(answers.size).toBe(0);
  });

  it("no answer within the time box: the config as read, and a note saying so", async () => {
    const project = fixture("vitest");
    project.write("vitest.config.ts", VITEST_FUNCTION_CONFIG);
    const slow: DetectedRunner = {
      ...runnerOf(project.root),
      command: ["node", "-e", "setTimeout(() => {}, 20000)", "run"],
    };
    const answers = await askRunners(openProject(project.root), [slow], { timeoutMs: 500 });
    const answer = answers.get(askedKey(slow));
    expect(answer?.files).toBeUndefined();
    expect(answer?.note).toBe(
      "vitest.config.ts exports a function, and `node -e setTimeout(() => {}, 20000) list --filesOnly --json` did not answer in 0.5 s: its defaults are used",
    );
    const shape = suiteShape(openProject(project.root).view, slow, answer);
    expect(shape.evidence).toBe(`vitest defaults (*.test.*, *.spec.*); ${answer?.note ?? ""}`);
    expect(shape.isTest("src/calc.test.ts")).toBe(true);
  });
});

describe("asking jest for its tests when its config is a function", () => {
  it("`jest --listTests --json` gives the files its testMatch computes", async () => {
    const project = fixture("jest");
    project.write(
      "jest.config.js",
      'const dirs = ["checks"];\nmodule.exports = () => ({ testMatch: dirs.map((d) => `**/${d}/**/*.js`) });\n',
    );
    project.write(
      "checks/calc.js",
      'const { add } = require("../src/calc");\ntest("adds", () => expect(add(1, 2)).toBe(3));\n',
    );
    const runner = runnerOf(project.root);
    const answer = (await askRunners(openProject(project.root), [runner])).get(askedKey(runner));
    expect([...(answer?.files ?? [])]).toEqual(["checks/calc.js"]);
    expect(answer?.note).toMatch(
      /^jest\.config\.js exports a function: `.*jest --listTests --json` listed 1 test files$/,
    );
  });
});

describe("asking pytest when a conftest.py changes collection", () => {
  it("a test folder's collect_ignore leaves its file out of the list (attrs' shape)", async () => {
    const project = fixture("pytest-ini");
    project.write("pytest.ini", "[pytest]\ntestpaths = tests\npythonpath = .\n");
    project.write("tests/__init__.py", "");
    project.write(
      "tests/conftest.py",
      'import sys\n\ncollect_ignore = []\nif sys.version_info < (9,):\n    collect_ignore.extend(["test_future.py"])\n',
    );
    project.write("tests/test_now.py", "def test_now():\n    assert True\n");
    project.write("tests/test_future.py", "def test_future():\n    assert False\n");
    const runner = runnerOf(project.root);
    const answer = (await askRunners(openProject(project.root), [runner])).get(askedKey(runner));
    expect(answer?.files?.has("tests/test_now.py")).toBe(true);
    expect(answer?.files?.has("tests/test_future.py")).toBe(false);
    expect(answer?.note).toMatch(/^tests\/conftest\.py changes what pytest collects: /);
  });

  it("`pytest --collect-only -q` names the files it would run", async () => {
    const project = fixture("pytest-ini");
    project.write("pytest.ini", "[pytest]\ntestpaths = checks\npythonpath = .\n");
    project.write(
      "conftest.py",
      "def pytest_collect_file(parent, file_path):\n    return None\n\ncollect_ignore = []\n",
    );
    project.write(
      "checks/test_more.py",
      // Two tests in one file: the note counts files, not the test ids pytest prints.
      "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
    );
    const runner = runnerOf(project.root);
    expect(runner.id).toBe("pytest");
    const answer = (await askRunners(openProject(project.root), [runner])).get(askedKey(runner));
    expect([...(answer?.files ?? [])]).toEqual(["checks/test_more.py"]);
    expect(answer?.note).toMatch(
      /^conftest\.py changes what pytest collects: `.*pytest --collect-only -q -p no:cacheprovider` listed 1 test files$/,
    );
  });
});
