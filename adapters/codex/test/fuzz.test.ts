import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, runBin } from "@tailtest/test-utils";
import {
  anyJson,
  commandArb,
  count,
  encode,
  eventOf,
  expectNoMarker,
  expectSnapshotSeesChanges,
  fuzzSettings,
  garbageArb,
  hostileString,
  hugeString,
  hugeUnitArb,
  injectedPaths,
  mutate,
  mutationsArb as mutationsOf,
  nodeTest,
  pathArb,
  PWNED,
  randomJsonArb,
  SHELL_NAMES,
  snapshot,
  STACK,
  trimState,
  useFuzzWorld,
  withModes,
  type FuzzMode as Mode,
  type FuzzWorld as World,
  type Mutation,
  type Payload,
} from "@tailtest/test-utils/fuzz";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runHook, type HookOutput } from "../src/run-hook.ts";
import { HOOK_BIN, parseAnswer } from "./payloads.ts";

/**
 * Issue 9, "Bad input": property-based tests of the Codex hook (fast-check). Payloads shaped like
 * the recorded ones (fixtures/payloads/codex-0.169.0) with fields fuzzed and mutated, file names
 * and commands that try to reach a shell, fully random JSON, non-JSON stdin and ≥ 1 MB strings go
 * through `runHook` in process, in follow, tdd and strict projects without test runner files (so
 * no Stop starts a test run), then a sample through the built bin. Every call must resolve with
 * exit 0 and no stack trace, answer nothing or JSON Codex 0.169.0 accepts for its event, and leave
 * everything but the project's own state alone: a sentinel folder beside the projects (never
 * read or written; symlinks in each project lead into it), the projects' parent folder, HOME,
 * the test engine's scratch TMPDIR, and no `$(touch …)` / `; touch …` marker may ever appear.
 *
 * The project is where Codex says (the nearest `.tailtest/` above the payload's `cwd`, hook-protocols
 * §3.3), so `cwd` is fuzzed within the project; every other field may point anywhere.
 * Replay a failure with TAILTEST_FUZZ_SEED=<seed>; TAILTEST_FUZZ_SCALE scales the run counts.
 */

const { seed: SEED, runs: RUNS, params } = fuzzSettings(90_009);
const getWorld = useFuzzWorld((mode) => ({ mode }));

// ---------------------------------------------------------------------------------------------
// The checks after every call.

type Outcome = "silent" | "context" | "deny" | "block" | "message";

/**
 * exit 0, no stack trace, and stdout empty or one line of JSON Codex 0.169.0 accepts for the
 * event (`parseAnswer`: only §3.5's keys, hookEventName naming the event, none of the values it
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

/** One in-process hook call in a mode's project, and every check. */
async function fire(stdin: string, mode: Mode): Promise<HookOutput> {
  const { root } = getWorld().projects[mode];
  trimState(root);
  const result = await runHook({ stdin, env: {}, cwd: root });
  count(`${mode} ${checkAnswer(result, stdin, mode)}`);
  count("calls in process");
  if (/internal error/.test(result.stderr)) count(`internal error: ${result.stderr.slice(0, 200)}`);
  expect(snapshot(getWorld()), "nothing outside the project's state changed").toBe(
    getWorld().baseline,
  );
  return result;
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

describe("codex hook: fuzzed input (issue 9)", () => {
  it("the checks can fail: a sentinel read, a new file, a marker, a bad answer are all seen", () => {
    expectSnapshotSeesChanges(getWorld());
    // Answers a platform refuses (or that would show a stack trace), for a tdd preToolUse/PreToolUse.
    const event = "PreToolUse";
    const stdin = JSON.stringify({ hook_event_name: event });
    const bad: [string, string][] = [
      ['{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\n', ""],
      ['{"decision":"block","reason":"x","extra":1}\n', ""],
      ['{"decision":"block"}\n', ""],
      ["", "tailtest: boom\n    at run (/x/y.js:1:2)\n"],
      ["not json\n", ""],
    ];
    for (const [stdout, stderr] of bad)
      expect(() => checkAnswer({ stdout, stderr, exitCode: 0 }, stdin, "tdd"), stdout).toThrow();
  });

  it(`payloads shaped like the recorded ones, fields fuzzed and mutated (${RUNS.shaped} runs)`, async () => {
    const w = getWorld();
    const arb = withModes((mode) =>
      fc.record({
        payload: shapedArb(w, w.projects[mode].root),
        mutations: mutationsArb(w),
        how: fc.nat(),
        cut: fc.nat(1000),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ mode, value: { payload, mutations, how, cut } }) => {
        await fire(encode(mutate(payload, mutations), how, cut), mode);
      }),
      params(RUNS.shaped),
    );
  }, 120_000);

  it(`file names and commands built to reach a shell never do: edit, then Stop (${RUNS.injection} runs)`, async () => {
    const w = getWorld();
    const arb = withModes((mode) => {
      const root = w.projects[mode].root;
      const named = fc.constantFrom(...injectedPaths(w));
      const paths = fc.oneof(
        named,
        named.map((path) => join(root, path)),
      );
      return fc.record({ tool: toolArb(w, paths), stop: fc.boolean(), session: fc.uuid() });
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ mode, value: { tool, stop, session } }) => {
        const [name, command] = tool;
        const base = { session_id: session, turn_id: "t", cwd: getWorld().projects[mode].root };
        const call = { ...base, tool_name: name, tool_input: { command }, tool_use_id: "c" };
        await fire(JSON.stringify({ ...call, hook_event_name: "PreToolUse" }), mode);
        await fire(
          JSON.stringify({ ...call, hook_event_name: "PostToolUse", tool_response: "" }),
          mode,
        );
        if (stop) await fire(JSON.stringify({ ...base, hook_event_name: "Stop" }), mode);
        expect(existsSync(join(getWorld().outside, PWNED))).toBe(false);
      }),
      params(RUNS.injection),
    );
  }, 120_000);

  it(`fully random JSON, and random objects naming a real event (${RUNS.random} runs)`, async () => {
    const arb = withModes(() => randomJsonArb(EVENTS, ["session_id", "cwd", "tool_input"]));
    await fc.assert(
      fc.asyncProperty(arb, async ({ mode, value }) => {
        await fire(confine(value, getWorld().projects[mode].root), mode);
      }),
      params(RUNS.random),
    );
  }, 120_000);

  it(`stdin that is not JSON, or no hook's JSON (${RUNS.garbage} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        withModes(() => garbageArb),
        async ({ mode, value }) => {
          await fire(confine(value, getWorld().projects[mode].root), mode);
        },
      ),
      params(RUNS.garbage),
    );
  }, 120_000);

  it(`1-2 MB strings in any field (${RUNS.huge} runs)`, async () => {
    const w = getWorld();
    const arb = withModes((mode) =>
      fc.record({
        payload: shapedArb(w, w.projects[mode].root),
        place: hugePlaceArb,
        unit: hugeUnitArb,
        bytes: fc.integer({ min: 1 << 20, max: 2 << 20 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ mode, value: { payload, place, unit, bytes } }) => {
        const stdin = JSON.stringify(withHuge(payload, place, unit, bytes));
        expect(Buffer.byteLength(stdin)).toBeGreaterThanOrEqual(1 << 20);
        await fire(stdin, mode);
      }),
      params(RUNS.huge),
    );
  }, 120_000);

  it(`a real test run of files named to break out: node --test gets them as arguments, no shell (${SHELL_NAMES.length} runs)`, async () => {
    const project = getWorld().runner;
    for (const [index, name] of SHELL_NAMES.entries()) {
      const passing = index % 2 === 1;
      const viaShell = index % 4 >= 2;
      project.write(`src/${name}.js`, "export const value = 1;\n");
      project.write(`test/${name}.test.js`, nodeTest(passing));
      const base = { session_id: "runner", turn_id: "t", cwd: project.root };
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
      const answers: string[] = [];
      for (const payload of [edit, { ...base, hook_event_name: "Stop" }]) {
        const stdin = JSON.stringify(payload);
        const result = await runHook({ stdin, env: {}, cwd: project.root });
        checkAnswer(result, stdin, "follow");
        answers.push(result.stdout);
      }
      // The run happened: the failing test holds the turn, the passing one does not.
      const held = (answers[1] ?? "").includes('"decision":"block"');
      expect(held, `${name}: ${answers[1]}`).toBe(!passing);
      expectNoMarker([
        getWorld().box,
        project.root,
        join(project.root, "src"),
        join(project.root, "test"),
      ]);
      rmSync(join(project.root, "src", `${name}.js`));
      rmSync(join(project.root, "test", `${name}.test.js`));
      trimState(project.root, true);
      expect(snapshot(getWorld())).toBe(getWorld().baseline);
    }
  }, 120_000);

  it(`the built bin (launcher + bundle) holds the same on a sample (${RUNS.bin} payloads)`, async () => {
    const w = getWorld();
    const arb = withModes((mode) =>
      fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .record({ payload: shapedArb(w, w.projects[mode].root), mutations: mutationsArb(w) })
            .map(({ payload, mutations }) => JSON.stringify(mutate(payload, mutations))),
        },
        { weight: 1, arbitrary: garbageArb },
      ),
    );
    const one = async ({ mode, value }: { mode: Mode; value: string }) => {
      const root = w.projects[mode].root;
      const stdin = confine(value, root);
      const ran = await runBin(HOOK_BIN, [], { input: stdin, cwd: root });
      // runBin (execa) strips the final newlines.
      const line = (text: string) => (text === "" ? "" : `${text}\n`);
      const result = { ...ran, stdout: line(ran.stdout), stderr: line(ran.stderr) };
      count(`bin ${mode} ${checkAnswer(result, stdin, mode)}`);
    };
    const samples = fc.sample(arb, { numRuns: RUNS.bin, seed: SEED });
    // Two at a time: hooks of one turn can land together, and it halves the wait.
    for (let i = 0; i < samples.length; i += 2) {
      await Promise.all(samples.slice(i, i + 2).map(one));
      expect(snapshot(w)).toBe(w.baseline);
    }
  }, 120_000);
});
