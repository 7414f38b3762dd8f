import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, REPO_ROOT, runBin } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";

const PACKAGE_DIR = join(REPO_ROOT, "adapters/cursor");
const BIN = join(PACKAGE_DIR, "dist/cli.js");
const VERSION = (
  JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string }
).version;

describe("tailtest-cursor bin", () => {
  it("is built: each bin with one shebang, the hook and both parser grammars beside them", () => {
    expect(existsSync(BIN), "run the build first (pnpm test does)").toBe(true);
    for (const bin of [BIN, join(REPO_ROOT, "packages/cli/dist/bin.js")]) {
      const text = readFileSync(bin, "utf8");
      expect(text.startsWith("#!/usr/bin/env node\n"), bin).toBe(true);
      expect(text.match(/^#!/gm), bin).toHaveLength(1);
    }
    for (const file of ["hook.cjs", "hook-main.cjs", "tree-sitter.wasm", "tree-sitter-bash.wasm"]) {
      expect(existsSync(join(PACKAGE_DIR, "dist", file)), file).toBe(true);
    }
    // The grammars are WebAssembly modules, not pointers or empty files.
    for (const file of ["tree-sitter.wasm", "tree-sitter-bash.wasm"]) {
      expect(readFileSync(join(PACKAGE_DIR, "dist", file)).subarray(0, 4)).toEqual(
        Buffer.from([0x00, 0x61, 0x73, 0x6d]),
      );
    }
  });

  it("--version prints the package version", async () => {
    expect(await runBin(BIN, ["--version"])).toEqual({ stdout: VERSION, stderr: "", exitCode: 0 });
  });

  it("--help lists init and uninstall", async () => {
    const result = await runBin(BIN, ["--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("init [options]");
    expect(result.stdout).toContain("uninstall [options]");
  });

  it.each([
    [["init", "--mode", "lax"], "Allowed choices are follow, tdd, strict"],
    [["install"], "unknown command 'install'"],
    [["init", "--force"], "unknown option '--force'"],
  ])("%j is a usage error (exit 2)", async (args, message) => {
    const result = await runBin(BIN, args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it("init and uninstall print what they changed; --root is relative to the current folder", async () => {
    const project = makeProject({ "app/.gitignore": "dist/\n" });
    try {
      const init = await runBin(BIN, ["init", "--root", "app", "--mode", "tdd"], {
        cwd: project.root,
      });
      expect(init.exitCode).toBe(0);
      expect(init.stdout).toBe(
        [
          ".cursor/hooks.json: added version 1",
          ".cursor/hooks.json: added hooks: sessionStart, preToolUse, postToolUse, afterFileEdit, subagentStart, subagentStop, stop, sessionEnd",
          ".tailtest/config.json: mode tdd",
          ".gitignore: added .tailtest/* and !.tailtest/config.json",
          "Cursor picks the hooks up in its next agent session; its Hooks output channel shows what they print.",
          "`cursor-agent -p` (print mode) does not fire stop, so tests run at the end of a turn only in the IDE and the cursor-agent TUI.",
        ].join("\n"),
      );
      expect(init.stderr).toBe(
        "tailtest-cursor: warning: node_modules/@tailtest/cursor/dist/hook.cjs is not in this project; the hooks run it from there: npm i -D @tailtest/cursor",
      );
      expect(existsSync(join(project.root, "app/.cursor/hooks.json"))).toBe(true);
      expect(readFileSync(join(project.root, "app/.gitignore"), "utf8")).toBe(
        "dist/\n.tailtest/*\n!.tailtest/config.json\n",
      );

      const again = await runBin(BIN, ["init", "--root", "app"], { cwd: project.root });
      expect(again.stdout).toContain(".cursor/hooks.json: tailtest's hooks are already there");

      const uninstall = await runBin(BIN, ["uninstall", "--root", "app"], { cwd: project.root });
      expect(uninstall).toMatchObject({ exitCode: 0, stderr: "" });
      expect(uninstall.stdout).toContain(
        ".cursor/hooks.json: removed tailtest hooks from: sessionStart",
      );
      expect(readFileSync(join(project.root, "app/.cursor/hooks.json"), "utf8")).toBe(
        '{\n  "version": 1\n}\n',
      );
    } finally {
      project.cleanup();
    }
  });

  it("warns about an event name Cursor does not know, and still installs", async () => {
    const project = makeProject({
      ".cursor/hooks.json": '{"version":1,"hooks":{"PostToolUse":[{"command":"./fmt.sh"}]}}',
    });
    try {
      const result = await runBin(BIN, ["init"], { cwd: project.root });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain(
        'tailtest-cursor: warning: .cursor/hooks.json has the event "PostToolUse", which Cursor does not know: Cursor ignores the whole file',
      );
      expect(readFileSync(join(project.root, ".cursor/hooks.json"), "utf8")).toContain(
        "@tailtest/cursor/dist/hook.cjs",
      );
    } finally {
      project.cleanup();
    }
  });

  it.each([
    [
      "not JSON",
      "{ oops",
      /^tailtest-cursor: \.cursor\/hooks\.json is not valid JSON .*nothing was changed$/,
    ],
    [
      "a bad version",
      '{ "version": "1" }',
      /^tailtest-cursor: \.cursor\/hooks\.json has version "1", but Cursor needs a positive integer; fix it first, nothing was changed$/,
    ],
  ])(
    "refuses hooks.json that is %s: one line, exit 1, file untouched",
    async (_name, text, error) => {
      const project = makeProject({ ".cursor/hooks.json": text });
      try {
        const result = await runBin(BIN, ["init"], { cwd: project.root });
        expect(result.exitCode).toBe(1);
        expect(result.stdout).toBe("");
        expect(result.stderr).toMatch(error);
        expect(readFileSync(join(project.root, ".cursor/hooks.json"), "utf8")).toBe(text);
        expect(existsSync(join(project.root, ".gitignore"))).toBe(false);
      } finally {
        project.cleanup();
      }
    },
  );
});
