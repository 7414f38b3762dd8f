import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  copyFixture,
  loadPayload,
  REPO_ROOT,
  runBin,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";

const BIN = join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs");
const PAYLOADS = join(REPO_ROOT, "fixtures", "payloads");

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

/** A recorded payload with its placeholders filled for a temporary project. */
function recorded(
  version: string,
  name: string,
  root: string,
): { stdin: string; env: Record<string, string> } {
  const { stdin } = loadPayload(version, name, root);
  return { stdin: JSON.stringify(stdin), env: { CLAUDE_PROJECT_DIR: root } };
}

async function fire(stdin: string, root: string) {
  return runBin(BIN, [], { input: stdin, env: { CLAUDE_PROJECT_DIR: root } });
}

const DOCUMENTED = {
  top: new Set([
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "hookSpecificOutput",
  ]),
  specific: new Set(["hookEventName", "additionalContext"]),
};

function expectProtocolOutput(stdout: string, event: string): void {
  if (stdout === "") return;
  const json = JSON.parse(stdout) as Record<string, unknown>;
  for (const key of Object.keys(json)) expect(DOCUMENTED.top.has(key), key).toBe(true);
  const specific = json["hookSpecificOutput"] as Record<string, unknown> | undefined;
  if (specific !== undefined) {
    expect(specific["hookEventName"]).toBe(event);
    for (const key of Object.keys(specific)) expect(DOCUMENTED.specific.has(key), key).toBe(true);
  }
}

describe("claude-code hook bin with payloads recorded from the real CLI", () => {
  for (const version of ["claude-2.1.330", "claude-2.1.197"]) {
    const files = readdirSync(join(PAYLOADS, version)).filter((name) =>
      name.startsWith("context."),
    );
    it.each(files)(
      `${version} %s is answered per the protocol`,
      async (name) => {
        project = copyFixture("runners/pytest-pyproject");
        project.write("src/billing.py", "def charge(amount):\n    return round(amount * 1.2, 2)\n");
        const { stdin } = recorded(version, name, project.root);
        const event = (JSON.parse(stdin) as { hook_event_name: string }).hook_event_name;
        const result = await fire(stdin, project.root);
        expect(result.exitCode).toBe(0);
        expect(result.stderr).toBe("");
        expectProtocolOutput(result.stdout, event);
        expect(result.stdout).not.toContain(REPO_ROOT);
        if (event === "SessionStart")
          expect(result.stdout).toContain("tailtest: session started. Runners: python: pytest");
        if (event === "PostToolUse") {
          expect(JSON.parse(result.stdout)).toEqual({
            hookSpecificOutput: {
              hookEventName: "PostToolUse",
              additionalContext:
                "tailtest: src/billing.py queued (new, python). write test to tests/test_billing.py. runner: pytest.",
            },
          });
        }
        if (event === "PreToolUse" || event === "UserPromptSubmit") expect(result.stdout).toBe("");
      },
      60_000,
    );
  }

  it("the recorded stop-block session: Write → Stop blocks (test missing) → Stop again with stop_hook_active", async () => {
    project = copyFixture("runners/pytest-pyproject");
    project.write("src/billing.py", "def charge(amount):\n    return round(amount * 1.2, 2)\n");
    const root = project.root;
    for (const name of ["stopblock.SessionStart.json", "stopblock.PostToolUse-Write.json"]) {
      expect((await fire(recorded("claude-2.1.330", name, root).stdin, root)).exitCode).toBe(0);
    }
    const first = await fire(recorded("claude-2.1.330", "stopblock.Stop.json", root).stdin, root);
    expect(first.exitCode).toBe(0);
    const block = JSON.parse(first.stdout) as { decision: string; reason: string };
    expect(block.decision).toBe("block");
    expect(block.reason).toContain("MISSING src/billing.py: no test at tests/test_billing.py");
    expect(block.reason).not.toContain(root);
    const second = await fire(
      recorded("claude-2.1.330", "stopblock.Stop-2.json", root).stdin,
      root,
    );
    expect(JSON.parse(second.stdout)).toMatchObject({ decision: "block" });
    expect((JSON.parse(second.stdout) as { reason: string }).reason).toContain("(round 2 of 3)");
  }, 60_000);
});
