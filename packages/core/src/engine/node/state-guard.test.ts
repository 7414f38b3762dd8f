import {
  appendFileSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openProject, sessionFile } from "../../project/node/project.ts";
import { appendState, readState, updateState } from "../../state/node/store.ts";
import { guardState } from "./state-guard.ts";

/**
 * The journal of queued edits is guarded like tailtest's other state during a test run: a run
 * that cuts, empties, removes or replaces it is undone and named, and the edits it held stay
 * queued; a rotation by a concurrent hook holding the session's lock is not tampering.
 */

const JOURNAL = ".tailtest/session.edits.jsonl";
let project: TempProject;

const file = () => sessionFile(openProject(project.root));
const line = (path: string) =>
  JSON.stringify({ queue: { path, language: "python", status: "existing" } });
const queued = async () => (await readState(file())).value.pending_files.map((p) => p.path);

beforeEach(async () => {
  project = makeProject({ ".tailtest/config.json": '{"mode":"tdd"}\n' });
  // The session written under its lock starts the journal; two edits are appended to it.
  await updateState(file(), (current) => ({ value: current, result: undefined }));
  await appendState(file(), line("src/a.py"));
  await appendState(file(), line("src/b.py"));
});
afterEach(() => project.cleanup());

const abs = () => join(project.root, JOURNAL);

describe("the journal of queued edits during a test run", () => {
  it.each([
    ["truncated", () => truncateSync(abs(), 0)],
    ["cut to its first line", () => truncateSync(abs(), readFileSync(abs()).indexOf("}}") + 2)],
    ["removed", () => rmSync(abs())],
    [
      "replaced by an empty file",
      () => {
        rmSync(abs());
        writeFileSync(abs(), "");
      },
    ],
    [
      "replaced, then appended to by a hook",
      () => {
        rmSync(abs());
        writeFileSync(abs(), `${line("src/c.py")}\n`);
      },
    ],
  ])("%s: put back, named, and every queued edit is still queued", async (_name, attack) => {
    expect(await queued()).toEqual(["src/a.py", "src/b.py"]);
    const guard = guardState(project.root);
    attack();
    expect(guard.check()).toEqual([JOURNAL]);
    // The next locked reader folds the restored file in (a new inode: read from its start).
    await updateState(file(), (current) => ({ value: current, result: undefined }));
    expect(await queued()).toEqual(expect.arrayContaining(["src/a.py", "src/b.py"]));
    expect(guard.check()).toEqual([]);
  });

  it("a session rewritten without its queue: the edits are queued again, and named", async () => {
    // Folded into the session under its lock first, so the journal alone no longer holds them.
    await updateState(file(), (current) => ({ value: current, result: undefined }));
    const guard = guardState(project.root);
    const session = JSON.parse(readFileSync(file().path, "utf8")) as Record<string, unknown>;
    writeFileSync(file().path, JSON.stringify({ ...session, pending_files: [] }));
    expect(guard.check()).toEqual([".tailtest/session.json"]);
    await updateState(file(), (current) => ({ value: current, result: undefined }));
    expect(await queued()).toEqual(expect.arrayContaining(["src/a.py", "src/b.py"]));
  });

  it("an edit a hook appends while the run goes on is not tampering", async () => {
    const guard = guardState(project.root);
    await appendState(file(), line("src/c.py"));
    expect(guard.check()).toEqual([]);
    expect(await queued()).toEqual(["src/a.py", "src/b.py", "src/c.py"]);
  });

  it("a rotation by a hook holding the session's lock is not tampering", async () => {
    // Past the journal's bound, the next locked reader sets it aside and starts a new file.
    appendFileSync(
      abs(),
      `${Array.from({ length: 1000 }, (_, i) => line(`src/m${i}.py`)).join("\n")}\n`,
    );
    const guard = guardState(project.root);
    const before = readFileSync(abs()).length;
    await updateState(file(), (current) => ({ value: current, result: undefined }));
    expect(readFileSync(abs()).length).toBeLessThan(before);
    expect(guard.check()).toEqual([]);
  });

  it("a rotation whose session no longer queues the edits is tampering", async () => {
    const guard = guardState(project.root);
    // The file replaced and the session pointed at it, its queue emptied: what a run could forge.
    rmSync(abs());
    writeFileSync(abs(), "");
    const session = JSON.parse(readFileSync(file().path, "utf8")) as Record<string, unknown>;
    const { ino } = statSync(abs());
    writeFileSync(
      file().path,
      JSON.stringify({ ...session, pending_files: [], journal: { ino, bytes: 0 } }),
    );
    expect(guard.check()).toEqual([JOURNAL]);
  });
});
