import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { judgeTarget, protectionFor, realTarget } from "./write-identity.ts";

/** Targets judged by where they lead, on a real tree with real links (ADR 0012). */

let project: TempProject;
afterEach(() => {
  project.cleanup();
  rmSync(`${project.root}-home`, { recursive: true, force: true });
});

function setUp(): { root: string; home: string } {
  project = makeProject({
    ".tailtest/config.json": '{"mode":"tdd"}\n',
    "src/util.py": "x = 1\n",
    "node_modules/@tailtest/codex/dist/hook.cjs": "//\n",
  });
  const home = `${project.root}-home`;
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(home, ".claude/settings.json"), "{}\n");
  return { root: project.root, home };
}

const judge = (root: string, home: string, path: string) =>
  judgeTarget(root, path, protectionFor(root, { HOME: home }));

describe("judgeTarget", () => {
  it("a link made without the state folder's name leads into it", () => {
    const { root, home } = setUp();
    symlinkSync(".tailtest", join(root, "t"));
    expect(judge(root, home, "t/config.json").protectedAs).toBe(".tailtest/config.json");
  });

  it("a hard link shares the config's inode", () => {
    const { root, home } = setUp();
    linkSync(join(root, ".tailtest/config.json"), join(root, "cfg.json"));
    expect(judge(root, home, "cfg.json").protectedAs).toBe("cfg.json");
  });

  it("a folder holding protected files is protected (rm -rf node_modules)", () => {
    const { root, home } = setUp();
    expect(judge(root, home, "node_modules").protectedAs).toBe("node_modules");
    expect(judge(root, home, "src").protectedAs).toBeUndefined();
  });

  it("user-level hook settings, also not there yet, and a dangling link to them", () => {
    const { root, home } = setUp();
    expect(judge(root, home, join(home, ".claude/settings.json")).protectedAs).toBe(
      "~/.claude/settings.json",
    );
    symlinkSync(join(home, ".cursor/hooks.json"), join(root, "hk"));
    expect(judge(root, home, "hk").protectedAs).toBe("~/.cursor/hooks.json");
  });

  it("Claude Code's CLAUDE_CONFIG_DIR settings and the machine-wide settings", () => {
    const { root, home } = setUp();
    const config = join(home, "claude-config");
    const protection = protectionFor(root, { HOME: home, CLAUDE_CONFIG_DIR: config });
    for (const file of ["settings.json", "settings.local.json"])
      expect(judgeTarget(root, join(config, file), protection).protectedAs).toBeDefined();
    for (const path of [
      "/etc/claude-code/managed-settings.json",
      "/etc/cursor/hooks.json",
      "/etc/codex/config.toml",
    ])
      expect(judgeTarget(root, path, protection).protectedAs).toBe(path);
    expect(judgeTarget(root, "/etc/hostname", protection).protectedAs).toBeUndefined();
  });

  it("production code is the file a link reaches", () => {
    const { root, home } = setUp();
    mkdirSync(join(root, "build"));
    symlinkSync("../src", join(root, "build/x"));
    expect(judge(root, home, "build/x/util.py")).toEqual({
      relPath: "src/util.py",
      protectedAs: undefined,
    });
    expect(realTarget(join(root, "build/x/new.py"))).toBe(join(realTarget(root), "src/new.py"));
  });
});
