import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deriveTddState } from "@tailtest/core";
import { readEventText } from "@tailtest/core/node";
import { expect } from "vitest";
import {
  BILLING_REFACTORED,
  describeRun,
  ensureCli,
  modelRequests,
  packAdapter,
  pytestMissing,
  requestAfterMove,
  requestForMove,
  runScenario,
  TDD_CONFIG,
  TDD_CYCLE,
  TDD_DENIED,
  type AgentCli,
  type RunResult,
  type Scenario,
} from "../src/index.ts";

/** A CLI ready to run, or why its tests skip. */
export type Agent = { ok: true; bin: string } | { ok: false; reason: string };

/**
 * Installs (or finds in the cache) the pinned CLI and checks python3 -m pytest, once per test
 * file. The reason for a skip is printed, so a skipped CLI is visible in the log.
 */
export async function prepareAgent(cli: AgentCli): Promise<Agent> {
  const python = await pytestMissing();
  const status =
    python === undefined ? await ensureCli(cli) : { ok: false as const, reason: python };
  if (!status.ok) {
    console.warn(`skipping the ${cli.id} e2e scenarios: ${status.reason}`);
    return status;
  }
  const how =
    status.installMs === undefined
      ? "from the cache"
      : `installed in ${(status.installMs / 1000).toFixed(1)} s`;
  console.log(`e2e: ${cli.packageName}@${cli.version} (${status.version}), ${how}`);
  return { ok: true, bin: status.bin };
}

/** The adapter's tarball, packed once per test file into a folder that `dispose` removes. */
export class PackedAdapter {
  private dir: string | undefined;
  tarball = "";

  constructor(private readonly cli: AgentCli) {}

  async pack(): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), "tailtest-e2e-pack-"));
    this.tarball = await packAdapter(this.cli, this.dir);
  }

  dispose(): void {
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Runs a scenario and prints its timing (the suite's budget is a few seconds per run). */
export async function run(
  cli: AgentCli,
  agent: Extract<Agent, { ok: true }>,
  adapter: PackedAdapter,
  scenario: Scenario,
  beforeRun?: (project: string) => void,
): Promise<RunResult> {
  const result = await runScenario({
    cli,
    bin: agent.bin,
    tarball: adapter.tarball,
    scenario,
    beforeRun,
  });
  console.log(
    `e2e: ${cli.id} ${scenario.name}: CLI run ${(result.runMs / 1000).toFixed(1)} s, ` +
      `setup ${(result.setupMs / 1000).toFixed(1)} s, ${modelRequests(result).length} model requests`,
  );
  expect(result.problems, describeRun(result)).toEqual([]);
  expect(result.exitCode, describeRun(result)).toBe(0);
  return result;
}

/** Every move of the script was asked for, once each, and nothing beyond it. */
export function expectWholeScript(result: RunResult, scenario: Scenario): void {
  const moves = modelRequests(result)
    .map((request) => request.answer)
    .filter((answer) => answer?.kind === "move" || answer?.kind === "extra")
    .map((answer) => (answer?.kind === "move" ? answer.index : "extra"));
  expect(moves, describeRun(result)).toEqual(scenario.moves.map((_move, index) => index));
}

/**
 * `text` is in the model request right after move `index` and in none before it: it came from
 * what happened at that move.
 */
export function expectArrivesAfterMove(result: RunResult, index: number, texts: string[]): void {
  const next = requestAfterMove(result, index);
  expect(next, `a model request after move ${index}\n${describeRun(result)}`).toBeDefined();
  const own = requestForMove(result, index);
  for (const text of texts) {
    expect(next?.body, describeRun(result)).toContain(text);
    expect(own?.body, `${text} was already there before move ${index}`).not.toContain(text);
  }
}

/** No model request holds `text`. */
export function expectNowhere(result: RunResult, text: string): void {
  for (const request of modelRequests(result)) expect(request.body).not.toContain(text);
}

/**
 * Scenario (5) on either CLI: the gate refused production code first, the test run confirmed a
 * Red (measured by tailtest), the Green closed the cycle, the refactor went through, and the
 * agent's log in events.jsonl says so.
 */
export function expectTddCycle(result: RunResult): void {
  expectWholeScript(result, TDD_CYCLE);
  expectArrivesAfterMove(result, 0, [TDD_DENIED]);
  expectArrivesAfterMove(result, 3, ["Red confirmed"]);
  expectArrivesAfterMove(result, 6, ["the cycle is complete"]);
  expectNowhere(result, "without passing the tdd gate");
  expect(result.files["billing.py"], describeRun(result)).toBe(BILLING_REFACTORED);
  const events = result.files[".tailtest/events.jsonl"] ?? "";
  const key = (/"type":"tdd\.red","agent_key":"([^"]+)"/.exec(events) ?? [])[1];
  expect(key, events).toBeDefined();
  const { entries, problems } = readEventText(events, key ?? "");
  expect(problems).toEqual([]);
  const runs = entries.filter((entry) => entry.kind === "test");
  expect(runs.map((run) => run.outcome)).toEqual(["failed", "passed", "passed"]);
  expect(runs[0]).toMatchObject({ real_failure: true });
  const edits = entries
    .filter((entry) => entry.kind === "edit")
    .map((entry) => `${entry.path} ${entry.state} ${entry.decision}`);
  expect(edits).toEqual([
    "billing.py initial blocked",
    "tests/test_billing.py writing_tests allowed",
    "billing.py making_tests_pass allowed",
    "billing.py making_tests_pass allowed",
  ]);
  expect(deriveTddState(entries)).toMatchObject({ state: "initial", cycleComplete: true });
}

/** Switches the project to tdd mode, as the person would (the agent may not). */
export function writeTddConfig(project: string): void {
  mkdirSync(join(project, ".tailtest"), { recursive: true });
  writeFileSync(join(project, ".tailtest", "config.json"), TDD_CONFIG);
}
