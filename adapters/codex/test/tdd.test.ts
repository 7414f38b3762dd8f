import { readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import {
  commitAll,
  copyFixture,
  REPO_ROOT,
  runBin,
  type BinResult,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { fire, parseAnswer, recorded, type Payload } from "./payloads.ts";

/**
 * tdd mode through the built Codex hook (a real process per call, payloads recorded from Codex
 * 0.169.0) and the `tailtest` command the package ships, on a real pytest project: every test
 * run is real, and every reply is checked against the keys and values Codex accepts.
 */

/** The `tailtest` bin @tailtest/codex ships (what `npx tailtest red …` runs in a Codex project). */
const TAILTEST_BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

/** The recorded "block" session; Bash calls borrow the "shell" recording's payloads. */
const SESSION = recorded("block.SessionStart.json", "/x")["session_id"] as string;
const TURN = recorded("block.Stop.json", "/x")["turn_id"] as string;
const SUBAGENT = "01a202c9-aaaa-7bbb-8ccc-0123456789ab";

const TEST_FILE = "tests/test_billing.py";
const RED_TEST =
  "from billing import charge\n\n\ndef test_charge_adds_vat():\n    assert charge(10) == 12.0\n";
const BILLING = "def charge(amount):\n    return round(amount * 1.2, 2)\n";
const RED_CMD = `tailtest red --test "<test file>" --expects "<test name> fails because <reason>"`;
const PYTEST = `python3 -m pytest ${TEST_FILE} -q`;

/** The pytest-ini fixture as a git repository in `mode`, its files an hour old. */
async function fixture(mode = "tdd"): Promise<TempProject> {
  const made = copyFixture("runners/pytest-ini");
  made.write(".tailtest/config.json", `${JSON.stringify({ mode })}\n`);
  await commitAll(made.root);
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const file of ["calc.py", "pytest.ini", "tests/test_calc.py"])
    utimesSync(join(made.root, file), hourAgo, hourAgo);
  return made;
}

/** A recorded payload in this test's one session. */
function codex(name: string, root: string, changes: Payload = {}): Payload {
  return recorded(name, root, { session_id: SESSION, turn_id: TURN, ...changes });
}

function patch(...sections: string[]): string {
  return ["*** Begin Patch", ...sections, "*** End Patch", ""].join("\n");
}

function addFile(path: string, content: string): string {
  return [
    `*** Add File: ${path}`,
    ...content
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => `+${l}`),
  ].join("\n");
}

function updateFile(path: string, from: string, to: string): string {
  return [`*** Update File: ${path}`, "@@", `-${from}`, `+${to}`].join("\n");
}

const preEdit = (root: string, command: string, changes: Payload = {}) =>
  codex("block.PreToolUse-apply_patch.json", root, { tool_input: { command }, ...changes });
const postEdit = (root: string, command: string, changes: Payload = {}) =>
  codex("stopblock.PostToolUse-apply_patch.json", root, { tool_input: { command }, ...changes });
const preBash = (root: string, command: string | string[], changes: Payload = {}) =>
  codex("shell.PreToolUse-Bash.json", root, { tool_input: { command }, ...changes });
const postBash = (root: string, command: string, changes: Payload = {}) =>
  codex("shell.PostToolUse-Bash.json", root, { tool_input: { command }, ...changes });

/** Fires one hook as Codex does; the call went well and its reply is one Codex accepts. */
async function hook(payload: Payload, root: string): Promise<Record<string, unknown> | undefined> {
  const result = await fire(payload, root);
  const event = payload["hook_event_name"] as string;
  expect(result.stderr, event).toBe("");
  expect(result.exitCode, event).toBe(0);
  expect(result.stdout).not.toContain(root);
  return parseAnswer(result.stdout.trim(), event);
}

/** The reason of a PreToolUse deny, after checking the reply is exactly that deny. */
function denied(answer: Record<string, unknown> | undefined): string {
  expect(answer).toEqual({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: expect.any(String) as unknown,
    },
  });
  const specific = answer?.["hookSpecificOutput"] as { permissionDecisionReason: string };
  return specific.permissionDecisionReason;
}

function context(answer: Record<string, unknown> | undefined): string {
  const specific = answer?.["hookSpecificOutput"] as { additionalContext?: unknown } | undefined;
  expect(typeof specific?.additionalContext, JSON.stringify(answer)).toBe("string");
  return specific?.additionalContext as string;
}

/** The real `tailtest` command, finding the hooks' log by the session id (TAILTEST_TDD_KEY). */
function tailtest(root: string, args: string[], env: Record<string, string> = {}) {
  return runBin(TAILTEST_BIN, args, {
    cwd: root,
    env: { TAILTEST_TDD_KEY: SESSION, CLAUDE_CODE_SESSION_ID: "", ...env },
  });
}

function expectDeclared(result: BinResult, what: RegExp): void {
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toMatch(what);
}

interface EventLine {
  type: string;
  agent_key: string;
  path?: string;
  decision?: string;
  outcome?: string;
  real_failure?: boolean;
  error?: string;
  skip_red?: boolean;
}

function eventLines(root: string, key = SESSION): EventLine[] {
  return readFileSync(join(root, ".tailtest/events.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as EventLine)
    .filter((line) => line.agent_key === key);
}

describe("tdd mode through the built Codex hook", () => {
  it("Red → Green → Refactor: the gate denies with the next command, tailtest measures the runs itself", async () => {
    project = await fixture();
    const { root } = project;

    const started = context(await hook(codex("block.SessionStart.json", root), root));
    expect(started).toContain("Mode: tdd.");
    expect(started).toContain("Red → Green → Refactor is enforced for this session");
    expect(started).toContain(RED_CMD);
    expect(await hook(codex("block.UserPromptSubmit.json", root), root)).toBeUndefined();

    // No cycle: a new production file is refused before apply_patch runs.
    const prodPatch = patch(addFile("billing.py", BILLING));
    const first = denied(await hook(preEdit(root, prodPatch), root));
    expect(first).toContain("billing.py is blocked: no TDD cycle is open");
    expect(first).toContain(
      `Next, declare a Red (the behaviour and the failure you expect):\n  ${RED_CMD}`,
    );
    expect(first).toContain(
      'tailtest green --skip-red --reason refactoring --change "<what you will change>" --file billing.py',
    );

    // Red: declared with the real CLI, then the test file may be written.
    expectDeclared(
      await tailtest(root, [
        "red",
        "--test",
        `${TEST_FILE}::test_charge_adds_vat`,
        "--expects",
        "test_charge_adds_vat fails because billing has no charge yet",
      ]),
      new RegExp(
        `^tailtest: Red recorded in \\.tailtest/tdd/${SESSION}\\.log; state: writing_tests$`,
      ),
    );
    const testPatch = patch(addFile(TEST_FILE, RED_TEST));
    expect(await hook(preEdit(root, testPatch), root)).toBeUndefined();
    project.write(TEST_FILE, RED_TEST);
    expect(await hook(postEdit(root, testPatch), root)).toBeUndefined();

    // The agent runs the test; Codex reports no exit code, so tailtest runs the declared test.
    const red = context(await hook(postBash(root, PYTEST), root));
    expect(red).toContain("Red confirmed: the declared test fails as expected");
    expect(eventLines(root).at(-1)).toMatchObject({
      type: "tdd.test",
      outcome: "failed",
      real_failure: true,
      error: `pytest could not load ${TEST_FILE}`,
    });

    // Red confirmed: production code still waits for a Green naming it.
    const second = denied(await hook(preEdit(root, prodPatch), root));
    expect(second).toContain("billing.py is blocked: the test failed as expected");
    expect(second).toContain('tailtest green --change "<what you will change>" --file billing.py');
    expectDeclared(
      await tailtest(root, ["green", "--change", "charge adds VAT", "--file", "billing.py"]),
      /^tailtest: Green for billing\.py recorded in .*; state: making_tests_pass$/,
    );
    expect(await hook(preEdit(root, prodPatch), root)).toBeUndefined();
    project.write("billing.py", BILLING);
    expect(await hook(postEdit(root, prodPatch), root)).toBeUndefined();

    const green = context(await hook(postBash(root, PYTEST), root));
    expect(green).toContain("Green: the cycle is complete.");
    expect(eventLines(root).at(-1)).toMatchObject({ type: "tdd.test", outcome: "passed" });

    // Refactor: the cycle is closed, so the same file needs a skip-red Green first.
    const refactor = patch(
      updateFile(
        "billing.py",
        "    return round(amount * 1.2, 2)",
        "    return round(amount * 1.20, 2)",
      ),
    );
    denied(await hook(preEdit(root, refactor), root));
    expectDeclared(
      await tailtest(root, [
        "green",
        "--skip-red",
        "--reason",
        "refactoring",
        "--change",
        "spell the rate out",
        "--file",
        "billing.py",
      ]),
      /^tailtest: Green \(skip-red: refactoring\) for billing\.py recorded/,
    );
    expect(await hook(preEdit(root, refactor), root)).toBeUndefined();

    // Every change went through the gate: the end of the turn blocks on nothing, and says the
    // --skip-red use with its reason.
    const stop = await hook(codex("block.Stop.json", root), root);
    expect(stop?.["decision"]).toBeUndefined();
    expect(JSON.stringify(stop)).toContain(
      "with no failing test first (tailtest green --skip-red, reason: refactoring): billing.py",
    );

    // Codex cannot hand the agent TAILTEST_TDD_KEY: without it the CLI finds the same log through
    // the session the hooks started.
    const status = await tailtest(root, ["tdd", "status", "--json"], { TAILTEST_TDD_KEY: "" });
    expect(JSON.parse(status.stdout)).toMatchObject({
      key: SESSION,
      key_source: "session",
      state: "making_tests_pass",
      skip_red: true,
    });
    expect(await hook(codex("block.SessionEnd.json", root), root)).toBeUndefined();

    expect(
      eventLines(root).map((line) =>
        [line.type, line.path ?? line.outcome ?? "", line.decision ?? ""].join(" ").trim(),
      ),
    ).toEqual([
      "tdd.edit billing.py blocked",
      "tdd.red",
      `tdd.edit ${TEST_FILE} allowed`,
      "tdd.test failed",
      "tdd.edit billing.py blocked",
      "tdd.green",
      "tdd.edit billing.py allowed",
      "tdd.test passed",
      "tdd.edit billing.py blocked",
      "tdd.green",
      "tdd.edit billing.py allowed",
    ]);
  }, 180_000);

  it("a patch touching a test and a production file while writing tests is denied, naming only the production file", async () => {
    project = await fixture();
    const { root } = project;
    await hook(codex("block.SessionStart.json", root), root);
    expectDeclared(
      await tailtest(root, ["red", "--test", TEST_FILE, "--expects", "charge fails: no module"]),
      /state: writing_tests$/,
    );
    const both = patch(
      addFile(TEST_FILE, RED_TEST),
      updateFile("calc.py", "    return a + b", "    return b + a"),
    );
    const reason = denied(await hook(preEdit(root, both), root));
    expect(reason).toContain("this edit is blocked: 1 of 2 files may not change now.");
    expect(reason).toContain("- calc.py: Red is declared, so only test files may change");
    expect(reason).toContain('tailtest green --change "<what you will change>" --file calc.py');
    expect(reason).not.toContain(TEST_FILE);
    // The test file alone goes through.
    expect(await hook(preEdit(root, patch(addFile(TEST_FILE, RED_TEST))), root)).toBeUndefined();
  }, 60_000);

  it("shell writes are gated before they run: the recorded heredoc, one into calc.py; a read-only command passes", async () => {
    project = await fixture();
    const { root } = project;
    await hook(codex("block.SessionStart.json", root), root);

    // Exactly as recorded from Codex: mkdir -p … && cat > src/billing.py <<'EOF' … EOF
    const recordedWrite = denied(await hook(codex("shell.PreToolUse-Bash.json", root), root));
    expect(recordedWrite).toContain("src/billing.py is blocked: no TDD cycle is open");

    const heredoc = "cat > calc.py <<'EOF'\ndef add(a, b):\n    return b + a\nEOF\n";
    const reason = denied(await hook(preBash(root, heredoc), root));
    expect(reason).toContain("calc.py is blocked: no TDD cycle is open");
    expect(reason).toContain(RED_CMD);
    // The same command as an argv array (Codex's other shape) is the same call.
    denied(await hook(preBash(root, ["bash", "-lc", heredoc]), root));

    // apply_patch run through the shell: the heredoc's headers are read like the tool's.
    const shellPatch = `apply_patch <<'EOF'\n${patch(updateFile("calc.py", "    return a + b", "    return b + a"))}EOF\n`;
    expect(denied(await hook(preBash(root, shellPatch), root))).toContain("calc.py is blocked");

    expect(await hook(preBash(root, "python3 -m pytest -q && git status"), root)).toBeUndefined();
    expect(readFileSync(join(root, "calc.py"), "utf8")).toBe("def add(a, b):\n    return a + b\n");
  }, 60_000);

  it.each([
    "npx tailtest-codex init --mode follow",
    "node_modules/.bin/tailtest-codex uninstall",
    "npx -y @tailtest/codex init",
  ])(
    "the agent may not run a tailtest installer: %s",
    async (command) => {
      project = await fixture();
      const { root } = project;
      const reason = denied(await hook(preBash(root, command), root));
      expect(reason).toMatch(
        /^tailtest tdd: agents may not run tailtest's installers \(init\/uninstall\)/,
      );
    },
    30_000,
  );

  it("Stop reports production files changed behind the gate: a block once, then only a message when the stop hook is active", async () => {
    project = await fixture();
    const { root } = project;
    await hook(codex("block.SessionStart.json", root), root);
    await hook(codex("block.UserPromptSubmit.json", root), root);
    // A formatter, or a shell command the gate could not read, changed calc.py.
    project.write("calc.py", "def add(a, b):\n    return b + a\n");
    const blocked = await hook(codex("block.Stop.json", root), root);
    expect(Object.keys(blocked ?? {})).toEqual(["decision", "reason"]);
    expect(blocked?.["decision"]).toBe("block");
    expect(blocked?.["reason"]).toContain(
      "tailtest tdd: 1 file changed or deleted this turn without passing the tdd gate",
    );
    expect(blocked?.["reason"]).toContain("\n- calc.py\n");
    expect(blocked?.["reason"]).not.toContain("test_calc.py");

    // The agent was sent back once; a change found on the re-stop goes to the person instead.
    project.write("extra.py", "X = 1\n");
    const again = await hook(codex("block.Stop.json", root, { stop_hook_active: true }), root);
    expect(Object.keys(again ?? {})).toEqual(["systemMessage"]);
    expect(again?.["systemMessage"]).toContain("- extra.py");
  }, 60_000);

  it("a subagent has its own log: its note carries --agent, its gate reads its log, SubagentStop closes it", async () => {
    project = await fixture();
    const { root } = project;
    await hook(codex("block.SessionStart.json", root), root);
    // The main agent is writing tests.
    expectDeclared(
      await tailtest(root, ["red", "--test", TEST_FILE, "--expects", "charge fails: no module"]),
      /state: writing_tests$/,
    );
    // Not recorded: SessionStart's fields plus the subagent ones (its hook protocol).
    const subagent = { agent_id: SUBAGENT, agent_type: "worker" };
    const start = codex("block.SessionStart.json", root, {
      hook_event_name: "SubagentStart",
      source: undefined,
      ...subagent,
    });
    const note = context(await hook(start, root));
    expect(note).toContain(`subagent ${SUBAGENT} (its own log, separate from the main agent's)`);
    expect(note).toContain(`tailtest red --agent ${SUBAGENT} --test "<test file>"`);

    // The main agent's Red is not the subagent's: its test file is denied, with --agent.
    const testPatch = patch(addFile("tests/test_sub.py", "def test_x():\n    assert False\n"));
    const reason = denied(await hook(preEdit(root, testPatch, subagent), root));
    expect(reason).toContain(`tailtest red --agent ${SUBAGENT} --test`);
    expect(await hook(preEdit(root, patch(addFile(TEST_FILE, RED_TEST))), root)).toBeUndefined();

    expectDeclared(
      await tailtest(root, [
        "red",
        "--agent",
        SUBAGENT,
        "--test",
        "tests/test_sub.py",
        "--expects",
        "test_x fails on purpose",
      ]),
      new RegExp(
        `recorded in \\.tailtest/tdd/${SESSION}\\.${SUBAGENT}\\.log; state: writing_tests$`,
      ),
    );
    expect(await hook(preEdit(root, testPatch, subagent), root)).toBeUndefined();

    const stop = codex("block.Stop.json", root, {
      hook_event_name: "SubagentStop",
      agent_transcript_path: null,
      last_assistant_message: null,
      ...subagent,
    });
    expect(await hook(stop, root)).toBeUndefined();
    const log = readFileSync(join(root, `.tailtest/tdd/${SESSION}.${SUBAGENT}.log`), "utf8");
    expect(log.trimEnd()).toMatch(/## FINISHED - .+$/);
    expect(eventLines(root, `${SESSION}.${SUBAGENT}`).at(-1)).toMatchObject({
      type: "tdd.finished",
    });
    // Closed: it grants nothing more. The main agent's cycle is untouched.
    denied(await hook(preEdit(root, testPatch, subagent), root));
    expect(await hook(preEdit(root, patch(addFile(TEST_FILE, RED_TEST))), root)).toBeUndefined();
  }, 90_000);
});

describe("the output checker these tests use (its hook protocol)", () => {
  it.each([
    [
      "PreToolUse",
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } },
    ],
    [
      "PreToolUse",
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } },
    ],
    [
      "PreToolUse",
      {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: " ",
        },
      },
    ],
    ["PreToolUse", { decision: "approve" }],
    ["PreToolUse", { continue: false }],
    [
      "PreToolUse",
      { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "x" } },
    ],
    [
      "SessionStart",
      { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "x", env: {} } },
    ],
    ["SessionStart", { env: { TAILTEST_TDD_KEY: "k" } }],
    ["SubagentStart", { decision: "block", reason: "r" }],
    ["Stop", { decision: "block", reason: "" }],
    ["PostToolUse", { suppressOutput: true }],
    ["SessionEnd", { systemMessage: "x" }],
  ])("rejects %s %j", (event, reply) => {
    expect(() => parseAnswer(JSON.stringify(reply), event)).toThrow();
  });
});
