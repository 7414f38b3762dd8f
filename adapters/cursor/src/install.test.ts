import { hasHookChanges } from "@tailtest/core";
import { describe, expect, it } from "vitest";
import {
  addTailtestHooks,
  CURSOR_EVENTS,
  hookCommand,
  parseHooksFile,
  removeTailtestHooks,
  renderHooks,
  runsTailtest,
  TAILTEST_HOOKS,
  unknownEvents,
  type HooksFile,
} from "./install.ts";

const OLD_COMMAND = "npx --yes node_modules/@tailtest/cursor/dist/hook.cjs --old";
const FORMAT = { command: "npx prettier --write", timeout: 10 };
const AUDIT = { command: ".cursor/hooks/audit.sh" };
const GUARD = { command: "./guard.sh", matcher: "rm -rf", failClosed: true };

const ALL_EVENTS = TAILTEST_HOOKS.map((registration) => registration.event);
const ours = (event: string) => renderHooks()[event]?.[0];

/** Order matters in a file people read: compare the serialised form, not just the values. */
function expectSameJson(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe("hookCommand", () => {
  it.each(TAILTEST_HOOKS.map((registration) => registration.event))(
    "%s: runs the installed hook with node through CURSOR_PROJECT_DIR (or the workspace root), naming its event, never npx or an absolute path",
    (event) => {
      const command = hookCommand(event);
      expect(command).toMatch(
        /^command -v node >\/dev\/null 2>&1 \|\| \{[^']+; exit 0; \}; f="\$\{CURSOR_PROJECT_DIR:-\.\}\/node_modules\/@tailtest\/cursor\/dist\/hook\.cjs"; if \[ -f "\$f" \]; then exec (node[^"]*) "\$f" --event=[A-Za-z]+; fi; exec node -e '[^']+'$/,
      );
      expect(command).toContain(` --event=${event};`);
      // Node's young generation sized for a call around a tool only (core's hookNodeFlags).
      expect(/; then exec (node[^"]*) "/.exec(command)?.[1]).toBe(
        ["preToolUse", "postToolUse", "afterFileEdit"].includes(event)
          ? "node --min-semi-space-size=2"
          : "node",
      );
      expect(command).not.toMatch(/npx|\/(home|root|tmp|work|Users)\//);
      expect(command.includes("exit 2")).toBe(event === "preToolUse");
    },
  );
});

describe("CURSOR_EVENTS", () => {
  it("holds the 21 event names of its hook protocol, each once, all camelCase", () => {
    expect(CURSOR_EVENTS).toHaveLength(21);
    expect(new Set(CURSOR_EVENTS).size).toBe(21);
    for (const event of CURSOR_EVENTS) expect(event).toMatch(/^[a-z][A-Za-z]+$/);
    for (const event of ["Stop", "PostToolUse", "subagentEnd", "afterEdit"]) {
      expect(CURSOR_EVENTS as readonly string[]).not.toContain(event);
    }
  });
});

describe("TAILTEST_HOOKS", () => {
  it("registers the eight events, a long timeout only where tests run, and a finite loop_limit on stop and subagentStop", () => {
    expect(
      TAILTEST_HOOKS.map(({ event, matcher, timeout, loop_limit }) => [
        event,
        matcher ?? null,
        timeout,
        loop_limit ?? null,
      ]),
    ).toEqual([
      ["sessionStart", null, 30, null],
      ["preToolUse", "^(Write|Delete|Shell|MCP:.*)$", 30, null],
      ["postToolUse", "^(Write|Delete|Shell)$", 660, null],
      ["afterFileEdit", null, 30, null],
      ["subagentStart", null, 30, null],
      ["subagentStop", null, 600, 3],
      ["stop", null, 600, 3],
      ["sessionEnd", null, 30, null],
    ]);
    // One unknown name and Cursor ignores the whole file.
    for (const { event } of TAILTEST_HOOKS) expect(CURSOR_EVENTS).toContain(event);
    expect(unknownEvents(addTailtestHooks({}).file)).toEqual([]);
  });

  it("postToolUse outlasts a measured test re-run at the default test_timeout_seconds (300)", () => {
    const post = TAILTEST_HOOKS.find(({ event }) => event === "postToolUse");
    expect(post?.timeout).toBeGreaterThan(300 * 2);
  });

  it.each([
    ["postToolUse", ["Write", "Delete", "Shell"], ["MCP:Write"]],
    // The gate sees MCP tools too: one that writes a path is judged as an edit.
    ["preToolUse", ["Write", "Delete", "Shell", "MCP:Write", "MCP:write_file"], []],
  ])(
    "the %s matcher takes its tools and no other (Cursor tests it unanchored)",
    (event, taken, refused) => {
      const registration = TAILTEST_HOOKS.find((entry) => entry.event === event);
      const matcher = new RegExp(registration?.matcher ?? "");
      expect(taken.filter((tool) => matcher.test(tool))).toEqual(taken);
      for (const tool of [...refused, "Read", "WriteFile", "ShellTool", "Grep", "Task", "xMCP:a"]) {
        expect(matcher.test(tool), tool).toBe(false);
      }
    },
  );

  it("renders each entry as {command, timeout, matcher?, loop_limit?} and nothing else", () => {
    expectSameJson(renderHooks(), {
      sessionStart: [{ command: hookCommand("sessionStart"), timeout: 30 }],
      preToolUse: [
        {
          command: hookCommand("preToolUse"),
          timeout: 30,
          matcher: "^(Write|Delete|Shell|MCP:.*)$",
        },
      ],
      postToolUse: [
        { command: hookCommand("postToolUse"), timeout: 660, matcher: "^(Write|Delete|Shell)$" },
      ],
      afterFileEdit: [{ command: hookCommand("afterFileEdit"), timeout: 30 }],
      subagentStart: [{ command: hookCommand("subagentStart"), timeout: 30 }],
      subagentStop: [{ command: hookCommand("subagentStop"), timeout: 600, loop_limit: 3 }],
      stop: [{ command: hookCommand("stop"), timeout: 600, loop_limit: 3 }],
      sessionEnd: [{ command: hookCommand("sessionEnd"), timeout: 30 }],
    });
  });
});

// Files without any tailtest entry: init must add, and uninstall must give these back.
const ORIGINALS: ReadonlyArray<{ name: string; file: HooksFile }> = [
  { name: "a bare version", file: { version: 1 } },
  {
    name: "another tool on the same events",
    file: { version: 1, hooks: { afterFileEdit: [FORMAT], stop: [AUDIT] } },
  },
  {
    name: "other events, unknown keys and an empty event",
    file: {
      version: 2,
      $comment: "team hooks",
      hooks: {
        beforeShellExecution: [GUARD],
        postToolUse: [{ ...FORMAT, matcher: "Write" }],
        preCompact: [],
      },
      extra: { keep: true },
    },
  },
];

describe("addTailtestHooks on files without tailtest", () => {
  it.each(ORIGINALS)("$name: adds every event and keeps everything else", ({ file }) => {
    const before = structuredClone(file);
    const change = addTailtestHooks(file);
    expect(change.added).toEqual(ALL_EVENTS);
    expect(change.updated).toEqual([]);
    expect(change.removed).toEqual([]);
    expect(change.versionAdded).toBe(false);
    expect(file, "the input is not mutated").toEqual(before);

    const { hooks: newHooks, ...rest } = change.file;
    const { hooks: oldHooks = {}, ...oldRest } = file;
    expectSameJson(rest, oldRest);
    expect(Object.keys(newHooks ?? {}).slice(0, Object.keys(oldHooks).length)).toEqual(
      Object.keys(oldHooks),
    );
    for (const [event, handlers] of Object.entries(oldHooks)) {
      expect(newHooks?.[event]?.slice(0, handlers.length), event).toEqual(handlers);
    }
    for (const { event } of TAILTEST_HOOKS) {
      expect(newHooks?.[event]?.at(-1), event).toEqual(ours(event));
    }
  });

  it.each(ORIGINALS)("$name: a second run changes nothing", ({ file }) => {
    const once = addTailtestHooks(file).file;
    const twice = addTailtestHooks(once);
    expect(hasHookChanges(twice)).toBe(false);
    expectSameJson(twice.file, once);
  });

  it.each(ORIGINALS)("$name: uninstall gives back the original object", ({ file }) => {
    const installed = addTailtestHooks(file).file;
    const removed = removeTailtestHooks(installed);
    expect([...removed.removed].sort()).toEqual([...ALL_EVENTS].sort());
    expectSameJson(removed.file, file);
  });

  it("writes a new file as version 1 and the table, in order", () => {
    const change = addTailtestHooks({});
    expect(change.versionAdded).toBe(true);
    expectSameJson(change.file, { version: 1, hooks: renderHooks() });
  });

  it("puts version 1 first in a file that has hooks but no version (Cursor needs one)", () => {
    const change = addTailtestHooks({ hooks: { stop: [AUDIT] } });
    expect(change.versionAdded).toBe(true);
    expect(Object.keys(change.file)).toEqual(["version", "hooks"]);
    expect(change.file.hooks?.["stop"]).toEqual([AUDIT, ours("stop")]);
    expect(hasHookChanges(addTailtestHooks(change.file))).toBe(false);
  });
});

describe("addTailtestHooks on files with earlier tailtest entries", () => {
  it("a stale entry (old command, timeout, matcher or loop_limit) is replaced where it stands", () => {
    const file: HooksFile = {
      version: 1,
      hooks: {
        postToolUse: [FORMAT, { command: OLD_COMMAND, matcher: "Write" }, AUDIT],
        stop: [{ command: hookCommand("stop"), timeout: 600, loop_limit: null }],
        sessionEnd: [{ command: hookCommand("sessionEnd"), timeout: 30, failClosed: true }],
      },
    };
    const change = addTailtestHooks(file);
    expect(change.updated).toEqual(["postToolUse", "stop", "sessionEnd"]);
    expect(change.added).toEqual([
      "sessionStart",
      "preToolUse",
      "afterFileEdit",
      "subagentStart",
      "subagentStop",
    ]);
    expect(change.removed).toEqual([]);
    expectSameJson(change.file.hooks?.["postToolUse"], [FORMAT, ours("postToolUse"), AUDIT]);
    expectSameJson(change.file.hooks?.["stop"], [ours("stop")]);
    expect(Object.keys(change.file.hooks ?? {})).toEqual([
      "postToolUse",
      "stop",
      "sessionEnd",
      "sessionStart",
      "preToolUse",
      "afterFileEdit",
      "subagentStart",
      "subagentStop",
    ]);
    expect(hasHookChanges(addTailtestHooks(change.file))).toBe(false);
  });

  it("duplicates collapse to the first", () => {
    const file: HooksFile = {
      version: 1,
      hooks: { afterFileEdit: [ours("afterFileEdit") ?? {}, FORMAT, { command: OLD_COMMAND }] },
    };
    const change = addTailtestHooks(file);
    expect(change.removed).toEqual(["afterFileEdit"]);
    expect(change.updated).toEqual([]);
    expectSameJson(change.file.hooks?.["afterFileEdit"], [ours("afterFileEdit"), FORMAT]);
  });

  it("drops tailtest from events it does not use (unknown ones too), and the event if that empties it", () => {
    const file: HooksFile = {
      version: 1,
      hooks: {
        beforeSubmitPrompt: [{ command: hookCommand("stop") }],
        Stop: [{ command: hookCommand("stop") }],
        beforeShellExecution: [{ command: hookCommand("stop") }, AUDIT],
      },
    };
    const change = addTailtestHooks(file);
    expect(change.removed).toEqual(["beforeSubmitPrompt", "Stop", "beforeShellExecution"]);
    expect(change.file.hooks?.["beforeSubmitPrompt"]).toBeUndefined();
    expect(change.file.hooks?.["Stop"]).toBeUndefined();
    expect(change.file.hooks?.["beforeShellExecution"]).toEqual([AUDIT]);
  });
});

describe("removeTailtestHooks", () => {
  it("keeps other tools' entries on a shared event and leaves version", () => {
    const file: HooksFile = { version: 1, hooks: { stop: [AUDIT, ours("stop") ?? {}] } };
    expectSameJson(removeTailtestHooks(file).file, { version: 1, hooks: { stop: [AUDIT] } });
  });

  it.each<HooksFile>([{}, { version: 1, hooks: {} }])(
    "takes hooks out when only tailtest's were in it, and keeps version (%j)",
    (file) => {
      const installed = addTailtestHooks(file).file;
      expectSameJson(removeTailtestHooks(installed).file, { version: 1 });
    },
  );

  it.each(ORIGINALS)("$name: without tailtest entries it changes nothing", ({ file }) => {
    const change = removeTailtestHooks(file);
    expect(hasHookChanges(change)).toBe(false);
    expect(change.file).toBe(file);
  });
});

describe("parseHooksFile", () => {
  it.each([
    { text: undefined, value: {} },
    { text: "", value: {} },
    { text: " \n", value: {} },
    { text: '{"version":1,"hooks":{}}', value: { version: 1, hooks: {} } },
    { text: '{"hooks":{"stop":[]}}', value: { hooks: { stop: [] } } },
    { text: '{"version":3}', value: { version: 3 } },
  ])("reads $text", ({ text, value }) => {
    expect(parseHooksFile(text)).toEqual({ ok: true, value });
  });

  it("keeps the file's key order", () => {
    const parsed = parseHooksFile('{"z":1,"hooks":{"stop":[{"x":1,"command":"a"}]},"version":1}');
    expect(parsed.ok && JSON.stringify(parsed.value)).toBe(
      '{"z":1,"hooks":{"stop":[{"x":1,"command":"a"}]},"version":1}',
    );
  });

  it.each([
    { text: "{", error: /^is not valid JSON \(.+\)$/ },
    { text: '{"version": 1} // mine', error: /^is not valid JSON/ },
    { text: "[]", error: /^is not a JSON object$/ },
    { text: "null", error: /^is not a JSON object$/ },
    { text: '{"version": 0}', error: /^has version 0, but Cursor needs a positive integer$/ },
    { text: '{"version": -1}', error: /^has version -1,/ },
    { text: '{"version": 1.5}', error: /^has version 1\.5,/ },
    { text: '{"version": "1"}', error: /^has version "1",/ },
    { text: '{"version": null}', error: /^has version null,/ },
    { text: '{"version": 1, "hooks": []}', error: /^has an unexpected shape at hooks \(/ },
    { text: '{"hooks": {"stop": {}}}', error: /at hooks\.stop \(/ },
    { text: '{"hooks": {"stop": ["x"]}}', error: /at hooks\.stop\[0\] \(/ },
    { text: '{"hooks": {"stop": [{"command": 1}]}}', error: /at hooks\.stop\[0\]\.command \(/ },
  ])("refuses $text in one line", ({ text, error }) => {
    const parsed = parseHooksFile(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toMatch(error);
      expect(parsed.error).not.toContain("\n");
    }
  });
});

describe("unknownEvents and runsTailtest", () => {
  it("names every event Cursor does not know, in file order", () => {
    expect(
      unknownEvents({ hooks: { Stop: [], stop: [], afterEdit: [], PostToolUse: [] } }),
    ).toEqual(["Stop", "afterEdit", "PostToolUse"]);
    expect(unknownEvents({ hooks: Object.fromEntries(CURSOR_EVENTS.map((e) => [e, []])) })).toEqual(
      [],
    );
    expect(unknownEvents({})).toEqual([]);
  });

  it("is true only for a file Cursor loads that registers tailtest", () => {
    const installed = addTailtestHooks({}).file;
    expect(runsTailtest(installed)).toBe(true);
    expect(runsTailtest({ version: 1, hooks: { stop: [AUDIT] } })).toBe(false);
    expect(runsTailtest({ version: 1, hooks: { ...installed.hooks, Stop: [AUDIT] } })).toBe(false);
    expect(runsTailtest({ version: 1, hooks: { stop: [{ command: OLD_COMMAND }] } })).toBe(true);
  });
});
