import { expect } from "vitest";

/**
 * What an agent reads from a hook's stdout, checked against its protocol (each agent's published
 * hook protocol), for whole-process tests that run the built hook bins.
 */

export type Answer = Record<string, unknown>;
export type AnswerPlatform = "claude-code" | "codex" | "cursor";

/** Output keys Claude Code and Codex read (they share the shape). */
const CLAUDE_SHAPED = {
  top: new Set([
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "hookSpecificOutput",
  ]),
  specific: new Set([
    "hookEventName",
    "additionalContext",
    "permissionDecision",
    "permissionDecisionReason",
  ]),
};

/** Output keys Cursor reads per event; an event not listed takes none. */
const CURSOR_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  sessionStart: new Set(["env", "additional_context", "continue", "user_message"]),
  beforeSubmitPrompt: new Set(["continue", "user_message", "additional_context"]),
  preToolUse: new Set(["permission", "user_message", "agent_message", "additional_context"]),
  postToolUse: new Set(["additional_context"]),
  stop: new Set(["followup_message"]),
};

/**
 * The answer a hook printed for `event`, with only the keys its agent reads (Cursor: always a
 * JSON object, since it counts empty stdout as a failed hook); {} for none.
 */
export function protocolAnswer(
  platform: AnswerPlatform,
  event: string,
  stdout: string,
  what: string,
): Answer {
  if (platform === "cursor") {
    expect(stdout, `${what}: Cursor counts empty stdout as a failure`).not.toBe("");
    const json = JSON.parse(stdout) as Answer;
    for (const key of Object.keys(json))
      expect(CURSOR_KEYS[event]?.has(key), `${what}: ${key}`).toBe(true);
    return json;
  }
  if (stdout === "") return {};
  const json = JSON.parse(stdout) as Answer;
  for (const key of Object.keys(json))
    expect(CLAUDE_SHAPED.top.has(key), `${what}: ${key}`).toBe(true);
  const specific = (json["hookSpecificOutput"] ?? {}) as Answer;
  for (const key of Object.keys(specific))
    expect(CLAUDE_SHAPED.specific.has(key), `${what}: ${key}`).toBe(true);
  if (json["hookSpecificOutput"] !== undefined) expect(specific["hookEventName"], what).toBe(event);
  return json;
}

/** The note (or deny context) an answer gives the agent, in each agent's shape; "" for none. */
export function contextOf(answer: Answer): string {
  const specific = answer["hookSpecificOutput"] as Answer | undefined;
  const note = specific?.["additionalContext"] ?? answer["additional_context"];
  return typeof note === "string" ? note : "";
}

/** Whether an answer refuses the tool call (Claude Code / Codex deny, Cursor permission). */
export function isDeny(answer: Answer): boolean {
  const specific = answer["hookSpecificOutput"] as Answer | undefined;
  return specific?.["permissionDecision"] === "deny" || answer["permission"] === "deny";
}
