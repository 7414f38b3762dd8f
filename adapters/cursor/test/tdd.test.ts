import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, runBin, type BinResult } from "@tailtest/test-utils";
import {
  CALC,
  cleanupTddProjects,
  describeTddSuite,
  openTddProject,
  pytest,
  type TddPlatform,
  type TddSession,
} from "@tailtest/test-utils/tdd-suite";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadPayload } from "./payloads.ts";

/**
 * tdd mode through the built Cursor hook and the built `tailtest` CLI, each a real process: the
 * scenarios every platform shares (`describeTddSuite`), then what only Cursor has (its Delete
 * tool). The payloads are the synthetic Cursor ones (no Cursor agent runs offline) with the tool
 * fields of its hook protocol; Cursor reports no exit code after a Shell command, so every Red
 * and Green is measured by tailtest re-running the cycle's test with the real pytest.
 */

const HOOK = join(REPO_ROOT, "adapters/cursor/dist/hook.cjs");
/** The `tailtest` bin this package ships (packages/cli bundled with the adapter). */
const TAILTEST = join(REPO_ROOT, "packages/cli/dist/bin.js");
/** The subagent of the recorded subagentStart/subagentStop shapes. */
const SUBAGENT = "0e9d4c27-6b1a-4f83-a5c2-7d3e1b8f6a90";

type Output = Record<string, unknown>;

beforeAll(() => {
  expect(existsSync(HOOK), "run the build first (pnpm test does)").toBe(true);
  expect(existsSync(TAILTEST), "run the build first (pnpm test does)").toBe(true);
});

/** Every stdout the hook prints is exactly one JSON object on one line (Cursor parses it). */
function oneObject(result: BinResult): Output {
  expect(result.exitCode, result.stderr).toBe(0);
  expect(result.stdout.split("\n"), result.stdout).toHaveLength(1);
  const json = JSON.parse(result.stdout) as unknown;
  expect(typeof json === "object" && json !== null && !Array.isArray(json)).toBe(true);
  return json as Output;
}

function expectDenied(output: Output): string {
  expect(Object.keys(output)).toEqual(["permission", "user_message", "agent_message"]);
  expect(output["permission"]).toBe("deny");
  const message = String(output["agent_message"]);
  expect(output["user_message"]).toBe(message.split("\n")[0]);
  return message;
}

interface CursorSession extends TddSession {
  /** A Cursor payload for the project: the common fields of a recorded shape, then the event's. */
  payload(event: string, fields: object): Output;
  fire(stdin: Output): Promise<{ output: Output; stderr: string }>;
}

const CURSOR: TddPlatform<CursorSession> = {
  name: "the built Cursor hook",
  subagent: SUBAGENT,
  open(project, baseEnv) {
    const { root } = project;
    const started = loadPayload("edit.sessionStart.json", root);
    const conversation = String(started.stdin["conversation_id"]);
    const env = { ...started.env, ...baseEnv };

    function payload(event: string, fields: object): Output {
      const common: Output = { ...started.stdin };
      delete common["is_background_agent"];
      return { ...common, hook_event_name: event, ...fields };
    }

    /** Fires the built hook as Cursor would: payload on stdin, Cursor's env, the workspace as cwd. */
    async function fire(stdin: Output): Promise<{ output: Output; stderr: string }> {
      const result = await runBin(HOOK, [], { cwd: root, input: JSON.stringify(stdin), env });
      const output = oneObject(result);
      expect(result.stdout, "no absolute path reaches the agent").not.toContain(root);
      return { output, stderr: result.stderr };
    }

    const preToolUse = (tool: string, input: object, agent?: string) =>
      payload("preToolUse", {
        tool_name: tool,
        tool_input: input,
        tool_use_id: "toolu_30",
        cwd: root,
        ...(agent === undefined ? {} : { subagent_id: agent }),
      });

    return {
      project,
      root,
      key: conversation,
      payload,
      fire,
      /** The conversation id is a file-name-safe UUID: the log key is the conversation itself. */
      async sessionStart() {
        const { output } = await fire(payload("sessionStart", { is_background_agent: false }));
        expect(Object.keys(output)).toEqual(["additional_context", "env"]);
        expect(output["env"]).toEqual({ TAILTEST_TDD_KEY: conversation });
        return String(output["additional_context"]);
      },
      prompt: async () => {},
      /** What Cursor does with a Write: preToolUse, then (if not denied) the write and afterFileEdit. */
      async write(file, content, agent) {
        const gate = await fire(
          preToolUse("Write", { file_path: join(root, file), content }, agent),
        );
        if (Object.keys(gate.output).length > 0) return expectDenied(gate.output);
        project.write(file, content);
        const edited = payload("afterFileEdit", {
          file_path: join(root, file),
          edits: [{ old_string: "", new_string: content }],
        });
        expect(await fire(edited)).toEqual({ output: {}, stderr: "" });
        return undefined;
      },
      async shell(command) {
        const gate = await fire(preToolUse("Shell", { command, cwd: root }));
        if (Object.keys(gate.output).length > 0) return expectDenied(gate.output);
        return undefined;
      },
      /** Cursor's postToolUse after a Shell command carries its output, never an exit code. */
      async ran(command, run) {
        const { output } = await fire(
          payload("postToolUse", {
            tool_name: "Shell",
            tool_input: { command, cwd: root },
            tool_output: run.output,
            duration: 900,
            tool_use_id: "toolu_32",
            cwd: root,
          }),
        );
        expect(Object.keys(output)).toEqual(["additional_context"]);
        return String(output["additional_context"]);
      },
      /** Cursor takes no context at subagentStart, and tailtest never refuses a subagent. */
      async subagentStart(agent) {
        const start = { ...loadPayload("subagent.subagentStart.json", root).stdin };
        expect((await fire({ ...start, subagent_id: agent })).output).toEqual({});
        return undefined;
      },
      async subagentStop(agent) {
        const stop = { ...loadPayload("subagent.subagentStop.json", root).stdin };
        expect((await fire({ ...stop, subagent_id: agent })).output).toEqual({});
      },
      /** loop_count: the followups Cursor already sent this turn (1 after one of ours). */
      async stop(round) {
        const { output, stderr } = await fire(
          payload("stop", { status: "completed", loop_count: round }),
        );
        if (Object.keys(output).length > 0) {
          // The stop that sends the agent back: Cursor's followup, the next user message.
          expect(Object.keys(output)).toEqual(["followup_message"]);
          expect(stderr).toBe("");
          return { sentBack: true, text: String(output["followup_message"]) };
        }
        // No followup: the person reads the result in Cursor's Hooks output channel.
        return { sentBack: false, text: stderr.replace(/\n$/, "") };
      },
      /** The built `tailtest` CLI, with the key sessionStart put in the env Cursor keeps. */
      tailtest: (args) =>
        runBin(TAILTEST, args, { cwd: root, env: { ...env, TAILTEST_TDD_KEY: conversation } }),
    };
  },
};

describeTddSuite(CURSOR);

describe.skipIf(!pytest.available)("tdd mode through the built Cursor hook: its own tools", () => {
  afterEach(cleanupTddProjects);

  it("denies a Delete of production code before any cycle; a tool tailtest does not gate passes", async () => {
    const s = await openTddProject(CURSOR);
    await s.sessionStart();
    const deleted = s.payload("preToolUse", {
      tool_name: "Delete",
      tool_input: { file_path: join(s.root, "calc.py") },
      tool_use_id: "toolu_33",
      cwd: s.root,
    });
    expect(expectDenied((await s.fire(deleted)).output)).toMatch(
      /^tailtest tdd: calc\.py is blocked: no TDD cycle is open/,
    );
    const read = s.payload("preToolUse", {
      tool_name: "Read",
      tool_input: { file_path: join(s.root, "calc.py") },
      tool_use_id: "toolu_34",
      cwd: s.root,
    });
    expect((await s.fire(read)).output).toEqual({});
    expect(readFileSync(join(s.root, "calc.py"), "utf8")).toBe(CALC);
  }, 60_000);
});
