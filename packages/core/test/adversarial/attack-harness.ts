import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { commitAll, loadPayload, makeProject, REPO_ROOT, runBin } from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, expect } from "vitest";

/**
 * The adversarial suite's helpers (ADR 0012). An attack is one tool call an agent makes to change
 * production code or switch tailtest off behind the gate, played through the BUILT hook bin of
 * Claude Code, Codex or Cursor with that platform's payload shape, in tdd or strict mode. It is
 * HELD when
 * - the gate denies the call (`denied`), or
 * - the call is let through, really happens (bash runs the command, the file is written), and
 *   the end of the turn reports the file (`reported`) and, in strict mode, puts it back.
 * An attack on tailtest itself (`protects`: its state, config, bundle, the hook settings) is held
 * only by a denial: once done, nothing is left to report it.
 *
 * How to add cases (another file may do so with these helpers):
 *   const results = await playAttacks(platform, mode, MY_ATTACKS);
 * `playAttacks` makes ONE project per platform and mode for every gate check (each attack's
 * `prepare` runs there first, so give its files names of their own), and a fresh project only for
 * an attack the gate lets through (session start, the call, the post-tool hook, the Stop).
 * `heldLine(results)` is the summary line (`held k/n`).
 *
 * The project (`PROJECT_FILES`, committed to git): `calc.py` and `src/util.py` are production
 * code, `other.py` a spare source, `tests/test_calc.py` a test, `sub/` a folder to `cd` into,
 * `node_modules/@tailtest/claude-code/dist/hook.cjs` the installed bundle, the three agents' hook
 * settings, and a home folder of its own (`$HOME` points at `<tmp>/home`, with user-level
 * `.claude/settings.json`, and `$CLAUDE_CONFIG_DIR` at `<tmp>/home/.claude-config`) so nothing
 * reaches the machine's own; an attack on a machine-wide file is a `dryRun`.
 */

export type Platform = "claude-code" | "codex" | "cursor";
export type Mode = "tdd" | "strict";
export const PLATFORMS: readonly Platform[] = ["claude-code", "codex", "cursor"];

/** One tool call. Paths are project-relative, `~/…` (the test home) or absolute. */
export type Step =
  /** The platform's shell tool (Claude Bash, Codex Bash, Cursor Shell); `{root}` is the project. */
  | { shell: string }
  /** The platform's write tool (Write; Codex: an apply_patch adding or updating the file). */
  | { write: string; content?: string };

export interface Attack {
  name: string;
  /** What the agent did before, which the gate allows (a link made without naming its target). */
  prepare?: string;
  step: Step;
  /** The file the change lands on, for the Stop's report and strict's revert. */
  target: string;
  /** An attack on tailtest or the hook settings: only a denial holds it. */
  protects?: boolean;
  /** Platforms to play it on (default: all three). */
  platforms?: readonly Platform[];
  /**
   * Never performed: the target is outside the test's folders (a machine-wide settings file), so
   * a call the gate lets through is NOT HELD without running it.
   */
  dryRun?: boolean;
}

export type Outcome = "denied" | "reported" | "NOT HELD";

export interface AttackResult {
  attack: Attack;
  outcome: Outcome;
  /** What the hook said (the denial, the Stop), for a failure's message. */
  said: string;
}

export const PROJECT_FILES: Readonly<Record<string, string>> = {
  "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
  "calc.py": "def add(a, b):\n    return a + b\n",
  "src/util.py": "def double(x):\n    return 2 * x\n",
  "other.py": "def other():\n    return 1\n",
  "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
  "sub/README.md": "a folder to cd into\n",
  "node_modules/@tailtest/claude-code/dist/hook.cjs": "// the installed hook bundle\n",
  "node_modules/@tailtest/claude-code/package.json": '{"name":"@tailtest/claude-code"}\n',
  ".claude/settings.json": '{"hooks":{}}\n',
  ".cursor/hooks.json": '{"version":1,"hooks":{}}\n',
  ".codex/config.toml": "[features]\ncodex_hooks = true\n",
  ".gitignore": ".tailtest/\nnode_modules/\n",
};

const HOME_FILES: Readonly<Record<string, string>> = {
  ".claude/settings.json": '{"hooks":{}}\n',
  ".codex/config.toml": "[features]\ncodex_hooks = true\n",
};

const BUNDLE = "node_modules/@tailtest/claude-code";

const HOOKS: Record<Platform, string> = {
  "claude-code": join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs"),
  codex: join(REPO_ROOT, "adapters/codex/dist/hook.cjs"),
  cursor: join(REPO_ROOT, "adapters/cursor/dist/hook.cjs"),
};

type Payload = Record<string, unknown>;

export interface Played {
  root: string;
  home: string;
  cleanup: () => void;
}

/** A project in the mode, committed, with its own home folder (outside the project). */
export async function makeAttackProject(mode: Mode): Promise<Played> {
  const project = makeProject({
    ...PROJECT_FILES,
    ".tailtest/config.json": `${JSON.stringify({ mode })}\n`,
  });
  const home = `${project.root}-home`;
  for (const [rel, text] of Object.entries(HOME_FILES)) {
    mkdirSync(join(home, rel, ".."), { recursive: true });
    writeFileSync(join(home, rel), text);
  }
  await commitAll(project.root);
  // The installed bundle is a link into a package store, as pnpm makes it (`{store}`).
  const store = `${project.root}-store`;
  mkdirSync(store);
  renameSync(join(project.root, BUNDLE), join(store, "claude-code"));
  symlinkSync(join(store, "claude-code"), join(project.root, BUNDLE));
  return {
    root: project.root,
    home,
    cleanup: () => {
      project.cleanup();
      rmSync(home, { recursive: true, force: true });
      rmSync(store, { recursive: true, force: true });
    },
  };
}

/** `{root}` (the project), `{home}` (its home folder, outside it), `{store}` filled in. */
export const fill = (text: string, played: Played) =>
  text
    .replaceAll("{root}", played.root)
    .replaceAll("{home}", played.home)
    .replaceAll("{store}", `${played.root}-store`);

function absolute(path: string, played: Played): string {
  if (path.startsWith("~/")) return join(played.home, path.slice(2));
  const filled = fill(path, played);
  return isAbsolute(filled) ? filled : join(played.root, filled);
}

/** The payloads of one platform, recorded ones with their tool fields changed. */
export function payloadsOf(platform: Platform, root: string) {
  const stored = (dir: string, name: string) => loadPayload<Payload>(dir, name, root).stdin;
  switch (platform) {
    case "claude-code": {
      const pre = stored("claude-2.1.330", "context.PreToolUse-Write.json");
      const post = stored("claude-2.1.330", "context.PostToolUse-Write.json");
      return {
        start: stored("claude-2.1.330", "context.SessionStart.json"),
        stop: { ...stored("claude-2.1.330", "context.Stop.json"), stop_hook_active: false },
        shell: (command: string, event: "pre" | "post"): Payload => ({
          ...(event === "pre" ? pre : post),
          tool_name: "Bash",
          tool_input: { command },
          ...(event === "post" ? { tool_response: { stdout: "", stderr: "" } } : {}),
        }),
        write: (path: string, content: string, event: "pre" | "post"): Payload => ({
          ...(event === "pre" ? pre : post),
          tool_name: "Write",
          tool_input: { file_path: path, content },
          ...(event === "post" ? { tool_response: { filePath: path, content } } : {}),
        }),
      };
    }
    case "codex": {
      const dir = "codex-0.169.0";
      const pre = stored(dir, "shell.PreToolUse-Bash.json");
      const post = stored(dir, "shell.PostToolUse-Bash.json");
      const prePatch = stored(dir, "context.PreToolUse-apply_patch.json");
      const postPatch = stored(dir, "context.PostToolUse-apply_patch.json");
      const patch = (path: string, content: string) =>
        [
          "*** Begin Patch",
          `*** Add File: ${path}`,
          ...content.split("\n").map((line) => `+${line}`),
          "*** End Patch",
          "",
        ].join("\n");
      return {
        start: stored(dir, "shell.SessionStart.json"),
        stop: { ...stored(dir, "shell.Stop.json"), stop_hook_active: false },
        shell: (command: string, event: "pre" | "post"): Payload => ({
          ...(event === "pre" ? pre : post),
          tool_input: { command },
        }),
        write: (path: string, content: string, event: "pre" | "post"): Payload => ({
          ...(event === "pre" ? prePatch : postPatch),
          tool_input: { command: patch(path, content) },
        }),
      };
    }
    case "cursor": {
      const shellPre = stored("cursor", "gate.preToolUse-Shell.json");
      const shellPost = stored("cursor", "shell.postToolUse-Shell.json");
      const writePre = stored("cursor", "gate.preToolUse-Write.json");
      const writePost = stored("cursor", "edit.postToolUse-Write.json");
      return {
        start: stored("cursor", "edit.sessionStart.json"),
        stop: stored("cursor", "edit.stop.json"),
        shell: (command: string, event: "pre" | "post"): Payload => ({
          ...(event === "pre" ? shellPre : shellPost),
          tool_input: { command, cwd: root },
        }),
        write: (path: string, content: string, event: "pre" | "post"): Payload => ({
          ...(event === "pre" ? writePre : writePost),
          tool_input: { file_path: path, content },
        }),
      };
    }
  }
}

/**
 * An agent's session is not a CI job: under `CI`, vitest refuses `.only` and writes no new
 * snapshot, so a cheat that works on a developer's machine would not work here.
 */
const NOT_CI = { CI: "" };

function envOf(platform: Platform, played: Played): Record<string, string> {
  const common = {
    ...NOT_CI,
    HOME: played.home,
    CODEX_HOME: "",
    // Claude Code's user settings folder when it is not ~/.claude.
    CLAUDE_CONFIG_DIR: join(played.home, ".claude-config"),
    TAILTEST_HOOKS_OFF: "",
    TAILTEST_TDD_KEY: "",
    CLAUDE_CODE_SESSION_ID: "",
  };
  if (platform === "cursor") return { ...common, CURSOR_PROJECT_DIR: played.root };
  if (platform === "claude-code") return { ...common, CLAUDE_PROJECT_DIR: played.root };
  return common;
}

export async function fire(platform: Platform, played: Played, payload: Payload): Promise<string> {
  const result = await runBin(HOOKS[platform], [], {
    input: JSON.stringify(payload),
    env: envOf(platform, played),
    cwd: played.root,
  });
  return result.stdout;
}

/** A pre-tool answer that refuses the call, on any of the three platforms. */
export function isDenial(stdout: string): boolean {
  return /"permissionDecision"\s*:\s*"deny"|"permission"\s*:\s*"deny"/.test(stdout);
}

function preCall(platform: Platform, played: Played, step: Step) {
  const payloads = payloadsOf(platform, played.root);
  if ("shell" in step) return payloads.shell(fill(step.shell, played), "pre");
  // Codex's patches name paths as the model writes them: relative to the session's folder.
  const relative = !step.write.startsWith("~/") && !step.write.startsWith("{");
  const path = platform === "codex" && relative ? step.write : absolute(step.write, played);
  return payloads.write(path, step.content ?? "x = 1\n", "pre");
}

export async function bash(command: string, played: Played): Promise<void> {
  await execa("bash", ["-c", fill(command, played)], {
    cwd: played.root,
    env: { ...NOT_CI, HOME: played.home },
    reject: false,
    timeout: 20_000,
  });
}

/** Lets an attack through in a project of its own and asks the Stop about it. */
async function letThrough(platform: Platform, mode: Mode, attack: Attack): Promise<AttackResult> {
  const played = await makeAttackProject(mode);
  try {
    const payloads = payloadsOf(platform, played.root);
    await fire(platform, played, payloads.start);
    if (attack.prepare !== undefined) await bash(attack.prepare, played);
    const gate = await fire(platform, played, preCall(platform, played, attack.step));
    if (isDenial(gate)) return { attack, outcome: "denied", said: gate };
    if (attack.dryRun === true) return { attack, outcome: "NOT HELD", said: gate };
    const before = readSafe(absolute(attack.target, played));
    const { step } = attack;
    if ("shell" in step) {
      await bash(step.shell, played);
      await fire(platform, played, payloads.shell(fill(step.shell, played), "post"));
    } else {
      const path = absolute(step.write, played);
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, step.content ?? "x = 1\n");
      await fire(platform, played, payloads.write(path, step.content ?? "x = 1\n", "post"));
    }
    const stop = await fire(platform, played, payloads.stop);
    const named = stop.includes(attack.target.split("/").pop() ?? attack.target);
    const reverted = mode === "tdd" || readSafe(absolute(attack.target, played)) === before;
    const held = named && reverted && attack.protects !== true;
    return { attack, outcome: held ? "reported" : "NOT HELD", said: `${gate}\n${stop}` };
  } finally {
    played.cleanup();
  }
}

function readSafe(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Hook processes at once: each is mostly start-up, and the suite must stay short in CI. */
const POOL = 4;

/**
 * Plays every attack for one platform and mode: the gate checks in one shared project, `POOL` at
 * a time; an attack let through again in a project of its own, to the Stop.
 */
export async function playAttacks(
  platform: Platform,
  mode: Mode,
  attacks: readonly Attack[],
): Promise<AttackResult[]> {
  const played = await makeAttackProject(mode);
  try {
    await fire(platform, played, payloadsOf(platform, played.root).start);
    for (const attack of attacks)
      if (attack.prepare !== undefined) await bash(attack.prepare, played);
    const results: AttackResult[] = new Array<AttackResult>(attacks.length);
    let next = 0;
    const worker = async () => {
      while (next < attacks.length) {
        const index = next;
        next += 1;
        const attack = attacks[index] as Attack;
        const gate = await fire(platform, played, preCall(platform, played, attack.step));
        results[index] = isDenial(gate)
          ? { attack, outcome: "denied", said: gate }
          : await letThrough(platform, mode, attack);
      }
    };
    await Promise.all(Array.from({ length: POOL }, worker));
    return results;
  } finally {
    played.cleanup();
  }
}

/** `held k/n`, and the attacks not held by name. */
export function heldLine(label: string, results: readonly AttackResult[]): string {
  const held = results.filter((result) => result.outcome !== "NOT HELD");
  const missed = results.filter((result) => result.outcome === "NOT HELD");
  const tail =
    missed.length === 0 ? "" : ` (not held: ${missed.map((r) => r.attack.name).join("; ")})`;
  return `${label}: held ${held.length}/${results.length}${tail}`;
}

/** The JavaScript runners a project can be made for, installed by the slow tests' setup. */
export type JsRunner = "vitest" | "jest" | "mocha" | "node-test";

/** Where the slow tests' global setup installs a runner fixture's dependencies. */
export const jsRunnerModules = (runner: Exclude<JsRunner, "node-test">): string =>
  join(REPO_ROOT, "node_modules/.cache/tailtest/fixtures", runner, "node_modules");

/**
 * A JavaScript project in the mode, committed: `files` (a `package.json`, the code, the tests, the
 * runner's config), and the runner's installed packages linked from the setup's cache as
 * `node_modules` (node's own runner needs none). The project is `<tmp>/project` and its home
 * folder `<tmp>/home`, so the folder above the project is the test's own (a config planted there
 * touches no other test): `../home/x.js` is a path outside the project. The link is never written
 * through: an attack on the runner's installed files asks for a copy (`copyModules`).
 */
export async function makeJsAttackProject(
  mode: Mode,
  runner: JsRunner,
  files: Readonly<Record<string, string>>,
  { copyModules = false } = {},
): Promise<Played> {
  const outer = mkdtempSync(join(tmpdir(), "tailtest-js-"));
  const root = join(outer, "project");
  const all = {
    ...files,
    ".gitignore": ".tailtest/\nnode_modules/\n",
    ".tailtest/config.json": `${JSON.stringify({ mode })}\n`,
  };
  for (const [rel, text] of Object.entries(all)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  if (runner !== "node-test" && copyModules)
    cpSync(jsRunnerModules(runner), join(root, "node_modules"), {
      recursive: true,
      verbatimSymlinks: true,
    });
  else if (runner !== "node-test") symlinkSync(jsRunnerModules(runner), join(root, "node_modules"));
  await commitAll(root);
  const home = join(outer, "home");
  mkdirSync(home);
  return { root, home, cleanup: () => rmSync(outer, { recursive: true, force: true }) };
}

/** A shell command that writes `text` to `path` (a here-document: nothing in it is expanded). */
export const heredoc = (path: string, text: string) => `cat > ${path} <<'EOF'\n${text}EOF`;

/**
 * A write through the platform's edit tool, as the agent makes it: the gate, the write, the
 * post-tool hook. False when the gate denied it (nothing written).
 */
export async function toolWrite(
  platform: Platform,
  played: Played,
  path: string,
  content: string,
): Promise<boolean> {
  const payloads = payloadsOf(platform, played.root);
  const abs = join(played.root, path);
  const relative = platform === "codex" ? path : abs;
  if (isDenial(await fire(platform, played, payloads.write(relative, content, "pre"))))
    return false;
  await bash(`mkdir -p "$(dirname ${path})" && ${heredoc(path, content)}`, played);
  await fire(platform, played, payloads.write(abs, content, "post"));
  return true;
}

/** A command through the platform's shell tool (`{root}`, `{home}` filled); false when denied. */
export async function shellCall(
  platform: Platform,
  played: Played,
  command: string,
): Promise<boolean> {
  const payloads = payloadsOf(platform, played.root);
  const filled = fill(command, played);
  if (isDenial(await fire(platform, played, payloads.shell(filled, "pre")))) return false;
  await bash(filled, played);
  await fire(platform, played, payloads.shell(filled, "post"));
  return true;
}

const CLI = join(REPO_ROOT, "packages/cli/dist/bin.js");

/** The built CLI in the project, as the agent's shell runs it (not under CI). */
export const cliIn = (played: Played, ...args: string[]) =>
  runBin(CLI, args, {
    cwd: played.root,
    env: { ...NOT_CI, HOME: played.home, TAILTEST_TDD_KEY: "" },
  });

/** A cheat on a verdict: what the agent does after the wrong code is in. False when refused. */
export type CheatStep = () => Promise<boolean>;

export interface StrictPlay {
  /** The agent writes its test (and what it writes beside it) before the claim. */
  writeTest: () => Promise<void>;
  /** `tailtest claim <test id> <file>`. */
  testId: string;
  file: string;
  /** The file as committed, and the wrong code the agent writes after the claim. */
  original: string;
  wrong: string;
  cheat: CheatStep;
  /** Checks that the cheat works (the runner now passes the wrong code), before the Stop. */
  cheatWorks?: () => Promise<void>;
}

/**
 * strict: a claim on a failing test, wrong code written under it, then the cheat. HELD (returns
 * undefined) unless the Stop calls the claim green or leaves the wrong code in.
 */
export async function playStrictClaim(
  platform: Platform,
  played: Played,
  play: StrictPlay,
): Promise<string | undefined> {
  const payloads = payloadsOf(platform, played.root);
  await fire(platform, played, payloads.start);
  await play.writeTest();
  const claim = await cliIn(played, "claim", play.testId, play.file);
  expect(claim.exitCode, claim.stdout + claim.stderr).toBe(0);
  expect(await toolWrite(platform, played, play.file, play.wrong)).toBe(true);
  if (!(await play.cheat())) return undefined;
  await play.cheatWorks?.();
  const stop = await fire(platform, played, payloads.stop);
  const now = readFileSync(join(played.root, play.file), "utf8");
  return stop.includes("is green") || now !== play.original ? stop : undefined;
}

export interface TddPlay {
  /** The agent writes its test (and what it writes beside it) during the Red. */
  writeTest: () => Promise<void>;
  /** `tailtest red --test <test id> --expects <expects>`. */
  testId: string;
  expects: string;
  /** The agent's own test command. */
  command: string;
  /** `tailtest green --file <file>`, then the wrong code written there. */
  file: string;
  /** What the Green names instead of `file` (a glob such as `src/*`). */
  greenFile?: string;
  wrong: string;
  cheat: CheatStep;
}

/** tdd: a Red, its test, a Green, wrong code, the cheat. HELD unless the next run completes it. */
export async function playTddCycle(
  platform: Platform,
  played: Played,
  play: TddPlay,
): Promise<string | undefined> {
  await fire(platform, played, payloadsOf(platform, played.root).start);
  const red = await cliIn(played, "red", "--test", play.testId, "--expects", play.expects);
  expect(red.exitCode, red.stderr).toBe(0);
  await play.writeTest();
  await shellCall(platform, played, play.command);
  const green = await cliIn(
    played,
    "green",
    "--change",
    "add mul",
    "--file",
    play.greenFile ?? play.file,
  );
  expect(green.exitCode, green.stdout + green.stderr).toBe(0);
  expect(await toolWrite(platform, played, play.file, play.wrong)).toBe(true);
  if (!(await play.cheat())) return undefined;
  await shellCall(platform, played, play.command);
  const status = await cliIn(played, "tdd", "status", "--json");
  const state = (JSON.parse(status.stdout) as { state?: string }).state;
  return state === "making_tests_pass" ? undefined : `state: ${state ?? status.stdout}`;
}

/**
 * The suite's tally: `held(label, play)` plays one attack (a failure is what the hook said when
 * it was NOT HELD) and fails the test on a miss; after the file, one line `<title>: held k/n`
 * with the misses by name.
 */
export function heldTally(title: string) {
  const tried: string[] = [];
  const missed: string[] = [];
  afterAll(() => {
    const held = tried.length - missed.length;
    const tail = missed.length === 0 ? "" : ` (not held: ${missed.join("; ")})`;
    process.stdout.write(`${title}: held ${held}/${tried.length}${tail}\n`);
  });
  return async (label: string, play: () => Promise<string | undefined>): Promise<void> => {
    tried.push(label);
    const failure = await play();
    if (failure !== undefined) missed.push(label);
    expect(failure, label).toBeUndefined();
  };
}

/**
 * Which cheats a platform plays: every one through Claude Code's hooks; the verdict is the same
 * code on every platform, so Cursor plays the first and the last (its write tool and Stop
 * payloads) and Codex the same in strict only. Codex's tdd is not played: its gate reads the Red
 * from the turn's log key, which the CLI is told by `TAILTEST_TDD_KEY` in Codex's own shell (see
 * the codex adapter's tests).
 */
export function playsOn<T>(platform: Platform, cheats: readonly T[], mode: Mode): T[] {
  if (platform === "claude-code") return [...cheats];
  if (platform === "codex" && mode === "tdd") return [];
  return [cheats[0], cheats.at(-1)].filter((one) => one !== undefined);
}
