import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Decision, HookEvent } from "@tailtest/core";
import { FIXTURES_DIR } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import {
  ALLOWED_OUTPUT,
  renderDecision,
  shellCommandLine,
  translatePayload,
  type Translation,
} from "./translate.ts";

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
        expect(event).toBeUndefined();
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
          expect(event).toEqual({
            kind: "FilesEdited",
            paths: [`${ROOT}/src/billing.py`],
            deleted: [],
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
    { ...base, hook_event_name: "SubagentStart", agent_id: "a", agent_type: "x" },
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
  { kind: "block", reason: "tailtest: red" },
  { kind: "block", reason: "" },
];

describe("renderDecision", () => {
  it.each(EVENTS.flatMap((event) => DECISIONS.map((decision) => [event, decision] as const)))(
    "%s %j uses only keys Codex accepts for that event",
    (event, decision) => {
      const stdout = renderDecision(event, decision);
      if (stdout === "") return;
      const allowed = ALLOWED_OUTPUT[event];
      expect(allowed, `${event} has an allowed-key row`).toBeDefined();
      const json = JSON.parse(stdout) as Record<string, unknown>;
      for (const key of Object.keys(json)) expect(allowed?.top, key).toContain(key);
      const specific = json["hookSpecificOutput"] as Record<string, unknown> | undefined;
      if (specific !== undefined) {
        expect(specific["hookEventName"]).toBe(event);
        for (const key of Object.keys(specific)) expect(allowed?.specific, key).toContain(key);
      }
      if (json["decision"] !== undefined) {
        expect(json["decision"]).toBe("block");
        expect(String(json["reason"]).trim()).not.toBe("");
      }
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

  it("SessionEnd, which has no output schema, gets nothing", () => {
    expect(renderDecision("SessionEnd", { kind: "context", text: "x" })).toBe("");
    expect(renderDecision("SessionEnd", { kind: "block", reason: "x" })).toBe("");
  });
});
