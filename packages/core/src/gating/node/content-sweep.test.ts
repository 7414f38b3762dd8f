import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { commitAll, makeProject, type TempProject } from "@tailtest/test-utils";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import {
  pruneTurnBaselines,
  readBaseline,
  TURN_BASELINE_PATH,
  turnBaselinePath,
  trustedStatusArgs,
} from "./content-sweep.ts";
import { handleEvent } from "../../hook/node/handle-event.ts";
import { openProject } from "../../project/node/project.ts";
import {
  appendStrictEvents,
  OBJECTS_DIR,
  readStrictLog,
  sha256,
} from "../../strict/node/strict-store.ts";

/**
 * The end-of-turn check by content (tdd and strict) on real git projects through `handleEvent`:
 * what an mtime sweep missed (a write that puts the old mtime back, an ignore rule added in the
 * turn, a commit), what it must not blame on the turn (files already changed when it began), and
 * strict's revert to the turn's start with what the file held kept.
 */

type Mode = "tdd" | "strict";

const CALC = "def add(a, b):\n    return a + b\n";
const BROKEN = "def add(a, b):\n    return a - b\n";

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

const identity = { sessionId: "sess-content" };
// Event times run 5 s behind the wall clock, as in bypass.test.ts (coarse file-system clocks).
let clock = 0;
const now = () => new Date(clock);

async function send(root: string, event: HookEvent): Promise<Decision> {
  clock = Math.max(clock + 1, Date.now() - 5_000);
  return handleEvent(openProject(root), event, { platform: "claude-code", now, identity });
}

const reasonOf = (decision: Decision) =>
  decision.kind === "deny" || decision.kind === "block" ? decision.reason : "";

const git = (root: string, ...args: string[]) =>
  execa("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: root });

/** A committed project in the mode; `before` runs after the commit, before the session. */
async function start(mode: Mode, before?: (root: string) => void): Promise<string> {
  project = makeProject({
    ".gitignore": ".tailtest/\n",
    ".tailtest/config.json": JSON.stringify({ mode }),
    "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
    "calc.py": CALC,
    "other.py": "def other():\n    return 1\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
  });
  const root = project.root;
  await commitAll(root);
  // The project existed long before the session: an hour-old mtime on every file.
  const old = (Date.now() - 3_600_000) / 1000;
  for (const rel of ["calc.py", "other.py", "tests/test_calc.py", ".gitignore"])
    utimesSync(join(root, rel), old, old);
  before?.(root);
  await send(root, { kind: "SessionStarted", sessionId: "sess-content", source: "startup" });
  return root;
}

const endTurn = (root: string) => send(root, { kind: "TurnEnded", stopHookActive: false });
const read = (root: string, rel: string) => readFileSync(join(root, rel), "utf8");

async function unattributed(root: string) {
  const { events } = await readStrictLog(root);
  return events.flatMap((event) => (event.type === "edit_unattributed" ? [event] : []));
}

/** Writes a file and puts its old modification time back (`touch -d`, `os.utime`). */
function writeKeepingMtime(root: string, rel: string, content: string): void {
  const path = join(root, rel);
  const { atime, mtime } = statSync(path);
  appendFileSync(path, "");
  rmSync(path);
  appendFileSync(path, content);
  utimesSync(path, atime, mtime);
}

describe.each<Mode>(["tdd", "strict"])("the end of a turn by content, in %s mode", (mode) => {
  it("sees a write that put the old mtime back", async () => {
    const root = await start(mode);
    writeKeepingMtime(root, "calc.py", BROKEN);
    const end = await endTurn(root);
    expect(end.kind).toBe("block");
    expect(reasonOf(end)).toContain("calc.py");
    if (mode === "strict") {
      expect(read(root, "calc.py")).toBe(CALC);
      const [event] = await unattributed(root);
      expect(event).toMatchObject({ path: "calc.py", reverted: true, discarded: sha256(BROKEN) });
      expect(read(root, `${OBJECTS_DIR}/${sha256(BROKEN)}`)).toBe(BROKEN);
    }
    // Reported once: the next turn starts from where this one ended.
    expect(await endTurn(root)).toEqual({ kind: "none" });
  });

  it("sees a script in the root bin/ folder changed around the gate, not a build's bin/", async () => {
    // `bin/` at the root is build output only for the compiled languages: nanoid's
    // `bin/nanoid.js`, changed in a tdd turn, was never looked at, nor its test run.
    const root = await start(mode, (at) => {
      mkdirSync(join(at, "bin/Debug"), { recursive: true });
      writeFileSync(join(at, "bin/cli.py"), "from calc import add\n\nprint(add(1, 2))\n");
    });
    await commitAll(root);
    await send(root, { kind: "TurnStarted" });
    writeFileSync(join(root, "bin/cli.py"), "from calc import add\n\nprint(add(1, 3))\n");
    writeFileSync(join(root, "bin/Debug/App.cs"), "class App {}\n");
    const end = await endTurn(root);
    expect(end.kind).toBe("block");
    expect(reasonOf(end)).toContain("bin/cli.py");
    expect(reasonOf(end)).not.toContain("App.cs");
  });

  it("runs the tests of a data file and a .env the turn changed", async () => {
    // tdd and strict keep no queue: a look that saw source files only never ran the tests of a
    // fixture the agent edited, nor of a `.env` the settings read (fastapi-nano's token lifetime
    // set to -60 ended a tdd turn green in 0.4 s, nothing run).
    const root = await start(mode, (at) => {
      mkdirSync(join(at, "tests/data"), { recursive: true });
      writeFileSync(join(at, "tests/data/expected.json"), '{"five": 5}\n');
      writeFileSync(join(at, ".env"), "LIMIT=5\n");
      writeFileSync(
        join(at, "settings.py"),
        'from pathlib import Path\n\nLIMIT = int(Path(__file__).with_name(".env").read_text().split("=")[1])\n',
      );
      writeFileSync(
        join(at, "tests/test_data.py"),
        'import json\nfrom pathlib import Path\n\nfrom calc import add\n\n\ndef test_five():\n    data = json.loads((Path(__file__).parent / "data" / "expected.json").read_text())\n    assert add(2, 3) == data["five"]\n',
      );
      writeFileSync(
        join(at, "tests/test_settings.py"),
        "from settings import LIMIT\n\n\ndef test_limit():\n    assert LIMIT == 5\n",
      );
    });
    await commitAll(root);
    await send(root, { kind: "TurnStarted" });
    writeFileSync(join(root, "tests/data/expected.json"), '{"five": 6}\n');
    const data = await endTurn(root);
    expect(data.kind).toBe("block");
    expect(reasonOf(data)).toContain("tests/test_data.py");
    await send(root, { kind: "TurnStarted" });
    writeFileSync(join(root, "tests/data/expected.json"), '{"five": 5}\n');
    writeFileSync(join(root, ".env"), "LIMIT=6\n");
    const env = await endTurn(root);
    expect(env.kind).toBe("block");
    expect(reasonOf(env)).toContain("tests/test_settings.py");
  });

  it("says a new runner or build config the turn wrote, untracked (the thirty-fifth round)", async () => {
    // A babel.config.json whose plugin babel-jest loads rewrote the module under test; a new
    // pytest.ini takes over from the one git knows. Neither is a source file: the look dropped
    // both as untracked, and the Stop said nothing.
    const root = await start(mode);
    await send(root, { kind: "TurnStarted" });
    writeFileSync(join(root, "babel.config.json"), '{"plugins": ["./scripts/fix.js"]}\n');
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub/pytest.ini"), '[pytest]\naddopts = -k "not test_add"\n');
    const end = await endTurn(root);
    expect(reasonOf(end)).toContain("babel.config.json changed this turn");
    expect(reasonOf(end)).toContain("sub/pytest.ini (`-k` added or changed)");
  });

  it("an ignore rule added in the turn hides neither a tracked file nor a new one", async () => {
    const root = await start(mode);
    appendFileSync(join(root, ".gitignore"), "calc.py\nsneaky.py\n");
    appendFileSync(join(root, "calc.py"), "\n\ndef sub(a, b):\n    return a - b\n");
    appendFileSync(join(root, "sneaky.py"), "def sub(a, b):\n    return a - b\n");
    const end = await endTurn(root);
    expect(end.kind).toBe("block");
    expect(reasonOf(end)).toContain("calc.py");
    expect(reasonOf(end)).toContain("sneaky.py");
    if (mode === "strict") {
      expect(read(root, "calc.py")).toBe(CALC);
      expect(existsSync(join(root, "sneaky.py"))).toBe(false);
    }
  });

  it("a .gitignore added in a folder hides no new module, whatever it ignores", async () => {
    const root = await start(mode);
    // A package folder shadows calc.py on import; its own .gitignore (`*`) hides it and itself.
    mkdirSync(join(root, "calc"));
    writeFileSync(join(root, "calc/.gitignore"), "*\n");
    writeFileSync(join(root, "calc/__init__.py"), BROKEN);
    // A rule naming a folder, which git then lists as the folder alone.
    mkdirSync(join(root, "lib/shadow"), { recursive: true });
    writeFileSync(join(root, "lib/.gitignore"), "/shadow/\n");
    writeFileSync(join(root, "lib/shadow/__init__.py"), BROKEN);
    const end = await endTurn(root);
    expect(end.kind).toBe("block");
    expect(reasonOf(end)).toContain("calc/__init__.py");
    expect(reasonOf(end)).toContain("lib/shadow/__init__.py");
    if (mode === "strict") {
      expect(existsSync(join(root, "calc/__init__.py"))).toBe(false);
      expect(existsSync(join(root, "lib/shadow/__init__.py"))).toBe(false);
    }
  });

  it("a file a folder's rule ignored before the turn is not blamed when that rule changes", async () => {
    const root = await start(mode, (at) => {
      mkdirSync(join(at, "pkg"));
      writeFileSync(join(at, "pkg/.gitignore"), "local.py\n");
      writeFileSync(join(at, "pkg/local.py"), "SECRET = 1\n");
    });
    await git(root, "add", "pkg/.gitignore");
    await git(root, "commit", "-qm", "pkg", "--no-gpg-sign");
    await send(root, { kind: "SessionStarted", sessionId: "sess-content", source: "startup" });
    appendFileSync(join(root, "pkg/.gitignore"), "*.log\n");
    expect(await endTurn(root)).toEqual({ kind: "none" });
    expect(read(root, "pkg/local.py")).toBe("SECRET = 1\n");
  });

  it("a virtual environment and a test cache that ignore themselves are not blamed", async () => {
    const root = await start(mode);
    // virtualenv and pytest write a `.gitignore` holding `*` into the folders they make.
    mkdirSync(join(root, ".venv/lib/python3.12/site-packages"), { recursive: true });
    writeFileSync(join(root, ".venv/.gitignore"), "*\n");
    writeFileSync(join(root, ".venv/lib/python3.12/site-packages/calc.py"), BROKEN);
    mkdirSync(join(root, ".pytest_cache/v/cache"), { recursive: true });
    writeFileSync(
      join(root, ".pytest_cache/.gitignore"),
      "# Created by pytest automatically.\n*\n",
    );
    writeFileSync(join(root, ".pytest_cache/v/cache/nodeids"), "[]\n");
    expect(await endTurn(root)).toEqual({ kind: "none" });
    expect(existsSync(join(root, ".venv/lib/python3.12/site-packages/calc.py"))).toBe(true);
  });

  it.each<[string, (root: string) => Promise<unknown>]>([
    [
      "a clean filter under Git LFS's name that hands git the committed bytes",
      async (root) => {
        await git(root, "config", "filter.lfs.clean", "git-lfs clean -- %f || git show HEAD:%f");
        appendFileSync(join(root, ".git/info/attributes"), "*.py filter=lfs\n");
      },
    ],
    [
      "core.worktree pointed at a committed copy",
      async (root) => {
        const copy = join(root, ".tailtest", "copy");
        mkdirSync(copy, { recursive: true });
        for (const rel of ["calc.py", "other.py"]) writeFileSync(join(copy, rel), read(root, rel));
        await git(root, "config", "core.worktree", copy);
      },
    ],
  ])("sees a write git's own settings hide: %s", async (_name, blind) => {
    const root = await start(mode);
    await blind(root);
    writeFileSync(join(root, "calc.py"), BROKEN);
    const end = await endTurn(root);
    expect(reasonOf(end)).toContain("calc.py");
    if (mode === "strict") expect(read(root, "calc.py")).toBe(CALC);
  });

  it("sees a package written in a folder that is a repository of its own", async () => {
    const root = await start(mode);
    // Python imports the package calc/ in place of calc.py; git lists the folder, not its files.
    await execa("git", ["init", "-q", "calc"], { cwd: root });
    writeFileSync(join(root, "calc/__init__.py"), BROKEN);
    const end = await endTurn(root);
    expect(reasonOf(end)).toContain("calc/__init__.py");
    if (mode === "strict") expect(existsSync(join(root, "calc/__init__.py"))).toBe(false);
  });

  it("sees a change committed in the turn", async () => {
    const root = await start(mode);
    appendFileSync(join(root, "other.py"), "\n\ndef more():\n    return 2\n");
    await git(root, "commit", "-qam", "more", "--no-gpg-sign");
    const end = await endTurn(root);
    expect(reasonOf(end)).toContain("other.py");
    if (mode === "strict") expect(read(root, "other.py")).toBe("def other():\n    return 1\n");
  });

  it("does not blame the turn for a file already changed when it began, until it changes", async () => {
    const dirty = `${CALC}\n# the person's edit\n`;
    const root = await start(mode, (at) =>
      appendFileSync(join(at, "calc.py"), "\n# the person's edit\n"),
    );
    expect(await endTurn(root)).toEqual({ kind: "none" });
    appendFileSync(join(root, "calc.py"), "# the agent's\n");
    const end = await endTurn(root);
    expect(reasonOf(end)).toContain("calc.py");
    // strict puts back what the file held when the turn began, not what git has.
    if (mode === "strict") expect(read(root, "calc.py")).toBe(dirty);
  });
});

describe.each<Mode>(["tdd", "strict"])("the end of a turn without git, in %s mode", (mode) => {
  it("says a new runner or build config (the thirty-sixth round)", async () => {
    // Without git the look walks the project by mtime, and the walk kept source files only: a
    // new babel.config.json, whose plugin babel-jest loads, went unseen.
    project = makeProject({
      ".tailtest/config.json": JSON.stringify({ mode }),
      "calc.py": CALC,
      "tests/test_calc.py":
        "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    });
    const root = project.root;
    const old = (Date.now() - 3_600_000) / 1000;
    for (const rel of ["calc.py", "tests/test_calc.py", ".tailtest/config.json"])
      utimesSync(join(root, rel), old, old);
    await send(root, { kind: "SessionStarted", sessionId: "sess-content", source: "startup" });
    await send(root, { kind: "TurnStarted" });
    writeFileSync(join(root, "babel.config.json"), '{"plugins": ["./scripts/fix.js"]}\n');
    mkdirSync(join(root, "node_modules/x"), { recursive: true });
    writeFileSync(join(root, "node_modules/x/babel.config.json"), "{}\n");
    const end = await endTurn(root);
    expect(reasonOf(end) || (end.kind === "context" ? end.text : "")).toContain(
      "tailtest " + mode + ": babel.config.json changed this turn",
    );
  });
});

describe("strict: what the gate saw covers only what it saw", () => {
  it.each([
    ["holds what the gate saw after the edit", BROKEN, []],
    ["was written again after its gated edit", `${BROKEN}# and again\n`, ["calc.py"]],
  ])("a file that %s", async (_name, content, reported) => {
    const root = await start("strict");
    const stamp = { ts: new Date(Date.now()).toISOString(), host: "claude-code" as const };
    // The gate's record of an edit under claim c1: the file before it, and after it.
    await appendStrictEvents(root, [
      { type: "snapshot", ...stamp, claim: "c1", path: "calc.py", object: sha256(CALC) },
      { type: "edit_applied", ...stamp, path: "calc.py", claims: ["c1"], object: sha256(BROKEN) },
    ]);
    writeKeepingMtime(root, "calc.py", content);
    await endTurn(root);
    expect((await unattributed(root)).map((event) => event.path)).toEqual(reported);
  });

  it("a PostToolUse with no gate before it records no edit_applied, and the end reports it", async () => {
    const root = await start("strict");
    appendFileSync(join(root, "calc.py"), "# a write whose gate timed out\n");
    await send(root, { kind: "FilesEdited", paths: [join(root, "calc.py")] });
    const { events } = await readStrictLog(root);
    expect(events.filter((event) => event.type === "edit_applied")).toEqual([]);
    const end = await endTurn(root);
    expect(reasonOf(end)).toContain("calc.py");
    expect(read(root, "calc.py")).toBe(CALC);
  });

  it("keeps the production files' bytes of a dirty tree to revert to", async () => {
    const root = await start("strict", (at) => appendFileSync(join(at, "calc.py"), "# wip\n"));
    // The session's own baseline (the twenty-eighth round): the project's is not written.
    expect(readBaseline(root)).toBeUndefined();
    const baseline = readBaseline(root, identity.sessionId);
    expect(baseline?.files["calc.py"]?.object).toBe(sha256(`${CALC}# wip\n`));
    expect(existsSync(join(root, OBJECTS_DIR, sha256(`${CALC}# wip\n`)))).toBe(true);
  });
});

describe("each agent session's own baseline", () => {
  it.each([
    [undefined, TURN_BASELINE_PATH],
    ["default", TURN_BASELINE_PATH],
    ["d9c6c4d7-23f1", ".tailtest/turn-baselines/d9c6c4d7-23f1.json"],
    ["../x", TURN_BASELINE_PATH],
    ["..", ".tailtest/turn-baselines/_.json"],
  ])("key %s is kept at %s", (key, path) => {
    expect(turnBaselinePath(key)).toBe(path);
  });

  it("another session's start leaves a session's baseline, and a week-old one is pruned", async () => {
    const root = await start("strict");
    const mine = readBaseline(root, identity.sessionId);
    expect(mine).toBeDefined();
    writeFileSync(join(root, "calc.py"), BROKEN);
    await handleEvent(
      openProject(root),
      { kind: "SessionStarted", sessionId: "other", source: "startup" },
      { platform: "claude-code", identity: { sessionId: "other" } },
    );
    expect(readBaseline(root, identity.sessionId)).toEqual(mine);
    expect(readBaseline(root, "other")?.files["calc.py"]?.id).not.toBe(mine?.files["calc.py"]?.id);
    const week = new Date(Date.now() + 7 * 24 * 3_600_000 + 60_000);
    pruneTurnBaselines(root, week);
    expect(readBaseline(root, identity.sessionId)).toBeUndefined();
  });
});

describe("trustedStatusArgs", () => {
  it("keeps Git LFS's filter, and asks which files it covers only when one is kept", async () => {
    project = makeProject({ "calc.py": CALC });
    const root = project.root;
    await git(root, "init", "-q");
    // No filter configured: a `filter=lfs` attribute changes nothing git reads.
    expect(trustedStatusArgs(root).lfs).toBe(false);
    await git(root, "config", "filter.lfs.process", "git-lfs filter-process");
    expect(trustedStatusArgs(root)).toMatchObject({ lfs: true });
    // A clean command of any other shape under the same name is overridden with the rest.
    await git(root, "config", "filter.lfs.clean", "git show HEAD:%f");
    const { args, lfs } = trustedStatusArgs(root);
    expect(lfs).toBe(false);
    expect(args).toContain("filter.lfs.clean=");
  });
});
