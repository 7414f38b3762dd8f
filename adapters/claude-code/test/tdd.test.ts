import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadPayload, REPO_ROOT, runBin, type BinResult } from "@tailtest/test-utils";
import { stateLogFiles } from "@tailtest/test-utils/state-lines";
import {
  cleanupTddProjects,
  describeTddSuite,
  FIX,
  openTddProject,
  type TddPlatform,
  type TddSession,
} from "@tailtest/test-utils/tdd-suite";
import { afterEach, describe, expect, it } from "vitest";

/**
 * tdd mode through the built Claude Code hook and the built `tailtest` CLI: the scenarios every
 * platform shares (`describeTddSuite`), then the ones only Claude Code has (ExitPlanMode's plan
 * review, PostToolUseFailure, a subagent's SubagentStop held on an internal error). Every payload
 * is a recorded Claude Code 2.1.330 payload with only its event, tool and tool fields changed.
 */

const HOOK = join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs");
const CLI = join(REPO_ROOT, "packages/cli/dist/bin.js");
const VERSION = "claude-2.1.330";

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

/** A payload without some of its fields (a recorded one turned into another event). */
function without(payload: Payload, ...keys: string[]): Payload {
  return Object.fromEntries(Object.entries(payload).filter(([key]) => !keys.includes(key)));
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

/** A Claude Code session: the suite's calls, and the raw hook with its payloads. */
interface ClaudeSession extends TddSession {
  fire(
    payload: Payload | string,
    extraEnv?: Record<string, string>,
  ): Promise<BinResult & { answer: HookAnswer }>;
  payloads: ReturnType<typeof claudePayloads>;
}

/** Recorded Claude Code payloads for a project, turned into the events and tools a test needs. */
function claudePayloads(root: string) {
  const recorded = (name: string): Payload => loadPayload<Payload>(VERSION, name, root).stdin;
  const base = recorded("context.PreToolUse-Write.json");
  const post = recorded("context.PostToolUse-Write.json");
  const start = recorded("context.SessionStart.json");
  const stop = recorded("context.Stop.json");
  const inAgent = (agent?: string): Payload =>
    agent === undefined ? {} : { agent_id: agent, agent_type: "general-purpose" };
  const payloads = {
    sessionId: base["session_id"] as string,
    sessionStart: () => start,
    preToolUse: (tool: string, input: Payload, extra: Payload = {}): Payload => ({
      ...base,
      tool_name: tool,
      tool_input: input,
      ...extra,
    }),
    /** A new file is a Write; an existing one is an Edit of its whole text. */
    write: (path: string, content: string, before?: string, agent?: string): Payload =>
      before === undefined
        ? payloads.preToolUse("Write", { file_path: join(root, path), content }, inAgent(agent))
        : payloads.preToolUse(
            "Edit",
            {
              file_path: join(root, path),
              old_string: before,
              new_string: content,
              replace_all: false,
            },
            inAgent(agent),
          ),
    /** The PostToolUse of the edit tool that ran (every edit tool's call is followed by one). */
    written: (path: string, content: string, before?: string, agent?: string): Payload => ({
      ...post,
      ...inAgent(agent),
      ...(before === undefined
        ? {
            tool_name: "Write",
            tool_input: { file_path: join(root, path), content },
            tool_response: { type: "create", filePath: join(root, path), content },
          }
        : {
            tool_name: "Edit",
            tool_input: { file_path: join(root, path), old_string: before, new_string: content },
            tool_response: { filePath: join(root, path), oldString: before, newString: content },
          }),
    }),
    bashDone: (command: string, extra: Payload = {}): Payload => ({
      ...post,
      tool_name: "Bash",
      tool_input: { command, description: "run the tests" },
      tool_response: { stdout: "", stderr: "", interrupted: false, isImage: false },
      ...extra,
    }),
    bashFailed: (command: string, error: string, extra: Payload = {}): Payload => ({
      ...without(post, "tool_response", "duration_ms"),
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command, description: "run the tests" },
      error,
      is_interrupt: false,
      ...extra,
    }),
    subagentStart: (agentId: string): Payload => ({
      ...without(start, "source"),
      hook_event_name: "SubagentStart",
      ...inAgent(agentId),
    }),
    subagentStop: (agentId: string): Payload => ({
      ...stop,
      hook_event_name: "SubagentStop",
      ...inAgent(agentId),
      agent_transcript_path: join(root, "..", `agent-${agentId}.jsonl`),
    }),
    stop: (active: boolean): Payload => ({ ...stop, stop_hook_active: active }),
  };
  return payloads;
}

const CLAUDE_CODE: TddPlatform<ClaudeSession> = {
  name: "the built Claude Code hook",
  subagent: "a7f3c2e91b",
  open(project, baseEnv) {
    const { root } = project;
    const payloads = claudePayloads(root);
    const env = { ...baseEnv, CLAUDE_PROJECT_DIR: root };

    /** Fires the hook bin with a payload; the answer parsed ({} for no output). */
    async function fire(payload: Payload | string, extraEnv: Record<string, string> = {}) {
      const input = typeof payload === "string" ? payload : JSON.stringify(payload);
      const result = await runBin(HOOK, [], { input, env: { ...env, ...extraEnv }, cwd: root });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const answer = (result.stdout.trim() === "" ? {} : JSON.parse(result.stdout)) as HookAnswer;
      return { ...result, answer };
    }

    return {
      project,
      root,
      key: payloads.sessionId,
      fire,
      payloads,
      /** Claude Code's CLAUDE_ENV_FILE lives outside the project: the log key is exported there. */
      async sessionStart() {
        const dir = mkdtempSync(join(tmpdir(), "tailtest-claude-env-"));
        try {
          const envFile = join(dir, "hook-1.sh");
          writeFileSync(envFile, "");
          const started = await fire(payloads.sessionStart(), { CLAUDE_ENV_FILE: envFile });
          expect(readFileSync(envFile, "utf8")).toBe(
            `export TAILTEST_TDD_KEY=${payloads.sessionId}\n`,
          );
          return context(started.answer, "SessionStart");
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
      prompt: async () => {},
      async write(path, content, agent) {
        const file = join(root, path);
        const before = existsOn(file);
        const gate = await fire(payloads.write(path, content, before, agent));
        if (gate.stdout !== "") return denial(gate.answer);
        project.write(path, content);
        expect((await fire(payloads.written(path, content, before, agent))).stdout).toBe("");
        return undefined;
      },
      async shell(command) {
        const bash = payloads.preToolUse("Bash", { command, description: "run it" });
        const gate = await fire(bash);
        return gate.stdout === "" ? undefined : denial(gate.answer);
      },
      /** A command that failed reaches PostToolUseFailure, with Claude Code's "Exit code N". */
      async ran(command, run) {
        if (run.exitCode === 0)
          return context((await fire(payloads.bashDone(command))).answer, "PostToolUse");
        const error = `Exit code ${run.exitCode}\n${run.output}`;
        const failed = await fire(payloads.bashFailed(command, error));
        return context(failed.answer, "PostToolUseFailure");
      },
      async subagentStart(agent) {
        return context((await fire(payloads.subagentStart(agent))).answer, "SubagentStart");
      },
      async subagentStop(agent) {
        expect((await fire(payloads.subagentStop(agent))).stdout).toBe("");
      },
      async stop(round) {
        const result = await fire(payloads.stop(round > 0));
        if (result.stdout === "") return { sentBack: false, text: "" };
        if (result.answer.decision !== undefined) {
          expect(Object.keys(result.answer)).toEqual(["decision", "reason"]);
          expect(result.answer.decision).toBe("block");
          return { sentBack: true, text: result.answer.reason ?? "" };
        }
        // The Stop that lets the turn end: a line for the person, never sent to Claude.
        expect(Object.keys(result.answer)).toEqual(["systemMessage"]);
        return { sentBack: false, text: result.answer.systemMessage ?? "" };
      },
      /** The agent's `tailtest …` command, finding the log through the key SessionStart exported. */
      tailtest: (args) =>
        runBin(CLI, args, { cwd: root, env: { ...env, TAILTEST_TDD_KEY: payloads.sessionId } }),
    };
  },
};

function existsOn(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

describeTddSuite(CLAUDE_CODE);

const tddProject = (config?: Record<string, unknown>) => openTddProject(CLAUDE_CODE, config);
afterEach(cleanupTddProjects);

describe("tdd mode through the Claude Code hook: its own tools", () => {
  it("ExitPlanMode is refused once per session with the review, then accepted", async () => {
    const t = await tddProject({
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
});

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

  /**
   * A started tdd session whose shared event log then became a folder, and tailtest's copy of it
   * that the gates read (state-copy.ts): reading it fails.
   */
  async function brokenLog(mode = "tdd") {
    const t = await tddProject({ mode });
    await t.fire(t.payloads.sessionStart());
    for (const file of stateLogFiles(t.root)) {
      rmSync(file, { force: true });
      mkdirSync(file);
    }
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
      const t = await tddProject({ mode });
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
