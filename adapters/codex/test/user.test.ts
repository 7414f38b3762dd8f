import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "@decimalturn/toml-patch";
import {
  commitAll,
  FIXTURES_DIR,
  installOutsideProject,
  REPO_ROOT,
  userShellEnv,
  withoutNpmWarnings,
} from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { parseAnswer, recorded, type Payload } from "./payloads.ts";

/*
 * A user-level install for Codex, as a person whose project has no package.json makes it: the
 * packed tarballs installed outside any project, `tailtest-codex init --user` under a scratch
 * HOME whose $CODEX_HOME/config.toml already has settings, comments, a hook of the person's own
 * and a trust record, then every hook fired through the command it registered, as Codex runs
 * it (`$SHELL -lc`, in the session's folder), in a pytest project.
 */

const PACKAGE_DIR = join(REPO_ROOT, "adapters/codex");
/** The person's own Codex config, which must come out of uninstall byte for byte. */
const USER_CONFIG = `# my Codex settings
model = "gpt-5.5" # the default

[projects."/home/me/code"]
trust_level = "trusted"

# my own hook: a sound at the end of each turn
[hooks]
Stop = [{ hooks = [{ type = "command", command = "paplay done.oga" }] }]

[hooks.state."/home/me/.codex/config.toml:stop:0:0"]
enabled = true
trusted_hash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
`;
const BILLING = "def charge(amount):\n    return round(amount * 1.2, 2)\n";
const BILLING_TEST =
  "from src.billing import charge\n\n\ndef test_charge_adds_vat():\n    assert charge(10) == 12.0\n";

let scratch = "";
let home = "";
let codexHome = "";
let project = "";
let env: Record<string, string> = {};
let bin = "";

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "tailtest-codex-user-"));
  home = join(scratch, "home");
  codexHome = join(home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, "config.toml"), USER_CONFIG);
  env = { ...userShellEnv(), HOME: home, CODEX_HOME: codexHome };
  // A Python project: no package.json, no node_modules; billing.py's test is already there.
  project = join(scratch, "run", "project");
  cpSync(join(FIXTURES_DIR, "runners/pytest-pyproject"), project, { recursive: true });
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "src/__init__.py"), "");
  writeFileSync(join(project, "tests/test_billing.py"), BILLING_TEST);
  await commitAll(project);
  // Written an hour ago: the end-of-turn sweep cannot take them for this turn's work.
  const then = new Date(Date.now() - 3_600_000);
  for (const file of ["calc.py", "pyproject.toml", "src/__init__.py", "tests/test_billing.py"])
    utimesSync(join(project, file), then, then);
  bin = await installOutsideProject(PACKAGE_DIR, scratch, "tailtest-codex", env);
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (args: string[], cwd = scratch) =>
  execa(bin, args, { cwd, env, extendEnv: false, reject: false, timeout: 60_000 });

type Hooks = Record<string, { matcher?: string; hooks: { command: string }[] }[]>;

function userHooks(): Hooks {
  const config = parseToml(readFileSync(join(codexHome, "config.toml"), "utf8")) as {
    hooks: Hooks;
  };
  return config.hooks;
}

function tailtestCommand(event: string): string {
  const commands = (userHooks()[event] ?? []).flatMap((group) => group.hooks);
  const command = commands.find((handler) => handler.command.includes("@tailtest/codex"));
  expect(command, event).toBeDefined();
  return command?.command ?? "";
}

/** Runs the registered command for the payload's event as Codex does. */
async function fire(payload: Payload): Promise<Record<string, unknown> | undefined> {
  const event = payload["hook_event_name"] as string;
  const result = await execa("sh", ["-c", tailtestCommand(event)], {
    cwd: project,
    env,
    extendEnv: false,
    input: JSON.stringify(payload),
    reject: false,
    timeout: 120_000,
  });
  expect(result.exitCode, `${event}: ${result.stderr}`).toBe(0);
  expect(result.stderr, event).toBe("");
  return parseAnswer(result.stdout, event);
}

describe("tailtest-codex init --user, from the packed tarball", () => {
  it("pins a copy in the data folder and adds its hooks to the [hooks] table of $CODEX_HOME/config.toml", async () => {
    const init = await run(["init", "--user"]);
    expect(withoutNpmWarnings(init.stderr)).toBe("");
    expect(init.exitCode).toBe(0);
    expect(init.stdout).toContain("~/.codex/config.toml [hooks]: added hooks: SessionStart");
    expect(init.stdout).toContain("trust tailtest's hooks");
    const copy = join(home, ".local/share/tailtest/codex/node_modules/@tailtest/codex");
    expect(readdirSync(join(copy, "dist")).sort()).toEqual([
      "hook-gate.cjs",
      "hook-main.cjs",
      "hook-post.cjs",
      "hook.cjs",
      "tree-sitter-bash.wasm",
      "tree-sitter.wasm",
    ]);
    expect(existsSync(join(codexHome, "hooks.json"))).toBe(false);
    const hooks = userHooks();
    expect(hooks["Stop"]?.[0]?.hooks[0]?.command).toBe("paplay done.oga");
    // sh -c around the no-node guard (core/test/hook-commands.test.ts), then the copy.
    expect(tailtestCommand("Stop")).toMatch(/^sh -c 'd=\$PWD; /);
    expect(
      tailtestCommand("Stop").endsWith(
        `; exec node "${join(copy, "dist/hook.cjs")}" --user --event=Stop'`,
      ),
    ).toBe(true);
    expect(hooks["PreToolUse"]?.[0]?.matcher).toBe("^(apply_patch|Bash)$");
    // The person's comments and settings are where they were.
    const text = readFileSync(join(codexHome, "config.toml"), "utf8");
    expect(text.startsWith('# my Codex settings\nmodel = "gpt-5.5" # the default\n')).toBe(true);
    expect(text).toContain("# my own hook: a sound at the end of each turn\n[hooks]\n");
  });

  it("queues an edit in a project without package.json, and the Stop runs its pytest test", async () => {
    // The copy is pinned: the hooks never reach the install it came from.
    renameSync(join(scratch, "tools"), join(scratch, "tools-away"));
    onTestFinished(() => renameSync(join(scratch, "tools-away"), join(scratch, "tools")));
    const started = await fire(recorded("context.SessionStart.json", project));
    expect(started).toMatchObject({
      hookSpecificOutput: {
        hookEventName: "SessionStart",
        additionalContext: expect.stringContaining("Runners: python: pytest") as unknown,
      },
    });
    expect(await fire(recorded("context.UserPromptSubmit.json", project))).toBeUndefined();
    writeFileSync(join(project, "src/billing.py"), BILLING);
    expect(await fire(recorded("context.PostToolUse-apply_patch.json", project))).toMatchObject({
      hookSpecificOutput: {
        additionalContext: expect.stringContaining(
          "src/billing.py queued (new, python)",
        ) as unknown,
      },
    });
    expect(await fire(recorded("context.Stop.json", project))).toEqual({
      systemMessage: expect.stringMatching(/^tailtest: 1 edited file, 1 test passed \(/) as unknown,
    });
    expect(await fire(recorded("context.SessionEnd.json", project))).toBeUndefined();
    const history = JSON.parse(readFileSync(join(project, ".tailtest/history.json"), "utf8")) as {
      entries: { file: string; status: string }[];
    };
    expect(history.entries).toEqual([
      expect.objectContaining({ file: "src/billing.py", status: "passed" }),
    ]);
    // Nothing but .tailtest/ (and the agent's own file) is new in the project.
    const status = await execa("git", ["status", "--porcelain", "--untracked-files=all"], {
      cwd: project,
    });
    expect(status.stdout.split("\n").filter((line) => !line.startsWith("?? .tailtest/"))).toEqual([
      "?? src/billing.py",
    ]);
  });

  it("leaves a project alone after opt-out, and works there again after opt-in", async () => {
    expect((await run(["opt-out"], project)).stdout).toBe(".tailtest/off: now opted out");
    expect(await fire(recorded("context.SessionStart.json", project))).toBeUndefined();
    expect((await run(["opt-in"], project)).stdout).toBe(".tailtest/off: now opted in");
    expect(await fire(recorded("context.SessionStart.json", project))).toBeDefined();
  });

  it("does not take an opt-out in tdd mode: the gate still denies", async () => {
    // A program the agent wrote can leave .tailtest/off as the opt-out does; in a gating mode it
    // is a weaker mode, which only the person ends (ADR 0012).
    writeFileSync(join(project, ".tailtest/config.json"), '{ "mode": "tdd" }\n');
    onTestFinished(() => {
      rmSync(join(project, ".tailtest/config.json"), { force: true });
      rmSync(join(project, ".tailtest/off"), { force: true });
    });
    const out = await run(["opt-out"], project);
    expect(out.stdout.split("\n")).toEqual([
      ".tailtest/off: now opted out",
      'This project is in tdd or strict mode, which an opt-out does not end: set "mode": "follow" in .tailtest/config.json and run `tailtest mode confirm` first.',
    ]);
    const answer = await fire(recorded("context.PreToolUse-apply_patch.json", project));
    expect(JSON.stringify(answer)).toMatch(/"permissionDecision":"deny"/);
  });

  it("uninstall --user leaves config.toml byte for byte as it was and removes the copy", async () => {
    const uninstall = await run(["uninstall", "--user"]);
    expect(uninstall.exitCode, uninstall.stderr).toBe(0);
    expect(uninstall.stdout).toContain("~/.codex/config.toml [hooks]: removed tailtest hooks");
    expect(readFileSync(join(codexHome, "config.toml"), "utf8")).toBe(USER_CONFIG);
    expect(readdirSync(codexHome)).toEqual(["config.toml"]);
    expect(existsSync(join(home, ".local/share/tailtest"))).toBe(false);
    expect(existsSync(join(project, ".tailtest/history.json"))).toBe(true);
  });

  it("uses hooks.json, without a warning, when the [hooks] table toml-patch cannot edit cleanly holds only trust records", async () => {
    // A comment right above the first sub-table: toml-patch would move it (tomlRoundTrips).
    const trustOnly = [
      "# my Codex settings",
      'model = "gpt-5.5" # the default',
      "",
      "# written by /hooks",
      '[hooks.state."/home/me/code/.codex/hooks.json:stop:0:0"]',
      "enabled = true",
      `trusted_hash = "sha256:${"0".repeat(64)}"`,
      "",
    ].join("\n");
    writeFileSync(join(codexHome, "config.toml"), trustOnly);
    const init = await run(["init", "--user"]);
    expect(init.stderr).toBe("");
    expect(init.stdout).toContain("~/.codex/hooks.json: added hooks: SessionStart");
    const uninstall = await run(["uninstall", "--user"]);
    expect(uninstall.stdout).toContain("~/.codex/hooks.json: deleted");
    expect(readdirSync(codexHome)).toEqual(["config.toml"]);
    expect(readFileSync(join(codexHome, "config.toml"), "utf8")).toBe(trustOnly);
  });
});
