import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { copyFixture, findToolchain, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { executePlan } from "../src/engine/node/execute.ts";
import { createFsView } from "../src/project/node/fs-view.ts";
import { planRun } from "../src/engine/plan.ts";
import type { RunResult } from "../src/engine/summarize.ts";

/**
 * A test run cannot get out of its box: a process it starts in a session of its own (`setsid`)
 * neither outlives the timeout nor keeps the run (and the hook) alive by holding the output, and
 * a run that removes or rewrites tailtest's files is put back and never counts as a pass.
 */

const pytest = findToolchain("pytest");
const CONFIG = `${JSON.stringify({ mode: "strict" })}\n`;
const QUEUED = `${JSON.stringify({ queue: { path: "src/a.py", language: "python", status: "new" } })}\n`;

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

function withTest(source: string): TempProject {
  const made = copyFixture("runners/pytest-pyproject");
  made.write(".tailtest/config.json", CONFIG);
  made.write(".tailtest/events.jsonl", '{"v":1}\n');
  made.write(".tailtest/session.edits.jsonl", QUEUED);
  made.write("tests/test_box.py", source);
  return made;
}

async function run(p: TempProject, timeoutMs: number): Promise<RunResult> {
  const plan = planRun(createFsView(p.root), [{ kind: "file", path: "tests/test_box.py" }]);
  const first = plan.runs[0];
  if (first === undefined) throw new Error("no run planned");
  return executePlan(first, { root: p.root, timeoutMs, killGraceMs: 500 });
}

/** A process that is gone or a zombie nobody reaped yet. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

const pidOf = (p: TempProject) => Number(readFileSync(join(p.root, "child.pid"), "utf8"));

const SPAWNS_SESSION = (output: string) =>
  [
    "import subprocess",
    "import time",
    "",
    "",
    "def test_box():",
    `    child = subprocess.Popen(["sleep", "300"], start_new_session=True${output})`,
    '    with open("child.pid", "w") as f:',
    "        f.write(str(child.pid))",
  ].join("\n");

describe.skipIf(!pytest.available || process.platform !== "linux")("a test run's box", () => {
  it("a setsid child neither keeps the run alive nor outlives it", async () => {
    project = withTest(`${SPAWNS_SESSION("")}\n    assert True\n`);
    const started = Date.now();
    const result = await run(project, 120_000);
    expect(result.status).toBe("passed");
    // The runner ended and the child went with it (pytest gives a test a file for its output).
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(alive(pidOf(project))).toBe(false);
  }, 90_000);

  it("at the timeout, a setsid child goes with the runner", async () => {
    project = withTest(
      `${SPAWNS_SESSION(", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL")}\n    time.sleep(300)\n`,
    );
    const result = await run(project, 3_000);
    expect(result.status).toBe("timeout");
    expect(alive(pidOf(project))).toBe(false);
  }, 90_000);

  it.each([
    ["removes .tailtest/", 'import shutil\n\n\ndef test_box():\n    shutil.rmtree(".tailtest")\n'],
    [
      "rewrites the config",
      'def test_box():\n    open(".tailtest/config.json", "w").write(\'{"mode": "follow"}\')\n',
    ],
    ["cuts the event log", 'def test_box():\n    open(".tailtest/events.jsonl", "w").close()\n'],
    [
      "empties the journal of queued edits",
      'def test_box():\n    open(".tailtest/session.edits.jsonl", "w").close()\n',
    ],
  ])(
    "a passing run that %s is put back and not trusted",
    async (_name, source) => {
      project = withTest(source);
      const result = await run(project, 120_000);
      expect(result.status).toBe("error");
      expect(result.reason).toContain("removed or changed tailtest's own files");
      expect(result.tests).toEqual([]);
      expect(readFileSync(join(project.root, ".tailtest/config.json"), "utf8")).toBe(CONFIG);
      expect(readFileSync(join(project.root, ".tailtest/events.jsonl"), "utf8")).toBe('{"v":1}\n');
      expect(readFileSync(join(project.root, ".tailtest/session.edits.jsonl"), "utf8")).toBe(
        QUEUED,
      );
    },
    90_000,
  );

  it("a run that leaves tailtest's files alone is judged as before", async () => {
    project = withTest("def test_box():\n    assert 1 == 1\n");
    const result = await run(project, 120_000);
    expect(result.status).toBe("passed");
    expect(existsSync(join(project.root, ".tailtest/config.json"))).toBe(true);
  }, 90_000);
});
