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
import { HOOK_BIN, parseAnswer } from "./payloads.ts";

const runHook = (io: HookIO) => runCall(PLATFORM, io, handleEvent);

/**
 * The fuzz suite (`describeFuzzSuite`) against the Codex hook: payloads shaped like the
 * recorded ones (fixtures/payloads/codex-0.169.0); an answer is empty or JSON Codex 0.169.0
 * accepts for its event. The project is where Codex says (the nearest `.tailtest/` above the
 * payload's `cwd`, its hook protocol), so `cwd` is fuzzed within the project; every other field
 * may point anywhere.
 */

// ---------------------------------------------------------------------------------------------
// The checks after every call.

/**
 * exit 0, no stack trace, and stdout empty or one line of JSON Codex 0.169.0 accepts for the
 * event (`parseAnswer`: only the protocol's keys, hookEventName naming the event, none of the values it
 * rejects). A call whose event cannot be read may only be denied (tdd/strict) or get nothing;
 * tailtest never answers "allow", and follow mode never denies.
 */
function checkAnswer(result: HookOutput, stdin: string, mode: Mode): Outcome {
  expect(result.exitCode).toBe(0);
  for (const stream of [result.stdout, result.stderr]) {
    expect(stream).not.toMatch(STACK);
    expect(stream).not.toContain(REPO_ROOT);
  }
  if (result.stderr !== "") expect(result.stderr).toMatch(/^tailtest[\s\S]*\n$/);
  if (result.stdout === "") return "silent";
  expect(result.stdout).toMatch(/^\{[^\n]*\}\n$/);
  const event = eventOf(stdin);
  const json = parseAnswer(result.stdout.slice(0, -1), event ?? "PreToolUse") ?? {};
  const specific = json["hookSpecificOutput"] as Record<string, unknown> | undefined;
  if (specific?.["permissionDecision"] !== undefined) {
    expect(specific["permissionDecision"]).toBe("deny");
    expect(mode).not.toBe("follow");
    return "deny";
  }
  expect(event, "only a deny answers a call whose event cannot be read").toBeDefined();
  if (json["decision"] === "block") return "block";
  return specific?.["additionalContext"] === undefined ? "message" : "context";
}

// ---------------------------------------------------------------------------------------------
// Payloads

/** An apply_patch body naming those paths (Add, Update, Delete, Move), sometimes malformed. */
function patchArb(paths: fc.Arbitrary<string>, text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const section = fc
    .tuple(fc.constantFrom("Add", "Update", "Delete", "Move"), paths, paths, text)
    .map(([kind, path, to, body]) => {
      if (kind === "Move")
        return `*** Update File: ${path}\n*** Move to: ${to}\n@@\n-x\n+${body}\n`;
      if (kind === "Delete") return `*** Delete File: ${path}\n`;
      return `*** ${kind} File: ${path}\n+${body.split("\n").join("\n+")}\n`;
    });
  return fc
    .tuple(fc.array(section, { maxLength: 4 }), fc.boolean(), fc.boolean())
    .map(
      ([sections, begin, end]) =>
        `${begin ? "*** Begin Patch\n" : ""}${sections.join("")}${end ? "*** End Patch\n" : ""}`,
    );
}

/** Codex's argv form of a shell command, sometimes a shell running a script. */
function argvArb(w: World, commands: fc.Arbitrary<string>): fc.Arbitrary<string[]> {
  return fc.oneof(
    commands.map((cmd) => ["bash", "-lc", cmd]),
    commands.map((cmd) => ["/bin/sh", "-c", cmd]),
    fc.array(hostileString(w), { maxLength: 4 }),
  );
}

/** The tool calls of one payload: a patch, a command line, an argv, or a tool tailtest ignores. */
function toolArb(w: World, paths: fc.Arbitrary<string>): fc.Arbitrary<[string, unknown]> {
  const text = hostileString(w);
  const commands = commandArb(w, paths);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: patchArb(paths, text).map((c): [string, unknown] => ["apply_patch", c]),
    },
    { weight: 3, arbitrary: commands.map((c): [string, unknown] => ["Bash", c]) },
    { weight: 1, arbitrary: argvArb(w, commands).map((c): [string, unknown] => ["Bash", c]) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom("Edit", "Write", "mcp__fs__write_file", "Read", "apply_patch"),
        fc.oneof(patchArb(paths, text), anyJson),
      ),
    },
  );
}

/** Payloads shaped like the recorded Codex 0.169.0 ones (one per event), values fuzzed. */
function shapedArb(w: World, root: string, paths = pathArb(w, root)): fc.Arbitrary<Payload> {
  const s = hostileString(w);
  const cwd = fc.oneof(
    { weight: 6, arbitrary: fc.constant(root) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        join(root, "src"),
        join(root, "src", "not", "there"),
        join(root, "linkdir"),
        ".",
        "src",
        "./src/../src",
        `${root}/`,
      ),
    },
  );
  const common = fc.record({
    session_id: fc.oneof(fc.uuid(), s),
    turn_id: fc.oneof(fc.uuid(), s),
    transcript_path: fc.oneof(
      fc.constant(join(w.home, ".codex", "sessions", "rollout.jsonl")),
      fc.constant(null),
      paths,
    ),
    cwd,
    model: fc.constantFrom("gpt-5.5", ""),
    permission_mode: fc.constantFrom("bypassPermissions", "default", "plan", "acceptEdits"),
  });
  const tools = toolArb(w, paths);
  const toolCall = (event: "PreToolUse" | "PostToolUse") =>
    fc.tuple(tools, fc.oneof(s, anyJson)).map(([[name, command], response]) => ({
      hook_event_name: event,
      tool_name: name,
      tool_input: { command },
      tool_use_id: "call_fuzz",
      ...(event === "PostToolUse" ? { tool_response: response } : {}),
    }));
  const event = fc.oneof(
    fc
      .constantFrom("startup", "resume", "clear", "compact", "fork", "?")
      .map((source) => ({ hook_event_name: "SessionStart", source })),
    s.map((prompt) => ({ hook_event_name: "UserPromptSubmit", prompt })),
    { weight: 4, arbitrary: toolCall("PreToolUse") },
    { weight: 4, arbitrary: toolCall("PostToolUse") },
    fc.tuple(fc.boolean(), fc.option(s)).map(([active, message]) => ({
      hook_event_name: "Stop",
      stop_hook_active: active,
      last_assistant_message: message,
    })),
    fc.tuple(s, fc.boolean()).map(([agent, active]) => ({
      hook_event_name: "SubagentStop",
      agent_id: agent,
      agent_type: "worker",
      stop_hook_active: active,
    })),
    s.map((agent) => ({ hook_event_name: "SubagentStart", agent_id: agent, agent_type: "worker" })),
    fc.constant({ hook_event_name: "SessionEnd", reason: "other" }),
    fc
      .constantFrom("PermissionRequest", "PreCompact", "PostCompact", "Interrupt", "pretooluse", "")
      .map((name) => ({ hook_event_name: name, tool_name: "Bash", tool_input: {} })),
  );
  return fc.tuple(common, event).map(([base, specific]) => ({ ...base, ...specific }));
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
  "turn_id",
  "transcript_path",
  "agent_id",
  "source",
  "__proto__",
  "constructor",
];

function mutationsArb(w: World): fc.Arbitrary<Mutation[]> {
  return mutationsOf(w, KEYS, ["command", "file_path", "__proto__"]);
}

const EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  "SubagentStart",
  "SessionEnd",
];

// ---------------------------------------------------------------------------------------------

/** A random payload's `cwd` string names the project (the hook would take any folder for one). */
function confine(stdin: string, root: string): string {
  let json: unknown;
  try {
    json = JSON.parse(stdin.replace(/^\uFEFF/, ""));
  } catch {
    return stdin;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return stdin;
  if (typeof (json as Payload)["cwd"] !== "string") return stdin;
  return JSON.stringify({ ...(json as Payload), cwd: root });
}

/**
 * Where a huge string goes: a field, the whole tool input, a patch body, or a file name (see
 * hugeString).
 */
const hugePlaceArb = fc.constantFrom(
  "session_id",
  "turn_id",
  "transcript_path",
  "model",
  "prompt",
  "last_assistant_message",
  "tool_response",
  "agent_id",
  "extra",
  "command",
  "patch body",
  "patch path",
  "redirect path",
);
function withHuge(payload: Payload, place: string, unit: string, bytes: number): Payload {
  const huge = hugeString(unit, bytes, {
    inPath: ["patch path", "redirect path"].includes(place),
    inShell: ["command", "redirect path"].includes(place),
  });
  const input = (command: string) => ({ ...payload, tool_input: { command } });
  switch (place) {
    case "command":
      return input(huge);
    case "patch body":
      return input(`*** Begin Patch\n*** Add File: src/big.py\n+${huge}\n*** End Patch\n`);
    case "patch path":
      return input(`*** Begin Patch\n*** Add File: src/${huge}.py\n+x\n*** End Patch\n`);
    case "redirect path":
      return input(`echo x > src/${huge}.py`);
    default:
      return { ...payload, [place]: huge };
  }
}

describeFuzzSuite({
  name: "codex",
  seed: 90_009,
  hookBin: HOOK_BIN,
  config: (mode) => ({ mode }),
  runHook,
  env: () => ({}),
  checkAnswer,
  refused: {
    stdin: JSON.stringify({ hook_event_name: "PreToolUse" }),
    answers: [
      ['{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\n', ""],
      ['{"decision":"block","reason":"x","extra":1}\n', ""],
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
      .map(({ tool: [name, command], stop, session }) => {
        const base = { session_id: session, turn_id: "t", cwd: root };
        const call = { ...base, tool_name: name, tool_input: { command }, tool_use_id: "c" };
        return [
          { ...call, hook_event_name: "PreToolUse" },
          { ...call, hook_event_name: "PostToolUse", tool_response: "" },
          ...(stop ? [{ ...base, hook_event_name: "Stop" }] : []),
        ];
      }),
  randomArb: randomJsonArb(EVENTS, ["session_id", "cwd", "tool_input"]),
  hugePlaceArb,
  withHuge,
  confine,
  runnerCalls: (root, name, viaShell) => {
    const base = { session_id: "runner", turn_id: "t", cwd: root };
    const command = viaShell
      ? `echo 'export const value = 1;' > 'src/${name.replaceAll("'", "'\\''")}.js'`
      : `*** Begin Patch\n*** Update File: src/${name}.js\n@@\n+export const value = 1;\n*** End Patch\n`;
    const edit = {
      ...base,
      hook_event_name: "PostToolUse",
      tool_name: viaShell ? "Bash" : "apply_patch",
      tool_input: { command },
      tool_response: "",
    };
    return [edit, { ...base, hook_event_name: "Stop" }];
  },
  holds: (stdout) => stdout.includes('"decision":"block"'),
});
