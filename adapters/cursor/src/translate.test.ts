import type { Decision } from "@tailtest/core";
import { describe, expect, it } from "vitest";
import { isCursorPayload, renderDecision, translatePayload } from "./translate.ts";

const base = {
  conversation_id: "c1",
  generation_id: "g1",
  model: "gpt-5",
  hook_event_name: "x",
  cursor_version: "2.1.50",
  workspace_roots: ["/p"],
  user_email: "dev@example.com",
  transcript_path: null,
};
const translate = (payload: object) => translatePayload(JSON.stringify(payload));

describe("translatePayload", () => {
  it.each([
    [
      { ...base, hook_event_name: "sessionStart", is_background_agent: false },
      { kind: "SessionStarted", sessionId: "c1", source: "resume" },
    ],
    [
      { ...base, hook_event_name: "sessionStart", session_id: "s9" },
      { kind: "SessionStarted", sessionId: "s9", source: "resume" },
    ],
    [
      {
        ...base,
        hook_event_name: "afterFileEdit",
        file_path: "/p/a.py",
        edits: [{ old_string: "", new_string: "x = 1\n" }],
      },
      { kind: "FilesEdited", paths: ["/p/a.py"] },
    ],
    [
      { ...base, hook_event_name: "afterFileEdit", file_path: "/p/a.py", edits: [] },
      { kind: "FilesEdited", paths: ["/p/a.py"] },
    ],
    [
      {
        ...base,
        hook_event_name: "postToolUse",
        tool_name: "Write",
        tool_input: { file_path: "/p/a.py", content: "x" },
        tool_output: "ok",
        duration: 3,
        tool_use_id: "t1",
        cwd: "/p",
      },
      { kind: "FilesEdited", paths: ["/p/a.py"] },
    ],
    [
      {
        ...base,
        hook_event_name: "postToolUse",
        tool_name: "Delete",
        tool_input: { file_path: "/p/a.py" },
      },
      { kind: "FilesEdited", paths: [], deleted: ["/p/a.py"] },
    ],
    [
      {
        ...base,
        hook_event_name: "postToolUse",
        tool_name: "Delete",
        tool_input: { path: "b.py" },
      },
      { kind: "FilesEdited", paths: [], deleted: ["b.py"] },
    ],
    [
      {
        ...base,
        hook_event_name: "postToolUse",
        tool_name: "Shell",
        tool_input: { command: "cat > a.py <<'EOF'\nx = 1\nEOF", cwd: "/p" },
      },
      { kind: "CommandFinished", command: "cat > a.py <<'EOF'\nx = 1\nEOF", cwd: "/p" },
    ],
    [
      // MCP tool input is a JSON string; tailtest does not read it.
      { ...base, hook_event_name: "postToolUse", tool_name: "MCP:query", tool_input: "{}" },
      undefined,
    ],
    [
      { ...base, hook_event_name: "stop", status: "completed", loop_count: 0 },
      { kind: "TurnEnded", stopHookActive: false, interrupted: false },
    ],
    [
      { ...base, hook_event_name: "stop", status: "completed", loop_count: 2 },
      { kind: "TurnEnded", stopHookActive: true, interrupted: false },
    ],
    [
      { ...base, hook_event_name: "stop", status: "aborted", loop_count: 0 },
      { kind: "TurnEnded", stopHookActive: false, interrupted: true },
    ],
    [
      { ...base, hook_event_name: "stop", status: "error", loop_count: 1 },
      { kind: "TurnEnded", stopHookActive: true, interrupted: true },
    ],
    [
      { ...base, hook_event_name: "stop" },
      { kind: "TurnEnded", stopHookActive: false, interrupted: false },
    ],
    [
      { ...base, hook_event_name: "sessionEnd", reason: "window_close", final_status: "completed" },
      { kind: "SessionEnded" },
    ],
    [{ ...base, hook_event_name: "beforeSubmitPrompt", prompt: "hi", attachments: [] }, undefined],
    [{ ...base, hook_event_name: "subagentStop", status: "completed", loop_count: 0 }, undefined],
    [{ ...base, hook_event_name: "someFutureEvent" }, undefined],
    [
      // Only conversation_id and hook_event_name are required.
      { conversation_id: "c2", hook_event_name: "afterFileEdit", file_path: "a.py" },
      { kind: "FilesEdited", paths: ["a.py"] },
    ],
  ])("%j", (payload, event) => {
    const result = translate(payload);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.event).toEqual(event);
  });

  it("reads a payload that starts with a byte-order mark", () => {
    const result = translatePayload(
      `\uFEFF${JSON.stringify({ ...base, hook_event_name: "stop" })}`,
    );
    expect(result.ok && result.event?.kind).toBe("TurnEnded");
  });

  it.each([
    ["not json", "stdin is not JSON"],
    ["", "stdin is not JSON"],
    ["[]", 'payload field "payload": Invalid input'],
    [JSON.stringify({ hook_event_name: "stop" }), 'payload field "conversation_id"'],
    [
      JSON.stringify({ ...base, hook_event_name: "beforeSubmitPrompt", conversation_id: 7 }),
      'payload field "conversation_id"',
    ],
    [
      JSON.stringify({ ...base, hook_event_name: "sessionStart", workspace_roots: "/p" }),
      'payload field "workspace_roots"',
    ],
    [
      JSON.stringify({ ...base, hook_event_name: "afterFileEdit", file_path: 3 }),
      'payload field "file_path"',
    ],
    [
      JSON.stringify({
        ...base,
        hook_event_name: "afterFileEdit",
        file_path: "/p/a.py",
        edits: {},
      }),
      'payload field "edits"',
    ],
    [
      JSON.stringify({
        ...base,
        hook_event_name: "postToolUse",
        tool_name: "Write",
        tool_input: "x",
      }),
      'payload field "tool_input"',
    ],
    [
      JSON.stringify({ ...base, hook_event_name: "postToolUse", tool_name: "Write" }),
      'payload field "tool_input"',
    ],
    [
      JSON.stringify({
        ...base,
        hook_event_name: "postToolUse",
        tool_name: "Write",
        tool_input: { file_path: 1 },
      }),
      'payload field "tool_input.file_path"',
    ],
    [
      JSON.stringify({
        ...base,
        hook_event_name: "postToolUse",
        tool_name: "Delete",
        tool_input: {},
      }),
      'payload field "tool_input.file_path": Delete names no file',
    ],
    [
      JSON.stringify({ ...base, hook_event_name: "stop", loop_count: "1" }),
      'payload field "loop_count"',
    ],
    [
      JSON.stringify({ ...base, hook_event_name: "stop", loop_count: -1 }),
      'payload field "loop_count"',
    ],
    [JSON.stringify({ ...base, hook_event_name: "stop", status: 0 }), 'payload field "status"'],
  ])("bad input %s is one clear line", (stdin, message) => {
    const result = translatePayload(stdin);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain(message);
      expect(result.error).not.toContain("\n");
    }
  });
});

describe("isCursorPayload", () => {
  it.each([
    [{ cursor_version: "2.1.50", hook_event_name: "PostToolUse", session_id: "s" }, true],
    [{ conversation_id: "c", hook_event_name: "postToolUse" }, true],
    [{ conversation_id: "c", hook_event_name: "stop" }, true],
    // Claude Code: PascalCase events, a session id and a transcript, no conversation id.
    [{ session_id: "s", transcript_path: "/t", cwd: "/p", hook_event_name: "PostToolUse" }, false],
    // Codex: a turn id and a model, PascalCase events.
    [{ session_id: "s", turn_id: "t", model: "gpt", hook_event_name: "Stop" }, false],
    [{ conversation_id: "c", hook_event_name: "Stop" }, false],
    [{ conversation_id: 1, hook_event_name: "stop" }, false],
    [{ conversation_id: "c" }, false],
    [null, false],
    [[], false],
    ["postToolUse", false],
  ])("%j → %s", (json, expected) => {
    expect(isCursorPayload(json)).toBe(expected);
  });
});

describe("renderDecision", () => {
  const context: Decision = { kind: "context", text: "note" };
  const block: Decision = { kind: "block", reason: "why" };
  const none: Decision = { kind: "none" };

  // Every event tailtest answers, every decision, the exact stdout and stderr (§2.4).
  it.each<[string, Decision, string, string]>([
    ["sessionStart", context, '{"additional_context":"note"}', ""],
    ["sessionStart", none, "{}", ""],
    ["postToolUse", context, '{"additional_context":"note"}', ""],
    ["postToolUse", none, "{}", ""],
    // afterFileEdit's output is ignored by Cursor; the same note goes out through postToolUse.
    ["afterFileEdit", context, "{}", ""],
    ["afterFileEdit", none, "{}", ""],
    ["stop", block, '{"followup_message":"why"}', ""],
    // The loop budget is spent: a followup would wake the agent again, so the user reads it.
    ["stop", context, "{}", "note\n"],
    ["stop", none, "{}", ""],
    ["sessionEnd", none, "{}", ""],
    ["sessionEnd", context, "{}", ""],
    // A block where Cursor has no followup goes where the agent reads, else to the user.
    ["postToolUse", block, '{"additional_context":"why"}', ""],
    ["afterFileEdit", block, "{}", "why\n"],
  ])("%s %j → stdout %s", (event, decision, stdout, stderr) => {
    expect(renderDecision(event, decision)).toEqual({ stdout, stderr });
  });

  it("never prints nothing: Cursor counts an empty stdout as a failed hook", () => {
    for (const event of ["sessionStart", "postToolUse", "afterFileEdit", "stop", "sessionEnd"]) {
      for (const decision of [context, block, none]) {
        const { stdout } = renderDecision(event, decision);
        expect(stdout, `${event} ${decision.kind}`).not.toBe("");
        expect(typeof JSON.parse(stdout)).toBe("object");
      }
    }
  });
});
