import { join } from "node:path";
import { REPO_ROOT, runBin, type BinResult } from "@tailtest/test-utils";
import {
  describeStrictSuite,
  type StrictPlatform,
  type StrictSession,
} from "@tailtest/test-utils/strict-suite";
import { beforeAll, expect } from "vitest";
import { existsSync } from "node:fs";
import { loadPayload } from "./payloads.ts";

/**
 * The strict scenarios (`describeStrictSuite`) through the built Cursor hook and the built
 * `tailtest` CLI. The payloads are the synthetic Cursor ones (no Cursor agent runs offline) with
 * the tool fields of its hook protocol
 */

const HOOK = join(REPO_ROOT, "adapters/cursor/dist/hook.cjs");
/** The `tailtest` bin this package ships (packages/cli bundled with the adapter). */
const TAILTEST = join(REPO_ROOT, "packages/cli/dist/bin.js");

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

interface CursorSession extends StrictSession {
  conversation: string;
}

const CURSOR: StrictPlatform<CursorSession> = {
  name: "the built Cursor hook",
  host: "cursor",
  session: (t) => t.conversation,
  shellWrite: "sed -i 's/a + b/b + a/' calc.py",
  shellRead: "ls -la",
  open(project, baseEnv) {
    const { root } = project;
    const started = loadPayload("edit.sessionStart.json", root);
    const conversation = String(started.stdin["conversation_id"]);
    const env = { ...started.env, ...baseEnv };

    /** A Cursor payload for the project: the common fields of a recorded shape, then the event's. */
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

    return {
      project,
      root,
      conversation,
      async sessionStart() {
        const { output } = await fire(payload("sessionStart", { is_background_agent: false }));
        expect(Object.keys(output)).toEqual(["additional_context", "env"]);
        expect(output["env"]).toEqual({ TAILTEST_TDD_KEY: conversation });
        return String(output["additional_context"]);
      },
      prompt: async () => {},
      /** What Cursor does with a Write: preToolUse, then (if not denied) the write and afterFileEdit. */
      async write(file, content) {
        const gate = await fire(
          payload("preToolUse", {
            tool_name: "Write",
            tool_input: { file_path: join(root, file), content },
            tool_use_id: "toolu_30",
            cwd: root,
          }),
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
        const gate = await fire(
          payload("preToolUse", {
            tool_name: "Shell",
            tool_input: { command, cwd: root },
            tool_use_id: "toolu_31",
            cwd: root,
          }),
        );
        if (Object.keys(gate.output).length > 0) return expectDenied(gate.output);
        return undefined;
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
        // No followup: the result goes to Cursor's Hooks output channel.
        return { sentBack: false, text: stderr.replace(/\n$/, "") };
      },
      /** The built `tailtest` CLI, with the key sessionStart put in the env Cursor keeps. */
      tailtest: (args) =>
        runBin(TAILTEST, args, { cwd: root, env: { ...env, TAILTEST_TDD_KEY: conversation } }),
    };
  },
};

describeStrictSuite(CURSOR);
