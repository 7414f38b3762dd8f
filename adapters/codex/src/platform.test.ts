import { existsSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import {
  handleEvent,
  runHook as runCall,
  type Handler,
  type HookIO,
} from "@tailtest/core/node/hook";
import { PLATFORM } from "./platform.ts";

/** One Codex hook call through core's hook call; tests pass a core that fails. */
const runHook = (io: HookIO, handle: Handler = handleEvent) => runCall(PLATFORM, io, handle);

let project: TempProject | undefined;
const SILENT = { stdout: "", stderr: "", exitCode: 0 };
afterEach(() => project?.cleanup());

const PATCH = "*** Begin Patch\n*** Add File: a.py\n+x = 1\n*** End Patch\n";
const PAYLOADS = {
  SessionStart: { hook_event_name: "SessionStart", source: "startup" },
  UserPromptSubmit: { hook_event_name: "UserPromptSubmit", turn_id: "t", prompt: "go" },
  PostToolUse: {
    hook_event_name: "PostToolUse",
    tool_name: "apply_patch",
    tool_input: { command: PATCH },
    tool_response: "",
  },
  PreToolUse: {
    hook_event_name: "PreToolUse",
    tool_name: "apply_patch",
    tool_input: { command: PATCH },
    tool_use_id: "call_1",
  },
  "PreToolUse Bash": {
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "echo x > a.py" },
    tool_use_id: "call_2",
  },
  SubagentStart: { hook_event_name: "SubagentStart", agent_id: "a1", agent_type: "worker" },
  Stop: { hook_event_name: "Stop", stop_hook_active: false },
  "Stop again": { hook_event_name: "Stop", stop_hook_active: true },
  SessionEnd: { hook_event_name: "SessionEnd", reason: "other" },
} as const;

function call(name: keyof typeof PAYLOADS, mode?: string) {
  project = makeProject(
    mode === undefined ? {} : { ".tailtest/config.json": `{"mode":"${mode}"}` },
  );
  const stdin = JSON.stringify({ session_id: "s", cwd: project.root, ...PAYLOADS[name] });
  return runHook({ stdin, env: {}, cwd: "/" }, () =>
    Promise.reject(new Error("disk on fire\n    at somewhere (x.js:1:1)")),
  );
}

describe("runHook when core fails (ADR 0002)", () => {
  it.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])(
    "follow mode, %s: fails open with one line on stderr",
    async (name) => {
      expect(await call(name)).toEqual({
        stdout: "",
        stderr: "tailtest: internal error, skipped this hook: disk on fire\n",
        exitCode: 0,
      });
    },
  );

  it.each([
    ["tdd", "PostToolUse"],
    ["strict", "PostToolUse"],
    ["tdd", "Stop"],
    ["strict", "Stop"],
  ] as const)("%s mode, %s: fails closed with Codex's block answer", async (mode, name) => {
    const result = await call(name, mode);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      `tailtest: internal error in ${mode} mode, not letting it through: disk on fire\n`,
    );
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(["decision", "reason"]);
    expect(json["decision"]).toBe("block");
    expect(json["reason"]).toContain(`internal error: disk on fire). In ${mode} mode`);
    expect(json["reason"]).not.toContain("at somewhere");
  });

  it.each(["PreToolUse", "PreToolUse Bash"] as const)(
    "tdd mode, %s: fails closed with Codex's deny, and says so in one line",
    async (name) => {
      const result = await call(name, "tdd");
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe(
        "tailtest: internal error: disk on fire; tdd mode denies this call (it fails closed)\n",
      );
      const json = JSON.parse(result.stdout) as { hookSpecificOutput: Record<string, unknown> };
      expect(Object.keys(json)).toEqual(["hookSpecificOutput"]);
      expect(json.hookSpecificOutput).toEqual({
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringMatching(
          /^tailtest tdd mode could not decide \(internal error: disk on fire\), so this call is blocked: tdd mode fails closed\./,
        ) as unknown,
      });
    },
  );

  it("follow mode, PreToolUse: fails open (tests are a help there, not a gate)", async () => {
    expect(await call("PreToolUse", "follow")).toEqual({
      stdout: "",
      stderr: "tailtest: internal error, skipped this hook: disk on fire\n",
      exitCode: 0,
    });
  });

  it("a config broken mid-session, PreToolUse: the session's tdd mode still fails closed", async () => {
    project = makeProject({
      ".tailtest/config.json": '{"mode":"follow-me"}',
      ".tailtest/session.json": JSON.stringify({ version: 1, session_id: "s", mode: "tdd" }),
    });
    const stdin = JSON.stringify({ session_id: "s", cwd: project.root, ...PAYLOADS.PreToolUse });
    const result = await runHook({ stdin, env: {}, cwd: "/" }, () =>
      Promise.reject(new Error("disk on fire")),
    );
    expect(denyReason(result.stdout)).toMatch(/^tailtest tdd mode could not decide/);
  });

  it("strict mode, PreToolUse: fails closed too (every mode but follow, ADR 0002)", async () => {
    const result = await call("PreToolUse", "strict");
    expect(denyReason(result.stdout)).toMatch(/^tailtest strict mode could not decide/);
  });

  it.each([
    "SessionStart",
    "UserPromptSubmit",
    "SubagentStart",
    "Stop again",
    "SessionEnd",
  ] as const)(
    "strict mode, %s: fails open (nothing to block, or the turn was already held once)",
    async (name) => {
      expect(await call(name, "strict")).toEqual({
        stdout: "",
        stderr: "tailtest: internal error, skipped this hook: disk on fire\n",
        exitCode: 0,
      });
    },
  );

  it("follow mode: bad input is one line and no opinion", async () => {
    project = makeProject({ ".tailtest/config.json": `{"mode":"follow"}` });
    const result = await runHook({ stdin: "{", env: {}, cwd: project.root });
    expect(result).toEqual({
      stdout: "",
      stderr: "tailtest: ignored a hook call: stdin is not JSON\n",
      exitCode: 0,
    });
  });

  it("strict mode: bad input that may be the gate is denied, like tdd", async () => {
    project = makeProject({ ".tailtest/config.json": `{"mode":"strict"}` });
    const result = await runHook({ stdin: "{", env: {}, cwd: project.root });
    expect(denyReason(result.stdout)).toMatch(/^tailtest strict mode could not decide/);
  });

  it("a relative payload cwd resolves against the process folder", async () => {
    project = makeProject({ "app/.tailtest/config.json": "{}" });
    const stdin = JSON.stringify({ session_id: "s", cwd: "app", ...PAYLOADS.SessionStart });
    const result = await runHook({ stdin, env: {}, cwd: project.root });
    expect(result.stdout).toContain('"hookEventName":"SessionStart"');
    expect(existsSync(join(project.root, "app/.tailtest/session.json"))).toBe(true);
  });
});

const DENIED_READ = /^tailtest: could not read this hook call: .+; tdd mode denies this call/;

function denyReason(stdout: string): string {
  const json = JSON.parse(stdout) as { hookSpecificOutput: Record<string, string> };
  expect(Object.keys(json.hookSpecificOutput)).toEqual([
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
  ]);
  expect(json.hookSpecificOutput["permissionDecision"]).toBe("deny");
  return json.hookSpecificOutput["permissionDecisionReason"] ?? "";
}

describe("runHook, bad input in tdd mode (a gate that cannot read its call denies it)", () => {
  it.each([
    ["stdin that is not JSON", "{"],
    ["empty stdin", ""],
    ["JSON without an event", "[1]"],
  ])("%s: denied, the mode found from the process folder", async (_name, stdin) => {
    project = makeProject({ ".tailtest/config.json": '{"mode":"tdd"}' });
    const result = await runHook({ stdin, env: {}, cwd: project.root });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(DENIED_READ);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(denyReason(result.stdout)).toMatch(
      /^tailtest tdd mode could not decide \(could not read this hook call: /,
    );
  });

  it("a PreToolUse that fails the schema: denied, the mode found from the payload's cwd", async () => {
    project = makeProject({ "app/.tailtest/config.json": '{"mode":"tdd"}' });
    const stdin = JSON.stringify({
      session_id: "s",
      cwd: join(project.root, "app"),
      ...PAYLOADS.PreToolUse,
      tool_input: {},
    });
    const result = await runHook({ stdin, env: {}, cwd: "/" });
    expect(result.stderr).toMatch(DENIED_READ);
    expect(result.stderr).toContain('payload field "tool_input.command"');
    expect(denyReason(result.stdout)).toContain("apply_patch without a command");
  });

  it("another event that fails the schema fails open (Codex takes a deny only before a tool)", async () => {
    project = makeProject({ ".tailtest/config.json": '{"mode":"tdd"}' });
    const stdin = JSON.stringify({ session_id: 1, cwd: project.root, hook_event_name: "Stop" });
    const result = await runHook({ stdin, env: {}, cwd: project.root });
    expect(result).toEqual({
      stdout: "",
      stderr: expect.stringMatching(
        /^tailtest: ignored a hook call: payload field "session_id"/,
      ) as unknown,
      exitCode: 0,
    });
  });

  it("a config.json with a bad field still says tdd (only that field falls back)", async () => {
    project = makeProject({ ".tailtest/config.json": '{"mode":"tdd","depth":"bogus"}' });
    const result = await runHook({ stdin: "nope", env: {}, cwd: project.root });
    expect(result.stderr).toMatch(DENIED_READ);
  });
});

describe("runHook, other paths", () => {
  it("TAILTEST_HOOKS_OFF=1: no output and core never called, even in tdd mode on bad input", async () => {
    project = makeProject({ ".tailtest/config.json": '{"mode":"tdd"}' });
    let called = 0;
    const handle = () => {
      called += 1;
      return Promise.resolve({ kind: "deny", reason: "x" } as const);
    };
    const stdin = JSON.stringify({ session_id: "s", cwd: project.root, ...PAYLOADS.PreToolUse });
    const off = { TAILTEST_HOOKS_OFF: "1" };
    expect(await runHook({ stdin, env: off, cwd: project.root }, handle)).toEqual(SILENT);
    expect(await runHook({ stdin: "{", env: off, cwd: project.root }, handle)).toEqual(SILENT);
    expect(called).toBe(0);
    // Any other value is not "off".
    const on = await runHook(
      { stdin, env: { TAILTEST_HOOKS_OFF: "0" }, cwd: project.root },
      handle,
    );
    expect(called).toBe(1);
    expect(denyReason(on.stdout)).toBe("x");
  });

  it("passes the payload's session id and transcript path to core as the agent's identity", async () => {
    project = makeProject({});
    const seen: unknown[] = [];
    const handle: Parameters<typeof runHook>[1] = (_project, event, options) => {
      seen.push([event.kind, options.identity]);
      return Promise.resolve({ kind: "none" });
    };
    const payload = { session_id: "s-1", cwd: project.root, ...PAYLOADS.SubagentStart };
    await runHook(
      { stdin: JSON.stringify({ ...payload, transcript_path: "/t.jsonl" }), env: {}, cwd: "/" },
      handle,
    );
    await runHook(
      { stdin: JSON.stringify({ ...payload, transcript_path: null }), env: {}, cwd: "/" },
      handle,
    );
    expect(seen).toEqual([
      ["SubagentStarted", { sessionId: "s-1", transcriptPath: "/t.jsonl" }],
      ["SubagentStarted", { sessionId: "s-1", transcriptPath: undefined }],
    ]);
  });
});

describe("runHook: a payload whose cwd is no project folder", () => {
  it.each([
    ["a folder that does not exist", (root: string) => join(root, "gone", "deeper")],
    ["a file", (root: string) => join(root, "file.txt")],
    ["a relative path", () => "some/where"],
  ])("%s: one line, no opinion, and no folder created", async (_what, cwdOf) => {
    project = makeProject({ "file.txt": "x" });
    const cwd = cwdOf(project.root);
    for (const name of ["SessionStart", "PostToolUse", "PreToolUse", "Stop"] as const) {
      const stdin = JSON.stringify({ session_id: "s", cwd, ...PAYLOADS[name] });
      const result = await runHook({ stdin, env: {}, cwd: project.root });
      expect(result.stdout, name).toBe("");
      expect(result.stderr, name).toMatch(/^tailtest: .*project folder.*\n$/);
      expect(result.stderr.trimEnd().split("\n"), name).toHaveLength(1);
    }
    expect(existsSync(join(project.root, "gone"))).toBe(false);
    expect(existsSync(join(project.root, ".tailtest"))).toBe(false);
    expect(existsSync(join(project.root, "some"))).toBe(false);
  });
});
