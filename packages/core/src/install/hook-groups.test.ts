import { describe, expect, it } from "vitest";
import {
  addHookEntries,
  checkHookSettings,
  hasHookChanges,
  parseHookSettings,
  removeHookEntries,
  renderHookGroups,
  type HookRegistration,
  type HookSettings,
  type HookSpec,
} from "./hook-groups.ts";

/** A table shaped like Claude Code's; Codex's differs only in events, matchers and command. */
const TABLE: readonly HookRegistration[] = [
  { event: "SessionStart", matcher: "startup|resume|clear|compact", timeout: 30 },
  { event: "PostToolUse", matcher: "Write|Edit|MultiEdit|NotebookEdit", timeout: 30 },
  { event: "Stop", timeout: 600 },
  { event: "SubagentStop", timeout: 600 },
  { event: "SessionEnd", timeout: 30 },
];
const MARKER = "@tailtest/claude-code/dist/hook.cjs";
const COMMAND = `node "$CLAUDE_PROJECT_DIR/node_modules/${MARKER}"`;
const SPEC: HookSpec = { registrations: TABLE, marker: MARKER, command: COMMAND };
const add = (settings: HookSettings) => addHookEntries(settings, SPEC);
const remove = (settings: HookSettings) => removeHookEntries(settings, MARKER);

const OLD_COMMAND = "npx --yes node_modules/@tailtest/claude-code/dist/hook.cjs --old";
const PRETTIER = { type: "command", command: "npx prettier --write", timeout: 10 };
const LINT = { type: "command", command: "./lint.sh" };
const EDIT_MATCHER = "Write|Edit|MultiEdit|NotebookEdit";

const ours = (timeout: number) => ({ type: "command", command: COMMAND, timeout });
const ALL_EVENTS = TABLE.map((registration) => registration.event);

/** Order matters in a file people read: compare the serialised form, not just the values. */
function expectSameJson(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

// Settings without any tailtest entry: init must add, and uninstall must give these back.
const ORIGINALS: ReadonlyArray<{ name: string; settings: HookSettings }> = [
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

describe("addHookEntries on settings without marked entries", () => {
  it.each(ORIGINALS)("$name: adds every event and keeps everything else", ({ settings }) => {
    const before = structuredClone(settings);
    const change = add(settings);
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
    for (const registration of TABLE) {
      const group = newHooks?.[registration.event]?.at(-1);
      expect(group).toEqual({
        ...(registration.matcher === undefined ? {} : { matcher: registration.matcher }),
        hooks: [ours(registration.timeout)],
      });
    }
  });

  it.each(ORIGINALS)("$name: a second run changes nothing", ({ settings }) => {
    const once = add(settings).settings;
    const twice = add(once);
    expect(hasHookChanges(twice)).toBe(false);
    expectSameJson(twice.settings, once);
  });

  it.each(ORIGINALS)("$name: uninstall gives back the original object", ({ settings }) => {
    const installed = add(settings).settings;
    const removed = remove(installed);
    expect([...removed.removed].sort()).toEqual([...ALL_EVENTS].sort());
    expectSameJson(removed.settings, settings);
  });

  it("writes the empty project's hooks in table order", () => {
    expectSameJson(add({}).settings, { hooks: renderHookGroups(TABLE, COMMAND) });
  });
});

describe("addHookEntries on settings with earlier marked entries", () => {
  const cases: ReadonlyArray<{
    name: string;
    settings: HookSettings;
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
    const change = add(settings);
    expect(change.settings.hooks?.["PostToolUse"]).toEqual(expectedPostToolUse);
    expect(change.updated).toEqual(updated);
    expect(change.removed).toEqual(removed);
    expect(change.added).toEqual(added);
    expect(hasHookChanges(add(change.settings))).toBe(false);
  });

  it("drops tailtest from an event it no longer uses, and the event if that empties it", () => {
    const settings: HookSettings = {
      hooks: {
        PreToolUse: [{ matcher: "Write", hooks: [ours(30)] }],
        UserPromptSubmit: [{ hooks: [ours(30)] }, { hooks: [LINT] }],
      },
    };
    const change = add(settings);
    expect(change.removed).toEqual(["PreToolUse", "UserPromptSubmit"]);
    expect(change.settings.hooks?.["PreToolUse"]).toBeUndefined();
    expect(change.settings.hooks?.["UserPromptSubmit"]).toEqual([{ hooks: [LINT] }]);
  });

  it("treats a matcher of * like no matcher", () => {
    const settings: HookSettings = { hooks: { Stop: [{ matcher: "*", hooks: [ours(600)] }] } };
    const change = add(settings);
    expect(change.added).not.toContain("Stop");
    expect(change.settings.hooks?.["Stop"]).toEqual([{ matcher: "*", hooks: [ours(600)] }]);
  });
});

describe("removeHookEntries", () => {
  it("keeps other tools' entries in a shared group", () => {
    const settings: HookSettings = {
      hooks: { PostToolUse: [{ matcher: EDIT_MATCHER, hooks: [PRETTIER, ours(30)] }] },
    };
    expect(remove(settings).settings).toEqual({
      hooks: { PostToolUse: [{ matcher: EDIT_MATCHER, hooks: [PRETTIER] }] },
    });
  });

  it.each(ORIGINALS)("$name: without tailtest entries it changes nothing", ({ settings }) => {
    const change = remove(settings);
    expect(hasHookChanges(change)).toBe(false);
    expect(change.settings).toBe(settings);
  });
});

describe("parseHookSettings", () => {
  it.each([
    { text: undefined, value: {} },
    { text: "", value: {} },
    { text: " \n", value: {} },
    { text: '{"model":"opus","hooks":{}}', value: { model: "opus", hooks: {} } },
  ])("reads $text", ({ text, value }) => {
    expect(parseHookSettings(text)).toEqual({ ok: true, value });
  });

  it("keeps the file's key order", () => {
    const parsed = parseHookSettings('{"z":1,"hooks":{"Stop":[{"hooks":[],"x":1}]},"a":2}');
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
    const parsed = parseHookSettings(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toMatch(error);
      expect(parsed.error).not.toContain("\n");
    }
  });
});

describe("the spec's parameters", () => {
  it("another platform's marker and command leave these entries alone", () => {
    const installed = add({}).settings;
    const other: HookSpec = {
      registrations: [{ event: "Stop", timeout: 5 }],
      marker: "@tailtest/codex/dist/hook.cjs",
      command: "sh -c 'node @tailtest/codex/dist/hook.cjs'",
    };
    const both = addHookEntries(installed, other);
    expect(both.added).toEqual(["Stop"]);
    expect(both.removed).toEqual([]);
    expect(both.settings.hooks?.["Stop"]).toEqual([
      { hooks: [ours(600)] },
      { hooks: [{ type: "command", command: other.command, timeout: 5 }] },
    ]);
    expectSameJson(removeHookEntries(both.settings, other.marker).settings, installed);
    expect(remove(both.settings).settings).toEqual({
      hooks: { Stop: [{ hooks: [{ type: "command", command: other.command, timeout: 5 }] }] },
    });
  });

  it("a changed command counts as an update, in place", () => {
    const installed = add({}).settings;
    const change = addHookEntries(installed, { ...SPEC, command: `${COMMAND} --new` });
    expect(change.updated).toEqual(ALL_EVENTS);
    expect(change.added).toEqual([]);
    expect(Object.keys(change.settings.hooks ?? {})).toEqual(ALL_EVENTS);
  });

  it("keepEmptyHooks leaves an emptied hooks object in place", () => {
    const installed = add({ hooks: {} }).settings;
    expectSameJson(removeHookEntries(installed, MARKER, { keepEmptyHooks: true }).settings, {
      hooks: {},
    });
    expectSameJson(remove(installed).settings, {});
  });
});

describe("checkHookSettings", () => {
  it("checks an object parsed elsewhere (TOML) and hands back the same object", () => {
    const value = { hooks: { Stop: [{ hooks: [LINT] }] }, model: "x" };
    const checked = checkHookSettings(value);
    expect(checked.ok && checked.value).toBe(value);
    expect(checkHookSettings({ hooks: { Stop: [{ hooks: {} }] } })).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^has an unexpected shape at hooks\.Stop\[0\]\.hooks \(/,
      ) as unknown,
    });
  });
});
