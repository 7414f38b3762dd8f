import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { HOOK_MARKER, projectHookCommand } from "./install.ts";
import { initProject, SetupError, uninstallProject } from "./setup.ts";

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

function project(files: Record<string, string> = {}): TempProject {
  const made = makeProject(files);
  projects.push(made);
  return made;
}

function read(root: string, path: string): string | undefined {
  const abs = join(root, path);
  return existsSync(abs) ? readFileSync(abs, "utf8") : undefined;
}

const USER_SETTINGS = `${JSON.stringify(
  {
    permissions: { allow: ["Bash(pytest:*)"] },
    hooks: {
      PostToolUse: [
        {
          matcher: "Write|Edit|MultiEdit|NotebookEdit",
          hooks: [{ type: "command", command: "fmt" }],
        },
      ],
    },
    model: "opus",
  },
  null,
  2,
)}\n`;

describe("initProject", () => {
  it("sets up an empty project: settings, .gitignore, and a warning when the package is missing", async () => {
    const { root } = project();
    const report = await initProject({ root });
    expect(report.lines).toEqual([
      ".claude/settings.json: added hooks: SessionStart, PreToolUse, PostToolUse, PostToolUseFailure, SubagentStart, Stop, SubagentStop, SessionEnd",
      ".gitignore: added .tailtest/* and !.tailtest/config.json",
    ]);
    expect(report.warnings).toEqual([
      `node_modules/${HOOK_MARKER} is not in this project; the hooks run it from there: npm i -D @tailtest/claude-code`,
    ]);
    const settings = read(root, ".claude/settings.json") ?? "";
    expect(settings).toContain(`"command": ${JSON.stringify(projectHookCommand("Stop"))}`);
    expect(settings.startsWith('{\n  "hooks": {\n    "SessionStart": [')).toBe(true);
    expect(read(root, ".gitignore")).toBe(".tailtest/*\n!.tailtest/config.json\n");
    expect(existsSync(join(root, ".tailtest")), "no --mode: no config").toBe(false);
  });

  it("does not warn once the package is installed in the project", async () => {
    const { root } = project({ [`node_modules/${HOOK_MARKER}`]: "" });
    expect((await initProject({ root })).warnings).toEqual([]);
  });

  it("a second run writes nothing and says so", async () => {
    const { root } = project({ ".gitignore": "node_modules/\n" });
    await initProject({ root, mode: "tdd" });
    const settings = read(root, ".claude/settings.json");
    const report = await initProject({ root, mode: "tdd" });
    expect(report.lines).toEqual([
      ".claude/settings.json: tailtest's hooks are already there",
      ".tailtest/config.json: mode is already tdd",
      ".gitignore: already has .tailtest/* and !.tailtest/config.json",
    ]);
    expect(read(root, ".claude/settings.json")).toBe(settings);
    expect(read(root, ".gitignore")).toBe("node_modules/\n.tailtest/*\n!.tailtest/config.json\n");
  });

  it("--mode merges into an existing config and keeps its other fields", async () => {
    const { root } = project({ ".tailtest/config.json": '{ "depth": "thorough" }\n' });
    const report = await initProject({ root, mode: "strict" });
    expect(report.lines).toContain(".tailtest/config.json: mode strict");
    expect(JSON.parse(read(root, ".tailtest/config.json") ?? "")).toEqual({
      depth: "thorough",
      mode: "strict",
    });
  });

  it("keeps a settings file's 4-space indentation", async () => {
    const { root } = project({ ".claude/settings.json": '{\n    "model": "opus"\n}\n' });
    await initProject({ root });
    expect(read(root, ".claude/settings.json")).toMatch(/^\{\n {4}"model": "opus",\n {4}"hooks"/);
  });

  it.each<{ name: string; files: Record<string, string>; error: RegExp }>([
    {
      name: "settings.json is not JSON",
      files: { ".claude/settings.json": '{ "hooks": { } ' },
      error:
        /^\.claude\/settings\.json is not valid JSON \(.*\); fix it first, nothing was changed$/,
    },
    {
      name: "settings.json hooks is a list",
      files: { ".claude/settings.json": '{ "hooks": [] }' },
      error: /^\.claude\/settings\.json has an unexpected shape at hooks /,
    },
    {
      name: "config.json is not JSON (with --mode)",
      files: { ".tailtest/config.json": "{ mode: tdd }" },
      error: /^\.tailtest\/config\.json is not valid JSON .*nothing was changed$/,
    },
  ])("refuses when $name, in one line, and writes nothing", async ({ files, error }) => {
    const { root } = project(files);
    const rejection = initProject({ root, mode: "tdd" });
    await expect(rejection).rejects.toThrow(SetupError);
    await expect(rejection).rejects.toThrow(error);
    for (const [path, content] of Object.entries(files)) expect(read(root, path)).toBe(content);
    expect(read(root, ".gitignore")).toBeUndefined();
    if (!(".claude/settings.json" in files)) {
      expect(read(root, ".claude/settings.json")).toBeUndefined();
    }
  });
});

describe("uninstallProject", () => {
  it("init then uninstall gives back the settings file byte for byte, and leaves .tailtest/", async () => {
    const { root } = project({ ".claude/settings.json": USER_SETTINGS });
    await initProject({ root, mode: "tdd" });
    expect(read(root, ".claude/settings.json")).not.toBe(USER_SETTINGS);
    const report = await uninstallProject({ root });
    expect(report.lines).toEqual([
      ".claude/settings.json: removed tailtest hooks from: PostToolUse, SessionStart, PreToolUse, PostToolUseFailure, SubagentStart, Stop, SubagentStop, SessionEnd",
      ".tailtest/: left as it is (config and test history); delete it if unwanted",
    ]);
    expect(read(root, ".claude/settings.json")).toBe(USER_SETTINGS);
    expect(read(root, ".tailtest/config.json")).toBe('{\n  "mode": "tdd"\n}\n');
    expect(read(root, ".gitignore")).toBe(".tailtest/*\n!.tailtest/config.json\n");
  });

  it("a project init created from nothing ends with an empty settings object", async () => {
    const { root } = project();
    await initProject({ root });
    await uninstallProject({ root });
    expect(read(root, ".claude/settings.json")).toBe("{}\n");
  });

  it.each<{ name: string; files: Record<string, string>; line: string }>([
    {
      name: "no settings file",
      files: {},
      line: ".claude/settings.json: not found, nothing to remove",
    },
    {
      name: "no tailtest hooks",
      files: { ".claude/settings.json": USER_SETTINGS },
      line: ".claude/settings.json: no tailtest hooks found",
    },
  ])("says so when there is $name", async ({ files, line }) => {
    const { root } = project(files);
    expect((await uninstallProject({ root })).lines).toEqual([line]);
    for (const [path, content] of Object.entries(files)) expect(read(root, path)).toBe(content);
  });

  it("refuses settings that are not JSON", async () => {
    const { root } = project({ ".claude/settings.json": "nope" });
    await expect(uninstallProject({ root })).rejects.toThrow(/is not valid JSON/);
    expect(read(root, ".claude/settings.json")).toBe("nope");
  });
});
