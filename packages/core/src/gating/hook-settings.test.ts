import { describe, expect, it } from "vitest";
import { changedHookSettings, hookPart } from "./hook-settings.ts";

describe("what of a settings file decides the hooks", () => {
  it.each<[string, string | undefined, string | undefined, boolean]>([
    // [file, before, after, changed]
    [".claude/settings.local.json", undefined, '{"disableAllHooks": true}', true],
    [".claude/settings.json", '{"hooks":{"Stop":[1]}}', '{"hooks":{}}', true],
    [
      ".claude/settings.json",
      '{"hooks":{}}',
      '{"env":{"TAILTEST_HOOKS_OFF":"1"},"hooks":{}}',
      true,
    ],
    // Claude Code writes the person's permission answers there during a session.
    [".claude/settings.local.json", undefined, '{"permissions":{"allow":["Bash(ls:*)"]}}', false],
    [
      ".claude/settings.json",
      '{"hooks":{"Stop":[1]},"model":"a"}',
      '{"model":"b","hooks":{"Stop":[1]}}',
      false,
    ],
    [".cursor/hooks.json", '{"version":1,"hooks":{"stop":[1]}}', '{"version":1,"hooks":{}}', true],
    [".codex/config.toml", "[features]\ncodex_hooks = true\n", "[features]\n", true],
    [
      ".codex/config.toml",
      "model = 'a'\n[features]\ncodex_hooks = true\n",
      "model = 'b'\n[features]\ncodex_hooks = true\n",
      false,
    ],
    [
      ".codex/config.toml",
      "[[hooks.stop]]\ncommand = 'x'\n",
      "[[hooks.stop]]\ncommand = 'y'\n",
      true,
    ],
    [".codex/config.toml", undefined, "model = 'b'\n", false],
  ])("%s: %j → %j changed: %s", (file, before, after, changed) => {
    const then = { [file]: hookPart(file, before) };
    const now = { [file]: hookPart(file, after) };
    expect(changedHookSettings(then, now)).toEqual(changed ? [file] : []);
  });
});
