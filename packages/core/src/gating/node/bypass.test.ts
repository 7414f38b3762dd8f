import { readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commitAll, makeProject, type TempProject } from "@tailtest/test-utils";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import { declareRed } from "../../tdd/declare.ts";
import { classifyTddFile } from "../../tdd/file-classes.ts";
import { handleEvent } from "../../hook/node/handle-event.ts";
import { openProject } from "../../project/node/project.ts";
import { readStrictLog } from "../../strict/node/strict-store.ts";
import { agentKey, declareTddEntry, tddLogPath } from "../../tdd/node/tdd-store.ts";

/**
 * Bypass: the ways an agent might get a production edit (or a change of mode) round
 * the gate, each tried in tdd mode (a Red declared for tests/test_calc.py: production code may
 * not change) and in strict mode (no claim), on a real pytest project, through `handleEvent`.
 *
 * Each row says, per mode, which defence catches it:
 * - `gate`: the pre-tool event (EditRequested, CommandRequested) is denied, naming the file;
 * - `sweep`: the gate cannot see the write, so the test lets it through, performs it on disk
 *   (the command itself, run by bash) and the end-of-turn TurnEnded blocks, naming the file
 *   (strict mode also logs `edit_unattributed`);
 * - `bypass`: neither: the gate lets it through and the end of the turn reports nothing. These
 *   are known holes, pinned so that a fix makes the row fail until it moves to `gate`.
 * A row that changes class fails.
 */

type Mode = "tdd" | "strict";
type Outcome = "gate" | "sweep" | "bypass";

/** The pre-tool event the agent's tool call becomes (paths relative to the project root). */
type Request =
  { edit: readonly string[]; deleted?: readonly string[] } | { command: string } | undefined;

interface Attempt {
  name: string;
  /** undefined: no tool call at all (a formatter, an editor, a watcher). */
  request: Request;
  /** The file the denial or the end-of-turn report names ("installers" for an installer). */
  names: string;
  tdd: Outcome;
  strict: Outcome;
  /** Prepares the project before its files are aged (a git commit, a patch file). */
  setup?: (project: TempProject, mode: Mode) => Promise<void> | void;
  /** How the write happens when it is let through: by default the command, run by bash. */
  perform?: (root: string) => void;
  /** For `bypass` rows: the write really happened. */
  happened?: (root: string) => boolean;
}

const SESSION = "sess-bypass";
const identity = { sessionId: SESSION };
const KEY_LOG = tddLogPath(agentKey(identity));

const CALC = "def add(a, b):\n    return a + b\n";
const FOLLOW = '{"mode":"follow"}';
const PATCH = [
  "--- a/calc.py",
  "+++ b/calc.py",
  "@@ -1,2 +1,2 @@",
  " def add(a, b):",
  "-    return a + b",
  "+    return a - b",
  "",
].join("\n");
const APPLY_PATCH = [
  "apply_patch <<'EOF'",
  "*** Begin Patch",
  "*** Update File: calc.py",
  "@@",
  "-    return a + b",
  "+    return a - b",
  "*** End Patch",
  "EOF",
].join("\n");

const both = (outcome: Outcome) => ({ tdd: outcome, strict: outcome });
const readText = (root: string, rel: string) => readFileSync(join(root, rel), "utf8");

async function commitWith(project: TempProject, rel: string, committed: string): Promise<void> {
  const current = readText(project.root, rel);
  project.write(rel, committed);
  await commitAll(project.root);
  project.write(rel, current);
}

const shellWrites: Attempt[] = [
  { name: "a redirect", request: { command: "echo x > calc.py" } },
  { name: "an appending redirect", request: { command: "echo x >> calc.py" } },
  { name: "tee", request: { command: "echo x | tee calc.py" } },
  { name: "tee -a", request: { command: "echo x | tee -a calc.py" } },
  { name: "sed -i", request: { command: "sed -i 's/a + b/a - b/' calc.py" } },
  { name: "perl -pi -e", request: { command: "perl -pi -e 's/a \\+ b/a - b/' calc.py" } },
  { name: "cp onto it", request: { command: "cp other.py calc.py" } },
  { name: "mv onto it", request: { command: "mv other.py calc.py" } },
  { name: "rm", request: { command: "rm calc.py" } },
  {
    name: "python3 -c",
    request: { command: `python3 -c "open('calc.py','w').write('x')"` },
  },
  {
    name: "node -e",
    request: { command: `node -e "require('fs').writeFileSync('calc.py','x')"` },
  },
  { name: "a heredoc", request: { command: "cat > calc.py <<EOF\nx = 1\nEOF" } },
  { name: "bash -c", request: { command: "bash -c 'echo x > calc.py'" } },
  { name: "a shell-run apply_patch (Codex)", request: { command: APPLY_PATCH } },
].map((row) => ({ ...row, names: "calc.py", ...both("gate") }));

const toolWrites: Attempt[] = [
  {
    // Codex's apply_patch: every Add/Update File in paths, every Delete File in deleted.
    name: "a multi-file apply_patch (a test, a doc, production code, a deletion)",
    request: { edit: ["tests/test_calc.py", "README.md", "calc.py"], deleted: ["sub/README.md"] },
    names: "calc.py",
    ...both("gate"),
  },
  {
    name: "NotebookEdit of src/analysis.ipynb (a Python source: prod)",
    request: { edit: ["src/analysis.ipynb"] },
    names: "src/analysis.ipynb",
    ...both("gate"),
  },
  {
    // The Claude adapter turns mcp__<server>__<write-ish tool> into EditRequested with every
    // path-like field (path, file_path, source, destination, …).
    name: "an MCP write_file (mcp__filesystem__write_file {path})",
    request: { edit: ["calc.py"] },
    names: "calc.py",
    ...both("gate"),
  },
  {
    name: "an MCP move_file (mcp__filesystem__move_file {source, destination})",
    request: { edit: ["other.py", "calc.py"] },
    names: "calc.py",
    ...both("gate"),
  },
];

const PROTECTED = [
  ".tailtest/config.json",
  ".tailtest/events.jsonl",
  KEY_LOG,
  ".claude/settings.json",
  ".codex/config.toml",
];

const protectedWrites: Attempt[] = PROTECTED.flatMap((path): Attempt[] => [
  { name: `an edit tool on ${path}`, request: { edit: [path] }, names: path, ...both("gate") },
  {
    // Refused before its target is even judged: it names tailtest's state or a hook folder.
    name: `a shell write to ${path}`,
    request: { command: `echo '${FOLLOW}' > ${path}` },
    names: path.startsWith(".tailtest/") ? ".tailtest/" : (path.split("/")[0] ?? path),
    ...both("gate"),
  },
]);

const installers: Attempt[] = [
  { name: "the installer", request: { command: "npx tailtest-claude-code init --mode follow" } },
  {
    name: "an installer inside bash -c",
    request: { command: "bash -c 'npx tailtest-codex uninstall'" },
  },
].map((row) => ({ ...row, names: "installers", ...both("gate") }));

const afterTheFact: Attempt[] = [
  {
    // The gate follows a literal `cd`: ../calc.py from sub/ is calc.py.
    name: "cd into a folder, then write ../calc.py",
    request: { command: "cd sub && echo x > ../calc.py" },
    names: "calc.py",
    ...both("gate"),
  },
  {
    name: "git checkout -- calc.py",
    request: { command: "git checkout -- calc.py" },
    names: "calc.py",
    ...both("gate"),
    setup: (project) => commitWith(project, "calc.py", CALC.replace("a + b", "b + a")),
  },
  {
    name: "git apply a patch file",
    request: { command: "git apply fix.patch" },
    names: "calc.py",
    ...both("sweep"),
    setup: (project) => void project.write("fix.patch", PATCH),
  },
  {
    name: "a formatter nobody asked for (no tool call at all)",
    request: undefined,
    names: "calc.py",
    ...both("sweep"),
    perform: (root) => writeFileSync(join(root, "calc.py"), CALC.replace("a + b", "b + a")),
  },
  {
    // A deletion changes no modification time; git sees the tracked file gone.
    name: "a program tailtest cannot read deletes a tracked file",
    request: undefined,
    names: "calc.py",
    ...both("sweep"),
    setup: (project) => commitAll(project.root),
    perform: (root) => rmSync(join(root, "calc.py")),
  },
];

// Holes the first run of this table found, now closed at the gate.
const HOLES: Omit<Attempt, "tdd" | "strict">[] = [
  {
    name: "cd .tailtest, then overwrite config.json (would switch the mode off)",
    request: { command: `cd .tailtest && echo '${FOLLOW}' > config.json` },
    names: ".tailtest/",
  },
  {
    name: "a computed target into .tailtest/ (would switch the mode off)",
    request: { command: `F=.tailtest/config.json; echo '${FOLLOW}' > "$F"` },
    names: ".tailtest/",
  },
  {
    name: "git checkout of a committed config (would switch the mode off)",
    request: { command: "git checkout -- .tailtest/config.json" },
    setup: (project) => commitWith(project, ".tailtest/config.json", FOLLOW),
    names: ".tailtest/",
  },
  { name: "unlink calc.py", request: { command: "unlink calc.py" }, names: "calc.py" },
  {
    name: "git rm calc.py",
    request: { command: "git rm -q calc.py" },
    setup: (project) => commitAll(project.root),
    names: "calc.py",
  },
  {
    name: "cd into a folder, then mv ../calc.py ../lib.py",
    request: { command: "cd sub && mv ../calc.py ../lib.py" },
    names: "calc.py",
  },
];
const holes: Attempt[] = HOLES.map((row) => ({ ...row, ...both("gate") }));

const ATTEMPTS: readonly Attempt[] = [
  ...shellWrites,
  ...toolWrites,
  ...protectedWrites,
  ...installers,
  ...afterTheFact,
  ...holes,
];

let project: TempProject | undefined;
// Event times run 5 s behind the wall clock: a file written right after SessionStart takes its
// mtime from the kernel's coarse clock, which can be a tick behind Date.now().
const LAG_MS = 5_000;
let clock = 0;
const now = () => new Date(clock);

afterEach(() => project?.cleanup());

function files(mode: Mode): Record<string, string> {
  return {
    ".tailtest/config.json": JSON.stringify({ mode }),
    "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
    "calc.py": CALC,
    "other.py": "def other():\n    return 1\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    "sub/README.md": "a folder to cd into\n",
  };
}

/** The project existed before the session: none of its files are this turn's changes. */
function ageAll(root: string): void {
  const old = (Date.now() - 3_600_000) / 1000;
  for (const rel of readdirSync(root, { recursive: true, encoding: "utf8" })) {
    const path = join(root, rel);
    if (statSync(path).isFile()) utimesSync(path, old, old);
  }
}

async function send(root: string, event: HookEvent): Promise<Decision> {
  clock = Math.max(clock + 1, Date.now() - LAG_MS);
  return handleEvent(openProject(root), event, { platform: "claude-code", now, identity });
}

/** A project in the mode, its files aged, a session and a turn started; tdd: a Red declared. */
async function start(mode: Mode, attempt?: Attempt): Promise<string> {
  project = makeProject(files(mode));
  await attempt?.setup?.(project, mode);
  ageAll(project.root);
  const root = project.root;
  await send(root, { kind: "SessionStarted", sessionId: SESSION, source: "startup" });
  await send(root, { kind: "TurnStarted" });
  if (mode === "tdd") {
    const at = new Date(clock).toISOString();
    const done = await declareTddEntry(root, agentKey(identity), (entries) =>
      declareRed(entries, { test: "tests/test_calc.py", expects: "test_sub fails: no sub" }, at),
    );
    expect(done.declared.ok).toBe(true);
  }
  return root;
}

function requestEvent(root: string, request: NonNullable<Request>): HookEvent {
  if ("command" in request)
    return { kind: "CommandRequested", command: request.command, cwd: root };
  return {
    kind: "EditRequested",
    paths: request.edit.map((rel) => join(root, rel)),
    deleted: (request.deleted ?? []).map((rel) => join(root, rel)),
  };
}

/** Lets the attempt through: its pre-tool event is not denied, the write happens, post-hook. */
async function letThrough(root: string, attempt: Attempt): Promise<void> {
  const { request } = attempt;
  if (request !== undefined)
    expect(await send(root, requestEvent(root, request))).toEqual({ kind: "none" });
  if (attempt.perform !== undefined) attempt.perform(root);
  else if (request !== undefined && "command" in request) {
    await execa("bash", ["-c", request.command], { cwd: root });
    await send(root, { kind: "CommandFinished", command: request.command, cwd: root });
  }
}

const reasonOf = (decision: Decision) =>
  decision.kind === "deny" || decision.kind === "block" ? decision.reason : "";

async function unattributed(root: string): Promise<string[]> {
  const { events } = await readStrictLog(root);
  return events.flatMap((event) => (event.type === "edit_unattributed" ? [event.path] : []));
}

describe.each<Mode>(["tdd", "strict"])("getting round the gate in %s mode", (mode) => {
  it.each(ATTEMPTS.map((attempt) => [attempt.name, attempt[mode], attempt] as const))(
    "%s → %s",
    async (_name, outcome, attempt) => {
      const root = await start(mode, attempt);
      if (outcome === "gate") {
        if (attempt.request === undefined) throw new Error("a gate row needs a request");
        const decision = await send(root, requestEvent(root, attempt.request));
        expect(decision.kind).toBe("deny");
        expect(reasonOf(decision)).toContain(attempt.names);
        return;
      }
      await letThrough(root, attempt);
      const end = await send(root, { kind: "TurnEnded", stopHookActive: false });
      if (outcome === "bypass") {
        expect(attempt.happened?.(root)).toBe(true);
        expect(end).toEqual({ kind: "none" });
        return;
      }
      expect(end.kind).toBe("block");
      expect(reasonOf(end)).toContain(mode === "tdd" ? `- ${attempt.names}` : attempt.names);
      if (mode === "strict") expect(await unattributed(root)).toEqual([attempt.names]);
    },
    30_000,
  );
});

describe.each<Mode>(["tdd", "strict"])("deletions git sees, in %s mode", (mode) => {
  it("a tracked file already missing when the turn began is not this turn's doing", async () => {
    const root = await start(mode, {
      name: "deleted before the session",
      request: undefined,
      names: "other.py",
      tdd: "sweep",
      strict: "sweep",
      setup: async (p) => {
        await commitAll(p.root);
        rmSync(join(p.root, "other.py"));
      },
    });
    const end = await send(root, { kind: "TurnEnded", stopHookActive: false });
    expect(reasonOf(end)).not.toContain("other.py");
    // Deleted in this turn, it would be.
    rmSync(join(root, "calc.py"));
    const next = await send(root, { kind: "TurnEnded", stopHookActive: false });
    expect(reasonOf(next)).toContain("calc.py");
    expect(reasonOf(next)).not.toContain("other.py");
  }, 30_000);
});

// A program tailtest cannot read (a script file, a binary) can rewrite the config. The session's
// mode is pinned (mode-integrity.test.ts): a config that no longer says the mode, or says a weaker
// one, leaves the gate on, and every end of a turn tells the person until they confirm.
describe("a config rewritten behind the gate", () => {
  it.each<Mode>(["tdd", "strict"])(
    "in %s mode, a switch to follow keeps the gate and is said at the end of the turn",
    async (mode) => {
      const root = await start(mode);
      const calc = { kind: "EditRequested", paths: [join(root, "calc.py")] } as const;
      expect((await send(root, calc)).kind).toBe("deny");
      await execa("bash", ["-c", `cd .tailtest && echo '${FOLLOW}' > config.json`], { cwd: root });
      expect((await send(root, calc)).kind).toBe("deny");
      const end = await send(root, { kind: "TurnEnded", stopHookActive: false });
      expect(`${reasonOf(end)}${end.kind === "context" ? end.text : ""}`).toContain(
        `config.json says follow, but this session keeps ${mode} mode`,
      );
    },
  );

  it.each<Mode>(["tdd", "strict"])(
    "in %s mode, a config broken behind the gate keeps the gate",
    async (mode) => {
      const root = await start(mode);
      const calc = { kind: "EditRequested", paths: [join(root, "calc.py")] } as const;
      await execa("bash", ["-c", `cd .tailtest && printf 'garbage' > config.json`], { cwd: root });
      expect((await send(root, calc)).kind).toBe("deny");
    },
  );

  it("a notebook under src is production code, gated like any source", () => {
    expect(classifyTddFile("src/analysis.ipynb")).toBe("prod");
  });
});
