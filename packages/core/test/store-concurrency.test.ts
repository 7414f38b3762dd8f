import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, REPO_ROOT } from "@tailtest/test-utils";
import { readSession } from "@tailtest/test-utils/session";
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
if (process.argv[4] === "crash") process.kill(process.pid, "SIGKILL");
`;

/** Folds the session's journal in under the lock, as the end of a turn does first. */
const COMPACT = `
const { openProject, sessionFile, updateState } = await import(process.argv[1]);
const project = openProject(process.argv[2]);
const file = sessionFile(project);
const rounds = Number(process.argv[3]);
for (let i = 0; i < rounds; i += 1) {
  await updateState({ ...file, journal: { ...file.journal, rotateBytes: 512 } }, (s) => ({ value: s, result: undefined }));
}
`;

const queue = (root: string, path: string, crash = false) =>
  execa(
    process.execPath,
    ["--input-type=module", "-e", CHILD, DIST, root, path, ...(crash ? ["crash"] : [])],
    { timeout: 60_000, reject: !crash },
  );

const modules = (count: number) => Array.from({ length: count }, (_, i) => `src/module_${i}.py`);

/** The session file as written, without its journal. */
const sessionOnDisk = (root: string) =>
  SessionStateSchema.parse(JSON.parse(readFileSync(join(root, ".tailtest/session.json"), "utf8")));

describe("concurrent hook processes", () => {
  it(`${PROCESSES} processes queueing into one session lose nothing`, async () => {
    expect(existsSync(DIST), "run the build first (pnpm test does)").toBe(true);
    const project = makeProject({ "pytest.ini": "[pytest]\n" });
    try {
      for (const path of modules(PROCESSES))
        project.write(path, `def f():\n    return "${path}"\n`);
      // The first edit creates the session (under the lock); the others are lines of its journal.
      await queue(project.root, "src/module_0.py");
      const results = await Promise.all(
        modules(PROCESSES)
          .slice(1)
          .map((path) => queue(project.root, path)),
      );
      for (const result of results)
        expect((JSON.parse(result.stdout) as { added: boolean }).added).toBe(true);
      // No session write: every edit is one whole line of the journal, none lost.
      expect(sessionOnDisk(project.root).pending_files.map((entry) => entry.path)).toEqual([
        "src/module_0.py",
      ]);
      const lines = readFileSync(join(project.root, ".tailtest/session.edits.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line !== "");
      expect(lines).toHaveLength(PROCESSES - 1);
      const session = readSession(project.root);
      expect(session.pending_files.map((entry) => entry.path).sort()).toEqual(
        modules(PROCESSES).sort(),
      );
      expect(session.touched_files).toHaveLength(PROCESSES);
      // Folded in under the lock: all of them, once, in the session file itself.
      await execa(process.execPath, [
        "--input-type=module",
        "-e",
        COMPACT,
        DIST,
        project.root,
        "1",
      ]);
      const folded = sessionOnDisk(project.root);
      expect(folded.pending_files.map((entry) => entry.path).sort()).toEqual(
        modules(PROCESSES).sort(),
      );
      expect(new Set(folded.touched_files).size).toBe(PROCESSES);
    } finally {
      project.cleanup();
    }
  }, 120_000);

  it("writers appending while readers fold and rotate the journal under the lock lose no edit", async () => {
    expect(existsSync(DIST), "run the build first (pnpm test does)").toBe(true);
    const project = makeProject({ "pytest.ini": "[pytest]\n" });
    const count = 40;
    try {
      for (const path of modules(count)) project.write(path, `def f():\n    return "${path}"\n`);
      await queue(project.root, "src/module_0.py");
      // Two compacting processes (a journal past 512 bytes is set aside and restarted) run
      // beside the writers.
      const compactors = [1, 2].map(() =>
        execa(process.execPath, ["--input-type=module", "-e", COMPACT, DIST, project.root, "30"], {
          timeout: 60_000,
        }),
      );
      await Promise.all([
        ...modules(count)
          .slice(1)
          .map((path) => queue(project.root, path)),
        ...compactors,
      ]);
      await execa(process.execPath, [
        "--input-type=module",
        "-e",
        COMPACT,
        DIST,
        project.root,
        "1",
      ]);
      const folded = sessionOnDisk(project.root);
      expect(folded.pending_files.map((entry) => entry.path).sort()).toEqual(modules(count).sort());
      expect(existsSync(join(project.root, ".tailtest/session.edits.jsonl.folding"))).toBe(false);
    } finally {
      project.cleanup();
    }
  }, 120_000);

  it("a process killed after its append: the next reader folds the edit in, once", async () => {
    expect(existsSync(DIST), "run the build first (pnpm test does)").toBe(true);
    const project = makeProject({ "pytest.ini": "[pytest]\n" });
    try {
      for (const path of modules(2)) project.write(path, "def f():\n    return 1\n");
      await queue(project.root, "src/module_0.py");
      const killed = await queue(project.root, "src/module_1.py", true);
      expect(killed.signal).toBe("SIGKILL");
      expect(sessionOnDisk(project.root).pending_files).toHaveLength(1);
      await execa(process.execPath, [
        "--input-type=module",
        "-e",
        COMPACT,
        DIST,
        project.root,
        "2",
      ]);
      const folded = sessionOnDisk(project.root);
      expect(folded.pending_files.map((entry) => entry.path)).toEqual(modules(2));
      expect(folded.touched_files).toEqual(modules(2));
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
