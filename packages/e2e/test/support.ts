import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deriveTddState, parseStrictLog, type StrictEvent } from "@tailtest/core";
import { readEventText } from "@tailtest/core/node";
import { expect } from "vitest";
import {
  BILLING_BUGGY,
  BILLING_FIXED,
  BILLING_REFACTORED,
  BILLING_WRONG_1,
  BILLING_WRONG_2,
  describeRun,
  ensureCli,
  modelRequests,
  packAdapter,
  pytestMissing,
  requestAfterMove,
  requestForMove,
  runScenario,
  STRICT_CONFIG,
  STRICT_GREEN,
  STRICT_GREEN_VITEST,
  STRICT_REVERTED,
  strictDenied,
  TDD_CONFIG,
  TDD_CYCLE,
  TDD_DENIED,
  VITEST_BILLING,
  VITEST_FIXTURE,
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

/** What a scenario needs besides the default pytest project. */
export interface RunOptions {
  /** Project files written after `init`, before the CLI runs (the person's config, say). */
  beforeRun?: (project: string) => void;
  /** The fixture under fixtures/ (the pytest one by default). */
  fixture?: string;
  /** Copy the fixture's npm dependencies into the project first (a JS fixture). */
  deps?: boolean;
  /** Install the adapter at user level (`init --user`) instead of into the project. */
  user?: boolean;
}

/** Runs a scenario and prints its timing (the suite's budget is a few seconds per run). */
export async function run(
  cli: AgentCli,
  agent: Extract<Agent, { ok: true }>,
  adapter: PackedAdapter,
  scenario: Scenario,
  options: RunOptions = {},
): Promise<RunResult> {
  const result = await runScenario({
    cli,
    bin: agent.bin,
    tarball: adapter.tarball,
    scenario,
    ...options,
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

/** Switches the project to strict mode, as the person would (the agent may not). */
export function writeStrictConfig(project: string): void {
  mkdirSync(join(project, ".tailtest"), { recursive: true });
  writeFileSync(join(project, ".tailtest", "config.json"), STRICT_CONFIG);
}

/**
 * strict mode, with the buggy billing.py the person wrote before the session (an hour ago, so
 * the end-of-turn sweep cannot take it for this turn's change).
 */
export function writeStrictConfigAndBuggyBilling(project: string): void {
  writeStrictConfig(project);
  const file = join(project, "billing.py");
  writeFileSync(file, BILLING_BUGGY);
  const earlier = new Date(Date.now() - 3_600_000);
  utimesSync(file, earlier, earlier);
}

/** One "red → claim → edit → green" run of scenario (6): the pytest project or the vitest one. */
export interface StrictGreenCase {
  runner: "pytest" | "vitest";
  scenario: Scenario;
  options: RunOptions;
  /** The production file the claim names, and what the scripted model writes there. */
  prod: string;
  content: string;
  testId: string;
  /** The scripted model's last words. */
  done: string;
}

export const STRICT_GREEN_CASES: readonly StrictGreenCase[] = [
  {
    runner: "pytest",
    scenario: STRICT_GREEN,
    options: { beforeRun: writeStrictConfig },
    prod: "billing.py",
    content: BILLING_FIXED,
    testId: "tests/test_billing.py::test_charge_adds_vat",
    done: "done: billing.py, claimed and green",
  },
  {
    runner: "vitest",
    scenario: STRICT_GREEN_VITEST,
    options: { beforeRun: writeStrictConfig, fixture: VITEST_FIXTURE, deps: true },
    prod: "src/billing.ts",
    content: VITEST_BILLING,
    testId: "src/billing.test.ts::charge > adds VAT",
    done: "done: src/billing.ts, claimed and green",
  },
];

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The strict events of events.jsonl (tdd lines skipped); an unreadable line fails the test. */
function strictEvents(result: RunResult): StrictEvent[] {
  const log = parseStrictLog(result.files[".tailtest/events.jsonl"] ?? "");
  expect(log.problems, describeRun(result)).toEqual([]);
  return log.events;
}

/** An event in a word or three: its type and what it says about the claim. */
function eventLine(event: StrictEvent): string {
  switch (event.type) {
    case "test_run":
      return `test_run ${event.purpose} ${event.status}${event.fail_reason === undefined ? "" : ` ${event.fail_reason}`}`;
    case "edit_claim":
      return `edit_claim ${event.claim} ${event.edit_target}`;
    case "snapshot":
    case "edit_reverted":
      return `${event.type} ${event.claim} ${event.path}`;
    case "edit_applied":
      return `edit_applied ${event.path} ${event.claims.join(",")}`;
    case "edit_denied":
      return `edit_denied ${event.path} ${event.code}`;
    case "verify_result":
      return `verify_result ${event.claim ?? event.scope} ${event.status}`;
    case "repair":
      return `repair ${event.claim} ${event.attempt}`;
    case "escalated":
      return `escalated ${event.claim} ${event.attempts}`;
    default:
      return event.type;
  }
}

/**
 * Every event is the session's: the claim's from the `tailtest` command the agent ran (it found
 * the session's key), the rest from the CLI's hooks.
 */
function expectStampedBy(events: readonly StrictEvent[], sessionId: string, host: string): void {
  const fromCli = new Set(["test_run claim", "edit_claim"]);
  for (const event of events) {
    const line = eventLine(event);
    const cli = [...fromCli].some((prefix) => line.startsWith(prefix));
    expect({ line, session: event.session, host: event.host }).toEqual({
      line,
      session: sessionId,
      host: cli ? "cli" : host,
    });
  }
}

/**
 * Scenario (6), red → claim → edit → green, on either CLI: the first write to the production
 * file was refused (no claim names it); the claim ran the test and its answer reached the model;
 * the claimed write went through; the end of the turn ran the test, green, without blocking.
 */
export function expectStrictGreen(
  result: RunResult,
  strict: StrictGreenCase,
  session: { id: string; host: AgentCli["id"] },
): void {
  const { prod, testId } = strict;
  expectWholeScript(result, strict.scenario);
  expectArrivesAfterMove(result, 0, [
    strictDenied(prod),
    // The command the agent can run, as its shell reaches the project's tailtest.
    `run npx tailtest claim '<test_id>' ${prod}`,
  ]);
  expectArrivesAfterMove(result, 2, [
    `tailtest: claimed ${testId} → ${prod} (claim c1; red: a claimed file or name is missing)`,
  ]);
  // No stop was blocked: nothing after the last reply (expectWholeScript), and no verdict text.
  expectNowhere(result, "the claim stands");
  expectNowhere(result, "without passing the strict gate");
  expect(result.files[prod], describeRun(result)).toBe(strict.content);
  const events = strictEvents(result);
  expect(events.map(eventLine), describeRun(result)).toEqual([
    "mode_changed",
    `edit_denied ${prod} no_claim`,
    "test_run claim fail collection",
    `edit_claim c1 ${prod}`,
    `snapshot c1 ${prod}`,
    `edit_applied ${prod} c1`,
    "test_run verify pass",
    "verify_result c1 pass",
  ]);
  expectStampedBy(events, session.id, session.host);
  expect(events).toEqual(
    expect.arrayContaining([
      // The greenfield red: the module the claim names did not exist; neither did the file.
      expect.objectContaining({ type: "test_run", purpose: "claim", test_id: testId }),
      expect.objectContaining({ type: "snapshot", path: prod, object: null }),
      expect.objectContaining({ type: "edit_applied", object: sha256(strict.content) }),
      expect.objectContaining({
        type: "verify_result",
        after: { [prod]: sha256(strict.content) },
      }),
    ]),
  );
}

/** The end of the turn's verdict on the first wrong edit (core strict-hooks.ts). */
export const STRICT_REPAIR =
  "✗ tests/test_billing.py::test_charge_adds_vat: it still fails: assert 11.0 == 12.0. Reverted billing.py to before this turn. Attempt 1 of 2: the claim stands";
/**
 * The second verdict: the claim goes to the person; the stop is blocked once more, only so the
 * agent tells the person (a message for the person alone is lost in headless runs).
 */
export const STRICT_ESCALATED =
  "✗ tests/test_billing.py::test_charge_adds_vat: it still fails: assert 12.5 == 12.0. That is 2 failed verifications: reverted billing.py to before this turn, and the claim is handed to the person. Do not change these files again for this test";

/**
 * Scenario (6), a claim that never goes green, on either CLI: the claim's red is an assertion;
 * the first stop reverts billing.py and blocks, and the reason reaches the model as a new turn;
 * the second stop reverts again, escalates, and sends the model back once to tell the person;
 * the stop after that reply ends the turn (no request after the last reply). billing.py ends as
 * the person left it, and both discarded versions are kept.
 */
export function expectStrictReverted(
  result: RunResult,
  session: { id: string; host: AgentCli["id"] },
): void {
  expectWholeScript(result, STRICT_REVERTED);
  expectArrivesAfterMove(result, 1, [
    "tailtest: claimed tests/test_billing.py::test_charge_adds_vat → billing.py (claim c1; red: an assertion failure)",
  ]);
  expectArrivesAfterMove(result, 3, [STRICT_REPAIR]);
  expectArrivesAfterMove(result, 5, [STRICT_ESCALATED]);
  expect(result.files["billing.py"], describeRun(result)).toBe(BILLING_BUGGY);
  const events = strictEvents(result);
  const attempt = [
    "snapshot c1 billing.py",
    "edit_applied billing.py c1",
    "test_run verify fail assertion",
    "verify_result c1 fail",
    "edit_reverted c1 billing.py",
  ];
  expect(events.map(eventLine), describeRun(result)).toEqual([
    "mode_changed",
    "test_run claim fail assertion",
    "edit_claim c1 billing.py",
    ...attempt,
    "repair c1 1",
    ...attempt,
    "escalated c1 2",
  ]);
  expectStampedBy(events, session.id, session.host);
  const reverts = events.filter((event) => event.type === "edit_reverted");
  expect(reverts).toEqual([
    expect.objectContaining({
      restored: sha256(BILLING_BUGGY),
      discarded: sha256(BILLING_WRONG_1),
    }),
    expect.objectContaining({
      restored: sha256(BILLING_BUGGY),
      discarded: sha256(BILLING_WRONG_2),
    }),
  ]);
  // Nothing is lost: the reverted versions are in the object store.
  expect(result.files[`.tailtest/objects/${sha256(BILLING_WRONG_1)}`]).toBe(BILLING_WRONG_1);
  expect(result.files[`.tailtest/objects/${sha256(BILLING_WRONG_2)}`]).toBe(BILLING_WRONG_2);
}
