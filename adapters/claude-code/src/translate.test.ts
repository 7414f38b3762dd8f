import { describe, expect, it } from "vitest";
import { renderDecision, translatePayload } from "./translate.ts";

const base = { session_id: "s1", cwd: "/p", transcript_path: "/t.jsonl" };
const translate = (payload: object) => translatePayload(JSON.stringify(payload));

describe("translatePayload", () => {
  it.each([
    [
      { ...base, hook_event_name: "SessionStart", source: "startup" },
      { kind: "SessionStarted", sessionId: "s1", source: "startup" },
    ],
    [
      { ...base, hook_event_name: "SessionStart", source: "compact" },
      { kind: "SessionStarted", sessionId: "s1", source: "compact" },
    ],
    [
      { ...base, hook_event_name: "SessionStart", source: "fork" },
      { kind: "SessionStarted", sessionId: "s1", source: "startup" },
    ],
    [
      {
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Write",
        tool_input: { file_path: "/p/a.py", content: "x" },
        tool_response: {},
      },
      { kind: "FilesEdited", paths: ["/p/a.py"], agentId: undefined },
    ],
    [
      {
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "NotebookEdit",
        tool_input: { notebook_path: "/p/n.ipynb", new_source: "" },
      },
      { kind: "FilesEdited", paths: ["/p/n.ipynb"], agentId: undefined },
    ],
    [
      {
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Edit",
        agent_id: "a1",
        tool_input: { file_path: "/p/a.py" },
      },
      { kind: "FilesEdited", paths: ["/p/a.py"], agentId: "a1" },
    ],
    [
      { ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" } },
      undefined,
    ],
    [
      { ...base, hook_event_name: "Stop", stop_hook_active: true },
      { kind: "TurnEnded", stopHookActive: true },
    ],
    [
      { ...base, hook_event_name: "Stop" },
      { kind: "TurnEnded", stopHookActive: false },
    ],
    [
      {
        ...base,
        hook_event_name: "SubagentStop",
        stop_hook_active: false,
        agent_id: "a1",
        agent_type: "x",
      },
      { kind: "TurnEnded", stopHookActive: false, agentId: "a1" },
    ],
    [{ ...base, hook_event_name: "SessionEnd", reason: "other" }, { kind: "SessionEnded" }],
    [{ ...base, hook_event_name: "UserPromptSubmit", prompt: "hi" }, undefined],
  ])("%j", (payload, event) => {
    const result = translate(payload);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.event).toEqual(event);
  });

  it.each([
    ["not json", "stdin is not JSON"],
    ["[]", 'payload field "payload": Invalid input'],
    [JSON.stringify({ hook_event_name: "Stop" }), 'payload field "session_id"'],
    [
      JSON.stringify({
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Write",
        tool_input: "x",
      }),
      'payload field "tool_input"',
    ],
    [
      JSON.stringify({ ...base, hook_event_name: "Stop", stop_hook_active: "yes" }),
      'payload field "stop_hook_active"',
    ],
  ])("bad input %s is one clear line", (stdin, message) => {
    const result = translatePayload(stdin);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain(message);
      expect(result.error).not.toContain("\n");
    }
  });
});

describe("renderDecision", () => {
  it("PostToolUse and SessionStart context carry hookEventName (newer Claude Code rejects it otherwise)", () => {
    expect(JSON.parse(renderDecision("PostToolUse", { kind: "context", text: "n" }))).toEqual({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "n" },
    });
    expect(JSON.parse(renderDecision("SessionStart", { kind: "context", text: "n" }))).toEqual({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "n" },
    });
  });

  it("a Stop block is decision/reason; nothing is no output", () => {
    expect(JSON.parse(renderDecision("Stop", { kind: "block", reason: "r" }))).toEqual({
      decision: "block",
      reason: "r",
    });
    expect(renderDecision("Stop", { kind: "none" })).toBe("");
    expect(JSON.parse(renderDecision("Stop", { kind: "context", text: "t" }))).toEqual({
      systemMessage: "t",
    });
  });
});
