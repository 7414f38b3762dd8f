import { existsSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { commitAll, copyFixture, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { fire, parseAnswer, recorded, type Payload } from "./payloads.ts";

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

const BILLING = "def charge(amount):\n    return round(amount * 1.2, 2)\n";
const BILLING_PATCH = `*** Begin Patch\n*** Add File: src/billing.py\n${BILLING.replace(/^/gm, "+").replace(/\+$/, "")}*** End Patch\n`;
const GREEN_TEST =
  "from src.billing import charge\n\n\ndef test_charge_adds_vat():\n    assert charge(10) == 12.0\n";
const RED_TEST =
  "from src.billing import charge\n\n\ndef test_charge_adds_vat():\n    assert charge(10) == 13.0\n";

/** The pytest fixture as a git repository whose files were last touched an hour ago. */
async function fixture(config?: object): Promise<TempProject> {
  const made = copyFixture("runners/pytest-pyproject");
  made.write("src/__init__.py", "");
  if (config !== undefined) made.write(".tailtest/config.json", `${JSON.stringify(config)}\n`);
  await commitAll(made.root);
  backdate(made, ["calc.py", "pyproject.toml", "tests/test_calc.py", "src/__init__.py"], 3600);
  return made;
}

function backdate(made: TempProject, files: readonly string[], seconds: number): void {
  const then = new Date(Date.now() - seconds * 1000);
  for (const file of files) utimesSync(join(made.root, file), then, then);
}

/** Fires one hook; asserts the call itself went well and the answer is one Codex accepts. */
async function hook(payload: Payload, root: string): Promise<Record<string, unknown> | undefined> {
  const result = await fire(payload, root);
  expect(result.stderr, String(payload["hook_event_name"])).toBe("");
  expect(result.exitCode).toBe(0);
  expect(result.stdout).not.toContain(root);
  return parseAnswer(result.stdout, payload["hook_event_name"] as string);
}

function readJson<T>(root: string, path: string): T {
  return JSON.parse(readFileSync(join(root, path), "utf8")) as T;
}

interface Session {
  pending_files: { path: string }[];
}

describe("a whole Codex follow-mode session through the built hook", () => {
  it("apply_patch adds a file → Stop blocks on its missing test → the agent writes it → Stop passes → history", async () => {
    project = await fixture();
    const root = project.root;
    const started = await hook(recorded("stopblock.SessionStart.json", root), root);
    expect(started).toMatchObject({
      hookSpecificOutput: {
        hookEventName: "SessionStart",
        additionalContext: expect.stringContaining("Runners: python: pytest") as unknown,
      },
    });
    expect(await hook(recorded("stopblock.UserPromptSubmit.json", root), root)).toBeUndefined();

    // Codex's apply_patch wrote the file, then PostToolUse fires with the patch.
    project.write("src/billing.py", BILLING);
    const post = recorded("stopblock.PostToolUse-apply_patch.json", root);
    expect((post["tool_input"] as { command: string }).command).toBe(BILLING_PATCH);
    expect(await hook(post, root)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext:
          "tailtest: src/billing.py queued (new, python). write test to tests/test_billing.py. runner: pytest.",
      },
    });

    const blocked = await hook(recorded("stopblock.Stop.json", root), root);
    // The block for the agent, and the person's line beside it.
    expect(Object.keys(blocked ?? {})).toEqual(["decision", "reason", "systemMessage"]);
    expect(blocked?.["systemMessage"]).toBe("tailtest: 1 edited file, 1 missing test");
    expect(blocked?.["decision"]).toBe("block");
    expect(blocked?.["reason"]).toContain(
      "MISSING src/billing.py: no test at tests/test_billing.py",
    );
    expect(blocked?.["reason"]).toContain("(round 1 of 3)");
    expect(blocked?.["reason"]).not.toContain("calc.py");

    // The agent writes the test (apply_patch on a test file: nothing to queue), then stops again.
    project.write("tests/test_billing.py", GREEN_TEST);
    const testPatch = recorded("stopblock.PostToolUse-apply_patch.json", root, {
      tool_input: {
        command: `*** Begin Patch\n*** Add File: tests/test_billing.py\n${GREEN_TEST.replace(/^/gm, "+").replace(/\+$/, "")}*** End Patch\n`,
      },
    });
    expect(await hook(testPatch, root)).toBeUndefined();
    const second = recorded("stopblock.Stop-2.json", root);
    expect(second["stop_hook_active"]).toBe(true);
    // Green: nothing for the agent; the person's line as systemMessage.
    expect(await hook(second, root)).toEqual({
      systemMessage: expect.stringMatching(
        /^tailtest: 1 edited file, 1 test passed \(\d+(\.\d)? m?s\)$/,
      ),
    });
    expect(readJson<Session>(root, ".tailtest/session.json").pending_files).toEqual([]);

    expect(await hook(recorded("stopblock.SessionEnd.json", root), root)).toBeUndefined();
    const history = readJson<{ entries: { file: string; status: string; attempts: number }[] }>(
      root,
      ".tailtest/history.json",
    );
    expect(history.entries).toEqual([
      expect.objectContaining({ file: "src/billing.py", status: "fixed", attempts: 1 }),
    ]);
  }, 120_000);

  it("a shell write fires no apply_patch hook: the Stop sweep queues it, and not a file changed before the turn", async () => {
    project = await fixture();
    const root = project.root;
    await hook(recorded("shell.SessionStart.json", root), root);
    // Edited before the user's prompt (say, by the person): not this turn's work.
    project.write("src/early.py", "def early():\n    return 1\n");
    backdate(project, ["src/early.py"], 60);
    expect(await hook(recorded("shell.UserPromptSubmit.json", root), root)).toBeUndefined();

    // `cat > src/billing.py <<'EOF'` run through a shell, and only Stop fires.
    project.write("src/billing.py", BILLING);
    const blocked = await hook(recorded("shell.Stop.json", root), root);
    expect(blocked?.["decision"]).toBe("block");
    expect(blocked?.["reason"]).toContain(
      "MISSING src/billing.py: no test at tests/test_billing.py",
    );
    expect(blocked?.["reason"]).not.toContain("early.py");
    expect(
      readJson<Session>(root, ".tailtest/session.json").pending_files.map((f) => f.path),
    ).toEqual(["src/billing.py"]);
  }, 120_000);

  it("a red test blocks with its failure, until the loop budget is spent; then the user is told", async () => {
    project = await fixture({ stop_loop_budget: 2 });
    const root = project.root;
    await hook(recorded("stopblock.SessionStart.json", root), root);
    await hook(recorded("stopblock.UserPromptSubmit.json", root), root);
    project.write("src/billing.py", BILLING);
    project.write("tests/test_billing.py", RED_TEST);
    await hook(recorded("stopblock.PostToolUse-apply_patch.json", root), root);

    const first = await hook(recorded("stopblock.Stop.json", root), root);
    expect(first?.["decision"]).toBe("block");
    expect(first?.["reason"]).toContain("FAIL tests/test_billing.py::test_charge_adds_vat");
    expect(first?.["reason"]).toContain("assert 12.0 == 13.0");
    expect(first?.["reason"]).toContain("(round 1 of 2)");

    const again = recorded("stopblock.Stop-2.json", root);
    const second = await hook(again, root);
    expect(second?.["decision"]).toBe("block");
    expect(second?.["reason"]).toContain("(round 2 of 2)");

    // Still red, budget spent: Codex has no block cap of its own, so tailtest lets go here.
    const third = await hook(again, root);
    // The person's line first, then the note: both for the person, none wakes the agent.
    expect(third).toEqual({
      systemMessage: expect.stringMatching(
        /^tailtest: 1 edited file, 1 test: 0 passed, 1 failed \([^)]+\)\ntailtest: still red after the last round, recorded as failed: src\/billing\.py\. Tell the user\.$/,
      ),
    });
    expect(existsSync(join(root, ".tailtest/session.json"))).toBe(true);
  }, 120_000);
});
