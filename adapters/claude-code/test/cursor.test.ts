import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  copyFixture,
  findToolchain,
  loadPayload,
  REPO_ROOT,
  runBin,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const CLAUDE_HOOK = join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs");
const CURSOR_SESSION = ".tailtest/cursor-session.json";
const pytest = findToolchain("pytest");

interface CursorStdin {
  tool_input?: { file_path?: string; content?: string };
  [key: string]: unknown;
}

let project: TempProject;
beforeEach(() => {
  project = copyFixture("runners/pytest-pyproject");
});
afterEach(() => project.cleanup());

/**
 * Cursor runs the hooks in .claude/settings.json with its own payload (its hook protocol):
 * these fire the Claude Code hook bin with Cursor's payloads, the edit on disk first.
 */
async function fireClaudeHook(name: string) {
  const { stdin, env } = loadPayload<CursorStdin>("cursor", name, project.root);
  const input = stdin.tool_input;
  if (input?.file_path !== undefined && input.content !== undefined) {
    mkdirSync(dirname(input.file_path), { recursive: true });
    writeFileSync(input.file_path, input.content);
  }
  const result = await runBin(CLAUDE_HOOK, [], {
    input: JSON.stringify(stdin),
    env: pytest.path === undefined ? env : { ...env, PATH: pytest.path },
  });
  expect(result.exitCode).toBe(0);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return result;
}

const STEPS_ASIDE =
  "tailtest: Cursor ran Claude Code's hook; tailtest answers Cursor through @tailtest/cursor's hooks (npx tailtest-cursor init)";

describe("a Claude Code hook that Cursor calls", () => {
  it.each(["follow", "tdd", "strict"])(
    "%s mode: leaves the call to the Cursor adapter's own hooks, with Cursor's no-opinion answer and one line saying so",
    async (mode) => {
      project.write(".tailtest/config.json", JSON.stringify({ mode }));
      for (const name of [
        "edit.sessionStart.json",
        "gate.preToolUse-Write.json",
        "edit.postToolUse-Write.json",
        "edit.stop.json",
      ]) {
        const result = await fireClaudeHook(name);
        // Cursor counts an empty stdout as a failed hook.
        expect(result.stdout, name).toBe("{}");
        expect(result.stderr, name).toBe(STEPS_ASIDE);
      }
      // Nothing is handled twice: neither adapter's session was written by this hook.
      expect(existsSync(join(project.root, CURSOR_SESSION))).toBe(false);
      expect(existsSync(join(project.root, ".tailtest/session.json"))).toBe(false);
    },
  );

  it("still treats Claude Code's own payloads as Claude Code's", async () => {
    const result = await runBin(CLAUDE_HOOK, [], {
      input: JSON.stringify({
        session_id: "s1",
        transcript_path: join(project.root, "t.jsonl"),
        cwd: project.root,
        hook_event_name: "SessionStart",
        source: "startup",
      }),
      env: { CLAUDE_PROJECT_DIR: project.root },
    });
    const output = JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string } };
    expect(output.hookSpecificOutput.hookEventName).toBe("SessionStart");
    expect(existsSync(join(project.root, ".tailtest/session.json"))).toBe(true);
  });
});
