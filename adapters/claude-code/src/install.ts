import { parseJsonObject, type Parsed } from "@tailtest/core";
import { z } from "zod";

/** tailtest's own entries are the ones whose command runs this file, whatever else changed. */
export const HOOK_MARKER = "@tailtest/claude-code/dist/hook.js";

/**
 * The project-settings command. `$CLAUDE_PROJECT_DIR` keeps absolute paths out of a file people
 * commit; `node` on the installed file avoids npx resolving (or downloading) on every edit.
 */
export const PROJECT_HOOK_COMMAND = `node "$CLAUDE_PROJECT_DIR/node_modules/${HOOK_MARKER}"`;

/** A plugin's hooks may only rely on files inside the plugin folder (it gets copied). */
export const PLUGIN_HOOK_COMMAND = 'node "${CLAUDE_PLUGIN_ROOT}/dist/hook.js"';

export const HookEventNameSchema = z.enum([
  "SessionStart",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  "SessionEnd",
]);
export type HookEventName = z.infer<typeof HookEventNameSchema>;

export interface HookRegistration {
  event: HookEventName;
  /** Absent: every occurrence of the event (Stop, SubagentStop and SessionEnd take no matcher). */
  matcher?: string;
  /** Seconds. */
  timeout: number;
}

/** The one table both `init` and the plugin's hooks.json are rendered from. */
export const TAILTEST_HOOKS: readonly HookRegistration[] = [
  { event: "SessionStart", matcher: "startup|resume|clear|compact", timeout: 30 },
  // MultiEdit left Claude Code in 2.0; older versions still send it.
  { event: "PostToolUse", matcher: "Write|Edit|MultiEdit|NotebookEdit", timeout: 30 },
  // The end of a turn (the main agent's or a subagent's) runs the queued tests.
  { event: "Stop", timeout: 600 },
  { event: "SubagentStop", timeout: 600 },
  { event: "SessionEnd", timeout: 30 },
];

const HandlerSchema = z.looseObject({ command: z.string().optional() });
const MatcherGroupSchema = z.looseObject({
  matcher: z.string().optional(),
  hooks: z.array(HandlerSchema),
});
const HooksSchema = z.record(z.string(), z.array(MatcherGroupSchema));
export const SettingsSchema = z.looseObject({ hooks: HooksSchema.optional() });

export type Handler = z.infer<typeof HandlerSchema>;
export type MatcherGroup = z.infer<typeof MatcherGroupSchema>;
export type Hooks = z.infer<typeof HooksSchema>;
export type Settings = z.infer<typeof SettingsSchema>;

/** What one pass over settings.json did, event by event, for the summary. */
export interface HooksChange {
  settings: Settings;
  added: HookEventName[];
  updated: HookEventName[];
  /** Events a tailtest entry was taken out of (uninstall, or a stale entry on init). */
  removed: string[];
}

/** Reads settings.json text (undefined: no file). Errors are the tail of a one-line message. */
export function parseSettings(text: string | undefined): Parsed<Settings> {
  const json = parseJsonObject(text);
  if (!json.ok) return json;
  const checked = SettingsSchema.safeParse(json.value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue === undefined ? "" : formatPath(issue.path);
    return { ok: false, error: `has an unexpected shape at ${where} (${issue?.message ?? ""})` };
  }
  // zod's output lists known keys first; the raw object keeps the user's key order.
  return { ok: true, value: json.value as Settings };
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => {
      if (typeof key === "number") return `[${key}]`;
      return index === 0 ? String(key) : `.${String(key)}`;
    })
    .join("");
}

export function isTailtestHandler(handler: Handler): boolean {
  return typeof handler.command === "string" && handler.command.includes(HOOK_MARKER);
}

function sameMatcher(a: string | undefined, b: string | undefined): boolean {
  const normal = (m: string | undefined) => (m === undefined || m === "*" ? "" : m);
  return normal(a) === normal(b);
}

function renderHandler(registration: HookRegistration, command: string): Handler {
  return { type: "command", command, timeout: registration.timeout };
}

function renderGroup(registration: HookRegistration, command: string): MatcherGroup {
  const hooks = [renderHandler(registration, command)];
  return registration.matcher === undefined ? { hooks } : { matcher: registration.matcher, hooks };
}

/** The table as a `hooks` object, for settings.json or a plugin's hooks.json. */
export function renderHooks(command: string): Hooks {
  return Object.fromEntries(
    TAILTEST_HOOKS.map((registration) => [
      registration.event,
      [renderGroup(registration, command)],
    ]),
  );
}

export const PLUGIN_DESCRIPTION =
  "tailtest: queues every file Claude edits, runs its tests at the end of each turn, and keeps a cross-session test history.";

/** The plugin's hooks/hooks.json, exactly as checked in. */
export function renderPluginHooksFile(): string {
  const file = { description: PLUGIN_DESCRIPTION, hooks: renderHooks(PLUGIN_HOOK_COMMAND) };
  return `${JSON.stringify(file, null, 2)}\n`;
}

type Visit = (event: string, group: MatcherGroup, handler: Handler) => Handler | undefined;

/**
 * Rebuilds `hooks`, passing every tailtest entry through `visit` (a replacement, or undefined to
 * drop it). Groups and events emptied by a drop go too; everything else stays as it was.
 */
function mapTailtestEntries(hooks: Hooks, visit: Visit): Hooks {
  const result: Hooks = {};
  for (const [event, groups] of Object.entries(hooks)) {
    const kept: MatcherGroup[] = [];
    for (const group of groups) {
      if (!group.hooks.some(isTailtestHandler)) {
        kept.push(group);
        continue;
      }
      const handlers = group.hooks.flatMap((handler) => {
        if (!isTailtestHandler(handler)) return [handler];
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
 * Puts tailtest's hooks into settings: an existing tailtest entry under the right matcher is
 * updated where it stands, any other tailtest entry is dropped, and a missing one gets its own
 * matcher group at the end of its event. Nothing else changes.
 */
export function addTailtestHooks(
  settings: Settings,
  command: string = PROJECT_HOOK_COMMAND,
): HooksChange {
  const wanted = new Map(TAILTEST_HOOKS.map((registration) => [registration.event, registration]));
  const placed = new Set<HookEventName>();
  const change: HooksChange = { settings, added: [], updated: [], removed: [] };
  const hooks = mapTailtestEntries(settings.hooks ?? {}, (event, group, handler) => {
    const parsedEvent = HookEventNameSchema.safeParse(event);
    const registration = parsedEvent.success ? wanted.get(parsedEvent.data) : undefined;
    if (
      registration === undefined ||
      placed.has(registration.event) ||
      !sameMatcher(group.matcher, registration.matcher)
    ) {
      change.removed.push(event);
      return undefined;
    }
    placed.add(registration.event);
    const next = renderHandler(registration, command);
    if (JSON.stringify(next) !== JSON.stringify(handler)) change.updated.push(registration.event);
    return next;
  });
  for (const registration of TAILTEST_HOOKS) {
    if (placed.has(registration.event)) continue;
    hooks[registration.event] = [
      ...(hooks[registration.event] ?? []),
      renderGroup(registration, command),
    ];
    change.added.push(registration.event);
  }
  change.settings = { ...settings, hooks };
  change.removed = unique(change.removed);
  return change;
}

/** Takes out every tailtest entry, the groups and events that leaves empty, and then `hooks`. */
export function removeTailtestHooks(settings: Settings): HooksChange {
  const removed: string[] = [];
  const change: HooksChange = { settings, added: [], updated: [], removed };
  if (settings.hooks === undefined) return change;
  const hooks = mapTailtestEntries(settings.hooks, (event) => {
    removed.push(event);
    return undefined;
  });
  change.removed = unique(removed);
  if (change.removed.length === 0) return change;
  if (Object.keys(hooks).length > 0) {
    change.settings = { ...settings, hooks };
  } else {
    const rest: Settings = { ...settings };
    delete rest.hooks;
    change.settings = rest;
  }
  return change;
}

export function hasChanges(change: HooksChange): boolean {
  return change.added.length + change.updated.length + change.removed.length > 0;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
