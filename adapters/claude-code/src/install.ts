import {
  addHookEntries,
  isMarkedHandler,
  parseHookSettings,
  removeHookEntries,
  renderHookGroups,
  type Handler,
  type HookCommand,
  type HookRegistration as CoreHookRegistration,
  type Hooks,
  type HookSettings,
  type HooksChange as CoreHooksChange,
  type Parsed,
} from "@tailtest/core";
import {
  installedHookCommand,
  projectHookCommand as notInstalledCommand,
  USER_FLAG,
} from "@tailtest/core/quiet";
import type { UserHook } from "@tailtest/cli/installer";
import * as z from "zod";

/** tailtest's own entries are the ones whose command runs this file, whatever else changed. */
export const HOOK_MARKER = "@tailtest/claude-code/dist/hook.cjs";

/** What a hook command needs to know about Claude Code without node (`nodeGuardScript`). */
const GUARD = {
  projectDir: "$CLAUDE_PROJECT_DIR",
  gateEvent: "PreToolUse",
  noOpinion: "",
} as const;

/**
 * The project-settings command for one event. `$CLAUDE_PROJECT_DIR` keeps absolute paths out of
 * a file people commit; `node` on the installed file avoids npx resolving (or downloading) on
 * every edit; `--event=` lets a call with empty or torn stdin get its own event's answer. In a
 * checkout where the package is not installed yet it says so in one line and has no opinion
 * (`projectHookCommand`); in tdd and strict mode the session's start tells the person the gate
 * is off. Without node on the PATH it says so in one line, and a tdd or strict gate blocks.
 */
export function projectHookCommand(event: HookEventName): string {
  return notInstalledCommand({
    ...GUARD,
    packageName: "@tailtest/claude-code",
    hookPath: `$CLAUDE_PROJECT_DIR/node_modules/${HOOK_MARKER}`,
    projectExpression: 'process.env.CLAUDE_PROJECT_DIR||"."',
    sessionStartEvent: "SessionStart",
    systemMessage: true,
    event,
  });
}

/**
 * The plugin's command for one event: a plugin's hooks may only rely on files inside the plugin
 * folder (it gets copied), so it runs the plugin's own dist/ with the same no-node guard.
 */
export function pluginHookCommand(event: HookEventName): string {
  return installedHookCommand({ ...GUARD, hookPath: "${CLAUDE_PLUGIN_ROOT}/dist/hook.cjs", event });
}

/** A user-level install's command for one event: the pinned copy, standing aside where it must. */
export function userHookCommand(hook: UserHook, event: HookEventName): string {
  return installedHookCommand({
    ...GUARD,
    hookPath: hook.path,
    standAside: hook.standAside,
    flags: [USER_FLAG],
    event,
  });
}

export const HookEventNameSchema = z.enum([
  "SessionStart",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "SubagentStart",
  "Stop",
  "SubagentStop",
  "SessionEnd",
]);
export type HookEventName = z.infer<typeof HookEventNameSchema>;

/** SubagentStart, Stop, SubagentStop and SessionEnd take no matcher: absent means every occurrence. */
export type HookRegistration = CoreHookRegistration<HookEventName>;

/** The tools tdd mode gates before they run; anchored, since a regex matcher is unanchored. */
export const PRE_TOOL_MATCHER = "^(Write|Edit|MultiEdit|NotebookEdit|Bash|ExitPlanMode|mcp__.*)$";

/** The one table both `init` and the plugin's hooks.json are rendered from. */
export const TAILTEST_HOOKS: readonly HookRegistration[] = [
  { event: "SessionStart", matcher: "startup|resume|clear|compact", timeout: 30 },
  // tdd mode's gate, before a write tool, a shell command, a plan or an MCP tool runs. A regex
  // matcher is unanchored in Claude Code, so it is anchored here (TodoWrite is not Write). The
  // plan review may take up to tdd.plan_review.timeout_seconds (at most 600).
  { event: "PreToolUse", matcher: PRE_TOOL_MATCHER, timeout: 660 },
  // MultiEdit left Claude Code in 2.0; older versions still send it. After a Bash command, tdd
  // mode may re-run the cycle's test (test_timeout_seconds, default 300).
  { event: "PostToolUse", matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash", timeout: 660 },
  { event: "PostToolUseFailure", matcher: "Bash", timeout: 660 },
  // A subagent gets its own TDD log and the commands that name it.
  { event: "SubagentStart", timeout: 30 },
  // The end of a turn (the main agent's or a subagent's) runs the queued tests.
  { event: "Stop", timeout: 600 },
  { event: "SubagentStop", timeout: 600 },
  { event: "SessionEnd", timeout: 30 },
];

export type { Handler, Hooks };
export type Settings = HookSettings;

/** What one pass over settings.json did, event by event, for the summary. */
export type HooksChange = CoreHooksChange<HookEventName>;

/** Reads settings.json text (undefined: no file). Errors are the tail of a one-line message. */
export function parseSettings(text: string | undefined): Parsed<Settings> {
  return parseHookSettings(text);
}

export function isTailtestHandler(handler: Handler): boolean {
  return isMarkedHandler(handler, HOOK_MARKER);
}

/** The table as a `hooks` object, for settings.json or a plugin's hooks.json. */
export function renderHooks(command: HookCommand<HookEventName>): Hooks {
  return renderHookGroups(TAILTEST_HOOKS, command);
}

export const PLUGIN_DESCRIPTION =
  "tailtest: queues every file Claude edits, runs its tests at the end of each turn, keeps a cross-session test history, and in tdd mode enforces Red → Green → Refactor.";

/** The plugin's hooks/hooks.json, exactly as checked in. */
export function renderPluginHooksFile(): string {
  const file = { description: PLUGIN_DESCRIPTION, hooks: renderHooks(pluginHookCommand) };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/**
 * Puts tailtest's hooks into settings: an existing tailtest entry under the right matcher is
 * updated where it stands, any other tailtest entry is dropped, and a missing one gets its own
 * matcher group at the end of its event. Nothing else changes.
 */
export function addTailtestHooks(
  settings: Settings,
  command: HookCommand<HookEventName> = projectHookCommand,
): HooksChange {
  return addHookEntries(settings, { registrations: TAILTEST_HOOKS, marker: HOOK_MARKER, command });
}

/** Takes out every tailtest entry, the groups and events that leaves empty, and then `hooks`. */
export function removeTailtestHooks(settings: Settings): HooksChange {
  return removeHookEntries<HookEventName>(settings, HOOK_MARKER);
}
