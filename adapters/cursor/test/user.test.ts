import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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
import { loadPayload, writtenFile } from "./payloads.ts";

/*
 * A user-level install for Cursor, as a person whose project has no package.json makes it: the
 * packed tarballs installed outside any project, `tailtest-cursor init --user` under a scratch
 * HOME that already has a ~/.cursor/hooks.json of its own, then every hook fired through the
 * command it registered, the way Cursor runs user hooks (from ~/.cursor, the workspace in
 * CURSOR_PROJECT_DIR), in a pytest project.
 */

const PACKAGE_DIR = join(REPO_ROOT, "adapters/cursor");
/** The person's own user hooks, which must come out of uninstall byte for byte. */
const USER_HOOKS = `${JSON.stringify(
  { version: 1, hooks: { beforeShellExecution: [{ command: "./guard.sh", matcher: "rm -rf" }] } },
  null,
  2,
)}\n`;
const BILLING_TEST =
  "from src.billing import charge\n\n\ndef test_charge_adds_vat():\n    assert charge(10) == 12.0\n";

let scratch = "";
let home = "";
let project = "";
let env: Record<string, string> = {};
let bin = "";

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "tailtest-cursor-user-"));
  home = join(scratch, "home");
  mkdirSync(join(home, ".cursor"), { recursive: true });
  writeFileSync(join(home, ".cursor/hooks.json"), USER_HOOKS);
  env = { ...userShellEnv(), HOME: home };
  // A Python project: no package.json, no node_modules; billing.py's test is already there.
  project = join(scratch, "run", "project");
  cpSync(join(FIXTURES_DIR, "runners/pytest-pyproject"), project, { recursive: true });
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "src/__init__.py"), "");
  writeFileSync(join(project, "tests/test_billing.py"), BILLING_TEST);
  await commitAll(project);
  bin = await installOutsideProject(PACKAGE_DIR, scratch, "tailtest-cursor", env);
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (args: string[], cwd = scratch) =>
  execa(bin, args, { cwd, env, extendEnv: false, reject: false, timeout: 60_000 });

interface HooksFile {
  version: number;
  hooks: Record<string, { command: string }[]>;
}

function userHooks(): HooksFile {
  return JSON.parse(readFileSync(join(home, ".cursor/hooks.json"), "utf8")) as HooksFile;
}

/** Runs the registered command for an event as Cursor runs a user hook. */
async function fire(event: string, payloadFile: string, root = project) {
  const command = userHooks().hooks[event]?.find((h) => h.command.includes("@tailtest/cursor"));
  expect(command, event).toBeDefined();
  const fixture = loadPayload(payloadFile, root);
  const written = writtenFile(fixture.stdin);
  if (written !== undefined) {
    mkdirSync(dirname(written.path), { recursive: true });
    writeFileSync(written.path, written.content);
  }
  const result = await execa("bash", ["-c", command?.command ?? ""], {
    cwd: join(home, ".cursor"),
    env: { ...env, CURSOR_PROJECT_DIR: root },
    extendEnv: false,
    input: `${JSON.stringify(fixture.stdin)}\n`,
    reject: false,
    timeout: 120_000,
  });
  expect(result.exitCode, `${event}: ${result.stderr}`).toBe(0);
  return { ...result, answer: JSON.parse(result.stdout) as Record<string, unknown> };
}

describe("tailtest-cursor init --user, from the packed tarball", () => {
  it("pins a copy in the data folder and adds its hooks to ~/.cursor/hooks.json beside the person's", async () => {
    const init = await run(["init", "--user"]);
    expect(withoutNpmWarnings(init.stderr)).toBe("");
    expect(init.exitCode).toBe(0);
    expect(init.stdout).toContain("~/.cursor/hooks.json: added hooks: sessionStart, preToolUse");
    const copy = join(home, ".local/share/tailtest/cursor/node_modules/@tailtest/cursor");
    expect(init.stdout).toContain("~/.local/share/tailtest/cursor/node_modules/@tailtest/cursor");
    expect(readdirSync(join(copy, "dist")).sort()).toEqual([
      "hook-gate.cjs",
      "hook-main.cjs",
      "hook-post.cjs",
      "hook.cjs",
      "tree-sitter-bash.wasm",
      "tree-sitter.wasm",
    ]);
    const file = userHooks();
    expect(file.hooks["beforeShellExecution"]).toEqual([
      { command: "./guard.sh", matcher: "rm -rf" },
    ]);
    // The no-node guard first (core/test/hook-commands.test.ts), then the copy.
    const stop = file.hooks["stop"]?.[0]?.command ?? "";
    expect(stop).toMatch(/^command -v node >\/dev\/null 2>&1 \|\| \{/);
    expect(stop.endsWith(`; exec node "${join(copy, "dist/hook.cjs")}" --user --event=stop`)).toBe(
      true,
    );
  });

  it("queues an edit in a project without package.json, and the stop runs its pytest test", async () => {
    // The copy is pinned: the hooks never reach the install it came from.
    renameSync(join(scratch, "tools"), join(scratch, "tools-away"));
    onTestFinished(() => renameSync(join(scratch, "tools-away"), join(scratch, "tools")));
    const start = await fire("sessionStart", "edit.sessionStart.json");
    expect(start.answer["additional_context"]).toMatch(/^tailtest: session started/);
    expect(start.answer["additional_context"]).toContain("python: pytest");
    const post = await fire("postToolUse", "edit.postToolUse-Write.json");
    expect(post.answer["additional_context"]).toContain("src/billing.py queued");
    expect((await fire("afterFileEdit", "edit.afterFileEdit.json")).answer).toEqual({});
    const stop = await fire("stop", "edit.stop.json");
    expect(stop.stderr).toMatch(/^tailtest: 1 edited file, 1 test passed \(/);
    expect(stop.answer).toEqual({});
    expect((await fire("sessionEnd", "edit.sessionEnd.json")).answer).toEqual({});
    const history = JSON.parse(readFileSync(join(project, ".tailtest/history.json"), "utf8")) as {
      entries: { file: string; status: string }[];
    };
    expect(history.entries).toEqual([
      expect.objectContaining({ file: "src/billing.py", status: "passed" }),
    ]);
    expect(existsSync(join(project, "package.json"))).toBe(false);
    expect(existsSync(join(project, "node_modules"))).toBe(false);
    // Nothing but .tailtest/ is added to a project: Cursor's session lives there too.
    expect(existsSync(join(project, ".cursor")), ".cursor/").toBe(false);
    expect(existsSync(join(project, ".tailtest/cursor-session.json"))).toBe(true);
  });

  it("leaves a project alone after opt-out, and works there again after opt-in", async () => {
    expect((await run(["opt-out"], project)).stdout).toBe(".tailtest/off: now opted out");
    const off = await fire("sessionStart", "edit.sessionStart.json");
    expect([off.answer, off.stderr]).toEqual([{}, ""]);
    expect((await run(["opt-in"], project)).stdout).toBe(".tailtest/off: now opted in");
    const on = await fire("sessionStart", "edit.sessionStart.json");
    expect(on.answer["additional_context"]).toMatch(/^tailtest: session started/);
  });

  it("uninstall --user leaves ~/.cursor/hooks.json as it was and removes the copy", async () => {
    const uninstall = await run(["uninstall", "--user"]);
    expect(uninstall.exitCode, uninstall.stderr).toBe(0);
    expect(uninstall.stdout).toContain("~/.cursor/hooks.json: removed tailtest hooks from:");
    expect(readFileSync(join(home, ".cursor/hooks.json"), "utf8")).toBe(USER_HOOKS);
    expect(existsSync(join(home, ".local/share/tailtest"))).toBe(false);
    expect(existsSync(join(project, ".tailtest/history.json"))).toBe(true);
  });

  it("deletes a ~/.cursor/hooks.json that init created and that holds nothing else", async () => {
    rmSync(join(home, ".cursor/hooks.json"));
    expect((await run(["init", "--user"])).stdout).toContain(
      "~/.cursor/hooks.json: added version 1",
    );
    const uninstall = await run(["uninstall", "--user"]);
    expect(uninstall.stdout).toContain("~/.cursor/hooks.json: deleted");
    expect(readdirSync(join(home, ".cursor"))).toEqual([]);
  });
});
