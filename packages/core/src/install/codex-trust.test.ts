import { describe, expect, it } from "vitest";
import {
  checkCodexTrust,
  codexEventLabel,
  CodexTrustSchema,
  type CodexTrustInput,
} from "./codex-trust.ts";

const ROOT = "/home/me/project";
const HOOKS_JSON = `${ROOT}/.codex/hooks.json`;
const OURS = { type: "command", command: "sh -c '… @tailtest/codex/dist/hook.js …'" };
const THEIRS = { type: "command", command: "npx prettier --write ." };
const MARKERS = ["@tailtest/codex", "tailtest-codex"];

/** PostToolUse has another tool's group first, so ours is group 1 there. */
const HOOKS = {
  SessionStart: [{ hooks: [OURS] }],
  PostToolUse: [
    { matcher: "apply_patch", hooks: [THEIRS] },
    { matcher: "apply_patch|Bash", hooks: [OURS] },
  ],
  Stop: [{ hooks: [THEIRS, OURS] }],
};

function check(userConfig: unknown, extra: Partial<CodexTrustInput> = {}) {
  const trust = checkCodexTrust({
    root: ROOT,
    sources: [{ path: HOOKS_JSON, hooks: HOOKS }],
    userConfig,
    markers: MARKERS,
    ...extra,
  });
  expect(CodexTrustSchema.parse(trust)).toEqual(trust);
  return trust;
}

const trusted = (key: string) => ({ [key]: { trusted_hash: "sha256:abc" } });
const ALL_KEYS = [
  `${HOOKS_JSON}:session_start:0:0`,
  `${HOOKS_JSON}:post_tool_use:1:0`,
  `${HOOKS_JSON}:stop:0:1`,
];

describe("codexEventLabel", () => {
  it.each([
    ["PostToolUse", "post_tool_use"],
    ["Stop", "stop"],
    ["UserPromptSubmit", "user_prompt_submit"],
    ["SubagentStop", "subagent_stop"],
    ["SessionEnd", "session_end"],
  ])("%s → %s", (event, label) => expect(codexEventLabel(event)).toBe(label));
});

describe("checkCodexTrust", () => {
  it("is pending with no user config: the project and every hook still need trusting", () => {
    const trust = check(undefined);
    expect(trust).toMatchObject({ project: "unknown", handlers: 3, trusted: 0, pending: true });
    expect(trust.lines.join("\n")).toContain("project not trusted yet");
    expect(trust.lines.join("\n")).toContain("0 of 3 hooks trusted: run /hooks in Codex");
  });

  it("counts only tailtest's handlers, by Codex's positional keys", () => {
    const trust = check({
      projects: { [ROOT]: { trust_level: "trusted" } },
      hooks: {
        state: {
          ...trusted(`${HOOKS_JSON}:post_tool_use:0:0`), // the other tool's: not ours
          ...trusted(`${HOOKS_JSON}:stop:0:1`),
        },
      },
    });
    expect(trust).toMatchObject({
      project: "trusted",
      project_entry: ROOT,
      handlers: 3,
      trusted: 1,
      pending: true,
    });
  });

  it("is done when the project and all of tailtest's hooks are trusted", () => {
    const trust = check({
      projects: { "/home/me": { trust_level: "trusted" } },
      hooks: { state: Object.assign({}, ...ALL_KEYS.map(trusted)) },
    });
    expect(trust).toMatchObject({
      project: "trusted",
      project_entry: "/home/me",
      trusted: 3,
      pending: false,
    });
    expect(trust.lines).toEqual([
      "project trusted (a folder above it)",
      "all 3 hooks have a trust record (from /hooks)",
    ]);
  });

  it("reads trust records from the project's config.toml too, and reports hooks turned off", () => {
    const trust = check(
      { projects: { [ROOT]: { trust_level: "trusted" } } },
      {
        projectConfig: {
          hooks: {
            state: {
              ...Object.assign({}, ...ALL_KEYS.map(trusted)),
              [`${HOOKS_JSON}:stop:0:1`]: { trusted_hash: "sha256:abc", enabled: false },
            },
          },
        },
      },
    );
    expect(trust).toMatchObject({ trusted: 3, disabled: 1, pending: true });
    expect(trust.lines).toContain("1 hook turned off in /hooks");
  });

  it("says when the project is marked untrusted, or the config cannot be read", () => {
    expect(check({ projects: { [ROOT]: { trust_level: "untrusted" } } })).toMatchObject({
      project: "untrusted",
      pending: true,
    });
    const unreadable = check(undefined, { userConfigProblem: "not valid TOML" });
    expect(unreadable.project).toBe("unknown");
    expect(unreadable.lines[0]).toBe(
      "project trust unknown: the Codex config cannot be read (not valid TOML)",
    );
  });

  it("ignores what is not an event (the state table) and odd shapes", () => {
    const trust = checkCodexTrust({
      root: ROOT,
      sources: [
        { path: `${ROOT}/.codex/config.toml`, hooks: { state: { x: {} }, Stop: "nonsense" } },
      ],
      userConfig: { projects: "nonsense" },
      markers: MARKERS,
    });
    expect(trust).toMatchObject({ handlers: 0, project: "unknown" });
    expect(trust.lines).toContain("no tailtest hooks found in the Codex hooks files");
  });
});
