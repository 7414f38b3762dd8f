import { parse as parseToml, patch as patchToml } from "@decimalturn/toml-patch";
import {
  addHookEntries,
  checkHookSettings,
  hasHookChanges,
  parseHookSettings,
  removeHookEntries,
  type HookCommand,
  type HookRegistration,
  type Hooks,
  type HookSettings,
  type HooksChange,
  type Parsed,
} from "@tailtest/core";
import type { UserHook } from "@tailtest/cli/installer";
import {
  EVENT_FLAG,
  hookNode,
  installedHookCommand,
  nodeGuardScript,
  USER_FLAG,
} from "@tailtest/core/quiet";
import * as z from "zod";

/** tailtest's own handlers are the ones whose command contains this, whatever else changed. */
export const HOOK_MARKER = "@tailtest/codex/dist/hook.cjs";

export const NOT_INSTALLED_LINE =
  "tailtest: @tailtest/codex is not installed here (npm i -D @tailtest/codex)";

/** What a hook command needs to know about Codex without node (`nodeGuardScript`). */
const GUARD = { gateEvent: "PreToolUse", noOpinion: "" } as const;

/**
 * What the hook command for one event runs, in POSIX sh. Codex starts hooks as
 * `$SHELL -lc "<command>"` in the session's folder and names no project, so the script walks up
 * from `$PWD` to the first folder whose node_modules holds the hook and runs it with node (no
 * npx: nothing is resolved or downloaded per call), naming its event (`--event=`, so a call with
 * empty or torn stdin gets its own event's answer). Without one it says so in one line and exits
 * 0, which Codex takes as "no opinion". Without node on the PATH it says so in one line, and a
 * tdd or strict gate blocks (exit 2, `nodeGuardScript`). No single quotes inside: the command
 * wraps it in them.
 */
export function hookScript(event: HookEventName): string {
  const guard = nodeGuardScript({ ...GUARD, projectDir: "$d", event });
  return [
    "d=$PWD",
    `while :; do f="$d/node_modules/${HOOK_MARKER}"; if [ -f "$f" ]; then ${guard}; exec ${hookNode(event)} "$f" ${EVENT_FLAG}${event}; fi; [ -n "$d" ] || break; d=\${d%/*}; done`,
    `echo "${NOT_INSTALLED_LINE}" >&2`,
  ].join("; ");
}

/**
 * The command one event's registration runs. It never changes with the project or machine:
 * Codex un-trusts a hook whose command changes. `sh -c '…'` keeps it POSIX whatever `$SHELL` is
 * (bash, zsh, dash, and fish, which would not parse the script itself).
 */
export function hookCommand(event: HookEventName): string {
  return `sh -c '${hookScript(event)}'`;
}

/**
 * A user-level install's command for one event: the pinned copy, standing aside where it must.
 * Its no-node guard reads the mode from the nearest folder above `$PWD` holding .tailtest/ (the
 * launcher's project walk), and it is wrapped in `sh -c '…'` like the project's.
 */
export function userHookCommand(hook: UserHook, event: HookEventName): string {
  const find =
    'd=$PWD; while [ -n "$d" ] && [ ! -d "$d/.tailtest" ]; do d=${d%/*}; done; [ -n "$d" ] || d=$PWD';
  const run = installedHookCommand({
    ...GUARD,
    projectDir: "$d",
    hookPath: hook.path,
    standAside: hook.standAside,
    flags: [USER_FLAG],
    event,
  });
  return `sh -c '${find}; ${run}'`;
}

export const HookEventNameSchema = z.enum([
  "SessionStart",
  "SubagentStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  "SessionEnd",
]);
export type HookEventName = z.infer<typeof HookEventNameSchema>;

/** The one table `init` writes, into `.codex/hooks.json` or an inline `[hooks]` table. */
export const CODEX_HOOKS: readonly HookRegistration<HookEventName>[] = [
  // Every source (startup, resume, clear, compact, fork): no matcher.
  { event: "SessionStart", timeout: 30 },
  // tdd mode's note for a subagent (its own log, commands with --agent); nothing in follow mode.
  { event: "SubagentStart", timeout: 30 },
  // The start of a turn: the Stop sweep looks for files changed after it.
  { event: "UserPromptSubmit", timeout: 30 },
  // tdd mode's gate, before apply_patch (file edits; Write and Edit are its matcher aliases) and
  // Bash (every shell tool) run; an anchored regex, so no other tool name matches. It answers
  // nothing in follow mode.
  { event: "PreToolUse", matcher: "^(apply_patch|Bash)$", timeout: 30 },
  // Only [A-Za-z0-9_|] makes Codex match exact names: the same two tools, after they ran. In tdd
  // mode a test command is measured by re-running the cycle's test (test_timeout_seconds,
  // default 300), so the timeout leaves room for a run and its start-up.
  { event: "PostToolUse", matcher: "apply_patch|Bash", timeout: 660 },
  // The end of a turn (the main agent's or a subagent's) runs the queued tests.
  { event: "Stop", timeout: 600 },
  { event: "SubagentStop", timeout: 600 },
  { event: "SessionEnd", timeout: 30 },
];

export type CodexHooksChange = HooksChange<HookEventName>;

/** What a registration runs: one command, or one per event (what `init` writes). */
export type CodexCommand = HookCommand<HookEventName>;

/** `command`: the project's walk-up commands, or a user-level install's pinned copy's. */
export function addCodexHooks(
  settings: HookSettings,
  command: CodexCommand = hookCommand,
): CodexHooksChange {
  return addHookEntries(settings, { registrations: CODEX_HOOKS, marker: HOOK_MARKER, command });
}

export function removeCodexHooks(
  settings: HookSettings,
  options: { keepEmptyHooks?: boolean } = {},
): CodexHooksChange {
  return removeHookEntries<HookEventName>(settings, HOOK_MARKER, options);
}

/** Reads `.codex/hooks.json` text (undefined: no file). Errors are a one-line message tail. */
export function parseHooksJson(text: string | undefined): Parsed<HookSettings> {
  return parseHookSettings(text);
}

/** A hooks.json holding nothing at all once tailtest's handlers are out: it can go. */
export function isEmptySettings(settings: HookSettings): boolean {
  return Object.keys(settings).length === 0;
}

// ---------------------------------------------------------------------------------------------
// .codex/config.toml

/** `[features]` keys that switch Codex's hooks off when false (`codex_hooks` is the old name). */
export const HOOK_FEATURE_KEYS = ["hooks", "codex_hooks"] as const;

type Table = Record<string, unknown>;

/** `.codex/config.toml`, parsed by toml-patch (dates, big integers and key order kept). */
export interface CodexConfig {
  doc: Table;
  /** The inline `[hooks]` table's events (its array-valued keys), when the file has the table. */
  hooks?: Hooks;
  /** `[features]` keys set to false that switch hooks off. */
  disabledFeatures: string[];
}

function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isDate(value);
}

function isDate(value: unknown): value is Date {
  return value instanceof Date;
}

/** The TOML parser's multi-line message as one line: where, and what. */
function describeTomlError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const lines = message.split("\n").filter((line) => line.trim() !== "");
  const what = lines.at(-1)?.trim() ?? "unreadable";
  const line = (error as { line?: unknown }).line;
  return typeof line === "number" ? `line ${line}: ${what}` : what;
}

/** Reads `.codex/config.toml` text (undefined: no file). Errors are a one-line message tail. */
export function parseCodexConfig(text: string | undefined): Parsed<CodexConfig | undefined> {
  if (text === undefined) return { ok: true, value: undefined };
  let doc: unknown;
  try {
    doc = parseToml(text);
  } catch (error) {
    return { ok: false, error: `is not valid TOML (${describeTomlError(error)})` };
  }
  if (!isTable(doc)) return { ok: false, error: "is not a TOML table" };
  const config: CodexConfig = { doc, disabledFeatures: [] };
  const features = doc["features"];
  if (isTable(features)) {
    config.disabledFeatures = HOOK_FEATURE_KEYS.filter((key) => features[key] === false);
  }
  const table = doc["hooks"];
  if (table === undefined) return { ok: true, value: config };
  if (!isTable(table)) return { ok: false, error: "has a hooks key that is not a table" };
  // Codex reads the array-valued keys as events; `state` (trust records) and anything newer is
  // not tailtest's business and passes through untouched.
  const events = Object.fromEntries(Object.entries(table).filter(([, v]) => Array.isArray(v)));
  const checked = checkHookSettings({ hooks: events });
  if (!checked.ok) return { ok: false, error: checked.error.replace(/ at hooks/, " at [hooks]") };
  config.hooks = checked.value.hooks ?? {};
  return { ok: true, value: config };
}

/**
 * Codex reads TOML 1.0: inline tables must stay on one line and carry no trailing comma (1.1
 * allows both, and toml-patch copies a trailing-comma style it sees in the file).
 */
const TOML_FORMAT = { trailingComma: false, multilineTable: false } as const;

export interface TomlPlan {
  text: string;
  /** What happened to the `[hooks]` table (undefined: it was left alone). */
  hooks?: CodexHooksChange;
  /** `[features]` keys turned from false to true. */
  enabled: string[];
}

export interface TomlRequest {
  hooks: "add" | "remove" | "keep";
  enableFeatures: boolean;
  /** The commands "add" registers (default: the project's, `hookCommand`). */
  command?: CodexCommand;
}

/**
 * The new config.toml text for a request, made with toml-patch from the parsed document (so
 * comments, key order and formatting elsewhere survive), then read back: a result that does not
 * parse to exactly the intended document is refused rather than written.
 */
export function planToml(
  text: string,
  config: CodexConfig,
  request: TomlRequest,
): Parsed<TomlPlan> {
  const doc: Table = { ...config.doc };
  const plan: TomlPlan = { text, enabled: [] };
  if (request.enableFeatures && config.disabledFeatures.length > 0) {
    const features = { ...(config.doc["features"] as Table) };
    for (const key of config.disabledFeatures) features[key] = true;
    doc["features"] = features;
    plan.enabled = [...config.disabledFeatures];
  }
  if (request.hooks !== "keep" && config.hooks !== undefined) {
    const change =
      request.hooks === "add"
        ? addCodexHooks({ hooks: config.hooks }, request.command)
        : removeCodexHooks({ hooks: config.hooks }, { keepEmptyHooks: true });
    if (hasHookChanges(change)) {
      const rest = Object.entries(config.doc["hooks"] as Table).filter(
        ([, v]) => !Array.isArray(v),
      );
      doc["hooks"] = { ...Object.fromEntries(rest), ...change.settings.hooks };
      plan.hooks = change;
    }
  }
  if (plan.hooks === undefined && plan.enabled.length === 0) return { ok: true, value: plan };
  let patched: string;
  try {
    patched = patchToml(text, doc, TOML_FORMAT);
  } catch (error) {
    return { ok: false, error: `could not be edited by toml-patch (${describeTomlError(error)})` };
  }
  let reread: unknown;
  try {
    reread = parseToml(patched);
  } catch (error) {
    return { ok: false, error: `came out of toml-patch unreadable (${describeTomlError(error)})` };
  }
  if (!sameValue(reread, doc)) {
    return { ok: false, error: "came out of toml-patch with other entries changed" };
  }
  plan.text = patched;
  return { ok: true, value: plan };
}

/**
 * Whether tailtest's handlers can live in this file's `[hooks]` table: taking them out of the
 * planned text must give the same document and the same lines (blank lines aside) as the file
 * without them. toml-patch 3.3.0 cannot take one `[[hooks.X]]` entry out while its siblings have
 * `[[hooks.X.hooks]]` sub-tables (it drops those too), and a comment right above a sub-table
 * ends up owned by the keys added before it; such files fail this check.
 */
export function tomlRoundTrips(text: string, config: CodexConfig, added: TomlPlan): boolean {
  // The added entries' own command does not matter here: remove finds them by HOOK_MARKER.
  const without = planToml(text, config, { hooks: "remove", enableFeatures: true });
  const after = parseCodexConfig(added.text);
  if (!without.ok || !after.ok || after.value === undefined) return false;
  const removed = planToml(added.text, after.value, { hooks: "remove", enableFeatures: false });
  if (!removed.ok) return false;
  const lines = (value: string) => value.split(/\r?\n/).filter((line) => line.trim() !== "");
  return JSON.stringify(lines(removed.value.text)) === JSON.stringify(lines(without.value.text));
}

/** Deep equality for parsed TOML: tables by keys in any order, dates by instant and kind. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (isDate(a) || isDate(b)) {
    return (
      isDate(a) &&
      isDate(b) &&
      a.constructor === b.constructor &&
      a.toISOString() === b.toISOString()
    );
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameValue(item, b[index]))
    );
  }
  if (isTable(a) || isTable(b)) {
    if (!isTable(a) || !isTable(b)) return false;
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]))
    );
  }
  return Object.is(a, b);
}
