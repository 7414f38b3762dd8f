import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { greenCommand, RED_COMMAND } from "@tailtest/core";
import {
  copyFixture,
  findToolchain,
  REPO_ROOT,
  runBin,
  type BinResult,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadPayload } from "./payloads.ts";

/**
 * tdd mode through the built Cursor hook and the built `tailtest` CLI, each a real process, on a
 * temporary copy of the pytest-ini fixture. The payloads are the synthetic Cursor ones (no
 * Cursor agent runs offline) with the tool fields of its hook protocol; Cursor reports no exit
 * code after a Shell command, so every Red and Green here is measured by tailtest re-running the
 * cycle's test with the real pytest.
 */

const HOOK = join(REPO_ROOT, "adapters/cursor/dist/hook.cjs");
/** The `tailtest` bin this package ships (packages/cli bundled with the adapter). */
const TAILTEST = join(REPO_ROOT, "packages/cli/dist/bin.js");
const pytest = findToolchain("pytest");

const SUBAGENT = "0e9d4c27-6b1a-4f83-a5c2-7d3e1b8f6a90";
const MUL_TEST = "from calc import mul\n\n\ndef test_multiplies():\n    assert mul(2, 3) == 6\n";
const CALC_WITH_MUL = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n";

type Output = Record<string, unknown>;

let project: TempProject | undefined;
afterEach(() => {
  project?.cleanup();
  project = undefined;
});

/** A fresh pytest-ini copy in the given mode. */
function start(mode: "tdd" | "follow" = "tdd"): string {
  project = copyFixture("runners/pytest-ini");
  project.write(".tailtest/config.json", JSON.stringify({ mode }));
  return project.root;
}

interface Session {
  root: string;
  /** The conversation the payloads carry (the main agent's). */
  conversation: string;
  env: Record<string, string>;
}

function session(root: string): Session {
  const { stdin, env } = loadPayload("edit.sessionStart.json", root);
  const withPath: Record<string, string> =
    pytest.path === undefined ? env : { ...env, PATH: pytest.path };
  return { root, conversation: String(stdin["conversation_id"]), env: withPath };
}

/** A Cursor payload for the project: the common fields of a recorded shape, then the event's. */
function payload(s: Session, event: string, fields: object): Output {
  const common: Output = { ...loadPayload("edit.sessionStart.json", s.root).stdin };
  delete common["is_background_agent"];
  return { ...common, hook_event_name: event, ...fields };
}

const preWrite = (s: Session, file: string, extra: object = {}) =>
  payload(s, "preToolUse", {
    tool_name: "Write",
    tool_input: { file_path: join(s.root, file), content: "x" },
    tool_use_id: "toolu_30",
    cwd: s.root,
    ...extra,
  });

const preShell = (s: Session, command: string) =>
  payload(s, "preToolUse", {
    tool_name: "Shell",
    tool_input: { command, cwd: s.root },
    tool_use_id: "toolu_31",
    cwd: s.root,
  });

const postShell = (s: Session, command: string) =>
  payload(s, "postToolUse", {
    tool_name: "Shell",
    tool_input: { command, cwd: s.root },
    tool_output: "",
    duration: 900,
    tool_use_id: "toolu_32",
    cwd: s.root,
  });

/** Cursor's afterFileEdit, which follows every edit its agent makes. */
const edited = (s: Session, file: string, content: string) =>
  payload(s, "afterFileEdit", {
    file_path: join(s.root, file),
    edits: [{ old_string: "", new_string: content }],
  });

/** Every stdout the hook prints is exactly one JSON object on one line (Cursor parses it). */
function oneObject(result: BinResult): Output {
  expect(result.exitCode, result.stderr).toBe(0);
  expect(result.stdout.split("\n"), result.stdout).toHaveLength(1);
  const json = JSON.parse(result.stdout) as unknown;
  expect(typeof json === "object" && json !== null && !Array.isArray(json)).toBe(true);
  return json as Output;
}

/** Fires the built hook as Cursor would: payload on stdin, Cursor's env, the workspace as cwd. */
async function fire(
  s: Session,
  stdin: Output | string,
  env: Record<string, string> = {},
): Promise<{ output: Output; stderr: string }> {
  const result = await runBin(HOOK, [], {
    cwd: s.root,
    input: typeof stdin === "string" ? stdin : JSON.stringify(stdin),
    env: { ...s.env, ...env },
  });
  const output = oneObject(result);
  expect(result.stdout, "no absolute path reaches the agent").not.toContain(s.root);
  return { output, stderr: result.stderr };
}

/** The built `tailtest` CLI, run in the project with the env Cursor's sessionStart set. */
async function tailtest(s: Session, key: string, args: string[]): Promise<BinResult> {
  return runBin(TAILTEST, args, { cwd: s.root, env: { ...s.env, TAILTEST_TDD_KEY: key } });
}

function expectDenied(output: Output): string {
  expect(Object.keys(output)).toEqual(["permission", "user_message", "agent_message"]);
  expect(output["permission"]).toBe("deny");
  const message = String(output["agent_message"]);
  expect(output["user_message"]).toBe(message.split("\n")[0]);
  return message;
}

/** sessionStart: the commands for the agent, and the log key in the env Cursor keeps. */
async function startSession(s: Session): Promise<string> {
  const { output } = await fire(s, payload(s, "sessionStart", { is_background_agent: false }));
  expect(Object.keys(output)).toEqual(["additional_context", "env"]);
  const env = output["env"] as Record<string, string>;
  expect(Object.keys(env)).toEqual(["TAILTEST_TDD_KEY"]);
  return env["TAILTEST_TDD_KEY"] ?? "";
}

beforeAll(() => {
  expect(existsSync(HOOK), "run the build first (pnpm test does)").toBe(true);
  expect(existsSync(TAILTEST), "run the build first (pnpm test does)").toBe(true);
});

describe.skipIf(!pytest.available)("tdd mode through the built Cursor hook", () => {
  it("a whole Red → Green → Refactor session: the gate denies, the CLI declares, tailtest measures", async () => {
    const s = session(start());

    // sessionStart: the copy-paste commands, and the key `tailtest red` finds the log by.
    const { output: started } = await fire(
      s,
      payload(s, "sessionStart", { is_background_agent: false }),
    );
    expect(Object.keys(started)).toEqual(["additional_context", "env"]);
    const context = String(started["additional_context"]);
    expect(context).toContain("tailtest tdd: Red → Green → Refactor is enforced for this session");
    expect(context).toContain('tailtest red --test "<test file>"');
    expect(context).toContain("tailtest green --skip-red --reason refactoring");
    // The conversation id is a file-name-safe UUID: the key is the conversation itself.
    expect(started["env"]).toEqual({ TAILTEST_TDD_KEY: s.conversation });
    const key = s.conversation;

    // No cycle yet: production code is denied, with the exact command that comes next.
    const first = expectDenied((await fire(s, preWrite(s, "calc.py"))).output);
    expect(first).toMatch(/^tailtest tdd: calc\.py is blocked: no TDD cycle is open/);
    expect(first).toContain(
      `Next, declare a Red (the behaviour and the failure you expect):\n  ${RED_COMMAND}`,
    );

    // Red: declared by the agent through the CLI, found by the env key.
    const red = await tailtest(s, key, [
      "red",
      "--test",
      "tests/test_mul.py::test_multiplies",
      "--expects",
      "test_multiplies fails because mul does not exist",
    ]);
    expect(red.exitCode, red.stderr).toBe(0);
    expect(red.stdout).toBe(
      `tailtest: Red recorded in .tailtest/tdd/${key}.log; state: writing_tests`,
    );

    // The test may be written now; production code still may not.
    expect((await fire(s, preWrite(s, "tests/test_mul.py"))).output).toEqual({});
    writeFileSync(join(s.root, "tests/test_mul.py"), MUL_TEST);
    expect((await fire(s, edited(s, "tests/test_mul.py", MUL_TEST))).output).toEqual({});

    // The agent runs the test; Cursor gives no exit code, so tailtest runs the declared test.
    const ran = await fire(s, postShell(s, "python3 -m pytest tests/test_mul.py"));
    expect(Object.keys(ran.output)).toEqual(["additional_context"]);
    expect(ran.output["additional_context"]).toContain(
      "Red confirmed: the declared test fails as expected.",
    );

    // Red confirmed: production code waits for the Green.
    const second = expectDenied((await fire(s, preWrite(s, "calc.py"))).output);
    expect(second).toContain(greenCommand(["calc.py"]));

    const green = await tailtest(s, key, ["green", "--change", "add mul", "--file", "calc.py"]);
    expect(green.exitCode, green.stderr).toBe(0);
    expect(green.stdout).toContain("state: making_tests_pass");

    expect((await fire(s, preWrite(s, "calc.py"))).output).toEqual({});
    writeFileSync(join(s.root, "calc.py"), CALC_WITH_MUL);
    expect((await fire(s, edited(s, "calc.py", CALC_WITH_MUL))).output).toEqual({});
    const passed = await fire(s, postShell(s, "python3 -m pytest tests/test_mul.py"));
    expect(passed.output["additional_context"]).toContain("Green: the cycle is complete.");

    // Refactor: declared without a new Red, then the edit goes through.
    const refactor = await tailtest(s, key, [
      "green",
      "--skip-red",
      "--reason",
      "refactoring",
      "--change",
      "tidy calc",
      "--file",
      "calc.py",
    ]);
    expect(refactor.exitCode, refactor.stderr).toBe(0);
    expect((await fire(s, preWrite(s, "calc.py"))).output).toEqual({});

    const status = await tailtest(s, key, ["tdd", "status", "--json"]);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: "making_tests_pass" });

    // Every production change went through the gate: the end of the turn sends nothing back, and
    // the --skip-red use goes to the person (Cursor's Hooks output channel).
    const stop = await fire(s, payload(s, "stop", { status: "completed", loop_count: 0 }));
    expect(stop.output).toEqual({});
    expect(stop.stderr).toContain("(tailtest green --skip-red, reason: refactoring): calc.py");

    // The human log names every step, in the log the CLI and the hooks share.
    const log = readFileSync(join(s.root, `.tailtest/tdd/${key}.log`), "utf8");
    expect(log).toContain("tests/test_mul.py::test_multiplies");
  }, 120_000);

  it("denies a shell command that writes production code, and a Delete of it, before any cycle", async () => {
    const s = session(start());
    await startSession(s);
    const sed = expectDenied((await fire(s, preShell(s, "sed -i 's/a/b/' calc.py"))).output);
    expect(sed).toMatch(/^tailtest tdd: calc\.py is blocked: no TDD cycle is open/);
    expect(sed).toContain(RED_COMMAND);
    const deleted = payload(s, "preToolUse", {
      tool_name: "Delete",
      tool_input: { file_path: join(s.root, "calc.py") },
      tool_use_id: "toolu_33",
      cwd: s.root,
    });
    expect(expectDenied((await fire(s, deleted)).output)).toMatch(
      /^tailtest tdd: calc\.py is blocked/,
    );
    // A command that writes nothing, and a tool tailtest does not gate, pass.
    expect((await fire(s, preShell(s, "ls -la"))).output).toEqual({});
    const read = preWrite(s, "calc.py", { tool_name: "Read" });
    expect((await fire(s, read)).output).toEqual({});
    expect(readFileSync(join(s.root, "calc.py"), "utf8")).toBe(
      "def add(a, b):\n    return a + b\n",
    );
  }, 60_000);

  it("stop reports a production file changed behind the gate, once, and lets a followup stop", async () => {
    const s = session(start());
    await startSession(s);
    // A formatter, or a command tailtest could not read, changes production code.
    writeFileSync(join(s.root, "calc.py"), "def add(a, b):\n    return b + a\n");
    const { output } = await fire(s, payload(s, "stop", { status: "completed", loop_count: 0 }));
    expect(Object.keys(output)).toEqual(["followup_message"]);
    const message = String(output["followup_message"]);
    expect(message).toMatch(
      /^tailtest tdd: 1 file changed or deleted this turn without passing the tdd gate/,
    );
    expect(message).toContain("- calc.py");
    // The followup's own stop (loop_count 1) lets the agent stop: it was told once.
    const again = await fire(s, payload(s, "stop", { status: "completed", loop_count: 1 }));
    expect(again.output).toEqual({});
    const next = await fire(s, payload(s, "stop", { status: "completed", loop_count: 0 }));
    expect(next.output).toEqual({});
  }, 60_000);

  it("a change reported when the followup budget is spent goes to the person, not the agent", async () => {
    const s = session(start());
    await startSession(s);
    writeFileSync(join(s.root, "calc.py"), "def add(a, b):\n    return b + a\n");
    const { output, stderr } = await fire(
      s,
      payload(s, "stop", { status: "completed", loop_count: 1 }),
    );
    expect(output).toEqual({});
    expect(stderr).toMatch(
      /^tailtest tdd: 1 file changed or deleted this turn without passing the tdd gate/,
    );
    expect(stderr).toContain("- calc.py");
  }, 60_000);

  it("a subagent keeps its own log: its declarations open its writes, not the main agent's", async () => {
    const s = session(start());
    const key = await startSession(s);
    const started = loadPayload("subagent.subagentStart.json", s.root).stdin;
    // Cursor takes no context at subagentStart, and tailtest never refuses a subagent.
    expect((await fire(s, started)).output).toEqual({});

    const red = await tailtest(s, key, [
      "red",
      "--agent",
      SUBAGENT,
      "--test",
      "tests/test_mul.py::test_multiplies",
      "--expects",
      "test_multiplies fails because mul does not exist",
    ]);
    expect(red.exitCode, red.stderr).toBe(0);
    expect(red.stdout).toContain(`.tailtest/tdd/${key}.${SUBAGENT}.log`);

    const asSubagent = { subagent_id: SUBAGENT };
    expect((await fire(s, preWrite(s, "tests/test_mul.py", asSubagent))).output).toEqual({});
    // The main agent's log has no cycle: the same write is its to declare.
    expectDenied((await fire(s, preWrite(s, "tests/test_mul.py"))).output);
    // The subagent's refusals carry its --agent flag.
    const prod = expectDenied((await fire(s, preWrite(s, "calc.py", asSubagent))).output);
    expect(prod).toContain(`tailtest green --agent ${SUBAGENT} `);

    const stopped = loadPayload("subagent.subagentStop.json", s.root).stdin;
    expect((await fire(s, stopped)).output).toEqual({});
    const events = readFileSync(join(s.root, ".tailtest/events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { agent_key: string; type: string });
    expect(events.filter((line) => line.agent_key === `${key}.${SUBAGENT}`).at(-1)?.type).toBe(
      "tdd.finished",
    );
    // A finished subagent's log grants nothing more.
    expectDenied((await fire(s, preWrite(s, "tests/test_mul.py", asSubagent))).output);
  }, 60_000);
});
