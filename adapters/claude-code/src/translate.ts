import { parsePayload, type Decision, type HookEvent } from "@tailtest/core";
import { z } from "zod";

/** Fields every Claude Code hook payload carries (hook-protocols §1.2); others pass through. */
const BaseSchema = z.looseObject({
  session_id: z.string(),
  cwd: z.string(),
  hook_event_name: z.string(),
  agent_id: z.string().optional(),
});

const SessionStartSchema = BaseSchema.extend({
  hook_event_name: z.literal("SessionStart"),
  source: z.string(),
});

const PostToolUseSchema = BaseSchema.extend({
  hook_event_name: z.literal("PostToolUse"),
  tool_name: z.string(),
  tool_input: z.looseObject({
    file_path: z.string().optional(),
    notebook_path: z.string().optional(),
  }),
});

const StopSchema = BaseSchema.extend({
  hook_event_name: z.enum(["Stop", "SubagentStop"]),
  stop_hook_active: z.boolean().default(false),
});

const SessionEndSchema = BaseSchema.extend({ hook_event_name: z.literal("SessionEnd") });

export const ClaudePayloadSchema = z.discriminatedUnion("hook_event_name", [
  SessionStartSchema,
  PostToolUseSchema,
  StopSchema,
  SessionEndSchema,
]);
export type ClaudePayload = z.infer<typeof ClaudePayloadSchema>;

/** The edit tools whose file tailtest queues. MultiEdit left Claude Code in 2.0 but costs nothing to keep. */
export const EDIT_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

const START_SOURCES = new Set(["startup", "resume", "clear", "compact"]);

export type Translation =
  { ok: true; event: HookEvent | undefined; payload: ClaudePayload } | { ok: false; error: string };

/** Claude Code's stdin → a platform-neutral event (undefined: an event tailtest ignores). */
export function translatePayload(stdin: string): Translation {
  const parsed = parsePayload(stdin, {
    base: BaseSchema,
    full: ClaudePayloadSchema,
    handled: HANDLED_EVENTS,
    owner: "Claude Code's",
  });
  if (!parsed.ok) return parsed;
  if (!parsed.handled)
    return { ok: true, event: undefined, payload: parsed.payload as ClaudePayload };
  return { ok: true, event: toEvent(parsed.payload), payload: parsed.payload };
}

const HANDLED_EVENTS = new Set([
  "SessionStart",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  "SessionEnd",
]);

function toEvent(payload: ClaudePayload): HookEvent | undefined {
  switch (payload.hook_event_name) {
    case "SessionStart": {
      // "fork" and future sources start a fresh session, like "startup".
      const source = START_SOURCES.has(payload.source) ? (payload.source as "startup") : "startup";
      return { kind: "SessionStarted", sessionId: payload.session_id, source };
    }
    case "PostToolUse": {
      if (!EDIT_TOOLS.has(payload.tool_name)) return undefined;
      const path = payload.tool_input.file_path ?? payload.tool_input.notebook_path;
      return path === undefined
        ? undefined
        : { kind: "FilesEdited", paths: [path], agentId: payload.agent_id };
    }
    case "Stop":
      return { kind: "TurnEnded", stopHookActive: payload.stop_hook_active };
    case "SubagentStop":
      return {
        kind: "TurnEnded",
        stopHookActive: payload.stop_hook_active,
        agentId: payload.agent_id,
      };
    case "SessionEnd":
      return { kind: "SessionEnded" };
  }
}

/** A Decision in Claude Code's exact output shape (hook-protocols §1.6), or "" for no output. */
export function renderDecision(eventName: string, decision: Decision): string {
  switch (decision.kind) {
    case "none":
      return "";
    case "context":
      if (eventName === "Stop" || eventName === "SubagentStop" || eventName === "SessionEnd") {
        // Context at the end of a turn would wake the agent up again; the user sees it instead.
        return JSON.stringify({ systemMessage: decision.text });
      }
      return JSON.stringify({
        hookSpecificOutput: { hookEventName: eventName, additionalContext: decision.text },
      });
    case "block":
      return JSON.stringify({ decision: "block", reason: decision.reason });
  }
}
