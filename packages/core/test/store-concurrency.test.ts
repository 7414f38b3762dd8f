import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, REPO_ROOT } from "@tailtest/test-utils";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { SessionStateSchema } from "../src/state/session.ts";

const DIST = join(REPO_ROOT, "packages/core/dist/node/index.js");
const PROCESSES = 50;

// Each child is a separate node process, as each hook call is: it opens the project and queues
// one file through the built package, all at the same moment.
const CHILD = `
const { openProject, inspectEdit, queueEdit } = await import(process.argv[1]);
const project = openProject(process.argv[2]);
const insight = inspectEdit(project, process.argv[3], { status: "new" });
const queued = await queueEdit(project, insight);
process.stdout.write(JSON.stringify({ added: queued.added, count: queued.pendingCount }));
`;

describe("concurrent hook processes", () => {
  it(`${PROCESSES} processes queueing into one session lose nothing`, async () => {
    expect(existsSync(DIST), "run the build first (pnpm test does)").toBe(true);
    const project = makeProject({ "pytest.ini": "[pytest]\n" });
    try {
      for (let i = 0; i < PROCESSES; i += 1)
        project.write(`src/module_${i}.py`, `def f${i}():\n    return ${i}\n`);
      const results = await Promise.all(
        Array.from({ length: PROCESSES }, (_, i) =>
          execa(
            process.execPath,
            ["--input-type=module", "-e", CHILD, DIST, project.root, `src/module_${i}.py`],
            {
              timeout: 60_000,
            },
          ),
        ),
      );
      const counts = results.map(
        (result) => (JSON.parse(result.stdout) as { count: number }).count,
      );
      // Every process saw a distinct queue length: the updates were serialised, none overwritten.
      expect(new Set(counts).size).toBe(PROCESSES);
      const session = SessionStateSchema.parse(
        JSON.parse(readFileSync(join(project.root, ".tailtest/session.json"), "utf8")),
      );
      expect(session.pending_files.map((entry) => entry.path).sort()).toEqual(
        Array.from({ length: PROCESSES }, (_, i) => `src/module_${i}.py`).sort(),
      );
      expect(session.touched_files).toHaveLength(PROCESSES);
    } finally {
      project.cleanup();
    }
  }, 120_000);
});

// Each child appends one strict event through the built package, all at the same moment.
const STRICT_CHILD = `
const { appendStrictEvents } = await import(process.argv[1]);
await appendStrictEvents(process.argv[2], [
  { type: "edit_unattributed", ts: new Date().toISOString(), path: "src/f" + process.argv[3] + ".py" },
]);
`;

describe("concurrent strict-mode writers", () => {
  it(`${PROCESSES} processes appending to events.jsonl: every line whole, none lost`, async () => {
    expect(existsSync(DIST), "run the build first (pnpm test does)").toBe(true);
    const project = makeProject({ "pytest.ini": "[pytest]\n" });
    try {
      await Promise.all(
        Array.from({ length: PROCESSES }, (_, i) =>
          execa(
            process.execPath,
            ["--input-type=module", "-e", STRICT_CHILD, DIST, project.root, String(i)],
            { timeout: 60_000 },
          ),
        ),
      );
      const lines = readFileSync(join(project.root, ".tailtest/events.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line !== "");
      const paths = lines.map((line) => (JSON.parse(line) as { path: string }).path);
      expect(paths.sort()).toEqual(
        Array.from({ length: PROCESSES }, (_, i) => `src/f${i}.py`).sort(),
      );
    } finally {
      project.cleanup();
    }
  }, 120_000);
});
