import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import {
  copyFixture,
  copyFixtureWithDeps,
  findToolchain,
  runBin,
  type BinResult,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { HOOK_BIN, PACKAGE_DIR, parseAnswer, recorded, type Payload } from "./payloads.ts";

/**
 * strict mode (ADR 0008) through the built Codex hook (a real process per call, payloads recorded
 * from Codex 0.169.0) and the `tailtest` command the package ships: every edit is an apply_patch
 * written to disk only after the gate let it through, every claim and end-of-turn verification is
 * a real pytest or vitest run, and every reply is checked against the keys and values Codex
 * accepts.
 */

const TAILTEST_BIN = join(PACKAGE_DIR, "dist/tailtest.js");
const pytest = findToolchain("pytest");

/** The recorded "block" session; Bash calls borrow the "shell" recording's payloads. */
const SESSION = recorded("block.SessionStart.json", "/x")["session_id"] as string;
const TURN = recorded("block.Stop.json", "/x")["turn_id"] as string;

/** The fields of `.tailtest/events.jsonl` lines these tests read. */
interface LoggedEvent {
  type: string;
  host?: string;
  session?: string;
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

function patch(...sections: string[]): string {
  return ["*** Begin Patch", ...sections, "*** End Patch", ""].join("\n");
}

function addFile(path: string, content: string): string {
  return [
    `*** Add File: ${path}`,
    ...content
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => `+${l}`),
  ].join("\n");
}

/** A patch replacing a whole file's lines (what Codex writes for a rewrite). */
function replaceFile(path: string, from: string, to: string): string {
  const lines = (text: string, sign: string) =>
    text
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => `${sign}${l}`);
  return [`*** Update File: ${path}`, "@@", ...lines(from, "-"), ...lines(to, "+")].join("\n");
}

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

  const env = (): Record<string, string> => ({
    // Nothing from the environment the tests run in may switch the hooks off or name a log.
    TAILTEST_HOOKS_OFF: "",
    TAILTEST_TDD_KEY: "",
    CLAUDE_CODE_SESSION_ID: "",
    ...(pytest.path === undefined ? {} : { PATH: pytest.path }),
  });

  /** A recorded payload in this test's one session. */
  const codex = (name: string, changes: Payload = {}): Payload =>
    recorded(name, root, { session_id: SESSION, turn_id: TURN, ...changes });

  /** Fires one hook as Codex does; the call went well and its reply is one Codex accepts. */
  async function hook(payload: Payload): Promise<Record<string, unknown> | undefined> {
    const input = JSON.stringify(payload);
    const result = await runBin(HOOK_BIN, [], { input, cwd: root, env: env() });
    const event = payload["hook_event_name"] as string;
    expect(result.stderr, event).toBe("");
    expect(result.exitCode, event).toBe(0);
    expect(result.stdout, "no absolute path reaches the agent").not.toContain(root);
    return parseAnswer(result.stdout.trim(), event);
  }

  /**
   * The real `tailtest` command. Codex cannot hand the agent's shell TAILTEST_TDD_KEY: the CLI
   * finds the session the hooks started.
   */
  function tailtest(args: string[]): Promise<BinResult> {
    return runBin(TAILTEST_BIN, args, { cwd: root, env: env() });
  }

  const payloads = {
    sessionStart: () => codex("block.SessionStart.json"),
    prompt: () => codex("block.UserPromptSubmit.json"),
    preEdit: (command: string) =>
      codex("block.PreToolUse-apply_patch.json", { tool_input: { command } }),
    postEdit: (command: string) =>
      codex("stopblock.PostToolUse-apply_patch.json", { tool_input: { command } }),
    preBash: (command: string) => codex("shell.PreToolUse-Bash.json", { tool_input: { command } }),
    stop: (active: boolean) => codex("block.Stop.json", { stop_hook_active: active }),
  };

  /**
   * What Codex does with an apply_patch: PreToolUse, then (only if it was not denied) the files
   * written and PostToolUse. Returns the denial's reason, or undefined when the patch went through.
   */
  async function applyPatch(
    command: string,
    files: Record<string, string>,
  ): Promise<string | undefined> {
    const gate = await hook(payloads.preEdit(command));
    if (gate !== undefined) return denied(gate);
    for (const [path, content] of Object.entries(files)) project.write(path, content);
    expect(await hook(payloads.postEdit(command))).toBeUndefined();
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

  return { project, root, hook, tailtest, payloads, applyPatch, events, read };
}

/** The reason of a PreToolUse deny, after checking the reply is exactly that deny. */
function denied(answer: Record<string, unknown> | undefined): string {
  expect(answer).toEqual({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: expect.any(String) as unknown,
    },
  });
  const specific = answer?.["hookSpecificOutput"] as { permissionDecisionReason: string };
  return specific.permissionDecisionReason;
}

function context(answer: Record<string, unknown> | undefined): string {
  const specific = answer?.["hookSpecificOutput"] as { additionalContext?: unknown } | undefined;
  expect(typeof specific?.additionalContext, JSON.stringify(answer)).toBe("string");
  return specific?.additionalContext as string;
}

/** The Stop that lets the turn end: only a message for the person, never a block. */
function stopMessage(answer: Record<string, unknown> | undefined): string {
  expect(Object.keys(answer ?? {})).toEqual(["systemMessage"]);
  return String(answer?.["systemMessage"]);
}

/** The Stop that sends Codex back to work, with the reason it reads. */
function stopBlock(answer: Record<string, unknown> | undefined): string {
  // Beside the block, the person's line: what the stop's test runs found.
  expect(Object.keys(answer ?? {})).toEqual(["decision", "reason", "systemMessage"]);
  expect(answer?.["systemMessage"]).toMatch(/^tailtest: \d+ tests?: \d+ passed, \d+ failed \(/);
  expect(answer?.["decision"]).toBe("block");
  return String(answer?.["reason"]);
}

const addBilling = (content: string) => patch(addFile("billing.py", content));
const rewriteBilling = (from: string, to: string) => patch(replaceFile("billing.py", from, to));

describe.skipIf(!pytest.available)("strict mode through the built Codex hook (pytest)", () => {
  it("red → claim → edit → green: the gate denies, the claim opens it, Stop verifies, export has the triple", async () => {
    const t = strictProject("pytest-ini");

    const started = context(await t.hook(t.payloads.sessionStart()));
    expect(started).toContain("tailtest strict: every production edit must advance a failing test");
    expect(started).toContain("tailtest claim <test_id> <file…>");
    expect(await t.hook(t.payloads.prompt())).toBeUndefined();

    // No claim: a new production file is refused before apply_patch runs.
    const early = await t.applyPatch(addBilling(BILLING), { "billing.py": BILLING });
    expect(early).toMatch(/^tailtest strict: billing\.py is production code and no open claim/);
    expect(early).toContain("tailtest claim '<test_id>' billing.py");
    expect(existsSync(join(t.root, "billing.py"))).toBe(false);

    // Test files are always editable.
    const testPatch = patch(addFile(TEST_FILE, BILLING_TEST));
    expect(await t.applyPatch(testPatch, { [TEST_FILE]: BILLING_TEST })).toBeUndefined();
    const claimed = await t.tailtest(["claim", TEST_ID, "billing.py"]);
    expect(claimed.exitCode, claimed.stderr).toBe(0);
    const status = await t.tailtest(["strict", "status", "--json"]);
    expect(JSON.parse(status.stdout)).toMatchObject({
      config_mode: "strict",
      mode: "strict",
      open_claims: [{ claim: "c1", test_id: TEST_ID, targets: ["billing.py"], last_run: "fail" }],
    });

    // Claimed: the patch goes through, and PostToolUse records the edit under the claim.
    expect(await t.applyPatch(addBilling(BILLING), { "billing.py": BILLING })).toBeUndefined();
    expect(t.events().filter((event) => event.type === "edit_applied")).toMatchObject([
      { path: "billing.py", claims: ["c1"], host: "codex", session: SESSION },
    ]);

    // Stop runs the claimed test: it passes, the turn may end, the person reads the result.
    const stopped = stopMessage(await t.hook(t.payloads.stop(false)));
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
    const again = await t.applyPatch(rewriteBilling(BILLING, NO_VAT), { "billing.py": NO_VAT });
    expect(again).toContain("no open claim names it");
  }, 60_000);

  it("a breaking edit is reverted and the Stop blocked naming the test; the second failure hands the claim to the person", async () => {
    // A claim on a test that fails on its assertion, and an edit under it that does not fix it.
    const t = strictProject("pytest-ini", { "billing.py": NO_VAT });
    await t.hook(t.payloads.sessionStart());
    await t.hook(t.payloads.prompt());
    const testPatch = patch(addFile(TEST_FILE, BILLING_TEST));
    expect(await t.applyPatch(testPatch, { [TEST_FILE]: BILLING_TEST })).toBeUndefined();
    const claimed = await t.tailtest(["claim", TEST_ID, "billing.py"]);
    expect(claimed.exitCode, claimed.stderr).toBe(0);
    expect(t.events().find((event) => event.purpose === "claim")).toMatchObject({
      status: "fail",
      fail_reason: "assertion",
    });
    const wrongRate = rewriteBilling(NO_VAT, WRONG_RATE);
    expect(await t.applyPatch(wrongRate, { "billing.py": WRONG_RATE })).toBeUndefined();
    // Stop: the claimed test still fails, so the edit is reverted and Codex is sent back.
    const reason = stopBlock(await t.hook(t.payloads.stop(false)));
    expect(reason).toMatch(/^tailtest strict:\n/);
    expect(reason).toContain(`✗ ${TEST_ID}: it still fails`);
    expect(reason).toContain("Reverted billing.py to before this turn. Attempt 1 of 2");
    expect(t.read("billing.py")).toBe(NO_VAT);
    expect(t.events().map((event) => event.type)).toEqual(
      expect.arrayContaining(["verify_result", "edit_reverted", "repair"]),
    );
    expect(t.events().some((event) => event.type === "escalated")).toBe(false);

    // The claim stands after one failure (the code is back at its red); a second miss escalates.
    const flatFee = rewriteBilling(NO_VAT, FLAT_FEE);
    expect(await t.applyPatch(flatFee, { "billing.py": FLAT_FEE })).toBeUndefined();
    // Sent back once more, only to tell the person: the claim is closed.
    const second = stopBlock(await t.hook(t.payloads.stop(true)));
    expect(second).toContain(`✗ ${TEST_ID}: it still fails`);
    expect(second).toContain("That is 2 failed verifications");
    expect(second).toContain("the claim is handed to the person. Do not change these files again");
    expect(t.read("billing.py")).toBe(NO_VAT);
    // …and the loop ends: the stop after the agent's report has nothing left to verify.
    expect(await t.hook(t.payloads.stop(true))).toBeUndefined();
    const log = t.events();
    expect(log.filter((event) => event.type === "edit_reverted")).toHaveLength(2);
    expect(log.filter((event) => event.type === "escalated")).toMatchObject([
      { claim: "c1", test_id: TEST_ID },
    ]);
    // Escalated: the claim is closed, nothing more goes through under it.
    const after = await t.applyPatch(rewriteBilling(NO_VAT, BILLING), { "billing.py": BILLING });
    expect(after).toContain("no open claim names it");
    expect(t.read("billing.py")).toBe(NO_VAT);
  }, 60_000);

  it("a Bash command that writes production code without a claim is denied before it runs", async () => {
    const t = strictProject("pytest-ini");
    await t.hook(t.payloads.sessionStart());
    const heredoc = "cat >> calc.py <<'EOF'\n\ndef sub(a, b):\n    return a - b\nEOF\n";
    const reason = denied(await t.hook(t.payloads.preBash(heredoc)));
    expect(reason).toMatch(/^tailtest strict: calc\.py is production code and no open claim/);
    expect(t.events()).toMatchObject([
      { type: "mode_changed", mode: "strict", by: "config" },
      { type: "edit_denied", path: "calc.py", code: "no_claim" },
    ]);
    // A command that writes nothing is not the gate's business.
    expect(await t.hook(t.payloads.preBash("python3 -m pytest -q && git status"))).toBeUndefined();
  }, 60_000);
});

describe("strict mode through the built Codex hook (vitest)", () => {
  it("a greenfield red (the module is missing), claimed, written, green at Stop; only the claimed test runs", async () => {
    const t = strictProject("vitest");
    t.project.write("src/calc.test.ts", CALC_SENTINEL + t.read("src/calc.test.ts"));
    age(t.root);
    await t.hook(t.payloads.sessionStart());

    const testPatch = patch(addFile("src/money.test.ts", MONEY_TEST));
    expect(await t.applyPatch(testPatch, { "src/money.test.ts": MONEY_TEST })).toBeUndefined();
    const moneyPatch = patch(addFile("src/money.ts", MONEY));
    expect(await t.applyPatch(moneyPatch, { "src/money.ts": MONEY })).toContain(
      "no open claim names it",
    );
    const claimed = await t.tailtest(["claim", MONEY_TEST_ID, "src/money.ts"]);
    expect(claimed.exitCode, claimed.stderr).toBe(0);
    expect(t.events().find((event) => event.purpose === "claim")).toMatchObject({
      test_id: MONEY_TEST_ID,
      status: "fail",
      fail_reason: "collection",
    });

    expect(await t.applyPatch(moneyPatch, { "src/money.ts": MONEY })).toBeUndefined();
    const stopped = stopMessage(await t.hook(t.payloads.stop(false)));
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
