import { describeSchemaError, parsePayload, type Decision, type HookEvent } from "@tailtest/core";

const OWNER = "Cursor's";
import { z } from "zod";

/**
 * Fields every Cursor hook payload carries (hook-protocols §2.3); others pass through. Only
 * `conversation_id` and `hook_event_name` are required: the rest are optional, and the ones
 * tailtest never reads also accept null, so a Cursor release that nulls one does not turn a
 * good call into "bad input".
 */
const BaseSchema = z.looseObject({
  conversation_id: z.string(),
  generation_id: z.string().nullable().optional(),
  model: z.string().nullable().optional(),
  session_id: z.string().optional(),
  hook_event_name: z.string(),
  cursor_version: z.string().nullable().optional(),
  workspace_roots: z.array(z.string()).optional(),
  user_email: z.string().nullable().optional(),
  transcript_path: z.string().nullable().optional(),
});

const SessionStartSchema = BaseSchema.extend({
  hook_event_name: z.literal("sessionStart"),
  is_background_agent: z.boolean().optional(),
});

const AfterFileEditSchema = BaseSchema.extend({
  hook_event_name: z.literal("afterFileEdit"),
  file_path: z.string(),
  edits: z
    .array(z.looseObject({ old_string: z.string().optional(), new_string: z.string().optional() }))
    .optional(),
});

/** tool_input is only read for the tools tailtest follows; see FILE_TOOLS. */
const PostToolUseSchema = BaseSchema.extend({
  hook_event_name: z.literal("postToolUse"),
  tool_name: z.string(),
  tool_input: z.unknown().optional(),
});

const StopSchema = BaseSchema.extend({
  hook_event_name: z.literal("stop"),
  status: z.string().default("completed"),
  loop_count: z.number().int().nonnegative().default(0),
});

const SessionEndSchema = BaseSchema.extend({ hook_event_name: z.literal("sessionEnd") });

export const CursorPayloadSchema = z.discriminatedUnion("hook_event_name", [
  SessionStartSchema,
  AfterFileEditSchema,
  PostToolUseSchema,
  StopSchema,
  SessionEndSchema,
]);
export type CursorPayload = z.infer<typeof CursorPayloadSchema>;
type BasePayload = z.infer<typeof BaseSchema>;

const HANDLED_EVENTS = new Set([
  "sessionStart",
  "afterFileEdit",
  "postToolUse",
  "stop",
  "sessionEnd",
]);

/**
 * The tools whose file tailtest follows through postToolUse. Cursor's agent writes and edits
 * files with `Write` (Claude Code's Write and Edit hooks arrive as `Write` too) and removes
 * them with `Delete`. `path` is accepted beside `file_path` because no Delete payload could be
 * recorded.
 */
const FileToolInputSchema = z.looseObject({
  file_path: z.string().optional(),
  path: z.string().optional(),
});
export const FILE_TOOLS = new Set(["Write", "Delete"]);

/** Cursor's shell tool: `{command, cwd}`. Core finds the files the command wrote. */
const ShellToolInputSchema = z.looseObject({ command: z.string(), cwd: z.string().optional() });

/** The turn ended without the agent finishing it (the user stopped it, or it broke). */
const INTERRUPTED_STATUSES = new Set(["aborted", "error"]);

export type Translation =
  { ok: true; event: HookEvent | undefined; payload: BasePayload } | { ok: false; error: string };

/**
 * Whether a hook payload comes from Cursor: it names its version, or it has a conversation id
 * and a camelCase event name (Claude Code's and Codex's are PascalCase). The Claude Code adapter
 * uses this to recognise Cursor running a Claude Code hook (hook-protocols §2.6).
 */
export function isCursorPayload(json: unknown): boolean {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
  const record = json as Record<string, unknown>;
  if ("cursor_version" in record) return true;
  return (
    typeof record["conversation_id"] === "string" &&
    typeof record["hook_event_name"] === "string" &&
    /^[a-z][A-Za-z]*$/.test(record["hook_event_name"])
  );
}

/** Cursor's stdin → a platform-neutral event (undefined: an event tailtest has no opinion on). */
export function translatePayload(stdin: string): Translation {
  const parsed = parsePayload(stdin, {
    base: BaseSchema,
    full: CursorPayloadSchema,
    handled: HANDLED_EVENTS,
    owner: OWNER,
  });
  if (!parsed.ok) return parsed;
  if (!parsed.handled) return { ok: true, event: undefined, payload: parsed.payload };
  if (parsed.payload.hook_event_name === "postToolUse") return fromPostToolUse(parsed.payload);
  return { ok: true, event: toEvent(parsed.payload), payload: parsed.payload };
}

function fromPostToolUse(payload: z.infer<typeof PostToolUseSchema>): Translation {
  if (payload.tool_name === "Shell") {
    const shell = ShellToolInputSchema.safeParse(payload.tool_input);
    if (!shell.success)
      return { ok: false, error: describeSchemaError(shell.error, OWNER, "tool_input") };
    const event: HookEvent = {
      kind: "CommandFinished",
      command: shell.data.command,
      cwd: shell.data.cwd ?? payload.workspace_roots?.[0],
    };
    return { ok: true, event, payload };
  }
  if (!FILE_TOOLS.has(payload.tool_name)) return { ok: true, event: undefined, payload };
  const input = FileToolInputSchema.safeParse(payload.tool_input);
  if (!input.success)
    return { ok: false, error: describeSchemaError(input.error, OWNER, "tool_input") };
  const file = input.data.file_path ?? input.data.path;
  if (file === undefined) {
    return {
      ok: false,
      error: `payload field "tool_input.file_path": ${payload.tool_name} names no file`,
    };
  }
  const event: HookEvent =
    payload.tool_name === "Delete"
      ? { kind: "FilesEdited", paths: [], deleted: [file] }
      : { kind: "FilesEdited", paths: [file] };
  return { ok: true, event, payload };
}

function toEvent(
  payload: Exclude<CursorPayload, { hook_event_name: "postToolUse" }>,
): HookEvent | undefined {
  switch (payload.hook_event_name) {
    case "sessionStart":
      return {
        kind: "SessionStarted",
        sessionId: payload.session_id ?? payload.conversation_id,
        // Core resumes only the same session id (with work in it) and starts afresh otherwise,
        // so a sessionStart Cursor fires again for the same conversation keeps its queue.
        source: "resume",
      };
    case "afterFileEdit":
      return { kind: "FilesEdited", paths: [payload.file_path] };
    case "stop":
      return {
        kind: "TurnEnded",
        // loop_count counts the followups already sent this turn: one of ours came before.
        stopHookActive: payload.loop_count > 0,
        interrupted: INTERRUPTED_STATUSES.has(payload.status),
      };
    case "sessionEnd":
      return { kind: "SessionEnded" };
  }
}

/** What a hook prints: stdout for Cursor, stderr for Cursor's Hooks output channel. */
export interface Rendered {
  stdout: string;
  stderr: string;
}

/** The events whose `additional_context` reaches the agent (hook-protocols §2.4). */
const CONTEXT_EVENTS = new Set([
  "sessionStart",
  "beforeSubmitPrompt",
  "preToolUse",
  "postToolUse",
  "postToolUseFailure",
]);
/** The events whose `followup_message` Cursor sends as the next user message. */
const FOLLOWUP_EVENTS = new Set(["stop", "subagentStop"]);

/** Cursor's "no opinion": exit 0 with empty stdout counts as a failed hook (§2.5), `{}` does not. */
export const NO_OPINION_OUTPUT = "{}";

/**
 * A Decision in Cursor's exact output shape (hook-protocols §2.4): only the keys Cursor reads
 * for that event, and always a JSON object on stdout.
 */
export function renderDecision(eventName: string, decision: Decision): Rendered {
  switch (decision.kind) {
    case "none":
      return { stdout: NO_OPINION_OUTPUT, stderr: "" };
    case "context":
      if (CONTEXT_EVENTS.has(eventName)) return json({ additional_context: decision.text });
      // A followup at the end of a turn would wake the agent up again (the loop budget is
      // spent): the user reads it in Cursor's Hooks output channel instead.
      if (FOLLOWUP_EVENTS.has(eventName))
        return { stdout: NO_OPINION_OUTPUT, stderr: `${decision.text}\n` };
      // afterFileEdit and sessionEnd output is ignored; the note reaches the agent via postToolUse.
      return { stdout: NO_OPINION_OUTPUT, stderr: "" };
    case "block":
      if (FOLLOWUP_EVENTS.has(eventName)) return json({ followup_message: decision.reason });
      if (CONTEXT_EVENTS.has(eventName)) return json({ additional_context: decision.reason });
      return { stdout: NO_OPINION_OUTPUT, stderr: `${decision.reason}\n` };
  }
}

function json(value: Record<string, unknown>): Rendered {
  return { stdout: JSON.stringify(value), stderr: "" };
}
