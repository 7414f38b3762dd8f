import { cpSync, existsSync, mkdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookCommand, hookScript, NOT_INSTALLED_LINE } from "../src/install.ts";
import { HOOK_BIN, PACKAGE_DIR, recorded } from "./payloads.ts";

function onPath(command: string): boolean {
  return (process.env["PATH"] ?? "").split(delimiter).some((dir) => existsSync(join(dir, command)));
}

/** Codex runs `$SHELL -lc "<command>"`; these are the shells people set $SHELL to. */
const SHELLS = ["sh", "bash", "dash", "zsh", "ksh", "fish"].map((shell) => ({
  shell,
  available: onPath(shell),
}));

/** The installed package: the built hook (launcher and bundle) and the two .wasm files, as npm lays them out. */
function install(projectRoot: string): void {
  const dist = join(projectRoot, "node_modules/@tailtest/codex/dist");
  mkdirSync(dist, { recursive: true });
  for (const file of ["hook.cjs", "hook-main.cjs", "tree-sitter.wasm", "tree-sitter-bash.wasm"]) {
    cpSync(join(PACKAGE_DIR, "dist", file), join(dist, file));
  }
}

describe("the hook command string", () => {
  let project: TempProject;
  let deep: string;
  let bare: TempProject;

  beforeAll(() => {
    project = makeProject({ ".tailtest/config.json": "{}\n", "src/deep/x.py": "x = 1\n" });
    install(project.root);
    deep = join(project.root, "src/deep");
    bare = makeProject({ "src/a.py": "" });
    expect(existsSync(HOOK_BIN), "run the build first").toBe(true);
  });
  afterAll(() => {
    project.cleanup();
    bare.cleanup();
  });

  const run = (shell: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
    execa(shell, args, {
      cwd,
      env,
      input: JSON.stringify(recorded("context.SessionStart.json", project.root, { cwd })),
      reject: false,
      timeout: 30_000,
    });

  it("is tried with at least sh and bash on this machine", () => {
    expect(SHELLS.filter((entry) => entry.available).map((entry) => entry.shell)).toEqual(
      expect.arrayContaining(["sh", "bash"]) as unknown,
    );
  });

  describe.each(SHELLS)("$shell", ({ shell, available }) => {
    const login = shell === "sh" || shell === "dash" ? ["-c"] : ["-lc"];

    it.skipIf(!available)(
      "runs the project's installed hook from a subfolder, with the payload on stdin",
      async () => {
        const result = await run(shell, [...login, hookCommand("SessionStart")], deep);
        expect(result.stderr).toBe("");
        expect(result.exitCode).toBe(0);
        expect(JSON.parse(result.stdout)).toMatchObject({
          hookSpecificOutput: {
            hookEventName: "SessionStart",
            additionalContext: expect.stringMatching(/^tailtest: session started/) as unknown,
          },
        });
      },
    );

    it.skipIf(!available)("says in one line that the package is missing, and exits 0", async () => {
      const result = await run(
        shell,
        [...login, hookCommand("SessionStart")],
        join(bare.root, "src"),
      );
      expect(result).toMatchObject({ exitCode: 0, stdout: "", stderr: NOT_INSTALLED_LINE });
    });

    // The command hands the script to sh, so fish never has to read it: not asked of fish.
    if (shell !== "fish")
      it.skipIf(!available)(
        "the script inside the quotes is itself valid in this shell",
        async () => {
          const result = await run(shell, ["-c", hookScript("SessionStart")], deep);
          expect(result.exitCode).toBe(0);
          expect(result.stdout).toContain('"hookEventName":"SessionStart"');
        },
      );
  });

  it("trusts the real folder over a stale $PWD inherited from Codex", async () => {
    const result = await run("bash", ["-lc", hookCommand("SessionStart")], deep, {
      PWD: bare.root,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('"hookEventName":"SessionStart"');
  });

  it("finds a package hoisted to a folder above the project", async () => {
    const outer = makeProject({ "app/.tailtest/config.json": "{}\n" });
    try {
      install(outer.root);
      const result = await run("sh", ["-c", hookCommand("SessionStart")], join(outer.root, "app"));
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain('"hookEventName":"SessionStart"');
    } finally {
      outer.cleanup();
    }
  });
});
