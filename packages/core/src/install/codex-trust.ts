import * as z from "zod/mini";

/**
 * Whether Codex will run tailtest's hooks yet. Codex skips project hooks, without a word, until
 * (1) the project is trusted (`[projects."<path>"] trust_level = "trusted"` in the user's
 * config.toml) and (2) each hook is trusted (`/hooks` records a `trusted_hash` under
 * `[hooks.state."<hooks file>:<event_label>:<group>:<handler>"]`). Pure: the CLI reads and parses
 * the TOML and JSON files; this decides.
 *
 * The hash Codex compares is its own (over a normalised TOML form of the hook), so a recorded
 * trust is reported as recorded; a hook edited since shows up in Codex's `/hooks` as modified.
 */

export const CodexProjectTrustSchema = z.enum(["trusted", "untrusted", "unknown"]);
export type CodexProjectTrust = z.infer<typeof CodexProjectTrustSchema>;

export const CodexTrustSchema = z.object({
  project: CodexProjectTrustSchema,
  /** The `[projects."…"]` entry that decided it, when one did. */
  project_entry: z.optional(z.string()),
  /** tailtest's handlers in the project's hooks files. */
  handlers: z.number().check(z.int(), z.minimum(0)),
  /** Of those, handlers with a trust record. */
  trusted: z.number().check(z.int(), z.minimum(0)),
  /** Of those, handlers turned off in `/hooks` (`enabled = false`). */
  disabled: z.number().check(z.int(), z.minimum(0)),
  /** Something is still to do before Codex runs every tailtest hook. */
  pending: z.boolean(),
  /** One line each, for people. */
  lines: z.array(z.string()),
});
export type CodexTrust = z.infer<typeof CodexTrustSchema>;

export interface CodexHooksSource {
  /** The hooks file as Codex names it in its trust keys: an absolute path. */
  path: string;
  /** The file's `hooks` table (JSON or TOML, parsed): event name → matcher groups. */
  hooks: unknown;
}

export interface CodexTrustInput {
  /** The project root, absolute, `/` separators. */
  root: string;
  sources: readonly CodexHooksSource[];
  /** The parsed user config (`$CODEX_HOME/config.toml`), undefined when there is none. */
  userConfig: unknown;
  /** Why the user config could not be read or parsed, when it could not. */
  userConfigProblem?: string | undefined;
  /** The parsed project `.codex/config.toml`, whose `hooks.state` counts too. */
  projectConfig?: unknown;
  /** A handler is tailtest's when its command contains one of these. */
  markers: readonly string[];
}

const HookStateSchema = z.looseObject({
  enabled: z.optional(z.boolean()),
  trusted_hash: z.optional(z.string()),
});
type HookState = z.infer<typeof HookStateSchema>;

const ConfigSchema = z.looseObject({
  projects: z.optional(
    z.record(z.string(), z.looseObject({ trust_level: z.optional(z.string()) })),
  ),
  hooks: z.optional(z.looseObject({ state: z.optional(z.record(z.string(), z.unknown())) })),
});

const GroupsSchema = z.array(
  z.looseObject({
    hooks: z.optional(z.array(z.looseObject({ command: z.optional(z.string()) }))),
  }),
);

/** Codex's key label for an event: `PostToolUse` → `post_tool_use`. */
export function codexEventLabel(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase();
}

function statesOf(config: unknown): Map<string, HookState> {
  const states = new Map<string, HookState>();
  const parsed = ConfigSchema.safeParse(config);
  if (!parsed.success) return states;
  for (const [key, value] of Object.entries(parsed.data.hooks?.state ?? {})) {
    const state = HookStateSchema.safeParse(value);
    if (state.success) states.set(key, state.data);
  }
  return states;
}

/** The trust keys of tailtest's handlers in one hooks file. */
function ourKeys(source: CodexHooksSource, markers: readonly string[]): string[] {
  if (source.hooks === null || typeof source.hooks !== "object") return [];
  const keys: string[] = [];
  for (const [event, value] of Object.entries(source.hooks as Record<string, unknown>)) {
    const groups = GroupsSchema.safeParse(value);
    if (!groups.success) continue; // `state` and anything that is not an event
    groups.data.forEach((group, groupIndex) => {
      (group.hooks ?? []).forEach((handler, handlerIndex) => {
        const command = handler.command ?? "";
        if (markers.some((marker) => command.includes(marker)))
          keys.push(`${source.path}:${codexEventLabel(event)}:${groupIndex}:${handlerIndex}`);
      });
    });
  }
  return keys;
}

function parentsOf(root: string): string[] {
  const parts = root.replace(/\/+$/, "").split("/");
  const paths: string[] = [];
  for (let i = parts.length; i > 1; i -= 1) paths.push(parts.slice(0, i).join("/"));
  paths.push("/");
  return paths;
}

function projectTrust(root: string, config: unknown): { trust: CodexProjectTrust; entry?: string } {
  const parsed = ConfigSchema.safeParse(config);
  const projects = parsed.success ? (parsed.data.projects ?? {}) : {};
  for (const path of parentsOf(root)) {
    const level = projects[path]?.trust_level;
    if (level === undefined) continue;
    return { trust: level === "trusted" ? "trusted" : "untrusted", entry: path };
  }
  return { trust: "unknown" };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function projectLine(trust: CodexProjectTrust, entry: string | undefined, input: CodexTrustInput) {
  if (input.userConfigProblem !== undefined)
    return `project trust unknown: the Codex config cannot be read (${input.userConfigProblem})`;
  switch (trust) {
    case "trusted":
      return `project trusted (${entry === input.root ? "this folder" : "a folder above it"})`;
    case "untrusted":
      return "project marked untrusted in the Codex config: Codex loads none of its hooks";
    case "unknown":
      return "project not trusted yet: accept Codex's trust prompt here (or codex exec --trust)";
  }
}

/** Where Codex trust stands for tailtest's hooks in this project. */
export function checkCodexTrust(input: CodexTrustInput): CodexTrust {
  const { trust, entry } =
    input.userConfigProblem === undefined
      ? projectTrust(input.root, input.userConfig)
      : { trust: "unknown" as const, entry: undefined };
  const states = new Map([...statesOf(input.projectConfig), ...statesOf(input.userConfig)]);
  const keys = input.sources.flatMap((source) => ourKeys(source, input.markers));
  const trusted = keys.filter((key) => states.get(key)?.trusted_hash !== undefined).length;
  const disabled = keys.filter((key) => states.get(key)?.enabled === false).length;
  const lines = [projectLine(trust, entry, input)];
  if (keys.length === 0) lines.push("no tailtest hooks found in the Codex hooks files");
  else if (trusted === keys.length)
    lines.push(`all ${plural(keys.length, "hook")} have a trust record (from /hooks)`);
  else
    lines.push(
      `${trusted} of ${plural(keys.length, "hook")} trusted: run /hooks in Codex and trust tailtest's (codex exec --dangerously-bypass-hook-trust in automation)`,
    );
  if (disabled > 0) lines.push(`${plural(disabled, "hook")} turned off in /hooks`);
  return {
    project: trust,
    ...(entry === undefined ? {} : { project_entry: entry }),
    handlers: keys.length,
    trusted,
    disabled,
    pending: trust !== "trusted" || trusted < keys.length || disabled > 0,
    lines,
  };
}
