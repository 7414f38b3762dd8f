import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import {
  addTailtestHooks,
  hasChanges,
  parseSettings,
  PLUGIN_HOOK_COMMAND,
  PROJECT_HOOK_COMMAND,
  removeTailtestHooks,
  renderHooks,
  renderPluginHooksFile,
  TAILTEST_HOOKS,
  type Settings,
} from "./install.ts";

const PACKAGE_DIR = join(REPO_ROOT, "adapters/claude-code");
const OLD_COMMAND = "npx --yes node_modules/@tailtest/claude-code/dist/hook.js --old";
const PRETTIER = { type: "command", command: "npx prettier --write", timeout: 10 };
const LINT = { type: "command", command: "./lint.sh" };
const EDIT_MATCHER = "Write|Edit|MultiEdit|NotebookEdit";

const ours = (timeout: number) => ({ type: "command", command: PROJECT_HOOK_COMMAND, timeout });
const ALL_EVENTS = TAILTEST_HOOKS.map((registration) => registration.event);

/** Order matters in a file people read: compare the serialised form, not just the values. */
function expectSameJson(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe("PROJECT_HOOK_COMMAND", () => {
  it("runs the installed hook with node through $CLAUDE_PROJECT_DIR, never npx or an absolute path", () => {
    expect(PROJECT_HOOK_COMMAND).toBe(
      'node "$CLAUDE_PROJECT_DIR/node_modules/@tailtest/claude-code/dist/hook.js"',
    );
  });
});

describe("TAILTEST_HOOKS", () => {
  it("registers the five events, with a long timeout only where tests run", () => {
    expect(
      TAILTEST_HOOKS.map(({ event, matcher, timeout }) => [event, matcher ?? null, timeout]),
    ).toEqual([
      ["SessionStart", "startup|resume|clear|compact", 30],
      ["PostToolUse", EDIT_MATCHER, 30],
      ["Stop", null, 600],
      ["SubagentStop", null, 600],
      ["SessionEnd", null, 30],
    ]);
  });
});

// Settings without any tailtest entry: init must add, and uninstall must give these back.
const ORIGINALS: ReadonlyArray<{ name: string; settings: Settings }> = [
  { name: "empty", settings: {} },
  {
    name: "other settings only",
    settings: { model: "opus", permissions: { allow: ["Bash(pytest:*)"] }, env: { A: "1" } },
  },
  {
    name: "another tool in the same event and matcher",
    settings: { hooks: { PostToolUse: [{ matcher: EDIT_MATCHER, hooks: [PRETTIER] }] } },
  },
  {
    name: "other events, no matcher and unknown keys",
    settings: {
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      hooks: {
        Stop: [{ hooks: [LINT], future: true }],
        PreToolUse: [{ matcher: "Bash", hooks: [{ ...LINT, if: "Bash(git *)" }] }],
        Notification: [],
      },
      disableAllHooks: false,
    },
  },
];

describe("addTailtestHooks on settings without tailtest", () => {
  it.each(ORIGINALS)("$name: adds every event and keeps everything else", ({ settings }) => {
    const before = structuredClone(settings);
    const change = addTailtestHooks(settings);
    expect(change.added).toEqual(ALL_EVENTS);
    expect(change.updated).toEqual([]);
    expect(change.removed).toEqual([]);
    expect(settings, "the input is not mutated").toEqual(before);

    const { hooks: newHooks, ...rest } = change.settings;
    const { hooks: oldHooks = {}, ...oldRest } = settings;
    expectSameJson(rest, oldRest);
    for (const [event, groups] of Object.entries(oldHooks)) {
      expect(newHooks?.[event]?.slice(0, groups.length), event).toEqual(groups);
    }
    for (const registration of TAILTEST_HOOKS) {
      const group = newHooks?.[registration.event]?.at(-1);
      expect(group).toEqual({
        ...(registration.matcher === undefined ? {} : { matcher: registration.matcher }),
        hooks: [ours(registration.timeout)],
      });
    }
  });

  it.each(ORIGINALS)("$name: a second run changes nothing", ({ settings }) => {
    const once = addTailtestHooks(settings).settings;
    const twice = addTailtestHooks(once);
    expect(hasChanges(twice)).toBe(false);
    expectSameJson(twice.settings, once);
  });

  it.each(ORIGINALS)("$name: uninstall gives back the original object", ({ settings }) => {
    const installed = addTailtestHooks(settings).settings;
    const removed = removeTailtestHooks(installed);
    expect([...removed.removed].sort()).toEqual([...ALL_EVENTS].sort());
    expectSameJson(removed.settings, settings);
  });

  it("writes the empty project's hooks in table order", () => {
    expectSameJson(addTailtestHooks({}).settings, { hooks: renderHooks(PROJECT_HOOK_COMMAND) });
  });
});

describe("addTailtestHooks on settings with earlier tailtest entries", () => {
  const cases: ReadonlyArray<{
    name: string;
    settings: Settings;
    expectedPostToolUse: unknown;
    updated: string[];
    removed: string[];
    added: string[];
  }> = [
    {
      name: "an old command in a shared group is replaced where it stands",
      settings: {
        hooks: {
          PostToolUse: [
            { matcher: EDIT_MATCHER, hooks: [{ type: "command", command: OLD_COMMAND }, PRETTIER] },
          ],
        },
      },
      expectedPostToolUse: [{ matcher: EDIT_MATCHER, hooks: [ours(30), PRETTIER] }],
      updated: ["PostToolUse"],
      removed: [],
      added: ALL_EVENTS.filter((event) => event !== "PostToolUse"),
    },
    {
      name: "an entry under an old matcher moves to a group of its own",
      settings: {
        hooks: {
          PostToolUse: [
            { matcher: "Write|Edit", hooks: [{ type: "command", command: OLD_COMMAND }] },
            { matcher: "Write|Edit", hooks: [PRETTIER, { type: "command", command: OLD_COMMAND }] },
          ],
        },
      },
      expectedPostToolUse: [
        { matcher: "Write|Edit", hooks: [PRETTIER] },
        { matcher: EDIT_MATCHER, hooks: [ours(30)] },
      ],
      updated: [],
      removed: ["PostToolUse"],
      added: ALL_EVENTS,
    },
    {
      name: "duplicates collapse to one entry",
      settings: {
        hooks: {
          PostToolUse: [
            { matcher: EDIT_MATCHER, hooks: [ours(30)] },
            { matcher: EDIT_MATCHER, hooks: [ours(30), PRETTIER] },
          ],
        },
      },
      expectedPostToolUse: [
        { matcher: EDIT_MATCHER, hooks: [ours(30)] },
        { matcher: EDIT_MATCHER, hooks: [PRETTIER] },
      ],
      updated: [],
      removed: ["PostToolUse"],
      added: ALL_EVENTS.filter((event) => event !== "PostToolUse"),
    },
  ];

  it.each(cases)("$name", ({ settings, expectedPostToolUse, updated, removed, added }) => {
    const change = addTailtestHooks(settings);
    expect(change.settings.hooks?.["PostToolUse"]).toEqual(expectedPostToolUse);
    expect(change.updated).toEqual(updated);
    expect(change.removed).toEqual(removed);
    expect(change.added).toEqual(added);
    expect(hasChanges(addTailtestHooks(change.settings))).toBe(false);
  });

  it("drops tailtest from an event it no longer uses, and the event if that empties it", () => {
    const settings: Settings = {
      hooks: {
        PreToolUse: [{ matcher: "Write", hooks: [ours(30)] }],
        UserPromptSubmit: [{ hooks: [ours(30)] }, { hooks: [LINT] }],
      },
    };
    const change = addTailtestHooks(settings);
    expect(change.removed).toEqual(["PreToolUse", "UserPromptSubmit"]);
    expect(change.settings.hooks?.["PreToolUse"]).toBeUndefined();
    expect(change.settings.hooks?.["UserPromptSubmit"]).toEqual([{ hooks: [LINT] }]);
  });

  it("treats a matcher of * like no matcher", () => {
    const settings: Settings = { hooks: { Stop: [{ matcher: "*", hooks: [ours(600)] }] } };
    const change = addTailtestHooks(settings);
    expect(change.added).not.toContain("Stop");
    expect(change.settings.hooks?.["Stop"]).toEqual([{ matcher: "*", hooks: [ours(600)] }]);
  });
});

describe("removeTailtestHooks", () => {
  it("keeps other tools' entries in a shared group", () => {
    const settings: Settings = {
      hooks: { PostToolUse: [{ matcher: EDIT_MATCHER, hooks: [PRETTIER, ours(30)] }] },
    };
    expect(removeTailtestHooks(settings).settings).toEqual({
      hooks: { PostToolUse: [{ matcher: EDIT_MATCHER, hooks: [PRETTIER] }] },
    });
  });

  it.each(ORIGINALS)("$name: without tailtest entries it changes nothing", ({ settings }) => {
    const change = removeTailtestHooks(settings);
    expect(hasChanges(change)).toBe(false);
    expect(change.settings).toBe(settings);
  });
});

describe("parseSettings", () => {
  it.each([
    { text: undefined, value: {} },
    { text: "", value: {} },
    { text: " \n", value: {} },
    { text: '{"model":"opus","hooks":{}}', value: { model: "opus", hooks: {} } },
  ])("reads $text", ({ text, value }) => {
    expect(parseSettings(text)).toEqual({ ok: true, value });
  });

  it("keeps the file's key order", () => {
    const parsed = parseSettings('{"z":1,"hooks":{"Stop":[{"hooks":[],"x":1}]},"a":2}');
    expect(parsed.ok && JSON.stringify(parsed.value)).toBe(
      '{"z":1,"hooks":{"Stop":[{"hooks":[],"x":1}]},"a":2}',
    );
  });

  it.each([
    { text: "{", error: /^is not valid JSON \(.+\)$/ },
    { text: '{"hooks": {}} // mine', error: /^is not valid JSON/ },
    { text: "[]", error: /^is not a JSON object$/ },
    { text: "null", error: /^is not a JSON object$/ },
    { text: '{"hooks": []}', error: /^has an unexpected shape at hooks \(/ },
    { text: '{"hooks": {"Stop": {}}}', error: /at hooks\.Stop \(/ },
    { text: '{"hooks": {"Stop": [{"hooks": "x"}]}}', error: /at hooks\.Stop\[0\]\.hooks \(/ },
    { text: '{"hooks": {"Stop": [{"hooks": [{"command": 1}]}]}}', error: /hooks\[0\]\.command/ },
  ])("refuses $text in one line", ({ text, error }) => {
    const parsed = parseSettings(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toMatch(error);
      expect(parsed.error).not.toContain("\n");
    }
  });
});

describe("the plugin", () => {
  const hooksFile = readFileSync(join(PACKAGE_DIR, "plugin/hooks/hooks.json"), "utf8");

  it("checked-in hooks/hooks.json is what the table renders", () => {
    expectSameJson(JSON.parse(hooksFile), JSON.parse(renderPluginHooksFile()));
  });

  it("has the same events, matchers and timeouts as init writes, with the plugin's command", () => {
    const plugin = JSON.parse(hooksFile) as { hooks: Record<string, unknown> };
    const init = JSON.stringify(addTailtestHooks({}).settings.hooks);
    expect(JSON.stringify(plugin.hooks)).toBe(
      init.replaceAll(JSON.stringify(PROJECT_HOOK_COMMAND), JSON.stringify(PLUGIN_HOOK_COMMAND)),
    );
    // The plugin is copied into Claude Code's cache: its hook may not reach outside its folder.
    expect(PLUGIN_HOOK_COMMAND).toBe('node "${CLAUDE_PLUGIN_ROOT}/dist/hook.js"');
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
