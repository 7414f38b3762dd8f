import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  FIXTURES_DIR,
  type PackedProject,
  packIntoFixture,
  readTarball,
  REPO_ROOT,
  withoutNpmWarnings,
} from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PACKAGE_DIR = join(REPO_ROOT, "adapters/claude-code");
const PAYLOADS = join(FIXTURES_DIR, "payloads/claude-2.1.330");
const HOOK_FILE = "@tailtest/claude-code/dist/hook.cjs";
const CLI_VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, "packages/cli/package.json"), "utf8")) as {
    version: string;
  }
).version;
const USER_SETTINGS = `${JSON.stringify({ permissions: { allow: ["Bash(pytest:*)"] } }, null, 2)}\n`;

interface Payload {
  stdin: Record<string, unknown>;
}

/** A recorded Claude Code payload, with the recording's `<run>` folder replaced by ours. */
function loadPayload(name: string, run: string): Payload {
  const text = readFileSync(join(PAYLOADS, `${name}.json`), "utf8");
  return JSON.parse(text.replaceAll("<run>", run)) as Payload;
}

/** A payload without some of its fields (a recorded one turned into another event). */
function without(payload: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([key]) => !keys.includes(key)));
}

function payloadFor(event: string, run: string): Record<string, unknown> {
  switch (event) {
    case "PreToolUse":
      return loadPayload("context.PreToolUse-Write", run).stdin;
    case "PostToolUse":
      return loadPayload("context.PostToolUse-Write", run).stdin;
    case "PostToolUseFailure": {
      // Not recorded: a recorded PostToolUse turned into a failed Bash (its hook protocol).
      const post = without(loadPayload("context.PostToolUse-Write", run).stdin, "tool_response");
      return {
        ...post,
        hook_event_name: "PostToolUseFailure",
        tool_name: "Bash",
        tool_input: { command: "false" },
        error: "Exit code 1",
        is_interrupt: false,
      };
    }
    case "SubagentStart": {
      const start = without(loadPayload("context.SessionStart", run).stdin, "source");
      return {
        ...start,
        hook_event_name: "SubagentStart",
        agent_id: "a1b2c3",
        agent_type: "general-purpose",
      };
    }
    case "SubagentStop": {
      // Not recorded: a Stop payload plus the subagent fields (its hook protocol).
      const stop = loadPayload("context.Stop", run).stdin;
      return {
        ...stop,
        hook_event_name: "SubagentStop",
        agent_id: "a1b2c3",
        agent_type: "general-purpose",
        agent_transcript_path: `${run}/home/.claude/projects/agent-a1b2c3.jsonl`,
      };
    }
    default:
      return loadPayload(`context.${event}`, run).stdin;
  }
}

interface HookOutput {
  decision?: string;
  hookSpecificOutput?: { hookEventName?: string; additionalContext?: string };
}

interface SettingsFile {
  hooks: Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]>;
}

describe("the packed @tailtest/claude-code in a fresh project", () => {
  let packed: PackedProject | undefined;
  let project = "";
  let run = "";
  let env: Record<string, string> = {};
  let tarball = "";

  const inProject = (command: string, args: string[]) =>
    (packed as PackedProject).run(command, args);

  beforeAll(async () => {
    expect(existsSync(join(PACKAGE_DIR, "dist/hook.cjs")), "run the build first").toBe(true);
    packed = await packIntoFixture(PACKAGE_DIR, "runners/pytest-pyproject", (dir) => {
      mkdirSync(join(dir, ".claude"));
      writeFileSync(join(dir, ".claude/settings.json"), USER_SETTINGS);
    });
    ({ project, env, tarball } = packed);
    run = dirname(project);
  }, 120_000);

  afterAll(() => packed?.cleanup());

  it("ships its bundle once, no code cache, the tailtest command as its one dependency, and no path of this machine", async () => {
    const shipped = await readTarball(tarball);
    expect(shipped.files).toEqual([
      "package/CHANGELOG.md",
      "package/LICENSE",
      "package/README.md",
      "package/dist/cli.js",
      "package/dist/hook-gate.cjs",
      "package/dist/hook-main.cjs",
      "package/dist/hook-post.cjs",
      "package/dist/hook.cjs",
      "package/dist/tree-sitter-bash.wasm",
      "package/dist/tree-sitter.wasm",
      "package/package.json",
    ]);
    expect(shipped.manifestText).not.toContain("workspace:");
    expect(shipped.dependencyFields).toEqual(["dependencies"]);
    expect((JSON.parse(shipped.manifestText) as { dependencies: unknown }).dependencies).toEqual({
      "@tailtest/cli": CLI_VERSION,
    });
    expect(shipped.text).not.toContain(REPO_ROOT);
  });

  it("installs with @tailtest/cli, sets itself up, and every hook answers the way Claude Code expects", async () => {
    const install = await (packed as PackedProject).installTarball();
    expect(install.exitCode, install.stderr).toBe(0);

    const init = await inProject("npx", ["tailtest-claude-code", "init"]);
    expect(withoutNpmWarnings(init.stderr)).toBe("");
    expect(init.exitCode).toBe(0);
    expect(init.stdout).toContain(".claude/settings.json: added hooks");

    const settings = JSON.parse(
      readFileSync(join(project, ".claude/settings.json"), "utf8"),
    ) as SettingsFile;
    const events = Object.keys(settings.hooks);
    expect(events).toEqual([
      "SessionStart",
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
      "SubagentStart",
      "Stop",
      "SubagentStop",
      "SessionEnd",
    ]);

    const outputs: Record<string, HookOutput> = {};
    for (const event of events) {
      const commands = (settings.hooks[event] ?? []).flatMap((group) =>
        group.hooks.map((handler) => handler.command),
      );
      expect(commands).toHaveLength(1);
      const command = commands[0] ?? "";
      expect(command).toContain(HOOK_FILE);
      expect(command).not.toContain(project);

      const stdin = payloadFor(event, run);
      if (event === "PostToolUse") {
        // Claude Code fires PostToolUse after the Write happened.
        const input = stdin["tool_input"] as { file_path: string; content: string };
        mkdirSync(dirname(input.file_path), { recursive: true });
        writeFileSync(input.file_path, input.content);
      }
      const result = await execa("bash", ["-c", command], {
        cwd: project,
        env: { ...env, CLAUDE_PROJECT_DIR: project },
        extendEnv: false,
        input: JSON.stringify(stdin),
        reject: false,
        timeout: 120_000,
      });
      expect(result.exitCode, `${event}: ${result.stderr}`).toBe(0);
      expect(result.stderr, event).toBe("");
      const output = (result.stdout.trim() === "" ? {} : JSON.parse(result.stdout)) as HookOutput;
      if (output.hookSpecificOutput !== undefined) {
        expect(output.hookSpecificOutput.hookEventName, event).toBe(event);
      }
      outputs[event] = output;
    }
    // The installed hook really ran: context at the start and after the edit, and the end of
    // the turn sends the agent back because src/billing.py has no test yet.
    expect(outputs["SessionStart"]?.hookSpecificOutput?.additionalContext).toMatch(/^tailtest: /);
    expect(outputs["PostToolUse"]?.hookSpecificOutput?.additionalContext).toContain(
      "src/billing.py",
    );
    expect(outputs["Stop"]?.decision).toBe("block");
    // The project is in follow mode: the tdd-mode hooks have no opinion.
    for (const event of ["PreToolUse", "PostToolUseFailure", "SubagentStart"])
      expect(outputs[event], event).toEqual({});
    expect(existsSync(join(project, ".tailtest/session.json")), "the hooks kept state").toBe(true);

    // No cache shipped: the hooks that ran wrote their own, for this node.
    const dist = join(project, "node_modules/@tailtest/claude-code/dist");
    expect(readdirSync(dist).filter((file) => file.endsWith(".local.cache"))).not.toEqual([]);

    // `tailtest` is @tailtest/cli's, the one package with that bin.
    const version = await inProject("npx", ["tailtest", "--version"]);
    expect(version).toMatchObject({ exitCode: 0, stdout: CLI_VERSION });

    const uninstall = await inProject("npx", ["tailtest-claude-code", "uninstall"]);
    expect(uninstall.exitCode, uninstall.stderr).toBe(0);
    expect(readFileSync(join(project, ".claude/settings.json"), "utf8")).toBe(USER_SETTINGS);
  }, 180_000);
});
