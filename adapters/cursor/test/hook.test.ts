import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { copyFixture, REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import { stateLogFiles } from "@tailtest/test-utils/state-lines";
import { afterEach, describe, expect, it } from "vitest";
import { loadPayload, PAYLOAD_FILES, writtenFile } from "./payloads.ts";

const BIN = join(REPO_ROOT, "adapters/cursor/dist/hook.cjs");
const BILLING = "def charge(amount):\n    return round(amount * 1.2, 2)\n";
const QUEUED_NOTE =
  "tailtest: src/billing.py queued (new, python). write test to tests/test_billing.py. runner: pytest.";

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

/** The output keys Cursor reads per event (its hook protocol); anything else is a bug. */
const DOCUMENTED: Record<string, ReadonlySet<string>> = {
  sessionStart: new Set(["env", "additional_context", "continue", "user_message"]),
  beforeSubmitPrompt: new Set(["continue", "user_message", "additional_context"]),
  preToolUse: new Set([
    "permission",
    "user_message",
    "agent_message",
    "updated_input",
    "additional_context",
  ]),
  postToolUse: new Set(["additional_context"]),
  afterFileEdit: new Set(),
  subagentStart: new Set(["permission", "user_message"]),
  subagentStop: new Set(["followup_message"]),
  stop: new Set(["followup_message"]),
  sessionEnd: new Set(),
};

function expectProtocolOutput(stdout: string, event: string): Record<string, unknown> {
  expect(stdout, "Cursor counts an empty stdout as a failed hook").not.toBe("");
  const json = JSON.parse(stdout) as Record<string, unknown>;
  expect(typeof json === "object" && json !== null && !Array.isArray(json)).toBe(true);
  const allowed = DOCUMENTED[event];
  expect(allowed, `an event the fixtures use: ${event}`).toBeDefined();
  for (const key of Object.keys(json)) expect(allowed?.has(key), `${event}: ${key}`).toBe(true);
  return json;
}

/** What each payload gets on its own, in a fresh copy of the pytest fixture holding billing.py. */
const EXPECTED: Record<string, (output: Record<string, unknown>) => void> = {
  "aborted.stop.json": (output) => expect(output).toEqual({}),
  "delete.postToolUse-Delete.json": (output) => expect(output).toEqual({}),
  "edit.afterFileEdit.json": (output) => expect(output).toEqual({}),
  "edit.afterFileEdit-2.json": (output) => expect(output).toEqual({}),
  "edit.afterFileEdit-3.json": (output) => expect(output).toEqual({}),
  "edit.beforeSubmitPrompt.json": (output) => expect(output).toEqual({}),
  "edit.beforeSubmitPrompt-2.json": (output) => expect(output).toEqual({}),
  "edit.postToolUse-Write.json": (output) =>
    expect(output).toEqual({ additional_context: QUEUED_NOTE }),
  // A test file is not queued: there is nothing to say.
  "edit.postToolUse-Write-2.json": (output) => expect(output).toEqual({}),
  "edit.postToolUse-Write-3.json": (output) =>
    expect(output).toEqual({ additional_context: QUEUED_NOTE }),
  "edit.sessionEnd.json": (output) => expect(output).toEqual({}),
  "edit.sessionStart.json": (output) =>
    expect(output["additional_context"]).toMatch(
      /^tailtest: session started\. Runners: python: pytest/,
    ),
  // Nothing was queued before these, so there is nothing to run.
  "edit.stop.json": (output) => expect(output).toEqual({}),
  "edit.stop-2.json": (output) => expect(output).toEqual({}),
  "edit.stop-3.json": (output) => expect(output).toEqual({}),
  // A shell command that writes no file queues nothing.
  "shell.postToolUse-Shell.json": (output) => expect(output).toEqual({}),
  // The gate and the subagent logs are tdd mode's (test/tdd.test.ts): follow mode has no opinion.
  "gate.preToolUse-Write.json": (output) => expect(output).toEqual({}),
  "gate.preToolUse-Delete.json": (output) => expect(output).toEqual({}),
  "gate.preToolUse-Shell.json": (output) => expect(output).toEqual({}),
  "subagent.subagentStart.json": (output) => expect(output).toEqual({}),
  // The subagent queued nothing of its own, so there is nothing to run.
  "subagent.subagentStop.json": (output) => expect(output).toEqual({}),
};

/**
 * A lock on Cursor's session that is stale but cannot be cleared (a folder with something in
 * it): taking it fails at once, so every session write fails.
 */
function jamSession(root: string): void {
  const lock = join(root, ".tailtest/cursor-session.json.lock");
  mkdirSync(join(lock, "jam"), { recursive: true });
  const old = new Date("2000-01-01T00:00:00Z");
  utimesSync(lock, old, old);
}

describe("cursor hook bin with the synthetic Cursor payloads", () => {
  it("has an expectation for every payload file", () => {
    expect(existsSync(BIN), "run the build first (pnpm test does)").toBe(true);
    expect(PAYLOAD_FILES).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(PAYLOAD_FILES)(
    "%s is answered per the protocol",
    async (name) => {
      project = copyFixture("runners/pytest-pyproject");
      project.write("src/billing.py", BILLING);
      const { stdin, env } = loadPayload(name, project.root);
      const file = writtenFile(stdin);
      if (file !== undefined) {
        mkdirSync(dirname(file.path), { recursive: true });
        writeFileSync(file.path, file.content);
      }
      const result = await runBin(BIN, [], { input: JSON.stringify(stdin), env });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe("");
      expect(result.stdout).not.toContain(project.root);
      expect(result.stdout).not.toContain(REPO_ROOT);
      const output = expectProtocolOutput(result.stdout, stdin.hook_event_name);
      EXPECTED[name]?.(output);
      // State, when there is any, is Cursor's per-platform session file, not .tailtest/session.json.
      expect(existsSync(join(project.root, ".tailtest/session.json"))).toBe(false);
    },
    60_000,
  );

  it("an internal error in follow mode: exit 0, {}, one line on stderr, no stack trace", async () => {
    project = copyFixture("runners/pytest-pyproject");
    jamSession(project.root);
    const { stdin, env } = loadPayload("edit.sessionStart.json", project.root);
    const result = await runBin(BIN, [], { input: JSON.stringify(stdin), env });
    expect(result).toMatchObject({ exitCode: 0, stdout: "{}" });
    expect(result.stderr).toMatch(/^tailtest: internal error, skipped this hook: [^\n]+$/);
  });
});

describe("cursor hook bin: internal errors in tdd and strict modes (ADR 0002)", () => {
  const NOT_CHECKED =
    /^tailtest could not check this \(internal error: [^\n]+\)\. In (tdd|strict) mode it does not let unchecked work through; fix the cause, or ask the person to set "mode": "follow" in \.tailtest\/config\.json\.$/;

  /** A pytest project in the given mode whose Cursor session has started. */
  async function started(mode: string): Promise<TempProject> {
    project = copyFixture("runners/pytest-pyproject");
    project.write(".tailtest/config.json", JSON.stringify({ mode }));
    await fire("edit.sessionStart.json");
    expect(existsSync(join(project.root, ".tailtest/cursor-session.json"))).toBe(true);
    return project;
  }

  /** The session's lock jammed after the session began: every state write fails. */
  function breakState(broken: TempProject): void {
    jamSession(broken.root);
  }

  /**
   * The shared event log became a folder, and tailtest's copy of it that the gates read
   * (state-copy.ts): every strict-mode read and append fails.
   */
  function breakLog(broken: TempProject): void {
    for (const file of stateLogFiles(broken.root)) {
      rmSync(file, { force: true });
      mkdirSync(file);
    }
  }

  async function fire(name: string, change: object = {}, extraEnv: Record<string, string> = {}) {
    if (project === undefined) throw new Error("no project");
    const { stdin, env } = loadPayload(name, project.root);
    const input = JSON.stringify({ ...stdin, ...change });
    const result = await runBin(BIN, [], { input, env: { ...env, ...extraEnv } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(project.root);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    return { ...result, output: JSON.parse(result.stdout) as Record<string, string> };
  }

  // strict mode's stop, its event log unreadable, is the policy suite's (test/policy.test.ts).
  it.each(["tdd"])(
    "%s mode: stop sends the agent back once; with loop_count > 0 it fails open with one line",
    async (mode) => {
      const broken = await started(mode);
      // tdd's stop records its sweep in the session state, which cannot be written.
      breakState(broken);
      const stop = await fire("edit.stop.json", { loop_count: 0 });
      expect(Object.keys(stop.output)).toEqual(["followup_message"]);
      expect(stop.output["followup_message"]).toMatch(NOT_CHECKED);
      expect(stop.output["followup_message"]).toContain(`In ${mode} mode`);
      expect(stop.stderr).toMatch(
        new RegExp(`^tailtest: internal error in ${mode} mode, not letting it through: [^\\n]+$`),
      );
      const again = await fire("edit.stop.json", { loop_count: 1 });
      expect(again.output).toEqual({});
      expect(again.stderr).toMatch(/^tailtest: internal error, skipped this hook: [^\n]+$/);
    },
    60_000,
  );

  it("strict mode: a postToolUse Write tells the agent its change was not checked; sessionEnd fails open", async () => {
    const broken = await started("strict");
    // The edit is logged in the event log; sessionEnd writes the session state: both fail.
    breakLog(broken);
    breakState(broken);
    broken.write("src/billing.py", BILLING);
    const result = await fire("edit.postToolUse-Write.json");
    expect(Object.keys(result.output)).toEqual(["additional_context"]);
    expect(result.output["additional_context"]).toMatch(NOT_CHECKED);
    expect(result.output["additional_context"]).toContain("In strict mode");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    const end = await fire("edit.sessionEnd.json");
    expect(end.output).toEqual({});
    expect(end.stderr).toMatch(/^tailtest: internal error, skipped this hook: [^\n]+$/);
  });

  it("follow mode: the same postToolUse and stop fail open with one line", async () => {
    const broken = await started("follow");
    broken.write("src/billing.py", BILLING);
    broken.write("tests/test_billing.py", "def test_charge():\n    assert True\n");
    await fire("edit.postToolUse-Write.json");
    const stop = await fire("edit.stop.json", {}, { TMPDIR: join(broken.root, "no-such-folder") });
    expect(stop.output).toEqual({});
    expect(stop.stderr).toMatch(/^tailtest: internal error, skipped this hook: [^\n]+$/);
    // A queued edit appends to the session's journal without the lock: a jammed lock alone no
    // longer stops it, so the journal cannot be written either.
    breakState(broken);
    rmSync(join(broken.root, ".tailtest/cursor-session.edits.jsonl"), { force: true });
    mkdirSync(join(broken.root, ".tailtest/cursor-session.edits.jsonl"));
    broken.write("src/billing.py", `${BILLING}# changed\n`);
    const edit = await fire("edit.postToolUse-Write.json");
    expect(edit.output).toEqual({});
    expect(edit.stderr).toMatch(/^tailtest: internal error, skipped this hook: [^\n]+$/);
  });
});
