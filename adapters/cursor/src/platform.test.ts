import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { copyFixture, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { handleEvent, runHook, type HookIO } from "@tailtest/core/node/hook";
import { CURSOR_SESSION_PATH } from "./paths.ts";
import { PLATFORM } from "./platform.ts";

/** One Cursor hook call through core's hook call, answered by `handleEvent`. */
const runCursorHook = (io: HookIO) => runHook(PLATFORM, io, handleEvent);

const projects: TempProject[] = [];
const savedEnv = { HOME: process.env["HOME"], TMPDIR: process.env["TMPDIR"] };
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

function track(project: TempProject): TempProject {
  projects.push(project);
  return project;
}

const payload = (event: string, extra: object = {}, roots?: string[]) =>
  JSON.stringify({
    conversation_id: "c1",
    hook_event_name: event,
    cursor_version: "2.1.50",
    ...(roots === undefined ? {} : { workspace_roots: roots }),
    ...extra,
  });

const write = (file: string) => ({ tool_name: "Write", tool_input: { file_path: file } });

describe("runCursorHook: where the project is", () => {
  it.each([
    { name: "CURSOR_PROJECT_DIR first", env: "a", roots: ["b"], expected: "a" },
    { name: "else the first workspace root", env: undefined, roots: ["b", "c"], expected: "b" },
    { name: "else the hook's working folder", env: undefined, roots: undefined, expected: "c" },
    { name: "an empty CURSOR_PROJECT_DIR counts as unset", env: "", roots: ["b"], expected: "b" },
  ])("$name", async ({ env, roots, expected }) => {
    const { root } = track(makeProject({ "a/x": "", "b/x": "", "c/x": "" }));
    const at = (dir: string) => join(root, dir);
    const result = await runCursorHook({
      stdin: payload("sessionStart", {}, roots?.map(at)),
      env: env === undefined ? {} : { CURSOR_PROJECT_DIR: env === "" ? "" : at(env) },
      cwd: at("c"),
    });
    expect(result).toMatchObject({ stderr: "", exitCode: 0 });
    expect(JSON.parse(result.stdout)).toHaveProperty("additional_context");
    for (const dir of ["a", "b", "c"]) {
      expect(existsSync(join(at(dir), CURSOR_SESSION_PATH)), dir).toBe(dir === expected);
    }
    expect(existsSync(join(at(expected), ".tailtest/session.json"))).toBe(false);
  });
});

describe("runCursorHook: no opinion", () => {
  it.each([
    ["not JSON", "{oops", /^tailtest: ignored a hook call: stdin is not JSON\n$/],
    ["empty", "", /^tailtest: ignored a hook call: stdin is not JSON\n$/],
    [
      "wrong types",
      payload("stop", { loop_count: "0" }),
      /^tailtest: ignored a hook call: payload field "loop_count": .+\n$/,
    ],
    ["an event tailtest ignores", payload("beforeSubmitPrompt", { prompt: "hi" }), /^$/],
    ["a tool tailtest ignores", payload("postToolUse", { tool_name: "Grep" }), /^$/],
  ])("%s: {} on stdout, exit 0", async (_name, stdin, stderr) => {
    const { root } = track(makeProject());
    const result = await runCursorHook({ stdin, env: {}, cwd: root });
    expect(result.stdout).toBe("{}\n");
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(stderr);
    for (const dir of [".cursor", ".tailtest"])
      expect(existsSync(join(root, dir)), `nothing was written: ${dir}`).toBe(false);
  });
});

describe("runCursorHook: a session where earlier versions kept it", () => {
  const LEGACY = ".cursor/hooks/state/tailtest.json";
  const sessionOf = (root: string, path: string) =>
    JSON.parse(readFileSync(join(root, path), "utf8")) as {
      session_id: string;
      pending_files: { path: string }[];
    };

  it("moves into .tailtest/ on the next call, silently, and the session goes on", async () => {
    const project = track(makeProject({ "calc.py": "x = 1\n" }));
    const io = { env: {}, cwd: project.root };
    // What an earlier version wrote: the same hook call with the old session path.
    await runHook(
      { ...PLATFORM, sessionPath: LEGACY },
      { ...io, stdin: payload("sessionStart") },
      handleEvent,
    );
    const before = sessionOf(project.root, LEGACY);
    const edit = await runCursorHook({
      ...io,
      stdin: payload("afterFileEdit", { file_path: join(project.root, "calc.py") }),
    });
    expect(edit).toMatchObject({ stdout: "{}\n", stderr: "", exitCode: 0 });
    expect(existsSync(join(project.root, LEGACY))).toBe(false);
    const after = sessionOf(project.root, CURSOR_SESSION_PATH);
    expect(after.session_id).toBe(before.session_id);
    expect(after.pending_files.map((entry) => entry.path)).toEqual(["calc.py"]);
  });

  it("never overwrites a session already in .tailtest/", async () => {
    const project = track(makeProject({ "calc.py": "x = 1\n" }));
    const io = { env: {}, cwd: project.root };
    await runCursorHook({ ...io, stdin: payload("sessionStart") });
    const current = readFileSync(join(project.root, CURSOR_SESSION_PATH), "utf8");
    project.write(LEGACY, "an older session\n");
    await runCursorHook({ ...io, stdin: payload("sessionEnd") });
    expect(sessionOf(project.root, CURSOR_SESSION_PATH).session_id).toBe(
      (JSON.parse(current) as { session_id: string }).session_id,
    );
    expect(readFileSync(join(project.root, LEGACY), "utf8")).toBe("an older session\n");
  });
});

describe("runCursorHook: the end of a turn", () => {
  it("sends the agent back while the budget lasts, then tells the user on stderr instead", async () => {
    const project = track(copyFixture("runners/pytest-pyproject"));
    project.write(".tailtest/config.json", JSON.stringify({ stop_loop_budget: 1 }));
    const file = project.write("src/billing.py", "def charge(a):\n    return a\n");
    const io = { env: {}, cwd: project.root };
    await runCursorHook({ ...io, stdin: payload("sessionStart") });
    await runCursorHook({ ...io, stdin: payload("afterFileEdit", { file_path: file }) });
    const first = await runCursorHook({ ...io, stdin: payload("stop", { loop_count: 0 }) });
    expect(Object.keys(JSON.parse(first.stdout) as object)).toEqual(["followup_message"]);
    expect(first.stderr).toBe("");
    const second = await runCursorHook({ ...io, stdin: payload("stop", { loop_count: 1 }) });
    expect(second.stdout).toBe("{}\n");
    expect(second.stderr).toContain("src/billing.py");
    expect(second.exitCode).toBe(0);
  });

  it("a turn the user stopped runs nothing and keeps the queue", async () => {
    const project = track(copyFixture("runners/pytest-pyproject"));
    const file = project.write("src/billing.py", "def charge(a):\n    return a\n");
    const io = { env: {}, cwd: project.root };
    await runCursorHook({ ...io, stdin: payload("afterFileEdit", { file_path: file }) });
    const aborted = await runCursorHook({ ...io, stdin: payload("stop", { status: "aborted" }) });
    expect(aborted).toEqual({ stdout: "{}\n", stderr: "", exitCode: 0 });
    const next = await runCursorHook({ ...io, stdin: payload("stop", { status: "completed" }) });
    expect(JSON.parse(next.stdout)).toHaveProperty("followup_message");
  });
});

describe("runCursorHook: internal errors (ADR 0002)", () => {
  /**
   * The platform with its session in a folder of its own, which these tests turn into a file:
   * every session write fails (a state file that only reads badly is moved aside and rebuilt).
   */
  const platform = { ...PLATFORM, sessionPath: "session-folder/tailtest.json" };
  const runBrokenHook = (io: HookIO) => runHook(platform, io, handleEvent);

  /** A project whose session folder is a file: every state write fails. */
  function broken(mode?: string): TempProject {
    const project = track(makeProject({ "src/a.py": "x = 1\n", "session-folder": "a file\n" }));
    if (mode !== undefined) project.write(".tailtest/config.json", JSON.stringify({ mode }));
    return project;
  }

  it.each(["sessionStart", "afterFileEdit", "postToolUse", "sessionEnd"])(
    "follow mode, %s: one line on stderr, no opinion",
    async (event) => {
      const { root } = broken();
      const file = join(root, "src/a.py");
      const extra = event === "postToolUse" ? write(file) : { file_path: file };
      const result = await runBrokenHook({ stdin: payload(event, extra), env: {}, cwd: root });
      expect(result.stdout).toBe("{}\n");
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toMatch(/^tailtest: internal error, skipped this hook: .+\n$/);
      expect(result.stderr).not.toContain(root);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    },
  );

  const NOT_CHECKED = (mode: string) =>
    new RegExp(
      `^tailtest could not check this \\(internal error: .+\\)\\. In ${mode} mode it does not let unchecked work through; fix the cause, or ask the person to set "mode": "follow" in \\.tailtest/config\\.json\\.$`,
    );

  /** One call's answer: exactly the keys Cursor reads, and one line on stderr. */
  async function fire(root: string, stdin: string) {
    const result = await runBrokenHook({ stdin, env: {}, cwd: root });
    expect(result.exitCode).toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr + result.stdout).not.toContain(root);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    return { ...result, output: JSON.parse(result.stdout) as Record<string, string> };
  }

  /** The agent's own conversation began before the break, so its state folder was made. */
  async function started(mode: string): Promise<TempProject> {
    const project = track(makeProject({ "calc.py": "x = 1\n" }));
    project.write(".tailtest/config.json", JSON.stringify({ mode }));
    await runBrokenHook({ stdin: payload("sessionStart"), env: {}, cwd: project.root });
    return project;
  }

  /** The session folder turned into a file after the session began: every state write fails. */
  function breakState(project: TempProject): void {
    rmSync(join(project.root, "session-folder"), { recursive: true });
    project.write("session-folder", "not a folder\n");
  }

  /** The shared event log turned into a folder: every strict-mode read and append fails. */
  function breakLog(project: TempProject): void {
    rmSync(join(project.root, ".tailtest/events.jsonl"), { force: true });
    mkdirSync(join(project.root, ".tailtest/events.jsonl"));
  }

  it.each(["tdd", "strict"])(
    "%s mode, stop: sends the agent back once with the reason; not on a re-stop (loop_count > 0)",
    async (mode) => {
      const project = await started(mode);
      if (mode === "tdd") {
        // tdd's stop records its sweep in the session state, which cannot be written.
        breakState(project);
      } else {
        // strict's stop reads the event log to find the claims to verify: it cannot.
        breakLog(project);
      }
      const first = await fire(project.root, payload("stop", { loop_count: 0 }));
      expect(Object.keys(first.output)).toEqual(["followup_message"]);
      expect(first.output["followup_message"]).toMatch(NOT_CHECKED(mode));
      expect(first.stderr).toMatch(
        new RegExp(`^tailtest: internal error in ${mode} mode, not letting it through: .+\\n$`),
      );
      const again = await fire(project.root, payload("stop", { loop_count: 1 }));
      expect(again.output).toEqual({});
      expect(again.stderr).toMatch(/^tailtest: internal error, skipped this hook: .+\n$/);
    },
    30_000,
  );

  it("tdd mode, subagentStop: sends the subagent back once; not on a re-stop", async () => {
    const project = await started("tdd");
    // The shared event log is a folder: closing the subagent's log fails.
    mkdirSync(join(project.root, ".tailtest/events.jsonl"));
    const stop = (loops: number) =>
      payload("subagentStop", { subagent_id: "s1", loop_count: loops });
    const first = await fire(project.root, stop(0));
    expect(Object.keys(first.output)).toEqual(["followup_message"]);
    expect(first.output["followup_message"]).toMatch(NOT_CHECKED("tdd"));
    const again = await fire(project.root, stop(2));
    expect(again.output).toEqual({});
    expect(again.stderr).toMatch(/^tailtest: internal error, skipped this hook: .+\n$/);
  });

  it.each([
    // strict logs the edit of a production file: the event log cannot be read.
    ["strict", "a Write", (root: string) => payload("postToolUse", write(join(root, "calc.py")))],
    // tdd records a test run in the shared event log, which is a folder.
    [
      "tdd",
      "a Shell test run",
      () =>
        payload("postToolUse", {
          tool_name: "Shell",
          tool_input: { command: "python3 -m pytest" },
        }),
    ],
  ])(
    "%s mode, postToolUse of %s: the agent is told its change was not checked",
    async (mode, _name, stdin) => {
      const project = await started(mode);
      breakLog(project);
      project.write("pytest.ini", "[pytest]\n");
      const result = await fire(project.root, stdin(project.root));
      expect(Object.keys(result.output)).toEqual(["additional_context"]);
      expect(result.output["additional_context"]).toMatch(NOT_CHECKED(mode));
    },
  );

  it.each([
    ["tdd", "sessionStart"],
    ["tdd", "sessionEnd"],
    ["strict", "sessionStart"],
    ["strict", "afterFileEdit"],
    ["strict", "sessionEnd"],
  ])("%s mode, %s: nothing to hold, so it fails open with one line", async (mode, event) => {
    const project = await started(mode);
    breakState(project);
    // strict's afterFileEdit logs the edit in the event log.
    if (mode === "strict") breakLog(project);
    const stdin = payload(event, { file_path: join(project.root, "calc.py") });
    const result = await fire(project.root, stdin);
    expect(result.output).toEqual({});
    expect(result.stderr).toMatch(/^tailtest: internal error, skipped this hook: .+\n$/);
  });

  it("follow mode, postToolUse: fails open when the state cannot be written", async () => {
    const project = await started("follow");
    breakState(project);
    const file = join(project.root, "calc.py");
    const edit = await fire(project.root, payload("postToolUse", write(file)));
    expect(edit.output).toEqual({});
    expect(edit.stderr).toMatch(/^tailtest: internal error, skipped this hook: .+\n$/);
  });

  it("stop in strict mode when its event log cannot be read: sent back once", async () => {
    const project = await started("strict");
    breakLog(project);
    const result = await runBrokenHook({
      env: {},
      cwd: project.root,
      stdin: payload("stop", { loop_count: 0 }),
    });
    expect(JSON.parse(result.stdout)).toEqual({
      followup_message: expect.stringMatching(/^tailtest could not check this/),
    });
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it.each([["follow", {}]])(
    "stop in %s mode when the tests cannot run",
    async (mode, expected) => {
      const project = track(copyFixture("runners/pytest-pyproject"));
      project.write(".tailtest/config.json", JSON.stringify({ mode }));
      const file = project.write("src/billing.py", "def charge(a):\n    return a\n");
      project.write("tests/test_billing.py", "def test_charge():\n    assert True\n");
      const io = { env: {}, cwd: project.root };
      await runBrokenHook({ ...io, stdin: payload("sessionStart") });
      await runBrokenHook({ ...io, stdin: payload("postToolUse", write(file)) });
      // The test engine makes a scratch folder under the temporary folder: make that fail.
      process.env["TMPDIR"] = join(project.root, "no-such-folder");
      const result = await runBrokenHook({ ...io, stdin: payload("stop", { loop_count: 0 }) });
      expect(JSON.parse(result.stdout)).toEqual(expected);
      expect(result.exitCode).toBe(0);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(/^tailtest: internal error/);
    },
    30_000,
  );
});

describe("runCursorHook: tdd mode's gate fails closed (ADR 0002)", () => {
  const DENIED =
    /^tailtest (tdd|strict) mode could not decide \((.+)\), so this call is blocked: \1 mode fails closed\./;

  function tddProject(mode = "tdd"): TempProject {
    const project = track(makeProject({ "calc.py": "def add(a, b):\n    return a + b\n" }));
    project.write(".tailtest/config.json", JSON.stringify({ mode }));
    return project;
  }

  function expectDenied(stdout: string): Record<string, string> {
    const output = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(output)).toEqual(["permission", "user_message", "agent_message"]);
    expect(output["permission"]).toBe("deny");
    expect(output["user_message"]).not.toContain("\n");
    expect(output["agent_message"]).toMatch(DENIED);
    return output;
  }

  it.each([
    ["not JSON", "{oops", "stdin is not JSON"],
    ["empty", "", "stdin is not JSON"],
    ["a JSON array", "[]", 'payload field "payload"'],
    ["preToolUse without tool_name", payload("preToolUse"), 'payload field "tool_name"'],
    [
      "a Write that names no file",
      payload("preToolUse", { tool_name: "Write", tool_input: { content: "x" } }),
      "Write names no file",
    ],
    [
      "a Shell without its command",
      payload("preToolUse", { tool_name: "Shell", tool_input: {} }),
      'payload field "tool_input.command"',
    ],
  ])("tdd mode, %s: one line on stderr and Cursor's deny", async (_name, stdin, cause) => {
    const { root } = tddProject();
    const result = await runCursorHook({ stdin, env: {}, cwd: root });
    expect(result.exitCode).toBe(0);
    const output = expectDenied(result.stdout);
    expect(output["agent_message"]).toContain(cause);
    expect(result.stderr).toMatch(
      /^tailtest: could not read this hook call: .+; tdd mode denies this call \(it fails closed\)\n$/,
    );
    expect(existsSync(join(root, ".tailtest/events.jsonl")), "nothing was recorded").toBe(false);
  });

  it("finds the tdd project from CURSOR_PROJECT_DIR when the hook runs elsewhere", async () => {
    const { root } = tddProject();
    const elsewhere = track(makeProject()).root;
    const env = { CURSOR_PROJECT_DIR: root };
    expectDenied((await runCursorHook({ stdin: "{oops", env, cwd: elsewhere })).stdout);
    const follow = await runCursorHook({ stdin: "{oops", env: {}, cwd: elsewhere });
    expect(follow.stdout).toBe("{}\n");
  });

  it("strict mode, {oops: may be the gate, so denied like tdd", async () => {
    const { root } = tddProject("strict");
    expectDenied((await runCursorHook({ stdin: "{oops", env: {}, cwd: root })).stdout);
  });

  it.each([
    ["follow", "{oops"],
    ["tdd", payload("stop", { loop_count: "0" })],
    ["tdd", payload("postToolUse", { tool_name: "Write", tool_input: {} })],
    ["tdd", payload("subagentStart", { subagent_id: 7 })],
  ])("%s mode, %s: not the gate, so no opinion", async (mode, stdin) => {
    const { root } = tddProject(mode);
    const result = await runCursorHook({ stdin, env: {}, cwd: root });
    expect(result.stdout).toBe("{}\n");
    expect(result.stderr).toMatch(/^tailtest: ignored a hook call: .+\n$/);
  });

  it("a config that cannot be read is no tdd config: no opinion", async () => {
    const project = tddProject();
    project.write(".tailtest/config.json", '{"mode": "tdd"');
    const result = await runCursorHook({ stdin: "{oops", env: {}, cwd: project.root });
    expect(result.stdout).toBe("{}\n");
  });

  it("an internal error while gating is a deny, with the project's path taken out", async () => {
    const project = tddProject();
    // The shared event log is a folder: reading the agent's cycle fails.
    mkdirSync(join(project.root, ".tailtest/events.jsonl"));
    const stdin = payload("preToolUse", write(join(project.root, "calc.py")), [project.root]);
    const result = await runCursorHook({ stdin, env: {}, cwd: project.root });
    const output = expectDenied(result.stdout);
    expect(output["agent_message"]).not.toContain(project.root);
    expect(result.exitCode).toBe(0);
  });

  it("an internal error at subagentStart never refuses the subagent", async () => {
    const project = tddProject();
    mkdirSync(join(project.root, ".tailtest/events.jsonl"));
    const stdin = payload("subagentStart", { subagent_id: "s1" }, [project.root]);
    const result = await runCursorHook({ stdin, env: {}, cwd: project.root });
    expect(result.stdout).toBe("{}\n");
    expect(result.stderr).toMatch(/^tailtest: internal error, skipped this hook: .+\n$/);
  });

  it.each([
    ["a Write of production code", payload("preToolUse", write("calc.py"))],
    ["garbage", "{oops"],
    ["sessionStart", payload("sessionStart")],
  ])("TAILTEST_HOOKS_OFF=1, %s: {} at once, nothing written", async (_name, stdin) => {
    const { root } = tddProject();
    const result = await runCursorHook({ stdin, env: { TAILTEST_HOOKS_OFF: "1" }, cwd: root });
    expect(result).toEqual({ stdout: "{}\n", stderr: "", exitCode: 0 });
    expect(existsSync(join(root, ".tailtest/events.jsonl"))).toBe(false);
    expect(existsSync(join(root, ".cursor"))).toBe(false);
  });

  it("without TAILTEST_HOOKS_OFF the same Write of production code is denied", async () => {
    const { root } = tddProject();
    const stdin = payload("preToolUse", write(join(root, "calc.py")), [root]);
    const result = await runCursorHook({ stdin, env: { TAILTEST_HOOKS_OFF: "0" }, cwd: root });
    const output = JSON.parse(result.stdout) as Record<string, string>;
    expect(output["permission"]).toBe("deny");
    expect(output["agent_message"]).toContain("tailtest red --test");
  });
});
