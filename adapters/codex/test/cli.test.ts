import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, REPO_ROOT, runBin } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { PACKAGE_DIR } from "./payloads.ts";

const BIN = join(PACKAGE_DIR, "dist/cli.js");
const VERSION = (
  JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string }
).version;

describe("tailtest-codex bin", () => {
  it("is built, each bin with one shebang", () => {
    expect(existsSync(BIN), "run the build first (pnpm test does)").toBe(true);
    for (const bin of [BIN, join(REPO_ROOT, "packages/cli/dist/bin.js")]) {
      const text = readFileSync(bin, "utf8");
      expect(text.startsWith("#!/usr/bin/env node\n"), bin).toBe(true);
      expect(text.match(/^#!/gm), bin).toHaveLength(1);
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
    [["setup"], "unknown command 'setup'"],
  ])("%j is a usage error (exit 2)", async (args, message) => {
    const result = await runBin(BIN, args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it("init prints what it changed and the trust steps; --root is relative to the current folder", async () => {
    const project = makeProject({ "app/.gitignore": "dist/\n" });
    try {
      const app = join(project.root, "app");
      const init = await runBin(BIN, ["init", "--root", "app", "--mode", "tdd"], {
        cwd: project.root,
      });
      expect(init.exitCode).toBe(0);
      expect(init.stdout).toBe(
        [
          ".codex/hooks.json: added hooks: SessionStart, SubagentStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SubagentStop, SessionEnd",
          ".tailtest/: created (it marks the project root for the hooks)",
          ".tailtest/config.json: mode tdd",
          ".tailtest/.gitignore: added (keeps .tailtest/ out of git, all but config.json)",
          "Codex skips these hooks, silently, until two things are trusted:",
          "  1. the project: accept Codex's trust prompt when it opens here (codex exec --trust for a",
          "     non-interactive run), or put this in ~/.codex/config.toml ($CODEX_HOME/config.toml):",
          `       [projects.${JSON.stringify(app)}]`,
          '       trust_level = "trusted"',
          "  2. the hooks: run /hooks in the Codex TUI and trust tailtest's hooks",
          "     (automation: codex exec --dangerously-bypass-hook-trust).",
          "Editing a hook's command un-trusts it; init always writes the same commands.",
        ].join("\n"),
      );
      expect(init.stderr).toBe(
        "tailtest-codex: warning: node_modules/@tailtest/codex/dist/hook.cjs is not in this project (or a folder above it); the hooks run it from there: npm i -D @tailtest/codex",
      );
      expect(existsSync(join(app, ".codex/hooks.json"))).toBe(true);

      const uninstall = await runBin(BIN, ["uninstall", "--root", "app"], { cwd: project.root });
      expect(uninstall).toMatchObject({ exitCode: 0, stderr: "" });
      expect(uninstall.stdout).toContain(".codex/hooks.json: deleted");
      expect(existsSync(join(app, ".codex"))).toBe(false);
    } finally {
      project.cleanup();
    }
  });

  it.each([
    [
      ".codex/hooks.json",
      "{ oops",
      /^tailtest-codex: \.codex\/hooks\.json is not valid JSON .*nothing was changed$/,
    ],
    [
      ".codex/config.toml",
      "[hooks\n",
      /^tailtest-codex: \.codex\/config\.toml is not valid TOML .*nothing was changed$/,
    ],
  ])(
    "refuses %s that does not parse: one line, exit 1, nothing written",
    async (path, text, error) => {
      const project = makeProject({ [path]: text });
      try {
        const result = await runBin(BIN, ["init"], { cwd: project.root });
        expect(result.exitCode).toBe(1);
        expect(result.stdout).toBe("");
        expect(result.stderr).toMatch(error);
        expect(result.stderr.trim().split("\n")).toHaveLength(1);
        expect(readFileSync(join(project.root, path), "utf8")).toBe(text);
        expect(existsSync(join(project.root, ".gitignore"))).toBe(false);
        expect(existsSync(join(project.root, ".tailtest"))).toBe(false);
      } finally {
        project.cleanup();
      }
    },
  );
});
