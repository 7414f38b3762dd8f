import { existsSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { runHook } from "./run-hook.ts";

let project: TempProject | undefined;
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
    expect(result.stderr).toBe("tailtest: internal error: disk on fire\n");
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(["decision", "reason"]);
    expect(json["decision"]).toBe("block");
    expect(json["reason"]).toContain(`internal error: disk on fire). In ${mode} mode`);
    expect(json["reason"]).not.toContain("at somewhere");
  });

  it.each(["SessionStart", "UserPromptSubmit", "Stop again", "SessionEnd"] as const)(
    "strict mode, %s: fails open (nothing to block, or the turn was already held once)",
    async (name) => {
      expect(await call(name, "strict")).toEqual({
        stdout: "",
        stderr: "tailtest: internal error, skipped this hook: disk on fire\n",
        exitCode: 0,
      });
    },
  );

  it("bad input is one line and no opinion, whatever the mode", async () => {
    project = makeProject({ ".tailtest/config.json": '{"mode":"strict"}' });
    const result = await runHook({ stdin: "{", env: {}, cwd: project.root });
    expect(result).toEqual({
      stdout: "",
      stderr: "tailtest: ignored a hook call: stdin is not JSON\n",
      exitCode: 0,
    });
  });

  it("a relative payload cwd resolves against the process folder", async () => {
    project = makeProject({ "app/.tailtest/config.json": "{}" });
    const stdin = JSON.stringify({ session_id: "s", cwd: "app", ...PAYLOADS.SessionStart });
    const result = await runHook({ stdin, env: {}, cwd: project.root });
    expect(result.stdout).toContain('"hookEventName":"SessionStart"');
    expect(existsSync(join(project.root, "app/.tailtest/session.json"))).toBe(true);
  });
});
