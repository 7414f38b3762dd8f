import type { Decision } from "./hook-event.ts";
import { ownEntry } from "../util/own-entry.ts";

/**
 * Answers in the JSON hook protocol Claude Code defined and Codex follows: `hookSpecificOutput`
 * with `additionalContext` for the model, a top-level `decision: "block"` with its `reason`,
 * `systemMessage` for the person, and the gate's `permissionDecision: "deny"`. tailtest never
 * answers "allow" or "ask": that would skip the person's own permission prompt. Each adapter
 * says per event what its agent reads (`JsonProtocol`); this renders from that and nothing else.
 */

/** What one event takes. */
export interface JsonEvent {
  /** `hookSpecificOutput.additionalContext` reaches the model. */
  context?: boolean;
  /**
   * How a block reaches the agent: `true`, a top-level `decision: "block"`; "context", as context
   * (Claude Code's PostToolUseFailure); absent, not at all (only the person's line is kept).
   */
  block?: true | "context";
}

export interface JsonProtocol {
  /** The one event a deny answers (`permissionDecision: "deny"`). */
  gateEvent: string;
  events: Readonly<Record<string, JsonEvent>>;
  /** An event missing from `events`; undefined: it gets no output at all. */
  otherEvents?: JsonEvent;
  /** Reasons for a deny and a block whose reason is blank (an agent that refuses a blank one). */
  blankReason?: { deny: string; block: string };
}

/**
 * A Decision as the event's JSON answer, or "" for no output. Context where the event carries none
 * goes to the person as `systemMessage` (at the end of a turn it would wake the agent again); a
 * context's `env` has no key in this protocol and is dropped.
 */
export function renderJsonAnswer(
  eventName: string,
  decision: Decision,
  protocol: JsonProtocol,
): string {
  const event = ownEntry(protocol.events, eventName) ?? protocol.otherEvents;
  if (event === undefined) return "";
  // The person's line (the end of a verified turn): shown, never sent to the model.
  const user = decision.userMessage;
  const forUser = user === undefined ? {} : { systemMessage: user };
  switch (decision.kind) {
    case "none":
      return user === undefined ? "" : JSON.stringify(forUser);
    case "context":
      if (event.context === true)
        return JSON.stringify({
          hookSpecificOutput: { hookEventName: eventName, additionalContext: decision.text },
          ...forUser,
        });
      return JSON.stringify({
        systemMessage: user === undefined ? decision.text : `${user}\n${decision.text}`,
      });
    case "deny":
    case "block":
      return renderRefusal(eventName, decision.reason, user, event, protocol);
  }
}

/** A deny or a block: the gate's deny, else the event's way of sending the agent back. */
function renderRefusal(
  eventName: string,
  given: string,
  user: string | undefined,
  event: JsonEvent,
  protocol: JsonProtocol,
): string {
  const blank = given.trim() === "";
  if (eventName === protocol.gateEvent) {
    const reason = blank ? (protocol.blankReason?.deny ?? given) : given;
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: eventName,
        permissionDecision: "deny",
        permissionDecisionReason: reason,
      },
    });
  }
  if (event.block === "context")
    return renderJsonAnswer(
      eventName,
      { kind: "context", text: given, userMessage: user },
      protocol,
    );
  // A deny can only answer a call that has not run; after it, the nearest is a block.
  const forUser = user === undefined ? {} : { systemMessage: user };
  if (event.block !== true) return user === undefined ? "" : JSON.stringify(forUser);
  const reason = blank ? (protocol.blankReason?.block ?? given) : given;
  return JSON.stringify({ decision: "block", reason, ...forUser });
}
