import { loadPayload } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { renderDecision, translatePayload } from "./translate.ts";

const base = { session_id: "s1", cwd: "/p", transcript_path: "/t.jsonl" };

/** A payload without some of its fields (a recorded one turned into another event). */
function without(payload: object, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([key]) => !keys.includes(key)));
}
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
      { kind: "CommandFinished", command: "ls", cwd: "/p", agentId: undefined, failed: false },
    ],
    [
      {
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Read",
        tool_input: { file_path: "/p/a" },
      },
      undefined,
    ],
    [
      {
        ...base,
        hook_event_name: "PostToolUseFailure",
        tool_name: "Bash",
        agent_id: "a1",
        tool_input: { command: "pytest" },
        error: "Exit code 1",
      },
      {
        kind: "CommandFinished",
        command: "pytest",
        cwd: "/p",
        agentId: "a1",
        failed: true,
        error: "Exit code 1",
      },
    ],
    [
      {
        ...base,
        hook_event_name: "PostToolUseFailure",
        tool_name: "Bash",
        tool_input: { command: "sleep 9" },
        is_interrupt: true,
      },
      { kind: "CommandFinished", command: "sleep 9", cwd: "/p", agentId: undefined, failed: true },
    ],
    [
      {
        ...base,
        hook_event_name: "PostToolUseFailure",
        tool_name: "Write",
        tool_input: { file_path: "/p/a.py" },
        error: "denied",
      },
      undefined,
    ],
    [
      { ...base, hook_event_name: "SubagentStart", agent_id: "a1", agent_type: "Explore" },
      { kind: "SubagentStarted", agentId: "a1", agentType: "Explore" },
    ],
    [
      { ...base, hook_event_name: "SubagentStart", agent_id: "a2" },
      { kind: "SubagentStarted", agentId: "a2" },
    ],
    [
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "Edit",
        tool_input: { file_path: "/p/a.py", old_string: "a", new_string: "b" },
      },
      { kind: "EditRequested", paths: ["/p/a.py"], agentId: undefined },
    ],
    [
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "MultiEdit",
        agent_id: "a1",
        tool_input: { file_path: "/p/a.py", edits: [] },
      },
      { kind: "EditRequested", paths: ["/p/a.py"], agentId: "a1" },
    ],
    [
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "NotebookEdit",
        tool_input: { notebook_path: "/p/n.ipynb", new_source: "", edit_mode: "delete" },
      },
      { kind: "EditRequested", paths: ["/p/n.ipynb"], agentId: undefined },
    ],
    [
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "ExitPlanMode",
        tool_input: {},
      },
      { kind: "PlanSubmitted", plan: "" },
    ],
    [
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "mcp__filesystem__move_file",
        tool_input: { source: "/p/a.py", destination: "/p/b.py" },
      },
      { kind: "EditRequested", paths: ["/p/a.py", "/p/b.py"], agentId: undefined },
    ],
    [
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "mcp__fs__edit_file",
        agent_id: "a1",
        tool_input: { path: "src/a.py", paths: ["src/b.py", 3, "src/a.py"], filePath: "c.py" },
      },
      // Relative paths are taken from the session's folder, as Codex's and Cursor's are.
      {
        kind: "EditRequested",
        paths: ["/p/src/a.py", "/p/src/b.py", "/p/c.py"],
        agentId: "a1",
      },
    ],
    [
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "mcp__fs__read_file",
        tool_input: { path: "/p/a.py" },
      },
      undefined,
    ],
    [
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "mcp__notion__create_page",
        tool_input: { title: "x" },
      },
      undefined,
    ],
    [
      { ...base, hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: 1 } },
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
    [
      JSON.stringify({
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: {},
      }),
      'payload field "tool_input.file_path"',
    ],
    [
      JSON.stringify({
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: ["ls"] },
      }),
      'payload field "tool_input.command"',
    ],
    [
      JSON.stringify({ ...base, hook_event_name: "PreToolUse", tool_name: "Bash" }),
      'payload field "tool_input"',
    ],
    [
      JSON.stringify({
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "ExitPlanMode",
        tool_input: { plan: 7 },
      }),
      'payload field "tool_input.plan"',
    ],
    [
      JSON.stringify({ ...base, hook_event_name: "SubagentStart", agent_type: "x" }),
      'payload field "agent_id"',
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

/**
 * A recorded PreToolUse (Claude Code 2.1.330) and the events tdd mode adds, made from the
 * recorded payloads by changing only the event name, the tool and its fields: every other field
 * (prompt_id, permission_mode, tool_use_id, transcript_path …) stays as the CLI sent it.
 */
describe("translatePayload on recorded Claude Code 2.1.330 payload shapes", () => {
  const root = "/srv/project";
  const pre = loadPayload("claude-2.1.330", "context.PreToolUse-Write.json", root).stdin;
  const post = loadPayload("claude-2.1.330", "context.PostToolUse-Write.json", root).stdin;
  const start = loadPayload("claude-2.1.330", "context.SessionStart.json", root).stdin;
  const stop = loadPayload("claude-2.1.330", "context.Stop.json", root).stdin;
  const file = `${root}/src/billing.py`;
  const ok = (payload: object, env = {}) => {
    const result = translatePayload(JSON.stringify(payload), env);
    if (!result.ok) throw new Error(result.error);
    return result.event;
  };

  it("PreToolUse Write as recorded is an EditRequested for its file", () => {
    expect(ok(pre)).toEqual({ kind: "EditRequested", paths: [file], agentId: undefined });
  });

  it("PreToolUse Bash is a CommandRequested in the payload's cwd", () => {
    const bash = {
      ...pre,
      tool_name: "Bash",
      tool_input: { command: "echo x > calc.py", description: "d" },
    };
    expect(ok(bash)).toEqual({
      kind: "CommandRequested",
      command: "echo x > calc.py",
      cwd: root,
      agentId: undefined,
    });
  });

  it("PreToolUse ExitPlanMode is a PlanSubmitted with the plan", () => {
    const plan = { ...pre, tool_name: "ExitPlanMode", tool_input: { plan: "1. Red: test_add" } };
    expect(ok(plan)).toEqual({ kind: "PlanSubmitted", plan: "1. Red: test_add" });
  });

  it("PreToolUse inside a subagent carries its agent id", () => {
    expect(ok({ ...pre, agent_id: "agent-7", agent_type: "general-purpose" })).toEqual({
      kind: "EditRequested",
      paths: [file],
      agentId: "agent-7",
    });
  });

  it("PostToolUse Bash and PostToolUseFailure Bash are finished commands, failed or not", () => {
    const command = "python3 -m pytest tests/test_calc.py";
    const ran = {
      ...post,
      tool_name: "Bash",
      tool_input: { command },
      tool_response: { stdout: "", stderr: "", interrupted: false },
    };
    expect(ok(ran)).toEqual({
      kind: "CommandFinished",
      command,
      cwd: root,
      agentId: undefined,
      failed: false,
    });
    const rest = without(ran, "tool_response");
    const failed = {
      ...rest,
      hook_event_name: "PostToolUseFailure",
      error: "Exit code 1\nFAILED",
      is_interrupt: false,
    };
    expect(ok(failed)).toEqual({
      kind: "CommandFinished",
      command,
      cwd: root,
      agentId: undefined,
      failed: true,
      error: "Exit code 1\nFAILED",
    });
  });

  it("SubagentStart is a SubagentStarted", () => {
    const rest = without(start, "source");
    const started = {
      ...rest,
      hook_event_name: "SubagentStart",
      agent_id: "agent-7",
      agent_type: "Explore",
    };
    expect(ok(started)).toEqual({
      kind: "SubagentStarted",
      agentId: "agent-7",
      agentType: "Explore",
    });
  });

  it("SessionStart names CLAUDE_ENV_FILE as the env file when the hook has one", () => {
    expect(ok(start, { CLAUDE_ENV_FILE: "/tmp/env-1.sh" })).toMatchObject({
      kind: "SessionStarted",
      envFile: "/tmp/env-1.sh",
    });
    expect(ok(start, {})).not.toHaveProperty("envFile");
    expect(ok(stop)).toEqual({ kind: "TurnEnded", stopHookActive: false });
  });
});

describe("renderDecision", () => {
  it("a deny on PreToolUse is permissionDecision deny with the reason, never an allow", () => {
    expect(JSON.parse(renderDecision("PreToolUse", { kind: "deny", reason: "r" }))).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "r",
      },
    });
    expect(renderDecision("PreToolUse", { kind: "none" })).toBe("");
  });

  it.each(["PreToolUse", "PostToolUse", "PostToolUseFailure", "SubagentStart", "SessionStart"])(
    "context on %s is additionalContext under its own hookEventName",
    (event) => {
      expect(
        JSON.parse(renderDecision(event, { kind: "context", text: "n", env: { K: "v" } })),
      ).toEqual({
        hookSpecificOutput: { hookEventName: event, additionalContext: "n" },
      });
    },
  );

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

  it("the person's line at the end of a turn is systemMessage, beside whatever the agent gets", () => {
    const line = "tailtest: 3 edited files, 41 tests passed (2.1 s)";
    expect(JSON.parse(renderDecision("Stop", { kind: "none", userMessage: line }))).toEqual({
      systemMessage: line,
    });
    expect(
      JSON.parse(renderDecision("Stop", { kind: "block", reason: "r", userMessage: line })),
    ).toEqual({ decision: "block", reason: "r", systemMessage: line });
    expect(
      JSON.parse(renderDecision("Stop", { kind: "context", text: "t", userMessage: line })),
    ).toEqual({ systemMessage: `${line}\nt` });
  });
});
