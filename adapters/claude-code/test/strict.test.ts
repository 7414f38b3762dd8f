import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import {
  copyFixture,
  copyFixtureWithDeps,
  findToolchain,
  loadPayload,
  REPO_ROOT,
  runBin,
  type BinResult,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";

/**
 * strict mode (ADR 0008) through the built Claude Code hook and the built `tailtest` CLI, one real
 * process per call: every payload is a recorded Claude Code 2.1.330 payload with only its event,
 * tool and tool fields changed, every edit is written to disk only after the gate allowed it, and
 * every claim and end-of-turn verification is a real pytest or vitest run.
 */

const HOOK = join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs");
const CLI = join(REPO_ROOT, "adapters/claude-code/dist/tailtest.js");
const VERSION = "claude-2.1.330";
const pytest = findToolchain("pytest");

type Payload = Record<string, unknown>;

interface HookAnswer {
  hookSpecificOutput?: {
    hookEventName?: string;
    permissionDecision?: string;
    permissionDecisionReason?: string;
    additionalContext?: string;
  };
  decision?: string;
  reason?: string;
  systemMessage?: string;
}

/** The fields of `.tailtest/events.jsonl` lines these tests read. */
interface LoggedEvent {
  type: string;
  host?: string;
  path?: string;
  code?: string;
  claim?: string;
  claims?: string[];
  test_id?: string;
  status?: string;
  purpose?: string;
  fail_reason?: string;
  missing?: string[];
  command?: string;
  scope?: string;
  accepted?: boolean;
}

const TEST_FILE = "tests/test_billing.py";
const TEST_ID = `${TEST_FILE}::test_charge_adds_vat`;
const BILLING_TEST =
  "from billing import charge\n\n\ndef test_charge_adds_vat():\n    assert charge(100) == 120\n";
const BILLING = "def charge(amount):\n    return round(amount * 1.2, 2)\n";
/** A billing module without VAT: the test fails on its assertion. */
const NO_VAT = "def charge(amount):\n    return amount\n";
const WRONG_RATE = "def charge(amount):\n    return round(amount * 1.1, 2)\n";
const FLAT_FEE = "def charge(amount):\n    return amount + 2\n";

const MONEY_TEST_ID = "src/money.test.ts::money > formats cents";
const MONEY_TEST = [
  'import { describe, expect, it } from "vitest";',
  'import { formatCents } from "./money";',
  "",
  'describe("money", () => {',
  '  it("formats cents", () => {',
  '    expect(formatCents(150)).toBe("1.50");',
  "  });",
  "});",
  "",
].join("\n");
const MONEY =
  "export function formatCents(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n";
/** Prepended to the fixture's calc test: the file leaves a mark whenever vitest loads it. */
const CALC_SENTINEL =
  'import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("../calc-test-loaded", import.meta.url), "");\n';

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

/** Every file an hour old: nothing the setup wrote looks like a change made in the turn. */
function age(root: string): void {
  const hourAgo = new Date(Date.now() - 3_600_000);
  const files = readdirSync(root, { recursive: true, withFileTypes: true });
  for (const file of files)
    if (file.isFile()) utimesSync(join(file.parentPath, file.name), hourAgo, hourAgo);
}

/** A strict-mode copy of a runner fixture, with the hook and the CLI bound to it. */
function strictProject(fixture: "pytest-ini" | "vitest", files: Record<string, string> = {}) {
  const project =
    fixture === "vitest"
      ? copyFixtureWithDeps(`runners/${fixture}`)
      : copyFixture(`runners/${fixture}`);
  projects.push(project);
  const { root } = project;
  project.write(".tailtest/config.json", `${JSON.stringify({ mode: "strict" })}\n`);
  for (const [path, content] of Object.entries(files)) project.write(path, content);
  age(root);

  const recorded = (name: string): Payload => loadPayload<Payload>(VERSION, name, root).stdin;
  const base = recorded("context.PreToolUse-Write.json");
  const post = recorded("context.PostToolUse-Write.json");
  const stop = recorded("context.Stop.json");
  const sessionId = base["session_id"] as string;
  const env = (): Record<string, string> => ({
    CLAUDE_PROJECT_DIR: root,
    // Nothing from the environment the tests run in may switch the hooks off or name a log.
    TAILTEST_HOOKS_OFF: "",
    TAILTEST_TDD_KEY: "",
    CLAUDE_CODE_SESSION_ID: "",
    ...(pytest.path === undefined ? {} : { PATH: pytest.path }),
  });

  /** Fires the hook bin with a payload; the answer parsed ({} for no output). */
  async function fire(payload: Payload) {
    const result = await runBin(HOOK, [], {
      input: JSON.stringify(payload),
      env: env(),
      cwd: root,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout, "no absolute path reaches the agent").not.toContain(root);
    const answer = (result.stdout.trim() === "" ? {} : JSON.parse(result.stdout)) as HookAnswer;
    return { ...result, answer };
  }

  /** The agent's `tailtest …` command, with the key SessionStart exported for its shell. */
  function tailtest(args: string[]): Promise<BinResult> {
    return runBin(CLI, args, { cwd: root, env: { ...env(), TAILTEST_TDD_KEY: sessionId } });
  }

  const payloads = {
    sessionStart: () => recorded("context.SessionStart.json"),
    preToolUse: (tool: string, input: Payload): Payload => ({
      ...base,
      tool_name: tool,
      tool_input: input,
    }),
    written: (path: string, content: string): Payload => ({
      ...post,
      tool_input: { file_path: join(root, path), content },
      tool_response: {
        ...(post["tool_response"] as Payload),
        filePath: join(root, path),
        content,
      },
    }),
    stop: (active: boolean): Payload => ({ ...stop, stop_hook_active: active }),
  };

  /**
   * What Claude Code does with a Write: PreToolUse, then (only if it was not denied) the write
   * and PostToolUse. Returns the denial's reason, or undefined when the write went through.
   */
  async function write(path: string, content: string): Promise<string | undefined> {
    const gate = await fire(payloads.preToolUse("Write", { file_path: join(root, path), content }));
    if (gate.stdout !== "") return denial(gate.answer);
    project.write(path, content);
    expect((await fire(payloads.written(path, content))).stdout).toBe("");
    return undefined;
  }

  function events(): LoggedEvent[] {
    return readFileSync(join(root, ".tailtest/events.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as LoggedEvent)
      .filter((event) => !event.type.startsWith("tdd."));
  }

  const read = (path: string) => readFileSync(join(root, path), "utf8");

  return { project, root, fire, tailtest, payloads, write, events, read };
}

function denial(answer: HookAnswer): string {
  expect(Object.keys(answer)).toEqual(["hookSpecificOutput"]);
  expect(answer.hookSpecificOutput?.hookEventName).toBe("PreToolUse");
  expect(answer.hookSpecificOutput?.permissionDecision).toBe("deny");
  return answer.hookSpecificOutput?.permissionDecisionReason ?? "";
}

function context(answer: HookAnswer, event: string): string {
  expect(Object.keys(answer)).toEqual(["hookSpecificOutput"]);
  expect(answer.hookSpecificOutput?.hookEventName).toBe(event);
  expect(answer.hookSpecificOutput).not.toHaveProperty("permissionDecision");
  return answer.hookSpecificOutput?.additionalContext ?? "";
}

/** The Stop that lets the turn end: only a message for the person, never a block. */
function stopMessage(answer: HookAnswer): string {
  expect(Object.keys(answer)).toEqual(["systemMessage"]);
  return answer.systemMessage ?? "";
}

/** The Stop that sends Claude back to work, with the reason it reads. */
function stopBlock(answer: HookAnswer): string {
  // Beside the block, the person's line (systemMessage): what the stop's test runs found.
  expect(Object.keys(answer)).toEqual(["decision", "reason", "systemMessage"]);
  expect(answer.systemMessage).toMatch(/^tailtest: \d+ tests?: \d+ passed, \d+ failed \(/);
  expect(answer.decision).toBe("block");
  return answer.reason ?? "";
}

describe.skipIf(!pytest.available)("strict mode through the Claude Code hook (pytest)", () => {
  it("red → claim → edit → green: the gate denies, the claim opens it, Stop verifies, export has the triple", async () => {
    const t = strictProject("pytest-ini");

    const started = context((await t.fire(t.payloads.sessionStart())).answer, "SessionStart");
    expect(started).toContain("tailtest strict: every production edit must advance a failing test");
    expect(started).toContain("tailtest claim <test_id> <file…>");

    // No claim: production code is denied before it is written, with the command that opens it.
    const early = await t.write("billing.py", BILLING);
    expect(early).toMatch(/^tailtest strict: billing\.py is production code and no open claim/);
    expect(early).toContain("tailtest claim '<test_id>' billing.py");
    expect(existsSync(join(t.root, "billing.py"))).toBe(false);

    // Test files are always editable.
    expect(await t.write(TEST_FILE, BILLING_TEST)).toBeUndefined();
    const claimed = await t.tailtest(["claim", TEST_ID, "billing.py"]);
    expect(claimed.exitCode, claimed.stderr).toBe(0);
    const status = await t.tailtest(["strict", "status", "--json"]);
    expect(JSON.parse(status.stdout)).toMatchObject({
      config_mode: "strict",
      mode: "strict",
      open_claims: [{ claim: "c1", test_id: TEST_ID, targets: ["billing.py"], last_run: "fail" }],
    });

    // Claimed: the production write goes through, and PostToolUse records it under the claim.
    expect(await t.write("billing.py", BILLING)).toBeUndefined();
    expect(t.events().filter((event) => event.type === "edit_applied")).toMatchObject([
      { path: "billing.py", claims: ["c1"], host: "claude-code" },
    ]);

    // Stop runs the claimed test: it passes, the turn may end, the person reads the result.
    const stopped = stopMessage((await t.fire(t.payloads.stop(false))).answer);
    expect(stopped).toContain(`✓ ${TEST_ID} passes: the claim on billing.py is green.`);
    expect(t.read("billing.py")).toBe(BILLING);

    const log = t.events();
    expect(log.find((event) => event.purpose === "claim")).toMatchObject({
      type: "test_run",
      status: "fail",
      fail_reason: "collection",
      missing: ["billing"],
    });
    expect(log.map((event) => event.type)).toEqual([
      "mode_changed",
      "edit_denied",
      "test_run",
      "edit_claim",
      "snapshot",
      "edit_applied",
      "test_run",
      "verify_result",
    ]);
    expect(log.at(-1)).toMatchObject({ type: "verify_result", claim: "c1", status: "pass" });

    const exported = await t.tailtest(["export"]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const lines = exported.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      test_id: TEST_ID,
      claim: "c1",
      red: { fail_reason: "collection" },
      edits: [{ path: "billing.py", before: null, after: sha256(BILLING) }],
      repairs: 0,
    });

    // The claim is closed: the next production edit needs a new red.
    expect(await t.write("billing.py", NO_VAT)).toContain("no open claim names it");
  }, 60_000);

  it("a breaking edit is reverted and the Stop blocked naming the test; the second failure hands the claim to the person", async () => {
    // A claim on a test that fails on its assertion, and an edit under it that does not fix it.
    const t = strictProject("pytest-ini", { "billing.py": NO_VAT });
    await t.fire(t.payloads.sessionStart());
    expect(await t.write(TEST_FILE, BILLING_TEST)).toBeUndefined();
    const claimed = await t.tailtest(["claim", TEST_ID, "billing.py"]);
    expect(claimed.exitCode, claimed.stderr).toBe(0);
    expect(t.events().find((event) => event.purpose === "claim")).toMatchObject({
      status: "fail",
      fail_reason: "assertion",
    });
    expect(await t.write("billing.py", WRONG_RATE)).toBeUndefined();
    // Stop: the claimed test still fails, so the edit is reverted and Claude is sent back.
    const reason = stopBlock((await t.fire(t.payloads.stop(false))).answer);
    expect(reason).toMatch(/^tailtest strict:\n/);
    expect(reason).toContain(`✗ ${TEST_ID}: it still fails`);
    expect(reason).toContain("Reverted billing.py to before this turn. Attempt 1 of 2");
    expect(t.read("billing.py")).toBe(NO_VAT);
    expect(t.events().map((event) => event.type)).toEqual(
      expect.arrayContaining(["verify_result", "edit_reverted", "repair"]),
    );
    expect(t.events().some((event) => event.type === "escalated")).toBe(false);

    // The claim stands after one failure (the code is back at its red); a second miss escalates.
    expect(await t.write("billing.py", FLAT_FEE)).toBeUndefined();
    // Sent back once more, only to tell the person: the claim is closed.
    const second = stopBlock((await t.fire(t.payloads.stop(true))).answer);
    expect(second).toContain(`✗ ${TEST_ID}: it still fails`);
    expect(second).toContain("That is 2 failed verifications");
    expect(second).toContain("the claim is handed to the person. Do not change these files again");
    expect(t.read("billing.py")).toBe(NO_VAT);
    // …and the loop ends: the stop after the agent's report has nothing left to verify.
    expect((await t.fire(t.payloads.stop(true))).answer).toEqual({});
    const log = t.events();
    expect(log.filter((event) => event.type === "edit_reverted")).toHaveLength(2);
    expect(log.filter((event) => event.type === "escalated")).toMatchObject([
      { claim: "c1", test_id: TEST_ID },
    ]);
    // Escalated: the claim is closed, nothing more goes through under it.
    expect(await t.write("billing.py", BILLING)).toContain("no open claim names it");
    expect(t.read("billing.py")).toBe(NO_VAT);
  }, 60_000);

  it("a Bash command that writes production code without a claim is denied before it runs", async () => {
    const t = strictProject("pytest-ini");
    await t.fire(t.payloads.sessionStart());
    const bash = t.payloads.preToolUse("Bash", {
      command: "cat >> calc.py <<'EOF'\n\ndef sub(a, b):\n    return a - b\nEOF\n",
      description: "add sub",
    });
    const reason = denial((await t.fire(bash)).answer);
    expect(reason).toMatch(/^tailtest strict: calc\.py is production code and no open claim/);
    expect(t.events()).toMatchObject([
      { type: "mode_changed", mode: "strict", by: "config" },
      { type: "edit_denied", path: "calc.py", code: "no_claim" },
    ]);
    // A command that writes nothing is not the gate's business.
    const ls = t.payloads.preToolUse("Bash", { command: "ls -la", description: "list" });
    expect((await t.fire(ls)).stdout).toBe("");
  }, 60_000);

  it("ExitPlanMode: a plan whose steps name no test is denied; one naming the test of each step is allowed", async () => {
    const t = strictProject("pytest-ini");
    await t.fire(t.payloads.sessionStart());
    const vague = t.payloads.preToolUse("ExitPlanMode", {
      plan: "1. Add a charge function in billing.py\n2. Document VAT in the README\n",
    });
    const refused = denial((await t.fire(vague)).answer);
    expect(refused).toContain("tailtest strict: this plan has steps that name no test.");
    expect(refused).toContain("- step 1: Add a charge function in billing.py");
    expect(refused).toContain("- step 2: Document VAT in the README");

    const named = t.payloads.preToolUse("ExitPlanMode", {
      plan: [
        `1. Write \`${TEST_ID}\` (charge adds 20% VAT) and claim it for billing.py`,
        `2. Make \`${TEST_ID}\` pass in billing.py`,
        "",
      ].join("\n"),
    });
    expect((await t.fire(named)).stdout).toBe("");
    expect(
      t
        .events()
        .filter((event) => event.type === "plan_recorded")
        .map((event) => event.accepted),
    ).toEqual([false, true]);
  }, 60_000);
});

describe("strict mode through the Claude Code hook (vitest)", () => {
  it("a greenfield red (the module is missing), claimed, written, green at Stop; only the claimed test runs", async () => {
    const t = strictProject("vitest");
    t.project.write("src/calc.test.ts", CALC_SENTINEL + t.read("src/calc.test.ts"));
    age(t.root);
    await t.fire(t.payloads.sessionStart());

    expect(await t.write("src/money.test.ts", MONEY_TEST)).toBeUndefined();
    expect(await t.write("src/money.ts", MONEY)).toContain("no open claim names it");
    const claimed = await t.tailtest(["claim", MONEY_TEST_ID, "src/money.ts"]);
    expect(claimed.exitCode, claimed.stderr).toBe(0);
    expect(t.events().find((event) => event.purpose === "claim")).toMatchObject({
      test_id: MONEY_TEST_ID,
      status: "fail",
      fail_reason: "collection",
    });

    expect(await t.write("src/money.ts", MONEY)).toBeUndefined();
    const stopped = stopMessage((await t.fire(t.payloads.stop(false))).answer);
    expect(stopped).toContain(`✓ ${MONEY_TEST_ID} passes: the claim on src/money.ts is green.`);
    expect(t.events().at(-1)).toMatchObject({ type: "verify_result", status: "pass" });

    // The claim and the verification ran the one test file, never the fixture's red calc test.
    const runs = t.events().filter((event) => event.type === "test_run");
    expect(runs.map((event) => event.purpose)).toEqual(["claim", "verify"]);
    for (const run of runs) {
      expect(run.command).toContain("src/money.test.ts");
      expect(run.command).not.toContain("calc");
    }
    expect(existsSync(join(t.root, "calc-test-loaded"))).toBe(false);
  }, 60_000);
});
