import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  copyFixture,
  findToolchain,
  REPO_ROOT,
  runBin,
  type TempProject,
} from "@tailtest/test-utils";
import { readSession } from "@tailtest/test-utils/session";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPayload, writtenFile } from "./payloads.ts";

const BIN = join(REPO_ROOT, "adapters/cursor/dist/hook.cjs");
const SESSION = ".tailtest/cursor-session.json";
const pytest = findToolchain("pytest");

interface Session {
  session_id: string;
  platform?: string;
  pending_files: { path: string; status: string }[];
  results: Record<string, { outcome: string; test_path?: string }>;
  stop_blocks: number;
}

interface History {
  entries: { file: string; status: string; session_id: string }[];
}

/**
 * One follow-mode session the way Cursor's IDE agent would drive it (no Cursor can run offline,
 * so the synthetic payloads stand in): every edit fires afterFileEdit and postToolUse(Write),
 * every turn ends with stop, and stop's followup_message is what keeps the agent working.
 */
describe.skipIf(!pytest.available)("a whole follow-mode session through the built hook", () => {
  let project: TempProject;
  let root = "";

  beforeAll(() => {
    expect(existsSync(BIN), "run the build first (pnpm test does)").toBe(true);
    project = copyFixture("runners/pytest-pyproject");
    root = project.root;
  });
  afterAll(() => project.cleanup());

  /** Fires one payload file as Cursor would: the edit is on disk before the hook runs. */
  async function fire(name: string): Promise<{ output: Record<string, string>; stderr: string }> {
    const { stdin, env } = loadPayload(name, root);
    const file = writtenFile(stdin);
    if (file !== undefined) {
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(file.path, file.content);
    }
    const result = await runBin(BIN, [], {
      input: JSON.stringify(stdin),
      env: pytest.path === undefined ? env : { ...env, PATH: pytest.path },
    });
    expect(result.exitCode, `${name}: ${result.stderr}`).toBe(0);
    expect(result.stdout, `${name} never answers with nothing`).not.toBe("");
    expect(result.stdout, `${name} shows no absolute path`).not.toContain(root);
    return { output: JSON.parse(result.stdout) as Record<string, string>, stderr: result.stderr };
  }

  const session = (): Session => readSession(root, SESSION);

  it("sessionStart gives the agent its context", async () => {
    const { output } = await fire("edit.sessionStart.json");
    expect(Object.keys(output)).toEqual(["additional_context"]);
    expect(output["additional_context"]).toContain("Runners: python: pytest");
    expect(output["additional_context"]).toContain("Mode: follow.");
    expect((await fire("edit.beforeSubmitPrompt.json")).output).toEqual({});
  });

  it("a new source file is queued by afterFileEdit and named to the agent through postToolUse", async () => {
    expect((await fire("edit.afterFileEdit.json")).output).toEqual({});
    const { output } = await fire("edit.postToolUse-Write.json");
    expect(output).toEqual({
      additional_context:
        "tailtest: src/billing.py queued (new, python). write test to tests/test_billing.py. runner: pytest.",
    });
    const state = session();
    expect(state.session_id).toBe("5f0c2a7e-3b1d-4c6a-9e8f-2d4b6a8c0e13");
    expect(state.platform).toBe("cursor");
    expect(state.pending_files.map((entry) => [entry.path, entry.status])).toEqual([
      ["src/billing.py", "new"],
    ]);
    expect(existsSync(join(root, ".tailtest/session.json"))).toBe(false);
  });

  it("stop sends the agent back with a followup naming the missing test", async () => {
    const { output, stderr } = await fire("edit.stop.json");
    // The agent gets the followup, which the person sees in the chat: no second line.
    expect(stderr).toBe("");
    expect(Object.keys(output)).toEqual(["followup_message"]);
    expect(output["followup_message"]).toContain(
      "MISSING src/billing.py: no test at tests/test_billing.py",
    );
    expect(output["followup_message"]).toContain("(round 1 of 3)");
    expect(session().results["src/billing.py"]?.outcome).toBe("missing_test");
  });

  it("once the test is written and green, the followup's stop (loop_count 1) lets the agent stop", async () => {
    expect((await fire("edit.afterFileEdit-2.json")).output).toEqual({});
    expect((await fire("edit.postToolUse-Write-2.json")).output).toEqual({});
    const { output, stderr } = await fire("edit.stop-2.json");
    expect(output).toEqual({});
    expect(stderr).toMatch(/^tailtest: 1 edited file, 1 test passed \(\d+(\.\d)? m?s\)$/);
    const state = session();
    expect(state.pending_files).toEqual([]);
    expect(state.results["src/billing.py"]).toMatchObject({
      outcome: "passed",
      test_path: "tests/test_billing.py",
    });
    expect(state.stop_blocks).toBe(0);
  }, 60_000);

  it("a red test in the next turn gives a followup with the failure", async () => {
    expect((await fire("edit.beforeSubmitPrompt-2.json")).output).toEqual({});
    expect((await fire("edit.afterFileEdit-3.json")).output).toEqual({});
    expect((await fire("edit.postToolUse-Write-3.json")).output).toHaveProperty(
      "additional_context",
    );
    const { output } = await fire("edit.stop-3.json");
    expect(Object.keys(output)).toEqual(["followup_message"]);
    expect(output["followup_message"]).toContain(
      "FAIL tests/test_billing.py::test_charge_adds_vat",
    );
    expect(output["followup_message"]).toContain("assert 10.2 == 12.0");
    expect(output["followup_message"]).toContain("(round 1 of 3)");
    expect(session().results["src/billing.py"]?.outcome).toBe("failed");
  }, 60_000);

  it("sessionEnd records the measured outcomes in .tailtest/history.json", async () => {
    expect((await fire("edit.sessionEnd.json")).output).toEqual({});
    const history = JSON.parse(
      readFileSync(join(root, ".tailtest/history.json"), "utf8"),
    ) as History;
    expect(
      history.entries.map(({ file, status, session_id }) => [file, status, session_id]),
    ).toEqual([["src/billing.py", "failed", "5f0c2a7e-3b1d-4c6a-9e8f-2d4b6a8c0e13"]]);
  });
});
