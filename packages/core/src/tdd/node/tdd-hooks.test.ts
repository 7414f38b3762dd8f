import { readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { commitAll, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import { declareGreen, declareRed } from "../declare.ts";
import { deriveTddState } from "../tdd-state.ts";
import { handleEvent } from "../../hook/node/handle-event.ts";
import { openProject } from "../../project/node/project.ts";
import { agentKey, declareTddEntry, readTddEntries, TDD_KEY_ENV, tddLogPath } from "./tdd-store.ts";

/**
 * tdd mode through `handleEvent`, on a real pytest project: the gate before edits and shell
 * writes, test runs measured by running the cycle's test, subagent logs, the end-of-turn sweep
 * and the fail-closed rule. The adapters' own tests drive the same through the built bins.
 */

const SESSION = "sess-1";
const identity = { sessionId: SESSION, transcriptPath: "/tmp/transcript.jsonl" };
// Real time, one step forward per event: the sweep compares it with real file times.
let clock = Date.now();
const now = () => new Date(clock);

let project: TempProject;

function config(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ mode: "tdd", ...extra });
}

beforeEach(() => {
  clock = Date.now();
  project = makeProject({
    ".tailtest/config.json": config(),
    "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
  });
});

beforeEach(() => {
  // The project existed before the session: its files are not this turn's changes.
  const old = (Date.now() - 3_600_000) / 1000;
  for (const file of [".tailtest/config.json", "pytest.ini", "calc.py", "tests/test_calc.py"])
    utimesSync(join(project.root, file), old, old);
});

afterEach(() => project.cleanup());

async function send(event: HookEvent): Promise<Decision> {
  clock = Math.max(clock + 1, Date.now());
  return handleEvent(openProject(project.root), event, { platform: "claude-code", now, identity });
}

const abs = (rel: string) => join(project.root, rel);

async function red(test: string, expects = "test_mul fails: no mul", agentId?: string) {
  const key = agentKey({ ...identity, agentId });
  const at = new Date(clock).toISOString();
  const done = await declareTddEntry(project.root, key, (entries) =>
    declareRed(entries, { test, expects }, at),
  );
  expect(done.declared.ok).toBe(true);
}

async function green(files: string[], skipRed?: "refactoring") {
  const key = agentKey(identity);
  const at = new Date(clock).toISOString();
  const done = await declareTddEntry(project.root, key, (entries) =>
    declareGreen(
      entries,
      {
        change: "add mul",
        files,
        ...(skipRed === undefined ? {} : { skipRed: true, reason: skipRed }),
      },
      at,
    ),
  );
  expect(done.declared).toMatchObject({ ok: true });
}

async function stateOf(agentId?: string) {
  const { entries } = await readTddEntries(project.root, agentKey({ ...identity, agentId }));
  return deriveTddState(entries);
}

const pytest = (file = "tests/test_calc.py") => `python3 -m pytest ${file}`;

describe("the gate before edits", () => {
  it("denies production code with no cycle open, naming the next commands", async () => {
    const decision = await send({ kind: "EditRequested", paths: [abs("calc.py")] });
    expect(decision.kind).toBe("deny");
    const reason = (decision as { reason: string }).reason;
    expect(reason).toContain("calc.py is blocked");
    expect(reason).toContain("tailtest red --test");
    expect(reason).toContain("tailtest green --skip-red --reason refactoring");
  });

  it("leaves files that are neither tests nor production code alone, and files outside", async () => {
    expect(await send({ kind: "EditRequested", paths: [abs("README.md")] })).toEqual({
      kind: "none",
    });
    expect(await send({ kind: "EditRequested", paths: ["/elsewhere/x.py"] })).toEqual({
      kind: "none",
    });
  });

  it("never lets the agent edit tailtest's own state, in any state", async () => {
    await red("tests/test_calc.py");
    for (const path of [
      ".tailtest/config.json",
      ".tailtest/events.jsonl",
      ".claude/settings.json",
    ]) {
      const decision = await send({ kind: "EditRequested", paths: [abs(path)] });
      expect(decision.kind, path).toBe("deny");
    }
  });

  it("records every gated decision in the agent's log", async () => {
    await send({ kind: "EditRequested", paths: [abs("calc.py")] });
    const log = readFileSync(join(project.root, tddLogPath(agentKey(identity))), "utf8");
    expect(log).toMatch(/\[edit\] calc\.py \(prod\) state=initial - BLOCKED/);
  });

  it("gates a deletion like an edit", async () => {
    const decision = await send({ kind: "EditRequested", paths: [], deleted: [abs("calc.py")] });
    expect(decision.kind).toBe("deny");
  });

  it("warns the agent when the Green declares more than five files", async () => {
    const files = ["a.py", "b.py", "c.py", "d.py", "e.py", "calc.py"];
    await green(files, "refactoring");
    const decision = await send({ kind: "EditRequested", paths: [abs("calc.py")] });
    expect(decision.kind).toBe("context");
    expect((decision as { text: string }).text).toContain("declares 6 files");
  });
});

describe("the gate before shell commands", () => {
  it("denies a redirect, sed -i and a heredoc into production code", async () => {
    for (const command of [
      "echo 'x = 1' >> calc.py",
      "sed -i 's/a + b/a - b/' calc.py",
      "cat > calc.py <<'EOF'\nx = 1\nEOF",
      "cp calc.py calc2.py",
    ]) {
      const decision = await send({ kind: "CommandRequested", command, cwd: project.root });
      expect(decision.kind, command).toBe("deny");
    }
  });

  it("lets commands that write nothing gated run", async () => {
    for (const command of ["ls -la", pytest(), "echo hi > notes.txt", "git status"]) {
      const decision = await send({ kind: "CommandRequested", command, cwd: project.root });
      expect(decision, command).toEqual({ kind: "none" });
    }
  });

  it("refuses the installers, which could switch the mode off", async () => {
    for (const command of [
      "npx tailtest-claude-code init --mode follow",
      "node node_modules/@tailtest/codex/dist/cli.js uninstall",
    ]) {
      const decision = await send({ kind: "CommandRequested", command });
      expect(decision.kind, command).toBe("deny");
    }
  });

  it("refuses a shell write into tailtest's state", async () => {
    const decision = await send({ kind: "CommandRequested", command: "rm -rf .tailtest/tdd" });
    expect(decision.kind).toBe("deny");
  });
});

describe("test runs, measured", () => {
  it("confirms a Red only after tailtest ran the declared test and saw it fail", async () => {
    await red("tests/test_mul.py");
    project.write(
      "tests/test_mul.py",
      "from calc import add\n\n\ndef test_mul():\n    assert add(2, 3) == 6\n",
    );
    // The agent's command ran something else; tailtest runs the declared test itself.
    const decision = await send({ kind: "CommandFinished", command: "python3 -m pytest -q" });
    expect(decision.kind).toBe("context");
    expect((decision as { text: string }).text).toContain("Red confirmed");
    expect((await stateOf()).state).toBe("red");
    const run = (await stateOf()).lastTest;
    expect(run).toMatchObject({ outcome: "failed", real_failure: true });
    expect(run?.failed_tests?.[0]).toContain("test_mul");
  });

  it("a missing name imported by the test counts as a Red (the usual first failure)", async () => {
    await red("tests/test_mul.py");
    project.write(
      "tests/test_mul.py",
      "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n",
    );
    await send({ kind: "CommandFinished", command: pytest("tests/test_mul.py"), failed: true });
    expect((await stateOf()).state).toBe("red");
  });

  it("a syntax error in the test is not a Red", async () => {
    await red("tests/test_mul.py");
    project.write("tests/test_mul.py", "def test_mul(:\n    assert True\n");
    const decision = await send({
      kind: "CommandFinished",
      command: pytest("tests/test_mul.py"),
      failed: true,
    });
    expect((decision as { text: string }).text).toContain("not a Red yet");
    expect((await stateOf()).state).toBe("writing_tests");
  });

  it("the platform's own failure is not believed when the declared test passes", async () => {
    await red("tests/test_calc.py");
    await send({ kind: "CommandFinished", command: pytest(), failed: true });
    expect((await stateOf()).state).toBe("writing_tests");
  });

  it("a named test must be the one that fails", async () => {
    project.write(
      "tests/test_two.py",
      "def test_a():\n    assert False\n\n\ndef test_b():\n    assert True\n",
    );
    await red("tests/test_two.py::test_b");
    const decision = await send({ kind: "CommandFinished", command: pytest("tests/test_two.py") });
    expect((decision as { text: string }).text).toContain("not the declared one");
    expect((await stateOf()).state).toBe("writing_tests");
  });

  it("walks a whole Red → Green → Refactor cycle", async () => {
    await red("tests/test_mul.py");
    expect((await send({ kind: "EditRequested", paths: [abs("tests/test_mul.py")] })).kind).toBe(
      "none",
    );
    expect((await send({ kind: "EditRequested", paths: [abs("calc.py")] })).kind).toBe("deny");
    project.write(
      "tests/test_mul.py",
      "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n",
    );
    await send({ kind: "CommandFinished", command: "cd tests && python3 -m pytest test_mul.py" });
    expect((await stateOf()).state).toBe("red");
    expect((await send({ kind: "EditRequested", paths: [abs("calc.py")] })).kind).toBe("deny");
    await green(["calc.py"]);
    expect((await send({ kind: "EditRequested", paths: [abs("calc.py")] })).kind).toBe("none");
    expect((await send({ kind: "EditRequested", paths: [abs("tests/test_mul.py")] })).kind).toBe(
      "deny",
    );
    project.write(
      "calc.py",
      "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
    );
    const passed = await send({ kind: "CommandFinished", command: pytest() });
    expect((passed as { text: string }).text).toContain("the cycle is complete");
    const done = await stateOf();
    expect(done).toMatchObject({ state: "initial", cycleComplete: true, allowlist: [] });
    // Refactor: a skip-red Green, measured through the tests of its files.
    await green(["calc.py"], "refactoring");
    expect((await send({ kind: "EditRequested", paths: [abs("calc.py")] })).kind).toBe("none");
    await send({ kind: "CommandFinished", command: "pytest" });
    expect((await stateOf()).state).toBe("initial");
  });

  it("ignores commands that are not test runs, and end-to-end runs", async () => {
    await red("tests/test_calc.py");
    expect(await send({ kind: "CommandFinished", command: "ls" })).toEqual({ kind: "none" });
    project.write("package.json", JSON.stringify({ scripts: { "test:e2e": "playwright test" } }));
    expect(await send({ kind: "CommandFinished", command: "npm run test:e2e" })).toEqual({
      kind: "none",
    });
    expect((await stateOf()).lastTest).toBeUndefined();
  });

  it("with no cycle open, only a reported outcome is recorded", async () => {
    const unknown = await send({ kind: "CommandFinished", command: pytest() });
    expect((unknown as { text: string }).text).toContain("could not measure");
    await send({ kind: "CommandFinished", command: pytest(), failed: false });
    expect((await stateOf()).lastTest?.outcome).toBe("passed");
  });
});

describe("sessions and subagents", () => {
  it("the session note gives the cycle and copy-paste commands, and the key for the env", async () => {
    const envFile = project.write("env.sh", "");
    const decision = await send({
      kind: "SessionStarted",
      sessionId: SESSION,
      source: "startup",
      envFile,
    });
    expect(decision.kind).toBe("context");
    const { text, env } = decision as { text: string; env: Record<string, string> };
    expect(text).toContain("Red → Green → Refactor is enforced");
    expect(text).toContain("tailtest red --test");
    expect(env).toEqual({ [TDD_KEY_ENV]: SESSION });
    expect(readFileSync(envFile, "utf8")).toBe(`export ${TDD_KEY_ENV}=${SESSION}\n`);
  });

  it("a subagent has its own log, told to it with --agent, closed at its stop", async () => {
    const start = await send({ kind: "SubagentStarted", agentId: "ag-7" });
    expect((start as { text: string }).text).toContain("tailtest red --agent ag-7 --test");
    await red("tests/test_calc.py", "x", "ag-7");
    // The subagent may write tests; the main agent, with no cycle, may not.
    expect(
      (await send({ kind: "EditRequested", paths: [abs("tests/test_x.py")], agentId: "ag-7" }))
        .kind,
    ).toBe("none");
    const main = await send({ kind: "EditRequested", paths: [abs("tests/test_x.py")] });
    expect(main.kind).toBe("deny");
    const denied = await send({ kind: "EditRequested", paths: [abs("calc.py")], agentId: "ag-7" });
    expect((denied as { reason: string }).reason).toContain("tailtest green --agent ag-7");
    await send({ kind: "TurnEnded", stopHookActive: false, agentId: "ag-7" });
    expect((await stateOf("ag-7")).finished).toBe(true);
    expect(
      (await send({ kind: "EditRequested", paths: [abs("tests/test_x.py")], agentId: "ag-7" }))
        .kind,
    ).toBe("deny");
  });
});

describe("the end-of-turn sweep", () => {
  it("reports production code changed behind the gate, once", async () => {
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    project.write("calc.py", "def add(a, b):\n    return b + a\n");
    const first = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(first.kind).toBe("block");
    expect((first as { reason: string }).reason).toContain("- calc.py");
    const again = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(again).toEqual({ kind: "none" });
  });

  it("does not report a change the gate allowed, and tells the person when the stop hook is active", async () => {
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    await green(["calc.py"], "refactoring");
    await send({ kind: "EditRequested", paths: [abs("calc.py")] });
    project.write("calc.py", "def add(a, b):\n    return b + a\n");
    await send({ kind: "FilesEdited", paths: [abs("calc.py")] });
    project.write("other.py", "x = 1\n");
    const decision = await send({ kind: "TurnEnded", stopHookActive: true });
    expect(decision.kind).toBe("context");
    expect((decision as { text: string }).text).toContain("- other.py");
    expect((decision as { text: string }).text).not.toContain("- calc.py");
  });

  it("a subagent's allowed edit does not cover the main agent's write to the same file after it", async () => {
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    await send({ kind: "SubagentStarted", agentId: "ag-7" });
    await red("tests/test_calc.py", "test_mul fails: no mul", "ag-7");
    // The subagent's own cycle lets it write the test; its edit is recorded after the tool ran.
    const allowed = await send({
      kind: "EditRequested",
      paths: [abs("tests/test_calc.py")],
      agentId: "ag-7",
    });
    expect(allowed.kind).toBe("none");
    project.write("tests/test_calc.py", "def test_mul():\n    assert False\n");
    await send({ kind: "FilesEdited", paths: [abs("tests/test_calc.py")], agentId: "ag-7" });
    await send({ kind: "TurnEnded", stopHookActive: false, agentId: "ag-7" });
    // The main agent has no cycle: its write goes round the gate (a script, say).
    project.write("tests/test_calc.py", "def test_mul():\n    assert True\n");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    expect((stop as { reason: string }).reason).toContain(
      "- tests/test_calc.py (changed again after its gated edit)",
    );
  });

  it("a write after a gate that timed out is reported, though the gate allowed the one before", async () => {
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    await green(["calc.py"], "refactoring");
    await send({ kind: "EditRequested", paths: [abs("calc.py")] });
    project.write("calc.py", "def add(a, b):\n    return b + a\n");
    await send({ kind: "FilesEdited", paths: [abs("calc.py")] });
    // The next edit's gate never answered (the platform timed it out and let the tool run);
    // its post-tool hook still comes.
    project.write("calc.py", "def add(a, b):\n    return a - b\n");
    await send({ kind: "FilesEdited", paths: [abs("calc.py")] });
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    expect((stop as { reason: string }).reason).toContain(
      "- calc.py (changed again after its gated edit)",
    );
  });

  it("says every turn's production edits under a --skip-red Green, with its reason", async () => {
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    await green(["calc.py"], "refactoring");
    await send({ kind: "EditRequested", paths: [abs("calc.py")] });
    project.write("calc.py", "def add(a, b):\n    return b + a\n");
    await send({ kind: "FilesEdited", paths: [abs("calc.py")] });
    expect(await send({ kind: "TurnEnded", stopHookActive: false })).toEqual({
      kind: "context",
      text: "tailtest tdd: production code changed this turn with no failing test first (tailtest green --skip-red, reason: refactoring): calc.py.",
    });
    // A turn with no edit under it says nothing.
    expect(await send({ kind: "TurnEnded", stopHookActive: false })).toEqual({ kind: "none" });
  });

  it("ignores files changed before the session started", async () => {
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    expect(await send({ kind: "TurnEnded", stopHookActive: false })).toEqual({ kind: "none" });
  });
});

describe("a Go program that `//go:build ignore` leaves out of every build", () => {
  const GEN = "//go:build ignore\n\npackage main\n\nfunc main() { println(1) }\n";

  function existing(rel: string, content: string) {
    project.write(rel, content);
    const old = (Date.now() - 3_600_000) / 1000;
    utimesSync(abs(rel), old, old);
  }

  it("is not gated as production: no test compiles it, so no Red can come first", async () => {
    existing("gen.go", GEN);
    existing("calc.go", "package calc\n\nfunc Add(a, b int) int { return a + b }\n");
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    expect((await send({ kind: "EditRequested", paths: [abs("gen.go")] })).kind).not.toBe("deny");
    expect((await send({ kind: "EditRequested", paths: [abs("calc.go")] })).kind).toBe("deny");
    project.write("gen.go", GEN.replace("println(1)", "println(2)"));
    await send({ kind: "FilesEdited", paths: [abs("gen.go")] });
    const end = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(JSON.stringify(end)).not.toContain("gen.go");
  });

  it("an allowed edit that takes the constraint out is reported at the end of the turn", async () => {
    existing("gen.go", GEN);
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    expect((await send({ kind: "EditRequested", paths: [abs("gen.go")] })).kind).not.toBe("deny");
    project.write("gen.go", "package calc\n\nfunc Mul(a, b int) int { return a * b }\n");
    await send({ kind: "FilesEdited", paths: [abs("gen.go")] });
    const end = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(end.kind).toBe("block");
    expect((end as { reason: string }).reason).toContain("- gen.go");
  });

  it("writing the constraint into a package's file is gated as production", async () => {
    existing("calc.go", "package calc\n\nfunc Add(a, b int) int { return a + b }\n");
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    expect((await send({ kind: "EditRequested", paths: [abs("calc.go")] })).kind).toBe("deny");
  });

  it("a file the module's Go version leaves out is not gated; a later version's is", async () => {
    existing("go.mod", "module example.com/calc\n\ngo 1.18\n");
    existing(
      "slices_old.go",
      "//go:build !go1.18\n\npackage calc\n\nfunc Max(a, b int) int { return a }\n",
    );
    existing(
      "slices_new.go",
      "//go:build go1.21\n\npackage calc\n\nfunc Min(a, b int) int { return a }\n",
    );
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    const old = await send({ kind: "EditRequested", paths: [abs("slices_old.go")] });
    expect(old.kind).not.toBe("deny");
    const later = await send({ kind: "EditRequested", paths: [abs("slices_new.go")] });
    expect(later.kind).toBe("deny");
  });

  it("a shell write to it, which stays out of every build, is not reported", async () => {
    existing("gen.go", GEN);
    await commitAll(project.root);
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    await send({ kind: "TurnStarted" });
    project.write("gen.go", GEN.replace("println(1)", "println(3)"));
    await send({ kind: "CommandFinished", command: "go run gen.go > /dev/null" });
    const end = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(JSON.stringify(end)).not.toContain("gen.go");
  });
});

describe("the turn's tests", () => {
  const MUL_TEST = "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n";

  async function confirmedRed(): Promise<void> {
    await send({ kind: "SessionStarted", sessionId: SESSION, source: "startup" });
    await red("tests/test_mul.py::test_mul");
    await send({ kind: "EditRequested", paths: [abs("tests/test_mul.py")] });
    project.write("tests/test_mul.py", MUL_TEST);
    await send({ kind: "FilesEdited", paths: [abs("tests/test_mul.py")] });
    await send({ kind: "CommandFinished", command: pytest("tests/test_mul.py"), failed: true });
    expect((await stateOf()).state).toBe("red");
  }

  async function greenEdit(content: string): Promise<void> {
    await green(["calc.py"]);
    expect((await send({ kind: "EditRequested", paths: [abs("calc.py")] })).kind).toBe("none");
    project.write("calc.py", content);
    await send({ kind: "FilesEdited", paths: [abs("calc.py")] });
  }

  it("lets a turn end on its declared Red, which is expected to fail", async () => {
    await confirmedRed();
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).not.toBe("block");
    // The person is told the Red is the one the mode expects: not a red test, not a crashed run.
    expect(stop.userMessage).toMatch(/^tailtest: .*1 expected failure \(/);
    expect(stop.userMessage).not.toMatch(/did not finish|failed/);
  });

  it("blocks a Green's edit that makes its test pass but breaks another, naming that test", async () => {
    await confirmedRed();
    await greenEdit("def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    const reason = (stop as { reason: string }).reason;
    expect(reason).toContain("test_add");
    expect(reason).not.toContain("test_mul.py::test_mul FAILED");
    expect(reason).toContain("In tdd mode a fix is a cycle");
  });

  it("blocks a Green whose declared test still fails after the production edit", async () => {
    await confirmedRed();
    await greenEdit("def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a + b\n");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).toBe("block");
    expect((stop as { reason: string }).reason).toContain("test_mul");
    // The stop hook's own budget ends it: the next stop after a block does not loop for ever.
    let last: Decision = stop;
    for (let round = 0; round < 5 && last.kind === "block"; round += 1)
      last = await send({ kind: "TurnEnded", stopHookActive: true });
    expect(last.kind).not.toBe("block");
  });

  it("says nothing more when the Green's edit passes every test", async () => {
    await confirmedRed();
    await greenEdit("def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n");
    const stop = await send({ kind: "TurnEnded", stopHookActive: false });
    expect(stop.kind).not.toBe("block");
  });
});

describe("failure policy", () => {
  it("fails closed on a gate event when tdd mode cannot decide", async () => {
    // A directory where the events file should be makes every read fail.
    project.write(".tailtest/events.jsonl/x", "");
    const decision = await send({ kind: "EditRequested", paths: [abs("calc.py")] });
    expect(decision.kind).toBe("deny");
    expect((decision as { reason: string }).reason).toContain("could not decide");
  });

  it("follow mode answers nothing to the gate events", async () => {
    project.write(".tailtest/config.json", JSON.stringify({ mode: "follow" }));
    expect(await send({ kind: "EditRequested", paths: [abs("calc.py")] })).toEqual({
      kind: "none",
    });
    expect(await send({ kind: "CommandRequested", command: "echo x > calc.py" })).toEqual({
      kind: "none",
    });
  });
});

describe("plan review", () => {
  it("refuses the first plan of a session with the checklist and the review, then accepts", async () => {
    const stub = [process.execPath, "-e", "console.log('REVIEW: ' + process.argv.at(-1).length)"];
    project.write(
      ".tailtest/config.json",
      config({ tdd: { plan_review: { command: stub, timeout_seconds: 30 } } }),
    );
    const first = await send({ kind: "PlanSubmitted", plan: "1. add mul" });
    expect(first.kind).toBe("deny");
    expect((first as { reason: string }).reason).toContain("REVIEW: ");
    expect(await send({ kind: "PlanSubmitted", plan: "1. add mul" })).toEqual({ kind: "none" });
  });
});

describe("the commands the agent is given", () => {
  it("go through npx when tailtest is installed in the project", async () => {
    project.write("node_modules/.bin/tailtest", "#!/bin/sh\n");
    const decision = await send({ kind: "EditRequested", paths: [abs("calc.py")] });
    const reason = (decision as { reason: string }).reason;
    expect(reason).toContain("npx tailtest red --test");
    expect(reason).not.toMatch(/(^|[^x] )tailtest red/m);
  });
});
