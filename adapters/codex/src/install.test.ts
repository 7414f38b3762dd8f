import { parse as parseToml } from "@decimalturn/toml-patch";
import {
  DEFAULT_CONFIG,
  hasHookChanges,
  renderHookGroups,
  type HookSettings,
} from "@tailtest/core";
import { describe, expect, it } from "vitest";
import {
  addCodexHooks,
  CODEX_HOOKS,
  hookCommand,
  HOOK_MARKER,
  hookScript,
  isEmptySettings,
  parseCodexConfig,
  parseHooksJson,
  planToml,
  removeCodexHooks,
  sameValue,
  tomlRoundTrips,
  type CodexConfig,
  type HookEventName,
  type TomlRequest,
} from "./install.ts";
import { PATCH_TOOL, SHELL_TOOL } from "./translate.ts";

const ALL_EVENTS = CODEX_HOOKS.map((registration) => registration.event);
const LINT = { type: "command", command: "./lint.sh", timeout: 10 };
const ours = (event: HookEventName, timeout: number) => ({
  type: "command",
  command: hookCommand(event),
  timeout,
});

function expectSameJson(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

function config(text: string): CodexConfig {
  const parsed = parseCodexConfig(text);
  if (!parsed.ok || parsed.value === undefined) throw new Error(`unreadable: ${text}`);
  return parsed.value;
}

function plan(text: string, request: TomlRequest): string {
  const planned = planToml(text, config(text), request);
  if (!planned.ok) throw new Error(planned.error);
  return planned.value.text;
}

const add = (text: string) => plan(text, { hooks: "add", enableFeatures: true });
const remove = (text: string) => plan(text, { hooks: "remove", enableFeatures: false });

describe("hookCommand", () => {
  it("is this exact string per event: Codex un-trusts a hook whose command changes, so it only changes on purpose", () => {
    const noNode = String.raw`command -v node >/dev/null 2>&1 || { echo "tailtest: node not found on the PATH agent hooks run with: its hooks do nothing until it is" >&2; exit 0; }`;
    expect(hookCommand("Stop")).toBe(
      `sh -c 'd=$PWD; while :; do f="$d/node_modules/@tailtest/codex/dist/hook.cjs"; if [ -f "$f" ]; then ${noNode}; exec node "$f" --event=Stop; fi; [ -n "$d" ] || break; d=\${d%/*}; done; echo "tailtest: @tailtest/codex is not installed here (npm i -D @tailtest/codex)" >&2'`,
    );
    const gateNoNode = String.raw`command -v node >/dev/null 2>&1 || { m=; for c in "$d/.tailtest/config.json" "$d/.tailtest/session.json" "$d/.tailtest/cursor-session.json" "$d/.cursor/hooks/state/tailtest.json"; do [ -r "$c" ] || continue; while IFS= read -r l || [ -n "$l" ]; do case $l in *\"mode\":\"tdd\"*|*\"mode\":\ \"tdd\"*|*\"mode\":\"strict\"*|*\"mode\":\ \"strict\"*) m=1;; esac; done < "$c"; done; if [ -n "$m" ]; then echo "tailtest: node not found on the PATH agent hooks run with, so tailtest cannot decide and blocks this call (tdd and strict fail closed)" >&2; exit 2; fi; echo "tailtest: node not found on the PATH agent hooks run with: its hooks do nothing until it is" >&2; exit 0; }`;
    expect(hookCommand("PreToolUse")).toBe(
      `sh -c 'd=$PWD; while :; do f="$d/node_modules/@tailtest/codex/dist/hook.cjs"; if [ -f "$f" ]; then ${gateNoNode}; exec node --min-semi-space-size=2 "$f" --event=PreToolUse; fi; [ -n "$d" ] || break; d=\${d%/*}; done; echo "tailtest: @tailtest/codex is not installed here (npm i -D @tailtest/codex)" >&2'`,
    );
  });

  it.each(CODEX_HOOKS.map((registration) => registration.event))(
    "%s: holds no path of this machine, no npx, one line, and no quote that would end the wrapper",
    (event) => {
      expect(hookCommand(event)).toContain(HOOK_MARKER);
      expect(hookCommand(event)).toContain(` --event=${event};`);
      expect(hookCommand(event)).not.toMatch(/\n|npx|\/home\/|\/tmp\//);
      expect(hookScript(event)).not.toContain("'");
    },
  );
});

describe("CODEX_HOOKS", () => {
  it("registers eight events, with a long timeout only where tests run", () => {
    expect(
      CODEX_HOOKS.map(({ event, matcher, timeout }) => [event, matcher ?? null, timeout]),
    ).toEqual([
      ["SessionStart", null, 30],
      ["SubagentStart", null, 30],
      ["UserPromptSubmit", null, 30],
      ["PreToolUse", "^(apply_patch|Bash)$", 30],
      // A measured tdd test run (test_timeout_seconds, default 300) fits, with room to start.
      ["PostToolUse", "apply_patch|Bash", 660],
      ["Stop", null, 600],
      ["SubagentStop", null, 600],
      ["SessionEnd", null, 30],
    ]);
    const post = CODEX_HOOKS.find((row) => row.event === "PostToolUse")?.timeout ?? 0;
    expect(post).toBeGreaterThan(DEFAULT_CONFIG.test_timeout_seconds * 2);
  });

  it("matches PostToolUse by exact names (only [A-Za-z0-9_|]), exactly the tools translate reads", () => {
    const matcher = CODEX_HOOKS.find((row) => row.event === "PostToolUse")?.matcher ?? "";
    expect(matcher).toMatch(/^[A-Za-z0-9_|]+$/);
    expect(matcher.split("|")).toEqual([PATCH_TOOL, SHELL_TOOL]);
  });

  it("matches PreToolUse, as Codex does (an unanchored Rust regex, here anchored), on exactly those two tools", () => {
    const matcher = CODEX_HOOKS.find((row) => row.event === "PreToolUse")?.matcher ?? "";
    const regex = new RegExp(matcher);
    for (const tool of [PATCH_TOOL, SHELL_TOOL]) expect(regex.test(tool), tool).toBe(true);
    for (const tool of ["apply_patch_v2", "BashOutput", "mcp__x__Bash", "Write", "Edit", "read"])
      expect(regex.test(tool), tool).toBe(false);
  });
});

describe("hooks.json", () => {
  it("an empty project gets the table in order, no matcher where none is wanted", () => {
    const change = addCodexHooks({});
    expect(change.added).toEqual(ALL_EVENTS);
    expectSameJson(change.settings, { hooks: renderHookGroups(CODEX_HOOKS, hookCommand) });
    expect(change.settings.hooks?.["SessionStart"]).toEqual([
      { hooks: [ours("SessionStart", 30)] },
    ]);
  });

  it("joins other tools' hooks, is idempotent, and uninstall gives back the original", () => {
    const settings: HookSettings = {
      hooks: {
        PostToolUse: [{ matcher: "apply_patch", hooks: [LINT] }],
        Stop: [{ hooks: [LINT] }],
        PreToolUse: [{ matcher: "Bash", hooks: [LINT] }],
      },
    };
    const installed = addCodexHooks(settings).settings;
    expect(installed.hooks?.["PostToolUse"]).toEqual([
      { matcher: "apply_patch", hooks: [LINT] },
      { matcher: "apply_patch|Bash", hooks: [ours("PostToolUse", 660)] },
    ]);
    expect(installed.hooks?.["PreToolUse"]).toEqual([
      { matcher: "Bash", hooks: [LINT] },
      { matcher: "^(apply_patch|Bash)$", hooks: [ours("PreToolUse", 30)] },
    ]);
    expect(hasHookChanges(addCodexHooks(installed))).toBe(false);
    const removed = removeCodexHooks(installed);
    expect([...removed.removed].sort()).toEqual([...ALL_EVENTS].sort());
    expectSameJson(removed.settings, settings);
  });

  it("a file that held only tailtest's hooks is empty after uninstall", () => {
    expect(isEmptySettings(removeCodexHooks(addCodexHooks({}).settings).settings)).toBe(true);
    expect(isEmptySettings(removeCodexHooks({ hooks: { Stop: [] } }).settings)).toBe(false);
  });

  it("leaves Claude Code's tailtest entries alone (another marker)", () => {
    const claude = {
      type: "command",
      command: 'node "$CLAUDE_PROJECT_DIR/node_modules/@tailtest/claude-code/dist/hook.cjs"',
    };
    const settings: HookSettings = { hooks: { Stop: [{ hooks: [claude] }] } };
    expect(hasHookChanges(removeCodexHooks(settings))).toBe(false);
  });

  it("refuses what is not a hooks file, in one line", () => {
    expect(parseHooksJson("{")).toMatchObject({ ok: false });
    expect(parseHooksJson('{"hooks": {"Stop": {}}}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^has an unexpected shape at hooks\.Stop /) as unknown,
    });
  });
});

describe("parseCodexConfig", () => {
  it("no file is no config", () => {
    expect(parseCodexConfig(undefined)).toEqual({ ok: true, value: undefined });
  });

  it.each([
    { text: 'model = "x"\nmodel = "y"\n', error: /^is not valid TOML \(line 2: .+\)$/ },
    { text: "a = \n", error: /^is not valid TOML \(line 1: Expected value, reached EOF\)$/ },
    { text: "hooks = 3\n", error: /^has a hooks key that is not a table$/ },
    {
      text: '[hooks]\nStop = [{ hooks = "x" }]\n',
      error: /^has an unexpected shape at \[hooks\]\.Stop\[0\]\.hooks /,
    },
  ])("refuses $text in one line", ({ text, error }) => {
    const parsed = parseCodexConfig(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toMatch(error);
      expect(parsed.error).not.toContain("\n");
    }
  });

  it.each([
    ["no [hooks] table", 'model = "gpt-5.5"\n', undefined],
    ["an empty [hooks] table", "[hooks]\n", {}],
    [
      "events and trust state",
      '[hooks]\nStop = [{ hooks = [{ type = "command", command = "x" }] }]\n[hooks.state."p:stop:0:0"]\ntrusted_hash = "sha256:1"\n',
      { Stop: [{ hooks: [{ type: "command", command: "x" }] }] },
    ],
  ])("reads %s (trust state is not an event)", (_name, text, hooks) => {
    expect(config(text).hooks).toEqual(hooks);
  });

  it.each([
    ["hooks = false", ["hooks"]],
    ["codex_hooks = false", ["codex_hooks"]],
    ["hooks = false\ncodex_hooks = false", ["hooks", "codex_hooks"]],
    ["hooks = true\ncodex_hooks = true", []],
    ["other = false", []],
  ])("[features] %s switches hooks off: %j", (body, keys) => {
    expect(config(`[features]\n${body}\n`).disabledFeatures).toEqual(keys);
  });
});

const INLINE = `# Project settings for Codex
model = "gpt-5.5" # pinned

[features]
# hooks were off while we tried them out
hooks = false

[hooks]
# our formatter runs after every patch
PostToolUse = [
  { matcher = "apply_patch", hooks = [{ type = "command", command = "npx prettier --write ." }] },
]

[hooks.state."/repo/.codex/config.toml:post_tool_use:0:0"]
trusted_hash = "sha256:abc" # recorded by /hooks
`;

describe("planToml on an inline [hooks] table", () => {
  it("adds tailtest's handlers, turns hooks on, and keeps every comment and line in place", () => {
    const text = add(INLINE);
    const value = parseToml(text) as { hooks: Record<string, unknown> };
    expect(value.hooks["PostToolUse"]).toEqual([
      { matcher: "apply_patch", hooks: [{ type: "command", command: "npx prettier --write ." }] },
      { matcher: "apply_patch|Bash", hooks: [ours("PostToolUse", 660)] },
    ]);
    for (const registration of CODEX_HOOKS) {
      expect(value.hooks[registration.event], registration.event).toContainEqual({
        ...(registration.matcher === undefined ? {} : { matcher: registration.matcher }),
        hooks: [ours(registration.event, registration.timeout)],
      });
    }
    expect(value.hooks["state"]).toEqual({
      "/repo/.codex/config.toml:post_tool_use:0:0": { trusted_hash: "sha256:abc" },
    });
    // Every line of the original is still there, in order (hooks = false became true).
    const lines = text.split("\n");
    let at = 0;
    for (const line of INLINE.replace("hooks = false", "hooks = true").split("\n")) {
      const found = lines.indexOf(line, at);
      expect(found, line).toBeGreaterThanOrEqual(at);
      at = found;
    }
  });

  it("writes TOML 1.0: one-line inline tables without trailing commas", () => {
    for (const line of add(INLINE).split("\n")) {
      if (!line.includes(HOOK_MARKER)) continue;
      expect(line).not.toMatch(/,\s*[}\]]/);
    }
  });

  it("a second add changes nothing", () => {
    const once = add(INLINE);
    const again = planToml(once, config(once), { hooks: "add", enableFeatures: true });
    expect(again).toEqual({ ok: true, value: { text: once, enabled: [] } });
  });

  it("remove gives back the original text byte for byte, except the hooks switch it turned on", () => {
    expect(remove(add(INLINE))).toBe(INLINE.replace("hooks = false", "hooks = true"));
  });

  it.each([
    ["an empty table", "[hooks]\n"],
    [
      "an event written as an array of tables with inline handlers",
      '[hooks]\n[[hooks.PostToolUse]]\nmatcher = "Write" # formatter\nhooks = [{ type = "command", command = "fmt" }]\n',
    ],
    [
      "sub-tables under an event tailtest does not use",
      '[hooks]\n[[hooks.PermissionRequest]]\nmatcher = "Bash"\n[[hooks.PermissionRequest.hooks]]\ntype = "command"\ncommand = "./guard.sh"\n',
    ],
  ])("round-trips %s", (_name, original) => {
    const added = planToml(original, config(original), { hooks: "add", enableFeatures: true });
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    expect(tomlRoundTrips(original, config(original), added.value)).toBe(true);
    const back = remove(added.value.text);
    expect(sameValue(parseToml(back), parseToml(original))).toBe(true);
  });

  it.each(["Stop", "PreToolUse"])(
    "does not round-trip sub-tables under %s, an event tailtest also uses (toml-patch drops them)",
    (event) => {
      const original = `[hooks]\n[[hooks.${event}]]\n[[hooks.${event}.hooks]]\ntype = "command"\ncommand = "./lint.sh"\n`;
      const added = planToml(original, config(original), { hooks: "add", enableFeatures: true });
      expect(added.ok).toBe(true);
      if (added.ok) expect(tomlRoundTrips(original, config(original), added.value)).toBe(false);
      // And uninstall refuses rather than lose ./lint.sh.
      if (added.ok) {
        const removal = planToml(added.value.text, config(added.value.text), {
          hooks: "remove",
          enableFeatures: false,
        });
        expect(removal).toEqual({
          ok: false,
          error: "came out of toml-patch with other entries changed",
        });
      }
    },
  );

  it("does not round-trip a comment right above a sub-table (new keys land under it, and take it when they go)", () => {
    const original =
      '[hooks]\nStop = [{ hooks = [{ type = "command", command = "x" }] }]\n\n# trust\n[hooks.state."k"]\nenabled = true\n';
    const added = planToml(original, config(original), { hooks: "add", enableFeatures: true });
    expect(added.ok).toBe(true);
    if (added.ok) expect(tomlRoundTrips(original, config(original), added.value)).toBe(false);
  });

  it("keeps the [hooks] table when tailtest's handlers were all it held", () => {
    expect(remove(add("[hooks]\n"))).toBe("[hooks]\n");
  });

  it("leaves dates, big integers and everything outside [hooks] and [features] untouched", () => {
    const original =
      'released = 1979-05-27T07:32:00Z\nday = 1979-05-27\nbig = 9007199254740993\n\n[hooks]\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';
    const text = add(original);
    expect(
      text.startsWith(
        "released = 1979-05-27T07:32:00Z\nday = 1979-05-27\nbig = 9007199254740993\n",
      ),
    ).toBe(true);
    expect(text).toContain('[mcp_servers.docs]\ncommand = "docs-mcp"\n');
    expect(remove(text)).toBe(original);
  });
});

describe("planToml on [features]", () => {
  it.each([
    ["[features]\nhooks = false # off\n", "[features]\nhooks = true # off\n", ["hooks"]],
    ["[features]\ncodex_hooks = false\n", "[features]\ncodex_hooks = true\n", ["codex_hooks"]],
    ['model = "m"\nfeatures.hooks = false\n', 'model = "m"\nfeatures.hooks = true\n', ["hooks"]],
  ])("turns %j on", (original, expected, enabled) => {
    const planned = planToml(original, config(original), { hooks: "keep", enableFeatures: true });
    expect(planned).toEqual({ ok: true, value: { text: expected, enabled } });
  });

  it("leaves a file with hooks on exactly as it is", () => {
    const original = "[features]\nhooks = true\n";
    expect(planToml(original, config(original), { hooks: "add", enableFeatures: true })).toEqual({
      ok: true,
      value: { text: original, enabled: [] },
    });
  });
});

describe("sameValue", () => {
  it.each<[string, unknown, unknown, boolean]>([
    ["tables in another key order", { a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, true],
    ["an extra key", { a: 1 }, { a: 1, b: undefined }, false],
    ["arrays in another order", [1, 2], [2, 1], false],
    ["the same instant", new Date(0), new Date(0), true],
    ["another instant", new Date(0), new Date(1), false],
    ["a date and its text", new Date(0), "1970-01-01T00:00:00.000Z", false],
    ["a big integer and a number", 1n, 1, false],
    ["NaN and NaN", Number.NaN, Number.NaN, true],
  ])("%s: %s", (_name, a, b, same) => {
    expect(sameValue(a, b)).toBe(same);
  });
});
