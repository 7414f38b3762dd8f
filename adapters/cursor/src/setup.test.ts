import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { hookCommand, HOOK_MARKER, renderHooks } from "./install.ts";
import { CURSOR_SESSION_PATH } from "./paths.ts";
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

const ADDED =
  ".cursor/hooks.json: added hooks: sessionStart, preToolUse, postToolUse, afterFileEdit, subagentStart, subagentStop, stop, sessionEnd";
const USER_HOOKS = `${JSON.stringify(
  {
    version: 1,
    hooks: {
      beforeShellExecution: [{ command: "./guard.sh", matcher: "rm" }],
      afterFileEdit: [{ command: "npx prettier --write", timeout: 10 }],
      preToolUse: [{ command: "./audit.sh", matcher: "Shell", failClosed: true }],
    },
  },
  null,
  2,
)}\n`;

describe("paths", () => {
  it("the session file lives in .tailtest/, which init keeps out of git: nothing else is added", () => {
    expect(CURSOR_SESSION_PATH).toBe(".tailtest/cursor-session.json");
  });
});

describe("initProject", () => {
  it("sets up an empty project: hooks.json, .gitignore, and a warning when the package is missing", async () => {
    const { root } = project();
    const report = await initProject({ root });
    expect(report.lines).toEqual([
      ".cursor/hooks.json: added version 1",
      ADDED,
      ".gitignore: added .tailtest/* and !.tailtest/config.json",
    ]);
    expect(report.warnings).toEqual([
      `node_modules/${HOOK_MARKER} is not in this project; the hooks run it from there: npm i -D @tailtest/cursor`,
    ]);
    const text = read(root, ".cursor/hooks.json") ?? "";
    expect(JSON.parse(text)).toEqual({ version: 1, hooks: renderHooks() });
    expect(text.startsWith('{\n  "version": 1,\n  "hooks": {\n    "sessionStart": [')).toBe(true);
    expect(text).toContain(`"command": ${JSON.stringify(hookCommand("stop"))}`);
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
    const hooks = read(root, ".cursor/hooks.json");
    const report = await initProject({ root, mode: "tdd" });
    expect(report.lines).toEqual([
      ".cursor/hooks.json: tailtest's hooks are already there",
      ".tailtest/config.json: mode is already tdd",
      ".gitignore: already has .tailtest/* and !.tailtest/config.json",
    ]);
    expect(read(root, ".cursor/hooks.json")).toBe(hooks);
    expect(read(root, ".gitignore")).toBe("node_modules/\n.tailtest/*\n!.tailtest/config.json\n");
  });

  it("adds only the .gitignore entry that is missing, and lets an earlier install's config be committed", async () => {
    const { root } = project({ ".gitignore": "dist/\n/.tailtest\n# mine\n" });
    const report = await initProject({ root });
    expect(report.lines).toContain(
      ".gitignore: .tailtest/ became .tailtest/* and !.tailtest/config.json (the team can commit .tailtest/config.json)",
    );
    expect(read(root, ".gitignore")).toBe("dist/\n.tailtest/*\n!.tailtest/config.json\n# mine\n");
  });

  it("merges into the user's hooks.json, keeping their hooks first and in order", async () => {
    const { root } = project({ ".cursor/hooks.json": USER_HOOKS });
    const report = await initProject({ root });
    expect(report.lines[0]).toBe(ADDED);
    const file = JSON.parse(read(root, ".cursor/hooks.json") ?? "") as {
      hooks: Record<string, unknown[]>;
    };
    expect(Object.keys(file.hooks)).toEqual([
      "beforeShellExecution",
      "afterFileEdit",
      "preToolUse",
      "sessionStart",
      "postToolUse",
      "subagentStart",
      "subagentStop",
      "stop",
      "sessionEnd",
    ]);
    expect(file.hooks["afterFileEdit"]).toEqual([
      { command: "npx prettier --write", timeout: 10 },
      { command: hookCommand("afterFileEdit"), timeout: 30 },
    ]);
    expect(file.hooks["preToolUse"]).toEqual([
      { command: "./audit.sh", matcher: "Shell", failClosed: true },
      { command: hookCommand("preToolUse"), timeout: 30, matcher: "^(Write|Delete|Shell|MCP:.*)$" },
    ]);
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

  it("keeps a hooks file's 4-space indentation", async () => {
    const { root } = project({ ".cursor/hooks.json": '{\n    "version": 1\n}\n' });
    await initProject({ root });
    expect(read(root, ".cursor/hooks.json")).toMatch(/^\{\n {4}"version": 1,\n {4}"hooks"/);
  });

  it("warns, without refusing, about an event name Cursor does not know", async () => {
    const files = {
      ".cursor/hooks.json": '{"version":1,"hooks":{"Stop":[{"command":"./a.sh"}],"afterEdit":[]}}',
    };
    const { root } = project(files);
    const report = await initProject({ root });
    expect(report.lines[0]).toBe(ADDED);
    expect(report.warnings.slice(0, 2)).toEqual([
      '.cursor/hooks.json has the event "Stop", which Cursor does not know: Cursor ignores the whole file (tailtest\'s hooks too) until it is renamed or removed',
      '.cursor/hooks.json has the event "afterEdit", which Cursor does not know: Cursor ignores the whole file (tailtest\'s hooks too) until it is renamed or removed',
    ]);
    const written = JSON.parse(read(root, ".cursor/hooks.json") ?? "") as {
      hooks: Record<string, unknown>;
    };
    expect(written.hooks["Stop"], "the user's entry is theirs to fix").toEqual([
      { command: "./a.sh" },
    ]);
  });

  it.each<{ name: string; files: Record<string, string>; error: RegExp }>([
    {
      name: "hooks.json is not JSON",
      files: { ".cursor/hooks.json": '{ "hooks": { } ' },
      error: /^\.cursor\/hooks\.json is not valid JSON \(.*\); fix it first, nothing was changed$/,
    },
    {
      name: "hooks.json is not an object",
      files: { ".cursor/hooks.json": "[]" },
      error: /^\.cursor\/hooks\.json is not a JSON object; fix it first, nothing was changed$/,
    },
    {
      name: "hooks.json has version 0",
      files: { ".cursor/hooks.json": '{ "version": 0 }' },
      error:
        /^\.cursor\/hooks\.json has version 0, but Cursor needs a positive integer; fix it first, nothing was changed$/,
    },
    {
      name: "hooks.json hooks is a list",
      files: { ".cursor/hooks.json": '{ "version": 1, "hooks": [] }' },
      error: /^\.cursor\/hooks\.json has an unexpected shape at hooks /,
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
    if (!(".cursor/hooks.json" in files)) expect(read(root, ".cursor/hooks.json")).toBeUndefined();
  });

  it.each([
    { link: ".cursor/hooks.json", kind: "file" },
    { link: ".cursor", kind: "folder" },
  ])("refuses a $link that is a symlink (Cursor does not load it)", async ({ link, kind }) => {
    const { root, write } = project();
    const elsewhere = write("shared/cursor/hooks.json", USER_HOOKS);
    const path = join(root, link);
    if (link === ".cursor") {
      symlinkSync(join(root, "shared/cursor"), path, "dir");
    } else {
      mkdirSync(join(root, ".cursor"));
      symlinkSync(elsewhere, path);
    }
    const rejection = initProject({ root });
    await expect(rejection).rejects.toThrow(
      `${link} is a symlink, and Cursor does not load hooks through symlinks; make it a real ${kind} first, nothing was changed`,
    );
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readFileSync(elsewhere, "utf8")).toBe(USER_HOOKS);
    expect(read(root, ".gitignore")).toBeUndefined();
    await expect(uninstallProject({ root })).rejects.toThrow(/is a symlink/);
  });
});

describe("uninstallProject", () => {
  it("init then uninstall gives back the hooks file byte for byte, and leaves .tailtest/", async () => {
    const { root } = project({ ".cursor/hooks.json": USER_HOOKS });
    await initProject({ root, mode: "tdd" });
    expect(read(root, ".cursor/hooks.json")).not.toBe(USER_HOOKS);
    const report = await uninstallProject({ root });
    expect(report.lines).toEqual([
      ".cursor/hooks.json: removed tailtest hooks from: afterFileEdit, preToolUse, sessionStart, postToolUse, subagentStart, subagentStop, stop, sessionEnd",
      ".tailtest/: left as it is (config and test history); delete it if unwanted",
    ]);
    expect(read(root, ".cursor/hooks.json")).toBe(USER_HOOKS);
    expect(read(root, ".tailtest/config.json")).toBe('{\n  "mode": "tdd"\n}\n');
    expect(read(root, ".gitignore")).toBe(".tailtest/*\n!.tailtest/config.json\n");
  });

  it("a project init created from nothing ends with only the version", async () => {
    const { root } = project();
    await initProject({ root });
    await uninstallProject({ root });
    expect(read(root, ".cursor/hooks.json")).toBe('{\n  "version": 1\n}\n');
  });

  it.each<{ name: string; files: Record<string, string>; line: string }>([
    { name: "no hooks file", files: {}, line: ".cursor/hooks.json: not found, nothing to remove" },
    {
      name: "no tailtest hooks",
      files: { ".cursor/hooks.json": USER_HOOKS },
      line: ".cursor/hooks.json: no tailtest hooks found",
    },
  ])("says so when there is $name", async ({ files, line }) => {
    const { root } = project(files);
    expect((await uninstallProject({ root })).lines).toEqual([line]);
    for (const [path, content] of Object.entries(files)) expect(read(root, path)).toBe(content);
  });

  it("refuses a hooks file that is not JSON", async () => {
    const { root } = project({ ".cursor/hooks.json": "nope" });
    await expect(uninstallProject({ root })).rejects.toThrow(/is not valid JSON/);
    expect(read(root, ".cursor/hooks.json")).toBe("nope");
  });
});
