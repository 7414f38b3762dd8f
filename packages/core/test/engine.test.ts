import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  copyFixture,
  copyFixtureWithDeps,
  findToolchain,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { createFsView } from "../src/project/node/fs-view.ts";
import { executePlan } from "../src/engine/node/execute.ts";
import { planRun, planSuites, type RunTarget } from "../src/engine/plan.ts";
import { detectPackageRunners } from "../src/runners/project-runners.ts";
import { renderFailureExcerpt, type RunResult } from "../src/engine/summarize.ts";

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

async function run(p: TempProject, targets: RunTarget[], timeoutMs = 120_000): Promise<RunResult> {
  const plan = planRun(createFsView(p.root), targets);
  expect(plan.runs).toHaveLength(1);
  return executePlan(plan.runs[0]!, { root: p.root, timeoutMs, killGraceMs: 500 });
}

const id = (runner: string, file: string, ...segments: string[]): RunTarget => ({
  kind: "test",
  id: { runner: runner as never, file, segments },
});

describe("real runs: load errors, empty selections, timeouts", () => {
  it("pytest: an import error is a collection error, not a failed assertion", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write(
      "tests/test_broken.py",
      "from nowhere import thing\n\n\ndef test_x():\n    assert thing\n",
    );
    const result = await run(project, [{ kind: "file", path: "tests/test_broken.py" }]);
    expect(result.status).toBe("error");
    expect(result.errors).toEqual([
      expect.objectContaining({ kind: "collection", file: "tests/test_broken.py" }),
    ]);
    expect(renderFailureExcerpt([result], [])).toContain(
      "ERROR tests/test_broken.py (could not load)",
    );
  }, 60_000);

  it("pytest: a module that cannot import does not hide another module's red test", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write(
      "tests/test_broken.py",
      "import freezegun_not_installed\n\n\ndef test_x():\n    pass\n",
    );
    const result = await run(project, [
      { kind: "file", path: "tests/test_broken.py" },
      { kind: "file", path: "tests/test_calc.py" },
    ]);
    expect(result.status).toBe("error");
    expect(result.errors).toEqual([
      expect.objectContaining({ kind: "collection", file: "tests/test_broken.py" }),
    ]);
    // Without --continue-on-collection-errors pytest stops at collection and runs nothing.
    expect(result.tests.filter((test) => test.status === "fail").length).toBeGreaterThan(0);
    expect(result.tests.some((test) => test.status === "pass")).toBe(true);
    const excerpt = renderFailureExcerpt([result], []);
    expect(excerpt).toContain("ERROR tests/test_broken.py (could not load)");
    expect(excerpt).toContain("FAIL tests/test_calc.py::");
  }, 60_000);

  it("pytest from the project's venv: a test starts a console script of the venv by name", async () => {
    project = copyFixture("runners/pytest-pyproject");
    // What `pip install -e .` leaves: the project's console script in the venv's bin/.
    execFileSync("python3", ["-m", "venv", "--system-site-packages", join(project.root, ".venv")]);
    project.write(".venv/bin/calc-tool", "#!/bin/sh\necho calculated\n");
    chmodSync(join(project.root, ".venv/bin/calc-tool"), 0o755);
    project.write(
      "tests/test_tool.py",
      [
        "import os",
        "import subprocess",
        "",
        "",
        "def test_runs_the_tool_by_name():",
        '    done = subprocess.run(["calc-tool"], capture_output=True, text=True)',
        '    assert done.stdout == "calculated\\n"',
        '    assert os.environ["VIRTUAL_ENV"].endswith(".venv")',
        "",
      ].join("\n"),
    );
    const result = await run(project, [{ kind: "file", path: "tests/test_tool.py" }]);
    expect(result.command[0]).toBe(".venv/bin/python");
    expect(result.errors).toEqual([]);
    expect(result.status).toBe("passed");
  }, 60_000);

  it("pytest: a file without tests is no_tests (exit 5), never a pass", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write("tests/test_empty.py", "X = 1\n");
    const result = await run(project, [{ kind: "file", path: "tests/test_empty.py" }]);
    expect(result).toMatchObject({ status: "no_tests", exit_code: 5, tests: [] });
  }, 60_000);

  it("pytest: a requested id that does not exist is not_run and the run is no_tests", async () => {
    project = copyFixture("runners/pytest-pyproject");
    const result = await run(project, [id("pytest", "tests/test_calc.py", "test_nope")]);
    expect(result.status).toBe("no_tests");
    expect(result.tests).toEqual([
      {
        id: { runner: "pytest", file: "tests/test_calc.py", segments: ["test_nope"] },
        status: "not_run",
      },
    ]);
  }, 60_000);

  it("pytest: selecting one test by id runs only it", async () => {
    project = copyFixture("runners/pytest-pyproject");
    const result = await run(project, [
      id("pytest", "tests/test_calc.py", "test_adds_two_numbers"),
    ]);
    expect(result.status).toBe("passed");
    expect(result.tests.map((t) => [t.id.segments.join("::"), t.status])).toEqual([
      ["test_adds_two_numbers", "pass"],
    ]);
  }, 60_000);

  it("vitest: a filter that matches nothing is no_tests, the id not_run (vitest itself exits 0)", async () => {
    project = copyFixtureWithDeps("runners/vitest");
    const result = await run(project, [id("vitest", "src/calc.test.ts", "calc", "no such test")]);
    expect(result.exit_code).toBe(0);
    expect(result.status).toBe("no_tests");
    expect(result.tests).toEqual([
      {
        id: { runner: "vitest", file: "src/calc.test.ts", segments: ["calc", "no such test"] },
        status: "not_run",
      },
    ]);
  }, 120_000);

  it("vitest: one test selected by id across describe blocks", async () => {
    project = copyFixtureWithDeps("runners/vitest");
    const result = await run(project, [
      id("vitest", "src/calc.test.ts", "calc", "adds two numbers"),
    ]);
    expect(result.status).toBe("passed");
    expect(result.tests.map((t) => t.status)).toEqual(["pass"]);
  }, 120_000);

  it("vitest: a test file importing a missing module is a load error", async () => {
    project = copyFixtureWithDeps("runners/vitest");
    project.write(
      "src/broken.test.ts",
      'import { thing } from "./nowhere";\nimport { it } from "vitest";\nit("x", () => thing);\n',
    );
    const result = await run(project, [{ kind: "file", path: "src/broken.test.ts" }]);
    expect(result.status).toBe("error");
    expect(result.errors[0]).toMatchObject({ kind: "collection", file: "src/broken.test.ts" });
  }, 120_000);

  it("jest: -t selects by the space-joined full name", async () => {
    project = copyFixtureWithDeps("runners/jest");
    const result = await run(project, [id("jest", "src/calc.test.js", "calc", "fails on purpose")]);
    expect(result.status).toBe("failed");
    expect(result.tests.map((t) => [t.id.segments.at(-1), t.status])).toEqual([
      ["fails on purpose", "fail"],
    ]);
  }, 120_000);

  it("go: a build failure is an error", async () => {
    const go = findToolchain("go");
    if (!go.available) return console.warn(`skipping: ${go.reason}`);
    project = copyFixture("runners/go");
    project.write("calc.go", 'package calc\n\nfunc Add(a, b int) int { return a + "b" }\n');
    const view = createFsView(project.root);
    const plan = planSuites(view, detectPackageRunners(view, ""));
    const result = await executePlan(plan.runs[0]!, { root: project.root, timeoutMs: 120_000 });
    expect(result.status).toBe("error");
  }, 180_000);

  it("cargo: a compile error is an error", async () => {
    project = copyFixture("runners/cargo");
    project.write("src/lib.rs", 'pub fn add(a: u8, b: u8) -> u8 { let x: u8 = "no"; a + b + x }\n');
    const result = await run(project, [{ kind: "file", path: "src/lib.rs" }], 180_000);
    expect(result.status).toBe("error");
  }, 240_000);

  it("a runner that is not installed is a clear error", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write(".tailtest/config.json", "{}");
    const view = createFsView(project.root);
    const [runner] = detectPackageRunners(view, "", {
      python: { command: ["no-such-runner-xyz"] },
    });
    const plan = planSuites(view, [runner!]);
    const result = await executePlan(plan.runs[0]!, { root: project.root, timeoutMs: 10_000 });
    // The runner itself could not start: an environment error, never a red test.
    expect(result.status).toBe("env_error");
    expect(result.reason).toMatch(
      /^no-such-runner-xyz could not start \(ENOENT\); is pytest installed\?$/,
    );
  }, 30_000);

  it("a run that hangs is killed with its whole process tree on timeout", async () => {
    project = copyFixture("runners/node-test");
    project.write(
      "test/hang.test.js",
      [
        'import { spawn } from "node:child_process";',
        'import { writeFileSync } from "node:fs";',
        'import { test } from "node:test";',
        'test("hangs", async () => {',
        '  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });',
        '  writeFileSync("grandchild.pid", String(child.pid));',
        "  await new Promise(() => {});",
        "});",
        "",
      ].join("\n"),
    );
    const started = Date.now();
    const result = await run(project, [{ kind: "file", path: "test/hang.test.js" }], 3_000);
    expect(result.status).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(15_000);
    const pidFile = join(project.root, "grandchild.pid");
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isAlive(pid)).toBe(false);
  }, 30_000);
});

/** A killed process can linger as a zombie until someone reaps it; that counts as dead. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
