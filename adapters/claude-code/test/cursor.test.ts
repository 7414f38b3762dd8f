import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
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
const CURSOR_SESSION = ".cursor/hooks/state/tailtest.json";
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
 * Cursor runs the hooks in .claude/settings.json with its own payload (hook-protocols §2.6):
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
  return JSON.parse(result.stdout) as Record<string, string>;
}

describe("a Claude Code hook that Cursor calls", () => {
  it("answers as the Cursor adapter would when that adapter is not installed", async () => {
    const started = await fireClaudeHook("edit.sessionStart.json");
    expect(started["additional_context"]).toMatch(/^tailtest: session started/);
    const queued = await fireClaudeHook("edit.postToolUse-Write.json");
    expect(Object.keys(queued)).toEqual(["additional_context"]);
    expect(queued["additional_context"]).toContain("billing.py queued");
    // Cursor's session file, not Claude Code's.
    expect(existsSync(join(project.root, CURSOR_SESSION))).toBe(true);
    expect(existsSync(join(project.root, ".tailtest/session.json"))).toBe(false);
    if (!pytest.available) return;
    const stop = await fireClaudeHook("edit.stop.json");
    expect(Object.keys(stop)).toEqual(["followup_message"]);
    expect(stop["followup_message"]).toContain("tests/test_billing.py");
  });

  it("steps aside with Cursor's no-opinion answer when the Cursor adapter handles the event", async () => {
    project.write(
      ".cursor/hooks.json",
      JSON.stringify({
        version: 1,
        hooks: {
          postToolUse: [
            {
              command:
                'node "${CURSOR_PROJECT_DIR:-.}/node_modules/@tailtest/cursor/dist/hook.cjs"',
            },
          ],
        },
      }),
    );
    for (const name of [
      "edit.sessionStart.json",
      "edit.postToolUse-Write.json",
      "edit.stop.json",
    ]) {
      expect(await fireClaudeHook(name), name).toEqual({});
    }
    expect(existsSync(join(project.root, CURSOR_SESSION))).toBe(false);
    expect(existsSync(join(project.root, ".tailtest"))).toBe(false);
  });

  it("follows the failure policy of Cursor's adapter: in tdd mode an internal error at stop sends the agent back once", async () => {
    project.write(".tailtest/config.json", JSON.stringify({ mode: "tdd" }));
    await fireClaudeHook("edit.sessionStart.json");
    // The state folder becomes a file: the stop's sweep cannot record itself.
    rmSync(join(project.root, ".cursor/hooks/state"), { recursive: true });
    project.write(".cursor/hooks/state", "a file where the state folder should be\n");
    const { stdin, env } = loadPayload<CursorStdin>("cursor", "edit.stop.json", project.root);
    const stop = (loopCount: number) =>
      runBin(CLAUDE_HOOK, [], { input: JSON.stringify({ ...stdin, loop_count: loopCount }), env });
    const first = await stop(0);
    expect(Object.keys(JSON.parse(first.stdout) as object)).toEqual(["followup_message"]);
    expect(first.stdout).toContain("tailtest could not check this (internal error: ");
    expect(first.stdout).toContain("In tdd mode it does not let unchecked work through");
    expect(first.stderr.split("\n")).toHaveLength(1);
    // A followup was already sent this turn: no second one, one line for the person.
    const again = await stop(1);
    expect(again.stdout).toBe("{}");
    expect(again.stderr).toMatch(/^tailtest: internal error, skipped this hook: [^\n]+$/);
    expect(first.stdout + first.stderr + again.stderr).not.toContain(project.root);
  });

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
