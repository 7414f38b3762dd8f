import { HOOKS_OFF_ENV } from "@tailtest/core/node";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { answersNothing, HOOKS_OFF, unreachableGateAnswer } from "./quiet.ts";

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

function project(config?: string): string {
  const made = makeProject(config === undefined ? {} : { ".tailtest/config.json": config });
  projects.push(made);
  return made.root;
}

function preToolUse(root: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "s1",
    transcript_path: `${root}/t.jsonl`,
    cwd: root,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: `${root}/calc.py`, content: "x = 1\n" },
    tool_use_id: "toolu_1",
    ...extra,
  });
}

describe("answersNothing (the launcher's shortcut)", () => {
  it("uses core's switch-off variable", () => {
    expect(HOOKS_OFF).toBe(HOOKS_OFF_ENV);
  });

  it("TAILTEST_HOOKS_OFF=1 answers nothing, whatever the call", () => {
    expect(answersNothing("{not json", { [HOOKS_OFF]: "1" })).toBe(true);
    expect(answersNothing("{not json", { [HOOKS_OFF]: "0" })).toBe(false);
  });

  it.each<[string, string | undefined, boolean]>([
    ["no config", undefined, true],
    ["no mode", '{ "depth": "thorough" }', true],
    ["follow", '{ "mode": "follow" }', true],
    ["tdd", '{ "mode": "tdd" }', false],
    ["strict", '{ "mode": "strict" }', false],
    ["an unknown mode (core decides)", '{ "mode": "lax" }', false],
    ["a config that is not JSON (core decides)", "{ mode: tdd", false],
    ["a config that is a list", "[]", false],
  ])("a PreToolUse in a project with %s: %s", (_name, config, quiet) => {
    const root = project(config);
    expect(answersNothing(preToolUse(root), { CLAUDE_PROJECT_DIR: root })).toBe(quiet);
    // Without CLAUDE_PROJECT_DIR the payload's cwd is the project.
    expect(answersNothing(preToolUse(root), {})).toBe(quiet);
  });

  it("CLAUDE_PROJECT_DIR wins over the payload's cwd", () => {
    const tdd = project('{ "mode": "tdd" }');
    const follow = project();
    expect(answersNothing(preToolUse(follow), { CLAUDE_PROJECT_DIR: tdd })).toBe(false);
    expect(answersNothing(preToolUse(tdd), { CLAUDE_PROJECT_DIR: follow })).toBe(true);
  });

  it("everything else goes the whole way: other events, bad payloads, Cursor's payloads", () => {
    const root = project();
    const env = { CLAUDE_PROJECT_DIR: root };
    for (const stdin of [
      "",
      "{not json",
      "[]",
      JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "PostToolUse" }),
      preToolUse(root, { hook_event_name: "Stop", note: "PreToolUse" }),
      preToolUse(root, { session_id: 1 }),
      preToolUse(root, { tool_input: "x" }),
      preToolUse(root, { tool_name: undefined }),
      preToolUse(root, { cursor_version: "1.7.0" }),
      preToolUse(root, { conversation_id: "c1" }),
    ])
      expect(answersNothing(stdin, env), stdin).toBe(false);
  });
});

describe("unreachableGateAnswer (hook-main.js missing)", () => {
  it("denies a PreToolUse outside follow mode, and nothing else", () => {
    const tdd = project('{ "mode": "tdd" }');
    const answer = unreachableGateAnswer(preToolUse(tdd), {}, "gone");
    expect(JSON.parse(answer ?? "")).toMatchObject({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" },
    });
    expect(answer).toContain("tailtest could not decide (gone)");
    expect(unreachableGateAnswer(preToolUse(project()), {}, "gone")).toBeUndefined();
    const stop = JSON.stringify({ session_id: "s", cwd: tdd, hook_event_name: "Stop" });
    expect(unreachableGateAnswer(stop, {}, "gone")).toBeUndefined();
  });
});
