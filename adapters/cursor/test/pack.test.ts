import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  type PackedProject,
  packIntoFixture,
  readTarball,
  REPO_ROOT,
  withoutNpmWarnings,
} from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPayload, writtenFile, type CursorPayload } from "./payloads.ts";

const PACKAGE_DIR = join(REPO_ROOT, "adapters/cursor");
const HOOK_FILE = "@tailtest/cursor/dist/hook.cjs";
const CLI_VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, "packages/cli/package.json"), "utf8")) as {
    version: string;
  }
).version;
const USER_HOOKS = `${JSON.stringify(
  { version: 1, hooks: { beforeShellExecution: [{ command: "./guard.sh", matcher: "rm -rf" }] } },
  null,
  2,
)}\n`;

/** The payload file each registered event is fired with. */
const PAYLOAD_FOR: Record<string, string> = {
  sessionStart: "edit.sessionStart.json",
  preToolUse: "gate.preToolUse-Write.json",
  postToolUse: "edit.postToolUse-Write.json",
  afterFileEdit: "edit.afterFileEdit.json",
  subagentStart: "subagent.subagentStart.json",
  subagentStop: "subagent.subagentStop.json",
  stop: "edit.stop.json",
  sessionEnd: "edit.sessionEnd.json",
};

interface HooksFile {
  version: number;
  hooks: Record<string, { command: string; timeout?: number; loop_limit?: number }[]>;
}

describe("the packed @tailtest/cursor in a fresh project", () => {
  let packed: PackedProject | undefined;
  let project = "";
  let env: Record<string, string> = {};
  let tarball = "";

  const inProject = (command: string, args: string[]) =>
    (packed as PackedProject).run(command, args);

  beforeAll(async () => {
    expect(existsSync(join(PACKAGE_DIR, "dist/hook.cjs")), "run the build first").toBe(true);
    packed = await packIntoFixture(PACKAGE_DIR, "runners/pytest-pyproject", (dir) => {
      mkdirSync(join(dir, ".cursor"));
      writeFileSync(join(dir, ".cursor/hooks.json"), USER_HOOKS);
    });
    ({ project, env, tarball } = packed);
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

  it("installs with @tailtest/cli, sets itself up, and every hook, fired by its hooks.json command, answers the way Cursor expects", async () => {
    const install = await (packed as PackedProject).installTarball();
    expect(install.exitCode, install.stderr).toBe(0);

    const init = await inProject("npx", ["tailtest-cursor", "init"]);
    expect(withoutNpmWarnings(init.stderr)).toBe("");
    expect(init.exitCode).toBe(0);
    expect(init.stdout).toContain(".cursor/hooks.json: added hooks");
    expect(readFileSync(join(project, ".gitignore"), "utf8")).not.toContain(".cursor/");

    const file = JSON.parse(readFileSync(join(project, ".cursor/hooks.json"), "utf8")) as HooksFile;
    expect(file.version).toBe(1);
    expect(Object.keys(file.hooks)).toEqual([
      "beforeShellExecution",
      "sessionStart",
      "preToolUse",
      "postToolUse",
      "afterFileEdit",
      "subagentStart",
      "subagentStop",
      "stop",
      "sessionEnd",
    ]);
    expect(file.hooks["stop"]?.[0]?.loop_limit).toBe(3);

    const outputs: Record<string, Record<string, string>> = {};
    for (const event of Object.keys(PAYLOAD_FOR)) {
      const commands = (file.hooks[event] ?? []).map((handler) => handler.command);
      expect(commands).toHaveLength(1);
      const command = commands[0] ?? "";
      expect(command).toContain(HOOK_FILE);
      expect(command).not.toContain(project);

      const stdin: CursorPayload = loadPayload(PAYLOAD_FOR[event] ?? "", project).stdin;
      const written = writtenFile(stdin);
      if (written !== undefined) {
        mkdirSync(dirname(written.path), { recursive: true });
        writeFileSync(written.path, written.content);
      }
      // Cursor runs project hooks from the workspace root with CURSOR_PROJECT_DIR set; the last
      // one runs without it, which the command's `${CURSOR_PROJECT_DIR:-.}` covers.
      const hookEnv: Record<string, string> =
        event === "sessionEnd" ? env : { ...env, CURSOR_PROJECT_DIR: project };
      const result = await execa("bash", ["-c", command], {
        cwd: project,
        env: hookEnv,
        extendEnv: false,
        input: `${JSON.stringify(stdin)}\n`,
        reject: false,
        timeout: 120_000,
      });
      expect(result.exitCode, `${event}: ${result.stderr}`).toBe(0);
      expect(result.stderr, event).toBe("");
      expect(result.stdout, `${event} never answers with nothing`).not.toBe("");
      outputs[event] = JSON.parse(result.stdout) as Record<string, string>;
    }
    // The installed hook really ran: context at the start and after the edit, and the end of
    // the turn sends the agent back because src/billing.py has no test yet.
    expect(outputs["sessionStart"]?.["additional_context"]).toMatch(/^tailtest: session started/);
    expect(outputs["postToolUse"]?.["additional_context"]).toContain("src/billing.py queued");
    expect(outputs["afterFileEdit"]).toEqual({});
    // Follow mode: the gate and the subagent hooks have no opinion.
    expect(outputs["preToolUse"]).toEqual({});
    expect(outputs["subagentStart"]).toEqual({});
    expect(outputs["subagentStop"]).toEqual({});
    expect(outputs["stop"]?.["followup_message"]).toContain(
      "MISSING src/billing.py: no test at tests/test_billing.py",
    );
    expect(outputs["sessionEnd"]).toEqual({});
    expect(existsSync(join(project, ".tailtest/cursor-session.json")), "state").toBe(true);
    expect(
      existsSync(join(project, ".cursor/hooks/state")),
      "nothing in .cursor/ but hooks.json",
    ).toBe(false);
    expect(existsSync(join(project, ".tailtest/history.json")), "history").toBe(true);

    // No cache shipped: the hooks that ran wrote their own, for this node.
    const dist = join(project, "node_modules/@tailtest/cursor/dist");
    expect(readdirSync(dist).filter((file) => file.endsWith(".local.cache"))).not.toEqual([]);

    // `tailtest` is @tailtest/cli's, the one package with that bin.
    const version = await inProject("npx", ["tailtest", "--version"]);
    expect(version).toMatchObject({ exitCode: 0, stdout: CLI_VERSION });

    const uninstall = await inProject("npx", ["tailtest-cursor", "uninstall"]);
    expect(uninstall.exitCode, uninstall.stderr).toBe(0);
    expect(readFileSync(join(project, ".cursor/hooks.json"), "utf8")).toBe(USER_HOOKS);
  }, 180_000);
});
