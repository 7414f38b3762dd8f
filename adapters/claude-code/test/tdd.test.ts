import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  findToolchain,
  loadPayload,
  makeProject,
  REPO_ROOT,
  runBin,
  type BinResult,
  type TempProject,
} from "@tailtest/test-utils";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";

/**
 * tdd mode through the built hook bin and the built `tailtest` CLI, as Claude Code would drive
 * them: every payload is a recorded Claude Code 2.1.330 payload with only its event, tool and
 * tool fields changed, every edit is written to disk after the gate allowed it, and every test
 * run is a real pytest run.
 */

const HOOK = join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs");
const CLI = join(REPO_ROOT, "packages/cli/dist/bin.js");
const VERSION = "claude-2.1.330";
const pytest = findToolchain("pytest");

type Payload = Record<string, unknown>;

interface HookAnswer {
  hookSpecificOutput?: {
    hookEventName?: string;
    permissionDecision?: string;
    permissionDecisionReason?: string;
    additionalContext?: string;
  };
  decision?: string;
  reason?: string;
  systemMessage?: string;
}

const PYTEST_PROJECT = {
  "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
  "calc.py": "def add(a, b):\n    return a + b\n",
  "tests/test_calc.py":
    "from calc import add\n\n\ndef test_adds_two_numbers():\n    assert add(2, 3) == 5\n",
};

/** A payload without some of its fields (a recorded one turned into another event). */
function without(payload: Payload, ...keys: string[]): Payload {
  return Object.fromEntries(Object.entries(payload).filter(([key]) => !keys.includes(key)));
}

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

/** A temporary pytest project in the given mode, with hooks and CLI bound to it. */
function tddProject(config: Record<string, unknown> = { mode: "tdd" }) {
  const project = makeProject({
    ...PYTEST_PROJECT,
    ".tailtest/config.json": `${JSON.stringify(config, null, 2)}\n`,
  });
  projects.push(project);
  const { root } = project;
  const recorded = (name: string): Payload => loadPayload<Payload>(VERSION, name, root).stdin;
  const sessionId = recorded("context.PreToolUse-Write.json")["session_id"] as string;
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    CLAUDE_PROJECT_DIR: root,
    // Nothing from the environment the tests run in may switch the hooks off or name a log.
    TAILTEST_HOOKS_OFF: "",
    TAILTEST_TDD_KEY: "",
    CLAUDE_CODE_SESSION_ID: "",
    ...(pytest.path === undefined ? {} : { PATH: pytest.path }),
    ...extra,
  });

  /** Fires the hook bin with a payload; the answer parsed ({} for no output). */
  async function fire(payload: Payload | string, extraEnv: Record<string, string> = {}) {
    const input = typeof payload === "string" ? payload : JSON.stringify(payload);
    const result = await runBin(HOOK, [], { input, env: env(extraEnv), cwd: root });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const answer = (result.stdout.trim() === "" ? {} : JSON.parse(result.stdout)) as HookAnswer;
    return { ...result, answer };
  }

  /** The agent's `tailtest …` command, finding the log through the key SessionStart exported. */
  function tailtest(args: string[]): Promise<BinResult> {
    return runBin(CLI, args, { cwd: root, env: env({ TAILTEST_TDD_KEY: sessionId }) });
  }

  const base = recorded("context.PreToolUse-Write.json");
  const post = recorded("context.PostToolUse-Write.json");
  const start = recorded("context.SessionStart.json");
  const stop = recorded("context.Stop.json");

  const payloads = {
    sessionStart: () => start,
    preToolUse: (tool: string, input: Payload, extra: Payload = {}): Payload => ({
      ...base,
      tool_name: tool,
      tool_input: input,
      ...extra,
    }),
    write: (path: string, content: string, extra: Payload = {}): Payload =>
      payloads.preToolUse("Write", { file_path: join(root, path), content }, extra),
    /** The PostToolUse of a Write that ran (every edit tool's call is followed by one). */
    written: (path: string, content: string): Payload => ({
      ...post,
      tool_name: "Write",
      tool_input: { file_path: join(root, path), content },
      tool_response: { type: "update", filePath: join(root, path), content },
    }),
    bashDone: (command: string, extra: Payload = {}): Payload => ({
      ...post,
      tool_name: "Bash",
      tool_input: { command, description: "run the tests" },
      tool_response: { stdout: "", stderr: "", interrupted: false, isImage: false },
      ...extra,
    }),
    bashFailed: (command: string, error: string, extra: Payload = {}): Payload => {
      const rest = without(post, "tool_response", "duration_ms");
      return {
        ...rest,
        hook_event_name: "PostToolUseFailure",
        tool_name: "Bash",
        tool_input: { command, description: "run the tests" },
        error,
        is_interrupt: false,
        ...extra,
      };
    },
    subagentStart: (agentId: string): Payload => {
      const rest = without(start, "source");
      return {
        ...rest,
        hook_event_name: "SubagentStart",
        agent_id: agentId,
        agent_type: "general-purpose",
      };
    },
    subagentStop: (agentId: string): Payload => ({
      ...stop,
      hook_event_name: "SubagentStop",
      agent_id: agentId,
      agent_type: "general-purpose",
      agent_transcript_path: join(root, "..", `agent-${agentId}.jsonl`),
    }),
    stop: (active: boolean): Payload => ({ ...stop, stop_hook_active: active }),
  };

  /** Runs a command in the project for real, the way the agent's Bash tool would. */
  async function shell(command: string) {
    const result = await execa("bash", ["-c", command], {
      cwd: root,
      env: env(),
      reject: false,
      all: true,
    });
    return { exitCode: result.exitCode ?? -1, output: result.all };
  }

  return { project, root, sessionId, fire, tailtest, payloads, shell };
}

function denial(answer: HookAnswer): string {
  expect(answer.hookSpecificOutput?.hookEventName).toBe("PreToolUse");
  expect(answer.hookSpecificOutput?.permissionDecision).toBe("deny");
  expect(Object.keys(answer)).toEqual(["hookSpecificOutput"]);
  return answer.hookSpecificOutput?.permissionDecisionReason ?? "";
}

function context(answer: HookAnswer, event: string): string {
  expect(answer.hookSpecificOutput?.hookEventName).toBe(event);
  expect(answer.hookSpecificOutput).not.toHaveProperty("permissionDecision");
  return answer.hookSpecificOutput?.additionalContext ?? "";
}

const MUL_TEST = "tests/test_mul.py";
const RED_TEST = "import calc\n\n\ndef test_multiplies():\n    assert calc.multiply(2, 3) == 6\n";
const FIX = "def add(a, b):\n    return a + b\n\n\ndef multiply(a, b):\n    return a * b\n";
const REFACTORED =
  "def add(a, b):\n    return a + b\n\n\ndef multiply(a, b):\n    product = a * b\n    return product\n";
const RUN_MUL = `python3 -m pytest ${MUL_TEST}`;

describe.skipIf(!pytest.available)(
  "tdd mode through the Claude Code hook and the tailtest CLI",
  () => {
    it("a Red → Green → Refactor session: each gate, each declaration, each measured run", async () => {
      const t = tddProject();
      // Claude Code's CLAUDE_ENV_FILE lives outside the project, in a file it creates.
      const claudeDir = makeProject({ "session-env/hook-1.sh": "" });
      projects.push(claudeDir);
      const envFile = join(claudeDir.root, "session-env/hook-1.sh");

      // SessionStart: the commands, and the log key exported for the agent's shell.
      const started = await t.fire(t.payloads.sessionStart(), { CLAUDE_ENV_FILE: envFile });
      const note = context(started.answer, "SessionStart");
      expect(note).toContain("tailtest tdd: Red → Green → Refactor is enforced for this session");
      expect(note).toContain(
        'tailtest red --test "<test file>" --expects "<test name> fails because <reason>"',
      );
      expect(note).toContain("tailtest green --skip-red --reason refactoring");
      expect(readFileSync(envFile, "utf8")).toBe(`export TAILTEST_TDD_KEY=${t.sessionId}\n`);

      // No cycle: production code is refused with the exact next commands.
      const first = await t.fire(t.payloads.write("calc.py", FIX));
      const refused = denial(first.answer);
      expect(refused).toContain("calc.py");
      expect(refused).toContain(
        'tailtest red --test "<test file>" --expects "<test name> fails because <reason>"',
      );
      expect(refused).toContain(
        'tailtest green --skip-red --reason refactoring --change "<what you will change>" --file calc.py',
      );

      // Red declared: the test may be written, production code still may not.
      const red = await t.tailtest([
        "red",
        "--test",
        `${MUL_TEST}::test_multiplies`,
        "--expects",
        "test_multiplies fails because calc has no multiply",
      ]);
      expect(red.exitCode, red.stderr).toBe(0);
      expect(red.stdout).toContain(`.tailtest/tdd/${t.sessionId}.log`);
      const testWrite = await t.fire(t.payloads.write(MUL_TEST, RED_TEST));
      expect(testWrite.stdout).toBe("");
      t.project.write(MUL_TEST, RED_TEST);
      expect((await t.fire(t.payloads.written(MUL_TEST, RED_TEST))).stdout).toBe("");
      expect(denial((await t.fire(t.payloads.write("calc.py", FIX))).answer)).toContain(
        "only test files may change",
      );

      // The agent runs the test; it fails, and tailtest confirms the Red by running it itself.
      const failing = await t.shell(RUN_MUL);
      expect(failing.exitCode).toBe(1);
      const redRun = await t.fire(t.payloads.bashFailed(RUN_MUL, `Exit code 1\n${failing.output}`));
      expect(context(redRun.answer, "PostToolUseFailure")).toContain("Red confirmed");

      // Red: production code waits for the Green.
      const waiting = denial((await t.fire(t.payloads.write("calc.py", FIX))).answer);
      expect(waiting).toContain('tailtest green --change "<what you will change>" --file calc.py');
      const green = await t.tailtest(["green", "--change", "add multiply", "--file", "calc.py"]);
      expect(green.exitCode, green.stderr).toBe(0);
      const allowed = await t.fire(t.payloads.write("calc.py", FIX));
      expect(allowed.stdout).toBe("");
      t.project.write("calc.py", FIX);
      expect((await t.fire(t.payloads.written("calc.py", FIX))).stdout).toBe("");

      // The test passes now: the cycle is complete.
      const passing = await t.shell(RUN_MUL);
      expect(passing.exitCode).toBe(0);
      const greenRun = await t.fire(t.payloads.bashDone(RUN_MUL));
      expect(context(greenRun.answer, "PostToolUse")).toContain("Green: the cycle is complete");

      // Refactor under a skip-red Green: production and test files may change, tests stay green.
      expect(denial((await t.fire(t.payloads.write("calc.py", REFACTORED))).answer)).toContain(
        "no TDD cycle is open",
      );
      const refactor = await t.tailtest([
        "green",
        "--skip-red",
        "--reason",
        "refactoring",
        "--change",
        "name the product",
        "--file",
        "calc.py",
      ]);
      expect(refactor.exitCode, refactor.stderr).toBe(0);
      const edit = t.payloads.preToolUse("Edit", {
        file_path: join(t.root, "calc.py"),
        old_string: "    return a * b\n",
        new_string: "    product = a * b\n    return product\n",
        replace_all: false,
      });
      expect((await t.fire(edit)).stdout).toBe("");
      t.project.write("calc.py", REFACTORED);
      expect((await t.fire(t.payloads.written("calc.py", REFACTORED))).stdout).toBe("");
      expect((await t.fire(t.payloads.write(MUL_TEST, RED_TEST))).stdout).toBe("");
      const suite = await t.shell("python3 -m pytest");
      expect(suite.exitCode, suite.output).toBe(0);
      const refactorRun = await t.fire(t.payloads.bashDone("python3 -m pytest"));
      expect(context(refactorRun.answer, "PostToolUse")).toContain("recorded a test run (passed)");

      const status = await t.tailtest(["tdd", "status", "--json"]);
      expect(status.exitCode, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ state: "initial" });
      // Everything the gate allowed went through it: the end of the turn has nothing to report.
      expect((await t.fire(t.payloads.stop(false))).stdout).toBe("");
    }, 120_000);

    it("a shell command that writes production code is refused before it runs", async () => {
      const t = tddProject();
      await t.fire(t.payloads.sessionStart());
      const bash = t.payloads.preToolUse("Bash", {
        command: "echo 'x = 1' > calc.py",
        description: "overwrite",
      });
      const reason = denial((await t.fire(bash)).answer);
      expect(reason).toContain("calc.py");
      expect(reason).toContain("tailtest red --test");
      // A command that writes nothing is not the gate's business.
      const ls = t.payloads.preToolUse("Bash", { command: "ls -la", description: "list" });
      expect((await t.fire(ls)).stdout).toBe("");
    }, 60_000);

    it("a declared test that fails on a syntax error is not a Red", async () => {
      const t = tddProject();
      await t.fire(t.payloads.sessionStart());
      const red = await t.tailtest([
        "red",
        "--test",
        `${MUL_TEST}::test_multiplies`,
        "--expects",
        "test_multiplies fails because calc has no multiply",
      ]);
      expect(red.exitCode, red.stderr).toBe(0);
      expect((await t.fire(t.payloads.write(MUL_TEST, "def test_multiplies(:\n"))).stdout).toBe("");
      t.project.write(
        MUL_TEST,
        "import calc\n\n\ndef test_multiplies(:\n    assert calc.multiply(2, 3) == 6\n",
      );
      const run = await t.shell(RUN_MUL);
      expect(run.exitCode).not.toBe(0);
      const answer = await t.fire(t.payloads.bashFailed(RUN_MUL, `Exit code ${run.exitCode}`));
      expect(context(answer.answer, "PostToolUseFailure")).toContain("This is not a Red yet");
      // Still writing tests: production code stays closed.
      expect(denial((await t.fire(t.payloads.write("calc.py", FIX))).answer)).toContain(
        "only test files may change",
      );
    }, 60_000);

    it("a subagent has its own log: its note names it, its gate is its own, SubagentStop closes it", async () => {
      const t = tddProject();
      await t.fire(t.payloads.sessionStart());
      const agent = "a7f3c2e91b";
      const started = await t.fire(t.payloads.subagentStart(agent));
      const note = context(started.answer, "SubagentStart");
      expect(note).toContain(`subagent ${agent}`);
      expect(note).toContain(`tailtest red --agent ${agent} --test`);

      const inAgent = { agent_id: agent, agent_type: "general-purpose" };
      const denied = denial((await t.fire(t.payloads.write(MUL_TEST, RED_TEST, inAgent))).answer);
      expect(denied).toContain(`tailtest red --agent ${agent} --test`);

      const red = await t.tailtest([
        "red",
        "--agent",
        agent,
        "--test",
        MUL_TEST,
        "--expects",
        "test_multiplies fails because calc has no multiply",
      ]);
      expect(red.exitCode, red.stderr).toBe(0);
      const agentLog = `.tailtest/tdd/${t.sessionId}.${agent}.log`;
      expect(red.stdout).toContain(agentLog);
      // The subagent's Red opens its test files, not the main agent's.
      expect((await t.fire(t.payloads.write(MUL_TEST, RED_TEST, inAgent))).stdout).toBe("");
      expect(denial((await t.fire(t.payloads.write(MUL_TEST, RED_TEST))).answer)).toContain(
        "no TDD cycle is open",
      );

      expect((await t.fire(t.payloads.subagentStop(agent))).stdout).toBe("");
      expect(readFileSync(join(t.root, agentLog), "utf8")).toMatch(/## FINISHED - /);
      expect(existsSync(join(t.root, `.tailtest/tdd/${t.sessionId}.log`))).toBe(true);
      expect(readFileSync(join(t.root, `.tailtest/tdd/${t.sessionId}.log`), "utf8")).not.toMatch(
        /FINISHED/,
      );
    }, 60_000);

    it("ExitPlanMode is refused once per session with the review, then accepted", async () => {
      const t = tddProject({
        mode: "tdd",
        tdd: {
          plan_review: {
            command: [process.execPath, "-e", "console.log('review ok: ' + process.argv.length)"],
            timeout_seconds: 30,
          },
        },
      });
      await t.fire(t.payloads.sessionStart());
      const plan = t.payloads.preToolUse("ExitPlanMode", {
        plan: "1. Red: tests/test_mul.py::test_multiplies\n2. Green: calc.py",
      });
      const first = denial((await t.fire(plan)).answer);
      expect(first).toContain("reviews a plan once per session");
      expect(first).toContain("review ok: 2");
      expect((await t.fire(plan)).stdout).toBe("");
    }, 60_000);

    it("the end of the turn reports production code changed behind the gate: block once, then tell the person", async () => {
      const t = tddProject();
      await t.fire(t.payloads.sessionStart());
      // Written straight to disk: no tool call the gate saw. The sweep looks 2 s back from its
      // last look (coarse file times), so the wait keeps this file out of the second sweep.
      writeFileSync(join(t.root, "calc.py"), FIX);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const first = await t.fire(t.payloads.stop(false));
      expect(first.answer.decision).toBe("block");
      expect(first.answer.reason).toContain("without passing the tdd gate");
      expect(first.answer.reason).toContain("- calc.py");
      // The same file is not reported twice; a new one, while the stop hook is active, goes to
      // the person instead of sending the agent back again.
      writeFileSync(join(t.root, "util.py"), "def noop():\n    return None\n");
      const second = await t.fire(t.payloads.stop(true));
      expect(Object.keys(second.answer)).toEqual(["systemMessage"]);
      expect(second.answer.systemMessage).toContain("- util.py");
      expect(second.answer.systemMessage).not.toContain("- calc.py");
    }, 60_000);
  },
);

describe("internal errors in tdd and strict modes (ADR 0002)", () => {
  const NOT_CHECKED = (mode: string) =>
    new RegExp(
      `^tailtest could not check this \\(internal error: [^\\n]+\\)\\. In ${mode} mode it does not let unchecked work through; fix the cause, or ask the person to set "mode": "follow" in \\.tailtest/config\\.json\\.$`,
    );
  const HELD = (mode: string) =>
    new RegExp(`^tailtest: internal error in ${mode} mode, not letting it through: [^\\n]+$`);
  const SKIPPED = /^tailtest: internal error, skipped this hook: [^\n]+$/;

  /** The answer is what Claude reads, and stderr one line without the machine's paths. */
  function expectOneLine(result: BinResult, root: string): void {
    expect(result.stderr.split("\n")).toHaveLength(1);
    expect(result.stdout + result.stderr).not.toContain(root);
  }

  /** A started tdd session whose shared event log then became a folder: reading it fails. */
  async function brokenLog(mode = "tdd") {
    const t = tddProject({ mode });
    await t.fire(t.payloads.sessionStart());
    mkdirSync(join(t.root, ".tailtest/events.jsonl"));
    return t;
  }

  it("tdd mode, Stop: blocks once with the reason; with stop_hook_active it fails open", async () => {
    const t = await brokenLog();
    // Changed on disk round the gate: the sweep reads the event log to see whether it was allowed.
    writeFileSync(join(t.root, "calc.py"), FIX);
    const first = await t.fire(t.payloads.stop(false));
    expect(Object.keys(first.answer)).toEqual(["decision", "reason"]);
    expect(first.answer.decision).toBe("block");
    expect(first.answer.reason).toMatch(NOT_CHECKED("tdd"));
    expect(first.stderr).toMatch(HELD("tdd"));
    expectOneLine(first, t.root);
    writeFileSync(join(t.root, "util.py"), "def noop():\n    return None\n");
    const again = await t.fire(t.payloads.stop(true));
    expect(again.stdout).toBe("");
    expect(again.stderr).toMatch(SKIPPED);
    expectOneLine(again, t.root);
  });

  it("tdd mode with its config broken mid-session, Stop: the session's mode still holds it", async () => {
    const t = await brokenLog();
    writeFileSync(join(t.root, ".tailtest/config.json"), '{"mode": "tdd-please"}\n');
    writeFileSync(join(t.root, "calc.py"), FIX);
    const first = await t.fire(t.payloads.stop(false));
    expect(first.answer.decision).toBe("block");
    expect(first.answer.reason).toMatch(NOT_CHECKED("tdd"));
    expectOneLine(first, t.root);
  });

  it("tdd mode, SubagentStop: blocks once; with stop_hook_active it fails open", async () => {
    const t = await brokenLog();
    const first = await t.fire(t.payloads.subagentStop("a1"));
    expect(first.answer.decision).toBe("block");
    expect(first.answer.reason).toMatch(NOT_CHECKED("tdd"));
    const again = await t.fire({ ...t.payloads.subagentStop("a1"), stop_hook_active: true });
    expect(again.stdout).toBe("");
    expect(again.stderr).toMatch(SKIPPED);
  });

  it("tdd mode, a test run after the tool: PostToolUse blocks with the reason, PostToolUseFailure gives it as context", async () => {
    const t = await brokenLog();
    const run = "python3 -m pytest tests/test_calc.py";
    const done = await t.fire(t.payloads.bashDone(run));
    expect(Object.keys(done.answer)).toEqual(["decision", "reason"]);
    expect(done.answer.decision).toBe("block");
    expect(done.answer.reason).toMatch(NOT_CHECKED("tdd"));
    expectOneLine(done, t.root);
    const failed = await t.fire(t.payloads.bashFailed(run, "Exit code 1"));
    expect(context(failed.answer, "PostToolUseFailure")).toMatch(NOT_CHECKED("tdd"));
    expect(failed.stderr).toMatch(HELD("tdd"));
  });

  it("tdd mode, SessionStart: nothing to hold, so it fails open with one line", async () => {
    const t = await brokenLog();
    const result = await t.fire(t.payloads.sessionStart());
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(SKIPPED);
    expectOneLine(result, t.root);
  });

  it.each(["strict", "tdd", "follow"])(
    "%s mode, a Bash command after the tool when the bundle's shell parser is missing",
    async (mode) => {
      const t = tddProject({ mode });
      // The launcher and the bundle without the .wasm files the shell parser loads.
      const bin = join(t.root, "..", `bin-${mode}`);
      mkdirSync(bin);
      for (const file of ["hook.cjs", "hook-main.cjs"])
        copyFileSync(join(HOOK, "..", file), join(bin, file));
      // A command that writes (tee): one that cannot write never loads the parser at all.
      const input = JSON.stringify(
        t.payloads.bashDone("python3 -m pytest tests/test_calc.py | tee pytest.log"),
      );
      const result = await runBin(join(bin, "hook.cjs"), [], {
        input,
        // pnpm exec's NODE_PATH would find the repository's copy of the parser package.
        env: { CLAUDE_PROJECT_DIR: t.root, NODE_PATH: "" },
      });
      rmSync(bin, { recursive: true });
      expect(result.exitCode).toBe(0);
      expectOneLine(result, t.root);
      if (mode === "follow") {
        expect(result.stdout).toBe("");
        expect(result.stderr).toMatch(SKIPPED);
      } else {
        const answer = JSON.parse(result.stdout) as HookAnswer;
        expect(answer.decision).toBe("block");
        expect(answer.reason).toMatch(NOT_CHECKED(mode));
        expect(answer.reason).toContain("Cannot find module");
      }
    },
  );
});
