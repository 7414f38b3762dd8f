import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  commitAll,
  FIXTURES_DIR,
  installOutsideProject,
  loadPayload,
  REPO_ROOT,
  userShellEnv,
} from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * A user-level install, for projects that are not npm projects: `init --user` copies the built
 * hook into a data folder and registers it in Claude Code's user settings. The packed tarballs
 * are installed outside any project (as `npx @tailtest/claude-code` gets them), with the data
 * folder and Claude's config folder in a scratch folder.
 */

const VERSION = "claude-2.1.330";
const USER_SETTINGS = `${JSON.stringify({ model: "opus" }, null, 2)}\n`;

let scratch = "";
let env: Record<string, string> = {};
let project = "";
let bin = "";

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "tailtest-user-"));
  env = {
    ...userShellEnv(),
    TAILTEST_DATA_DIR: join(scratch, "data"),
    CLAUDE_CONFIG_DIR: join(scratch, "claude"),
  };
  mkdirSync(join(scratch, "claude"));
  writeFileSync(join(scratch, "claude/settings.json"), USER_SETTINGS);
  // A Python project: no package.json, no node_modules.
  project = join(scratch, "project");
  cpSync(join(FIXTURES_DIR, "runners/pytest-pyproject"), project, { recursive: true });
  await commitAll(project);
  bin = await installOutsideProject(
    join(REPO_ROOT, "adapters/claude-code"),
    scratch,
    "tailtest-claude-code",
    env,
  );
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const cli = (args: string[], cwd = scratch) =>
  execa(bin, args, { cwd, env, extendEnv: false, reject: false });

function userCommand(event: string): string {
  const settings = JSON.parse(readFileSync(join(scratch, "claude/settings.json"), "utf8")) as {
    hooks: Record<string, { hooks: { command: string }[] }[]>;
  };
  return settings.hooks[event]?.[0]?.hooks[0]?.command ?? "";
}

async function sessionStart(root: string) {
  const { stdin } = loadPayload(VERSION, "context.SessionStart.json", root);
  return execa("sh", ["-c", userCommand("SessionStart")], {
    cwd: root,
    env: { ...env, CLAUDE_PROJECT_DIR: root },
    extendEnv: false,
    input: JSON.stringify(stdin),
    reject: false,
  });
}

describe("init --user", () => {
  it("copies the hook into the data folder and registers it in the user settings", async () => {
    const init = await cli(["init", "--user"]);
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout).toContain("settings.json: added hooks: SessionStart, PreToolUse");
    const command = userCommand("SessionStart");
    // The no-node guard first (its own test: core/test/hook-commands.test.ts), then the copy.
    expect(command).toMatch(/^command -v node >\/dev\/null 2>&1 \|\| \{/);
    expect(
      command.endsWith(
        `; exec node "${join(scratch, "data/claude-code/node_modules/@tailtest/claude-code/dist/hook.cjs")}" --user --event=SessionStart`,
      ),
    ).toBe(true);
    expect(JSON.parse(readFileSync(join(scratch, "claude/settings.json"), "utf8"))).toMatchObject({
      model: "opus",
    });
  });

  it("works in a project without package.json, adding nothing but .tailtest/", async () => {
    const before = readdirSync(project).sort();
    const start = await sessionStart(project);
    expect(start.exitCode, start.stderr).toBe(0);
    expect(start.stdout).toContain(
      '"additionalContext":"tailtest: session started. Runners: python: pytest',
    );
    expect(readdirSync(project).sort()).toEqual([...before, ".tailtest"].sort());
    const status = await execa("git", ["status", "--porcelain"], { cwd: project });
    expect(status.stdout).toBe("?? .tailtest/");
  });

  it("leaves a project alone after opt-out, and works again after opt-in", async () => {
    const out = await cli(["opt-out"], project);
    expect(out.stdout).toBe(".tailtest/off: now opted out");
    expect(existsSync(join(project, ".tailtest/off"))).toBe(true);
    expect(await sessionStart(project)).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
    const back = await cli(["opt-in"], project);
    expect(back.stdout).toBe(".tailtest/off: now opted in");
    expect((await sessionStart(project)).stdout).toContain("tailtest: session started.");
  });

  it("stands aside in a project that installed the package itself", async () => {
    const own = join(scratch, "own");
    mkdirSync(join(own, "node_modules/@tailtest/claude-code/dist"), { recursive: true });
    writeFileSync(join(own, "node_modules/@tailtest/claude-code/dist/hook.cjs"), "");
    expect(await sessionStart(own)).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
    expect(existsSync(join(own, ".tailtest"))).toBe(false);
  });

  it("uninstall --user takes out the hooks and the copy, and nothing else", async () => {
    const uninstall = await cli(["uninstall", "--user"]);
    expect(uninstall.exitCode, uninstall.stderr).toBe(0);
    expect(readFileSync(join(scratch, "claude/settings.json"), "utf8")).toBe(USER_SETTINGS);
    expect(existsSync(join(scratch, "data"))).toBe(false);
    expect(existsSync(join(project, ".tailtest"))).toBe(true);
  });
});
