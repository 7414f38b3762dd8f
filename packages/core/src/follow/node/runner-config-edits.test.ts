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

/** A crate whose unit test fails only under a feature its Cargo.toml turns on. */
const CARGO = '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n';
const LIB =
  'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    #[cfg(feature = "strict")]\n    fn strict_add() {\n        assert_eq!(super::add(2, 2), 5);\n    }\n}\n';

/** An edit of Cargo.toml runs the crate's tests, its inline unit tests too (real cargo). */
describe("an edited Cargo.toml", () => {
  it("runs the crate whole, and a unit test its new feature turns on fails", async () => {
    temp = makeProject({ "Cargo.toml": CARGO, "src/lib.rs": LIB });
    await commitAll(temp.root);
    temp.write("Cargo.toml", `${CARGO}\n[features]\ndefault = ["strict"]\nstrict = []\n`);
    await call({ kind: "FilesEdited", paths: [join(temp.root, "Cargo.toml")] });
    const queued = (await readState(sessionFile(openProject(temp.root), clock))).value
      .pending_files;
    const stop = await call({ kind: "TurnEnded", stopHookActive: false });
    expect(queued).toEqual([expect.objectContaining({ path: "Cargo.toml", runner: "cargo" })]);
    expect(stop.kind).toBe("block");
    if (stop.kind !== "block") return;
    expect(stop.reason).toContain("strict_add");
  }, 120_000);
});
