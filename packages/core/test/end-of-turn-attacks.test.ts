import {
  appendFileSync,
  existsSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  commitAll,
  loadPayload,
  makeProject,
  REPO_ROOT,
  type TempProject,
} from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, afterEach, describe, expect, it } from "vitest";

/**
 * Attacks on the end of a turn, through the built Claude Code hook as whole processes, in tdd and
 * strict: writes the gate never sees (a script, a formatter, a test run) that try to stay unseen
 * by putting the old mtime back, by an ignore rule, by a commit, or behind a gated edit. Each is
 * HELD when the Stop blocks naming the file and, in strict, the file holds its turn-start bytes.
 */

const BIN = join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs");
const CLAUDE = "claude-2.1.330";
const CALC = "def add(a, b):\n    return a + b\n";
const WRONG = "def add(a, b):\n    return a - b\n";

type Mode = "tdd" | "strict";

interface Attack {
  name: string;
  /** What the agent does behind the gate, in the project. */
  perform: (root: string) => Promise<void> | void;
  /** The file the Stop must name (and strict must put back, or remove when it was new). */
  file: string;
  /** The file's bytes at the turn's start; undefined: it did not exist. */
  before: string | undefined;
}

/** Writes and then puts back the modification time it had (`touch -d`, `os.utime`). */
function sneakyWrite(root: string, rel: string, content: string): void {
  const path = join(root, rel);
  const { atime, mtime } = statSync(path);
  writeFileSync(path, content);
  utimesSync(path, atime, mtime);
}

const git = (root: string, ...args: string[]) =>
  execa("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: root });

const ATTACKS: Attack[] = [
  {
    name: "a write that puts the old mtime back (os.utime)",
    perform: (root) => sneakyWrite(root, "calc.py", WRONG),
    file: "calc.py",
    before: CALC,
  },
  {
    name: "a python script that writes and then restores the mtime",
    perform: async (root) => {
      const script =
        "import os\nst = os.stat('calc.py')\nopen('calc.py', 'w').write('def add(a, b):\\n    return 0\\n')\nos.utime('calc.py', (st.st_atime, st.st_mtime))\n";
      await execa("python3", ["-c", script], { cwd: root });
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "a .gitignore line over a tracked production file, then a write",
    perform: (root) => {
      appendFileSync(join(root, ".gitignore"), "calc.py\n");
      sneakyWrite(root, "calc.py", WRONG);
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "a .tailtest-ignore line over a tracked production file, then a write",
    perform: (root) => {
      writeFileSync(join(root, ".tailtest-ignore"), "*.py\n");
      sneakyWrite(root, "calc.py", WRONG);
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "a new production file hidden by a new .gitignore line",
    perform: (root) => {
      appendFileSync(join(root, ".gitignore"), "hidden.py\n");
      writeFileSync(join(root, "hidden.py"), "def hidden():\n    return 1\n");
    },
    file: "hidden.py",
    before: undefined,
  },
  {
    name: "a new production file hidden by .git/info/exclude",
    perform: (root) => {
      appendFileSync(join(root, ".git/info/exclude"), "\nexcluded.py\n");
      writeFileSync(join(root, "excluded.py"), "def excluded():\n    return 1\n");
    },
    file: "excluded.py",
    before: undefined,
  },
  {
    name: "a change committed in the turn (the tree is clean again)",
    perform: async (root) => {
      writeFileSync(join(root, "calc.py"), WRONG);
      await git(root, "commit", "-qam", "fix", "--no-gpg-sign");
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "a tracked production file deleted by a program",
    perform: async (root) => {
      await execa("python3", ["-c", "import os; os.remove('calc.py')"], { cwd: root });
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "a production file renamed away with git mv",
    perform: async (root) => {
      await git(root, "mv", "calc.py", "calc2.py");
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "a clean filter that hands git the committed bytes (.git/info/attributes)",
    perform: async (root) => {
      await git(root, "config", "filter.same.clean", "git show HEAD:%f");
      appendFileSync(join(root, ".git/info/attributes"), "calc.py filter=same\n");
      writeFileSync(join(root, "calc.py"), WRONG);
    },
    file: "calc.py",
    before: CALC,
  },
  {
    // The twenty-first round: Git LFS's filter was kept by a value that only began like its own.
    name: "a clean filter under Git LFS's name that hands git the committed bytes",
    perform: async (root) => {
      await git(
        root,
        "config",
        "filter.lfs.clean",
        "git-lfs clean -- %f 2>/dev/null || git show HEAD:%f",
      );
      appendFileSync(join(root, ".git/info/attributes"), "*.py filter=lfs\n");
      writeFileSync(join(root, "calc.py"), WRONG);
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "core.worktree pointed at a committed copy, then a write",
    perform: async (root) => {
      const copy = `${root}-copy`;
      outside.push(copy);
      await execa("bash", ["-c", `mkdir -p "${copy}" && git archive HEAD | tar -x -C "${copy}"`], {
        cwd: root,
      });
      await git(root, "config", "core.worktree", copy);
      writeFileSync(join(root, "calc.py"), WRONG);
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "a package shadowing calc.py inside a repository of its own (git init calc)",
    perform: async (root) => {
      await execa("git", ["init", "-q", "calc"], { cwd: root });
      writeFileSync(join(root, "calc/__init__.py"), WRONG);
    },
    file: "calc/__init__.py",
    before: undefined,
  },
  {
    name: "git update-index --assume-unchanged, then a write",
    perform: async (root) => {
      await git(root, "update-index", "--assume-unchanged", "calc.py");
      writeFileSync(join(root, "calc.py"), WRONG);
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "git update-index --skip-worktree, then a write",
    perform: async (root) => {
      await git(root, "update-index", "--skip-worktree", "calc.py");
      writeFileSync(join(root, "calc.py"), WRONG);
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "core.checkStat=minimal, then a same-size write that puts the old mtime back",
    perform: async (root) => {
      await git(root, "config", "core.checkStat", "minimal");
      await git(root, "config", "core.trustctime", "false");
      sneakyWrite(root, "calc.py", WRONG);
    },
    file: "calc.py",
    before: CALC,
  },
  {
    name: "a new production file hidden by a core.excludesFile of the repository",
    perform: async (root) => {
      writeFileSync(join(root, ".git/more-excludes"), "sneaky.py\n");
      await git(root, "config", "core.excludesFile", join(root, ".git/more-excludes"));
      writeFileSync(join(root, "sneaky.py"), "def sneaky():\n    return 1\n");
    },
    file: "sneaky.py",
    before: undefined,
  },
  {
    name: "a write through a symlinked folder",
    perform: async (root) => {
      await execa("ln", ["-s", ".", "alias"], { cwd: root });
      sneakyWrite(root, "alias/calc.py", WRONG);
    },
    file: "calc.py",
    before: CALC,
  },
];

/**
 * Attacks on the check itself: git made unable to answer, so git's content check is lost. HELD
 * when every Stop blocks saying the turn could not be compared by git and, in strict, the write
 * (which puts the old mtime back) is named and put back from tailtest's own copy of the
 * production files.
 */
const BLINDING: Omit<Attack, "file" | "before">[] = [
  {
    name: "the project's .git moved away",
    perform: async (root) => {
      await execa("mv", [".git", "git-away"], { cwd: root });
      sneakyWrite(root, "calc.py", WRONG);
    },
  },
  {
    name: "git made unreadable (core.repositoryformatversion 9)",
    perform: async (root) => {
      await git(root, "config", "core.repositoryformatversion", "9");
      sneakyWrite(root, "calc.py", WRONG);
    },
  },
  {
    name: "a '!' line added to .tailtest-ignore",
    perform: (root) => {
      writeFileSync(join(root, ".tailtest-ignore"), "!build/\n");
      sneakyWrite(root, "calc.py", WRONG);
    },
  },
];

/**
 * tailtest's record of the turn's start removed by a program (it is a file under `.tailtest/`,
 * which a computed name reaches past the gate): the look falls back to mtimes, which a write that
 * puts the old mtime back fools. HELD when that Stop says the record went (and strict puts the
 * file back from its own copy); the next turn starts from a new record, and is quiet.
 */
const BASELINE_GONE: Omit<Attack, "file" | "before">[] = [
  {
    name: "turn-baseline.json deleted by a program, then a write that puts the mtime back",
    perform: async (root) => {
      const script =
        "import glob, os\nfor f in glob.glob(os.path.join('.tail' + 'test', 'turn-baseline*', '*.json')): os.remove(f)\n";
      await execa("python3", ["-c", script], { cwd: root });
      sneakyWrite(root, "calc.py", WRONG);
    },
  },
  {
    name: "turn-baseline.json emptied to {} by a program, then a write that puts the mtime back",
    perform: async (root) => {
      const script =
        "import glob, os\nfor f in glob.glob(os.path.join('.tail' + 'test', 'turn-baseline*', '*.json')): open(f, 'w').write('{}')\n";
      await execa("python3", ["-c", script], { cwd: root });
      sneakyWrite(root, "calc.py", WRONG);
    },
  },
];

/**
 * Another agent session's events in the middle of the turn (a script the agent wrote ran `claude
 * -p`, which the shell reading cannot see): each session keeps its own turn baseline, so the
 * other's start, turn and Stop leave the first turn's record of what it changed alone (ADR 0012,
 * the twenty-eighth round). HELD when the first session's Stop names the script's write.
 */
const OTHER = "0b7e3c2a-5f61-4d2e-9a8b-2c4d6e8f0a1b";
const OTHER_SESSION: { name: string; events: (readonly [string, Record<string, unknown>])[] }[] = [
  {
    name: "another session's start",
    events: [["context.SessionStart.json", { session_id: OTHER, source: "startup" }]],
  },
  {
    name: "another session's resume, then its clear",
    events: [
      ["context.SessionStart.json", { session_id: OTHER, source: "resume" }],
      ["context.SessionStart.json", { session_id: `${OTHER}-2`, source: "clear" }],
    ],
  },
  {
    name: "a nested session's whole turn (start, prompt, Stop)",
    events: [
      ["context.SessionStart.json", { session_id: OTHER, source: "startup" }],
      ["context.UserPromptSubmit.json", { session_id: OTHER }],
      ["context.Stop.json", { session_id: OTHER }],
    ],
  },
];

/** A project that is no git work tree at all: tailtest's own copy is the only content check. */
const NO_GIT: Attack[] = [
  {
    name: "no git work tree: a write that puts the old mtime back",
    perform: (root) => sneakyWrite(root, "calc.py", WRONG),
    file: "calc.py",
    before: CALC,
  },
  {
    name: "no git work tree: a new production file",
    perform: (root) => writeFileSync(join(root, "sneaky.py"), "def sneaky():\n    return 1\n"),
    file: "sneaky.py",
    before: undefined,
  },
  {
    name: "no git work tree: a production file deleted",
    perform: async (root) => {
      await execa("rm", ["calc.py"], { cwd: root });
    },
    file: "calc.py",
    before: CALC,
  },
];

let project: TempProject | undefined;
/** Folders an attack made beside the project. */
const outside: string[] = [];
afterEach(() => {
  project?.cleanup();
  for (const dir of outside.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const held: string[] = [];
const tried: string[] = [];
afterAll(() => {
  console.log(`end-of-turn attacks: held ${held.length}/${tried.length}`);
});

async function hook(
  root: string,
  name: string,
  fields: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const { stdin } = loadPayload<Record<string, unknown>>(CLAUDE, name, root);
  const result = await execa(process.execPath, [BIN], {
    input: JSON.stringify({ ...stdin, ...fields }),
    cwd: root,
    env: { CLAUDE_PROJECT_DIR: root, NO_COLOR: "1" },
    reject: false,
    timeout: 120_000,
  });
  expect(result.stderr, name).toBe("");
  return result.stdout === "" ? {} : (JSON.parse(result.stdout) as Record<string, unknown>);
}

async function start(mode: Mode, withGit = true): Promise<string> {
  project = makeProject({
    ".gitignore": ".tailtest/\n",
    ".tailtest/config.json": JSON.stringify({ mode }),
    "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
    "calc.py": CALC,
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
  });
  if (withGit) await commitAll(project.root);
  const old = (Date.now() - 3_600_000) / 1000;
  for (const rel of ["calc.py", "tests/test_calc.py", ".gitignore", "pytest.ini"])
    utimesSync(join(project.root, rel), old, old);
  await hook(project.root, "context.SessionStart.json");
  return project.root;
}

/** A session in `mode`, the attack performed, the Stop that must hold: its root and reason. */
async function attackedStop(
  mode: Mode,
  name: string,
  attack: { perform: (root: string) => Promise<void> | void },
): Promise<{ root: string; reason: string }> {
  tried.push(`${mode}: ${name}`);
  const root = await start(mode);
  await attack.perform(root);
  const answer = await hook(root, "context.Stop.json");
  expect(answer["decision"]).toBe("block");
  return { root, reason: String(answer["reason"]) };
}

/** In strict, the Stop named the turn's production edit and put it back. */
function expectCalcPutBack(mode: Mode, root: string, reason: string): void {
  if (mode !== "strict") return;
  expect(reason).toContain("calc.py");
  expect(readFileSync(join(root, "calc.py"), "utf8")).toBe(CALC);
}

describe.each<Mode>(["tdd", "strict"])("attacks on the end of the turn, %s", (mode) => {
  it.each(ATTACKS.map((attack) => [attack.name, attack] as const))(
    "%s: HELD",
    async (name, attack) => {
      const { root, reason } = await attackedStop(mode, name, attack);
      expect(reason).toContain(attack.file);
      if (mode === "strict") {
        const path = join(root, attack.file);
        if (attack.before === undefined) expect(existsSync(path)).toBe(false);
        else expect(readFileSync(path, "utf8")).toBe(attack.before);
      }
      held.push(`${mode}: ${name}`);
    },
    120_000,
  );

  it.each(BLINDING.map((attack) => [attack.name, attack] as const))(
    "%s: HELD (said at every Stop)",
    async (name, attack) => {
      tried.push(`${mode}: ${name}`);
      const root = await start(mode);
      await attack.perform(root);
      for (let turn = 0; turn < 2; turn += 1) {
        const answer = await hook(root, "context.Stop.json");
        expect(answer["decision"]).toBe("block");
        const reason = String(answer["reason"]);
        expect(reason).toMatch(
          /could not be compared (by content )?with the turn's start|could not be compared by content/,
        );
        if (turn === 0) expectCalcPutBack(mode, root, reason);
      }
      held.push(`${mode}: ${name}`);
    },
    120_000,
  );

  it.each(BASELINE_GONE.map((attack) => [attack.name, attack] as const))(
    "%s: HELD",
    async (name, attack) => {
      const { root, reason } = await attackedStop(mode, name, attack);
      expect(reason).toMatch(/turn-baselines?\/?[\w.-]*\.json, was removed or made unreadable/);
      expectCalcPutBack(mode, root, reason);
      // The Stop kept a new record: the next turn is compared by content again, and quiet.
      expect(await hook(root, "context.Stop.json")).toEqual({});
      held.push(`${mode}: ${name}`);
    },
    120_000,
  );

  it.each(OTHER_SESSION.map((play) => [play.name, play] as const))(
    "a script's write, then %s: HELD",
    async (name, play) => {
      tried.push(`${mode}: a script's write, then ${name}`);
      const root = await start(mode);
      await hook(root, "context.UserPromptSubmit.json");
      writeFileSync(join(root, "calc.py"), WRONG);
      for (const [event, fields] of play.events) await hook(root, event, fields);
      const answer = await hook(root, "context.Stop.json");
      expect(answer["decision"]).toBe("block");
      const reason = String(answer["reason"]);
      expect(reason).toContain("calc.py");
      expectCalcPutBack(mode, root, reason);
      held.push(`${mode}: a script's write, then ${name}`);
    },
    120_000,
  );

  it("a new session after a finished turn starts from the person's edits: quiet", async () => {
    const root = await start(mode);
    expect(await hook(root, "context.Stop.json")).toEqual({});
    // The person edits between the sessions; the new session's turn is its own.
    writeFileSync(join(root, "calc.py"), `${CALC}\n\ndef sub(a, b):\n    return a - b\n`);
    await hook(root, "context.SessionStart.json", { session_id: OTHER, source: "startup" });
    await hook(root, "context.UserPromptSubmit.json", { session_id: OTHER });
    expect(await hook(root, "context.Stop.json", { session_id: OTHER })).toEqual({});
  }, 120_000);

  it.each(NO_GIT.map((attack) => [attack.name, attack] as const))(
    "%s: HELD",
    async (name, attack) => {
      tried.push(`${mode}: ${name}`);
      const root = await start(mode, false);
      await attack.perform(root);
      const answer = await hook(root, "context.Stop.json");
      expect(answer["decision"]).toBe("block");
      expect(String(answer["reason"])).toContain(attack.file);
      if (mode === "strict") {
        const path = join(root, attack.file);
        if (attack.before === undefined) expect(existsSync(path)).toBe(false);
        else expect(readFileSync(path, "utf8")).toBe(attack.before);
      }
      held.push(`${mode}: ${name}`);
    },
    120_000,
  );
});
