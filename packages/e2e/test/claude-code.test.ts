import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BILLING_FIXED,
  BILLING_TEST,
  BLOCK_REASON,
  CLAUDE_CODE,
  describeRun,
  MISSING_TEST,
  modelRequests,
  QUEUED,
  RED_TEST,
  SESSION_NOTE,
  STRICT_REVERTED,
  TDD_CYCLE,
  fixtureDepsMissing,
  requestAfterMove,
  type RunResult,
} from "../src/index.ts";
import {
  expectArrivesAfterMove,
  expectNowhere,
  expectStrictGreen,
  expectStrictReverted,
  expectTddCycle,
  expectWholeScript,
  writeStrictConfigAndBuggyBilling,
  writeTddConfig,
  PackedAdapter,
  prepareAgent,
  run,
  STRICT_GREEN_CASES,
  type StrictGreenCase,
} from "./support.ts";

const cli = CLAUDE_CODE;
const agent = await prepareAgent(cli);
const adapter = new PackedAdapter(cli);

/** Claude Code's `--output-format json` result. */
interface ClaudeResult {
  type: string;
  is_error: boolean;
  result: string;
  session_id: string;
  num_turns: number;
}

function claudeResult(result: RunResult): ClaudeResult {
  const output = result.output as ClaudeResult | undefined;
  expect(output?.type, describeRun(result)).toBe("result");
  return output as ClaudeResult;
}

/** The hooks fired for this Claude Code session: SessionStart made the state, SessionEnd the history. */
function expectSessionRecorded(result: RunResult, sessionId: string): void {
  expect(result.session?.session_id).toBe(sessionId);
  expect(result.session?.platform).toBe("claude-code");
  expect(result.history?.entries.every((entry) => entry.session_id === sessionId)).toBe(true);
}

describe(`Claude Code ${cli.version}, the real CLI against a scripted model`, () => {
  beforeAll(async () => {
    if (agent.ok) await adapter.pack();
  }, 300_000);
  afterAll(() => adapter.dispose());

  it("(1) queues an edit, and tailtest's note reaches the model's next request", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await run(cli, agent, adapter, QUEUED);
    const output = claudeResult(result);
    expect(output).toMatchObject({ is_error: false, result: "done: billing.py and its test" });
    expectWholeScript(result, QUEUED);
    // SessionStart's context is in the very first request.
    expect(modelRequests(result)[0]?.body).toContain(SESSION_NOTE);
    expectArrivesAfterMove(result, 0, [
      "tailtest: billing.py queued (new, python)",
      "write test to tests/test_billing.py",
    ]);
    // The test was written in the same turn: the stop is not blocked.
    expectNowhere(result, BLOCK_REASON);
    expectSessionRecorded(result, output.session_id);
    expect(result.session?.touched_files).toEqual(["billing.py"]);
    expect(result.session?.results["billing.py"]).toMatchObject({
      outcome: "passed",
      test_path: "tests/test_billing.py",
    });
    expect(result.history?.entries).toEqual([
      expect.objectContaining({ file: "billing.py", status: "passed", attempts: 0 }),
    ]);
  }, 120_000);

  it("(2) blocks the stop while the new file has no test, then lets it pass", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await run(cli, agent, adapter, MISSING_TEST);
    const output = claudeResult(result);
    expect(output).toMatchObject({ is_error: false, result: "done: added tests/test_billing.py" });
    expectWholeScript(result, MISSING_TEST);
    // The stop after move 1 was blocked with tailtest's reason, and Claude Code went on.
    expectArrivesAfterMove(result, 1, [
      BLOCK_REASON,
      "MISSING billing.py: no test at tests/test_billing.py",
      "(round 1 of 3)",
    ]);
    expect(requestAfterMove(result, 1)?.answer).toMatchObject({ kind: "move", index: 2 });
    // The second stop passed: nothing after the last reply.
    expect(modelRequests(result).at(-1)?.answer).toMatchObject({ kind: "move", index: 3 });
    expect(result.files["tests/test_billing.py"]).toBe(BILLING_TEST);
    expectSessionRecorded(result, output.session_id);
    expect(result.session?.stop_blocks).toBe(0);
    expect(result.session?.results["billing.py"]).toMatchObject({ outcome: "passed" });
    expect(result.history?.entries).toEqual([
      expect.objectContaining({ file: "billing.py", status: "fixed", attempts: 1 }),
    ]);
  }, 120_000);

  it("(3) sends a red test's failure to the model, and records the scripted fix", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await run(cli, agent, adapter, RED_TEST);
    const output = claudeResult(result);
    expect(output).toMatchObject({ is_error: false });
    expectWholeScript(result, RED_TEST);
    expectArrivesAfterMove(result, 2, [
      BLOCK_REASON,
      "FAIL tests/test_billing.py::test_charge_adds_vat",
      "assert 10.2 == 12.0",
    ]);
    // Claude Code lets the model overwrite billing.py only after reading it.
    expect(requestAfterMove(result, 2)?.answer).toEqual({ kind: "read", path: "billing.py" });
    expect(result.files["billing.py"]).toBe(BILLING_FIXED);
    expect(modelRequests(result).at(-1)?.answer).toMatchObject({ kind: "move", index: 4 });
    expectSessionRecorded(result, output.session_id);
    expect(result.session?.results["billing.py"]).toMatchObject({ outcome: "passed" });
    expect(result.history?.entries).toEqual([
      expect.objectContaining({ file: "billing.py", status: "fixed", attempts: 1 }),
    ]);
  }, 120_000);

  it("(5) tdd mode: Red → Green → Refactor, gated and measured", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await run(cli, agent, adapter, TDD_CYCLE, { beforeRun: writeTddConfig });
    const output = claudeResult(result);
    expect(output).toMatchObject({ is_error: false, result: "done: billing.py, test first" });
    expectTddCycle(result);
    // Claude Code put the agent's log key into its shell environment (CLAUDE_ENV_FILE), or
    // the CLI found it from CLAUDE_CODE_SESSION_ID: either way, the session's own log.
    expect(result.files[".tailtest/events.jsonl"]).toContain(`"agent_key":"${output.session_id}"`);
  }, 180_000);

  it.for<[string, StrictGreenCase]>(STRICT_GREEN_CASES.map((strict) => [strict.runner, strict]))(
    "(6) strict mode (%s): red → claim → edit → green at the stop",
    { timeout: 180_000 },
    async ([, strict], ctx) => {
      if (!agent.ok) return ctx.skip(agent.reason);
      const { fixture } = strict.options;
      const missing = fixture === undefined ? undefined : fixtureDepsMissing(fixture);
      if (missing !== undefined) return ctx.skip(missing);
      const result = await run(cli, agent, adapter, strict.scenario, strict.options);
      const output = claudeResult(result);
      expect(output).toMatchObject({ is_error: false, result: strict.done });
      expectStrictGreen(result, strict, { id: output.session_id, host: cli.id });
      // The green verdict went to the person (systemMessage), not back to the model.
      expect(result.hookMessages, describeRun(result)).toEqual([
        {
          event: "Stop",
          text: `tailtest strict:\n✓ ${strict.testId} passes: the claim on ${strict.prod} is green.`,
        },
      ]);
    },
  );

  it("(6) strict mode: a red edit is reverted at the stop, then the claim is escalated", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await run(cli, agent, adapter, STRICT_REVERTED, {
      beforeRun: writeStrictConfigAndBuggyBilling,
    });
    const output = claudeResult(result);
    expect(output).toMatchObject({
      is_error: false,
      result: "stopping: tailtest reverted billing.py twice and test_charge_adds_vat still fails",
    });
    // The blocked stop came back as a user turn; Claude Code reads the reverted file again
    // before the second write.
    expect(requestAfterMove(result, 3)?.answer).toEqual({ kind: "read", path: "billing.py" });
    expectStrictReverted(result, { id: output.session_id, host: cli.id });
    // Both verdicts went to the model (blocks), none to the person alone: the model told them.
    expect(result.hookMessages, describeRun(result)).toEqual([]);
  }, 180_000);
});
