import {
  describeSchemaError,
  parsePayload,
  type Decision,
  type HookEvent,
} from "@tailtest/core/hook";
import * as z from "zod/mini";

/** Fields every Claude Code hook payload carries (its hook protocol); others pass through. */
const BaseSchema = z.looseObject({
  session_id: z.string(),
  transcript_path: z.nullish(z.string()),
  cwd: z.string(),
  hook_event_name: z.string(),
  agent_id: z.optional(z.string()),
});

const SessionStartSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("SessionStart"),
  source: z.string(),
});

/** Checked per tool in `toEvent` (a tool tailtest ignores may send anything). */
const PreToolUseSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("PreToolUse"),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
});

const PostToolUseSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("PostToolUse"),
  tool_name: z.string(),
  tool_input: z.looseObject({
    file_path: z.optional(z.string()),
    notebook_path: z.optional(z.string()),
    command: z.optional(z.string()),
  }),
  // Write answers `type: "create"` for a file it made, `"update"` for one it replaced.
  tool_response: z.catch(z.nullish(z.looseObject({ type: z.optional(z.string()) })), undefined),
});

const PostToolUseFailureSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("PostToolUseFailure"),
  tool_name: z.string(),
  tool_input: z.looseObject({ command: z.optional(z.string()) }),
  error: z.optional(z.string()),
  is_interrupt: z.optional(z.boolean()),
});

const SubagentStartSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("SubagentStart"),
  agent_id: z.string(),
  agent_type: z.optional(z.string()),
});

const StopSchema = z.extend(BaseSchema, {
  hook_event_name: z.enum(["Stop", "SubagentStop"]),
  stop_hook_active: z._default(z.boolean(), false),
});

const SessionEndSchema = z.extend(BaseSchema, { hook_event_name: z.literal("SessionEnd") });

export const ClaudePayloadSchema = z.discriminatedUnion("hook_event_name", [
  SessionStartSchema,
  PreToolUseSchema,
  PostToolUseSchema,
  PostToolUseFailureSchema,
  SubagentStartSchema,
  StopSchema,
  SessionEndSchema,
]);
export type ClaudePayload = z.infer<typeof ClaudePayloadSchema>;

/** The edit tools whose file tailtest gates and queues. MultiEdit left Claude Code in 2.0 but costs nothing to keep. */
export const EDIT_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

const START_SOURCES = new Set(["startup", "resume", "clear", "compact"]);

/** What the hook's environment adds to a payload (SessionStart's CLAUDE_ENV_FILE). */
export type HookEnv = Readonly<Record<string, string | undefined>>;

export type Translation =
  { ok: true; event: HookEvent | undefined; payload: ClaudePayload } | { ok: false; error: string };

/** Claude Code's stdin → a platform-neutral event (undefined: an event tailtest ignores). */
export function translatePayload(stdin: string, env: HookEnv = {}): Translation {
  const parsed = parsePayload(stdin, {
    base: BaseSchema,
    full: ClaudePayloadSchema,
    handled: HANDLED_EVENTS,
    owner: "Claude Code's",
  });
  if (!parsed.ok) return parsed;
  if (!parsed.handled)
    return { ok: true, event: undefined, payload: parsed.payload as ClaudePayload };
  const event = toEvent(parsed.payload, env);
  if (event !== undefined && "invalid" in event) return { ok: false, error: event.invalid };
  return { ok: true, event, payload: parsed.payload };
}

const HANDLED_EVENTS = new Set([
  "SessionStart",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "SubagentStart",
  "Stop",
  "SubagentStop",
  "SessionEnd",
]);

/** `invalid`: a handled event whose tool_input tailtest cannot read (one line). */
type ToEvent = HookEvent | { invalid: string } | undefined;

function toEvent(payload: ClaudePayload, env: HookEnv): ToEvent {
  switch (payload.hook_event_name) {
    case "SessionStart": {
      // "fork" and future sources start a fresh session, like "startup".
      const source = START_SOURCES.has(payload.source) ? (payload.source as "startup") : "startup";
      const envFile = env["CLAUDE_ENV_FILE"];
      return {
        kind: "SessionStarted",
        sessionId: payload.session_id,
        source,
        ...(envFile === undefined || envFile === "" ? {} : { envFile }),
      };
    }
    case "PreToolUse":
      return toolRequest(payload);
    case "PostToolUse":
      return toolDone(payload);
    case "PostToolUseFailure": {
      const command = payload.tool_input.command;
      if (payload.tool_name !== "Bash" || command === undefined) return undefined;
      return commandFinished(payload, command, {
        failed: true,
        ...(payload.error === undefined ? {} : { error: payload.error }),
      });
    }
    case "SubagentStart":
      return {
        kind: "SubagentStarted",
        agentId: payload.agent_id,
        ...(payload.agent_type === undefined ? {} : { agentType: payload.agent_type }),
      };
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

/** A tool that ran: an edit tool's file, or a Bash command (which may have written files). */
function toolDone(payload: Extract<ClaudePayload, { hook_event_name: "PostToolUse" }>): ToEvent {
  const { tool_name: tool, tool_input: input } = payload;
  if (tool === "Bash")
    return input.command === undefined
      ? undefined
      : commandFinished(payload, input.command, { failed: false });
  if (!EDIT_TOOLS.has(tool)) return undefined;
  const path = input.file_path ?? input.notebook_path;
  if (path === undefined) return undefined;
  const created = tool === "Write" && payload.tool_response?.type === "create";
  return {
    kind: "FilesEdited",
    paths: [path],
    ...(created ? { created: [path] } : {}),
    agentId: payload.agent_id,
  };
}

function commandFinished(
  payload: { cwd: string; agent_id?: string | undefined },
  command: string,
  outcome: { failed: boolean; error?: string },
): HookEvent {
  return {
    kind: "CommandFinished",
    command,
    cwd: payload.cwd,
    agentId: payload.agent_id,
    ...outcome,
  };
}

const EditInputSchema = z.looseObject({ file_path: z.string() });
const NotebookInputSchema = z.looseObject({ notebook_path: z.string() });
const BashInputSchema = z.looseObject({ command: z.string() });
const PlanInputSchema = z.looseObject({ plan: z.optional(z.string()) });

type PreToolUse = z.infer<typeof PreToolUseSchema>;

/** A tool call about to run → the request the gate judges (a bad tool_input is invalid). */
function toolRequest(payload: PreToolUse): ToEvent {
  const { tool_name: tool, tool_input: input, agent_id: agentId } = payload;
  if (tool === "NotebookEdit")
    return checked(NotebookInputSchema, input, (data) => ({
      kind: "EditRequested",
      paths: [data.notebook_path],
      agentId,
    }));
  if (EDIT_TOOLS.has(tool))
    return checked(EditInputSchema, input, (data) => ({
      kind: "EditRequested",
      paths: [data.file_path],
      agentId,
    }));
  if (tool === "Bash")
    return checked(BashInputSchema, input, (data) => ({
      kind: "CommandRequested",
      command: data.command,
      cwd: payload.cwd,
      agentId,
    }));
  if (tool === "ExitPlanMode")
    return checked(PlanInputSchema, input, (data) => ({
      kind: "PlanSubmitted",
      plan: data.plan ?? "",
    }));
  if (isMcpWriteTool(tool)) {
    const paths = mcpPaths(input);
    return paths.length === 0 ? undefined : { kind: "EditRequested", paths, agentId };
  }
  return undefined;
}

/** tool_input through its tool's schema, then into an event; a mismatch is one line. */
function checked<T>(
  schema: z.ZodMiniType<T>,
  input: unknown,
  toEvent: (data: T) => HookEvent,
): ToEvent {
  const result = schema.safeParse(input);
  return result.success
    ? toEvent(result.data)
    : { invalid: describeSchemaError(result.error, "Claude Code's", "tool_input") };
}

const MCP_WRITE_WORDS =
  /write|edit|create|move|rename|delete|remove|patch|append|replace|insert|update|save|put|upload|copy|apply|modify|overwrite|touch|mkdir|unlink/i;

/** `mcp__<server>__<tool>` whose tool part names a write: an edit tool by another door. */
export function isMcpWriteTool(toolName: string): boolean {
  const match = /^mcp__.+?__(.+)$/.exec(toolName);
  return match?.[1] !== undefined && MCP_WRITE_WORDS.test(match[1]);
}

/**
 * Fields of an MCP tool's input that name files: `path`, `file_path`, `filePath`,
 * `relative_path` (serena), `notebook_path`, `source`, `destination`, `target`, `file`, `paths`, …
 */
const MCP_PATH_FIELD =
  /(^|_|[a-z])(path|paths|file|files|filename|source|destination|dest|target)$/i;

/** Every path-like string an MCP write tool was given (lists included), in field order. */
export function mcpPaths(input: Readonly<Record<string, unknown>>): string[] {
  const paths: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string" && value.trim() !== "" && !paths.includes(value))
      paths.push(value);
  };
  for (const [field, value] of Object.entries(input)) {
    if (!MCP_PATH_FIELD.test(field)) continue;
    if (Array.isArray(value)) for (const item of value) add(item);
    else add(value);
  }
  return paths;
}

/** Events whose context Claude Code reads from `hookSpecificOutput.additionalContext`. */
const CONTEXT_EVENTS = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "SubagentStart",
  "SessionStart",
]);

/** A refusal of a tool call that has not run: the reason goes to Claude. Never an "allow". */
export function renderDeny(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  });
}

/**
 * A Decision in Claude Code's exact output shape (its hook protocol), or "" for no output.
 * tailtest never answers "allow": that would skip the person's own permission prompt.
 */
export function renderDecision(eventName: string, decision: Decision): string {
  // The person's line (the end of a verified turn) is `systemMessage`: shown, never sent to Claude.
  const user = decision.userMessage;
  const forUser = user === undefined ? {} : { systemMessage: user };
  switch (decision.kind) {
    case "none":
      return user === undefined ? "" : JSON.stringify(forUser);
    case "context":
      if (CONTEXT_EVENTS.has(eventName))
        return JSON.stringify({
          hookSpecificOutput: { hookEventName: eventName, additionalContext: decision.text },
          ...forUser,
        });
      // Context at the end of a turn would wake the agent up again; the user sees it instead.
      return JSON.stringify({
        systemMessage: user === undefined ? decision.text : `${user}\n${decision.text}`,
      });
    case "deny":
    case "block":
      // Top-level decision/reason is deprecated for PreToolUse; elsewhere it is the block.
      if (eventName === "PreToolUse") return renderDeny(decision.reason);
      // PostToolUseFailure documents only additionalContext, which Claude reads as well.
      if (eventName === "PostToolUseFailure")
        return renderDecision(eventName, {
          kind: "context",
          text: decision.reason,
          userMessage: decision.userMessage,
        });
      return JSON.stringify({ decision: "block", reason: decision.reason, ...forUser });
  }
}
