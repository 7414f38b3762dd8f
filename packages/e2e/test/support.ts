import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import {
  describeRun,
  ensureCli,
  modelRequests,
  packAdapter,
  pytestMissing,
  requestAfterMove,
  requestForMove,
  runScenario,
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
): Promise<RunResult> {
  const result = await runScenario({ cli, bin: agent.bin, tarball: adapter.tarball, scenario });
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
