import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeProject, REPO_ROOT, userShellEnv, type TempProject } from "@tailtest/test-utils";
import { isDeny, protocolAnswer } from "@tailtest/test-utils/answers";
import { execa } from "execa";
import { afterAll, afterEach, describe, expect, it } from "vitest";

/**
 * The hook commands tailtest writes, run the way the agents run them (`sh -c`): a project's
 * (`init`), a user-level install's (`init --user`, in the agent's user hook file) and the Claude
 * Code plugin's (its hooks/hooks.json). Each names its event (`--event=`), so a call whose stdin
 * is empty gets its own event's answer; each has the no-node guard, so without node on the PATH
 * it says so in one line, and in tdd mode the gate blocks (exit 2) while every other call has no
 * opinion.
 */

type Platform = "claude-code" | "codex" | "cursor";
type Kind = "project" | "user" | "plugin";

interface Facts {
  gate: string;
  noOpinion: string;
  /** The user-level hook file under the fake home, and the variables that point the agent there. */
  userFile: string;
  /** The project hook file `init` writes. */
  projectFile: string;
  /** The agent's variables for a hook in `root`. */
  env: (root: string) => Record<string, string>;
  /** Where the agent starts a user-level hook (Cursor: `~/.cursor`). */
  userCwd: (root: string, home: string) => string;
}

const FACTS: Record<Platform, Facts> = {
  "claude-code": {
    gate: "PreToolUse",
    noOpinion: "",
    userFile: ".claude/settings.json",
    projectFile: ".claude/settings.json",
    env: (root) => ({ CLAUDE_PROJECT_DIR: root }),
    userCwd: (root) => root,
  },
  codex: {
    gate: "PreToolUse",
    noOpinion: "",
    userFile: ".codex/hooks.json",
    projectFile: ".codex/hooks.json",
    env: () => ({}),
    // Codex starts hooks in the session's folder: a subfolder of the project here.
    userCwd: (root) => join(root, "src"),
  },
  cursor: {
    gate: "preToolUse",
    noOpinion: "{}",
    userFile: ".cursor/hooks.json",
    projectFile: ".cursor/hooks.json",
    env: (root) => ({ CURSOR_PROJECT_DIR: root }),
    userCwd: (_root, home) => join(home, ".cursor"),
  },
};
const PLATFORMS = Object.keys(FACTS) as Platform[];

const cli = (platform: Platform) => join(REPO_ROOT, "adapters", platform, "dist/cli.js");
const PLUGIN_ROOT = join(REPO_ROOT, "adapters/claude-code/plugin");

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const done of cleanup.splice(0)) done();
});

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function project(mode: "follow" | "tdd", files: Record<string, string> = {}): string {
  const made: TempProject = makeProject({
    ".tailtest/config.json": `${JSON.stringify({ mode }, null, 2)}\n`,
    "src/calc.py": "def add(a, b):\n    return a + b\n",
    ...files,
  });
  cleanup.push(() => made.cleanup());
  return made.root;
}

/** The event → command table of a hook file (Claude Code's and Codex's groups, Cursor's list). */
function commandsIn(path: string): Map<string, string> {
  type Entry = { command?: string; hooks?: { command: string }[] };
  const file = JSON.parse(readFileSync(path, "utf8")) as { hooks: Record<string, Entry[]> };
  const commands = new Map<string, string>();
  for (const [event, entries] of Object.entries(file.hooks)) {
    const command = entries.flatMap((entry) =>
      entry.hooks === undefined ? [entry.command ?? ""] : entry.hooks.map((h) => h.command),
    )[0];
    if (command !== undefined) commands.set(event, command);
  }
  return commands;
}

/** `init --user` into a fake home and data folder; the commands it registered, by event. */
async function userInstall(
  platform: Platform,
): Promise<{ home: string; commands: Map<string, string> }> {
  const home = temp("tailtest-home-");
  const init = await execa(process.execPath, [cli(platform), "init", "--user"], {
    cwd: home,
    env: {
      ...userShellEnv(),
      HOME: home,
      TAILTEST_DATA_DIR: join(home, "data"),
      CODEX_HOME: join(home, ".codex"),
      CLAUDE_CONFIG_DIR: join(home, ".claude"),
    },
    extendEnv: false,
    reject: false,
  });
  expect(init.exitCode, init.stderr).toBe(0);
  return { home, commands: commandsIn(join(home, FACTS[platform].userFile)) };
}

/** `init` in a project whose node_modules holds the built package (linked, as pnpm lays it out). */
async function projectInstall(platform: Platform, root: string): Promise<Map<string, string>> {
  mkdirSync(join(root, "node_modules/@tailtest"), { recursive: true });
  symlinkSync(
    join(REPO_ROOT, "adapters", platform),
    join(root, "node_modules/@tailtest", platform),
  );
  const init = await execa(process.execPath, [cli(platform), "init"], {
    cwd: root,
    env: { ...userShellEnv(), HOME: root, CODEX_HOME: join(root, ".codex-home") },
    extendEnv: false,
    reject: false,
  });
  expect(init.exitCode, init.stderr).toBe(0);
  return commandsIn(join(root, FACTS[platform].projectFile));
}

function pluginCommands(): Map<string, string> {
  return commandsIn(join(PLUGIN_ROOT, "hooks/hooks.json"));
}

async function run(
  command: string,
  options: { cwd: string; env: Record<string, string>; stdin: string },
) {
  const result = await execa("/bin/sh", ["-c", command], {
    cwd: options.cwd,
    input: options.stdin,
    env: options.env,
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
}

/** Exactly one line on stderr, and no stack or bundle source. */
function oneLine(stderr: string, what: string): string {
  expect(stderr.trimEnd().split("\n"), `${what}: ${stderr.slice(0, 600)}`).toHaveLength(1);
  expect(stderr, what).not.toMatch(/\bat .*\.cjs|function |=>/);
  return stderr;
}

describe("every command init writes names its event", () => {
  it.each(PLATFORMS)(
    "%s: project and user-level commands end with --event=<their event>",
    async (platform) => {
      const root = project("follow");
      const tables = [await projectInstall(platform, root), (await userInstall(platform)).commands];
      if (platform === "claude-code") tables.push(pluginCommands());
      for (const commands of tables) {
        expect(commands.size).toBeGreaterThanOrEqual(8);
        for (const [event, command] of commands)
          expect(command, event).toMatch(new RegExp(` --event=${event}(;|'|$)`));
      }
    },
  );
});

describe("fully empty stdin, in tdd mode, gets an answer in its own event's shape", () => {
  async function check(platform: Platform, kind: Kind) {
    const facts = FACTS[platform];
    const root = project("tdd");
    let commands: Map<string, string>;
    let cwd = root;
    const env: Record<string, string> = { ...userShellEnv(), HOME: root, ...facts.env(root) };
    if (kind === "project") commands = await projectInstall(platform, root);
    else if (kind === "user") {
      const installed = await userInstall(platform);
      commands = installed.commands;
      cwd = facts.userCwd(root, installed.home);
      mkdirSync(cwd, { recursive: true });
    } else {
      commands = pluginCommands();
      env["CLAUDE_PLUGIN_ROOT"] = PLUGIN_ROOT;
    }
    for (const [event, command] of commands) {
      const result = await run(command, { cwd, env, stdin: "" });
      const what = `${kind} ${event}`;
      expect(result.exitCode, `${what}: ${result.stderr}`).toBe(0);
      if (event === facts.gate) {
        // The gate cannot decide on nothing: tdd fails closed, in the gate's own shape.
        expect(isDeny(protocolAnswer(platform, event, result.stdout, what)), what).toBe(true);
      } else {
        expect(result.stdout, what).toBe(facts.noOpinion);
        expect(oneLine(result.stderr, what)).toBe(
          `tailtest: ignored a ${event} hook call: stdin is empty`,
        );
      }
    }
  }

  it.each(PLATFORMS)("%s: the project's commands", (platform) => check(platform, "project"));
  it.each(PLATFORMS)("%s: the user-level commands", (platform) => check(platform, "user"));
  it("claude-code: the plugin's commands", () => check("claude-code", "plugin"));
});

describe("user-level and plugin commands without node on the PATH", () => {
  // A PATH with a shell and nothing else: node, wherever it is installed, is not on it.
  const noNode = mkdtempSync(join(tmpdir(), "tailtest-no-node-"));
  symlinkSync("/bin/sh", join(noNode, "sh"));
  afterAll(() => rmSync(noNode, { recursive: true, force: true }));

  async function commandsFor(platform: Platform, kind: "user" | "plugin") {
    if (kind === "plugin") return { commands: pluginCommands(), home: temp("tailtest-home-") };
    return userInstall(platform);
  }

  const CASES: [Platform, "user" | "plugin"][] = [
    ["claude-code", "user"],
    ["codex", "user"],
    ["cursor", "user"],
    ["claude-code", "plugin"],
  ];

  it.each(CASES)(
    "%s %s: in tdd mode the gate blocks (exit 2) with one line; other events and follow mode go on",
    async (platform, kind) => {
      const facts = FACTS[platform];
      const { commands, home } = await commandsFor(platform, kind);
      const fire = async (root: string, event: string) => {
        const command = commands.get(event);
        if (command === undefined) throw new Error(`no ${event} command`);
        const cwd = kind === "user" ? facts.userCwd(root, home) : root;
        mkdirSync(cwd, { recursive: true });
        return run(command, {
          cwd,
          env: { PATH: noNode, HOME: home, CLAUDE_PLUGIN_ROOT: PLUGIN_ROOT, ...facts.env(root) },
          stdin: "{}",
        });
      };
      const stopEvent = [...commands.keys()].find((event) => /^stop$/i.test(event)) ?? "";

      const tdd = project("tdd");
      const gate = await fire(tdd, facts.gate);
      expect(gate.exitCode, gate.stderr).toBe(2);
      expect(oneLine(gate.stderr, "tdd gate")).toMatch(
        /^tailtest: node not found on the PATH agent hooks run with, so tailtest cannot decide and blocks this call/,
      );
      const stop = await fire(tdd, stopEvent);
      expect(stop.exitCode).toBe(0);
      expect(stop.stdout).toBe(facts.noOpinion);
      expect(oneLine(stop.stderr, "tdd stop")).toMatch(/^tailtest: node not found/);

      const follow = project("follow");
      const open = await fire(follow, facts.gate);
      expect(open.exitCode).toBe(0);
      expect(open.stdout).toBe(facts.noOpinion);
      expect(oneLine(open.stderr, "follow gate")).toMatch(/^tailtest: node not found/);

      if (kind === "user") {
        // A project that opted out, or installed the package itself, is left alone: silently.
        const optedOut = project("tdd", { ".tailtest/off": "" });
        const own = project("tdd", { [`node_modules/@tailtest/${platform}/dist/hook.cjs`]: "" });
        for (const root of [optedOut, own]) {
          for (const event of [facts.gate, stopEvent]) {
            const aside = await fire(root, event);
            expect(aside, event).toEqual({ stdout: facts.noOpinion, stderr: "", exitCode: 0 });
          }
        }
      }
    },
  );
});

describe("an install from before commands named their event", () => {
  it.each(PLATFORMS)("%s: re-running init updates every event's command", async (platform) => {
    const root = project("follow");
    const fresh = await projectInstall(platform, root);
    const file = join(root, FACTS[platform].projectFile);
    // The same file with every command's event flag taken out: what an earlier init wrote.
    const text = readFileSync(file, "utf8").replace(/ --event=[A-Za-z]+/g, "");
    writeFileSync(file, text);
    expect([...commandsIn(file).values()].some((c) => c.includes("--event="))).toBe(false);
    const again = await execa(process.execPath, [cli(platform), "init"], {
      cwd: root,
      env: { ...userShellEnv(), HOME: root, CODEX_HOME: join(root, ".codex-home") },
      extendEnv: false,
      reject: false,
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/updated hooks: /);
    expect(commandsIn(file)).toEqual(fresh);
  });
});
