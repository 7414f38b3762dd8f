import { existsSync, readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { copyFixture, REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import { readSession } from "@tailtest/test-utils/session";
import { afterEach, describe, expect, it } from "vitest";
import { fire, HOOK_BIN, parseAnswer, recorded, RECORDED_DIR } from "./payloads.ts";

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

const BILLING = "def charge(amount):\n    return round(amount * 1.2, 2)\n";
const QUEUED_NOTE =
  "tailtest: src/billing.py queued (new, python). write test to tests/test_billing.py. runner: pytest.";

/** The pytest fixture, its files dated an hour back: they were there before any turn began. */
function fixture(): TempProject {
  const made = copyFixture("runners/pytest-pyproject");
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const file of ["calc.py", "pyproject.toml", "tests/test_calc.py"]) {
    utimesSync(join(made.root, file), hourAgo, hourAgo);
  }
  return made;
}

function pendingPaths(root: string): string[] {
  return readSession(root).pending_files.map((entry) => entry.path);
}

describe("codex hook bin with payloads recorded from Codex 0.169.0", () => {
  const files = readdirSync(RECORDED_DIR).filter((name) => name !== "legacy-notify.json");

  it("is built, with the bash parser's two .wasm files beside it", () => {
    expect(existsSync(HOOK_BIN), "run the build first (pnpm test does)").toBe(true);
    for (const wasm of ["tree-sitter.wasm", "tree-sitter-bash.wasm"]) {
      expect(existsSync(join(HOOK_BIN, "..", wasm)), wasm).toBe(true);
    }
  });

  it.each(files)(
    "%s is answered per the protocol",
    async (name) => {
      project = fixture();
      const payload = recorded(name, project.root);
      const event = payload["hook_event_name"] as string;
      // PostToolUse fires after the tool ran: the file is there.
      if (event === "PostToolUse") project.write("src/billing.py", BILLING);
      const result = await fire(payload, project.root);
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe("");
      const answer = parseAnswer(result.stdout, event);
      expect(result.stdout).not.toContain(REPO_ROOT);
      expect(result.stdout).not.toContain(project.root);
      switch (event) {
        case "SessionStart":
          expect(answer).toMatchObject({
            hookSpecificOutput: {
              additionalContext: expect.stringMatching(
                /^tailtest: session started\. Runners: python: pytest/,
              ) as unknown,
            },
          });
          break;
        case "PostToolUse":
          // Both tools: apply_patch by its headers, Bash through the bash parser (WebAssembly).
          expect(answer).toEqual({
            hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: QUEUED_NOTE },
          });
          expect(pendingPaths(project.root)).toEqual(["src/billing.py"]);
          break;
        default:
          // UserPromptSubmit records the turn start; PreToolUse gates only in tdd mode (this is
          // follow); Stop with nothing changed and SessionEnd have nothing to say.
          expect(result.stdout).toBe("");
      }
    },
    60_000,
  );

  it("a shell command that writes no file queues nothing", async () => {
    project = fixture();
    const payload = recorded("shell.PostToolUse-Bash.json", project.root, {
      tool_input: { command: "ls -la && git status" },
    });
    const result = await fire(payload, project.root);
    expect(result).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });

  it("finds the project from a subfolder the session runs in", async () => {
    project = fixture();
    project.write(".tailtest/config.json", "{}\n");
    project.write("src/billing.py", BILLING);
    const sub = join(project.root, "src");
    const payload = recorded("context.PostToolUse-apply_patch.json", project.root, {
      cwd: sub,
      tool_input: { command: "*** Begin Patch\n*** Add File: billing.py\n+x\n*** End Patch\n" },
    });
    const result = await fire(payload, sub);
    expect(parseAnswer(result.stdout, "PostToolUse")).toEqual({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: QUEUED_NOTE },
    });
    expect(existsSync(join(sub, ".tailtest")), "no state in the subfolder").toBe(false);
  });

  it("the legacy notify payload: exit 0, no stdout, one line on stderr, no stack trace", async () => {
    const stdin = JSON.stringify({ type: "agent-turn-complete", cwd: "/x" });
    const result = await runBin(HOOK_BIN, [], { input: stdin });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^tailtest: ignored a hook call: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
