import type { z } from "zod";

/** A hook's stdin checked against its platform's schemas, or one line saying why it is not. */
export type ParsedPayload<Base, Full> =
  | { ok: true; handled: true; payload: Full }
  | { ok: true; handled: false; payload: Base }
  | { ok: false; error: string };

export interface PayloadSchemas<B extends z.ZodType, F extends z.ZodType> {
  /** Fields every event of the platform carries. */
  base: B;
  /** The events tailtest handles, discriminated by `hook_event_name`. */
  full: F;
  handled: ReadonlySet<string>;
  /** For messages: "Cursor's", "Codex's" … */
  owner: string;
}

/**
 * Parses a hook's stdin: an event tailtest handles must match its full schema; any other event
 * only the base fields (so a new event never reads as bad input). A byte-order mark is dropped
 * (Cursor on Windows has been seen to send one).
 */
export function parsePayload<B extends z.ZodType, F extends z.ZodType>(
  stdin: string,
  schemas: PayloadSchemas<B, F>,
): ParsedPayload<z.infer<B>, z.infer<F>> {
  let json: unknown;
  try {
    json = JSON.parse(stdin.replace(/^\uFEFF/, ""));
  } catch {
    return { ok: false, error: "stdin is not JSON" };
  }
  const name = (json as { hook_event_name?: unknown } | null)?.hook_event_name;
  if (typeof name === "string" && !schemas.handled.has(name)) {
    const base = schemas.base.safeParse(json);
    return base.success
      ? { ok: true, handled: false, payload: base.data }
      : { ok: false, error: describeSchemaError(base.error, schemas.owner) };
  }
  const parsed = schemas.full.safeParse(json);
  return parsed.success
    ? { ok: true, handled: true, payload: parsed.data }
    : { ok: false, error: describeSchemaError(parsed.error, schemas.owner) };
}

/** The first schema problem as one line naming the field. */
export function describeSchemaError(error: z.ZodError, owner: string, prefix?: string): string {
  const issue = error.issues[0];
  if (issue === undefined) return `payload does not match ${owner} hook schema`;
  const path = [...(prefix === undefined ? [] : [prefix]), ...issue.path.map(String)];
  return `payload field "${path.join(".") || "payload"}": ${issue.message}`;
}
