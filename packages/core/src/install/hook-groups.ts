import * as z from "zod/mini";
import { parseJsonObject, type Parsed } from "./project-files.ts";

/**
 * The `hooks` object Claude Code's settings and Codex's hooks.json (and its inline `[hooks]`
 * table) share: `{ Event: [{ matcher?, hooks: [{ type: "command", command, timeout }] }] }`.
 * Every adapter's installer merges tailtest's handlers into it with these pure functions, each
 * given the platform's registration table, the marker that tells tailtest's handlers apart, and
 * the command they run.
 */
export interface HookRegistration<E extends string = string> {
  event: E;
  /** Absent: every occurrence of the event. */
  matcher?: string;
  /** Seconds. */
  timeout: number;
}

export interface HookSpec<E extends string = string> {
  /** What to register, in the order a fresh file lists it. */
  registrations: readonly HookRegistration<E>[];
  /** A substring only tailtest's own handler commands contain. */
  marker: string;
  /** The command a registration runs: one for all, or one per event. */
  command: HookCommand<E>;
}

/**
 * What a registration runs: one command for every event, or (what `init` writes) a command per
 * event that names its event (`--event=<name>`), so a hook whose stdin is empty or torn still
 * answers in its own event's shape.
 */
export type HookCommand<E extends string = string> = string | ((event: E) => string);

/** The command one event's registration runs. */
export function commandFor<E extends string>(command: HookCommand<E>, event: E): string {
  return typeof command === "string" ? command : command(event);
}

const HandlerSchema = z.looseObject({ command: z.optional(z.string()) });
const MatcherGroupSchema = z.looseObject({
  matcher: z.optional(z.string()),
  hooks: z.array(HandlerSchema),
});
export const HooksSchema = z.record(z.string(), z.array(MatcherGroupSchema));
export const HookSettingsSchema = z.looseObject({ hooks: z.optional(HooksSchema) });

export type Handler = z.infer<typeof HandlerSchema>;
export type MatcherGroup = z.infer<typeof MatcherGroupSchema>;
export type Hooks = z.infer<typeof HooksSchema>;
export type HookSettings = z.infer<typeof HookSettingsSchema>;

/** What one pass over a settings object did, event by event, for the summary. */
export interface HooksChange<E extends string = string> {
  settings: HookSettings;
  added: E[];
  updated: E[];
  /** Events a tailtest entry was taken out of (uninstall, or a stale entry on init). */
  removed: string[];
}

/** Reads a JSON file holding `hooks` (undefined: no file). Errors are a one-line message tail. */
export function parseHookSettings(text: string | undefined): Parsed<HookSettings> {
  const json = parseJsonObject(text);
  if (!json.ok) return json;
  const checked = checkHookSettings(json.value);
  // zod's output lists known keys first; the raw object keeps the user's key order.
  return checked.ok ? { ok: true, value: json.value } : checked;
}

/** Checks an already parsed object (from JSON or TOML) against the shared shape. */
export function checkHookSettings(value: unknown): Parsed<HookSettings> {
  const checked = HookSettingsSchema.safeParse(value);
  if (checked.success) return { ok: true, value: value as HookSettings };
  const issue = checked.error.issues[0];
  const where = issue === undefined ? "" : formatPath(issue.path);
  return { ok: false, error: `has an unexpected shape at ${where} (${issue?.message ?? ""})` };
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => {
      if (typeof key === "number") return `[${key}]`;
      return index === 0 ? String(key) : `.${String(key)}`;
    })
    .join("");
}

export function isMarkedHandler(handler: Handler, marker: string): boolean {
  return typeof handler.command === "string" && handler.command.includes(marker);
}

function sameMatcher(a: string | undefined, b: string | undefined): boolean {
  const normal = (m: string | undefined) => (m === undefined || m === "*" ? "" : m);
  return normal(a) === normal(b);
}

function renderHandler<E extends string>(
  registration: HookRegistration<E>,
  command: HookCommand<E>,
): Handler {
  return {
    type: "command",
    command: commandFor(command, registration.event),
    timeout: registration.timeout,
  };
}

function renderGroup<E extends string>(
  registration: HookRegistration<E>,
  command: HookCommand<E>,
): MatcherGroup {
  const hooks = [renderHandler(registration, command)];
  return registration.matcher === undefined ? { hooks } : { matcher: registration.matcher, hooks };
}

/** A registration table as a `hooks` object, in table order. */
export function renderHookGroups<E extends string>(
  registrations: readonly HookRegistration<E>[],
  command: HookCommand<E>,
): Hooks {
  return Object.fromEntries(
    registrations.map((registration) => [registration.event, [renderGroup(registration, command)]]),
  );
}

type Visit = (event: string, group: MatcherGroup, handler: Handler) => Handler | undefined;

/**
 * Rebuilds `hooks`, passing every marked entry through `visit` (a replacement, or undefined to
 * drop it). Groups and events emptied by a drop go too; everything else stays as it was.
 */
function mapMarkedEntries(hooks: Hooks, marker: string, visit: Visit): Hooks {
  const result: Hooks = {};
  for (const [event, groups] of Object.entries(hooks)) {
    const kept: MatcherGroup[] = [];
    for (const group of groups) {
      if (!group.hooks.some((handler) => isMarkedHandler(handler, marker))) {
        kept.push(group);
        continue;
      }
      const handlers = group.hooks.flatMap((handler) => {
        if (!isMarkedHandler(handler, marker)) return [handler];
        const next = visit(event, group, handler);
        return next === undefined ? [] : [next];
      });
      if (handlers.length > 0) kept.push({ ...group, hooks: handlers });
    }
    if (kept.length > 0 || groups.length === 0) result[event] = kept;
  }
  return result;
}

/**
 * Puts a registration table into settings: an existing marked entry under the right matcher is
 * updated where it stands, any other marked entry is dropped, and a missing one gets its own
 * matcher group at the end of its event. Nothing else changes, and the input is not mutated.
 */
export function addHookEntries<E extends string>(
  settings: HookSettings,
  spec: HookSpec<E>,
): HooksChange<E> {
  const wanted = new Map<string, HookRegistration<E>>(
    spec.registrations.map((registration) => [registration.event, registration]),
  );
  const placed = new Set<string>();
  const change: HooksChange<E> = { settings, added: [], updated: [], removed: [] };
  const hooks = mapMarkedEntries(settings.hooks ?? {}, spec.marker, (event, group, handler) => {
    const registration = wanted.get(event);
    if (
      registration === undefined ||
      placed.has(event) ||
      !sameMatcher(group.matcher, registration.matcher)
    ) {
      change.removed.push(event);
      return undefined;
    }
    placed.add(event);
    const next = renderHandler(registration, spec.command);
    if (JSON.stringify(next) !== JSON.stringify(handler)) change.updated.push(registration.event);
    return next;
  });
  for (const registration of spec.registrations) {
    if (placed.has(registration.event)) continue;
    hooks[registration.event] = [
      ...(hooks[registration.event] ?? []),
      renderGroup(registration, spec.command),
    ];
    change.added.push(registration.event);
  }
  change.settings = { ...settings, hooks };
  change.removed = unique(change.removed);
  return change;
}

/**
 * Takes out every marked entry and the groups and events that leaves empty. `hooks` goes too
 * when nothing is left in it, unless `keepEmptyHooks` (a table the user wrote and tailtest only
 * joined, such as Codex's inline `[hooks]`).
 */
export function removeHookEntries<E extends string = string>(
  settings: HookSettings,
  marker: string,
  options: { keepEmptyHooks?: boolean } = {},
): HooksChange<E> {
  const removed: string[] = [];
  const change: HooksChange<E> = { settings, added: [], updated: [], removed };
  if (settings.hooks === undefined) return change;
  const hooks = mapMarkedEntries(settings.hooks, marker, (event) => {
    removed.push(event);
    return undefined;
  });
  change.removed = unique(removed);
  if (change.removed.length === 0) return change;
  if (Object.keys(hooks).length > 0 || options.keepEmptyHooks === true) {
    change.settings = { ...settings, hooks };
  } else {
    const rest: HookSettings = { ...settings };
    delete rest.hooks;
    change.settings = rest;
  }
  return change;
}

/** What one pass over an agent's hooks file did, event by event (any platform's shape). */
export interface HookChangeSummary {
  added: readonly string[];
  updated: readonly string[];
  removed: readonly string[];
  /** Cursor: a `"version": 1` the file lacked. */
  versionAdded?: boolean;
}

export function hasHookChanges(change: HookChangeSummary): boolean {
  return (
    change.versionAdded === true ||
    change.added.length + change.updated.length + change.removed.length > 0
  );
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
