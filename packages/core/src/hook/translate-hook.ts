import { resolve } from "node:path";
import type * as z from "zod/mini";
import type { HookEvent } from "./hook-event.ts";
import { describeSchemaError, parsePayload, type PayloadSchemas } from "./payload.ts";
import { parsePatchFiles, patchEffects } from "./apply-patch.ts";
import type { CallIdentity, HookEnv, HookTranslation, PayloadRecord } from "./hook-platform.ts";
import { shellWord } from "../util/shell-word.ts";

/**
 * What every adapter's translation shares: reading a hook's stdin against the platform's schemas,
 * and turning a tool call into the event of its phase. An adapter supplies only its schemas and
 * the mapping of its own events and tools (`PayloadMapping`).
 */

/** An event tailtest handles, a tool input it cannot read (`invalid`, one line), or nothing. */
export type Mapped = HookEvent | { invalid: string } | undefined;

/** A platform's payloads: its schemas, its events → core's, and whose call each one is. */
export interface PayloadMapping<
  B extends z.core.$ZodType<PayloadRecord & { hook_event_name: string }>,
  F extends z.core.$ZodType,
> extends PayloadSchemas<B, F> {
  toEvent(payload: z.infer<F>, env: HookEnv): Mapped;
  identity(payload: z.infer<B>): CallIdentity;
}

/** A hook's stdin → a platform-neutral event (undefined: an event tailtest has no opinion on). */
export function translateHook<
  B extends z.core.$ZodType<PayloadRecord & { hook_event_name: string }>,
  F extends z.core.$ZodType,
>(stdin: string, mapping: PayloadMapping<B, F>, env: HookEnv = {}): HookTranslation {
  const parsed = parsePayload(stdin, mapping);
  if (!parsed.ok) return parsed;
  const event = parsed.handled ? mapping.toEvent(parsed.payload, env) : undefined;
  if (event !== undefined && "invalid" in event) return { ok: false, error: event.invalid };
  const payload = parsed.payload as z.infer<B>;
  return {
    ok: true,
    event,
    eventName: payload.hook_event_name,
    payload,
    identity: mapping.identity(payload),
  };
}

/** Claude Code's and Codex's caller: the session, with its transcript when there is one. */
export function sessionIdentity(payload: {
  session_id: string;
  transcript_path?: string | null | undefined;
}): CallIdentity {
  return { sessionId: payload.session_id, transcriptPath: payload.transcript_path ?? undefined };
}

/**
 * A payload or environment field that names something only when it is a string with text:
 * platforms send an absent field as missing, null or "" alike.
 */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

const START_SOURCES = new Set(["startup", "resume", "clear", "compact"]);

/** A session start's source; "fork" and future sources start a fresh session, like "startup". */
export function startSource(source: string): "startup" | "resume" | "clear" | "compact" {
  return START_SOURCES.has(source) ? (source as "startup") : "startup";
}

/** A tool's input through its schema, then into an event; a mismatch is one line. */
export function checkedInput<T>(
  schema: z.ZodMiniType<T>,
  input: unknown,
  owner: string,
  toEvent: (data: T) => Mapped,
): Mapped {
  const result = schema.safeParse(input);
  return result.success
    ? toEvent(result.data)
    : { invalid: describeSchemaError(result.error, owner, "tool_input") };
}

/** Before the tool runs (the pre-tool hook, the gate's) or after it (the post-tool hook). */
export type Phase = "before" | "after";

/** The files one edit tool call writes, removes and creates, and the subagent making it. */
export interface Edit {
  paths: readonly string[];
  deleted?: readonly string[] | undefined;
  created?: readonly string[] | undefined;
  agentId?: string | undefined;
}

/** An edit as the event of its phase (only FilesEdited says which files were created). */
export function editEvent(phase: Phase, edit: Edit): HookEvent {
  const { paths, deleted, created, agentId } = edit;
  return {
    kind: phase === "before" ? "EditRequested" : "FilesEdited",
    paths,
    ...(deleted === undefined ? {} : { deleted }),
    ...(phase === "after" && created !== undefined && created.length > 0 ? { created } : {}),
    ...(agentId === undefined ? {} : { agentId }),
  };
}

/** A shell command, and how it ended when the platform says (after it ran). */
export interface Command {
  command: string;
  cwd?: string | undefined;
  agentId?: string | undefined;
  failed?: boolean;
  error?: string;
}

/** A shell command as the event of its phase. */
export function commandEvent(phase: Phase, call: Command): HookEvent {
  const { command, cwd, agentId, failed, error } = call;
  const who = { command, cwd, ...(agentId === undefined ? {} : { agentId }) };
  if (phase === "before") return { kind: "CommandRequested", ...who };
  return {
    kind: "CommandFinished",
    ...who,
    ...(failed === undefined ? {} : { failed }),
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * The files an apply_patch envelope names (every Add, Update and Delete File, both sides of a
 * Move), resolved against the folder it runs in; undefined when it names none.
 */
export function patchEdit(text: string, cwd: string): Edit | undefined {
  const { written, deleted, created } = patchEffects(parsePatchFiles(text));
  if (written.length === 0 && deleted.length === 0) return undefined;
  const absolute = (path: string) => resolve(cwd, path);
  return {
    paths: written.map(absolute),
    deleted: deleted.map(absolute),
    created: created.map(absolute),
  };
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
  return command.map(shellWord).join(" ");
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

/**
 * An MCP tool about to run, as the edit the gate judges: one whose name reads like a write
 * (`mcp__<server>__<tool>`) and whose arguments (an object, or a JSON string as Cursor sends
 * them) name a path. A relative path is taken from `base` (the session's or workspace's folder).
 * Undefined for any other call: nothing to judge.
 */
export function mcpWriteRequest(
  toolName: string,
  input: unknown,
  base: string | undefined,
  agentId?: string,
): HookEvent | undefined {
  if (!isMcpWriteTool(toolName)) return undefined;
  let fields: unknown = input;
  if (typeof input === "string") {
    try {
      fields = JSON.parse(input);
    } catch {
      return undefined;
    }
  }
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return undefined;
  const paths = mcpPaths(fields as Record<string, unknown>).map((path) =>
    path.startsWith("/") || base === undefined ? path : `${base.replace(/\/+$/, "")}/${path}`,
  );
  return paths.length === 0 ? undefined : editEvent("before", { paths, agentId });
}
