import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BILLING_FIXED,
  BILLING_TEST,
  BLOCK_REASON,
  CODEX,
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
  requestForMove,
  SHELL_WRITE,
  SLUG_TEST,
  SWEEP_ONLY_WRITE,
  type RunResult,
  type Scenario,
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

const cli = CODEX;
const agent = await prepareAgent(cli);
const adapter = new PackedAdapter(cli);

/** One `codex exec --json` event. */
interface CodexEvent {
  type: string;
  thread_id?: string;
  item?: { type: string; text?: string };
}

/** The thread id (the hooks' session_id) and the last thing the agent said. */
function codexOutput(result: RunResult): { threadId: string; lastMessage: string | undefined } {
  const events = result.output as CodexEvent[];
  const threadId = events.find((event) => event.type === "thread.started")?.thread_id;
  expect(threadId, describeRun(result)).toBeDefined();
  expect(
    events.some((event) => event.type === "turn.completed"),
    describeRun(result),
  ).toBe(true);
  const messages = events
    .filter((event) => event.type === "item.completed" && event.item?.type === "agent_message")
    .map((event) => event.item?.text);
  return { threadId: threadId ?? "", lastMessage: messages.at(-1) };
}

/**
 * The hooks fired for this Codex session: SessionStart made the state, UserPromptSubmit marked
 * the turn's start, SessionEnd wrote the history.
 */
function expectSessionRecorded(result: RunResult, threadId: string): void {
  expect(result.session?.session_id).toBe(threadId);
  expect(result.session?.platform).toBe("codex");
  expect(result.session?.turn_started_at).toBeDefined();
  expect(result.history?.entries.every((entry) => entry.session_id === threadId)).toBe(true);
}

describe(`Codex ${cli.version}, the real CLI against a scripted model`, () => {
  beforeAll(async () => {
    if (agent.ok) await adapter.pack();
  }, 300_000);
  afterAll(() => adapter.dispose());

  it("(1) queues an edit, and tailtest's note reaches the model's next request", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await run(cli, agent, adapter, QUEUED);
    const { threadId, lastMessage } = codexOutput(result);
    expect(lastMessage, describeRun(result)).toBe("done: billing.py and its test");
    expectWholeScript(result, QUEUED);
    // SessionStart's context is in the very first request.
    expect(modelRequests(result)[0]?.body).toContain(SESSION_NOTE);
    expectArrivesAfterMove(result, 0, [
      "tailtest: billing.py queued (new, python)",
      "write test to tests/test_billing.py",
    ]);
    expectNowhere(result, BLOCK_REASON);
    expectSessionRecorded(result, threadId);
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
    const { threadId, lastMessage } = codexOutput(result);
    expect(lastMessage, describeRun(result)).toBe("done: added tests/test_billing.py");
    expectWholeScript(result, MISSING_TEST);
    expectArrivesAfterMove(result, 1, [
      BLOCK_REASON,
      "MISSING billing.py: no test at tests/test_billing.py",
      "(round 1 of 3)",
    ]);
    expect(modelRequests(result).at(-1)?.answer).toMatchObject({ kind: "move", index: 3 });
    expect(result.files["tests/test_billing.py"]).toBe(BILLING_TEST);
    expectSessionRecorded(result, threadId);
    expect(result.session?.stop_blocks).toBe(0);
    expect(result.session?.results["billing.py"]).toMatchObject({ outcome: "passed" });
    expect(result.history?.entries).toEqual([
      expect.objectContaining({ file: "billing.py", status: "fixed", attempts: 1 }),
    ]);
  }, 120_000);

  it("(2u) a user-level install (init --user, no package.json) blocks the stop, then lets it pass", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await run(cli, agent, adapter, MISSING_TEST, { user: true });
    const { threadId, lastMessage } = codexOutput(result);
    expect(lastMessage, describeRun(result)).toBe("done: added tests/test_billing.py");
    expectWholeScript(result, MISSING_TEST);
    expectArrivesAfterMove(result, 1, [
      BLOCK_REASON,
      "MISSING billing.py: no test at tests/test_billing.py",
    ]);
    expectSessionRecorded(result, threadId);
    expect(result.session?.results["billing.py"]).toMatchObject({ outcome: "passed" });
    expect(result.history?.entries).toEqual([
      expect.objectContaining({ file: "billing.py", status: "fixed", attempts: 1 }),
    ]);
    // The project got nothing but .tailtest/ and the agent's own files.
    expect(
      Object.keys(result.files).filter(
        (path) =>
          !path.startsWith(".tailtest/") &&
          !["billing.py", "tests/test_billing.py"].includes(path) &&
          !/^(calc\.py|pyproject\.toml|tests\/test_calc\.py)$/.test(path),
      ),
    ).toEqual([]);
  }, 180_000);

  it("(3) sends a red test's failure to the model, and records the scripted fix", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await run(cli, agent, adapter, RED_TEST);
    const { threadId } = codexOutput(result);
    expectWholeScript(result, RED_TEST);
    expectArrivesAfterMove(result, 2, [
      BLOCK_REASON,
      "FAIL tests/test_billing.py::test_charge_adds_vat",
      "assert 10.2 == 12.0",
    ]);
    // The fix came as an Update File patch of every line.
    expect(result.files["billing.py"]).toBe(BILLING_FIXED);
    expect(modelRequests(result).at(-1)?.answer).toMatchObject({ kind: "move", index: 4 });
    expectSessionRecorded(result, threadId);
    expect(result.session?.results["billing.py"]).toMatchObject({ outcome: "passed" });
    expect(result.history?.entries).toEqual([
      expect.objectContaining({ file: "billing.py", status: "fixed", attempts: 1 }),
    ]);
  }, 120_000);

  it.for<[string, Scenario]>([
    ["cat > src/slug.py <<EOF", SHELL_WRITE],
    ["a python script", SWEEP_ONLY_WRITE],
  ])(
    "(4) a shell write (exec_command: %s) is swept in at the stop, which is blocked naming it",
    { timeout: 120_000 },
    async ([, scenario], ctx) => {
      if (!agent.ok) return ctx.skip(agent.reason);
      const result = await run(cli, agent, adapter, scenario);
      const { threadId, lastMessage } = codexOutput(result);
      expect(lastMessage, describeRun(result)).toBe("done: added tests/test_slug.py");
      expectWholeScript(result, scenario);
      expectArrivesAfterMove(result, 1, [
        BLOCK_REASON,
        "MISSING src/slug.py: no test at tests/test_slug.py",
      ]);
      expect(result.session?.last_sweep_at, "the Stop hook swept").toBeDefined();
      expect(result.files["tests/test_slug.py"]).toBe(SLUG_TEST);
      expectSessionRecorded(result, threadId);
      expect(result.session?.results["src/slug.py"]).toMatchObject({ outcome: "passed" });
      expect(result.history?.entries).toEqual([
        expect.objectContaining({ file: "src/slug.py", status: "fixed", attempts: 1 }),
      ]);
      if (scenario === SHELL_WRITE) {
        // The redirect is read from the Bash command itself, right after it ran.
        expectArrivesAfterMove(result, 0, ["tailtest: src/slug.py queued (new, python)"]);
      } else {
        // Nothing queued the file before the stop: only the sweep can have found it.
        expect(requestForMove(result, 1)?.body).not.toContain("slug.py queued");
      }
    },
  );

  it("(5) tdd mode: Red → Green → Refactor, gated and measured", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await run(cli, agent, adapter, TDD_CYCLE, { beforeRun: writeTddConfig });
    const { threadId, lastMessage } = codexOutput(result);
    expect(lastMessage, describeRun(result)).toBe("done: billing.py, test first");
    expectTddCycle(result);
    expect(result.files[".tailtest/events.jsonl"]).toContain(`"agent_key":"${threadId}"`);
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
      const { threadId, lastMessage } = codexOutput(result);
      expect(lastMessage, describeRun(result)).toBe(strict.done);
      expectStrictGreen(result, strict, { id: threadId, host: cli.id });
    },
  );

  it("(6) strict mode: a red edit is reverted at the stop, then the claim is escalated", async (ctx) => {
    if (!agent.ok) return ctx.skip(agent.reason);
    const result = await run(cli, agent, adapter, STRICT_REVERTED, {
      beforeRun: writeStrictConfigAndBuggyBilling,
    });
    const { threadId, lastMessage } = codexOutput(result);
    expect(lastMessage, describeRun(result)).toBe(
      "stopping: tailtest reverted billing.py twice and test_charge_adds_vat still fails",
    );
    // The blocked stop came back as a hook prompt, and the second write followed it.
    expect(requestAfterMove(result, 3)?.answer).toMatchObject({ kind: "move", index: 4 });
    expectStrictReverted(result, { id: threadId, host: cli.id });
  }, 180_000);
});
