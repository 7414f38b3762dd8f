import { existsSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import {
  commitAll,
  copyFixture,
  REPO_ROOT,
  runBin,
  type BinResult,
  type TempProject,
} from "@tailtest/test-utils";
import { describeTddSuite, type TddPlatform } from "@tailtest/test-utils/tdd-suite";
import { afterEach, describe, expect, it } from "vitest";
import { fire, HOOK_BIN, parseAnswer, recorded, type Payload } from "./payloads.ts";

/**
 * tdd mode through the built Codex hook (a real process per call, payloads recorded from Codex
 * 0.169.0) and the `tailtest` command the package ships, on a real pytest project: the scenarios
 * every platform shares (`describeTddSuite`), then the tool shapes only Codex has (a patch of
 * several files, an argv array, apply_patch through the shell). Every test run is real, and
 * every reply is checked against the keys and values Codex accepts.
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
const RED_CMD = `tailtest red --test "<test file>" --expects "<test name> fails because <reason>"`;

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

/** A new file, or a patch replacing a whole file's lines (what Codex writes for a rewrite). */
function writePatch(path: string, before: string | undefined, content: string): string {
  if (before === undefined) return patch(addFile(path, content));
  const lines = (text: string, sign: string) =>
    text
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => `${sign}${l}`);
  return patch(
    [`*** Update File: ${path}`, "@@", ...lines(before, "-"), ...lines(content, "+")].join("\n"),
  );
}

/**
 * The shared tdd scenarios' view of Codex: every edit an apply_patch, every command's report a
 * PostToolUse without an exit code (tailtest runs the cycle's test itself), every reply checked
 * against the keys and values Codex accepts.
 */
const CODEX: TddPlatform = {
  name: "the built Codex hook",
  subagent: SUBAGENT,
  open(made, env) {
    const { root } = made;
    const inAgent = (agent?: string): Payload =>
      agent === undefined ? {} : { agent_id: agent, agent_type: "worker" };
    async function call(payload: Payload): Promise<Record<string, unknown> | undefined> {
      const input = JSON.stringify(payload);
      const result = await runBin(HOOK_BIN, [], { input, cwd: root, env });
      const event = payload["hook_event_name"] as string;
      expect(result.stderr, event).toBe("");
      expect(result.exitCode, event).toBe(0);
      expect(result.stdout, "no absolute path reaches the agent").not.toContain(root);
      return parseAnswer(result.stdout.trim(), event);
    }
    return {
      project: made,
      root,
      key: SESSION,
      sessionStart: async () => context(await call(codex("block.SessionStart.json", root))),
      async prompt() {
        expect(await call(codex("block.UserPromptSubmit.json", root))).toBeUndefined();
      },
      async write(path, content, agent) {
        const file = join(root, path);
        const before = existsSync(file) ? readFileSync(file, "utf8") : undefined;
        const command = writePatch(path, before, content);
        const gate = await call(preEdit(root, command, inAgent(agent)));
        if (gate !== undefined) return denied(gate);
        made.write(path, content);
        expect(await call(postEdit(root, command, inAgent(agent)))).toBeUndefined();
        return undefined;
      },
      async shell(command) {
        const gate = await call(preBash(root, command));
        return gate === undefined ? undefined : denied(gate);
      },
      ran: async (command) => context(await call(postBash(root, command))),
      async subagentStart(agent) {
        // Not recorded: SessionStart's fields plus the subagent ones (its hook protocol).
        const start = codex("block.SessionStart.json", root, {
          hook_event_name: "SubagentStart",
          source: undefined,
          ...inAgent(agent),
        });
        return context(await call(start));
      },
      async subagentStop(agent) {
        const stop = codex("block.Stop.json", root, {
          hook_event_name: "SubagentStop",
          agent_transcript_path: null,
          last_assistant_message: null,
          ...inAgent(agent),
        });
        expect(await call(stop)).toBeUndefined();
      },
      async stop(round) {
        const answer = await call(codex("block.Stop.json", root, { stop_hook_active: round > 0 }));
        if (answer === undefined) return { sentBack: false, text: "" };
        if (answer["decision"] !== undefined) {
          expect(Object.keys(answer)).toEqual(["decision", "reason"]);
          expect(answer["decision"]).toBe("block");
          return { sentBack: true, text: String(answer["reason"]) };
        }
        expect(Object.keys(answer)).toEqual(["systemMessage"]);
        return { sentBack: false, text: String(answer["systemMessage"]) };
      },
      /**
       * The real `tailtest` command. Codex cannot hand the agent's shell TAILTEST_TDD_KEY: the
       * CLI finds the log through the session the hooks started.
       */
      tailtest: (args) => runBin(TAILTEST_BIN, args, { cwd: root, env }),
    };
  },
};

describeTddSuite(CODEX);

describe("tdd mode through the built Codex hook: its own tool shapes", () => {
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
    "npx tailtest-codex opt-out",
    "npm i -D @tailtest/codex",
  ])(
    "the agent may not run a tailtest installer: %s",
    async (command) => {
      project = await fixture();
      const { root } = project;
      const reason = denied(await hook(preBash(root, command), root));
      expect(reason).toMatch(
        /^tailtest tdd: agents may not run tailtest's installers \(init, uninstall, opt-out\), install its packages/,
      );
    },
    30_000,
  );
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
