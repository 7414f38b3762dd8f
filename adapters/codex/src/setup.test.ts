import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "@decimalturn/toml-patch";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { hookCommand, HOOK_MARKER } from "./install.ts";
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

/** Every file and folder under root, relative, sorted (folders end in /). */
function tree(root: string, dir = ""): string[] {
  return readdirSync(join(root, dir))
    .flatMap((name) => {
      const rel = dir === "" ? name : `${dir}/${name}`;
      return statSync(join(root, rel)).isDirectory() ? [`${rel}/`, ...tree(root, rel)] : [rel];
    })
    .sort();
}

/** Codex reads TOML 1.0; Python's tomllib is a strict 1.0 parser, when this machine has it. */
async function expectToml10(text: string): Promise<void> {
  const probe = await execa("python3", ["-c", "import tomllib"], { reject: false });
  if (probe.exitCode !== 0) return;
  const check = await execa(
    "python3",
    ["-c", "import sys, tomllib; tomllib.loads(sys.stdin.read())"],
    {
      input: text,
      reject: false,
    },
  );
  expect(check.stderr, "TOML 1.0").toBe("");
  expect(check.exitCode).toBe(0);
}

const ALL =
  "SessionStart, SubagentStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SubagentStop, SessionEnd";
const NOT_INSTALLED = `node_modules/${HOOK_MARKER} is not in this project (or a folder above it); the hooks run it from there: npm i -D @tailtest/codex`;

const USER_HOOKS = `${JSON.stringify(
  {
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }],
      PostToolUse: [
        { matcher: "apply_patch", hooks: [{ type: "command", command: "fmt", timeout: 5 }] },
      ],
    },
  },
  null,
  4,
)}\n`;

const USER_TOML = `# Codex settings for this repository
model = "gpt-5.5" # pinned

[hooks]
# formatter after every patch
PostToolUse = [
  { matcher = "apply_patch", hooks = [{ type = "command", command = "fmt" }] },
]

[mcp_servers.docs]
command = "docs-mcp" # local docs
`;

describe("initProject", () => {
  it("sets up an empty project: hooks.json, .tailtest/ (ignoring itself), and a warning while the package is missing", async () => {
    const { root } = project();
    const report = await initProject({ root });
    expect(report.lines).toEqual([
      `.codex/hooks.json: added hooks: ${ALL}`,
      ".tailtest/: created (it marks the project root for the hooks)",
      ".tailtest/.gitignore: added (keeps .tailtest/ out of git, all but config.json)",
    ]);
    expect(report.warnings).toEqual([NOT_INSTALLED]);
    const hooks = read(root, ".codex/hooks.json") ?? "";
    expect(hooks).toContain(`"command": ${JSON.stringify(hookCommand("Stop"))}`);
    expect(
      hooks.startsWith('{\n  "hooks": {\n    "SessionStart": [\n      {\n        "hooks"'),
    ).toBe(true);
    // Nothing outside .codex/ and .tailtest/: .tailtest/ keeps itself out of git.
    expect(tree(root)).toEqual([
      ".codex/",
      ".codex/hooks.json",
      ".tailtest/",
      ".tailtest/.gitignore",
    ]);
    expect(read(root, ".tailtest/.gitignore")).toMatch(/^\*$/m);
  });

  it.each([
    ["in the project", `app/node_modules/${HOOK_MARKER}`],
    ["in a folder above it (hoisted)", `node_modules/${HOOK_MARKER}`],
  ])("does not warn once the package is installed %s", async (_name, hook) => {
    const { root } = project({ [hook]: "", "app/.gitignore": "" });
    expect((await initProject({ root: join(root, "app") })).warnings).toEqual([]);
  });

  it("lets an earlier install's .tailtest/ keep config.json in git", async () => {
    const { root } = project({
      ".tailtest/.gitignore": "# Written by tailtest: its state and history stay out of git.\n*\n",
    });
    const report = await initProject({ root });
    expect(report.lines).toContain(
      ".tailtest/.gitignore: updated (keeps .tailtest/ out of git, all but config.json)",
    );
    expect(read(root, ".tailtest/.gitignore")).toMatch(/^\*\n!\.gitignore\n!config\.json\n$/m);
  });

  it("a second run writes nothing and says so", async () => {
    const { root } = project({ ".gitignore": "node_modules/\n" });
    await initProject({ root, mode: "tdd" });
    const snapshot = () =>
      Object.fromEntries(
        tree(root).map((path) => [path, path.endsWith("/") ? "" : read(root, path)]),
      );
    const before = snapshot();
    const report = await initProject({ root, mode: "tdd" });
    expect(report.lines).toEqual([
      ".codex/hooks.json: tailtest's hooks are already there",
      ".tailtest/config.json: mode is already tdd",
      ".tailtest/.gitignore: already there",
    ]);
    expect(snapshot()).toEqual(before);
    // The project's own .gitignore is never touched.
    expect(read(root, ".gitignore")).toBe("node_modules/\n");
  });

  it("--mode merges into an existing config and keeps its other fields", async () => {
    const { root } = project({ ".tailtest/config.json": '{ "depth": "thorough" }\n' });
    const report = await initProject({ root, mode: "strict" });
    expect(report.lines).toContain(".tailtest/config.json: mode strict");
    expect(report.lines).not.toContain(
      ".tailtest/: created (it marks the project root for the hooks)",
    );
    expect(JSON.parse(read(root, ".tailtest/config.json") ?? "")).toEqual({
      depth: "thorough",
      mode: "strict",
    });
  });

  it("joins other tools' hooks in hooks.json, keeping its 4-space indentation", async () => {
    const { root } = project({ ".codex/hooks.json": USER_HOOKS });
    await initProject({ root });
    const written = read(root, ".codex/hooks.json") ?? "";
    expect(written).toMatch(/^\{\n {4}"hooks": \{\n {8}"PreToolUse"/);
    const hooks = (JSON.parse(written) as { hooks: Record<string, unknown[]> }).hooks;
    expect(Object.keys(hooks)).toEqual([
      "PreToolUse",
      "PostToolUse",
      "SessionStart",
      "SubagentStart",
      "UserPromptSubmit",
      "Stop",
      "SubagentStop",
      "SessionEnd",
    ]);
    expect(hooks["PostToolUse"]).toHaveLength(2);
    // The user's Bash guard stays first; tailtest's gate is its own matcher group after it.
    expect(hooks["PreToolUse"]).toEqual([
      { matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] },
      {
        matcher: "^(apply_patch|Bash)$",
        hooks: [{ type: "command", command: hookCommand("PreToolUse"), timeout: 30 }],
      },
    ]);
  });

  it("merges into an existing inline [hooks] table instead, keeping comments, and writes no hooks.json", async () => {
    const { root } = project({ ".codex/config.toml": USER_TOML });
    const report = await initProject({ root });
    expect(report.lines.slice(0, 1)).toEqual([`.codex/config.toml [hooks]: added hooks: ${ALL}`]);
    expect(report.warnings).toEqual([NOT_INSTALLED]);
    expect(existsSync(join(root, ".codex/hooks.json"))).toBe(false);
    const text = read(root, ".codex/config.toml") ?? "";
    for (const line of USER_TOML.split("\n")) expect(text.split("\n")).toContain(line);
    const value = parseToml(text) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(value.hooks["Stop"]?.[0]?.hooks[0]?.command).toBe(hookCommand("Stop"));
    expect(value.hooks["PreToolUse"]).toEqual([
      {
        matcher: "^(apply_patch|Bash)$",
        hooks: [{ type: "command", command: hookCommand("PreToolUse"), timeout: 30 }],
      },
    ]);
    expect(value.hooks["PostToolUse"]?.[1]).toEqual({
      matcher: "apply_patch|Bash",
      hooks: [{ type: "command", command: hookCommand("PostToolUse"), timeout: 660 }],
    });
    await expectToml10(text);

    expect((await initProject({ root })).lines[0]).toBe(
      ".codex/config.toml [hooks]: tailtest's hooks are already there",
    );
    expect(read(root, ".codex/config.toml")).toBe(text);

    const uninstall = await uninstallProject({ root });
    expect(uninstall.lines[0]).toBe(
      ".codex/config.toml [hooks]: removed tailtest hooks from: PostToolUse, SessionStart, SubagentStart, UserPromptSubmit, PreToolUse, Stop, SubagentStop, SessionEnd",
    );
    expect(read(root, ".codex/config.toml")).toBe(USER_TOML);
  });

  it.each([
    ["hooks = false", "hooks = true", "hooks"],
    ["codex_hooks = false", "codex_hooks = true", "codex_hooks"],
  ])("turns [features] %s on, says so, and puts the hooks in hooks.json", async (off, on, key) => {
    const original = `model = "gpt-5.5"\n\n[features]\n# not yet\n${off}\n`;
    const { root } = project({ ".codex/config.toml": original });
    const report = await initProject({ root });
    expect(report.lines).toEqual([
      `.codex/hooks.json: added hooks: ${ALL}`,
      `.codex/config.toml: [features] ${key} was false, so Codex ran no hooks; set it to true`,
      ".tailtest/: created (it marks the project root for the hooks)",
      ".tailtest/.gitignore: added (keeps .tailtest/ out of git, all but config.json)",
    ]);
    expect(read(root, ".codex/config.toml")).toBe(original.replace(off, on));
    // Uninstall takes the hooks out and leaves the switch on.
    await uninstallProject({ root });
    expect(read(root, ".codex/config.toml")).toBe(original.replace(off, on));
    expect(tree(root)).toEqual([
      ".codex/",
      ".codex/config.toml",
      ".tailtest/",
      ".tailtest/.gitignore",
    ]);
  });

  it("leaves config.toml alone when it has no [hooks] table and hooks are on", async () => {
    const original = '[features]\nhooks = true\n\n[projects."/x"]\ntrust_level = "trusted"\n';
    const { root } = project({ ".codex/config.toml": original });
    await initProject({ root });
    expect(read(root, ".codex/config.toml")).toBe(original);
    expect(existsSync(join(root, ".codex/hooks.json"))).toBe(true);
  });

  it("falls back to hooks.json, with a warning, when toml-patch cannot edit [hooks] safely", async () => {
    const original =
      '[hooks]\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "./lint.sh"\n';
    const { root } = project({ ".codex/config.toml": original });
    const report = await initProject({ root });
    expect(report.lines[0]).toBe(`.codex/hooks.json: added hooks: ${ALL}`);
    expect(report.warnings[0]).toMatch(
      /^\.codex\/config\.toml has an inline \[hooks\] table that toml-patch cannot add tailtest's hooks to .* went to \.codex\/hooks\.json/,
    );
    expect(read(root, ".codex/config.toml")).toBe(original);
    expect((await initProject({ root })).lines[0]).toBe(
      ".codex/hooks.json: tailtest's hooks are already there",
    );
  });

  it("moves its hooks out of hooks.json when a [hooks] table shows up in config.toml", async () => {
    const { root, write } = project();
    await initProject({ root });
    write(".codex/config.toml", "[hooks]\n");
    const report = await initProject({ root });
    expect(report.lines.slice(0, 3)).toEqual([
      `.codex/hooks.json: removed tailtest hooks from: ${ALL}`,
      ".codex/hooks.json: deleted (it held nothing but tailtest's hooks)",
      `.codex/config.toml [hooks]: added hooks: ${ALL}`,
    ]);
    expect(existsSync(join(root, ".codex/hooks.json"))).toBe(false);
    await uninstallProject({ root });
    expect(read(root, ".codex/config.toml")).toBe("[hooks]\n");
  });

  /** What init wrote before tdd mode's hooks: six events, PostToolUse with a 60 s timeout. */
  const PREVIOUS = [
    ["SessionStart", undefined, 30],
    ["UserPromptSubmit", undefined, 30],
    ["PostToolUse", "apply_patch|Bash", 60],
    ["Stop", undefined, 600],
    ["SubagentStop", undefined, 600],
    ["SessionEnd", undefined, 30],
  ] as const;

  it("upgrades hooks.json from the previous table: adds the gate and SubagentStart, lengthens PostToolUse", async () => {
    const previous = Object.fromEntries(
      PREVIOUS.map(([event, matcher, timeout]) => [
        event,
        [
          {
            ...(matcher === undefined ? {} : { matcher }),
            hooks: [{ type: "command", command: hookCommand(event), timeout }],
          },
        ],
      ]),
    );
    const { root } = project({
      ".codex/hooks.json": `${JSON.stringify({ hooks: previous }, null, 2)}\n`,
    });
    const report = await initProject({ root, mode: "tdd" });
    expect(report.lines.slice(0, 2)).toEqual([
      ".codex/hooks.json: added hooks: SubagentStart, PreToolUse",
      ".codex/hooks.json: updated hooks: PostToolUse",
    ]);
    const hooks = (
      JSON.parse(read(root, ".codex/hooks.json") ?? "") as {
        hooks: Record<string, { matcher?: string; hooks: { timeout: number }[] }[]>;
      }
    ).hooks;
    expect(hooks["PostToolUse"]?.[0]?.hooks[0]?.timeout).toBe(660);
    expect(hooks["PreToolUse"]?.[0]?.matcher).toBe("^(apply_patch|Bash)$");
    expect((await initProject({ root })).lines[0]).toBe(
      ".codex/hooks.json: tailtest's hooks are already there",
    );
  });

  it("upgrades an inline [hooks] table from the previous table the same way, and still round-trips", async () => {
    const rows = PREVIOUS.map(
      ([event, matcher, timeout]) =>
        `${event} = [{ ${matcher === undefined ? "" : `matcher = "${matcher}", `}hooks = [{ type = "command", command = ${JSON.stringify(hookCommand(event))}, timeout = ${timeout} }] }]`,
    );
    const original = `# ours\n[hooks]\n${rows.join("\n")}\n`;
    const { root } = project({ ".codex/config.toml": original });
    const report = await initProject({ root });
    expect(report.lines.slice(0, 2)).toEqual([
      ".codex/config.toml [hooks]: added hooks: SubagentStart, PreToolUse",
      ".codex/config.toml [hooks]: updated hooks: PostToolUse",
    ]);
    expect(existsSync(join(root, ".codex/hooks.json"))).toBe(false);
    const text = read(root, ".codex/config.toml") ?? "";
    await expectToml10(text);
    const value = parseToml(text) as {
      hooks: Record<string, { matcher?: string; hooks: { timeout: number }[] }[]>;
    };
    expect(value.hooks["PostToolUse"]?.[0]?.hooks[0]?.timeout).toBe(660);
    expect(value.hooks["PreToolUse"]?.[0]?.matcher).toBe("^(apply_patch|Bash)$");
    expect(value.hooks["SubagentStart"]?.[0]?.hooks[0]?.timeout).toBe(30);
    await uninstallProject({ root });
    expect(read(root, ".codex/config.toml")).toBe("# ours\n[hooks]\n");
  });

  it.each<{ name: string; files: Record<string, string>; error: RegExp }>([
    {
      name: "hooks.json is not JSON",
      files: { ".codex/hooks.json": '{ "hooks": { } ' },
      error: /^\.codex\/hooks\.json is not valid JSON \(.*\); fix it first, nothing was changed$/,
    },
    {
      name: "hooks.json has hooks as a list",
      files: { ".codex/hooks.json": '{ "hooks": [] }' },
      error: /^\.codex\/hooks\.json has an unexpected shape at hooks /,
    },
    {
      name: "config.toml is not TOML",
      files: { ".codex/config.toml": '[hooks]\nStop = [\nmodel = "x"\n' },
      error:
        /^\.codex\/config\.toml is not valid TOML \(line \d+: .*\); fix it first, nothing was changed$/,
    },
    {
      name: "config.toml has a hooks key that is not a table",
      files: { ".codex/config.toml": 'hooks = "on"\n' },
      error: /^\.codex\/config\.toml has a hooks key that is not a table; fix it first/,
    },
    {
      name: "config.json is not JSON (with --mode)",
      files: { ".tailtest/config.json": "{ mode: tdd }" },
      error: /^\.tailtest\/config\.json is not valid JSON .*nothing was changed$/,
    },
  ])("refuses when $name, in one line, and writes nothing", async ({ files, error }) => {
    const { root } = project(files);
    const before = tree(root);
    const rejection = initProject({ root, mode: "tdd" });
    await expect(rejection).rejects.toThrow(SetupError);
    await expect(rejection).rejects.toThrow(error);
    for (const [path, content] of Object.entries(files)) expect(read(root, path)).toBe(content);
    expect(tree(root)).toEqual(before);
  });
});

describe("uninstallProject", () => {
  it("init then uninstall gives back hooks.json byte for byte, and leaves .tailtest/", async () => {
    const { root } = project({ ".codex/hooks.json": USER_HOOKS });
    await initProject({ root, mode: "tdd" });
    expect(read(root, ".codex/hooks.json")).not.toBe(USER_HOOKS);
    const report = await uninstallProject({ root });
    expect(report.lines).toEqual([
      ".codex/hooks.json: removed tailtest hooks from: PreToolUse, PostToolUse, SessionStart, SubagentStart, UserPromptSubmit, Stop, SubagentStop, SessionEnd",
      ".tailtest/: left as it is (config and test history); delete it if unwanted",
    ]);
    expect(read(root, ".codex/hooks.json")).toBe(USER_HOOKS);
    expect(read(root, ".tailtest/config.json")).toBe('{\n  "mode": "tdd"\n}\n');
    expect(read(root, ".gitignore")).toBeUndefined();
  });

  it("a hooks.json init created goes again, and .codex/ with it when that leaves it empty", async () => {
    const { root } = project();
    await initProject({ root });
    const report = await uninstallProject({ root });
    expect(report.lines).toEqual([
      `.codex/hooks.json: removed tailtest hooks from: ${ALL}`,
      ".codex/hooks.json: deleted (it held nothing but tailtest's hooks)",
      ".codex/: removed (it was left empty)",
      ".tailtest/: left as it is (config and test history); delete it if unwanted",
    ]);
    expect(tree(root)).toEqual([".tailtest/", ".tailtest/.gitignore"]);
  });

  it("is idempotent: a second uninstall finds nothing and changes nothing", async () => {
    const { root } = project({ ".codex/hooks.json": USER_HOOKS, ".codex/config.toml": USER_TOML });
    await initProject({ root });
    await uninstallProject({ root });
    const report = await uninstallProject({ root });
    expect(report.lines).toEqual([
      ".codex/hooks.json: no tailtest hooks found",
      ".codex/config.toml [hooks]: no tailtest hooks found",
      ".tailtest/: left as it is (config and test history); delete it if unwanted",
    ]);
    expect(read(root, ".codex/hooks.json")).toBe(USER_HOOKS);
    expect(read(root, ".codex/config.toml")).toBe(USER_TOML);
  });

  it("says so when there is nothing to remove", async () => {
    const { root } = project();
    expect((await uninstallProject({ root })).lines).toEqual([
      ".codex/hooks.json: not found, nothing to remove",
    ]);
    expect(tree(root)).toEqual([]);
  });

  it("refuses hooks.json that is not JSON", async () => {
    const { root } = project({ ".codex/hooks.json": "nope" });
    await expect(uninstallProject({ root })).rejects.toThrow(/is not valid JSON/);
    expect(read(root, ".codex/hooks.json")).toBe("nope");
  });

  it("refuses, and writes nothing, when toml-patch would lose other entries taking tailtest's out", async () => {
    const original = `[hooks]
[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "./lint.sh"

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = ${JSON.stringify(hookCommand("Stop"))}
timeout = 600
`;
    const { root } = project({ ".codex/config.toml": original, ".codex/hooks.json": USER_HOOKS });
    await expect(uninstallProject({ root })).rejects.toThrow(
      /^\.codex\/config\.toml came out of toml-patch with other entries changed; take tailtest's entries \(@tailtest\/codex\/dist\/hook\.cjs\) out by hand, nothing was changed$/,
    );
    expect(read(root, ".codex/config.toml")).toBe(original);
    expect(read(root, ".codex/hooks.json")).toBe(USER_HOOKS);
  });
});
