import * as z from "zod/mini";

/** A hook's stdin checked against its platform's schemas, or one line saying why it is not. */
export type ParsedPayload<Base, Full> =
  | { ok: true; handled: true; payload: Full }
  | { ok: true; handled: false; payload: Base }
  | { ok: false; error: string };

export interface PayloadSchemas<B extends z.core.$ZodType, F extends z.core.$ZodType> {
  /** Fields every event of the platform carries. */
  base: B;
  /** The events tailtest handles, discriminated by `hook_event_name`. */
  full: F;
  /**
   * Each handled event's own schema, the option of `full` its `hook_event_name` selects, built
   * on first use (`lazy`): a call parses its one event without building every other event's
   * schema, which `full` (a discriminated union) does on its first parse. An event without an
   * entry, or a payload without a string `hook_event_name`, is parsed by `full`.
   */
  events?: ReadonlyMap<string, z.core.$ZodType>;
  handled: ReadonlySet<string>;
  /** For messages: "Cursor's", "Codex's" … */
  owner: string;
}

/**
 * Parses a hook's stdin: an event tailtest handles must match its full schema; any other event
 * only the base fields (so a new event never reads as bad input). A byte-order mark is dropped
 * (Cursor on Windows has been seen to send one).
 */
export function parsePayload<B extends z.core.$ZodType, F extends z.core.$ZodType>(
  stdin: string,
  schemas: PayloadSchemas<B, F>,
): ParsedPayload<z.infer<B>, z.infer<F>> {
  if (stdin.length > PAYLOAD_LIMITS.stdinChars)
    return { ok: false, error: `stdin is longer than ${PAYLOAD_LIMITS.stdinChars} characters` };
  let json: unknown;
  try {
    json = JSON.parse(stdin.replace(/^\uFEFF/, ""));
  } catch {
    return { ok: false, error: "stdin is not JSON" };
  }
  const oversized = findOversized(json, [], 0);
  if (oversized !== undefined) return { ok: false, error: oversized };
  const name = (json as { hook_event_name?: unknown } | null)?.hook_event_name;
  if (typeof name === "string" && !schemas.handled.has(name)) {
    const base = z.safeParse(schemas.base, json);
    return base.success
      ? { ok: true, handled: false, payload: base.data }
      : { ok: false, error: describeSchemaError(base.error, schemas.owner) };
  }
  // The union would pick the same option by `hook_event_name`: same result, same issues.
  const schema = (typeof name === "string" && schemas.events?.get(name)) || schemas.full;
  const parsed = z.safeParse(schema as F, json);
  return parsed.success
    ? { ok: true, handled: true, payload: parsed.data }
    : { ok: false, error: describeSchemaError(parsed.error, schemas.owner) };
}

/** The first schema problem as one line naming the field. */
export function describeSchemaError(
  error: z.core.$ZodError,
  owner: string,
  prefix?: string,
): string {
  const issue = error.issues[0];
  if (issue === undefined) return `payload does not match ${owner} hook schema`;
  const path = [...(prefix === undefined ? [] : [prefix]), ...issue.path.map(String)];
  return `payload field "${path.join(".") || "payload"}": ${issue.message}`;
}

/**
 * What no real hook call comes near, refused before any schema or later stage sees it: a path
 * longer than Linux's PATH_MAX cannot name a file; a plan or a command of megabytes would make
 * the plan review and the shell parser do work no agent asked for (a strict plan review once ran
 * out of memory on one). Edit contents (`content`, `new_string`) are not capped: they are never
 * parsed, only passed on.
 */
export const PAYLOAD_LIMITS = {
  stdinChars: 16 * 1024 * 1024,
  pathChars: 4096,
  /** A plan (Claude Code's ExitPlanMode) is prose for a person: far below this. */
  planChars: 256 * 1024,
  /** A shell command or an apply_patch body can carry a whole file (a heredoc, an Add File). */
  commandChars: 4 * 1024 * 1024,
  depth: 64,
} as const;

/** Fields that name a file or folder. */
const PATH_FIELDS = new Set([
  "cwd",
  "file_path",
  "path",
  "notebook_path",
  "relative_path",
  "transcript_path",
  "agent_transcript_path",
  "workspace_roots",
  "source",
  "destination",
  "old_path",
  "new_path",
]);

/** Fields whose text later stages parse, and their limits. */
const TEXT_FIELDS: ReadonlyMap<string, number> = new Map([
  ["plan", PAYLOAD_LIMITS.planChars],
  ["command", PAYLOAD_LIMITS.commandChars],
  ["patch", PAYLOAD_LIMITS.commandChars],
]);

/** The first field over its limit, as one line, or undefined. */
function findOversized(value: unknown, path: readonly string[], depth: number): string | undefined {
  if (depth > PAYLOAD_LIMITS.depth)
    return `payload is nested deeper than ${PAYLOAD_LIMITS.depth} levels`;
  if (typeof value === "string") return oversizedText(value, path);
  if (value === null || typeof value !== "object") return undefined;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    // An array's items are named by the field that holds them (`workspace_roots.0`).
    const named = Array.isArray(value) ? path : [...path, key];
    const found = findOversized(item, named, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function oversizedText(text: string, path: readonly string[]): string | undefined {
  const field = path.at(-1) ?? "";
  const where = path.join(".") || "payload";
  if (PATH_FIELDS.has(field) && text.length > PAYLOAD_LIMITS.pathChars)
    return `payload field "${where}" is longer than ${PAYLOAD_LIMITS.pathChars} characters`;
  const limit = TEXT_FIELDS.get(field);
  if (limit !== undefined && text.length > limit)
    return `payload field "${where}" is longer than ${limit} characters`;
  return undefined;
}
