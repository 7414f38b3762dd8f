import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  copyFixture,
  copyFixtureWithDeps,
  findToolchain,
  type BinResult,
  type TempProject,
} from "./index.ts";

/** The fields of `.tailtest/events.jsonl` lines the strict scenarios read. */
export interface LoggedEvent {
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
  accepted?: boolean;
}

/** How the end of a turn answered: the agent sent back with a reason, or the turn may end. */
export interface StopAnswer {
  sentBack: boolean;
  /** The reason the agent reads, or the message the person reads ("" for no answer at all). */
  text: string;
}

/**
 * One strict-mode project driven through a platform's built hook and its `tailtest` bin, as the
 * agent would: each method checks the platform's exact answer shape and returns what it says.
 */
export interface StrictSession {
  project: TempProject;
  root: string;
  /** The session's start; returns the note the agent reads. */
  sessionStart(): Promise<string>;
  /** The user's prompt, where the platform has a hook for it (Codex); else nothing. */
  prompt(): Promise<void>;
  /**
   * The agent's file write: the pre-tool gate, then (only if it was not denied) the write and the
   * post-tool hook. Returns the denial's reason, or undefined when the write went through.
   */
  write(path: string, content: string): Promise<string | undefined>;
  /** The gate on a shell command: the denial's reason, or undefined for no opinion. */
  shell(command: string): Promise<string | undefined>;
  /** The end of the turn; `round` is how many times this turn already sent the agent back. */
  stop(round: number): Promise<StopAnswer>;
  /** The `tailtest` bin the adapter ships, as the agent's shell runs it. */
  tailtest(args: string[]): Promise<BinResult>;
}

/** A platform as the strict scenarios drive it. */
export interface StrictPlatform<S extends StrictSession = StrictSession> {
  /** The title's name: "the built Codex hook". */
  name: string;
  /** `host` in the platform's events.jsonl lines. */
  host: string;
  /** The hook and bin bound to a prepared project; `env` holds what every call must carry. */
  open(project: TempProject, env: Record<string, string>): S;
  /** The session id events.jsonl names, when the platform's payload gives one. */
  session?: (session: S) => string;
  /** A shell command that writes calc.py, and one that writes nothing. */
  shellWrite: string;
  shellRead: string;
}

export const pytest = findToolchain("pytest");

export const TEST_FILE = "tests/test_billing.py";
export const TEST_ID = `${TEST_FILE}::test_charge_adds_vat`;
export const BILLING_TEST =
  "from billing import charge\n\n\ndef test_charge_adds_vat():\n    assert charge(100) == 120\n";
export const BILLING = "def charge(amount):\n    return round(amount * 1.2, 2)\n";
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

/** Every file an hour old: nothing the setup wrote looks like a change made in the turn. */
export function age(root: string): void {
  const hourAgo = new Date(Date.now() - 3_600_000);
  const files = readdirSync(root, { recursive: true, withFileTypes: true });
  for (const file of files)
    if (file.isFile()) utimesSync(join(file.parentPath, file.name), hourAgo, hourAgo);
}

/** The strict-mode events of a project's log (tdd lines left out). */
export function loggedEvents(root: string): LoggedEvent[] {
  return readFileSync(join(root, ".tailtest/events.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as LoggedEvent)
    .filter((event) => !event.type.startsWith("tdd."));
}

/**
 * A strict-mode copy of a runner fixture with the platform's hook bound to it. Removed after the
 * test (the suite's afterEach; a file using it without the suite removes its own).
 */
export function openStrictProject<S extends StrictSession>(
  platform: StrictPlatform<S>,
  fixture: "pytest-ini" | "vitest",
  files: Record<string, string> = {},
): S {
  const project =
    fixture === "vitest"
      ? copyFixtureWithDeps(`runners/${fixture}`)
      : copyFixture(`runners/${fixture}`);
  projects.push(project);
  project.write(".tailtest/config.json", `${JSON.stringify({ mode: "strict" })}\n`);
  for (const [path, content] of Object.entries(files)) project.write(path, content);
  age(project.root);
  return platform.open(project, {
    // Nothing from the environment the tests run in may switch the hooks off or name a log.
    TAILTEST_HOOKS_OFF: "",
    TAILTEST_TDD_KEY: "",
    CLAUDE_CODE_SESSION_ID: "",
    ...(pytest.path === undefined ? {} : { PATH: pytest.path }),
  });
}

/** Removes the projects openStrictProject made. */
export function cleanupStrictProjects(): void {
  for (const project of projects.splice(0)) project.cleanup();
}

/**
 * strict mode (ADR 0008) through a platform's built hook and built `tailtest` bin, one real
 * process per call, on temporary copies of the pytest-ini and vitest fixtures: every edit is
 * written to disk only after the gate allowed it, and every claim and end-of-turn verification
 * is a real pytest or vitest run. The same scenarios for every platform; the platform says how a
 * call is made and checks its answers' exact shape.
 */
export function describeStrictSuite<S extends StrictSession>(platform: StrictPlatform<S>): void {
  const strictProject = (fixture: "pytest-ini" | "vitest", files: Record<string, string> = {}) =>
    openStrictProject(platform, fixture, files);
  const events = (t: S) => loggedEvents(t.root);
  const read = (t: S, path: string) => readFileSync(join(t.root, path), "utf8");

  describe(`strict mode through ${platform.name}`, () => {
    afterEach(cleanupStrictProjects);

    describe.skipIf(!pytest.available)("pytest", () => {
      it("red → claim → edit → green: the gate denies, the claim opens it, the stop verifies, export has the triple", async () => {
        const t = strictProject("pytest-ini");

        const started = await t.sessionStart();
        expect(started).toContain(
          "tailtest strict: every production edit must advance a failing test",
        );
        expect(started).toContain("tailtest claim <test_id> <file…>");
        await t.prompt();

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
          open_claims: [
            { claim: "c1", test_id: TEST_ID, targets: ["billing.py"], last_run: "fail" },
          ],
        });

        // Claimed: the production write goes through, and the post-tool hook records it.
        expect(await t.write("billing.py", BILLING)).toBeUndefined();
        const session = platform.session === undefined ? {} : { session: platform.session(t) };
        expect(events(t).filter((event) => event.type === "edit_applied")).toMatchObject([
          { path: "billing.py", claims: ["c1"], host: platform.host, ...session },
        ]);

        // The stop runs the claimed test: it passes, the turn may end, the person reads the result.
        const stopped = await t.stop(0);
        expect(stopped.sentBack).toBe(false);
        expect(stopped.text).toContain(`✓ ${TEST_ID} passes: the claim on billing.py is green.`);
        expect(read(t, "billing.py")).toBe(BILLING);

        const log = events(t);
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

      it("a breaking edit is reverted and the agent sent back naming the test; the second failure hands the claim to the person", async () => {
        // A claim on a test that fails on its assertion, and an edit under it that does not fix it.
        const t = strictProject("pytest-ini", { "billing.py": NO_VAT });
        await t.sessionStart();
        await t.prompt();
        expect(await t.write(TEST_FILE, BILLING_TEST)).toBeUndefined();
        const claimed = await t.tailtest(["claim", TEST_ID, "billing.py"]);
        expect(claimed.exitCode, claimed.stderr).toBe(0);
        expect(events(t).find((event) => event.purpose === "claim")).toMatchObject({
          status: "fail",
          fail_reason: "assertion",
        });
        expect(await t.write("billing.py", WRONG_RATE)).toBeUndefined();
        // The stop: the claimed test still fails, so the edit is reverted and the agent sent back.
        const first = await t.stop(0);
        expect(first.sentBack).toBe(true);
        expect(first.text).toMatch(/^tailtest strict:\n/);
        expect(first.text).toContain(`✗ ${TEST_ID}: it still fails`);
        expect(first.text).toContain("Reverted billing.py to before this turn. Attempt 1 of 2");
        expect(read(t, "billing.py")).toBe(NO_VAT);
        expect(events(t).map((event) => event.type)).toEqual(
          expect.arrayContaining(["verify_result", "edit_reverted", "repair"]),
        );
        expect(events(t).some((event) => event.type === "escalated")).toBe(false);

        // The claim stands after one failure (the code is back at its red); a second miss, on the
        // stop after the agent went back, escalates: sent back once more, only to tell the person.
        expect(await t.write("billing.py", FLAT_FEE)).toBeUndefined();
        const second = await t.stop(1);
        expect(second.sentBack).toBe(true);
        expect(second.text).toContain(`✗ ${TEST_ID}: it still fails`);
        expect(second.text).toContain("That is 2 failed verifications");
        expect(second.text).toContain(
          "the claim is handed to the person. Do not change these files again",
        );
        expect(read(t, "billing.py")).toBe(NO_VAT);
        // …and the loop ends: the stop after the agent's report has nothing left to verify.
        expect(await t.stop(2)).toEqual({ sentBack: false, text: "" });
        expect(read(t, "billing.py")).toBe(NO_VAT);
        const log = events(t);
        expect(log.filter((event) => event.type === "edit_reverted")).toHaveLength(2);
        expect(log.filter((event) => event.type === "escalated")).toMatchObject([
          { claim: "c1", test_id: TEST_ID },
        ]);
        // Escalated: the claim is closed, nothing more goes through under it.
        expect(await t.write("billing.py", BILLING)).toContain("no open claim names it");
        expect(read(t, "billing.py")).toBe(NO_VAT);
      }, 60_000);

      it("a shell command that writes production code without a claim is denied before it runs", async () => {
        const t = strictProject("pytest-ini");
        await t.sessionStart();
        const reason = await t.shell(platform.shellWrite);
        expect(reason).toMatch(/^tailtest strict: calc\.py is production code and no open claim/);
        expect(events(t)).toMatchObject([
          { type: "mode_changed", mode: "strict", by: "config" },
          { type: "edit_denied", path: "calc.py", code: "no_claim" },
        ]);
        // A command that writes nothing is not the gate's business.
        expect(await t.shell(platform.shellRead)).toBeUndefined();
      }, 60_000);
    });

    describe("vitest", () => {
      it("a greenfield red (the module is missing), claimed, written, green at the stop; only the claimed test runs", async () => {
        const t = strictProject("vitest");
        t.project.write("src/calc.test.ts", CALC_SENTINEL + read(t, "src/calc.test.ts"));
        age(t.root);
        await t.sessionStart();

        expect(await t.write("src/money.test.ts", MONEY_TEST)).toBeUndefined();
        expect(await t.write("src/money.ts", MONEY)).toContain("no open claim names it");
        const claimed = await t.tailtest(["claim", MONEY_TEST_ID, "src/money.ts"]);
        expect(claimed.exitCode, claimed.stderr).toBe(0);
        expect(events(t).find((event) => event.purpose === "claim")).toMatchObject({
          test_id: MONEY_TEST_ID,
          status: "fail",
          fail_reason: "collection",
        });

        expect(await t.write("src/money.ts", MONEY)).toBeUndefined();
        const stopped = await t.stop(0);
        expect(stopped.sentBack).toBe(false);
        expect(stopped.text).toContain(
          `✓ ${MONEY_TEST_ID} passes: the claim on src/money.ts is green.`,
        );
        expect(events(t).at(-1)).toMatchObject({ type: "verify_result", status: "pass" });

        // The claim and the verification ran the one test file, never the fixture's red calc test.
        const runs = events(t).filter((event) => event.type === "test_run");
        expect(runs.map((event) => event.purpose)).toEqual(["claim", "verify"]);
        for (const run of runs) {
          expect(run.command).toContain("src/money.test.ts");
          expect(run.command).not.toContain("calc");
        }
        expect(existsSync(join(t.root, "calc-test-loaded"))).toBe(false);
      }, 60_000);
    });
  });
}
