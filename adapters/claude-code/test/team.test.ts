import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  commitAll,
  copyFixture,
  loadPayload,
  REPO_ROOT,
  userShellEnv,
  type TempProject,
} from "@tailtest/test-utils";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { initProject } from "../src/setup.ts";

/*
 * A team commits `.claude/settings.json` and `.tailtest/config.json`; a teammate's fresh clone
 * runs the committed hook command before `npm install`. The command runs in sh, as Claude Code
 * runs it, with the recorded payloads of a real session.
 */

const VERSION = "claude-2.1.330";
const NOT_INSTALLED =
  "tailtest: @tailtest/claude-code is not installed in this checkout yet (run npm install); its hooks do nothing until then";

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

interface Settings {
  hooks: Record<string, { hooks: { command: string }[] }[]>;
}

/** The fixture set up by `init` (in `mode`), committed, as a teammate would clone it. */
async function teamProject(mode: "follow" | "tdd" | "strict"): Promise<string> {
  project = copyFixture("runners/pytest-pyproject");
  const { root } = project;
  await initProject({ root, mode });
  await commitAll(root);
  return root;
}

function commandOf(root: string, event: string): string {
  const settings = JSON.parse(
    readFileSync(join(root, ".claude/settings.json"), "utf8"),
  ) as Settings;
  const command = settings.hooks[event]?.[0]?.hooks[0]?.command;
  if (command === undefined) throw new Error(`no ${event} hook`);
  return command;
}

async function fire(root: string, event: string, payload: string) {
  const { stdin } = loadPayload(VERSION, payload, root);
  return execa("sh", ["-c", commandOf(root, event)], {
    cwd: root,
    env: { ...userShellEnv(), CLAUDE_PROJECT_DIR: root },
    extendEnv: false,
    input: JSON.stringify(stdin),
    reject: false,
    timeout: 60_000,
  });
}

const CALLS = [
  ["SessionStart", "context.SessionStart.json"],
  ["PreToolUse", "context.PreToolUse-Write.json"],
  ["PostToolUse", "context.PostToolUse-Write.json"],
  ["Stop", "context.Stop.json"],
] as const;

describe("a teammate's clone before npm install", () => {
  it("follow mode: every hook says so in one stderr line and has no opinion", async () => {
    const root = await teamProject("follow");
    for (const [event, payload] of CALLS) {
      const result = await fire(root, event, payload);
      expect({ event, ...result }).toMatchObject({
        event,
        exitCode: 0,
        stdout: "",
        stderr: NOT_INSTALLED,
      });
    }
  });

  it.each(["tdd", "strict"] as const)(
    "%s mode: the session's start tells the person the gate is not active, once",
    async (mode) => {
      const root = await teamProject(mode);
      const gateOff = `${NOT_INSTALLED}: the ${mode} gate is NOT active this session`;
      const start = await fire(root, "SessionStart", "context.SessionStart.json");
      expect(start.exitCode).toBe(0);
      expect(start.stderr).toBe(gateOff);
      expect(JSON.parse(start.stdout)).toEqual({ systemMessage: gateOff });
      for (const [event, payload] of CALLS.slice(1)) {
        const result = await fire(root, event, payload);
        expect({ event, ...result }).toMatchObject({
          exitCode: 0,
          stdout: "",
          stderr: NOT_INSTALLED,
        });
      }
    },
  );

  it.each(["tdd", "strict"] as const)(
    "%s mode: a bundle gone while a session is on blocks every call but a reinstall",
    async (mode) => {
      const root = await teamProject(mode);
      // The session began with the bundle there (its state says the mode); then it went away.
      writeFileSync(join(root, ".tailtest/session.json"), `{"v":1,"mode":"${mode}"}\n`);
      const gate = await fire(root, "PreToolUse", "context.PreToolUse-Write.json");
      expect(gate.exitCode).toBe(2);
      expect(gate.stderr).toBe(
        `tailtest: @tailtest/claude-code is gone from node_modules while this session is in ${mode} mode: the gate cannot decide, so it blocks this call. Reinstall the packages (npm install), then go on.`,
      );
      const shell = (command: string) => {
        const { stdin } = loadPayload(VERSION, "context.PreToolUse-Write.json", root);
        const payload = { ...stdin, tool_name: "Bash", tool_input: { command } };
        return execa("sh", ["-c", commandOf(root, "PreToolUse")], {
          cwd: root,
          env: { ...userShellEnv(), CLAUDE_PROJECT_DIR: root },
          extendEnv: false,
          input: JSON.stringify(payload),
          reject: false,
          timeout: 60_000,
        });
      };
      for (const command of [
        "npm install",
        "npm ci",
        "npx -y pnpm@10.34.9 install --frozen-lockfile",
      ])
        expect({ ...(await shell(command)), ran: command }).toMatchObject({
          ran: command,
          exitCode: 0,
        });
      for (const command of ["echo x > calc.py", "npm ci --omit=dev", "npm install && rm x"])
        expect({ ...(await shell(command)), ran: command }).toMatchObject({
          ran: command,
          exitCode: 2,
        });
      // The other events keep their one line and no opinion.
      const post = await fire(root, "PostToolUse", "context.PostToolUse-Write.json");
      expect(post).toMatchObject({ exitCode: 0, stderr: NOT_INSTALLED });
    },
  );

  it("once installed, the same command runs the hook itself", async () => {
    const root = await teamProject("follow");
    mkdirSync(join(root, "node_modules/@tailtest"), { recursive: true });
    symlinkSync(
      join(REPO_ROOT, "adapters/claude-code"),
      join(root, "node_modules/@tailtest/claude-code"),
    );
    const start = await fire(root, "SessionStart", "context.SessionStart.json");
    expect(start.stderr).toBe("");
    expect(start.exitCode).toBe(0);
    expect(start.stdout).toContain('"additionalContext":"tailtest: ');
  });
});

describe("what the team commits", () => {
  it("git keeps .tailtest/config.json and ignores the session state beside it", async () => {
    const root = await teamProject("tdd");
    writeFileSync(join(root, ".tailtest/session.json"), "{}\n");
    const tracked = await execa("git", ["ls-files", ".tailtest", ".claude", ".gitignore"], {
      cwd: root,
    });
    expect(tracked.stdout.split("\n").sort()).toEqual([
      ".claude/settings.json",
      ".gitignore",
      ".tailtest/config.json",
    ]);
    const ignored = await execa("git", ["check-ignore", ".tailtest/session.json"], {
      cwd: root,
      reject: false,
    });
    expect(ignored.stdout).toBe(".tailtest/session.json");
  });
});
