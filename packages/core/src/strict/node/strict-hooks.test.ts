import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  commitAll,
  copyFixtureWithDeps,
  makeProject,
  type TempProject,
} from "@tailtest/test-utils";
import { writeStateLines } from "@tailtest/test-utils/state-lines";
import { afterEach, describe, expect, it } from "vitest";
import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import type { StrictEvent } from "../strict-events.ts";
import { pairRedGreen } from "../pairs.ts";
import { handleEvent } from "../../hook/node/handle-event.ts";
import { openProject } from "../../project/node/project.ts";
import { claimTest, finishRefactor, startRefactor } from "./strict-claim.ts";
import { readStrictLog } from "./strict-store.ts";

/**
 * strict mode through `handleEvent` and the claim commands, on real pytest and vitest projects:
 * the gate, claims measured by running the test, the end-of-turn verification with its revert,
 * the two-failure escalation, refactor mode and plans. The adapters' tests drive the same
 * through the built bins and the real CLIs.
 */

const identity = { sessionId: "sess-strict", transcriptPath: "/tmp/t.jsonl" };
let clock = Date.now();
const now = () => new Date(clock);
let project: TempProject;

afterEach(() => project.cleanup());

function age(files: readonly string[]): void {
  const old = (Date.now() - 3_600_000) / 1000;
  for (const file of files) utimesSync(join(project.root, file), old, old);
}

async function send(event: HookEvent): Promise<Decision> {
  clock = Math.max(clock + 1, Date.now());
  return handleEvent(openProject(project.root), event, { platform: "claude-code", now, identity });
}

const abs = (rel: string) => join(project.root, rel);
const read = (rel: string) => readFileSync(abs(rel), "utf8");

/** What the agent does: ask the gate, then write if allowed, then report the edit. */
async function write(rel: string, content: string): Promise<Decision> {
  const gate = await send({ kind: "EditRequested", paths: [abs(rel)] });
  if (gate.kind === "deny") return gate;
  writeFileSync(abs(rel), content);
  await send({ kind: "FilesEdited", paths: [abs(rel)] });
  return gate;
}

async function claim(testId: string, files: string[]) {
  clock = Math.max(clock + 1, Date.now());
  return claimTest(
    { project: openProject(project.root), cwd: project.root, now, session: identity.sessionId },
    testId,
    files,
  );
}

async function events(): Promise<StrictEvent[]> {
  return (await readStrictLog(project.root)).events;
}

const types = async () => (await events()).map((event) => event.type);

const BILLING_TEST = [
  "from billing import charge",
  "",
  "",
  "def test_charge_adds_vat():",
  "    assert charge(100) == 120",
  "",
].join("\n");
const BILLING = "def charge(amount):\n    return amount * 1.2\n";
const BROKEN = "def charge(amount):\n    return amount\n";

describe("strict mode on a real pytest project", () => {
  function pytestProject(): void {
    project = makeProject({
      ".tailtest/config.json": JSON.stringify({ mode: "strict" }),
      "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
      "calc.py": "def add(a, b):\n    return a + b\n",
      "tests/test_calc.py":
        "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    });
    age([".tailtest/config.json", "pytest.ini", "calc.py", "tests/test_calc.py"]);
  }

  it("says a claim made again for the same test and files once", async () => {
    pytestProject();
    await send({ kind: "SessionStarted", source: "startup", sessionId: "sess-strict" });
    expect((await write("tests/test_billing.py", BILLING_TEST)).kind).toBe("none");
    const id = "tests/test_billing.py::test_charge_adds_vat";
    const claims = [await claim(id, ["billing.py"]), await claim(id, ["billing.py"])];
    claims.push(await claim(id, ["billing.py"]));
    expect(claims.map((one) => one.ok)).toEqual([true, true, true]);
    expect((await write("billing.py", BILLING)).kind).toBe("none");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind === "context" ? stop.text : "").toBe(
      "tailtest strict:\n✓ tests/test_billing.py::test_charge_adds_vat passes: the claim on billing.py is green.",
    );
  }, 60_000);

  it("red → claim → edit → green at the end of the turn, and the triple is exported", async () => {
    pytestProject();
    const start = await send({
      kind: "SessionStarted",
      source: "startup",
      sessionId: "sess-strict",
    });
    expect(start.kind === "context" ? start.text : "").toContain(
      "tailtest strict: every production edit must advance a failing test",
    );

    const early = await write("billing.py", BILLING);
    expect(early.kind).toBe("deny");
    expect(early.kind === "deny" ? early.reason : "").toContain("no open claim names it");
    expect(existsSync(abs("billing.py"))).toBe(false);

    expect((await write("tests/test_billing.py", BILLING_TEST)).kind).toBe("none");
    const claimed = await claim("tests/test_billing.py::test_charge_adds_vat", ["billing.py"]);
    expect(claimed).toMatchObject({ ok: true, claim: "c1" });

    expect((await write("billing.py", BILLING)).kind).toBe("none");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("context");
    expect(stop.kind === "context" ? stop.text : "").toContain(
      "✓ tests/test_billing.py::test_charge_adds_vat passes",
    );
    expect(read("billing.py")).toBe(BILLING);

    const log = await events();
    const red = log.find((event) => event.type === "test_run" && event.purpose === "claim");
    expect(red).toMatchObject({ status: "fail", fail_reason: "collection", missing: ["billing"] });
    // The agent reads no absolute path of this machine.
    expect(red?.type === "test_run" ? red.message : "").not.toContain(project.root);
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
    const triples = pairRedGreen(log);
    expect(triples).toHaveLength(1);
    expect(triples[0]).toMatchObject({
      test_id: "tests/test_billing.py::test_charge_adds_vat",
      repairs: 0,
    });

    // The claim is closed: the next edit needs a new red.
    expect((await write("billing.py", BROKEN)).kind).toBe("deny");
  }, 60_000);

  it("a claim's green edit that breaks another test blocks the stop, naming it (the turn's tests)", async () => {
    pytestProject();
    await send({ kind: "SessionStarted", source: "startup", sessionId: "sess-strict" });
    // The claimed test runs calc.add too, so a change to it is the claim's to make (the witness).
    const withMul = `${read("tests/test_calc.py")}\n\ndef test_mul():\n    from calc import mul\n\n    assert add(1, 1) == 2\n    assert mul(2, 3) == 6\n`;
    expect((await write("tests/test_calc.py", withMul)).kind).toBe("none");
    expect(await claim("tests/test_calc.py::test_mul", ["calc.py"])).toMatchObject({ ok: true });
    // The claimed test is expected to fail until its edit: a turn may end there.
    const waiting = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(waiting.kind).not.toBe("block");
    expect(waiting.userMessage ?? "").not.toMatch(/did not finish|\d failed/);

    await send({ kind: "TurnStarted" });
    const breaking =
      "def add(a, b):\n    return 0 if a == 2 else a + b\n\n\ndef mul(a, b):\n    return a * b\n";
    expect((await write("calc.py", breaking)).kind).toBe("none");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    const reason = stop.kind === "block" ? stop.reason : "";
    expect(reason).toContain("✓ tests/test_calc.py::test_mul passes");
    expect(reason).toContain("test_add");
    expect(reason).toContain("In strict mode a fix needs a claim");
  }, 60_000);

  it("a conftest.py that turns failures into passes voids the claim: never green, reverted", async () => {
    pytestProject();
    await send({ kind: "SessionStarted", source: "startup", sessionId: "sess-strict" });
    expect((await write("tests/test_billing.py", BILLING_TEST)).kind).toBe("none");
    expect(
      await claim("tests/test_billing.py::test_charge_adds_vat", ["billing.py"]),
    ).toMatchObject({ ok: true });
    expect((await write("billing.py", BROKEN)).kind).toBe("none");
    const conftest = [
      "import pytest",
      "",
      "",
      "@pytest.hookimpl(hookwrapper=True)",
      "def pytest_runtest_makereport(item, call):",
      "    outcome = yield",
      "    report = outcome.get_result()",
      "    if report.failed:",
      '        report.outcome = "passed"',
      "",
    ].join("\n");
    // Test support is always editable, but it voids the red it supports.
    expect((await write("tests/conftest.py", conftest)).kind).toBe("none");
    const again = await write("billing.py", BROKEN);
    expect(again.kind === "deny" ? again.reason : "").toContain(
      "which voids it (conftest.py and pytest's config (pytest.ini, pytest.toml, pyproject.toml, setup.cfg, tox.ini) in its folder",
    );
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    // tailtest's pytest witness (ADR 0012, thirteenth round) sees the faked pass before the
    // support check does: the test's own function raised, it never returned.
    expect(stop.kind === "block" ? stop.reason : "").toContain(
      "tailtest's pytest witness did not see this test's own function return",
    );
    expect(existsSync(abs("billing.py"))).toBe(false);
    const verdicts = (await events()).filter((event) => event.type === "verify_result");
    expect(verdicts.map((event) => event.status)).toEqual(["fail"]);
  }, 60_000);

  it("a helper written behind the gate goes back before the verdict: the claim is not green", async () => {
    pytestProject();
    await commitAll(project.root);
    await send({ kind: "SessionStarted", source: "startup", sessionId: "sess-strict" });
    expect((await write("tests/test_billing.py", BILLING_TEST)).kind).toBe("none");
    expect(
      await claim("tests/test_billing.py::test_charge_adds_vat", ["billing.py"]),
    ).toMatchObject({ ok: true });
    // The claimed file only imports; the behaviour is in a file no gate saw (a script wrote it).
    // (A git work tree: the content check is what puts an ungated file back.)
    expect((await write("billing.py", "from vat import charge\n")).kind).toBe("none");
    writeFileSync(abs("vat.py"), BILLING);
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    const reason = stop.kind === "block" ? stop.reason : "";
    expect(reason).toContain(
      "put back to the turn's start (what they held is kept in .tailtest/objects): vat.py",
    );
    expect(reason).not.toContain("is green");
    expect(existsSync(abs("vat.py"))).toBe(false);
    expect(existsSync(abs("billing.py"))).toBe(false);
    const verdicts = (await events()).filter((event) => event.type === "verify_result");
    expect(verdicts.map((event) => event.status)).toEqual(["fail"]);
  }, 60_000);

  it("an implementation that removes .tailtest/ when imported is never green, and is reverted", async () => {
    pytestProject();
    await send({ kind: "SessionStarted", source: "startup", sessionId: "sess-strict" });
    expect((await write("tests/test_billing.py", BILLING_TEST)).kind).toBe("none");
    expect(
      await claim("tests/test_billing.py::test_charge_adds_vat", ["billing.py"]),
    ).toMatchObject({ ok: true });
    const wiping = `import shutil\nshutil.rmtree(".tailtest", ignore_errors=True)\n${BILLING}`;
    expect((await write("billing.py", wiping)).kind).toBe("none");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    const reason = stop.kind === "block" ? stop.reason : "";
    expect(reason).toContain("removed or changed tailtest's own files");
    expect(reason).toContain("Reverted billing.py");
    expect(existsSync(abs("billing.py"))).toBe(false);
    expect(JSON.parse(read(".tailtest/config.json"))).toEqual({ mode: "strict" });
    const verdicts = (await events()).filter((event) => event.type === "verify_result");
    expect(verdicts.map((event) => event.status)).toEqual(["fail"]);
  }, 60_000);

  it("reverts a breaking edit, then hands the claim to the person after the second failure", async () => {
    pytestProject();
    writeFileSync(
      abs("tests/test_calc.py"),
      `${read("tests/test_calc.py")}\n\ndef test_add_negative():\n    assert add(-2, -3) == -6\n`,
    );
    const claimed = await claim("tests/test_calc.py::test_add_negative", ["calc.py"]);
    expect(claimed.ok).toBe(true);
    const before = read("calc.py");

    expect((await write("calc.py", "def add(a, b):\n    return a - b\n")).kind).toBe("none");
    const first = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(first.kind).toBe("block");
    const reason = first.kind === "block" ? first.reason : "";
    expect(reason).toContain("✗ tests/test_calc.py::test_add_negative: it still fails");
    expect(reason).toContain("Reverted calc.py to before this turn. Attempt 1 of 2");
    expect(read("calc.py")).toBe(before);

    // The claim stands after a failed attempt: the code is back at its red.
    expect((await write("calc.py", "def add(a, b):\n    return a * b\n")).kind).toBe("none");
    const second = await send({ kind: "TurnEnded", stopHookActive: true });
    expect(second.kind === "block" ? second.reason : "").toContain(
      "the claim is handed to the person. Do not change these files again for this test",
    );
    // The loop ends there: the agent reports, and the next stop has nothing left to verify.
    expect((await send({ kind: "TurnEnded", stopHookActive: true })).kind).toBe("none");
    expect(read("calc.py")).toBe(before);
    expect(await types()).toEqual(expect.arrayContaining(["edit_reverted", "repair", "escalated"]));
    const reverted = (await events()).filter((event) => event.type === "edit_reverted");
    expect(reverted).toHaveLength(2);
    // What was thrown away is kept in the object store.
    const discarded = reverted[0]?.type === "edit_reverted" ? reverted[0].discarded : null;
    expect(readFileSync(abs(`.tailtest/objects/${discarded ?? ""}`), "utf8")).toContain("a - b");
    // Escalated: no more edits under it.
    expect((await write("calc.py", "x = 1\n")).kind).toBe("deny");
  }, 60_000);

  it("refuses a Rust inline test as a claim's test, pointing at tests/", async () => {
    // rustc-demangle: `src/legacy.rs::tests::x` read "not a test file" and nothing else.
    project = makeProject({
      ".tailtest/config.json": JSON.stringify({ mode: "strict" }),
      "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\n',
      "src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod tests {}\n",
    });
    const inline = await claim("src/lib.rs::tests::adds", ["src/lib.rs"]);
    expect(inline.ok ? "" : inline.message).toContain(
      "src/lib.rs is not a test file: its inline #[cfg(test)] module is part of the source file",
    );
    expect(inline.ok ? "" : inline.message).toContain("integration test under tests/");
  });

  it("refuses a claim that is not a red, and voids a red when its test changes", async () => {
    pytestProject();
    const passing = await claim("tests/test_calc.py::test_add", ["calc.py"]);
    expect(passing.ok).toBe(false);
    expect(passing.ok ? "" : passing.message).toContain("passed");

    writeFileSync(abs("tests/test_syntax.py"), "def test_x(:\n    pass\n");
    const syntax = await claim("tests/test_syntax.py::test_x", ["calc.py"]);
    expect(syntax.ok ? "" : syntax.message).toContain("syntax error");

    const missing = await claim("tests/test_calc.py::test_nothing", ["calc.py"]);
    expect(missing.ok ? "" : missing.message).toContain("did not run");

    writeFileSync(
      abs("tests/test_calc.py"),
      `${read("tests/test_calc.py")}\n\ndef test_sub():\n    from calc import sub\n    assert sub(3, 2) == 1\n`,
    );
    expect((await claim("tests/test_calc.py::test_sub", ["calc.py"])).ok).toBe(true);
    const weakened = await write(
      "tests/test_calc.py",
      read("tests/test_calc.py").replace("== 1", "== 1 or True"),
    );
    expect(weakened.kind).toBe("context");
    expect(weakened.kind === "context" ? weakened.text : "").toContain("voids the red");
    const denied = await write("calc.py", `${read("calc.py")}\ndef sub(a, b):\n    return a - b\n`);
    expect(denied.kind === "deny" ? denied.reason : "").toContain("changed since the red");
  }, 60_000);

  it("says a claimed test weakened under a claim with no edit (the thirty-fifth round)", async () => {
    // The claim's hash holds its test only when the Stop verifies the claim; with no production
    // edit nothing is verified, and the test skipped went by in silence.
    pytestProject();
    writeFileSync(abs("calc.py"), "def add(a, b):\n    return a - b\n");
    await commitAll(project.root);
    await send({ kind: "SessionStarted", source: "startup", sessionId: "sess-strict" });
    await send({ kind: "TurnStarted" });
    expect((await claim("tests/test_calc.py::test_add", ["calc.py"])).ok).toBe(true);
    await write(
      "tests/test_calc.py",
      read("tests/test_calc.py").replace(
        "def test_add",
        "import pytest\n\n\n@pytest.mark.skip\ndef test_add",
      ),
    );
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind === "block" ? stop.reason : JSON.stringify(stop)).toContain(
      "a test or runner config changed this turn so that fewer tests run or can fail",
    );
  }, 60_000);

  it("says what a claimed test runs with changed under a claim with no edit", async () => {
    // A claim with no edit is never verified, so its support hash was compared by nothing: a
    // sitecustomize.py in the venv (or any support file) changed went by in silence.
    pytestProject();
    writeFileSync(abs("calc.py"), "def add(a, b):\n    return a - b\n");
    await commitAll(project.root);
    await send({ kind: "SessionStarted", source: "startup", sessionId: "sess-strict" });
    await send({ kind: "TurnStarted" });
    expect((await claim("tests/test_calc.py::test_add", ["calc.py"])).ok).toBe(true);
    // Nothing changed: the claim waits for its edit, and nothing is said of its test.
    const quiet = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(JSON.stringify(quiet)).not.toContain("with no claimed edit");
    await send({ kind: "TurnStarted" });
    await write("tests/expected.txt", "3\n");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    expect(stop.kind === "block" ? stop.reason : "").toContain(
      "what tests/test_calc.py runs with changed since its red, with no claimed edit",
    );
  }, 60_000);

  it("a deletion is gated, snapshotted and logged like any edit", async () => {
    pytestProject();
    project.write("legacy.py", "OLD = 1\n");
    age(["legacy.py"]);
    project.write(
      "tests/test_calc.py",
      `${read("tests/test_calc.py")}\n\ndef test_add_three():\n    assert add(1, 2) == 4\n`,
    );
    expect(
      await send({ kind: "EditRequested", paths: [], deleted: [abs("legacy.py")] }),
    ).toMatchObject({
      kind: "deny",
    });
    expect((await claim("tests/test_calc.py::test_add_three", ["calc.py", "legacy.py"])).ok).toBe(
      true,
    );
    expect(
      (await send({ kind: "EditRequested", paths: [], deleted: [abs("legacy.py")] })).kind,
    ).toBe("none");
    rmSync(abs("legacy.py"));
    await send({ kind: "FilesEdited", paths: [], deleted: [abs("legacy.py")] });
    const applied = (await events()).filter((event) => event.type === "edit_applied");
    expect(applied).toMatchObject([{ path: "legacy.py", claims: ["c1"], object: null }]);
    // Still red at the stop: the deleted file comes back.
    expect((await send({ kind: "TurnEnded", stopHookActive: false })).kind).toBe("block");
    expect(read("legacy.py")).toBe("OLD = 1\n");
  }, 60_000);

  it("gates shell writes and refuses the installers", async () => {
    pytestProject();
    const shell = await send({
      kind: "CommandRequested",
      command: "echo 'x = 1' >> calc.py",
      cwd: project.root,
    });
    expect(shell.kind).toBe("deny");
    const installer = await send({
      kind: "CommandRequested",
      command: "npx tailtest-claude-code init --mode follow",
    });
    expect(installer.kind === "deny" ? installer.reason : "").toContain("installers");
    const reading = await send({ kind: "CommandRequested", command: "cat calc.py > /tmp/copy.py" });
    expect(reading.kind).toBe("none");
  });

  it("refactor mode: edits without claims, but the turn ends only on a green suite", async () => {
    pytestProject();
    await send({ kind: "SessionStarted", source: "startup", sessionId: "sess-strict" });
    const context = {
      project: openProject(project.root),
      cwd: project.root,
      now,
      session: undefined,
    };
    expect((await startRefactor(context)).ok).toBe(true);
    expect((await write("calc.py", "def add(a, b):\n    return b + a\n")).kind).toBe("none");
    // The hatch is always said: production code changed with no claim, even on a green suite.
    expect(await send({ kind: "TurnEnded", stopHookActive: false })).toEqual({
      kind: "context",
      text: "tailtest strict:\nrefactor mode (tailtest refactor start): production code changed this turn with no claimed failing test: calc.py. The verify command passed; tailtest refactor finish returns to strict mode.",
    });
    // A turn that changed no production code says nothing.
    expect((await send({ kind: "TurnEnded", stopHookActive: false })).kind).toBe("none");
    expect((await write("calc.py", "def add(a, b):\n    return 0\n")).kind).toBe("none");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind === "block" ? stop.reason : "").toContain(
      "refactor mode: the verify command failed",
    );
    // Which test failed and how, as the end of a turn shows it: no second run to find it.
    expect(stop.kind === "block" ? stop.reason : "").toMatch(
      /FAIL tests\/test_calc\.py::test_add\n[^]*assert 0 == /,
    );
    // Blocked once: the stop that follows goes to the person, so the agent cannot loop.
    const again = await send({ kind: "TurnEnded", stopHookActive: true });
    expect(again.kind === "context" ? again.text : "").toContain("the verify command failed");
    const finish = await finishRefactor(context);
    expect(finish.ok).toBe(false);
    expect(finish.message).toContain("FAIL tests/test_calc.py::test_add");
    writeFileSync(abs("calc.py"), "def add(a, b):\n    return a + b\n");
    expect((await finishRefactor(context)).ok).toBe(true);
    expect((await write("calc.py", "x = 1\n")).kind).toBe("deny");
  }, 60_000);

  it("says refactor mode's files when the turn started and finished it before its end", async () => {
    pytestProject();
    await send({ kind: "SessionStarted", source: "startup", sessionId: "sess-strict" });
    const context = {
      project: openProject(project.root),
      cwd: project.root,
      now,
      session: undefined,
    };
    expect((await startRefactor(context)).ok).toBe(true);
    expect(
      (
        await write(
          "calc.py",
          "def add(a, b):\n    return b + a\n\n\ndef mul(a, b):\n    return a * b + 1\n",
        )
      ).kind,
    ).toBe("none");
    expect((await finishRefactor(context)).ok).toBe(true);
    // Back in strict mode at the stop: the hatch's files are said all the same.
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind === "context" ? stop.text : JSON.stringify(stop)).toContain(
      "refactor mode (tailtest refactor start … finish) was used this turn: production code changed with no claimed failing test: calc.py.",
    );
    // The next turn changed nothing: nothing to say.
    expect((await send({ kind: "TurnEnded", stopHookActive: false })).kind).toBe("none");
  }, 60_000);

  it("says a build config the turn changed, which can rewrite production code unseen", async () => {
    pytestProject();
    await send({ kind: "SessionStarted", source: "startup", sessionId: "sess-strict" });
    writeFileSync(abs("babel.config.js"), "module.exports = { plugins: [] };\n");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind === "context" ? stop.text : JSON.stringify(stop)).toContain(
      "tailtest strict: babel.config.js changed this turn: a build or test config can rewrite",
    );
  }, 60_000);

  it("a plan must name the failing test of each step, unless in refactor mode", async () => {
    pytestProject();
    const vague = await send({
      kind: "PlanSubmitted",
      plan: "1. Add a sub function\n2. Update the docs\n",
    });
    expect(vague.kind).toBe("deny");
    expect(vague.kind === "deny" ? vague.reason : "").toContain("step 1");
    const named = await send({
      kind: "PlanSubmitted",
      plan: "1. Write `tests/test_calc.py::test_sub` and make it pass in calc.py\n2. Cover negatives: `tests/test_calc.py::test_sub_negative`\n",
    });
    expect(named.kind).toBe("none");
    const plans = (await events()).filter((event) => event.type === "plan_recorded");
    expect(plans.map((event) => event.type === "plan_recorded" && event.accepted)).toEqual([
      false,
      true,
    ]);
  });

  it("fails closed on a log written by a newer tailtest", async () => {
    pytestProject();
    writeStateLines(project.root, '{"v":99,"type":"edit_claim"}\n', { replace: true });
    const gate = await send({ kind: "EditRequested", paths: [abs("calc.py")] });
    expect(gate.kind === "deny" ? gate.reason : "").toContain("newer tailtest");
    // The end of the turn too: the adapters' failure policy turns the error into one block.
    await expect(send({ kind: "TurnEnded", stopHookActive: false })).rejects.toThrow(
      "newer tailtest",
    );
  });

  it("puts back production files changed round the gate, without git too", async () => {
    // No git here: tailtest's own copy of the production files, taken at the turn's start.
    pytestProject();
    await send({ kind: "TurnStarted" });
    writeFileSync(abs("calc.py"), "def add(a, b):\n    return 0\n");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind === "block" ? stop.reason : "").toContain(
      "without passing the strict gate (a shell command tailtest could not read, a formatter, a test run, or a tool it does not see), put back to the turn's start (what they held is kept in .tailtest/objects): calc.py.",
    );
    expect(readFileSync(abs("calc.py"), "utf8")).toBe("def add(a, b):\n    return a + b\n");
    expect(await types()).toContain("edit_unattributed");
  });
});

describe("strict mode on a real vitest project", () => {
  it("a greenfield red (the module is missing), a claim, a green; then a revert", async () => {
    project = copyFixtureWithDeps("runners/vitest");
    mkdirSync(abs(".tailtest"));
    writeFileSync(abs(".tailtest/config.json"), JSON.stringify({ mode: "strict" }));
    writeFileSync(
      abs("src/money.test.ts"),
      [
        'import { describe, expect, it } from "vitest";',
        'import { cents } from "./money";',
        "",
        'describe("money", () => {',
        "  // tailtest-id: money-cents",
        '  it("turns euros into cents (1.5 -> 150)", () => {',
        "    expect(cents(1.5)).toBe(150);",
        "  });",
        "});",
        "",
      ].join("\n"),
    );
    const claimed = await claim("money-cents", ["src/money.ts"]);
    expect(claimed).toMatchObject({ ok: true });
    expect(claimed.ok ? claimed.test : undefined).toMatchObject({
      id: "money-cents",
      file: "src/money.test.ts",
      segments: ["money", "turns euros into cents (1.5 -> 150)"],
      source: "annotation",
    });
    expect(
      (
        await write(
          "src/money.ts",
          "export const cents = (euros: number) => Math.round(euros * 100);\n",
        )
      ).kind,
    ).toBe("none");
    const green = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(green.kind === "context" ? green.text : "").toContain("✓ money-cents passes");

    // A second test, claimed by its native id, broken by the edit: reverted.
    writeFileSync(
      abs("src/money.test.ts"),
      `${read("src/money.test.ts").replace("{ cents }", "{ cents, format }")}\ndescribe("money", () => {\n  it("formats cents", () => {\n    expect(format(150)).toBe("1.50");\n  });\n});\n`,
    );
    const second = await claim("src/money.test.ts::money > formats cents", ["src/money.ts"]);
    expect(second).toMatchObject({ ok: true });
    const before = read("src/money.ts");
    const broken = `${before}export const format = (cents: number) => String(cents);\n`;
    expect((await write("src/money.ts", broken)).kind).toBe("none");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    expect(read("src/money.ts")).toBe(before);
    // The unrelated red test of the fixture never ran: one id, one anchored filter.
    const runs = (await events()).filter((event) => event.type === "test_run");
    expect(
      runs.every(
        (event) => event.type === "test_run" && !event.test_id.includes("fails on purpose"),
      ),
    ).toBe(true);
  }, 120_000);
});

describe("strict mode on a real go module", () => {
  it("claims a table test's subtest by its file and path, in a package below the root", async () => {
    project = copyFixtureWithDeps("runners/go");
    mkdirSync(abs(".tailtest"));
    writeFileSync(abs(".tailtest/config.json"), JSON.stringify({ mode: "strict" }));
    mkdirSync(abs("shapes"));
    writeFileSync(
      abs("shapes/area.go"),
      "package shapes\n\nfunc Area(w, h int) int { return w + h }\n",
    );
    writeFileSync(
      abs("shapes/area_test.go"),
      [
        "package shapes_test",
        "",
        'import "testing"',
        "",
        'import "example.com/calc/shapes"',
        "",
        "func TestArea(t *testing.T) {",
        "\tfor _, c := range []struct {",
        "\t\tname       string",
        "\t\tw, h, want int",
        "\t}{",
        '\t\t{"square three", 3, 3, 9},',
        '\t\t{"wide", 3, 1, 3},',
        "\t} {",
        "\t\tt.Run(c.name, func(t *testing.T) {",
        "\t\t\tif got := shapes.Area(c.w, c.h); got != c.want {",
        '\t\t\t\tt.Errorf("Area(%d, %d) = %d, want %d", c.w, c.h, got, c.want)',
        "\t\t\t}",
        "\t\t})",
        "\t}",
        "}",
        "",
      ].join("\n"),
    );
    age(["shapes/area.go", "shapes/area_test.go"]);
    await commitAll(project.root);
    // go names the subtest `TestArea/square_three`; as written it ran no test, and the whole
    // test by its file was "go exited 1 without running a test": the run's ids are folders.
    const subtest = await claim("shapes/area_test.go::TestArea/square_three", ["shapes/area.go"]);
    expect(subtest.ok ? "" : subtest.message).toBe("");
    const whole = await claim("shapes/area_test.go::TestArea", ["shapes/area.go"]);
    expect(whole.ok ? "" : whole.message).toBe("");
    const fixed = "package shapes\n\nfunc Area(w, h int) int { return w * h }\n";
    expect((await write("shapes/area.go", fixed)).kind).toBe("none");
    const green = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(green.kind === "context" ? green.text : "").toContain(
      "✓ shapes/area_test.go::TestArea/square_three passes",
    );
  }, 120_000);
});

describe("a Go program that `//go:build ignore` leaves out of every build (strict)", () => {
  const GEN = "//go:build ignore\n\npackage main\n\nfunc main() { println(1) }\n";

  async function goProject(git: boolean): Promise<void> {
    project = makeProject({
      ".tailtest/config.json": JSON.stringify({ mode: "strict" }),
      "go.mod": "module example.com/calc\n\ngo 1.18\n",
      "calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
      "calc_test.go":
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("add")\n\t}\n}\n',
      "gen.go": GEN,
    });
    if (git) await commitAll(project.root);
    age([".tailtest/config.json", "go.mod", "calc.go", "calc_test.go", "gen.go"]);
  }

  it.each([true, false])(
    "keeps its gated edit at the end of the turn (git: %s)",
    async (git) => {
      await goProject(git);
      await send({ kind: "SessionStarted", sessionId: "s", source: "startup" });
      await send({ kind: "TurnStarted" });
      const edited = GEN.replace("println(1)", "println(2)");
      expect((await write("gen.go", edited)).kind).toBe("none");
      const stop = await send({ kind: "TurnEnded", stopHookActive: false });
      expect(JSON.stringify(stop)).not.toContain("gen.go");
      expect(read("gen.go")).toBe(edited);
    },
    60_000,
  );

  it("puts it back when the turn takes it into the package, or a package file out", async () => {
    await goProject(true);
    await send({ kind: "SessionStarted", sessionId: "s", source: "startup" });
    await send({ kind: "TurnStarted" });
    // Round the gate: the constraint taken out of the program, and written into calc.go.
    writeFileSync(abs("gen.go"), "package calc\n\nfunc Mul(a, b int) int { return a * b }\n");
    writeFileSync(abs("calc.go"), `//go:build ignore\n\n${read("calc.go")}`);
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind === "block" ? stop.reason : "").toContain(
      "put back to the turn's start (what they held is kept in .tailtest/objects): calc.go, gen.go.",
    );
    expect(read("gen.go")).toBe(GEN);
  }, 60_000);
});

describe("the go command's settings under a claim (strict)", () => {
  const saved = process.env.XDG_CONFIG_HOME;
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
  });

  it("a GOFLAGS overlay written by `go env -w` does not verify a claim", async () => {
    project = makeProject({
      ".tailtest/config.json": JSON.stringify({ mode: "strict" }),
      "go.mod": "module example.com/calc\n\ngo 1.18\n",
      "calc.go": "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n",
      "calc_test.go":
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("add")\n\t}\n}\n',
      "config/.keep": "",
      "outside/calc.go": "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n",
    });
    age([".tailtest/config.json", "go.mod", "calc.go", "calc_test.go"]);
    await commitAll(project.root);
    process.env.XDG_CONFIG_HOME = abs("config");
    const claimed = await claim("calc_test.go::TestAdd", ["calc.go"]);
    expect(claimed.ok ? "" : claimed.message).toBe("");
    // What `go env -w GOFLAGS=-overlay=…` writes: the fixed copy is compiled in calc.go's place.
    writeFileSync(
      abs("outside/overlay.json"),
      JSON.stringify({ Replace: { [abs("calc.go")]: abs("outside/calc.go") } }),
    );
    mkdirSync(abs("config/go"));
    writeFileSync(abs("config/go/env"), `GOFLAGS=-overlay=${abs("outside/overlay.json")}\n`);
    const comment = read("calc.go").replace("// Add adds.", "// Add adds two ints.");
    const gate = await write("calc.go", comment);
    expect(gate.kind === "deny" ? gate.reason : "").toContain("`go env -w` writes");
    writeFileSync(abs("calc.go"), comment);
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(JSON.stringify(stop)).not.toContain("is green");
    expect(stop.kind).toBe("block");
    expect(read("calc.go")).toContain("a - b");
  }, 120_000);
});
