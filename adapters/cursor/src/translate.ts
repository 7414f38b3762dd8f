import {
  describeSchemaError,
  parsePayload,
  type Decision,
  type HookEvent,
} from "@tailtest/core/hook";

const OWNER = "Cursor's";
import * as z from "zod/mini";

/**
 * Fields every Cursor hook payload carries (its hook protocol); others pass through. Only
 * `conversation_id` and `hook_event_name` are required: the rest are optional, and the ones
 * tailtest never reads also accept null, so a Cursor release that nulls one does not turn a
 * good call into "bad input".
 */
const BaseSchema = z.looseObject({
  conversation_id: z.string(),
  generation_id: z.optional(z.nullable(z.string())),
  model: z.optional(z.nullable(z.string())),
  session_id: z.optional(z.string()),
  hook_event_name: z.string(),
  cursor_version: z.optional(z.nullable(z.string())),
  workspace_roots: z.optional(z.array(z.string())),
  user_email: z.optional(z.nullable(z.string())),
  transcript_path: z.optional(z.nullable(z.string())),
});

const SessionStartSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("sessionStart"),
  is_background_agent: z.optional(z.boolean()),
});

const AfterFileEditSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("afterFileEdit"),
  file_path: z.string(),
  edits: z.optional(
    z.array(
      z.looseObject({ old_string: z.optional(z.string()), new_string: z.optional(z.string()) }),
    ),
  ),
});

/** tool_input is only read for the tools tailtest follows; see FileToolInputSchema. */
const PostToolUseSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("postToolUse"),
  tool_name: z.string(),
  tool_input: z.optional(z.unknown()),
});

/** Before a tool runs (the tdd gate): the same tool fields, and the folder it runs in. */
const PreToolUseSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("preToolUse"),
  tool_name: z.string(),
  tool_input: z.optional(z.unknown()),
  cwd: z.optional(z.nullable(z.string())),
});

/**
 * A subagent (Task tool) starts. `subagent_id` names it, at the start and at subagentStop alike:
 * Cursor's hook protocol lists it here and ends subagentStop's list with "…", and a third-party
 * capture of cursor-agent shows it there too. `subagent_type` is sent at both ends as well, but
 * every subagent of a kind shares it, and `tool_call_id` is not listed at the stop.
 * `parent_conversation_id` is the main agent's conversation when Cursor sends it.
 */
const SubagentStartSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("subagentStart"),
  subagent_id: z.string().check(z.minLength(1)),
  subagent_type: z.optional(z.nullable(z.string())),
  parent_conversation_id: z.optional(z.nullable(z.string())),
});

/** A subagent finished; without `subagent_id` there is no log to close (see SubagentStart). */
const SubagentStopSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("subagentStop"),
  subagent_id: z.optional(z.string().check(z.minLength(1))),
  subagent_type: z.optional(z.nullable(z.string())),
  parent_conversation_id: z.optional(z.nullable(z.string())),
  status: z._default(z.string(), "completed"),
  loop_count: z._default(z.number().check(z.int()).check(z.nonnegative()), 0),
});

const StopSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("stop"),
  status: z._default(z.string(), "completed"),
  loop_count: z._default(z.number().check(z.int()).check(z.nonnegative()), 0),
});

const SessionEndSchema = z.extend(BaseSchema, { hook_event_name: z.literal("sessionEnd") });

export const CursorPayloadSchema = z.discriminatedUnion("hook_event_name", [
  SessionStartSchema,
  AfterFileEditSchema,
  PreToolUseSchema,
  PostToolUseSchema,
  SubagentStartSchema,
  SubagentStopSchema,
  StopSchema,
  SessionEndSchema,
]);
export type CursorPayload = z.infer<typeof CursorPayloadSchema>;
type BasePayload = z.infer<typeof BaseSchema>;

const HANDLED_EVENTS = new Set([
  "sessionStart",
  "afterFileEdit",
  "preToolUse",
  "postToolUse",
  "subagentStart",
  "subagentStop",
  "stop",
  "sessionEnd",
]);

/**
 * The tools whose file tailtest follows (postToolUse) and gates (preToolUse). Cursor's agent
 * writes and edits files with `Write` (Claude Code's Write and Edit hooks arrive as `Write`
 * too) and removes them with `Delete`. `path` is accepted beside `file_path` because no Delete
 * payload could be recorded (the protocol names only Write's `{file_path, content}`).
 */
const FileToolInputSchema = z.looseObject({
  file_path: z.optional(z.string()),
  path: z.optional(z.string()),
});

/** Cursor's shell tool: `{command, cwd}`. Core finds the files the command writes. */
const ShellToolInputSchema = z.looseObject({ command: z.string(), cwd: z.optional(z.string()) });

/** The turn ended without the agent finishing it (the user stopped it, or it broke). */
const INTERRUPTED_STATUSES = new Set(["aborted", "error"]);

/**
 * Whose call it is, for tdd mode's per-agent logs. The session is the main agent's
 * conversation: `parent_conversation_id` when Cursor sends one (subagent events), else
 * `conversation_id` (which Cursor always sends; `session_id` equals it when present).
 */
export interface CallIdentity {
  sessionId: string;
  transcriptPath?: string | undefined;
}

export type Translation =
  | { ok: true; event: HookEvent | undefined; payload: BasePayload; identity: CallIdentity }
  | { ok: false; error: string };

type Result = { ok: true; event: HookEvent | undefined } | { ok: false; error: string };

/**
 * Whether a hook payload comes from Cursor: it names its version, or it has a conversation id
 * and a camelCase event name (Claude Code's and Codex's are PascalCase). The Claude Code adapter
 * uses this to recognise Cursor running a Claude Code hook (its hook protocol).
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
  const identity = identityOf(parsed.payload);
  const result: Result = parsed.handled ? toEvent(parsed.payload) : { ok: true, event: undefined };
  return result.ok ? { ...result, payload: parsed.payload, identity } : result;
}

function identityOf(payload: BasePayload): CallIdentity {
  const parent = nonEmpty(payload["parent_conversation_id"]);
  const transcript = payload.transcript_path ?? undefined;
  return {
    sessionId: parent ?? payload.conversation_id,
    ...(transcript === undefined ? {} : { transcriptPath: transcript }),
  };
}

/**
 * The subagent a tool call belongs to. Cursor documents no subagent field on tool events; when
 * one carries `subagent_id` (the id subagentStart gave), the call is gated against that
 * subagent's log, otherwise against the main agent's.
 */
function agentIdOf(payload: BasePayload): string | undefined {
  return nonEmpty(payload["subagent_id"]);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function toEvent(payload: CursorPayload): Result {
  switch (payload.hook_event_name) {
    case "sessionStart":
      return {
        ok: true,
        event: {
          kind: "SessionStarted",
          sessionId: payload.session_id ?? payload.conversation_id,
          // Core resumes only the same session id (with work in it) and starts afresh otherwise,
          // so a sessionStart Cursor fires again for the same conversation keeps its queue.
          source: "resume",
        },
      };
    case "afterFileEdit":
      return { ok: true, event: { kind: "FilesEdited", paths: [payload.file_path] } };
    case "preToolUse":
    case "postToolUse":
      return fromToolUse(payload);
    case "subagentStart":
      return {
        ok: true,
        event: {
          kind: "SubagentStarted",
          agentId: payload.subagent_id,
          ...(payload.subagent_type == null ? {} : { agentType: payload.subagent_type }),
        },
      };
    case "subagentStop":
      // A subagent that cannot be named has no log to close; never the main agent's end of turn.
      if (payload.subagent_id === undefined) return { ok: true, event: undefined };
      return {
        ok: true,
        event: {
          kind: "TurnEnded",
          agentId: payload.subagent_id,
          stopHookActive: payload.loop_count > 0,
          interrupted: INTERRUPTED_STATUSES.has(payload.status),
        },
      };
    case "stop":
      return {
        ok: true,
        event: {
          kind: "TurnEnded",
          // loop_count counts the followups already sent this turn: one of ours came before.
          stopHookActive: payload.loop_count > 0,
          interrupted: INTERRUPTED_STATUSES.has(payload.status),
        },
      };
    case "sessionEnd":
      return { ok: true, event: { kind: "SessionEnded" } };
  }
}

type ToolPayload = Extract<CursorPayload, { hook_event_name: "preToolUse" | "postToolUse" }>;

/** Write/Delete's file, Shell's command, or undefined for a tool tailtest does not follow. */
type ToolCall =
  | { tool: "Write" | "Delete"; file: string }
  | { tool: "Shell"; command: string; cwd: string | undefined };

function readToolCall(
  payload: ToolPayload,
): { ok: true; call: ToolCall | undefined } | { ok: false; error: string } {
  if (payload.tool_name === "Shell") {
    const shell = ShellToolInputSchema.safeParse(payload.tool_input);
    if (!shell.success)
      return { ok: false, error: describeSchemaError(shell.error, OWNER, "tool_input") };
    const cwd = shell.data.cwd ?? nonEmpty(payload["cwd"]) ?? payload.workspace_roots?.[0];
    return { ok: true, call: { tool: "Shell", command: shell.data.command, cwd } };
  }
  if (payload.tool_name !== "Write" && payload.tool_name !== "Delete")
    return { ok: true, call: undefined };
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
  return { ok: true, call: { tool: payload.tool_name, file } };
}

const EDIT_KIND = { preToolUse: "EditRequested", postToolUse: "FilesEdited" } as const;
const SHELL_KIND = { preToolUse: "CommandRequested", postToolUse: "CommandFinished" } as const;

/**
 * A tool call as the event of its phase: before it runs (preToolUse: the write or command the
 * tdd gate judges) or after (postToolUse: the file to queue, or the command whose writes core
 * finds). Cursor gives no exit code, so a command's `failed` stays unknown (tdd mode measures
 * test runs itself).
 */
function fromToolUse(
  payload: Extract<CursorPayload, { hook_event_name: "preToolUse" | "postToolUse" }>,
): Result {
  const read = readToolCall(payload);
  if (!read.ok || read.call === undefined) return read.ok ? { ok: true, event: undefined } : read;
  const { call } = read;
  const phase = payload.hook_event_name;
  const agentId = agentIdOf(payload);
  const agent = agentId === undefined ? {} : { agentId };
  switch (call.tool) {
    case "Shell":
      return {
        ok: true,
        event: { kind: SHELL_KIND[phase], command: call.command, cwd: call.cwd, ...agent },
      };
    case "Delete":
      return {
        ok: true,
        event: { kind: EDIT_KIND[phase], paths: [], deleted: [call.file], ...agent },
      };
    case "Write":
      return { ok: true, event: { kind: EDIT_KIND[phase], paths: [call.file], ...agent } };
  }
}

/** What a hook prints: stdout for Cursor, stderr for Cursor's Hooks output channel. */
export interface Rendered {
  stdout: string;
  stderr: string;
}

/** The events whose `additional_context` reaches the agent (its hook protocol). */
const CONTEXT_EVENTS = new Set([
  "sessionStart",
  "beforeSubmitPrompt",
  "preToolUse",
  "postToolUse",
  "postToolUseFailure",
]);
/** The events whose `followup_message` Cursor sends as the next user message. */
const FOLLOWUP_EVENTS = new Set(["stop", "subagentStop"]);
/**
 * The events that can refuse a tool call with `permission: "deny"`, `user_message` and
 * `agent_message`. subagentStart takes a permission too, but tailtest never refuses a subagent.
 */
const DENY_EVENTS = new Set(["preToolUse", "beforeShellExecution", "beforeMCPExecution"]);

/** Cursor's "no opinion": exit 0 with empty stdout counts as a failed hook (its hook protocol), `{}` does not. */
export const NO_OPINION_OUTPUT = "{}";

/**
 * A Decision in Cursor's exact output shape (its hook protocol): only the keys Cursor reads
 * for that event, and always a JSON object on stdout.
 */
export function renderDecision(eventName: string, decision: Decision): Rendered {
  const rendered = renderForAgent(eventName, decision);
  // The person's line (the end of a verified turn): Cursor's stop takes only followup_message,
  // which would wake the agent, so it goes to the Hooks output channel, where the person reads it.
  // A stop that sends the agent back already shows the person why, in the followup it posts.
  const user = decision.userMessage;
  if (user === undefined || !FOLLOWUP_EVENTS.has(eventName) || decision.kind === "block")
    return rendered;
  return { ...rendered, stderr: `${user}\n${rendered.stderr}` };
}

function renderForAgent(eventName: string, decision: Decision): Rendered {
  switch (decision.kind) {
    case "none":
      return { stdout: NO_OPINION_OUTPUT, stderr: "" };
    case "context":
      if (eventName === "sessionStart" && decision.env !== undefined)
        // Cursor sets `env` for the session's later hooks and commands (its hook protocol): how
        // `tailtest red` finds this session's log.
        return json({ additional_context: decision.text, env: decision.env });
      // No permission key on preToolUse: Cursor's own permission flow goes on.
      if (CONTEXT_EVENTS.has(eventName)) return json({ additional_context: decision.text });
      // A followup at the end of a turn would wake the agent up again (the loop budget is
      // spent): the user reads it in Cursor's Hooks output channel instead.
      if (FOLLOWUP_EVENTS.has(eventName))
        return { stdout: NO_OPINION_OUTPUT, stderr: `${decision.text}\n` };
      // afterFileEdit and sessionEnd output is ignored; the note reaches the agent via
      // postToolUse. subagentStart can take no context (only permission and user_message).
      return { stdout: NO_OPINION_OUTPUT, stderr: "" };
    case "deny":
      if (DENY_EVENTS.has(eventName)) return json(denyOutput(decision.reason));
      return renderForAgent(eventName, { kind: "block", reason: decision.reason });
    case "block":
      if (FOLLOWUP_EVENTS.has(eventName)) return json({ followup_message: decision.reason });
      if (CONTEXT_EVENTS.has(eventName)) return json({ additional_context: decision.reason });
      return { stdout: NO_OPINION_OUTPUT, stderr: `${decision.reason}\n` };
  }
}

/** Cursor's refusal of a tool call: the user reads one line, the agent the whole reason. */
export function denyOutput(reason: string): Record<string, string> {
  return {
    permission: "deny",
    user_message: reason.split("\n")[0] ?? reason,
    agent_message: reason,
  };
}

function json(value: Record<string, unknown>): Rendered {
  return { stdout: JSON.stringify(value), stderr: "" };
}
