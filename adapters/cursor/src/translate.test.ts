import type { Decision } from "@tailtest/core";
import { loadPayload } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { isCursorPayload } from "@tailtest/core/hook";
import { renderDecision, translatePayload } from "./translate.ts";

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
    [
      // A subagent that cannot be named has no log to close; never the main agent's stop.
      { ...base, hook_event_name: "subagentStop", status: "completed", loop_count: 0 },
      undefined,
    ],
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

const ROOT = "/tmp/run/project";
const CONVERSATION = "5f0c2a7e-3b1d-4c6a-9e8f-2d4b6a8c0e13";
const SUBAGENT = "0e9d4c27-6b1a-4f83-a5c2-7d3e1b8f6a90";
const fixture = (name: string) => loadPayload("cursor", name, ROOT).stdin;

describe("translatePayload: tdd mode's events, from the synthetic payload files (its hook protocol)", () => {
  it.each([
    ["gate.preToolUse-Write.json", { kind: "EditRequested", paths: [`${ROOT}/src/billing.py`] }],
    [
      "gate.preToolUse-Delete.json",
      { kind: "EditRequested", paths: [], deleted: [`${ROOT}/src/billing.py`] },
    ],
    [
      "gate.preToolUse-Shell.json",
      { kind: "CommandRequested", command: "sed -i 's/1.2/1.25/' src/billing.py", cwd: ROOT },
    ],
    [
      "subagent.subagentStart.json",
      { kind: "SubagentStarted", agentId: SUBAGENT, agentType: "generalPurpose" },
    ],
    [
      "subagent.subagentStop.json",
      { kind: "TurnEnded", agentId: SUBAGENT, stopHookActive: false, interrupted: false },
    ],
    [
      "shell.postToolUse-Shell.json",
      // Cursor reports no exit code: how the command ended stays unknown.
      { kind: "CommandFinished", command: "ls", cwd: ROOT },
    ],
  ])("%s", (name, event) => {
    const result = translatePayload(JSON.stringify(fixture(name)));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.event).toStrictEqual(event);
    // Every call names the main agent's conversation, so each agent finds its own log.
    expect(result.identity).toEqual({
      sessionId: CONVERSATION,
      transcriptPath: `/tmp/run/home/.cursor/projects/project/agent-transcripts/${CONVERSATION}.txt`,
    });
  });

  const pre = (tool: string, input: unknown, extra: object = {}) => ({
    ...base,
    hook_event_name: "preToolUse",
    tool_name: tool,
    tool_input: input,
    tool_use_id: "t1",
    cwd: "/p",
    ...extra,
  });

  it.each([
    [
      pre("Write", { file_path: "/p/a.py", content: "x" }),
      { kind: "EditRequested", paths: ["/p/a.py"] },
    ],
    [pre("Write", { path: "a.py", content: "x" }), { kind: "EditRequested", paths: ["a.py"] }],
    [
      pre("Delete", { path: "/p/a.py" }),
      { kind: "EditRequested", paths: [], deleted: ["/p/a.py"] },
    ],
    [
      pre("Shell", { command: "sed -i 's/a/b/' calc.py", cwd: "/p/sub" }),
      { kind: "CommandRequested", command: "sed -i 's/a/b/' calc.py", cwd: "/p/sub" },
    ],
    [
      // Without tool_input.cwd: the payload's cwd, then the first workspace root.
      pre("Shell", { command: "make" }),
      { kind: "CommandRequested", command: "make", cwd: "/p" },
    ],
    [
      pre("Shell", { command: "make" }, { cwd: null }),
      { kind: "CommandRequested", command: "make", cwd: "/p" },
    ],
    [
      // A tool call that carries the subagent's id is gated against that subagent's log.
      pre("Write", { file_path: "/p/a.py" }, { subagent_id: "sub-1" }),
      { kind: "EditRequested", paths: ["/p/a.py"], agentId: "sub-1" },
    ],
    [pre("Read", { file_path: "/p/a.py" }), undefined],
    [pre("Grep", { pattern: "x" }), undefined],
    [pre("Task", { prompt: "x" }), undefined],
    [pre("MCP:write_file", "{}"), undefined],
    [pre("MCP:read_file", { path: "a.py" }), undefined],
    // An MCP tool that writes a path is an edit (its arguments an object or a JSON string).
    [
      pre("MCP:write_file", '{"path":"a.py","content":"x"}'),
      { kind: "EditRequested", paths: ["/p/a.py"] },
    ],
    [pre("MCP:edit_file", { path: "/p/b.py" }), { kind: "EditRequested", paths: ["/p/b.py"] }],
    [
      { ...base, hook_event_name: "subagentStart", subagent_id: "s1", subagent_type: null },
      { kind: "SubagentStarted", agentId: "s1" },
    ],
    [
      {
        ...base,
        hook_event_name: "subagentStop",
        subagent_id: "s1",
        status: "aborted",
        loop_count: 2,
      },
      { kind: "TurnEnded", agentId: "s1", stopHookActive: true, interrupted: true },
    ],
  ])("%j", (payload, event) => {
    const result = translate(payload);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.event).toStrictEqual(event);
  });

  it.each([
    ["the conversation", { conversation_id: "c1" }, { sessionId: "c1" }],
    [
      "the parent conversation, when Cursor names one (the subagent's log hangs off it)",
      { conversation_id: "sub-conv", parent_conversation_id: "c1", transcript_path: "/t.txt" },
      { sessionId: "c1", transcriptPath: "/t.txt" },
    ],
    [
      "the conversation when the parent is null",
      { conversation_id: "c1", parent_conversation_id: null },
      { sessionId: "c1" },
    ],
  ])("identity is %s", (_name, fields, identity) => {
    const result = translate({
      ...base,
      hook_event_name: "subagentStart",
      subagent_id: "s1",
      ...fields,
    });
    expect(result.ok && result.identity).toStrictEqual(identity);
  });

  it.each([
    [pre("Write", {}), 'payload field "tool_input.file_path": Write names no file'],
    [pre("Write", "x"), 'payload field "tool_input"'],
    [pre("Delete", { path: 3 }), 'payload field "tool_input.path"'],
    [pre("Shell", { cwd: "/p" }), 'payload field "tool_input.command"'],
    [{ ...base, hook_event_name: "preToolUse" }, 'payload field "tool_name"'],
    [{ ...base, hook_event_name: "subagentStart" }, 'payload field "subagent_id"'],
    [{ ...base, hook_event_name: "subagentStart", subagent_id: "" }, 'payload field "subagent_id"'],
    [
      { ...base, hook_event_name: "subagentStop", subagent_id: "s1", loop_count: "0" },
      'payload field "loop_count"',
    ],
  ])("bad input %j is one clear line", (payload, message) => {
    const result = translate(payload);
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
  const deny: Decision = { kind: "deny", reason: "blocked: src/a.py\nrun: tailtest red" };
  const withEnv: Decision = { kind: "context", text: "note", env: { TAILTEST_TDD_KEY: "c1" } };

  // Every event tailtest answers, every decision, the exact stdout and stderr (its hook protocol).
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
    // The person's line at the end of a turn: the Hooks output channel, never a followup.
    [
      "stop",
      { kind: "none", userMessage: "tailtest: 1 edited file, 2 tests passed (40 ms)" },
      "{}",
      "tailtest: 1 edited file, 2 tests passed (40 ms)\n",
    ],
    // Sent back: the followup the person sees in the chat says it; no second line.
    ["stop", { ...block, userMessage: "line" }, '{"followup_message":"why"}', ""],
    ["postToolUse", { ...context, userMessage: "line" }, '{"additional_context":"note"}', ""],
    ["sessionEnd", none, "{}", ""],
    ["sessionEnd", context, "{}", ""],
    // A block where Cursor has no followup goes where the agent reads, else to the user.
    ["postToolUse", block, '{"additional_context":"why"}', ""],
    ["afterFileEdit", block, "{}", "why\n"],
    // tdd mode's gate: a refusal with a one-line user_message, the whole reason for the agent.
    [
      "preToolUse",
      deny,
      '{"permission":"deny","user_message":"blocked: src/a.py","agent_message":"blocked: src/a.py\\nrun: tailtest red"}',
      "",
    ],
    // A warning lets the call go on: no permission key, so Cursor's own flow decides.
    ["preToolUse", context, '{"additional_context":"note"}', ""],
    ["preToolUse", none, "{}", ""],
    // Cursor sets sessionStart's env for the session: how `tailtest red` finds its log.
    ["sessionStart", withEnv, '{"additional_context":"note","env":{"TAILTEST_TDD_KEY":"c1"}}', ""],
    ["postToolUse", withEnv, '{"additional_context":"note"}', ""],
    // subagentStart takes no context, and tailtest never refuses a subagent.
    ["subagentStart", context, "{}", ""],
    ["subagentStart", none, "{}", ""],
    ["subagentStart", deny, "{}", "blocked: src/a.py\nrun: tailtest red\n"],
    ["subagentStop", none, "{}", ""],
    ["subagentStop", block, '{"followup_message":"why"}', ""],
    ["subagentStop", context, "{}", "note\n"],
    // A deny where Cursor has no permission is a block.
    ["stop", deny, '{"followup_message":"blocked: src/a.py\\nrun: tailtest red"}', ""],
  ])("%s %j → stdout %s", (event, decision, stdout, stderr) => {
    expect(renderDecision(event, decision)).toEqual({ stdout, stderr });
  });

  it("never prints nothing: Cursor counts an empty stdout as a failed hook", () => {
    const events = [
      "sessionStart",
      "preToolUse",
      "postToolUse",
      "afterFileEdit",
      "subagentStart",
      "subagentStop",
      "stop",
      "sessionEnd",
    ];
    for (const event of events) {
      for (const decision of [context, block, none, deny, withEnv]) {
        const { stdout } = renderDecision(event, decision);
        expect(stdout, `${event} ${decision.kind}`).not.toBe("");
        expect(typeof JSON.parse(stdout)).toBe("object");
      }
    }
  });
});
