import { join } from "node:path";
import { REPO_ROOT } from "@tailtest/test-utils";
import { describeHookPolicySuite } from "@tailtest/test-utils/hook-suite";
import { expect } from "vitest";
import { loadPayload } from "./payloads.ts";

/**
 * The hook failure policy (`describeHookPolicySuite`) through the built Cursor hook: the
 * synthetic Cursor payloads (fixtures/payloads/cursor), Cursor's environment, the workspace as
 * the working directory. Every answer is one JSON object: Cursor counts an empty one as a failure.
 */

type Payload = Record<string, unknown>;

describeHookPolicySuite({
  name: "the built Cursor hook",
  hookBin: join(REPO_ROOT, "adapters/cursor/dist/hook.cjs"),
  packageName: "@tailtest/cursor",
  noOpinion: "{}",
  where: (root) => ({ cwd: root, env: loadPayload("edit.sessionStart.json", root).env }),
  payloads(root) {
    const stored = (name: string): Payload => ({ ...loadPayload(name, root).stdin });
    const gate = stored("gate.preToolUse-Write.json");
    const post = stored("edit.postToolUse-Write.json");
    const stop = stored("edit.stop.json");
    return {
      sessionStart: stored("edit.sessionStart.json"),
      gateWrite: (file, content) => ({
        ...gate,
        tool_name: "Write",
        tool_input: { file_path: join(root, file), content },
      }),
      wrote: (file, content) => ({
        ...post,
        tool_name: "Write",
        tool_input: { file_path: join(root, file), content },
      }),
      brokenGate: { ...gate, tool_name: "Write", tool_input: {} },
      stop: (round) => ({ ...stop, loop_count: round }),
      brokenStop: { ...stop, loop_count: "once" },
    };
  },
  denial(stdout) {
    const answer = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(answer)).toEqual(["permission", "user_message", "agent_message"]);
    expect(answer["permission"]).toBe("deny");
    const reason = answer["agent_message"] ?? "";
    expect(answer["user_message"]).toBe(reason.split("\n")[0]);
    return reason;
  },
  sentBack(stdout) {
    const answer = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(answer)).toEqual(["followup_message"]);
    return answer["followup_message"] ?? "";
  },
});
