import { describeHookPolicySuite } from "@tailtest/test-utils/hook-suite";
import { expect } from "vitest";
import { HOOK_BIN, parseAnswer, recorded } from "./payloads.ts";

/**
 * The hook failure policy (`describeHookPolicySuite`) through the built Codex hook: payloads
 * recorded from Codex 0.169.0, every answer checked against what Codex accepts for its event.
 * Codex names no project: the hook runs in the session's folder.
 */

describeHookPolicySuite({
  name: "the built Codex hook",
  hookBin: HOOK_BIN,
  packageName: "@tailtest/codex",
  noOpinion: "",
  where: (root) => ({ cwd: root, env: {} }),
  payloads(root) {
    const gate = recorded("block.PreToolUse-apply_patch.json", root);
    const post = recorded("context.PostToolUse-apply_patch.json", root);
    const stop = recorded("block.Stop.json", root);
    const patch = (file: string, content: string) =>
      `*** Begin Patch\n*** Add File: ${file}\n${content
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => `+${line}`)
        .join("\n")}\n*** End Patch\n`;
    return {
      sessionStart: recorded("block.SessionStart.json", root),
      gateWrite: (file, content) => ({
        ...gate,
        tool_name: "apply_patch",
        tool_input: { command: patch(file, content) },
      }),
      wrote: (file, content) => ({
        ...post,
        tool_name: "apply_patch",
        tool_input: { command: patch(file, content) },
      }),
      // A PreToolUse that names nothing else.
      brokenGate: { hook_event_name: "PreToolUse", cwd: root },
      stop: (round) => ({ ...stop, stop_hook_active: round > 0 }),
      brokenStop: { ...stop, stop_hook_active: "yes" },
    };
  },
  denial(stdout) {
    const answer = parseAnswer(stdout, "PreToolUse") as {
      hookSpecificOutput?: Record<string, string>;
    };
    expect(answer.hookSpecificOutput?.["permissionDecision"]).toBe("deny");
    return answer.hookSpecificOutput?.["permissionDecisionReason"] ?? "";
  },
  sentBack(stdout) {
    const answer = parseAnswer(stdout, "Stop") as Record<string, string>;
    expect(answer["decision"]).toBe("block");
    return answer["reason"] ?? "";
  },
});
