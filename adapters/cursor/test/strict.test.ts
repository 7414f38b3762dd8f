import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import {
  copyFixture,
  copyFixtureWithDeps,
  findToolchain,
  REPO_ROOT,
  runBin,
  type BinResult,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadPayload } from "./payloads.ts";

/**
 * strict mode (ADR 0008) through the built Cursor hook and the built `tailtest` CLI, each a real
 * process, on temporary copies of the pytest-ini and vitest fixtures. The payloads are the
 * synthetic Cursor ones (no Cursor agent runs offline) with the tool fields of hook-protocols
 * §2.4; every edit is written to disk only after preToolUse let it through, and every claim and
 * end-of-turn verification is a real pytest or vitest run.
 */

const HOOK = join(REPO_ROOT, "adapters/cursor/dist/hook.cjs");
/** The `tailtest` bin this package ships (packages/cli bundled with the adapter). */
const TAILTEST = join(REPO_ROOT, "adapters/cursor/dist/tailtest.js");
const pytest = findToolchain("pytest");

type Output = Record<string, unknown>;

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

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

beforeAll(() => {
  expect(existsSync(HOOK), "run the build first (pnpm test does)").toBe(true);
  expect(existsSync(TAILTEST), "run the build first (pnpm test does)").toBe(true);
});

/** Every file an hour old: nothing the setup wrote looks like a change made in the turn. */
function age(root: string): void {
  const hourAgo = new Date(Date.now() - 3_600_000);
  const files = readdirSync(root, { recursive: true, withFileTypes: true });
  for (const file of files)
    if (file.isFile()) utimesSync(join(file.parentPath, file.name), hourAgo, hourAgo);
}

/** Every stdout the hook prints is exactly one JSON object on one line (Cursor parses it). */
function oneObject(result: BinResult): Output {
  expect(result.exitCode, result.stderr).toBe(0);
  expect(result.stdout.split("\n"), result.stdout).toHaveLength(1);
  const json = JSON.parse(result.stdout) as unknown;
  expect(typeof json === "object" && json !== null && !Array.isArray(json)).toBe(true);
  return json as Output;
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

  const started = loadPayload("edit.sessionStart.json", root);
  const conversation = String(started.stdin["conversation_id"]);
  const env: Record<string, string> = {
    ...started.env,
    // Nothing from the environment the tests run in may switch the hooks off or name a log.
    TAILTEST_HOOKS_OFF: "",
    TAILTEST_TDD_KEY: "",
    CLAUDE_CODE_SESSION_ID: "",
    ...(pytest.path === undefined ? {} : { PATH: pytest.path }),
  };

  /** A Cursor payload for the project: the common fields of a recorded shape, then the event's. */
  function payload(event: string, fields: object): Output {
    const common: Output = { ...started.stdin };
    delete common["is_background_agent"];
    return { ...common, hook_event_name: event, ...fields };
  }

  /** Fires the built hook as Cursor would: payload on stdin, Cursor's env, the workspace as cwd. */
  async function fire(stdin: Output): Promise<{ output: Output; stderr: string }> {
    const result = await runBin(HOOK, [], { cwd: root, input: JSON.stringify(stdin), env });
    const output = oneObject(result);
    expect(result.stdout, "no absolute path reaches the agent").not.toContain(root);
    return { output, stderr: result.stderr };
  }

  /** The built `tailtest` CLI, with the key sessionStart put in the env Cursor keeps. */
  function tailtest(args: string[]): Promise<BinResult> {
    return runBin(TAILTEST, args, { cwd: root, env: { ...env, TAILTEST_TDD_KEY: conversation } });
  }

  const payloads = {
    sessionStart: () => payload("sessionStart", { is_background_agent: false }),
    preWrite: (file: string, content: string) =>
      payload("preToolUse", {
        tool_name: "Write",
        tool_input: { file_path: join(root, file), content },
        tool_use_id: "toolu_30",
        cwd: root,
      }),
    afterFileEdit: (file: string, content: string) =>
      payload("afterFileEdit", {
        file_path: join(root, file),
        edits: [{ old_string: "", new_string: content }],
      }),
    preShell: (command: string) =>
      payload("preToolUse", {
        tool_name: "Shell",
        tool_input: { command, cwd: root },
        tool_use_id: "toolu_31",
        cwd: root,
      }),
    /** loop_count: the followups Cursor already sent this turn (1 after one of ours). */
    stop: (loopCount: number) => payload("stop", { status: "completed", loop_count: loopCount }),
  };

  /**
   * What Cursor does with a Write: preToolUse, then (only if it was not denied) the write and
   * afterFileEdit. Returns the denial's message, or undefined when the write went through.
   */
  async function write(file: string, content: string): Promise<string | undefined> {
    const gate = await fire(payloads.preWrite(file, content));
    if (Object.keys(gate.output).length > 0) return expectDenied(gate.output);
    project.write(file, content);
    expect(await fire(payloads.afterFileEdit(file, content))).toEqual({ output: {}, stderr: "" });
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

  return { project, root, conversation, fire, tailtest, payloads, write, events, read };
}

function expectDenied(output: Output): string {
  expect(Object.keys(output)).toEqual(["permission", "user_message", "agent_message"]);
  expect(output["permission"]).toBe("deny");
  const message = String(output["agent_message"]);
  expect(output["user_message"]).toBe(message.split("\n")[0]);
  return message;
}

/** The stop that sends the agent back: Cursor's followup, the next user message. */
function followup(output: Output): string {
  expect(Object.keys(output)).toEqual(["followup_message"]);
  return String(output["followup_message"]);
}

describe.skipIf(!pytest.available)("strict mode through the built Cursor hook (pytest)", () => {
  it("red → claim → edit → green: the gate denies, the claim opens it, stop verifies, export has the triple", async () => {
    const t = strictProject("pytest-ini");

    const { output: started } = await t.fire(t.payloads.sessionStart());
    expect(Object.keys(started)).toEqual(["additional_context", "env"]);
    const note = String(started["additional_context"]);
    expect(note).toContain("tailtest strict: every production edit must advance a failing test");
    expect(note).toContain("tailtest claim <test_id> <file…>");
    expect(started["env"]).toEqual({ TAILTEST_TDD_KEY: t.conversation });

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

    // Claimed: the write goes through, and afterFileEdit records it under the claim.
    expect(await t.write("billing.py", BILLING)).toBeUndefined();
    expect(t.events().filter((event) => event.type === "edit_applied")).toMatchObject([
      { path: "billing.py", claims: ["c1"], host: "cursor", session: t.conversation },
    ]);

    // stop runs the claimed test: it passes, no followup; the result goes to the Hooks channel.
    const stopped = await t.fire(t.payloads.stop(0));
    expect(stopped.output).toEqual({});
    expect(stopped.stderr).toContain(`✓ ${TEST_ID} passes: the claim on billing.py is green.`);
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

  it("a breaking edit is reverted and the stop followed up naming the test; the second failure hands the claim to the person", async () => {
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
    // stop: the claimed test still fails, so the edit is reverted and the agent is sent back.
    const first = await t.fire(t.payloads.stop(0));
    const reason = followup(first.output);
    expect(first.stderr).toMatch(/^tailtest: 1 test: 0 passed, 1 failed \([^)]+\)$/);
    expect(reason).toMatch(/^tailtest strict:\n/);
    expect(reason).toContain(`✗ ${TEST_ID}: it still fails`);
    expect(reason).toContain("Reverted billing.py to before this turn. Attempt 1 of 2");
    expect(t.read("billing.py")).toBe(NO_VAT);
    expect(t.events().map((event) => event.type)).toEqual(
      expect.arrayContaining(["verify_result", "edit_reverted", "repair"]),
    );
    expect(t.events().some((event) => event.type === "escalated")).toBe(false);

    // The claim stands after one failure (the code is back at its red); a second miss, on the
    // followup's own stop (loop_count 1), escalates: one last followup, only to tell the person.
    expect(await t.write("billing.py", FLAT_FEE)).toBeUndefined();
    const second = followup((await t.fire(t.payloads.stop(1))).output);
    expect(second).toContain(`✗ ${TEST_ID}: it still fails`);
    expect(second).toContain("That is 2 failed verifications");
    expect(second).toContain("the claim is handed to the person. Do not change these files again");
    // …and the loop ends: the stop after the agent's report has nothing left to verify.
    expect((await t.fire(t.payloads.stop(2))).output).toEqual({});
    expect(t.read("billing.py")).toBe(NO_VAT);
    const log = t.events();
    expect(log.filter((event) => event.type === "edit_reverted")).toHaveLength(2);
    expect(log.filter((event) => event.type === "escalated")).toMatchObject([
      { claim: "c1", test_id: TEST_ID },
    ]);
    // Escalated: the claim is closed, nothing more goes through under it.
    expect(await t.write("billing.py", BILLING)).toContain("no open claim names it");
    expect(t.read("billing.py")).toBe(NO_VAT);
  }, 60_000);

  it("a Shell command that writes production code without a claim is denied before it runs", async () => {
    const t = strictProject("pytest-ini");
    await t.fire(t.payloads.sessionStart());
    const sed = expectDenied(
      (await t.fire(t.payloads.preShell("sed -i 's/a + b/b + a/' calc.py"))).output,
    );
    expect(sed).toMatch(/^tailtest strict: calc\.py is production code and no open claim/);
    expect(t.events()).toMatchObject([
      { type: "mode_changed", mode: "strict", by: "config" },
      { type: "edit_denied", path: "calc.py", code: "no_claim" },
    ]);
    // A command that writes nothing is not the gate's business.
    expect((await t.fire(t.payloads.preShell("ls -la"))).output).toEqual({});
  }, 60_000);
});

describe("strict mode through the built Cursor hook (vitest)", () => {
  it("a greenfield red (the module is missing), claimed, written, green at stop; only the claimed test runs", async () => {
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
    const stopped = await t.fire(t.payloads.stop(0));
    expect(stopped.output).toEqual({});
    expect(stopped.stderr).toContain(
      `✓ ${MONEY_TEST_ID} passes: the claim on src/money.ts is green.`,
    );
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
