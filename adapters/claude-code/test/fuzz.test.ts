import { join } from "node:path";
import { REPO_ROOT } from "@tailtest/test-utils";
import {
  anyJson,
  commandArb,
  eventOf,
  hostileString,
  hugeString,
  mutationsArb as mutationsOf,
  pathArb,
  randomJsonArb,
  STACK,
  type FuzzMode as Mode,
  type FuzzWorld as World,
  type Mutation,
  type Payload,
} from "@tailtest/test-utils/fuzz";
import { describeFuzzSuite, type FuzzOutcome as Outcome } from "@tailtest/test-utils/fuzz-suite";
import fc from "fast-check";
import { expect } from "vitest";
import {
  handleEvent,
  runHook as runCall,
  type HookIO,
  type HookOutput,
} from "@tailtest/core/node/hook";
import { PLATFORM } from "../src/platform.ts";

const runHook = (io: HookIO) => runCall(PLATFORM, io, handleEvent);

/**
 * The fuzz suite (`describeFuzzSuite`) against the Claude Code hook: payloads shaped like
 * the recorded ones (fixtures/payloads/claude-2.1.330), and a few Cursor payloads, which Cursor
 * sends to Claude Code hooks. An answer is empty or JSON of the shape its hook protocol
 * documents for its event (Cursor's protocol for a Cursor payload). The project is CLAUDE_PROJECT_DIR, which
 * Claude Code always sets (CURSOR_PROJECT_DIR for a Cursor call); every payload field, `cwd`
 * included, may point anywhere.
 */

const NO_REVIEWER = "tailtest-fuzz-no-such-reviewer";

// ---------------------------------------------------------------------------------------------
// The checks after every call.

const COMMON_KEYS = ["continue", "stopReason", "suppressOutput", "systemMessage"];

/** hookSpecificOutput fields per event (its hook protocol); absent: the event takes none. */
const SPECIFIC: Readonly<Record<string, readonly string[]>> = {
  PreToolUse: [
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
    "additionalContext",
  ],
  PostToolUse: ["hookEventName", "additionalContext"],
  PostToolUseFailure: ["hookEventName", "additionalContext"],
  UserPromptSubmit: ["hookEventName", "additionalContext"],
  SessionStart: ["hookEventName", "additionalContext"],
  SubagentStart: ["hookEventName", "additionalContext"],
  Stop: ["hookEventName", "additionalContext"],
  SubagentStop: ["hookEventName", "additionalContext"],
};
/** Where `decision: "block"` + `reason` is Claude Code's answer (deprecated on PreToolUse). */
const BLOCK_EVENTS = new Set(["PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"]);

const nonEmpty = (value: unknown) => typeof value === "string" && value.trim() !== "";

/**
 * exit 0, no stack trace, and stdout empty or one line of JSON Claude Code reads for the event:
 * only the protocol's keys, hookEventName naming the event, a block only where one is documented and
 * always with a reason. tailtest never answers "allow" (it would skip the person's prompt); a
 * call whose event cannot be read may only be denied (tdd/strict) or get nothing; follow mode
 * never denies. A Cursor payload gets Cursor's answer (`checkCursorAnswer`).
 */
function checkAnswer(result: HookOutput, stdin: string, mode: Mode): Outcome {
  expect(result.exitCode).toBe(0);
  for (const stream of [result.stdout, result.stderr]) {
    expect(stream).not.toMatch(STACK);
    expect(stream).not.toContain(REPO_ROOT);
  }
  if (result.stderr !== "") expect(result.stderr).toMatch(/^tailtest[\s\S]*\n$/);
  if (isCursorCall(stdin)) return checkCursorAnswer(result.stdout, stdin, mode);
  if (result.stdout === "") return "silent";
  expect(result.stdout).toMatch(/^\{[^\n]*\}\n$/);
  const json = JSON.parse(result.stdout) as Record<string, unknown>;
  const event = eventOf(stdin) ?? "PreToolUse";
  const specific = json["hookSpecificOutput"] as Record<string, unknown> | undefined;
  for (const key of Object.keys(json))
    expect([...COMMON_KEYS, "decision", "reason", "hookSpecificOutput"]).toContain(key);
  if (specific !== undefined) {
    expect(specific["hookEventName"]).toBe(event);
    for (const key of Object.keys(specific)) expect(SPECIFIC[event] ?? []).toContain(key);
  }
  if (json["systemMessage"] !== undefined) expect(typeof json["systemMessage"]).toBe("string");
  if (specific?.["additionalContext"] !== undefined)
    expect(typeof specific["additionalContext"]).toBe("string");
  if (specific?.["permissionDecision"] !== undefined) {
    expect(specific["permissionDecision"]).toBe("deny");
    expect(nonEmpty(specific["permissionDecisionReason"])).toBe(true);
    expect(mode).not.toBe("follow");
    return "deny";
  }
  expect(eventOf(stdin), "only a deny answers a call whose event cannot be read").toBeDefined();
  if (json["decision"] !== undefined) {
    expect(json["decision"]).toBe("block");
    expect(BLOCK_EVENTS.has(event), `${event} takes no decision`).toBe(true);
    expect(nonEmpty(json["reason"])).toBe(true);
    return "block";
  }
  return specific?.["additionalContext"] === undefined ? "message" : "context";
}

/** What Claude Code's hook takes for Cursor's call: Cursor's fields, in its stdin. */
function isCursorCall(stdin: string): boolean {
  if (!stdin.includes('"cursor_version"') && !stdin.includes('"conversation_id"')) return false;
  try {
    const json = JSON.parse(stdin.replace(/^\uFEFF/, "")) as unknown;
    if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
    const record = json as Record<string, unknown>;
    if ("cursor_version" in record) return true;
    const name = record["hook_event_name"];
    return (
      typeof record["conversation_id"] === "string" &&
      typeof name === "string" &&
      /^[a-z][A-Za-z]*$/.test(name)
    );
  } catch {
    return false;
  }
}

/** Keys Cursor reads per event (its hook protocol); any other event: `{}` only. */
const CURSOR_KEYS: Readonly<Record<string, readonly string[]>> = {
  sessionStart: ["env", "additional_context", "continue", "user_message"],
  beforeSubmitPrompt: ["continue", "user_message", "additional_context"],
  preToolUse: ["permission", "user_message", "agent_message", "additional_context"],
  postToolUse: ["additional_context"],
  postToolUseFailure: ["additional_context"],
  stop: ["followup_message"],
  subagentStop: ["followup_message"],
};

/** Cursor's answer: always a JSON object (empty stdout is a failed hook), only its keys. */
function checkCursorAnswer(stdout: string, stdin: string, mode: Mode): Outcome {
  expect(stdout).toMatch(/^\{[^\n]*\}\n$/);
  const json = JSON.parse(stdout) as Record<string, unknown>;
  const event = eventOf(stdin) ?? "preToolUse";
  for (const [key, value] of Object.entries(json)) {
    expect(CURSOR_KEYS[event] ?? []).toContain(key);
    if (key !== "env") expect(typeof value).toBe("string");
  }
  if (json["permission"] !== undefined) {
    expect(json["permission"]).toBe("deny");
    expect(mode).not.toBe("follow");
    return "deny";
  }
  if (Object.keys(json).length === 0) return "silent";
  expect(eventOf(stdin), "only a deny answers a call whose event cannot be read").toBeDefined();
  return json["followup_message"] === undefined ? "context" : "block";
}

/** The hook's environment: Claude Code always names the project; Cursor names it too. */
function envFor(stdin: string, root: string): Record<string, string> {
  return isCursorCall(stdin)
    ? { CLAUDE_PROJECT_DIR: root, CURSOR_PROJECT_DIR: root }
    : { CLAUDE_PROJECT_DIR: root };
}

// ---------------------------------------------------------------------------------------------
// Payloads

/** A tool call as Claude Code sends it: Write, Edit, NotebookEdit, Bash, a plan, MCP, others. */
function toolArb(w: World, paths: fc.Arbitrary<string>): fc.Arbitrary<[string, unknown]> {
  const text = hostileString(w);
  const tool = (name: string, input: fc.Arbitrary<Payload>) =>
    input.map((value): [string, unknown] => [name, value]);
  return fc.oneof(
    { weight: 3, arbitrary: tool("Write", fc.record({ file_path: paths, content: text })) },
    {
      weight: 2,
      arbitrary: tool(
        "Edit",
        fc.record({
          file_path: paths,
          old_string: text,
          new_string: text,
          replace_all: fc.boolean(),
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: tool("MultiEdit", fc.record({ file_path: paths, edits: fc.constant([]) })),
    },
    {
      weight: 1,
      arbitrary: tool("NotebookEdit", fc.record({ notebook_path: paths, new_source: text })),
    },
    {
      weight: 3,
      arbitrary: tool("Bash", fc.record({ command: commandArb(w, paths), description: text })),
    },
    { weight: 1, arbitrary: tool("ExitPlanMode", fc.record({ plan: text })) },
    {
      weight: 1,
      arbitrary: tool(
        "mcp__fs__write_file",
        fc.record({ path: paths, paths: fc.array(paths, { maxLength: 3 }), destination: paths }),
      ),
    },
    { weight: 1, arbitrary: tool("Read", fc.record({ file_path: paths })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom("Write", "Bash", "NotebookEdit", "Glob", ""), anyJson),
    },
  );
}

/** Cursor's payloads, as Cursor sends them to a Claude Code hook (its hook protocol). */
function cursorArb(w: World, root: string, paths: fc.Arbitrary<string>): fc.Arbitrary<Payload> {
  const s = hostileString(w);
  return fc
    .record({
      conversation_id: fc.oneof(fc.uuid(), s),
      hook_event_name: fc.constantFrom(
        "sessionStart",
        "preToolUse",
        "postToolUse",
        "afterFileEdit",
        "stop",
        "subagentStart",
        "subagentStop",
        "sessionEnd",
        "beforeSubmitPrompt",
      ),
      cursor_version: fc.constant("2.1.50"),
      workspace_roots: fc.oneof(fc.constant([root]), fc.array(paths, { maxLength: 2 })),
      tool_name: fc.constantFrom("Write", "Delete", "Shell", "Read"),
      tool_input: fc.oneof(
        paths.map((file_path) => ({ file_path })),
        commandArb(w, paths).map((command) => ({ command, cwd: root })),
      ),
      file_path: paths,
      loop_count: fc.constantFrom(0, 1, -1, 0.5),
      subagent_id: s,
    })
    .map((payload) => payload as Payload);
}

/** Payloads shaped like the recorded Claude Code 2.1.330 ones (one per event), values fuzzed. */
function shapedArb(w: World, root: string, paths = pathArb(w, root)): fc.Arbitrary<Payload> {
  const s = hostileString(w);
  const common = fc.record({
    session_id: fc.oneof(fc.uuid(), s),
    transcript_path: fc.oneof(
      fc.constant(join(w.home, ".claude", "projects", "p", "session.jsonl")),
      fc.constant(null),
      paths,
    ),
    cwd: fc.oneof({ weight: 4, arbitrary: fc.constant(root) }, { weight: 1, arbitrary: paths }),
    prompt_id: fc.uuid(),
    permission_mode: fc.constantFrom("bypassPermissions", "default", "plan", "acceptEdits"),
  });
  const tools = toolArb(w, paths);
  const toolCall = (event: "PreToolUse" | "PostToolUse" | "PostToolUseFailure") =>
    fc.tuple(tools, fc.oneof(s, anyJson), fc.option(s)).map(([[name, input], response, agent]) => ({
      hook_event_name: event,
      tool_name: name,
      tool_input: input,
      tool_use_id: "toolu_fuzz",
      ...(event === "PostToolUse" ? { tool_response: response, duration_ms: 19 } : {}),
      ...(event === "PostToolUseFailure" ? { error: response, is_interrupt: false } : {}),
      ...(agent === null ? {} : { agent_id: agent }),
    }));
  const event = fc.oneof(
    fc
      .constantFrom("startup", "resume", "clear", "compact", "fork", "?")
      .map((source) => ({ hook_event_name: "SessionStart", source })),
    s.map((prompt) => ({ hook_event_name: "UserPromptSubmit", prompt })),
    { weight: 4, arbitrary: toolCall("PreToolUse") },
    { weight: 4, arbitrary: toolCall("PostToolUse") },
    { weight: 1, arbitrary: toolCall("PostToolUseFailure") },
    fc.tuple(fc.boolean(), fc.option(s)).map(([active, message]) => ({
      hook_event_name: "Stop",
      stop_hook_active: active,
      last_assistant_message: message,
      background_tasks: [],
      session_crons: [],
    })),
    fc.tuple(s, fc.boolean()).map(([agent, active]) => ({
      hook_event_name: "SubagentStop",
      agent_id: agent,
      agent_type: "general-purpose",
      agent_transcript_path: join(w.home, "agent.jsonl"),
      stop_hook_active: active,
    })),
    s.map((agent) => ({
      hook_event_name: "SubagentStart",
      agent_id: agent,
      agent_type: "Explore",
    })),
    fc.constant({ hook_event_name: "SessionEnd", reason: "other" }),
    fc
      .constantFrom(
        "Notification",
        "PreCompact",
        "PermissionRequest",
        "StopFailure",
        "pretooluse",
        "",
      )
      .map((name) => ({ hook_event_name: name, tool_name: "Bash", tool_input: {} })),
  );
  return fc.oneof(
    {
      weight: 19,
      arbitrary: fc.tuple(common, event).map(([base, specific]) => ({ ...base, ...specific })),
    },
    { weight: 1, arbitrary: cursorArb(w, root, paths) },
  );
}

/** Top-level fields a mutation drops or sets. */
const KEYS = [
  "session_id",
  "cwd",
  "hook_event_name",
  "tool_name",
  "tool_input",
  "tool_response",
  "stop_hook_active",
  "transcript_path",
  "agent_id",
  "source",
  "__proto__",
  "constructor",
];

function mutationsArb(w: World): fc.Arbitrary<Mutation[]> {
  return mutationsOf(w, KEYS, [
    "command",
    "file_path",
    "notebook_path",
    "plan",
    "paths",
    "__proto__",
  ]);
}

const EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStop",
  "SubagentStart",
  "SessionEnd",
];

// ---------------------------------------------------------------------------------------------

/**
 * Where a huge string goes: a field, a tool input field, or a file name (`cwd` counts as one: Bash
 * writes resolve against it; so does a plan: strict mode reads file names in it). See hugeString.
 */
const hugePlaceArb = fc.constantFrom(
  "session_id",
  "transcript_path",
  "prompt",
  "last_assistant_message",
  "tool_response",
  "agent_id",
  "source",
  "extra",
  "content",
  "command",
  "plan",
  "cwd",
  "file_path",
  "redirect path",
);
function withHuge(payload: Payload, place: string, unit: string, bytes: number): Payload {
  const huge = hugeString(unit, bytes, {
    inPath: ["cwd", "file_path", "redirect path", "plan"].includes(place),
    inShell: ["command", "redirect path"].includes(place),
  });
  const input = payload["tool_input"];
  const fields = typeof input === "object" && input !== null ? (input as Payload) : {};
  switch (place) {
    case "content":
    case "command":
    case "plan":
      return { ...payload, tool_input: { ...fields, [place]: huge } };
    case "file_path":
      return { ...payload, tool_input: { ...fields, file_path: `src/${huge}.py` } };
    case "redirect path":
      return { ...payload, tool_name: "Bash", tool_input: { command: `echo x > src/${huge}.py` } };
    default:
      return { ...payload, [place]: huge };
  }
}

describeFuzzSuite({
  name: "claude-code",
  seed: 90_001,
  hookBin: join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs"),
  // The plan reviewer is a program that does not exist: ExitPlanMode never reaches a model.
  config: (mode) => ({ mode, tdd: { plan_review: { command: [NO_REVIEWER] } } }),
  runHook,
  env: envFor,
  checkAnswer,
  refused: {
    stdin: JSON.stringify({ hook_event_name: "PreToolUse" }),
    answers: [
      ['{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\n', ""],
      ['{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"deny"}}\n', ""],
      ['{"decision":"block"}\n', ""],
      ["", "tailtest: boom\n    at run (/x/y.js:1:2)\n"],
      ["not json\n", ""],
    ],
  },
  shapedArb: (w, root) => shapedArb(w, root),
  mutationsArb,
  injectionArb: (w, root, paths) =>
    fc
      .record({ tool: toolArb(w, paths), stop: fc.boolean(), session: fc.uuid() })
      .map(({ tool: [name, input], stop, session }) => {
        const base = { session_id: session, cwd: root };
        const call = { ...base, tool_name: name, tool_input: input, tool_use_id: "t" };
        return [
          { ...call, hook_event_name: "PreToolUse" },
          { ...call, hook_event_name: "PostToolUse", tool_response: {} },
          ...(stop ? [{ ...base, hook_event_name: "Stop" }] : []),
        ];
      }),
  randomArb: randomJsonArb(EVENTS, ["session_id", "cwd", "tool_input"]),
  hugePlaceArb,
  withHuge,
  runnerCalls: (root, name, viaShell) => {
    const base = { session_id: "runner", cwd: root };
    const file = join(root, "src", `${name}.js`);
    const command = `echo 'export const value = 1;' > 'src/${name.replaceAll("'", "'\\''")}.js'`;
    const edit = {
      ...base,
      hook_event_name: "PostToolUse",
      tool_name: viaShell ? "Bash" : "Write",
      tool_input: viaShell ? { command } : { file_path: file, content: "" },
      tool_response: {},
    };
    return [edit, { ...base, hook_event_name: "Stop" }];
  },
  holds: (stdout) => stdout.includes('"decision":"block"'),
});
