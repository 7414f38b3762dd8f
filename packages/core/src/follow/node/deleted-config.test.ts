import { rmSync } from "node:fs";
import { join } from "node:path";
import { commitAll, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { handleEvent } from "../../hook/node/handle-event.ts";
import type { HookEvent } from "../../hook/hook-event.ts";
import { openProject, sessionFile } from "../../project/node/project.ts";
import { readState } from "../../state/node/store.ts";

let temp: TempProject | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

const clock = () => new Date("2026-12-06T10:00:00.000Z");
const call = (event: HookEvent) =>
  handleEvent(openProject(temp?.root ?? ""), event, { platform: "claude-code", now: clock });

/**
 * A project whose pytest.ini collects only `check_*` functions: with it gone pytest collects
 * `test_*` ones, and the broken one among them fails.
 */
async function project(): Promise<string> {
  temp = makeProject({
    "pytest.ini": "[pytest]\npython_functions = check_*\n",
    // pytest's still, by its pyproject, once pytest.ini is gone.
    "pyproject.toml":
      '[project]\nname = "calc"\n\n[project.optional-dependencies]\ntest = ["pytest"]\n',
    "tests/test_calc.py":
      "def check_sum():\n    assert 1 + 1 == 2\n\n\ndef test_broken():\n    assert False\n",
  });
  await commitAll(temp.root);
  return temp.root;
}

/** A deleted runner config runs its suite at the end of the turn, as an edited one does. */
describe("a deleted runner config", () => {
  it.each<[string, (root: string) => HookEvent]>([
    [
      "deleted by an edit tool (apply_patch's Delete File)",
      (root) => ({ kind: "FilesEdited", paths: [], deleted: [join(root, "pytest.ini")] }),
    ],
    [
      "deleted by a shell command",
      (root) => ({ kind: "CommandFinished", command: "rm pytest.ini", cwd: root }),
    ],
  ])("%s: the suite runs by pytest's defaults and its failure blocks", async (_, event) => {
    const root = await project();
    rmSync(join(root, "pytest.ini"));
    expect(await call(event(root))).toEqual({ kind: "none" });
    const queued = (await readState(sessionFile(openProject(root), clock))).value.pending_files;
    expect(queued).toEqual([
      expect.objectContaining({ path: "pytest.ini", role: "test", runner: "pytest" }),
    ]);
    const stop = await call({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    if (stop.kind !== "block") return;
    expect(stop.reason).toContain("FAIL tests/test_calc.py::test_broken");
  });

  it("a deleted file that was no runner's config queues nothing", async () => {
    const root = await project();
    temp?.write("notes.ini", "[notes]\n");
    rmSync(join(root, "notes.ini"));
    await call({ kind: "FilesEdited", paths: [], deleted: [join(root, "notes.ini")] });
    const queued = (await readState(sessionFile(openProject(root), clock))).value.pending_files;
    expect(queued).toEqual([]);
  });
});
