import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { openProject } from "../../project/node/project.ts";
import { chooseTests } from "./choose-tests.ts";

let temp: TempProject | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

const TEST = "def test_x():\n    assert True\n";

function pytestProject(tests: number, config: Record<string, unknown> = {}): string {
  const files: Record<string, string> = {
    "pytest.ini": "[pytest]\ntestpaths = tests\n",
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": `from calc import add\n\n\n${TEST}`,
    "node_modules/pkg/tests/test_vendored.py": TEST,
    ".tailtest/config.json": JSON.stringify(config),
  };
  for (let i = 0; i < tests; i += 1) files[`tests/area${i % 3}/test_m${i}.py`] = TEST;
  temp = makeProject(files);
  return temp.root;
}

/** A changed runner config runs its suite's tests at the end of a turn. */
describe("chooseTests for a runner's config", () => {
  it("runs every test of the suite, and only the suite's", async () => {
    const root = pytestProject(4);
    const chosen = await chooseTests(openProject(root), ["pytest.ini"], { write: false });
    const related = chosen.selection?.related.get("pytest.ini") ?? [];
    expect(related.map((test) => test.evidence)).toEqual(Array(5).fill("config"));
    expect(chosen.plan.runs).toHaveLength(1);
    expect(chosen.plan.runs[0]?.test_files).toEqual([
      "tests/area0/test_m0.py",
      "tests/area0/test_m3.py",
      "tests/area1/test_m1.py",
      "tests/area2/test_m2.py",
      "tests/test_calc.py",
    ]);
    expect(chosen.plan.skipped).toEqual([]);
  });

  it("with a source's own tests first, cuts the suite to the time budget and says how to run it", async () => {
    // 5 s at 500 ms a test file: ten files.
    const root = pytestProject(30, { verify_budget_seconds: 5 });
    const chosen = await chooseTests(openProject(root), ["calc.py", "pytest.ini"], {
      write: false,
    });
    const files = chosen.plan.runs[0]?.test_files ?? [];
    expect(files).toContain("tests/test_calc.py");
    expect(files.length).toBe(10);
    expect(chosen.leftOut.tests).toHaveLength(21);
    expect(chosen.leftOut.commands).toEqual(["python3 -m pytest"]);
  });

  it("runs vitest's suite for the vite config it reads", async () => {
    temp = makeProject({
      "package.json":
        '{"name":"web","scripts":{"test":"vitest run"},"devDependencies":{"vitest":"^4"}}',
      "vite.config.ts": "export default { test: { include: ['src/**/*.spec.ts'] } };\n",
      "src/sum.ts": "export const sum = (a: number, b: number) => a + b;\n",
      "src/sum.spec.ts": "import { sum } from './sum';\n",
      "src/other.spec.ts": "export {};\n",
      "src/sum.test.ts": "export {};\n",
    });
    const chosen = await chooseTests(openProject(temp.root), ["vite.config.ts"], { write: false });
    expect(chosen.plan.runs.map((run) => [run.runner.id, run.test_files])).toEqual([
      ["vitest", ["src/other.spec.ts", "src/sum.spec.ts"]],
    ]);
  });

  it("runs a crate whole for its Cargo.toml: its unit tests live in the sources", async () => {
    temp = makeProject({
      "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {}\n",
      "tests/api.rs": "#[test]\nfn adds() {}\n",
    });
    const chosen = await chooseTests(openProject(temp.root), ["Cargo.toml"], { write: false });
    expect(chosen.plan.runs.map((run) => [run.runner.id, run.argv])).toEqual([
      ["cargo", ["cargo", "test", "--no-fail-fast"]],
    ]);
    expect(chosen.plan.skipped).toEqual([]);
  });

  it("runs a Go module's tests for its go.mod", async () => {
    temp = makeProject({
      "go.mod": "module example.com/calc\n\ngo 1.22\n",
      "calc.go": "package calc\n",
      "calc_test.go": "package calc\n",
      "internal/x/x_test.go": "package x\n",
    });
    const chosen = await chooseTests(openProject(temp.root), ["go.mod"], { write: false });
    expect(chosen.plan.runs.map((run) => [run.runner.id, run.test_files])).toEqual([
      ["go", ["calc_test.go", "internal/x/x_test.go"]],
    ]);
  });

  it("leaves a config no runner reads alone", async () => {
    const root = pytestProject(2);
    temp?.write("setup.cfg", "[metadata]\nname = calc\n");
    const chosen = await chooseTests(openProject(root), ["setup.cfg"], { write: false });
    expect(chosen.plan.runs).toEqual([]);
    expect(chosen.plan.skipped.map((skip) => skip.path)).toEqual(["setup.cfg"]);
  });
});
