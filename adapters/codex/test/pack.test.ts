import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  type PackedProject,
  packIntoFixture,
  readTarball,
  REPO_ROOT,
  withoutNpmWarnings,
} from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_DIR, parseAnswer, recorded, type Payload } from "./payloads.ts";

const HOOK_FILE = "@tailtest/codex/dist/hook.cjs";
const CLI_VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, "packages/cli/package.json"), "utf8")) as {
    version: string;
  }
).version;
const USER_HOOKS = `${JSON.stringify(
  {
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }],
    },
  },
  null,
  2,
)}\n`;

/** One recorded payload per registered event (the shell-write session of 0.169.0). */
function payloadFor(event: string, project: string): Payload {
  switch (event) {
    case "PreToolUse":
      return recorded("shell.PreToolUse-Bash.json", project);
    case "PostToolUse":
      return recorded("shell.PostToolUse-Bash.json", project);
    case "SubagentStart":
      // Not recorded: SessionStart's fields plus the subagent ones (its hook protocol).
      return recorded("shell.SessionStart.json", project, {
        hook_event_name: "SubagentStart",
        source: undefined,
        agent_id: "a1b2c3",
        agent_type: "worker",
      });
    case "SubagentStop":
      // Not recorded: a Stop payload plus the subagent fields (its hook protocol).
      return recorded("shell.Stop.json", project, {
        hook_event_name: "SubagentStop",
        agent_id: "a1b2c3",
        agent_type: "worker",
        agent_transcript_path: null,
      });
    default:
      return recorded(`shell.${event}.json`, project);
  }
}

interface HooksFile {
  hooks: Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]>;
}

describe("the packed @tailtest/codex in a fresh project", () => {
  let packed: PackedProject | undefined;
  let project = "";
  let env: Record<string, string> = {};
  let tarball = "";

  const inProject = (command: string, args: string[]) =>
    (packed as PackedProject).run(command, args);

  beforeAll(async () => {
    expect(existsSync(join(PACKAGE_DIR, "dist/hook.cjs")), "run the build first").toBe(true);
    packed = await packIntoFixture(PACKAGE_DIR, "runners/pytest-pyproject", (dir) => {
      mkdirSync(join(dir, ".codex"));
      writeFileSync(join(dir, ".codex/hooks.json"), USER_HOOKS);
    });
    ({ project, env, tarball } = packed);
    // The fixture was there before the session: the Stop sweep must not take it for new work.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const file of ["calc.py", "pyproject.toml", "tests/test_calc.py"]) {
      utimesSync(join(project, file), hourAgo, hourAgo);
    }
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

  it("installs with @tailtest/cli, sets itself up, and the installed command answers every hook the way Codex expects", async () => {
    const install = await (packed as PackedProject).installTarball();
    expect(install.exitCode, install.stderr).toBe(0);

    const init = await inProject("npx", ["tailtest-codex", "init"]);
    expect(withoutNpmWarnings(init.stderr)).toBe("");
    expect(init.exitCode).toBe(0);
    expect(init.stdout).toContain(".codex/hooks.json: added hooks");
    expect(init.stdout).toContain("/hooks in the Codex TUI");

    const file = JSON.parse(readFileSync(join(project, ".codex/hooks.json"), "utf8")) as HooksFile;
    const events = Object.keys(file.hooks);
    // The user's PreToolUse key stays first; tailtest's gate joins it as its own group.
    expect(events).toEqual([
      "PreToolUse",
      "SessionStart",
      "SubagentStart",
      "UserPromptSubmit",
      "PostToolUse",
      "Stop",
      "SubagentStop",
      "SessionEnd",
    ]);

    const answers: Record<string, Record<string, unknown> | undefined> = {};
    const commands = new Set<string>();
    for (const event of events) {
      const ours = (file.hooks[event] ?? []).flatMap((group) =>
        group.hooks.map((handler) => handler.command).filter((c) => c.includes(HOOK_FILE)),
      );
      expect(ours, event).toHaveLength(1);
      const command = ours[0] ?? "";
      expect(command).not.toContain(project);
      expect(command, event).toContain(` --event=${event}; fi; `);
      commands.add(command);

      const stdin = payloadFor(event, project);
      // Codex fires PostToolUse after the shell command wrote the file.
      if (event === "PostToolUse") {
        mkdirSync(join(project, "src"), { recursive: true });
        writeFileSync(
          join(project, "src/billing.py"),
          "def charge(amount):\n    return round(amount * 1.2, 2)\n",
        );
      }
      // How Codex runs a hook: `$SHELL -lc "<command>"` in the session's folder.
      const result = await execa("bash", ["-lc", command], {
        cwd: project,
        env,
        extendEnv: false,
        input: JSON.stringify(stdin),
        reject: false,
        timeout: 120_000,
      });
      expect(result.exitCode, `${event}: ${result.stderr}`).toBe(0);
      expect(result.stderr, event).toBe("");
      answers[event] = parseAnswer(result.stdout.trim(), event);
    }
    // One stable command per event, naming it: the same string whatever the project or machine.
    expect(commands.size, "one command per event").toBe(Object.keys(answers).length);
    // The installed hook really ran: context at the start; the shell write found through the
    // bash parser (WebAssembly shipped in the package); the end of the turn sends the agent back
    // because src/billing.py has no test; the subagent had queued nothing.
    expect(answers["SessionStart"]).toMatchObject({
      hookSpecificOutput: { additionalContext: expect.stringMatching(/^tailtest: /) as unknown },
    });
    // Follow mode: no gate before the shell write, no subagent note.
    expect(answers["PreToolUse"]).toBeUndefined();
    expect(answers["SubagentStart"]).toBeUndefined();
    expect(answers["UserPromptSubmit"]).toBeUndefined();
    expect(answers["PostToolUse"]).toMatchObject({
      hookSpecificOutput: {
        additionalContext: expect.stringContaining("src/billing.py queued") as unknown,
      },
    });
    expect(answers["Stop"]).toMatchObject({ decision: "block" });
    expect(answers["SubagentStop"]).toBeUndefined();
    expect(answers["SessionEnd"]).toBeUndefined();
    expect(existsSync(join(project, ".tailtest/history.json")), "the session was recorded").toBe(
      true,
    );

    // No cache shipped: the hooks that ran wrote their own, for this node.
    const dist = join(project, "node_modules/@tailtest/codex/dist");
    expect(readdirSync(dist).filter((file) => file.endsWith(".local.cache"))).not.toEqual([]);

    // `tailtest` is @tailtest/cli's, the one package with that bin.
    const version = await inProject("npx", ["tailtest", "--version"]);
    expect(version).toMatchObject({ exitCode: 0, stdout: CLI_VERSION });

    const uninstall = await inProject("npx", ["tailtest-codex", "uninstall"]);
    expect(uninstall.exitCode, uninstall.stderr).toBe(0);
    expect(readFileSync(join(project, ".codex/hooks.json"), "utf8")).toBe(USER_HOOKS);
  }, 240_000);
});
