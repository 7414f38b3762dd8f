import { resolve } from "node:path";
import {
  ownEntry,
  parsePatchFiles,
  parsePayload,
  patchEffects,
  type Decision,
  type HookEvent,
} from "@tailtest/core/hook";
import * as z from "zod/mini";

/**
 * Fields every Codex hook payload carries (its hook protocol; SessionEnd has no `model` or
 * `permission_mode`, SessionStart no `turn_id`); others pass through.
 */
const BaseSchema = z.looseObject({
  session_id: z.string(),
  cwd: z.string(),
  hook_event_name: z.string(),
  model: z.optional(z.string()),
  transcript_path: z.optional(z.nullable(z.string())),
  permission_mode: z.optional(z.string()),
  turn_id: z.optional(z.string()),
  agent_id: z.optional(z.string()),
  agent_type: z.optional(z.string()),
});

const SessionStartSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("SessionStart"),
  source: z.string(),
});

const UserPromptSubmitSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("UserPromptSubmit"),
});

/** Whether a shell tool sends a string or an argv array is unconfirmed (its hook protocol): both are read. */
const CommandSchema = z.union([z.string(), z.array(z.string())]);

/** Codex's file-edit tool; the matcher aliases Write and Edit select it, stdin keeps this name. */
export const PATCH_TOOL = "apply_patch";
/** Every shell-like tool reaches hooks under this name. */
export const SHELL_TOOL = "Bash";

const ToolInputSchema = z.looseObject({ command: z.optional(CommandSchema) });

const PreToolUseSchema = z
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
  );

const PostToolUseSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("PostToolUse"),
  tool_name: z.string(),
  tool_input: ToolInputSchema,
  // A string for apply_patch and Bash in 0.169.0; opaque JSON by the schema.
  tool_response: z.optional(z.json()),
});

const StopSchema = z.extend(BaseSchema, {
  hook_event_name: z.enum(["Stop", "SubagentStop"]),
  stop_hook_active: z._default(z.boolean(), false),
});

const SubagentStartSchema = z.extend(BaseSchema, {
  hook_event_name: z.literal("SubagentStart"),
  agent_id: z.string(),
  agent_type: z.optional(z.string()),
});

const SessionEndSchema = z.extend(BaseSchema, { hook_event_name: z.literal("SessionEnd") });

export const CodexPayloadSchema = z.discriminatedUnion("hook_event_name", [
  SessionStartSchema,
  UserPromptSubmitSchema,
  PreToolUseSchema,
  PostToolUseSchema,
  StopSchema,
  SubagentStartSchema,
  SessionEndSchema,
]);
export type CodexPayload = z.infer<typeof CodexPayloadSchema>;

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

const START_SOURCES = new Set(["startup", "resume", "clear", "compact"]);

export type Translation =
  { ok: true; event: HookEvent | undefined; payload: CodexPayload } | { ok: false; error: string };

/** Codex's stdin → a platform-neutral event (undefined: an event tailtest ignores). */
export function translatePayload(stdin: string): Translation {
  const parsed = parsePayload(stdin, {
    base: BaseSchema,
    full: CodexPayloadSchema,
    handled: HANDLED_EVENTS,
    owner: "Codex's",
  });
  if (!parsed.ok) return parsed;
  if (!parsed.handled)
    return { ok: true, event: undefined, payload: parsed.payload as CodexPayload };
  return { ok: true, event: toEvent(parsed.payload), payload: parsed.payload };
}

function toEvent(payload: CodexPayload): HookEvent | undefined {
  switch (payload.hook_event_name) {
    case "SessionStart": {
      // "fork" and future sources start a fresh session, like "startup".
      const source = START_SOURCES.has(payload.source) ? (payload.source as "startup") : "startup";
      return { kind: "SessionStarted", sessionId: payload.session_id, source };
    }
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
 * The files an apply_patch call names (every Add, Update and Delete File, both sides of a Move),
 * resolved against the session's folder; undefined when the patch names none.
 */
function patchedPaths(
  payload: ToolPayload,
  command: string | readonly string[],
): { written: string[]; deleted: string[]; created: string[] } | undefined {
  const text = typeof command === "string" ? command : command.join("\n");
  const { written, deleted, created } = patchEffects(parsePatchFiles(text));
  if (written.length === 0 && deleted.length === 0) return undefined;
  const absolute = (path: string) => resolve(payload.cwd, path);
  return {
    written: written.map(absolute),
    deleted: deleted.map(absolute),
    created: created.map(absolute),
  };
}

/** Before the tool runs (PreToolUse, tdd mode's gate) or after it (PostToolUse). */
type Phase = "before" | "after";
const SHELL_KIND = { before: "CommandRequested", after: "CommandFinished" } as const;

/**
 * The edit or command of a tool call, as the event of its phase. Codex's tool_response is an
 * opaque string with no exit code, so a finished command's `failed` stays unset: tdd mode
 * measures a test run by running the cycle's test itself.
 */
function toolEvent(payload: ToolPayload, phase: Phase): HookEvent | undefined {
  const command = payload.tool_input.command;
  if (command === undefined) return undefined;
  if (payload.tool_name === PATCH_TOOL) {
    const paths = patchedPaths(payload, command);
    if (paths === undefined) return undefined;
    const edit = { paths: paths.written, deleted: paths.deleted, agentId: payload.agent_id };
    // An Add File is a new file: after the patch, core needs no git process to tell.
    return phase === "before"
      ? { kind: "EditRequested", ...edit }
      : {
          kind: "FilesEdited",
          ...edit,
          ...(paths.created.length === 0 ? {} : { created: paths.created }),
        };
  }
  if (payload.tool_name === SHELL_TOOL) {
    const line = shellCommandLine(command);
    if (line.trim() === "") return undefined;
    return { kind: SHELL_KIND[phase], command: line, cwd: payload.cwd, agentId: payload.agent_id };
  }
  return undefined;
}

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh"]);

/**
 * The command line a shell tool ran. An argv array that is a shell running a script
 * (`["bash", "-lc", cmd]`, `["sh", "-c", cmd]`) is that script; any other array is its
 * elements joined by spaces, each quoted when the shell would otherwise split or expand it.
 */
export function shellCommandLine(command: string | readonly string[]): string {
  if (typeof command === "string") return command;
  const [program, flag, script] = command;
  const name = program?.split("/").pop() ?? "";
  if (SHELLS.has(name) && flag !== undefined && /^-[a-z]*c[a-z]*$/.test(flag)) return script ?? "";
  return command.map(quoteWord).join(" ");
}

function quoteWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Keys Codex accepts in any hook's output (its hook protocol). */
const COMMON_KEYS = ["continue", "stopReason", "suppressOutput", "systemMessage"] as const;

interface AllowedOutput {
  top: readonly string[];
  /** Keys inside `hookSpecificOutput`; absent: the event takes none. */
  specific?: readonly string[];
}

/**
 * What Codex 0.169.0 accepts on stdout, per event. Its output schemas deny unknown fields, and a
 * reply with one is thrown away whole (the hook "fails open"), so tailtest renders from this
 * table and nothing else. Events missing here get no output at all.
 */
export const ALLOWED_OUTPUT: Readonly<Record<string, AllowedOutput>> = {
  PreToolUse: {
    top: [...COMMON_KEYS, "decision", "reason", "hookSpecificOutput"],
    specific: [
      "hookEventName",
      "permissionDecision",
      "permissionDecisionReason",
      "updatedInput",
      "additionalContext",
    ],
  },
  PostToolUse: {
    top: [...COMMON_KEYS, "decision", "reason", "hookSpecificOutput"],
    specific: ["hookEventName", "additionalContext", "updatedMCPToolOutput"],
  },
  UserPromptSubmit: {
    top: [...COMMON_KEYS, "decision", "reason", "hookSpecificOutput"],
    specific: ["hookEventName", "additionalContext"],
  },
  Stop: { top: [...COMMON_KEYS, "decision", "reason"] },
  SubagentStop: { top: [...COMMON_KEYS, "decision", "reason"] },
  SessionStart: {
    top: [...COMMON_KEYS, "hookSpecificOutput"],
    specific: ["hookEventName", "additionalContext"],
  },
  SubagentStart: {
    top: [...COMMON_KEYS, "hookSpecificOutput"],
    specific: ["hookEventName", "additionalContext"],
  },
  PermissionRequest: { top: [...COMMON_KEYS, "hookSpecificOutput"], specific: ["hookEventName"] },
  Interrupt: { top: ["systemMessage"] },
};

/** Codex refuses a block without a reason; tailtest's reasons are never empty, but be sure. */
const FALLBACK_REASON = "tailtest: tests for this turn's edits are missing or failing.";
/** Codex 0.169.0 refuses a deny with an empty reason (the hook would fail open). */
const FALLBACK_DENY_REASON = "tailtest tdd: this call is refused before it runs.";

/** The one way tailtest refuses a tool call in PreToolUse: never "allow", "ask" or updatedInput. */
function renderDeny(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason.trim() === "" ? FALLBACK_DENY_REASON : reason,
    },
  });
}

/**
 * A Decision in Codex's exact output shape, or "" for no output (exit 0 with empty stdout is
 * Codex's no-op). A deny (or block) before a tool runs is PreToolUse's `permissionDecision:
 * "deny"`. Context goes to the model where the event carries `additionalContext`, and to the user
 * as `systemMessage` at the end of a turn (where it would otherwise wake the agent); a context's
 * `env` has no Codex key and is dropped.
 */
export function renderDecision(eventName: string, decision: Decision): string {
  const allowed = ownEntry(ALLOWED_OUTPUT, eventName);
  if (allowed === undefined) return "";
  // The person's line (the end of a verified turn) is `systemMessage`: shown, not sent to the model.
  const user = allowed.top.includes("systemMessage") ? decision.userMessage : undefined;
  const forUser = user === undefined ? {} : { systemMessage: user };
  if (decision.kind === "none") return user === undefined ? "" : JSON.stringify(forUser);
  if (decision.kind === "deny" || decision.kind === "block") {
    if (eventName === "PreToolUse") return renderDeny(decision.reason);
    // A deny can only answer a call that has not run; after it, the nearest is a block.
    if (!allowed.top.includes("decision")) return user === undefined ? "" : JSON.stringify(forUser);
    const reason = decision.reason.trim() === "" ? FALLBACK_REASON : decision.reason;
    return JSON.stringify({ decision: "block", reason, ...forUser });
  }
  if (allowed.specific?.includes("additionalContext") === true) {
    return JSON.stringify({
      hookSpecificOutput: { hookEventName: eventName, additionalContext: decision.text },
      ...forUser,
    });
  }
  if (!allowed.top.includes("systemMessage")) return "";
  return JSON.stringify({
    systemMessage: user === undefined ? decision.text : `${user}\n${decision.text}`,
  });
}
