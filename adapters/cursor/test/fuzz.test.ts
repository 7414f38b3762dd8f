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
import { handleEvent, runHook, type HookIO, type HookOutput } from "@tailtest/core/node/hook";
import { PLATFORM } from "../src/platform.ts";

const runCursorHook = (io: HookIO) => runHook(PLATFORM, io, handleEvent);

/**
 * The fuzz suite (`describeFuzzSuite`) against the Cursor hook: payloads shaped like the
 * synthetic ones built from the protocol reference (fixtures/payloads/cursor). An answer is
 * always a JSON object with only the keys its hook protocol lists for its event (Cursor counts
 * empty stdout as a failed hook, and invalid JSON on a permission event blocks). The project is
 * CURSOR_PROJECT_DIR, which Cursor always sets (its hook protocol); every payload field, `workspace_roots` and
 * `cwd` included, may point anywhere.
 */

// ---------------------------------------------------------------------------------------------
// The checks after every call.

/** Keys Cursor reads per event (its hook protocol); any other event: `{}` only. */
const CURSOR_KEYS: Readonly<Record<string, readonly string[]>> = {
  sessionStart: ["env", "additional_context", "continue", "user_message"],
  beforeSubmitPrompt: ["continue", "user_message", "additional_context"],
  preToolUse: ["permission", "user_message", "agent_message", "additional_context"],
  beforeShellExecution: ["permission", "user_message", "agent_message"],
  beforeMCPExecution: ["permission", "user_message", "agent_message"],
  beforeReadFile: ["permission", "user_message"],
  subagentStart: ["permission", "user_message"],
  postToolUse: ["additional_context"],
  postToolUseFailure: ["additional_context"],
  stop: ["followup_message"],
  subagentStop: ["followup_message"],
  preCompact: ["user_message"],
};

/**
 * exit 0, no stack trace, and always one line of JSON: an object with only the keys Cursor reads
 * for the event, string values (`env`: strings too). tailtest never answers "allow" (nor "ask");
 * a call whose event cannot be read may only be denied (tdd/strict) or get `{}`; follow mode
 * never denies.
 */
function checkAnswer(result: HookOutput, stdin: string, mode: Mode): Outcome {
  expect(result.exitCode).toBe(0);
  for (const stream of [result.stdout, result.stderr]) {
    expect(stream).not.toMatch(STACK);
    expect(stream).not.toContain(REPO_ROOT);
  }
  expect(result.stdout).toMatch(/^\{[^\n]*\}\n$/);
  const json = JSON.parse(result.stdout) as Record<string, unknown>;
  const event = eventOf(stdin) ?? "preToolUse";
  for (const [key, value] of Object.entries(json)) {
    expect(CURSOR_KEYS[event] ?? []).toContain(key);
    if (key !== "env") expect(typeof value).toBe("string");
    else for (const v of Object.values(value as object)) expect(typeof v).toBe("string");
  }
  if (json["permission"] !== undefined) {
    expect(json["permission"]).toBe("deny");
    expect(typeof json["agent_message"]).toBe("string");
    expect(mode).not.toBe("follow");
    return "deny";
  }
  if (Object.keys(json).length === 0) return result.stderr === "" ? "silent" : "message";
  expect(eventOf(stdin), "only a deny answers a call whose event cannot be read").toBeDefined();
  return json["followup_message"] === undefined ? "context" : "block";
}

/** The hook's environment as Cursor sets it (its hook protocol): the project is named. */
function envFor(root: string): Record<string, string> {
  return { CURSOR_PROJECT_DIR: root, CLAUDE_PROJECT_DIR: root, CURSOR_VERSION: "2.1.50" };
}

// ---------------------------------------------------------------------------------------------
// Payloads

/** A tool call as Cursor sends it (its hook protocol): Write, Delete, Shell, Read, Task, MCP, others. */
function toolArb(
  w: World,
  root: string,
  paths: fc.Arbitrary<string>,
): fc.Arbitrary<[string, unknown]> {
  const text = hostileString(w);
  const tool = (name: string, input: fc.Arbitrary<Payload>) =>
    input.map((value): [string, unknown] => [name, value]);
  const cwd = fc.oneof(fc.constant(root), paths);
  return fc.oneof(
    { weight: 3, arbitrary: tool("Write", fc.record({ file_path: paths, content: text })) },
    {
      weight: 1,
      arbitrary: tool(
        "Delete",
        fc.oneof(fc.record({ file_path: paths }), fc.record({ path: paths })),
      ),
    },
    { weight: 3, arbitrary: tool("Shell", fc.record({ command: commandArb(w, paths), cwd })) },
    { weight: 1, arbitrary: tool("Read", fc.record({ file_path: paths })) },
    { weight: 1, arbitrary: tool("MCP:write_file", fc.record({ path: paths })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom("Write", "Shell", "Delete", "Task", ""), anyJson),
    },
  );
}

/** Payloads shaped like fixtures/payloads/cursor (one per event), values fuzzed. */
function shapedArb(w: World, root: string, paths = pathArb(w, root)): fc.Arbitrary<Payload> {
  const s = hostileString(w);
  const conversation = fc.oneof(fc.uuid(), s);
  const common = fc.record({
    conversation_id: conversation,
    generation_id: fc.oneof(fc.uuid(), fc.constant(null)),
    model: fc.constantFrom("claude-4.5-sonnet", "", null),
    session_id: conversation,
    cursor_version: fc.constantFrom("2.1.50", null),
    workspace_roots: fc.oneof(
      { weight: 4, arbitrary: fc.constant([root]) },
      { weight: 1, arbitrary: fc.array(paths, { maxLength: 2 }) },
    ),
    user_email: fc.constant("dev@example.com"),
    transcript_path: fc.oneof(
      fc.constant(join(w.home, ".cursor", "t.txt")),
      fc.constant(null),
      paths,
    ),
  });
  const tools = toolArb(w, root, paths);
  const loop = fc.constantFrom(0, 1, 2, -1, 0.5);
  const toolCall = (event: "preToolUse" | "postToolUse" | "postToolUseFailure") =>
    fc.tuple(tools, s, fc.option(s)).map(([[name, input], output, subagent]) => ({
      hook_event_name: event,
      tool_name: name,
      tool_input: input,
      tool_use_id: "toolu_fuzz",
      cwd: root,
      ...(event === "postToolUse" ? { tool_output: output, duration: 14 } : {}),
      ...(event === "postToolUseFailure" ? { error_message: output, is_interrupt: false } : {}),
      ...(subagent === null ? {} : { subagent_id: subagent }),
    }));
  const event = fc.oneof(
    fc
      .boolean()
      .map((background) => ({ hook_event_name: "sessionStart", is_background_agent: background })),
    s.map((prompt) => ({ hook_event_name: "beforeSubmitPrompt", prompt, attachments: [] })),
    { weight: 4, arbitrary: toolCall("preToolUse") },
    { weight: 4, arbitrary: toolCall("postToolUse") },
    { weight: 1, arbitrary: toolCall("postToolUseFailure") },
    {
      weight: 2,
      arbitrary: fc.tuple(paths, s).map(([file, text]) => ({
        hook_event_name: "afterFileEdit",
        file_path: file,
        edits: [{ old_string: "", new_string: text }],
      })),
    },
    fc
      .tuple(fc.constantFrom("completed", "aborted", "error", "?"), loop)
      .map(([status, count]) => ({
        hook_event_name: "stop",
        status,
        loop_count: count,
      })),
    fc.tuple(s, fc.option(s)).map(([id, parent]) => ({
      hook_event_name: "subagentStart",
      subagent_id: id,
      subagent_type: "generalPurpose",
      task: "t",
      parent_conversation_id: parent,
    })),
    fc.tuple(fc.option(s), loop).map(([id, count]) => ({
      hook_event_name: "subagentStop",
      subagent_id: id,
      status: "completed",
      loop_count: count,
    })),
    fc.constant({ hook_event_name: "sessionEnd", reason: "completed", duration_ms: 1 }),
    fc.tuple(commandArb(w, paths), paths).map(([command, file]) => ({
      hook_event_name: "beforeShellExecution",
      command,
      cwd: root,
      file_path: file,
    })),
    fc
      .constantFrom("beforeReadFile", "afterShellExecution", "preCompact", "PreToolUse", "")
      .map((name) => ({ hook_event_name: name, file_path: root, command: "ls" })),
  );
  return fc.tuple(common, event).map(([base, specific]) => ({ ...base, ...specific }));
}

/** Top-level fields a mutation drops or sets. */
const KEYS = [
  "conversation_id",
  "session_id",
  "hook_event_name",
  "workspace_roots",
  "tool_name",
  "tool_input",
  "file_path",
  "edits",
  "loop_count",
  "status",
  "subagent_id",
  "parent_conversation_id",
  "transcript_path",
  "cursor_version",
  "__proto__",
  "constructor",
];

function mutationsArb(w: World): fc.Arbitrary<Mutation[]> {
  return mutationsOf(w, KEYS, ["command", "file_path", "path", "cwd", "__proto__"]);
}

const EVENTS = [
  "sessionStart",
  "preToolUse",
  "postToolUse",
  "afterFileEdit",
  "stop",
  "subagentStart",
  "subagentStop",
  "sessionEnd",
];

// ---------------------------------------------------------------------------------------------

/**
 * Where a huge string goes: a field, a tool input field, or a file name (a Shell `cwd` counts as
 * one: writes resolve against it). See hugeString.
 */
const hugePlaceArb = fc.constantFrom(
  "conversation_id",
  "generation_id",
  "transcript_path",
  "user_email",
  "prompt",
  "tool_output",
  "subagent_id",
  "status",
  "extra",
  "content",
  "command",
  "cwd",
  "file_path",
  "redirect path",
);
function withHuge(payload: Payload, place: string, unit: string, bytes: number): Payload {
  const huge = hugeString(unit, bytes, {
    inPath: ["cwd", "file_path", "redirect path"].includes(place),
    inShell: ["command", "redirect path"].includes(place),
  });
  const input = payload["tool_input"];
  const fields = typeof input === "object" && input !== null ? (input as Payload) : {};
  switch (place) {
    case "content":
    case "command":
      return { ...payload, tool_input: { ...fields, [place]: huge } };
    case "cwd":
      return {
        ...payload,
        tool_name: "Shell",
        tool_input: { command: "echo x > a.py", cwd: huge },
      };
    case "file_path":
      return {
        ...payload,
        file_path: `src/${huge}.py`,
        tool_input: { ...fields, file_path: `src/${huge}.py` },
      };
    case "redirect path":
      return { ...payload, tool_name: "Shell", tool_input: { command: `echo x > src/${huge}.py` } };
    default:
      return { ...payload, [place]: huge };
  }
}

describeFuzzSuite({
  name: "cursor",
  seed: 90_002,
  hookBin: join(REPO_ROOT, "adapters/cursor/dist/hook.cjs"),
  config: (mode) => ({ mode }),
  runHook: runCursorHook,
  env: (_stdin, root) => envFor(root),
  checkAnswer,
  refused: {
    stdin: JSON.stringify({ hook_event_name: "preToolUse" }),
    answers: [
      ['{"permission":"allow"}\n', ""],
      ['{"followup_message":"x"}\n', ""],
      ["", ""],
      ["{}\n", "tailtest: boom\n    at run (/x/y.js:1:2)\n"],
      ["not json\n", ""],
    ],
  },
  shapedArb: (w, root) => shapedArb(w, root),
  mutationsArb,
  injectionArb: (w, root, paths) =>
    fc
      .record({ tool: toolArb(w, root, paths), stop: fc.boolean(), id: fc.uuid() })
      .map(({ tool: [name, input], stop, id }) => {
        const base = { conversation_id: id, cursor_version: "2.1.50", workspace_roots: [root] };
        const call = { ...base, tool_name: name, tool_input: input, tool_use_id: "t", cwd: root };
        const file = (input as Payload | null)?.["file_path"];
        return [
          { ...call, hook_event_name: "preToolUse" },
          { ...call, hook_event_name: "postToolUse", tool_output: "" },
          ...(typeof file === "string"
            ? [{ ...base, hook_event_name: "afterFileEdit", file_path: file }]
            : []),
          ...(stop ? [{ ...base, hook_event_name: "stop", loop_count: 0 }] : []),
        ];
      }),
  randomArb: randomJsonArb(
    EVENTS,
    ["conversation_id", "workspace_roots", "tool_input", "file_path"],
    { extra: { conversation_id: "c" }, fixed: { tool_name: "Write" } },
  ),
  hugePlaceArb,
  withHuge,
  runnerCalls: (root, name, viaShell) => {
    const base = { conversation_id: "runner", cursor_version: "2.1.50" };
    const file = join(root, "src", `${name}.js`);
    const command = `echo 'export const value = 1;' > 'src/${name.replaceAll("'", "'\\''")}.js'`;
    const edit = {
      ...base,
      hook_event_name: "postToolUse",
      tool_name: viaShell ? "Shell" : "Write",
      tool_input: viaShell ? { command, cwd: root } : { file_path: file, content: "" },
      tool_output: "",
    };
    return [edit, { ...base, hook_event_name: "stop", loop_count: 0 }];
  },
  holds: (stdout) => stdout.includes('"followup_message"'),
});
