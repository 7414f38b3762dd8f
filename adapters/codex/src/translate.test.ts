import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Decision, HookEvent } from "@tailtest/core";
import { FIXTURES_DIR } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { shellCommandLine } from "@tailtest/core/hook";
import { parseAnswer } from "../test/payloads.ts";
import { renderDecision, translatePayload, type Translation } from "./translate.ts";

const RECORDED = join(FIXTURES_DIR, "payloads", "codex-0.169.0");
const RUN = "/home/dev/run";
const ROOT = `${RUN}/project`;

/** A recorded payload's stdin, with the recording's placeholders filled as a real run would. */
function recorded(name: string): Record<string, unknown> {
  const raw = readFileSync(join(RECORDED, name), "utf8")
    .replaceAll("<run>/project", ROOT)
    .replaceAll("<run>", RUN);
  return (JSON.parse(raw) as { stdin: Record<string, unknown> }).stdin;
}

function eventOf(result: Translation): HookEvent | undefined {
  expect(result.ok, result.ok ? "" : result.error).toBe(true);
  return result.ok ? result.event : undefined;
}

const base = {
  session_id: "s1",
  cwd: "/p",
  transcript_path: null,
  model: "gpt-5.5",
  permission_mode: "default",
};
const translate = (payload: object) => translatePayload(JSON.stringify(payload));
const post = (tool_name: string, command: unknown, extra: object = {}) =>
  translate({
    ...base,
    turn_id: "t1",
    hook_event_name: "PostToolUse",
    tool_name,
    tool_input: { command },
    tool_response: "",
    tool_use_id: "call_1",
    ...extra,
  });

describe("every payload recorded from Codex 0.169.0", () => {
  const files = readdirSync(RECORDED).filter((name) => name !== "legacy-notify.json");

  it("the recording is all here (so a new file cannot slip past the table below)", () => {
    expect(files).toHaveLength(26);
  });

  it.each(files)("%s translates", (name) => {
    const stdin = recorded(name);
    const event = eventOf(translatePayload(JSON.stringify(stdin)));
    const input = stdin["tool_input"] as { command: string } | undefined;
    switch (stdin["hook_event_name"]) {
      case "SessionStart":
        expect(event).toEqual({
          kind: "SessionStarted",
          sessionId: stdin["session_id"],
          source: "startup",
        });
        break;
      case "UserPromptSubmit":
        expect(event).toEqual({ kind: "TurnStarted", turnId: stdin["turn_id"] });
        break;
      case "PreToolUse":
        if (stdin["tool_name"] === "Bash") {
          expect(event).toEqual({
            kind: "CommandRequested",
            command: input?.command,
            cwd: ROOT,
            agentId: undefined,
          });
        } else {
          expect(stdin["tool_name"]).toBe("apply_patch");
          expect(event).toEqual({
            kind: "EditRequested",
            paths: [`${ROOT}/src/billing.py`],
            deleted: [],
            agentId: undefined,
          });
        }
        break;
      case "PostToolUse":
        if (stdin["tool_name"] === "Bash") {
          expect(event).toEqual({
            kind: "CommandFinished",
            command: input?.command,
            cwd: ROOT,
            agentId: undefined,
          });
        } else {
          expect(stdin["tool_name"]).toBe("apply_patch");
          // A patch that adds the file names it new, with no git process to ask.
          const adds = String(input?.command).includes("*** Add File:");
          expect(event).toEqual({
            kind: "FilesEdited",
            paths: [`${ROOT}/src/billing.py`],
            deleted: [],
            ...(adds ? { created: [`${ROOT}/src/billing.py`] } : {}),
            agentId: undefined,
          });
        }
        break;
      case "Stop":
        expect(event).toEqual({
          kind: "TurnEnded",
          stopHookActive: stdin["stop_hook_active"],
          sweep: true,
        });
        break;
      case "SessionEnd":
        expect(event).toEqual({ kind: "SessionEnded" });
        break;
      default:
        expect.fail(`no expectation for ${String(stdin["hook_event_name"])}`);
    }
  });

  it("the recorded second Stop of a blocked turn says stop_hook_active", () => {
    expect(eventOf(translatePayload(JSON.stringify(recorded("stopblock.Stop-2.json"))))).toEqual({
      kind: "TurnEnded",
      stopHookActive: true,
      sweep: true,
    });
  });

  it("the legacy notify payload is not a hook payload (tailtest does not use notify)", () => {
    const notify = readFileSync(join(RECORDED, "legacy-notify.json"), "utf8");
    const result = translatePayload(JSON.stringify(JSON.parse(notify)[0].payload));
    expect(result.ok).toBe(false);
  });
});

/** A recorded PreToolUse payload with only `tool_input` (and maybe the event name) changed. */
function recordedVariant(name: string, changes: Record<string, unknown>): Translation {
  return translatePayload(JSON.stringify({ ...recorded(name), ...changes }));
}

describe("PreToolUse (tdd mode's gate) from the recorded 0.169.0 payloads", () => {
  const MIXED_PATCH = [
    "*** Begin Patch",
    "*** Add File: tests/test_billing.py",
    "+def test_x(): pass",
    "*** Update File: src/old.py",
    "*** Move to: src/new.py",
    "@@",
    "-a",
    "+b",
    "*** Update File: /elsewhere/x.py",
    "@@",
    "-c",
    "+d",
    "*** Delete File: src/gone.py",
    "*** End Patch",
    "",
  ].join("\n");

  it("the recorded apply_patch is an EditRequested for the file it adds, resolved against cwd", () => {
    expect(
      eventOf(translatePayload(JSON.stringify(recorded("block.PreToolUse-apply_patch.json")))),
    ).toEqual({
      kind: "EditRequested",
      paths: [`${ROOT}/src/billing.py`],
      deleted: [],
      agentId: undefined,
    });
  });

  it("the recorded Update File patch names the file it updates", () => {
    expect(
      eventOf(
        translatePayload(JSON.stringify(recorded("stopblock.PreToolUse-apply_patch-2.json"))),
      ),
    ).toMatchObject({
      kind: "EditRequested",
      paths: [`${ROOT}/src/billing.py`],
    });
  });

  it("every Add, Update, Delete and both sides of a Move count; the same patch after it ran is the same files", () => {
    const tool_input = { command: MIXED_PATCH };
    const paths = [`${ROOT}/tests/test_billing.py`, `${ROOT}/src/new.py`, "/elsewhere/x.py"];
    const deleted = [`${ROOT}/src/old.py`, `${ROOT}/src/gone.py`];
    expect(eventOf(recordedVariant("context.PreToolUse-apply_patch.json", { tool_input }))).toEqual(
      {
        kind: "EditRequested",
        paths,
        deleted,
        agentId: undefined,
      },
    );
    expect(
      eventOf(
        recordedVariant("context.PreToolUse-apply_patch.json", {
          tool_input,
          hook_event_name: "PostToolUse",
        }),
      ),
    ).toEqual({
      kind: "FilesEdited",
      paths,
      deleted,
      // After the patch, its Add File is known new (the gate before it has no use for that).
      created: [`${ROOT}/tests/test_billing.py`],
      agentId: undefined,
    });
  });

  it("a subagent's patch carries its agent id", () => {
    expect(
      eventOf(
        recordedVariant("block.PreToolUse-apply_patch.json", {
          agent_id: "a7",
          agent_type: "worker",
        }),
      ),
    ).toMatchObject({ kind: "EditRequested", agentId: "a7" });
  });

  it("the recorded Bash call is a CommandRequested with the command line and the session's folder", () => {
    const stdin = recorded("shell.PreToolUse-Bash.json");
    expect(eventOf(translatePayload(JSON.stringify(stdin)))).toEqual({
      kind: "CommandRequested",
      command: (stdin["tool_input"] as { command: string }).command,
      cwd: ROOT,
      agentId: undefined,
    });
  });

  it.each<[string, unknown, string]>([
    ["a string", "cat > calc.py <<'EOF'\nx = 1\nEOF\n", "cat > calc.py <<'EOF'\nx = 1\nEOF\n"],
    ["bash -lc", ["bash", "-lc", "echo hi > calc.py"], "echo hi > calc.py"],
    ["argv", ["rm", "my file.py"], "rm 'my file.py'"],
  ])("a Bash command as %s is the command line the shell will run", (_name, command, line) => {
    expect(
      eventOf(recordedVariant("shell.PreToolUse-Bash.json", { tool_input: { command } })),
    ).toEqual({
      kind: "CommandRequested",
      command: line,
      cwd: ROOT,
      agentId: undefined,
    });
  });

  it.each<[string, Record<string, unknown>]>([
    [
      "a patch that names no file",
      { tool_name: "apply_patch", tool_input: { command: "*** Begin Patch\n*** End Patch\n" } },
    ],
    ["an empty shell command", { tool_input: { command: "  " } }],
    ["a bare shell without a script", { tool_input: { command: ["bash", "-c"] } }],
    [
      "an MCP tool that reads",
      { tool_name: "mcp__fs__read_file", tool_input: { path: "calc.py" } },
    ],
    ["an MCP write tool naming no path", { tool_name: "mcp__db__write", tool_input: { sql: "x" } }],
    ["another tool", { tool_name: "WebSearch", tool_input: { query: "x" } }],
  ])("%s is no event (nothing tailtest gates runs)", (_name, changes) => {
    expect(eventOf(recordedVariant("shell.PreToolUse-Bash.json", changes))).toBeUndefined();
  });

  it("an MCP tool that writes a path is an edit the gate judges, resolved against cwd", () => {
    expect(
      eventOf(
        recordedVariant("shell.PreToolUse-Bash.json", {
          tool_name: "mcp__fs__write_file",
          tool_input: { path: "calc.py", content: "x = 1\n" },
        }),
      ),
    ).toMatchObject({ kind: "EditRequested", paths: [`${ROOT}/calc.py`] });
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      "apply_patch without a command",
      { tool_input: {} },
      'payload field "tool_input.command": apply_patch without a command',
    ],
    [
      "a command of the wrong type",
      { tool_input: { command: 7 } },
      'payload field "tool_input.command"',
    ],
    ["no tool_input", { tool_input: "x" }, 'payload field "tool_input"'],
    ["no tool_name", { tool_name: undefined }, 'payload field "tool_name"'],
  ])(
    "%s is bad input in one line (tdd mode denies what it cannot read)",
    (_name, changes, message) => {
      const result = recordedVariant("block.PreToolUse-apply_patch.json", changes);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error).toContain(message);
        expect(result.error).not.toContain("\n");
      }
    },
  );

  it("a Bash call without a command is bad input too", () => {
    const result = recordedVariant("shell.PreToolUse-Bash.json", { tool_input: {} });
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringContaining("Bash without a command") as unknown,
    });
  });
});

describe("SubagentStart", () => {
  const start = { ...base, turn_id: "t", hook_event_name: "SubagentStart" };

  it("is a SubagentStarted with the subagent's id and type", () => {
    expect(eventOf(translate({ ...start, agent_id: "a1", agent_type: "worker" }))).toEqual({
      kind: "SubagentStarted",
      agentId: "a1",
      agentType: "worker",
    });
  });

  it("without an agent_id is bad input", () => {
    const result = translate({ ...start, agent_type: "worker" });
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringContaining('payload field "agent_id"') as unknown,
    });
  });
});

describe("translatePayload", () => {
  it.each([
    ["startup", "startup"],
    ["resume", "resume"],
    ["clear", "clear"],
    ["compact", "compact"],
    ["fork", "startup"],
    ["something-new", "startup"],
  ])("SessionStart source %s starts as %s", (source, expected) => {
    expect(eventOf(translate({ ...base, hook_event_name: "SessionStart", source }))).toEqual({
      kind: "SessionStarted",
      sessionId: "s1",
      source: expected,
    });
  });

  it("SessionEnd needs no model or permission_mode (Codex leaves them out)", () => {
    expect(
      eventOf(
        translate({ session_id: "s", cwd: "/p", hook_event_name: "SessionEnd", reason: "other" }),
      ),
    ).toEqual({ kind: "SessionEnded" });
  });

  it("a patch's every header counts: add, update, delete, and a move (both sides)", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: src/new.py",
      "+x = 1",
      "*** Update File: lib/old_name.py",
      "*** Move to: lib/new_name.py",
      "@@",
      "-a",
      "+b",
      "*** Update File: /abs/elsewhere.py",
      "@@",
      "-c",
      "+d",
      "*** Delete File: src/gone.py",
      "*** End Patch",
      "",
    ].join("\n");
    expect(eventOf(post("apply_patch", patch, { cwd: "/p/sub", agent_id: "a7" }))).toEqual({
      kind: "FilesEdited",
      paths: ["/p/sub/src/new.py", "/p/sub/lib/new_name.py", "/abs/elsewhere.py"],
      deleted: ["/p/sub/lib/old_name.py", "/p/sub/src/gone.py"],
      created: ["/p/sub/src/new.py"],
      agentId: "a7",
    });
  });

  it("a patch without headers is no event", () => {
    expect(eventOf(post("apply_patch", "*** Begin Patch\n*** End Patch\n"))).toBeUndefined();
  });

  it.each<[string, unknown, string]>([
    ["a string", "cat > a.py <<'EOF'\nx\nEOF\n", "cat > a.py <<'EOF'\nx\nEOF\n"],
    ["bash -lc", ["bash", "-lc", "echo hi > a.py"], "echo hi > a.py"],
    ["sh -c", ["sh", "-c", "printf x > b.py"], "printf x > b.py"],
    ["/bin/zsh -c", ["/bin/zsh", "-c", "touch c.py"], "touch c.py"],
    ["argv", ["cp", "a.py", "b.py"], "cp a.py b.py"],
    ["argv needing quotes", ["cp", "my file.py", "it's.py"], "cp 'my file.py' 'it'\\''s.py'"],
  ])("a Bash command as %s is the command line the shell ran", (_name, command, line) => {
    expect(eventOf(post("Bash", command, { cwd: "/p/sub" }))).toEqual({
      kind: "CommandFinished",
      command: line,
      cwd: "/p/sub",
      agentId: undefined,
    });
  });

  it("shellCommandLine leaves a bare shell without a script empty", () => {
    expect(shellCommandLine(["bash", "-c"])).toBe("");
    expect(eventOf(post("Bash", ["bash", "-c"]))).toBeUndefined();
  });

  it.each([
    ["an object", { output: "ok", exit_code: 0 }],
    ["a number", 3],
    ["null", null],
    ["a list", ["x"]],
  ])("accepts any JSON tool_response (%s)", (_name, response) => {
    expect(eventOf(post("Bash", "ls", { tool_response: response }))).toMatchObject({
      kind: "CommandFinished",
    });
  });

  it.each([
    ["an MCP tool", "mcp__fs__write"],
    ["an unknown tool", "WebSearch"],
  ])("PostToolUse of %s is no event", (_name, tool) => {
    expect(eventOf(post(tool, "x"))).toBeUndefined();
  });

  it("SubagentStop ends the subagent's turn, without the sweep", () => {
    expect(
      eventOf(
        translate({
          ...base,
          turn_id: "t",
          hook_event_name: "SubagentStop",
          stop_hook_active: false,
          agent_id: "a1",
          agent_type: "worker",
          agent_transcript_path: null,
          last_assistant_message: null,
        }),
      ),
    ).toEqual({ kind: "TurnEnded", stopHookActive: false, agentId: "a1" });
  });

  it.each([
    { ...base, hook_event_name: "PreCompact", trigger: "auto" },
    { ...base, hook_event_name: "Interrupt" },
    { ...base, hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: {} },
  ])("$hook_event_name is no event", (payload) => {
    expect(eventOf(translate(payload))).toBeUndefined();
  });

  it.each([
    ["not json", "stdin is not JSON"],
    ["", "stdin is not JSON"],
    ["[]", 'payload field "payload": Invalid input'],
    [JSON.stringify({ hook_event_name: "Stop" }), 'payload field "session_id"'],
    [JSON.stringify({ ...base, cwd: 3, hook_event_name: "Interrupt" }), 'payload field "cwd"'],
    [
      JSON.stringify({ ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: 1 }),
      'payload field "tool_input"',
    ],
    [
      JSON.stringify({
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: 7 },
      }),
      'payload field "tool_input.command"',
    ],
    [
      JSON.stringify({ ...base, hook_event_name: "Stop", stop_hook_active: "yes" }),
      'payload field "stop_hook_active"',
    ],
    [
      JSON.stringify({ ...base, hook_event_name: "Stop", transcript_path: 5 }),
      'payload field "transcript_path"',
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

const EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PermissionRequest",
  "Stop",
  "SubagentStop",
  "SubagentStart",
  "SessionEnd",
  "PreCompact",
  "PostCompact",
  "Interrupt",
];
const DECISIONS: Decision[] = [
  { kind: "none" },
  { kind: "context", text: "tailtest: a note" },
  { kind: "context", text: "tailtest tdd: a note", env: { TAILTEST_TDD_KEY: "s1" } },
  { kind: "block", reason: "tailtest: red" },
  { kind: "block", reason: "" },
  { kind: "deny", reason: "tailtest tdd: calc.py is blocked" },
  { kind: "deny", reason: " " },
];

describe("renderDecision", () => {
  it.each(EVENTS.flatMap((event) => DECISIONS.map((decision) => [event, decision] as const)))(
    "%s %j uses only keys Codex accepts for that event",
    (event, decision) => {
      const stdout = renderDecision(event, decision);
      if (stdout === "") return;
      // The keys and values Codex 0.169.0 accepts, from a table written apart from src/.
      const json = parseAnswer(stdout, event) ?? {};
      const specific = json["hookSpecificOutput"] as Record<string, unknown> | undefined;
      if (json["decision"] !== undefined) {
        expect(json["decision"]).toBe("block");
        expect(String(json["reason"]).trim()).not.toBe("");
      }
      if (specific?.["permissionDecision"] !== undefined) {
        // 0.169.0 rejects "ask", "allow" without updatedInput, and a deny with no reason.
        expect(specific["permissionDecision"]).toBe("deny");
        expect(String(specific["permissionDecisionReason"]).trim()).not.toBe("");
        expect(specific).not.toHaveProperty("updatedInput");
      }
    },
  );

  it.each([
    [
      "PreToolUse",
      { kind: "deny", reason: "tailtest tdd: calc.py is blocked" },
      {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "tailtest tdd: calc.py is blocked",
        },
      },
    ],
    [
      "PreToolUse",
      { kind: "block", reason: "could not decide" },
      {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "could not decide",
        },
      },
    ],
    [
      "PreToolUse",
      { kind: "context", text: "big Green" },
      { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "big Green" } },
    ],
    [
      "SubagentStart",
      { kind: "context", text: "sub note" },
      { hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "sub note" } },
    ],
    [
      "SessionStart",
      { kind: "context", text: "tdd note", env: { TAILTEST_TDD_KEY: "s1" } },
      { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "tdd note" } },
    ],
    ["Stop", { kind: "deny", reason: "r" }, { decision: "block", reason: "r" }],
  ] as const)("tdd mode: %s %j is exactly %j", (event, decision, output) => {
    expect(renderDecision(event, decision)).toBe(JSON.stringify(output));
  });

  it("a deny without a reason still carries one (0.169.0 fails the hook open otherwise)", () => {
    const json = JSON.parse(renderDecision("PreToolUse", { kind: "deny", reason: "" })) as {
      hookSpecificOutput: { permissionDecisionReason: string };
    };
    expect(json.hookSpecificOutput.permissionDecisionReason).toMatch(/^tailtest tdd: /);
  });

  it.each(["SessionStart", "SubagentStart", "SessionEnd", "Interrupt"])(
    "%s: a deny has no answer there (nothing to refuse)",
    (event) => {
      expect(renderDecision(event, { kind: "deny", reason: "x" })).toBe("");
    },
  );

  it.each([
    [
      "SessionStart",
      { kind: "context", text: "n" },
      { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "n" } },
    ],
    [
      "PostToolUse",
      { kind: "context", text: "n" },
      { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "n" } },
    ],
    ["Stop", { kind: "block", reason: "r" }, { decision: "block", reason: "r" }],
    ["SubagentStop", { kind: "block", reason: "r" }, { decision: "block", reason: "r" }],
    ["Stop", { kind: "context", text: "budget spent" }, { systemMessage: "budget spent" }],
    ["SubagentStop", { kind: "context", text: "t" }, { systemMessage: "t" }],
  ] as const)("%s %j is exactly %j", (event, decision, output) => {
    const stdout = renderDecision(event, decision);
    expect(JSON.parse(stdout)).toEqual(output);
    expect(stdout).toBe(JSON.stringify(output));
  });

  it("a block without a reason still carries one (Codex fails the hook otherwise)", () => {
    const json = JSON.parse(renderDecision("Stop", { kind: "block", reason: "  " })) as {
      reason: string;
    };
    expect(json.reason).toMatch(/^tailtest: /);
  });

  it.each(EVENTS)("%s: no opinion is no output", (event) => {
    expect(renderDecision(event, { kind: "none" })).toBe("");
  });

  it("the person's line at the end of a turn is systemMessage, a key Codex accepts there", () => {
    const line = "tailtest: 3 edited files, 41 tests passed (2.1 s)";
    expect(renderDecision("Stop", { kind: "none", userMessage: line })).toBe(
      JSON.stringify({ systemMessage: line }),
    );
    expect(renderDecision("Stop", { kind: "block", reason: "r", userMessage: line })).toBe(
      JSON.stringify({ decision: "block", reason: "r", systemMessage: line }),
    );
    // Only keys from the event's table: nothing for an event without output.
    expect(renderDecision("SessionEnd", { kind: "none", userMessage: line })).toBe("");
  });

  it("SessionEnd, which has no output schema, gets nothing", () => {
    expect(renderDecision("SessionEnd", { kind: "context", text: "x" })).toBe("");
    expect(renderDecision("SessionEnd", { kind: "block", reason: "x" })).toBe("");
  });
});
