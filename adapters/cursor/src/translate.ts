import {
  checkedInput,
  commandEvent,
  editEvent,
  lazy,
  mcpWriteRequest,
  nonEmptyString,
  translateHook,
  type CallIdentity,
  type Decision,
  type HookTranslation,
  type Mapped,
  type Rendered,
} from "@tailtest/core/hook";
import * as z from "zod/mini";

const OWNER = "Cursor's";

/**
 * Fields every Cursor hook payload carries (its hook protocol); others pass through. Only
 * `conversation_id` and `hook_event_name` are required: the rest are optional, and the ones
 * tailtest never reads also accept null, so a Cursor release that nulls one does not turn a
 * good call into "bad input".
 */
const BaseSchema = lazy(() =>
  z.looseObject({
    conversation_id: z.string(),
    generation_id: z.optional(z.nullable(z.string())),
    model: z.optional(z.nullable(z.string())),
    session_id: z.optional(z.string()),
    hook_event_name: z.string(),
    cursor_version: z.optional(z.nullable(z.string())),
    workspace_roots: z.optional(z.array(z.string())),
    user_email: z.optional(z.nullable(z.string())),
    transcript_path: z.optional(z.nullable(z.string())),
  }),
);

const SessionStartSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("sessionStart"),
    is_background_agent: z.optional(z.boolean()),
  }),
);

const AfterFileEditSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("afterFileEdit"),
    file_path: z.string(),
    edits: z.optional(
      z.array(
        z.looseObject({ old_string: z.optional(z.string()), new_string: z.optional(z.string()) }),
      ),
    ),
  }),
);

/** tool_input is only read for the tools tailtest follows; see FileToolInputSchema. */
const PostToolUseSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("postToolUse"),
    tool_name: z.string(),
    tool_input: z.optional(z.unknown()),
  }),
);

/** Before a tool runs (the tdd gate): the same tool fields, and the folder it runs in. */
const PreToolUseSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("preToolUse"),
    tool_name: z.string(),
    tool_input: z.optional(z.unknown()),
    cwd: z.optional(z.nullable(z.string())),
  }),
);

/**
 * A subagent (Task tool) starts. `subagent_id` names it, at the start and at subagentStop alike:
 * Cursor's hook protocol lists it here and ends subagentStop's list with "…", and a third-party
 * capture of cursor-agent shows it there too. `subagent_type` is sent at both ends as well, but
 * every subagent of a kind shares it, and `tool_call_id` is not listed at the stop.
 * `parent_conversation_id` is the main agent's conversation when Cursor sends it.
 */
const SubagentStartSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("subagentStart"),
    subagent_id: z.string().check(z.minLength(1)),
    subagent_type: z.optional(z.nullable(z.string())),
    parent_conversation_id: z.optional(z.nullable(z.string())),
  }),
);

/** A subagent finished; without `subagent_id` there is no log to close (see SubagentStart). */
const SubagentStopSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("subagentStop"),
    subagent_id: z.optional(z.string().check(z.minLength(1))),
    subagent_type: z.optional(z.nullable(z.string())),
    parent_conversation_id: z.optional(z.nullable(z.string())),
    status: z._default(z.string(), "completed"),
    loop_count: z._default(z.number().check(z.int()).check(z.nonnegative()), 0),
  }),
);

const StopSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("stop"),
    status: z._default(z.string(), "completed"),
    loop_count: z._default(z.number().check(z.int()).check(z.nonnegative()), 0),
  }),
);

const SessionEndSchema = lazy(() =>
  z.extend(BaseSchema, { hook_event_name: z.literal("sessionEnd") }),
);

export const CursorPayloadSchema = lazy(() =>
  z.discriminatedUnion("hook_event_name", [
    SessionStartSchema,
    AfterFileEditSchema,
    PreToolUseSchema,
    PostToolUseSchema,
    SubagentStartSchema,
    SubagentStopSchema,
    StopSchema,
    SessionEndSchema,
  ]),
);
export type CursorPayload = z.infer<typeof CursorPayloadSchema>;
type BasePayload = z.infer<typeof BaseSchema>;

/** Each handled event's option of the union, so a call builds only its own (parsePayload). */
const EVENT_SCHEMAS: ReadonlyMap<string, z.core.$ZodType> = new Map<string, z.core.$ZodType>([
  ["sessionStart", SessionStartSchema],
  ["afterFileEdit", AfterFileEditSchema],
  ["preToolUse", PreToolUseSchema],
  ["postToolUse", PostToolUseSchema],
  ["subagentStart", SubagentStartSchema],
  ["subagentStop", SubagentStopSchema],
  ["stop", StopSchema],
  ["sessionEnd", SessionEndSchema],
]);

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

/** Cursor's stdin → a platform-neutral event (undefined: an event tailtest has no opinion on). */
export function translatePayload(stdin: string): HookTranslation {
  return translateHook(stdin, {
    base: BaseSchema,
    full: CursorPayloadSchema,
    events: EVENT_SCHEMAS,
    handled: HANDLED_EVENTS,
    owner: OWNER,
    toEvent,
    identity: identityOf,
  });
}

/**
 * Whose call it is, for tdd mode's per-agent logs. The session is the main agent's
 * conversation: `parent_conversation_id` when Cursor sends one (subagent events), else
 * `conversation_id` (which Cursor always sends; `session_id` equals it when present).
 */
function identityOf(payload: BasePayload): CallIdentity {
  const parent = nonEmptyString(payload["parent_conversation_id"]);
  const transcript = payload.transcript_path ?? undefined;
  return {
    sessionId: parent ?? payload.conversation_id,
    ...(transcript === undefined ? {} : { transcriptPath: transcript }),
  };
}

function toEvent(payload: CursorPayload): Mapped {
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
    case "preToolUse":
      return toolEvent(payload, "before");
    case "postToolUse":
      return toolEvent(payload, "after");
    case "subagentStart":
      return {
        kind: "SubagentStarted",
        agentId: payload.subagent_id,
        ...(payload.subagent_type == null ? {} : { agentType: payload.subagent_type }),
      };
    case "subagentStop":
      // A subagent that cannot be named has no log to close; never the main agent's end of turn.
      if (payload.subagent_id === undefined) return undefined;
      return {
        kind: "TurnEnded",
        agentId: payload.subagent_id,
        stopHookActive: payload.loop_count > 0,
        interrupted: INTERRUPTED_STATUSES.has(payload.status),
      };
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

/**
 * A tool call as the event of its phase: before it runs (preToolUse: the write or command the
 * tdd gate judges) or after (postToolUse: the file to queue, or the command whose writes core
 * finds). Cursor gives no exit code, so a command's `failed` stays unknown (tdd mode measures
 * test runs itself). Cursor documents no subagent field on tool events; one that carries
 * `subagent_id` (the id subagentStart gave) is gated against that subagent's log.
 */
function toolEvent(
  payload: Extract<CursorPayload, { hook_event_name: "preToolUse" | "postToolUse" }>,
  phase: "before" | "after",
): Mapped {
  const agentId = nonEmptyString(payload["subagent_id"]);
  const { tool_name: tool, tool_input: input } = payload;
  if (tool === "Shell")
    return checkedInput(ShellToolInputSchema, input, OWNER, ({ command, cwd }) =>
      commandEvent(phase, {
        command,
        cwd: cwd ?? nonEmptyString(payload["cwd"]) ?? payload.workspace_roots?.[0],
        agentId,
      }),
    );
  const mcp = /^MCP:(.+)$/.exec(tool);
  // An MCP tool that writes a path is an edit the gate judges (ADR 0012, twenty-second round).
  if (mcp !== null) {
    const base = nonEmptyString(payload["cwd"]) ?? payload.workspace_roots?.[0];
    const name = `mcp__cursor__${mcp[1] ?? ""}`;
    return phase === "before" ? mcpWriteRequest(name, input, base, agentId) : undefined;
  }
  if (tool !== "Write" && tool !== "Delete") return undefined;
  return checkedInput(FileToolInputSchema, input, OWNER, (data) => {
    const file = data.file_path ?? data.path;
    if (file === undefined)
      return { invalid: `payload field "tool_input.file_path": ${tool} names no file` };
    return tool === "Delete"
      ? editEvent(phase, { paths: [], deleted: [file], agentId })
      : editEvent(phase, { paths: [file], agentId });
  });
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
