import { join } from "node:path";
import { loadPayload, REPO_ROOT, runBin, type BinResult } from "@tailtest/test-utils";
import {
  cleanupStrictProjects,
  describeStrictSuite,
  loggedEvents,
  openStrictProject,
  pytest,
  TEST_ID,
  type StrictPlatform,
  type StrictSession,
} from "@tailtest/test-utils/strict-suite";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The strict scenarios (`describeStrictSuite`) through the built Claude Code hook: every payload
 * is a recorded Claude Code 2.1.330 payload with only its event, tool and tool fields changed.
 * ExitPlanMode, which only Claude Code has, is tested here.
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

interface ClaudeSession extends StrictSession {
  /** The gate on a tool call: the answer parsed ({} for no output), and stdout. */
  pre(tool: string, input: Payload): Promise<{ stdout: string; answer: HookAnswer }>;
}

function denial(answer: HookAnswer): string {
  expect(Object.keys(answer)).toEqual(["hookSpecificOutput"]);
  expect(answer.hookSpecificOutput?.hookEventName).toBe("PreToolUse");
  expect(answer.hookSpecificOutput?.permissionDecision).toBe("deny");
  return answer.hookSpecificOutput?.permissionDecisionReason ?? "";
}

function context(answer: HookAnswer, event: string): string {
  expect(Object.keys(answer)).toEqual(["hookSpecificOutput"]);
  expect(answer.hookSpecificOutput?.hookEventName).toBe(event);
  expect(answer.hookSpecificOutput).not.toHaveProperty("permissionDecision");
  return answer.hookSpecificOutput?.additionalContext ?? "";
}

const CLAUDE_CODE: StrictPlatform<ClaudeSession> = {
  name: "the built Claude Code hook",
  host: "claude-code",
  shellWrite: "cat >> calc.py <<'EOF'\n\ndef sub(a, b):\n    return a - b\nEOF\n",
  shellRead: "ls -la",
  open(project, baseEnv) {
    const { root } = project;
    const recorded = (name: string): Payload => loadPayload<Payload>(VERSION, name, root).stdin;
    const base = recorded("context.PreToolUse-Write.json");
    const post = recorded("context.PostToolUse-Write.json");
    const stop = recorded("context.Stop.json");
    const sessionId = base["session_id"] as string;
    const env = { ...baseEnv, CLAUDE_PROJECT_DIR: root };

    /** Fires the hook bin with a payload; the answer parsed ({} for no output). */
    async function fire(payload: Payload) {
      const result = await runBin(HOOK, [], { input: JSON.stringify(payload), env, cwd: root });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toBe("");
      expect(result.stdout, "no absolute path reaches the agent").not.toContain(root);
      const answer = (result.stdout.trim() === "" ? {} : JSON.parse(result.stdout)) as HookAnswer;
      return { ...result, answer };
    }

    const pre = (tool: string, input: Payload) =>
      fire({ ...base, tool_name: tool, tool_input: input });

    return {
      project,
      root,
      pre,
      sessionStart: async () =>
        context((await fire(recorded("context.SessionStart.json"))).answer, "SessionStart"),
      prompt: async () => {},
      async write(path, content) {
        const gate = await pre("Write", { file_path: join(root, path), content });
        if (gate.stdout !== "") return denial(gate.answer);
        project.write(path, content);
        const written = {
          ...post,
          tool_input: { file_path: join(root, path), content },
          tool_response: {
            ...(post["tool_response"] as Payload),
            filePath: join(root, path),
            content,
          },
        };
        expect((await fire(written)).stdout).toBe("");
        return undefined;
      },
      async shell(command) {
        const gate = await pre("Bash", { command, description: "a command" });
        return gate.stdout === "" ? undefined : denial(gate.answer);
      },
      async stop(round) {
        const { answer } = await fire({ ...stop, stop_hook_active: round > 0 });
        if (answer.decision !== undefined) {
          // The Stop that sends Claude back to work, with the reason it reads.
          expect(Object.keys(answer)).toEqual(["decision", "reason"]);
          expect(answer.decision).toBe("block");
          return { sentBack: true, text: answer.reason ?? "" };
        }
        if (Object.keys(answer).length === 0) return { sentBack: false, text: "" };
        // The Stop that lets the turn end: only a message for the person, never a block.
        expect(Object.keys(answer)).toEqual(["systemMessage"]);
        return { sentBack: false, text: answer.systemMessage ?? "" };
      },
      /** The agent's `tailtest …` command, with the key SessionStart exported for its shell. */
      tailtest: (args: string[]): Promise<BinResult> =>
        runBin(CLI, args, { cwd: root, env: { ...env, TAILTEST_TDD_KEY: sessionId } }),
    };
  },
};

describeStrictSuite(CLAUDE_CODE);

describe.skipIf(!pytest.available)(
  "strict mode's ExitPlanMode through the Claude Code hook",
  () => {
    afterEach(cleanupStrictProjects);

    it("a plan whose steps name no test is denied; one naming the test of each step is allowed", async () => {
      const t = openStrictProject(CLAUDE_CODE, "pytest-ini");
      await t.sessionStart();
      const vague = await t.pre("ExitPlanMode", {
        plan: "1. Add a charge function in billing.py\n2. Document VAT in the README\n",
      });
      const refused = denial(vague.answer);
      expect(refused).toContain("tailtest strict: this plan has steps that name no test.");
      expect(refused).toContain("- step 1: Add a charge function in billing.py");
      expect(refused).toContain("- step 2: Document VAT in the README");

      const named = await t.pre("ExitPlanMode", {
        plan: [
          `1. Write \`${TEST_ID}\` (charge adds 20% VAT) and claim it for billing.py`,
          `2. Make \`${TEST_ID}\` pass in billing.py`,
          "",
        ].join("\n"),
      });
      expect(named.stdout).toBe("");
      expect(
        loggedEvents(t.root)
          .filter((event) => event.type === "plan_recorded")
          .map((event) => event.accepted),
      ).toEqual([false, true]);
    }, 60_000);
  },
);
