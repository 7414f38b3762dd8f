import { parseJsonObject, type Parsed } from "@tailtest/core/hook";
import type { UserHook } from "@tailtest/cli/installer";
import { installedHookCommand, projectHookCommand, USER_FLAG } from "@tailtest/core/quiet";
import * as z from "zod/mini";

/** tailtest's own entries are the ones whose command runs this file, whatever else changed. */
export const HOOK_MARKER = "@tailtest/cursor/dist/hook.cjs";

/** What a hook command needs to know about Cursor without node (`nodeGuardScript`). */
const GUARD = {
  projectDir: "${CURSOR_PROJECT_DIR:-.}",
  gateEvent: "preToolUse",
  // Cursor counts an empty answer as a failed hook.
  noOpinion: "{}",
} as const;

/**
 * The project's hook command for one event. Cursor runs project hooks from the workspace root
 * and sets `CURSOR_PROJECT_DIR`, so no absolute path lands in a file people commit; `node` on
 * the installed file avoids npx resolving (or downloading) on every edit; `--event=` lets a call
 * with empty or torn stdin get its own event's answer. In a checkout where the package is not
 * installed yet it says so in one line on stderr and answers `{}` (`projectHookCommand`).
 */
export function hookCommand(event: CursorEvent): string {
  return projectHookCommand({
    ...GUARD,
    packageName: "@tailtest/cursor",
    hookPath: `\${CURSOR_PROJECT_DIR:-.}/node_modules/${HOOK_MARKER}`,
    projectExpression: 'process.env.CURSOR_PROJECT_DIR||"."',
    sessionStartEvent: "sessionStart",
    systemMessage: false,
    event,
  });
}

/**
 * A user-level install's command for one event (`~/.cursor/hooks.json`, run from `~/.cursor`
 * with `CURSOR_PROJECT_DIR` set): the pinned copy, standing aside where it must.
 */
export function userHookCommand(hook: UserHook, event: CursorEvent): string {
  return installedHookCommand({
    ...GUARD,
    hookPath: hook.path,
    standAside: hook.standAside,
    flags: [USER_FLAG],
    event,
  });
}

/** What a registration runs: one command, or one per event (what `init` writes). */
export type HookCommand = string | ((event: CursorEvent) => string);

/**
 * Every event name Cursor's loader accepts (its hook protocol). One name outside this list
 * makes Cursor ignore the whole hooks.json, silently.
 */
export const CURSOR_EVENTS = [
  "sessionStart",
  "sessionEnd",
  "beforeSubmitPrompt",
  "preToolUse",
  "postToolUse",
  "postToolUseFailure",
  "beforeShellExecution",
  "afterShellExecution",
  "beforeMCPExecution",
  "afterMCPExecution",
  "beforeReadFile",
  "afterFileEdit",
  "stop",
  "subagentStart",
  "subagentStop",
  "preCompact",
  "afterAgentResponse",
  "afterAgentThought",
  "beforeTabFileRead",
  "afterTabFileEdit",
  "workspaceOpen",
] as const;
export const CursorEventSchema = z.enum(CURSOR_EVENTS);
export type CursorEvent = z.infer<typeof CursorEventSchema>;

export interface HookRegistration {
  event: CursorEvent;
  /** A JavaScript regex Cursor tests against the tool name; absent: every occurrence. */
  matcher?: string;
  /** Seconds (Cursor's default is 60). */
  timeout: number;
  /**
   * stop and subagentStop only: how many followups in a row Cursor allows (its default is 5,
   * null unlimited).
   */
  loop_limit?: number;
}

/** The tools tailtest follows and gates; Cursor tests the matcher unanchored, hence the anchors. */
const TOOL_MATCHER = "^(Write|Delete|Shell)$";
/** The gate sees MCP tools too (`MCP:<tool>`): one that writes a path is judged as an edit. */
const GATE_MATCHER = "^(Write|Delete|Shell|MCP:.*)$";

/** The one table `init` writes from. Every event is one Cursor knows (CURSOR_EVENTS). */
export const TAILTEST_HOOKS: readonly HookRegistration[] = [
  { event: "sessionStart", timeout: 30 },
  // tdd mode's gate, before a write or a shell command runs; no opinion in follow mode.
  { event: "preToolUse", matcher: GATE_MATCHER, timeout: 30 },
  // The only per-edit event whose additional_context reaches the agent; Shell for files a
  // command writes. In tdd mode a test command is measured here by re-running the cycle's test
  // (test_timeout_seconds, 300 by default), hence the long timeout.
  { event: "postToolUse", matcher: TOOL_MATCHER, timeout: 660 },
  // Every agent edit, whatever the tool; its output is ignored, so it only queues.
  { event: "afterFileEdit", timeout: 30 },
  // tdd mode: a subagent gets its own log, closed when it stops (where its tests run in follow
  // mode, so the same timeout and loop_limit as stop).
  { event: "subagentStart", timeout: 30 },
  { event: "subagentStop", timeout: 600, loop_limit: 3 },
  // The end of a turn runs the queued tests. loop_limit matches stop_loop_budget's default and
  // is never null: an unlimited loop is the one thing a test hook must not cause.
  { event: "stop", timeout: 600, loop_limit: 3 },
  { event: "sessionEnd", timeout: 30 },
];

const HandlerSchema = z.looseObject({ command: z.optional(z.string()) });
const HooksSchema = z.record(z.string(), z.array(HandlerSchema));
export const HooksFileSchema = z.looseObject({
  version: z.optional(z.unknown()),
  hooks: z.optional(HooksSchema),
});

export type Handler = z.infer<typeof HandlerSchema>;
export type Hooks = z.infer<typeof HooksSchema>;
export type HooksFile = z.infer<typeof HooksFileSchema>;

/** The version a new hooks.json gets (the only one Cursor documents). */
export const HOOKS_FILE_VERSION = 1;

/** What one pass over hooks.json did, event by event, for the summary. */
export interface HooksChange {
  file: HooksFile;
  added: CursorEvent[];
  updated: CursorEvent[];
  /** Events a tailtest entry was taken out of (uninstall, or a stale entry on init). */
  removed: string[];
  /** init put `version` in a file that had none (Cursor needs it). */
  versionAdded: boolean;
}

/**
 * Reads hooks.json text (undefined: no file) the way Cursor's loader would accept it. Errors are
 * the tail of a one-line message.
 */
export function parseHooksFile(text: string | undefined): Parsed<HooksFile> {
  const json = parseJsonObject(text);
  if (!json.ok) return json;
  const checked = HooksFileSchema.safeParse(json.value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue === undefined ? "" : formatPath(issue.path);
    return { ok: false, error: `has an unexpected shape at ${where} (${issue?.message ?? ""})` };
  }
  const version = json.value["version"];
  if (version !== undefined && !isPositiveInteger(version)) {
    return {
      ok: false,
      error: `has version ${JSON.stringify(version)}, but Cursor needs a positive integer`,
    };
  }
  // zod's output lists known keys first; the raw object keeps the user's key order.
  return { ok: true, value: json.value };
}

function isPositiveInteger(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => {
      if (typeof key === "number") return `[${key}]`;
      return index === 0 ? String(key) : `.${String(key)}`;
    })
    .join("");
}

/** The event names in the file that Cursor does not know: any one disables the whole file. */
export function unknownEvents(file: HooksFile): string[] {
  return Object.keys(file.hooks ?? {}).filter(
    (event) => !CursorEventSchema.safeParse(event).success,
  );
}

export function isTailtestHandler(handler: Handler): boolean {
  return typeof handler.command === "string" && handler.command.includes(HOOK_MARKER);
}

/** Whether Cursor would load this file and run tailtest from it. */
export function runsTailtest(file: HooksFile): boolean {
  if (unknownEvents(file).length > 0) return false;
  return TAILTEST_HOOKS.some((registration) =>
    (file.hooks?.[registration.event] ?? []).some(isTailtestHandler),
  );
}

/** One registration as a hooks.json entry: `{command, timeout, matcher?, loop_limit?}`. */
export function renderHandler(
  registration: HookRegistration,
  command: HookCommand = hookCommand,
): Handler {
  return {
    command: typeof command === "string" ? command : command(registration.event),
    timeout: registration.timeout,
    ...(registration.matcher === undefined ? {} : { matcher: registration.matcher }),
    ...(registration.loop_limit === undefined ? {} : { loop_limit: registration.loop_limit }),
  };
}

/** The table as a `hooks` object. */
export function renderHooks(command: HookCommand = hookCommand): Hooks {
  return Object.fromEntries(
    TAILTEST_HOOKS.map((registration) => [
      registration.event,
      [renderHandler(registration, command)],
    ]),
  );
}

type Visit = (event: string, handler: Handler) => Handler | undefined;

/**
 * Rebuilds `hooks`, passing every tailtest entry through `visit` (a replacement, or undefined to
 * drop it). Events emptied by a drop go too; everything else stays as it was, in order.
 */
function mapTailtestEntries(hooks: Hooks, visit: Visit): Hooks {
  const result: Hooks = {};
  for (const [event, handlers] of Object.entries(hooks)) {
    if (!handlers.some(isTailtestHandler)) {
      result[event] = handlers;
      continue;
    }
    const kept = handlers.flatMap((handler) => {
      if (!isTailtestHandler(handler)) return [handler];
      const next = visit(event, handler);
      return next === undefined ? [] : [next];
    });
    if (kept.length > 0) result[event] = kept;
  }
  return result;
}

/**
 * Puts tailtest's hooks into hooks.json: the first tailtest entry of an event tailtest uses is
 * updated where it stands, any other tailtest entry is dropped, and a missing one is appended
 * to its event. A file without `version` gets version 1 in front. Nothing else changes.
 */
export function addTailtestHooks(file: HooksFile, command: HookCommand = hookCommand): HooksChange {
  const wanted = new Map(TAILTEST_HOOKS.map((registration) => [registration.event, registration]));
  const placed = new Set<CursorEvent>();
  const change: HooksChange = { file, added: [], updated: [], removed: [], versionAdded: false };
  const hooks = mapTailtestEntries(file.hooks ?? {}, (event, handler) => {
    const parsedEvent = CursorEventSchema.safeParse(event);
    const registration = parsedEvent.success ? wanted.get(parsedEvent.data) : undefined;
    if (registration === undefined || placed.has(registration.event)) {
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
      renderHandler(registration, command),
    ];
    change.added.push(registration.event);
  }
  change.versionAdded = file.version === undefined;
  change.file = change.versionAdded
    ? { version: HOOKS_FILE_VERSION, ...file, hooks }
    : { ...file, hooks };
  change.removed = unique(change.removed);
  return change;
}

/** Takes out every tailtest entry, the events that leaves empty, and then `hooks`; `version` stays. */
export function removeTailtestHooks(file: HooksFile): HooksChange {
  const removed: string[] = [];
  const change: HooksChange = { file, added: [], updated: [], removed, versionAdded: false };
  if (file.hooks === undefined) return change;
  const hooks = mapTailtestEntries(file.hooks, (event) => {
    removed.push(event);
    return undefined;
  });
  change.removed = unique(removed);
  if (change.removed.length === 0) return change;
  if (Object.keys(hooks).length > 0) {
    change.file = { ...file, hooks };
  } else {
    const rest: HooksFile = { ...file };
    delete rest.hooks;
    change.file = rest;
  }
  return change;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
