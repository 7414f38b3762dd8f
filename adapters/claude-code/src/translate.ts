import {
  checkedInput,
  commandEvent,
  editEvent,
  lazy,
  mcpWriteRequest,
  nonEmptyString,
  renderJsonAnswer,
  sessionIdentity,
  startSource,
  translateHook,
  type Decision,
  type HookEnv,
  type HookTranslation,
  type JsonProtocol,
  type Mapped,
} from "@tailtest/core/hook";
import * as z from "zod/mini";

/** Fields every Claude Code hook payload carries (its hook protocol); others pass through. */
const BaseSchema = lazy(() =>
  z.looseObject({
    session_id: z.string(),
    transcript_path: z.nullish(z.string()),
    cwd: z.string(),
    hook_event_name: z.string(),
    agent_id: z.optional(z.string()),
  }),
);

const SessionStartSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("SessionStart"),
    source: z.string(),
  }),
);

/** Checked per tool in `toEvent` (a tool tailtest ignores may send anything). */
const PreToolUseSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("PreToolUse"),
    tool_name: z.string(),
    tool_input: z.record(z.string(), z.unknown()),
  }),
);

const PostToolUseSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("PostToolUse"),
    tool_name: z.string(),
    tool_input: z.looseObject({
      file_path: z.optional(z.string()),
      notebook_path: z.optional(z.string()),
      command: z.optional(z.string()),
    }),
    // Write answers `type: "create"` for a file it made, `"update"` for one it replaced.
    tool_response: z.catch(z.nullish(z.looseObject({ type: z.optional(z.string()) })), undefined),
  }),
);

const PostToolUseFailureSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("PostToolUseFailure"),
    tool_name: z.string(),
    tool_input: z.looseObject({ command: z.optional(z.string()) }),
    error: z.optional(z.string()),
    is_interrupt: z.optional(z.boolean()),
  }),
);

const SubagentStartSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("SubagentStart"),
    agent_id: z.string(),
    agent_type: z.optional(z.string()),
  }),
);

const StopSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.enum(["Stop", "SubagentStop"]),
    stop_hook_active: z._default(z.boolean(), false),
  }),
);

const SessionEndSchema = lazy(() =>
  z.extend(BaseSchema, { hook_event_name: z.literal("SessionEnd") }),
);

export const ClaudePayloadSchema = lazy(() =>
  z.discriminatedUnion("hook_event_name", [
    SessionStartSchema,
    PreToolUseSchema,
    PostToolUseSchema,
    PostToolUseFailureSchema,
    SubagentStartSchema,
    StopSchema,
    SessionEndSchema,
  ]),
);
export type ClaudePayload = z.infer<typeof ClaudePayloadSchema>;

/** The edit tools whose file tailtest gates and queues. MultiEdit left Claude Code in 2.0 but costs nothing to keep. */
const EDIT_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

const OWNER = "Claude Code's";

/** Claude Code's stdin → a platform-neutral event (undefined: an event tailtest ignores). */
export function translatePayload(stdin: string, env: HookEnv = {}): HookTranslation {
  return translateHook(
    stdin,
    {
      base: BaseSchema,
      full: ClaudePayloadSchema,
      events: EVENT_SCHEMAS,
      handled: HANDLED_EVENTS,
      owner: OWNER,
      toEvent,
      identity: sessionIdentity,
    },
    env,
  );
}

/** Each handled event's option of the union, so a call builds only its own (parsePayload). */
const EVENT_SCHEMAS: ReadonlyMap<string, z.core.$ZodType> = new Map<string, z.core.$ZodType>([
  ["SessionStart", SessionStartSchema],
  ["PreToolUse", PreToolUseSchema],
  ["PostToolUse", PostToolUseSchema],
  ["PostToolUseFailure", PostToolUseFailureSchema],
  ["SubagentStart", SubagentStartSchema],
  ["Stop", StopSchema],
  ["SubagentStop", StopSchema],
  ["SessionEnd", SessionEndSchema],
]);

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

function toEvent(payload: ClaudePayload, env: HookEnv): Mapped {
  const agentId = payload.agent_id;
  switch (payload.hook_event_name) {
    case "SessionStart": {
      const envFile = nonEmptyString(env["CLAUDE_ENV_FILE"]);
      return {
        kind: "SessionStarted",
        sessionId: payload.session_id,
        source: startSource(payload.source),
        ...(envFile === undefined ? {} : { envFile }),
      };
    }
    case "PreToolUse":
      return toolRequest(payload);
    case "PostToolUse":
      return toolDone(payload);
    case "PostToolUseFailure": {
      const { command } = payload.tool_input;
      if (payload.tool_name !== "Bash" || command === undefined) return undefined;
      const error = payload.error === undefined ? {} : { error: payload.error };
      return commandEvent("after", { command, cwd: payload.cwd, agentId, failed: true, ...error });
    }
    case "SubagentStart":
      return { kind: "SubagentStarted", agentId: payload.agent_id, agentType: payload.agent_type };
    case "Stop":
      return { kind: "TurnEnded", stopHookActive: payload.stop_hook_active };
    case "SubagentStop":
      return { kind: "TurnEnded", stopHookActive: payload.stop_hook_active, agentId };
    case "SessionEnd":
      return { kind: "SessionEnded" };
  }
}

/** A tool that ran: an edit tool's file, or a Bash command (which may have written files). */
function toolDone(payload: Extract<ClaudePayload, { hook_event_name: "PostToolUse" }>): Mapped {
  const { tool_name: tool, tool_input: input, agent_id: agentId, cwd } = payload;
  if (tool === "Bash")
    return input.command === undefined
      ? undefined
      : commandEvent("after", { command: input.command, cwd, agentId, failed: false });
  const path = input.file_path ?? input.notebook_path;
  if (!EDIT_TOOLS.has(tool) || path === undefined) return undefined;
  // Write answers `type: "create"` for a file it made, `"update"` for one it replaced.
  const created = tool === "Write" && payload.tool_response?.type === "create" ? [path] : [];
  return editEvent("after", { paths: [path], created, agentId });
}

// Each built by the gate that reads it (a call after a tool reads none of them).
const EditInputSchema = lazy(() => z.looseObject({ file_path: z.string() }));
const NotebookInputSchema = lazy(() => z.looseObject({ notebook_path: z.string() }));
const BashInputSchema = lazy(() => z.looseObject({ command: z.string() }));
const PlanInputSchema = lazy(() => z.looseObject({ plan: z.optional(z.string()) }));

/** A tool call about to run → the request the gate judges (a bad tool_input is invalid). */
function toolRequest(payload: z.infer<typeof PreToolUseSchema>): Mapped {
  const { tool_name: tool, tool_input: input, agent_id: agentId, cwd } = payload;
  if (tool === "NotebookEdit")
    return checkedInput(NotebookInputSchema, input, OWNER, (data) =>
      editEvent("before", { paths: [data.notebook_path], agentId }),
    );
  if (EDIT_TOOLS.has(tool))
    return checkedInput(EditInputSchema, input, OWNER, (data) =>
      editEvent("before", { paths: [data.file_path], agentId }),
    );
  if (tool === "Bash")
    return checkedInput(BashInputSchema, input, OWNER, (data) =>
      commandEvent("before", { command: data.command, cwd, agentId }),
    );
  if (tool === "ExitPlanMode")
    return checkedInput(PlanInputSchema, input, OWNER, (data) => ({
      kind: "PlanSubmitted",
      plan: data.plan ?? "",
    }));
  return mcpWriteRequest(tool, input, cwd, agentId);
}

/**
 * What each event of Claude Code's takes (its hook protocol): context where it reads
 * `additionalContext`, a block elsewhere; PostToolUseFailure documents only additionalContext,
 * which Claude reads as well.
 */
const PROTOCOL: JsonProtocol = {
  gateEvent: "PreToolUse",
  events: {
    PreToolUse: { context: true },
    PostToolUse: { context: true, block: true },
    PostToolUseFailure: { context: true, block: "context" },
    SubagentStart: { context: true, block: true },
    SessionStart: { context: true, block: true },
  },
  otherEvents: { block: true },
};

/** A Decision in Claude Code's exact output shape (its hook protocol), or "" for no output. */
export function renderDecision(eventName: string, decision: Decision): string {
  return renderJsonAnswer(eventName, decision, PROTOCOL);
}
