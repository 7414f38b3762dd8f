import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { makeProject, REPO_ROOT, runBin } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";

const PACKAGE_DIR = join(REPO_ROOT, "adapters/claude-code");
const BIN = join(PACKAGE_DIR, "dist/cli.js");
const VERSION = (
  JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string }
).version;

describe("tailtest-claude-code bin", () => {
  it("is built, each bin with one shebang, and the plugin has its copy of the hook", () => {
    expect(existsSync(BIN), "run the build first (pnpm test does)").toBe(true);
    for (const bin of [BIN, join(REPO_ROOT, "packages/cli/dist/bin.js")]) {
      const text = readFileSync(bin, "utf8");
      expect(text.startsWith("#!/usr/bin/env node\n"), bin).toBe(true);
      expect(text.match(/^#!/gm), bin).toHaveLength(1);
    }
    expect(readFileSync(join(PACKAGE_DIR, "plugin/dist/hook.cjs"))).toEqual(
      readFileSync(join(PACKAGE_DIR, "dist/hook.cjs")),
    );
  });

  it("--version prints the package version", async () => {
    expect(await runBin(BIN, ["--version"])).toEqual({ stdout: VERSION, stderr: "", exitCode: 0 });
  });

  it("the tailtest bin (a launcher and a code-cached bundle) answers the same with and without its caches", async () => {
    const cliDist = join(REPO_ROOT, "packages/cli/dist");
    const bin = join(cliDist, "bin.js");
    const project = makeProject({
      "calc.py": "def add(a, b):\n    return a + b\n",
      "tests/test_calc.py":
        "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      ".tailtest/config.json": '{"mode":"tdd"}\n',
    });
    try {
      for (const name of readdirSync(cliDist).filter((file) => file.endsWith(".local.cache")))
        rmSync(join(cliDist, name));
      const calls = [
        ["--version"],
        ["-v"],
        ["--help"],
        ["status", "--json"],
        // Text, not --json: the JSON carries selection_ms, a time.
        ["explain", "calc.py"],
        ["run", "--dry-run", "calc.py"],
        ["frobnicate"],
      ];
      for (const args of calls) {
        // The first call of a command writes its cache, the second reads it.
        const first = await runBin(bin, args, { cwd: project.root });
        expect(await runBin(bin, args, { cwd: project.root }), args.join(" ")).toEqual(first);
      }
      expect((await runBin(bin, ["--version"])).stdout).toBe(VERSION);
      const caches = readdirSync(cliDist);
      // status has a bundle of its own; the other commands share tailtest-main's.
      expect(
        caches.some((name) => name.startsWith("tailtest-status.") && name.endsWith(".local.cache")),
      ).toBe(true);
      expect(
        caches.some((name) => name.startsWith("tailtest-main.") && name.includes("-help.")),
      ).toBe(true);
    } finally {
      project.cleanup();
    }
  });

  it("--help lists init and uninstall", async () => {
    const result = await runBin(BIN, ["--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("init [options]");
    expect(result.stdout).toContain("uninstall [options]");
  });

  it("an unknown mode is a usage error (exit 2)", async () => {
    const result = await runBin(BIN, ["init", "--mode", "lax"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("Allowed choices are follow, tdd, strict");
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
          ".claude/settings.json: added hooks: SessionStart, PreToolUse, PostToolUse, PostToolUseFailure, SubagentStart, Stop, SubagentStop, SessionEnd",
          ".tailtest/config.json: mode tdd",
          ".gitignore: added .tailtest/* and !.tailtest/config.json",
          "Claude Code loads the hooks in its next session (/hooks lists them).",
        ].join("\n"),
      );
      expect(init.stderr).toContain("warning: node_modules/@tailtest/claude-code/dist/hook.cjs");
      expect(existsSync(join(project.root, "app/.claude/settings.json"))).toBe(true);

      const uninstall = await runBin(BIN, ["uninstall", "--root", "app"], { cwd: project.root });
      expect(uninstall).toMatchObject({ exitCode: 0, stderr: "" });
      expect(uninstall.stdout).toContain("removed tailtest hooks from: SessionStart");
    } finally {
      project.cleanup();
    }
  });

  it("refuses settings.json that is not JSON: one line, exit 1, file untouched", async () => {
    const project = makeProject({ ".claude/settings.json": "{ oops" });
    try {
      const result = await runBin(BIN, ["init"], { cwd: project.root });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        /^tailtest-claude-code: \.claude\/settings\.json is not valid JSON .*nothing was changed$/,
      );
      expect(readFileSync(join(project.root, ".claude/settings.json"), "utf8")).toBe("{ oops");
    } finally {
      project.cleanup();
    }
  });
});
