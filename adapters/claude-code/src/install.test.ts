import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "@tailtest/test-utils";
import { hasHookChanges } from "@tailtest/core";
import { describe, expect, it } from "vitest";
import {
  addTailtestHooks,
  isTailtestHandler,
  parseSettings,
  pluginHookCommand,
  PRE_TOOL_MATCHER,
  projectHookCommand,
  removeTailtestHooks,
  renderHooks,
  renderPluginHooksFile,
  TAILTEST_HOOKS,
  type Settings,
} from "./install.ts";

const PACKAGE_DIR = join(REPO_ROOT, "adapters/claude-code");
const OLD_COMMAND = "npx --yes node_modules/@tailtest/claude-code/dist/hook.cjs --old";
const PRETTIER = { type: "command", command: "npx prettier --write", timeout: 10 };
const LINT = { type: "command", command: "./lint.sh" };
const EDIT_MATCHER = "Write|Edit|MultiEdit|NotebookEdit";
const POST_MATCHER = "Write|Edit|MultiEdit|NotebookEdit|Bash";

const ours = (timeout: number) => ({
  type: "command",
  command: projectHookCommand("PostToolUse"),
  timeout,
});
const ALL_EVENTS = TAILTEST_HOOKS.map((registration) => registration.event);

/** Order matters in a file people read: compare the serialised form, not just the values. */
function expectSameJson(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe("projectHookCommand", () => {
  it.each(TAILTEST_HOOKS.map((registration) => registration.event))(
    "%s: runs the installed hook with node through $CLAUDE_PROJECT_DIR, naming its event, never npx or an absolute path",
    (event) => {
      const command = projectHookCommand(event);
      expect(command).toMatch(
        /^command -v node >\/dev\/null 2>&1 \|\| \{[^']+; exit 0; \}; f="\$CLAUDE_PROJECT_DIR\/node_modules\/@tailtest\/claude-code\/dist\/hook\.cjs"; if \[ -f "\$f" \]; then exec (node[^"]*) "\$f" --event=([A-Za-z]+); fi; exec node -e '[^']+'$/,
      );
      expect(/ --event=([A-Za-z]+);/.exec(command)?.[1]).toBe(event);
      // Node's young generation sized for a call around a tool only (core's hookNodeFlags).
      expect(/; then exec (node[^"]*) "/.exec(command)?.[1]).toBe(
        ["PreToolUse", "PostToolUse", "PostToolUseFailure"].includes(event)
          ? "node --min-semi-space-size=2"
          : "node",
      );
      expect(command).not.toMatch(/npx|\/(home|root|tmp|work|Users)\//);
      // Only the gate reads the mode without node; only the session's start says the gate is off.
      expect(command.includes("config.json")).toBe(
        event === "PreToolUse" || event === "SessionStart",
      );
      expect(command.includes("exit 2")).toBe(event === "PreToolUse");
    },
  );
});

describe("TAILTEST_HOOKS", () => {
  it("registers the eight events, with a long timeout only where tests or a plan review run", () => {
    expect(
      TAILTEST_HOOKS.map(({ event, matcher, timeout }) => [event, matcher ?? null, timeout]),
    ).toEqual([
      ["SessionStart", "startup|resume|clear|compact", 30],
      ["PreToolUse", PRE_TOOL_MATCHER, 660],
      ["PostToolUse", POST_MATCHER, 660],
      ["PostToolUseFailure", "Bash", 660],
      ["SubagentStart", null, 30],
      ["Stop", null, 600],
      ["SubagentStop", null, 600],
      ["SessionEnd", null, 30],
    ]);
  });

  // Claude Code reads a matcher with any character beyond [A-Za-z0-9_|] as an unanchored
  // JavaScript regex (its hook protocol), so this is how it picks the tools.
  it.each([
    ["Write", true],
    ["Edit", true],
    ["MultiEdit", true],
    ["NotebookEdit", true],
    ["Bash", true],
    ["ExitPlanMode", true],
    ["mcp__filesystem__write_file", true],
    ["TodoWrite", false],
    ["BashOutput", false],
    ["KillBash", false],
    ["Read", false],
    ["EnterPlanMode", false],
  ])("the PreToolUse matcher selects %s: %s", (tool, selected) => {
    expect(new RegExp(PRE_TOOL_MATCHER).test(tool)).toBe(selected);
  });

  it("leaves plan review and test runs time to finish before Claude Code kills the hook", () => {
    const timeout = (event: string) =>
      TAILTEST_HOOKS.find((registration) => registration.event === event)?.timeout ?? 0;
    // tdd.plan_review.timeout_seconds is at most 600; test_timeout_seconds defaults to 300.
    expect(timeout("PreToolUse")).toBeGreaterThan(600);
    expect(timeout("PostToolUse")).toBeGreaterThan(600);
    expect(timeout("PostToolUseFailure")).toBeGreaterThan(600);
  });
});

// The merge itself is core's (packages/core/src/install/hook-groups.test.ts); these check the wiring:
// Claude Code's table, marker and command.
describe("install.ts on core's hook groups", () => {
  it("writes the empty project's hooks in table order, with the project command", () => {
    expectSameJson(addTailtestHooks({}).settings, { hooks: renderHooks(projectHookCommand) });
    expect(addTailtestHooks({}).added).toEqual(ALL_EVENTS);
  });

  it("init then uninstall gives back settings that hold other tools' hooks", () => {
    const settings: Settings = {
      model: "opus",
      hooks: {
        PostToolUse: [{ matcher: EDIT_MATCHER, hooks: [PRETTIER] }],
        Stop: [{ hooks: [LINT] }],
      },
    };
    const installed = addTailtestHooks(settings).settings;
    expect(installed.hooks?.["PostToolUse"]).toEqual([
      { matcher: EDIT_MATCHER, hooks: [PRETTIER] },
      { matcher: POST_MATCHER, hooks: [ours(660)] },
    ]);
    expect(hasHookChanges(addTailtestHooks(installed))).toBe(false);
    expectSameJson(removeTailtestHooks(installed).settings, settings);
  });

  it("recognises an earlier tailtest command by its marker and updates it where it stands", () => {
    const settings: Settings = {
      hooks: {
        PostToolUse: [
          { matcher: POST_MATCHER, hooks: [{ type: "command", command: OLD_COMMAND }, PRETTIER] },
        ],
      },
    };
    const change = addTailtestHooks(settings);
    expect(change.updated).toEqual(["PostToolUse"]);
    expect(change.settings.hooks?.["PostToolUse"]).toEqual([
      { matcher: POST_MATCHER, hooks: [ours(660), PRETTIER] },
    ]);
    expect(isTailtestHandler({ command: OLD_COMMAND })).toBe(true);
    expect(isTailtestHandler({ command: "node node_modules/@tailtest/codex/dist/hook.cjs" })).toBe(
      false,
    );
  });

  it("a command from before the hook's node flags is updated to carry them on init", () => {
    const current = projectHookCommand("PostToolUse");
    const before = current.replace("exec node --min-semi-space-size=2 ", "exec node ");
    expect(before).not.toBe(current);
    const settings: Settings = {
      hooks: {
        PostToolUse: [
          { matcher: POST_MATCHER, hooks: [{ type: "command", command: before, timeout: 660 }] },
        ],
      },
    };
    const change = addTailtestHooks(settings);
    expect(change.updated).toEqual(["PostToolUse"]);
    expect(change.settings.hooks?.["PostToolUse"]).toEqual([
      { matcher: POST_MATCHER, hooks: [ours(660)] },
    ]);
    expect(ours(660).command).toBe(current);
  });

  it("an install from before tdd mode (PostToolUse on edits only, 30 s) moves to the new matcher", () => {
    const before: Settings = {
      hooks: {
        PostToolUse: [
          { matcher: EDIT_MATCHER, hooks: [PRETTIER, { type: "command", command: OLD_COMMAND }] },
        ],
      },
    };
    const change = addTailtestHooks(before);
    expect(change.settings.hooks?.["PostToolUse"]).toEqual([
      { matcher: EDIT_MATCHER, hooks: [PRETTIER] },
      { matcher: POST_MATCHER, hooks: [ours(660)] },
    ]);
    expect(change.added).toEqual(ALL_EVENTS);
    expect(change.removed).toEqual(["PostToolUse"]);
    expect(hasHookChanges(addTailtestHooks(change.settings))).toBe(false);
  });

  it("parseSettings reads settings.json and refuses what is not JSON in one line", () => {
    expect(parseSettings(undefined)).toEqual({ ok: true, value: {} });
    expect(parseSettings('{"hooks": []}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^has an unexpected shape at hooks \(/) as unknown,
    });
  });
});

describe("the plugin", () => {
  const hooksFile = readFileSync(join(PACKAGE_DIR, "plugin/hooks/hooks.json"), "utf8");

  it("checked-in hooks/hooks.json is what the table renders", () => {
    expectSameJson(JSON.parse(hooksFile), JSON.parse(renderPluginHooksFile()));
  });

  it("has the same events, matchers and timeouts as init writes, with the plugin's command", () => {
    const plugin = JSON.parse(hooksFile) as { hooks: Record<string, unknown> };
    let init = JSON.stringify(addTailtestHooks({}).settings.hooks);
    for (const { event } of TAILTEST_HOOKS)
      init = init.replaceAll(
        JSON.stringify(projectHookCommand(event)),
        JSON.stringify(pluginHookCommand(event)),
      );
    expect(JSON.stringify(plugin.hooks)).toBe(init);
    // The plugin is copied into Claude Code's cache: its hook may not reach outside its folder.
    for (const { event } of TAILTEST_HOOKS)
      expect(pluginHookCommand(event)).toMatch(
        new RegExp(
          `^command -v node >/dev/null 2>&1 \\|\\| \\{[^']+; exit 0; \\}; exec node( --min-semi-space-size=2)? "\\$\\{CLAUDE_PLUGIN_ROOT\\}/dist/hook\\.cjs" --event=${event}$`,
        ),
      );
  });

  it("plugin.json is named tailtest and carries the package's version", () => {
    const manifest = JSON.parse(
      readFileSync(join(PACKAGE_DIR, "plugin/.claude-plugin/plugin.json"), "utf8"),
    ) as { name: string; version: string; description: string };
    const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as {
      version: string;
    };
    expect(manifest.name).toBe("tailtest");
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.description).not.toBe("");
  });
});
