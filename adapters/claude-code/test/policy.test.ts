import { join } from "node:path";
import { loadPayload, REPO_ROOT } from "@tailtest/test-utils";
import { describeHookPolicySuite } from "@tailtest/test-utils/hook-suite";
import { expect } from "vitest";

/**
 * The hook failure policy (`describeHookPolicySuite`) through the built Claude Code hook: every
 * payload is a recorded Claude Code 2.1.330 payload with only its tool fields changed.
 */

type Payload = Record<string, unknown>;
const VERSION = "claude-2.1.330";

describeHookPolicySuite({
  name: "the built Claude Code hook",
  hookBin: join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs"),
  packageName: "@tailtest/claude-code",
  noOpinion: "",
  where: (root) => ({ cwd: root, env: { CLAUDE_PROJECT_DIR: root } }),
  payloads(root) {
    const recorded = (name: string): Payload => loadPayload<Payload>(VERSION, name, root).stdin;
    const gate = recorded("context.PreToolUse-Write.json");
    const post = recorded("context.PostToolUse-Write.json");
    const stop = recorded("context.Stop.json");
    return {
      sessionStart: recorded("context.SessionStart.json"),
      gateWrite: (file, content) => ({
        ...gate,
        tool_name: "Write",
        tool_input: { file_path: join(root, file), content },
      }),
      wrote: (file, content) => ({
        ...post,
        tool_input: { file_path: join(root, file), content },
        tool_response: {
          ...(post["tool_response"] as Payload),
          filePath: join(root, file),
          content,
        },
      }),
      brokenGate: { ...gate, tool_name: "Write", tool_input: { content: "x" } },
      stop: (round) => ({ ...stop, stop_hook_active: round > 0 }),
      brokenStop: { ...stop, stop_hook_active: "yes" },
    };
  },
  denial(stdout) {
    const answer = JSON.parse(stdout) as {
      hookSpecificOutput?: Record<string, string>;
    };
    expect(Object.keys(answer)).toEqual(["hookSpecificOutput"]);
    expect(answer.hookSpecificOutput?.["hookEventName"]).toBe("PreToolUse");
    expect(answer.hookSpecificOutput?.["permissionDecision"]).toBe("deny");
    return answer.hookSpecificOutput?.["permissionDecisionReason"] ?? "";
  },
  sentBack(stdout) {
    const answer = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(answer)).toEqual(["decision", "reason"]);
    expect(answer["decision"]).toBe("block");
    return answer["reason"] ?? "";
  },
});
