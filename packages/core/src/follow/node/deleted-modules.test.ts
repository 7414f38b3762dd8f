import { rmSync } from "node:fs";
import { join } from "node:path";
import { commitAll, gitSync, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { handleEvent } from "../../hook/node/handle-event.ts";
import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import { openProject, sessionFile } from "../../project/node/project.ts";
import { readState } from "../../state/node/store.ts";

let temp: TempProject | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

const clock = () => new Date("2026-12-06T10:00:00.000Z");
const call = (event: HookEvent): Promise<Decision> =>
  handleEvent(openProject(temp?.root ?? ""), event, { platform: "claude-code", now: clock });
const stop = () => call({ kind: "TurnEnded", stopHookActive: false });
const queued = async () =>
  (await readState(sessionFile(openProject(temp?.root ?? ""), clock))).value.pending_files;

/** node --test: `test/app.test.js` reaches `src/util.js` only through `src/app.js`. */
const NODE_PROJECT = {
  "package.json": '{"name":"calc","version":"1.0.0","scripts":{"test":"node --test"}}\n',
  "src/util.js": "exports.add = (a, b) => a + b;\n",
  "src/app.js": 'const { add } = require("./util");\nexports.total = (xs) => xs.reduce(add, 0);\n',
  "src/unused.js": "exports.nothing = () => 0;\n",
  "test/app.test.js":
    'const test = require("node:test");\nconst assert = require("node:assert");\nconst { total } = require("../src/app");\ntest("total", () => assert.equal(total([1, 2]), 3));\n',
};

/** pytest: `tests/test_core.py` reaches `calc/util.py` through `calc/core.py`. */
const PYTHON_PROJECT = {
  "pyproject.toml":
    '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
  "calc/__init__.py": "",
  "calc/util.py": "def add(a, b):\n    return a + b\n",
  "calc/core.py":
    "from calc.util import add\n\n\ndef total(xs):\n    out = 0\n    for x in xs:\n        out = add(out, x)\n    return out\n",
  "tests/test_core.py":
    "from calc.core import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n",
};

async function started(files: Record<string, string>): Promise<string> {
  temp = makeProject(files);
  await commitAll(temp.root);
  // The session's start builds the import graph: it still knows who imported a deleted file.
  await call({ kind: "SessionStarted", sessionId: "s1", source: "startup" });
  return temp.root;
}

/**
 * A module deleted while something still imports it breaks the tests that load it: the end of
 * the turn runs them (the graph built before the deletion names them), and nothing asks the
 * gone file for a test of its own.
 */
describe("a deleted source file", () => {
  const remove = (rel: string) => (root: string) => rmSync(join(root, rel));
  it.each<
    [
      string,
      Record<string, string>,
      string,
      (root: string) => void,
      (root: string) => HookEvent,
      string,
    ]
  >([
    [
      "node --test, deleted by a shell command",
      NODE_PROJECT,
      "src/util.js",
      remove("src/util.js"),
      (root) => ({ kind: "CommandFinished", command: "rm src/util.js", cwd: root }),
      "Cannot find module './util'",
    ],
    [
      "node --test, moved away by git mv",
      NODE_PROJECT,
      "src/util.js",
      (root) => gitSync(root, "mv", "src/util.js", "src/sum.js"),
      (root) => ({ kind: "CommandFinished", command: "git mv src/util.js src/sum.js", cwd: root }),
      "Cannot find module './util'",
    ],
    [
      "node --test, its folder deleted (rm -r src/)",
      NODE_PROJECT,
      "src/app.js",
      (root) => rmSync(join(root, "src"), { recursive: true }),
      (root) => ({ kind: "CommandFinished", command: "rm -r src/", cwd: root }),
      "Cannot find module '../src/app'",
    ],
    [
      "pytest, deleted by an edit tool (apply_patch's Delete File)",
      PYTHON_PROJECT,
      "calc/util.py",
      remove("calc/util.py"),
      (root) => ({ kind: "FilesEdited", paths: [], deleted: [join(root, "calc/util.py")] }),
      "calc.util",
    ],
  ])(
    "%s: its importers' tests run and their failure blocks",
    async (_, files, gone, act, event, why) => {
      const root = await started(files);
      act(root);
      // The gone file gets no note (a moved one's new name does, as any new file).
      expect(JSON.stringify(await call(event(root)))).not.toContain(gone);
      expect(await queued()).toContainEqual(
        expect.objectContaining({ path: gone, role: "test", status: "existing" }),
      );
      const answer = await stop();
      expect(answer.kind).toBe("block");
      if (answer.kind !== "block") return;
      expect(answer.reason).toContain(why);
      expect(answer.reason).not.toMatch(/missing test|write a test/i);
    },
    60_000,
  );

  it("once its importer no longer needs it, the turn ends green and asks for no test", async () => {
    const root = await started(NODE_PROJECT);
    rmSync(join(root, "src/util.js"));
    await call({ kind: "CommandFinished", command: "rm src/util.js", cwd: root });
    temp?.write("src/app.js", "exports.total = (xs) => xs.reduce((a, b) => a + b, 0);\n");
    await call({ kind: "FilesEdited", paths: [join(root, "src/app.js")] });
    const answer = await stop();
    expect(answer.kind).not.toBe("block");
    expect(JSON.stringify(answer)).not.toMatch(/missing/);
    expect(await queued()).toEqual([]);
  }, 60_000);

  it("a deleted module nothing imported runs nothing and says nothing", async () => {
    const root = await started(NODE_PROJECT);
    rmSync(join(root, "src/unused.js"));
    await call({ kind: "CommandFinished", command: "rm src/unused.js", cwd: root });
    expect(await stop()).toEqual({ kind: "none" });
  }, 60_000);

  it("a module deleted with the only test that imported it: no test file is run that is gone", async () => {
    const root = await started({
      ...NODE_PROJECT,
      "test/util.test.js":
        'const test = require("node:test");\nconst assert = require("node:assert");\nconst { add } = require("../src/util");\ntest("add", () => assert.equal(add(1, 2), 3));\n',
    });
    rmSync(join(root, "src/util.js"));
    rmSync(join(root, "test/util.test.js"));
    temp?.write("src/app.js", "exports.total = (xs) => xs.reduce((a, b) => a + b, 0);\n");
    await call({
      kind: "CommandFinished",
      command: "rm src/util.js test/util.test.js",
      cwd: root,
    });
    await call({ kind: "FilesEdited", paths: [join(root, "src/app.js")] });
    const answer = await stop();
    expect(answer.kind).not.toBe("block");
    expect(JSON.stringify(answer)).not.toMatch(/util\.test\.js/);
  }, 60_000);

  it("deleted where no hook saw it (Codex's turn): the end-of-turn sweep finds it through git", async () => {
    const root = await started(NODE_PROJECT);
    await call({ kind: "TurnStarted", turnId: "t1" });
    // A program the agent ran removed it: no edit or shell hook named the file.
    rmSync(join(root, "src/util.js"));
    const answer = await call({ kind: "TurnEnded", stopHookActive: false, sweep: true });
    expect(answer.kind).toBe("block");
    if (answer.kind !== "block") return;
    expect(answer.reason).toContain("Cannot find module './util'");
    // The next turn does not find the same deletion again.
    await call({ kind: "TurnStarted", turnId: "t2" });
    temp?.write("src/app.js", "exports.total = (xs) => xs.reduce((a, b) => a + b, 0);\n");
    await call({ kind: "FilesEdited", paths: [join(root, "src/app.js")] });
    const next = await call({ kind: "TurnEnded", stopHookActive: false, sweep: true });
    expect(next.kind).not.toBe("block");
  }, 60_000);
});
