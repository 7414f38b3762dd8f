import {
  commandEvent,
  editEvent,
  lazy,
  mcpWriteRequest,
  patchEdit,
  renderJsonAnswer,
  sessionIdentity,
  shellCommandLine,
  startSource,
  translateHook,
  type Decision,
  type HookTranslation,
  type JsonProtocol,
  type Mapped,
} from "@tailtest/core/hook";
import * as z from "zod/mini";

/**
 * Fields every Codex hook payload carries (its hook protocol; SessionEnd has no `model` or
 * `permission_mode`, SessionStart no `turn_id`); others pass through.
 */
const BaseSchema = lazy(() =>
  z.looseObject({
    session_id: z.string(),
    cwd: z.string(),
    hook_event_name: z.string(),
    model: z.optional(z.string()),
    transcript_path: z.optional(z.nullable(z.string())),
    permission_mode: z.optional(z.string()),
    turn_id: z.optional(z.string()),
    agent_id: z.optional(z.string()),
    agent_type: z.optional(z.string()),
  }),
);

const SessionStartSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("SessionStart"),
    source: z.string(),
  }),
);

const UserPromptSubmitSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("UserPromptSubmit"),
  }),
);

/** Whether a shell tool sends a string or an argv array is unconfirmed (its hook protocol): both are read. */
const CommandSchema = lazy(() => z.union([z.string(), z.array(z.string())]));

/** Codex's file-edit tool; the matcher aliases Write and Edit select it, stdin keeps this name. */
export const PATCH_TOOL = "apply_patch";
/** Every shell-like tool reaches hooks under this name. */
export const SHELL_TOOL = "Bash";

const ToolInputSchema = lazy(() => z.looseObject({ command: z.optional(CommandSchema) }));

const PreToolUseSchema = lazy(() =>
  z
    .extend(BaseSchema, {
      hook_event_name: z.literal("PreToolUse"),
      tool_name: z.string(),
      tool_input: ToolInputSchema,
    })
    .check(
      z.superRefine((payload, context) => {
        // The gate reads the patch or the command line: without one it cannot decide (in tdd mode
        // a call it cannot decide is refused, so this is bad input rather than "no event").
        if (
          (payload.tool_name === PATCH_TOOL || payload.tool_name === SHELL_TOOL) &&
          payload.tool_input.command === undefined
        )
          context.addIssue({
            code: "custom",
            path: ["tool_input", "command"],
            message: `${payload.tool_name} without a command`,
          });
      }),
    ),
);

const PostToolUseSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("PostToolUse"),
    tool_name: z.string(),
    tool_input: ToolInputSchema,
    // A string for apply_patch and Bash in 0.169.0; opaque JSON by the schema.
    tool_response: z.optional(z.json()),
  }),
);

const StopSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.enum(["Stop", "SubagentStop"]),
    stop_hook_active: z._default(z.boolean(), false),
  }),
);

const SubagentStartSchema = lazy(() =>
  z.extend(BaseSchema, {
    hook_event_name: z.literal("SubagentStart"),
    agent_id: z.string(),
    agent_type: z.optional(z.string()),
  }),
);

const SessionEndSchema = lazy(() =>
  z.extend(BaseSchema, { hook_event_name: z.literal("SessionEnd") }),
);

export const CodexPayloadSchema = lazy(() =>
  z.discriminatedUnion("hook_event_name", [
    SessionStartSchema,
    UserPromptSubmitSchema,
    PreToolUseSchema,
    PostToolUseSchema,
    StopSchema,
    SubagentStartSchema,
    SessionEndSchema,
  ]),
);
export type CodexPayload = z.infer<typeof CodexPayloadSchema>;

/** Each handled event's option of the union, so a call builds only its own (parsePayload). */
const EVENT_SCHEMAS: ReadonlyMap<string, z.core.$ZodType> = new Map<string, z.core.$ZodType>([
  ["SessionStart", SessionStartSchema],
  ["UserPromptSubmit", UserPromptSubmitSchema],
  ["PreToolUse", PreToolUseSchema],
  ["PostToolUse", PostToolUseSchema],
  ["Stop", StopSchema],
  ["SubagentStop", StopSchema],
  ["SubagentStart", SubagentStartSchema],
  ["SessionEnd", SessionEndSchema],
]);

const HANDLED_EVENTS = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "SessionEnd",
]);

export type Translation = HookTranslation;

/** Codex's stdin → a platform-neutral event (undefined: an event tailtest ignores). */
export function translatePayload(stdin: string): HookTranslation {
  return translateHook(stdin, {
    base: BaseSchema,
    full: CodexPayloadSchema,
    events: EVENT_SCHEMAS,
    handled: HANDLED_EVENTS,
    owner: "Codex's",
    toEvent,
    // Each agent's tdd log is keyed by the session (and, for a subagent, the event's agentId).
    identity: sessionIdentity,
  });
}

function toEvent(payload: CodexPayload): Mapped {
  switch (payload.hook_event_name) {
    case "SessionStart":
      return {
        kind: "SessionStarted",
        sessionId: payload.session_id,
        source: startSource(payload.source),
      };
    case "UserPromptSubmit":
      return { kind: "TurnStarted", turnId: payload.turn_id };
    case "PreToolUse":
      return toolEvent(payload, "before");
    case "PostToolUse":
      return toolEvent(payload, "after");
    case "SubagentStart":
      return { kind: "SubagentStarted", agentId: payload.agent_id, agentType: payload.agent_type };
    case "Stop":
      // Shell writes (and apply_patch run from a shell) fire no apply_patch PostToolUse: the
      // sweep finds every source file changed since the turn began.
      return { kind: "TurnEnded", stopHookActive: payload.stop_hook_active, sweep: true };
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

type ToolPayload = Extract<CodexPayload, { hook_event_name: "PreToolUse" | "PostToolUse" }>;

/**
 * The edit or command of a tool call, as the event of its phase: apply_patch's files resolved
 * against the session's folder (an Add File is a new file: core needs no git process to tell),
 * or the shell's command line. Codex's tool_response is an opaque string with no exit code, so a
 * finished command's `failed` stays unset: tdd mode measures a test run by running it itself.
 */
function toolEvent(payload: ToolPayload, phase: "before" | "after"): Mapped {
  const { command } = payload.tool_input;
  const { cwd, agent_id: agentId } = payload;
  // An MCP tool that writes (`mcp__fs__write_file` {path}) is an edit tool by another door, judged
  // as Claude Code's are; installs do not route MCP calls here (a changed matcher un-trusts the
  // hook), but a person's own matcher may (ADR 0012, the twenty-second round).
  if (payload.tool_name.startsWith("mcp__"))
    return phase === "before"
      ? mcpWriteRequest(payload.tool_name, payload.tool_input, cwd, agentId)
      : undefined;
  if (command === undefined) return undefined;
  if (payload.tool_name === PATCH_TOOL) {
    const text = typeof command === "string" ? command : command.join("\n");
    const edit = patchEdit(text, cwd);
    return edit === undefined ? undefined : editEvent(phase, { ...edit, agentId });
  }
  if (payload.tool_name !== SHELL_TOOL) return undefined;
  const line = shellCommandLine(command);
  return line.trim() === "" ? undefined : commandEvent(phase, { command: line, cwd, agentId });
}

/**
 * What Codex 0.169.0 reads on stdout, per event (its hook protocol). Its output schemas deny
 * unknown fields, and a reply with one is thrown away whole (the hook "fails open"): context only
 * where `hookSpecificOutput.additionalContext` is accepted, a block only where `decision` is,
 * `systemMessage` everywhere; events missing here get no output at all. 0.169.0 also refuses a
 * deny or a block with an empty reason, so a blank one is replaced.
 */
const PROTOCOL: JsonProtocol = {
  gateEvent: "PreToolUse",
  events: {
    PreToolUse: { context: true, block: true },
    PostToolUse: { context: true, block: true },
    UserPromptSubmit: { context: true, block: true },
    Stop: { block: true },
    SubagentStop: { block: true },
    SessionStart: { context: true },
    SubagentStart: { context: true },
    PermissionRequest: {},
    Interrupt: {},
  },
  blankReason: {
    deny: "tailtest tdd: this call is refused before it runs.",
    block: "tailtest: tests for this turn's edits are missing or failing.",
  },
};

/** A Decision in Codex's exact output shape, or "" for no output (Codex's no-op). */
export function renderDecision(eventName: string, decision: Decision): string {
  return renderJsonAnswer(eventName, decision, PROTOCOL);
}
