import { describe, expect, it } from "vitest";
import * as z from "zod";
import { PAYLOAD_LIMITS, parsePayload } from "./payload.ts";

const base = z.object({ hook_event_name: z.string() }).loose();
const schemas = {
  base,
  full: base,
  handled: new Set(["PreToolUse"]),
  owner: "Test's",
};

function parse(value: unknown) {
  return parsePayload(JSON.stringify(value), schemas);
}

const long = (n: number) => "a".repeat(n);

describe("parsePayload: what no real hook call comes near is refused up front", () => {
  it.each([
    ["cwd", { cwd: `/${long(PAYLOAD_LIMITS.pathChars)}` }, '"cwd" is longer than 4096'],
    [
      "a tool's file_path",
      { tool_input: { file_path: long(PAYLOAD_LIMITS.pathChars + 1) } },
      '"tool_input.file_path" is longer than 4096',
    ],
    [
      "a workspace root",
      { workspace_roots: ["/ok", long(PAYLOAD_LIMITS.pathChars + 1)] },
      '"workspace_roots" is longer than 4096',
    ],
    [
      "a plan",
      { tool_input: { plan: long(PAYLOAD_LIMITS.planChars + 1) } },
      '"tool_input.plan" is longer than 262144',
    ],
    [
      "a command",
      { tool_input: { command: long(PAYLOAD_LIMITS.commandChars + 1) } },
      '"tool_input.command" is longer than 4194304',
    ],
  ])("%s", (_what, fields, message) => {
    const parsed = parse({ hook_event_name: "PreToolUse", ...fields });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(message);
  });

  it("edit contents are not capped: they are passed on, never parsed", () => {
    const content = long(PAYLOAD_LIMITS.commandChars + 1);
    const parsed = parse({ hook_event_name: "PreToolUse", tool_input: { content } });
    expect(parsed.ok).toBe(true);
  });

  it("stdin over the limit is refused without being parsed", () => {
    const parsed = parsePayload(" ".repeat(PAYLOAD_LIMITS.stdinChars + 1), schemas);
    expect(parsed).toEqual({ ok: false, error: "stdin is longer than 16777216 characters" });
  });

  it("nesting deeper than the limit is refused, not walked", () => {
    let value: unknown = "x";
    for (let i = 0; i < 1_000; i += 1) value = [value];
    const parsed = parse({ hook_event_name: "PreToolUse", deep: value });
    expect(parsed).toEqual({ ok: false, error: "payload is nested deeper than 64 levels" });
  });

  it("a long field with no limit, and paths at the limit, pass", () => {
    const parsed = parse({
      hook_event_name: "PreToolUse",
      cwd: `/${long(PAYLOAD_LIMITS.pathChars - 1)}`,
      prompt: long(PAYLOAD_LIMITS.commandChars + 1),
    });
    expect(parsed.ok).toBe(true);
  });
});
