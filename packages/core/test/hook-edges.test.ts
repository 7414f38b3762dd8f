import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  commitAll,
  loadPayload,
  makeProject,
  REPO_ROOT,
  userShellEnv,
  type TempProject,
} from "@tailtest/test-utils";
import { contextOf, isDeny, protocolAnswer } from "@tailtest/test-utils/answers";
import { execa } from "execa";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { GATE_DEADLINE_MS } from "../src/hook/node/launcher.ts";

/**
 * The edges of a hook call (ADR 0002), through the built hook bins and the hook commands `init`
 * commits: whatever breaks, one line on stderr (never a stack or the bundle's source) and an
 * answer in the shape of the event the hook was called for; a gate that cannot decide in tdd
 * mode blocks, also when node itself is missing from the hooks' PATH.
 */

type Platform = "claude-code" | "codex" | "cursor";
type Payload = Record<string, unknown>;

interface Facts {
  /** The recorded payloads' folder. */
  dir: string;
  gate: { name: string; event: string };
  shellGate: string;
  /** Events after a tool, at a turn's start and end, at a session's start: recorded payloads. */
  others: { name: string; event: string }[];
  noOpinion: string;
  env: (root: string) => Record<string, string>;
  /** The hook settings `init` writes, and how to read one event's command from them. */
  settings: string;
}

const FACTS: Record<Platform, Facts> = {
  "claude-code": {
    dir: "claude-2.1.330",
    gate: { name: "context.PreToolUse-Write.json", event: "PreToolUse" },
    shellGate: "context.PreToolUse-Write.json",
    others: [
      { name: "context.PostToolUse-Write.json", event: "PostToolUse" },
      { name: "context.Stop.json", event: "Stop" },
      { name: "context.SessionStart.json", event: "SessionStart" },
      { name: "context.SessionEnd.json", event: "SessionEnd" },
    ],
    noOpinion: "",
    env: (root) => ({ CLAUDE_PROJECT_DIR: root }),
    settings: ".claude/settings.json",
  },
  codex: {
    dir: "codex-0.169.0",
    gate: { name: "context.PreToolUse-apply_patch.json", event: "PreToolUse" },
    shellGate: "shell.PreToolUse-Bash.json",
    others: [
      { name: "context.PostToolUse-apply_patch.json", event: "PostToolUse" },
      { name: "context.Stop.json", event: "Stop" },
      { name: "context.SessionStart.json", event: "SessionStart" },
      { name: "context.UserPromptSubmit.json", event: "UserPromptSubmit" },
    ],
    noOpinion: "",
    env: () => ({}),
    settings: ".codex/hooks.json",
  },
  cursor: {
    dir: "cursor",
    gate: { name: "gate.preToolUse-Write.json", event: "preToolUse" },
    shellGate: "gate.preToolUse-Shell.json",
    others: [
      { name: "edit.afterFileEdit.json", event: "afterFileEdit" },
      { name: "edit.postToolUse-Write.json", event: "postToolUse" },
      { name: "edit.stop.json", event: "stop" },
      { name: "edit.sessionStart.json", event: "sessionStart" },
    ],
    noOpinion: "{}\n",
    env: (root) => ({ CURSOR_PROJECT_DIR: root }),
    settings: ".cursor/hooks.json",
  },
};
const PLATFORMS = Object.keys(FACTS) as Platform[];

const bin = (platform: Platform) => join(REPO_ROOT, "adapters", platform, "dist/hook.cjs");
const cli = (platform: Platform) => join(REPO_ROOT, "adapters", platform, "dist/cli.js");

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

function project(mode: "follow" | "tdd"): string {
  const made = makeProject({
    ".tailtest/config.json": `${JSON.stringify({ mode }, null, 2)}\n`,
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
  });
  projects.push(made);
  return made.root;
}

function payload(platform: Platform, name: string, root: string): Payload {
  return loadPayload<Payload>(FACTS[platform].dir, name, root).stdin;
}

async function hook(
  platform: Platform,
  root: string,
  stdin: string,
  options: { args?: string[]; env?: Record<string, string>; node?: string[]; bin?: string } = {},
) {
  const hookBin = options.bin ?? bin(platform);
  const argv = [...(options.node ?? []), hookBin, ...(options.args ?? [])];
  const result = await execa(process.execPath, argv, {
    cwd: root,
    input: stdin,
    env: { ...userShellEnv(), ...FACTS[platform].env(root), ...options.env },
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
}

/** Exactly one line on stderr, and none of the bundle's source or a stack. */
function oneLine(stderr: string, what: string): string {
  expect(stderr.trimEnd().split("\n"), `${what}: ${stderr.slice(0, 600)}`).toHaveLength(1);
  expect(stderr, what).not.toMatch(/\bat .*\.cjs|function |=>|hook-(main|gate)\.cjs/);
  return stderr;
}

function atMostOneLine(stderr: string, what: string): void {
  if (stderr.trim() !== "") oneLine(stderr, what);
}

/** A bash command nested far deeper than any real one: its reading would run out of stack. */
const DEEP = `${"(".repeat(30_000)}echo x > calc.py${")".repeat(30_000)}`;

describe("an error that escapes (a stack overflow) is one stderr line and the policy's answer", () => {
  it.each(PLATFORMS)("%s: tdd mode denies the gate call in its own shape", async (platform) => {
    const root = project("tdd");
    const facts = FACTS[platform];
    const stored = payload(platform, facts.shellGate, root);
    // Claude Code's recorded gate is a Write: the same call as a Bash one.
    const shell = platform === "claude-code" ? { tool_name: "Bash" } : {};
    const cwd = platform === "cursor" ? { cwd: root } : {};
    const stdin = { ...stored, ...shell, tool_input: { command: DEEP, ...cwd } };
    const result = await hook(platform, root, JSON.stringify(stdin));
    expect(result.exitCode).toBe(0);
    const answer = protocolAnswer(platform, facts.gate.event, result.stdout, platform);
    expect(isDeny(answer), result.stdout).toBe(true);
    expect(result.stdout).toMatch(/too deep to read/);
    atMostOneLine(result.stderr, platform);
  });
});

describe("a gate that has not answered by its deadline", () => {
  // The built launcher with a gate bundle that answers only after 30 s (a ref'd timer keeps the
  // process waiting), started as if 0.2 s before its deadline: the deadline's denial is the
  // answer, in each agent's shape, and the late answer never comes (ADR 0002).
  it.each(PLATFORMS)(
    "%s: denies with one line, and the late answer is not written",
    async (platform) => {
      const root = project("tdd");
      const dir = mkdtempSync(join(tmpdir(), "tailtest-deadline-"));
      try {
        writeFileSync(join(dir, "hook.cjs"), readFileSync(bin(platform)));
        writeFileSync(
          join(dir, "hook-gate.cjs"),
          `module.exports = { answerHook: () => new Promise((done) => setTimeout(() => done({ stdout: '{"late":true}', stderr: "", exitCode: 0 }), 30000)) };\n`,
        );
        const early = GATE_DEADLINE_MS / 1000 - 0.2;
        writeFileSync(
          join(dir, "early.cjs"),
          `const uptime = process.uptime; process.uptime = () => uptime() + ${early};\n`,
        );
        const stdin = JSON.stringify(payload(platform, FACTS[platform].gate.name, root));
        const result = await hook(platform, root, stdin, {
          node: ["--require", join(dir, "early.cjs")],
          bin: join(dir, "hook.cjs"),
        });
        expect(result.exitCode).toBe(0);
        const answer = protocolAnswer(
          platform,
          FACTS[platform].gate.event,
          result.stdout,
          platform,
        );
        expect(isDeny(answer), result.stdout).toBe(true);
        expect(result.stdout).not.toContain("late");
        expect(oneLine(result.stderr, platform)).toContain(
          `the gate could not decide within ${GATE_DEADLINE_MS / 1000} s`,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("a gate's deadline on a node that keeps the event loop open for a pending wait", () => {
  // The deadline is an Atomics.waitAsync, which node 20 to 24 do not wait for; a node that did
  // (stood for by a preload that holds the loop until the wait settles) must still end a gate
  // call once it has answered, an empty answer (no opinion) too, and not deny it 20 s later.
  it.each(PLATFORMS)(
    "%s: a read-only shell command's gate ends with its own answer",
    async (platform) => {
      const root = project("tdd");
      const dir = mkdtempSync(join(tmpdir(), "tailtest-hold-"));
      try {
        writeFileSync(
          join(dir, "hold.cjs"),
          [
            "const wait = Atomics.waitAsync;",
            "Atomics.waitAsync = function (...args) {",
            "  const result = wait.apply(this, args);",
            "  if (result.async) {",
            "    const hold = setInterval(() => {}, 1 << 30);",
            "    result.value.finally(() => clearInterval(hold));",
            "  }",
            "  return result;",
            "};",
          ].join("\n"),
        );
        const facts = FACTS[platform];
        const stored = payload(platform, facts.shellGate, root);
        const shell = platform === "claude-code" ? { tool_name: "Bash" } : {};
        const cwd = platform === "cursor" ? { cwd: root } : {};
        const stdin = { ...stored, ...shell, tool_input: { command: "ls", ...cwd } };
        const result = await hook(platform, root, JSON.stringify(stdin), {
          node: ["--require", join(dir, "hold.cjs")],
        });
        expect(result.exitCode).toBe(0);
        expect(result.stderr).not.toContain("could not decide");
        if (result.stdout.trim() !== "") {
          const answer = protocolAnswer(platform, facts.gate.event, result.stdout, platform);
          expect(isDeny(answer), result.stdout).toBe(false);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("a hook started in a folder that was removed", () => {
  // An agent's shell can delete the folder it stands in; node's process.cwd() then throws.
  it.each(PLATFORMS)("%s: the tdd gate still decides, with no stack trace", async (platform) => {
    const root = project("tdd");
    const facts = FACTS[platform];
    const gone = join(root, "gone");
    mkdirSync(gone);
    const stdin = JSON.stringify(payload(platform, facts.gate.name, root));
    const result = await execa(
      "sh",
      [
        "-c",
        'cd "$1" && rmdir "$1" && exec "$2" "$3"',
        "sh",
        gone,
        process.execPath,
        bin(platform),
      ],
      {
        cwd: root,
        input: stdin,
        env: { ...userShellEnv(), ...facts.env(root) },
        extendEnv: false,
        reject: false,
        timeout: 120_000,
      },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const answer = protocolAnswer(platform, facts.gate.event, result.stdout, platform);
    expect(isDeny(answer), result.stdout).toBe(true);
    expect(result.stderr).not.toMatch(/uv_cwd|\bat /);
    atMostOneLine(result.stderr, platform);
  });
});

describe("stdin larger than one read", () => {
  it("is read whole, a character split across the first read's edge decoded once", async () => {
    const root = project("follow");
    mkdirSync(join(root, "src"), { recursive: true });
    const file = join(root, "src", "caf\u00e9.py");
    writeFileSync(file, "x = 1\n");
    const FIRST_READ = 64 * 1024;
    const stdinFor = (pad: number) =>
      JSON.stringify({
        ...payload("claude-code", "context.PostToolUse-Write.json", root),
        tool_input: { content: "x".repeat(pad), file_path: file },
        tool_response: { type: "create" },
      });
    // The padding that puts the two bytes of "é" on either side of the first read's end.
    const probe = stdinFor(0);
    const before = Buffer.byteLength(probe.slice(0, probe.indexOf("caf\u00e9") + 3));
    const stdin = stdinFor(FIRST_READ - 1 - before);
    const at = Buffer.byteLength(stdin.slice(0, stdin.indexOf("caf\u00e9") + 3));
    expect(at).toBe(FIRST_READ - 1);
    const result = await hook("claude-code", root, stdin);
    expect(result.exitCode).toBe(0);
    const answer = protocolAnswer("claude-code", "PostToolUse", result.stdout, "follow");
    expect(contextOf(answer), result.stdout).toContain("src/caf\u00e9.py queued (new");
    expect(result.stderr).toBe("");
  });
});

describe("stdin that is not a payload gets an answer shaped for its event", () => {
  /** A payload cut off mid-way, past its event's name (a platform's stdin torn on the way). */
  const truncated = (text: string) => {
    const named = /"hook_event_name":"[A-Za-z]+"/.exec(text);
    if (named === null) throw new Error("a payload names its event");
    return text.slice(0, Math.max(named.index + named[0].length + 5, text.length / 2));
  };

  it.each(PLATFORMS)(
    "%s: a cut-off payload of an event after a tool, at a turn's or session's edge: no opinion and one line, in tdd mode too",
    async (platform) => {
      const root = project("tdd");
      const facts = FACTS[platform];
      for (const { name, event } of facts.others) {
        const text = JSON.stringify(payload(platform, name, root));
        const result = await hook(platform, root, truncated(text));
        expect(result.exitCode, event).toBe(0);
        expect(result.stdout, event).toBe(facts.noOpinion.trimEnd());
        expect(oneLine(result.stderr, event)).toBe(
          `tailtest: ignored a ${event} hook call: stdin is not a JSON object`,
        );
      }
    },
  );

  it.each(PLATFORMS)(
    "%s: empty and garbage stdin for the event the command names (--event=): the same",
    async (platform) => {
      const root = project("tdd");
      const facts = FACTS[platform];
      for (const { event } of facts.others) {
        for (const stdin of ["", "garbage\n", "[1,2]", "{not json}"]) {
          const result = await hook(platform, root, stdin, { args: [`--event=${event}`] });
          expect(result.exitCode, `${event} ${stdin}`).toBe(0);
          expect(result.stdout, `${event} ${stdin}`).toBe(facts.noOpinion.trimEnd());
          oneLine(result.stderr, `${event} ${stdin}`);
        }
      }
    },
  );

  it.each(PLATFORMS)(
    "%s: a cut-off gate call is denied in tdd mode, in the gate's shape; in follow mode no opinion",
    async (platform) => {
      const facts = FACTS[platform];
      for (const mode of ["tdd", "follow"] as const) {
        const root = project(mode);
        const text = JSON.stringify(payload(platform, facts.gate.name, root));
        const result = await hook(platform, root, truncated(text), {
          args: [`--event=${facts.gate.event}`],
        });
        expect(result.exitCode, mode).toBe(0);
        const answer = protocolAnswer(platform, facts.gate.event, result.stdout, mode);
        expect(isDeny(answer), `${mode}: ${result.stdout}`).toBe(mode === "tdd");
        oneLine(result.stderr, mode);
      }
    },
  );
});

describe("SessionStart with an environment file it cannot write", () => {
  it("still gives the session's note, and says so in one line", async () => {
    const root = project("tdd");
    await commitAll(root);
    const unwritable = join(root, "..", "env-file-is-a-folder");
    mkdirSync(unwritable, { recursive: true });
    const stdin = JSON.stringify(payload("claude-code", "context.SessionStart.json", root));
    const result = await hook("claude-code", root, stdin, {
      env: { CLAUDE_ENV_FILE: unwritable },
    });
    expect(result.exitCode).toBe(0);
    const note = contextOf(protocolAnswer("claude-code", "SessionStart", result.stdout, "start"));
    expect(note).toContain("tailtest tdd: Red → Green → Refactor is enforced for this session");
    const lines = note.split("\n").filter((line) => line.includes("environment file"));
    expect(lines).toEqual([
      expect.stringMatching(
        /^tailtest: the agent's environment file could not be written \(EISDIR\); run tailtest commands with TAILTEST_TDD_KEY=\S+\.$/,
      ),
    ]);
    expect(result.stderr.trimEnd().split("\n").length).toBeLessThanOrEqual(1);
  });
});

describe("the committed hook command without node on the PATH", () => {
  // A PATH with a shell and nothing else: node, wherever it is installed, is not on it.
  const noNode = mkdtempSync(join(tmpdir(), "tailtest-no-node-"));
  symlinkSync("/bin/sh", join(noNode, "sh"));
  afterAll(() => rmSync(noNode, { recursive: true, force: true }));

  /** The project set up by the platform's `init` (node_modules holds the built package). */
  async function installed(platform: Platform, mode: "follow" | "tdd"): Promise<string> {
    const root = project(mode);
    const pkg = join(root, "node_modules/@tailtest", platform);
    mkdirSync(join(pkg, "dist"), { recursive: true });
    writeFileSync(join(pkg, "dist/hook.cjs"), "// stands for the installed hook\n");
    writeFileSync(join(pkg, "package.json"), `{"name":"@tailtest/${platform}"}\n`);
    const init = await execa(process.execPath, [cli(platform), "init", "--mode", mode], {
      cwd: root,
      env: { ...userShellEnv(), HOME: root, CODEX_HOME: join(root, ".codex-home") },
      extendEnv: false,
      reject: false,
    });
    expect(init.exitCode, init.stderr).toBe(0);
    return root;
  }

  function handlerOf(platform: Platform, root: string, event: string) {
    type Handler = { command: string; timeout: number };
    const file = JSON.parse(readFileSync(join(root, FACTS[platform].settings), "utf8")) as {
      hooks: Record<string, (Partial<Handler> & { hooks?: Handler[] })[]>;
    };
    const entry = file.hooks[event]?.[0];
    const handler = entry?.hooks?.[0] ?? entry;
    if (handler?.command === undefined || handler.timeout === undefined)
      throw new Error(`no ${event} command`);
    return { command: handler.command, timeout: handler.timeout };
  }

  function commandOf(platform: Platform, root: string, event: string): string {
    return handlerOf(platform, root, event).command;
  }

  async function run(platform: Platform, root: string, event: string, name: string) {
    const stdin = JSON.stringify(payload(platform, name, root));
    return execa("/bin/sh", ["-c", commandOf(platform, root, event)], {
      cwd: root,
      input: stdin,
      env: { PATH: noNode, HOME: root, ...FACTS[platform].env(root) },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
  }

  it.each(PLATFORMS)(
    "%s: in tdd mode the gate blocks (exit 2) with one line; other events and follow mode go on",
    async (platform) => {
      const facts = FACTS[platform];
      const tdd = await installed(platform, "tdd");
      // The gate's own deadline (it denies past it) falls well inside the timeout init writes.
      expect(handlerOf(platform, tdd, facts.gate.event).timeout).toBeGreaterThanOrEqual(
        GATE_DEADLINE_MS / 1000 + 10,
      );
      const gate = await run(platform, tdd, facts.gate.event, facts.gate.name);
      expect(gate.exitCode, gate.stderr).toBe(2);
      expect(oneLine(gate.stderr, "tdd gate")).toMatch(
        /^tailtest: node not found on the PATH agent hooks run with, so tailtest cannot decide and blocks this call/,
      );
      const stop = facts.others.find((one) => /stop/i.test(one.event));
      if (stop === undefined) throw new Error("no stop payload");
      const after = await run(platform, tdd, stop.event, stop.name);
      expect(after.exitCode).toBe(0);
      expect(after.stdout).toBe(facts.noOpinion.trimEnd());
      expect(oneLine(after.stderr, "tdd stop")).toMatch(/^tailtest: node not found/);

      const follow = await installed(platform, "follow");
      const open = await run(platform, follow, facts.gate.event, facts.gate.name);
      expect(open.exitCode).toBe(0);
      expect(open.stdout).toBe(facts.noOpinion.trimEnd());
      expect(oneLine(open.stderr, "follow gate")).toMatch(/^tailtest: node not found/);
    },
  );
});
