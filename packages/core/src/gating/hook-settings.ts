/**
 * What of an agent's settings file decides whether tailtest's hooks run (ADR 0012, the
 * twenty-first round): a program with a computed name (`os.path.join('.cl' + 'aude', …)`) wrote
 * `{"disableAllHooks": true}` into `.claude/settings.local.json`, or emptied `.cursor/hooks.json`,
 * and nothing was said: the gate reads names, the end of the turn judges code, and the next
 * session ran without the gate. Pure: the hooks read the files (`node/hook-settings-watch.ts`).
 */

/** Claude Code's settings keys that switch hooks off or change what they run with. */
const CLAUDE_HOOK_KEYS = ["hooks", "disableAllHooks", "allowManagedHooksOnly", "env"] as const;

/**
 * The part of a settings file that decides the hooks, comparable as text; null when the file is
 * missing or says nothing of hooks. Claude Code's `settings*.json` keep only their hook keys (Claude Code writes the
 * person's permission answers into `settings.local.json` during a session: not a change here);
 * Codex's `config.toml` its lines about hooks (Codex keeps other choices there); any other file
 * (Cursor's and Codex's `hooks.json`) whole.
 */
export function hookPart(path: string, text: string | undefined): string | null {
  if (text === undefined) return null;
  const name = path.split(/[\\/]/).pop() ?? path;
  if (/^settings.*\.json$/i.test(name)) return claudePart(text);
  if (name === "config.toml") return tomlHookLines(text) || null;
  return text;
}

/** Claude Code's hook keys as text; null when the file has none (as when it is missing). */
function claudePart(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return text;
  const settings = parsed as Record<string, unknown>;
  const part = CLAUDE_HOOK_KEYS.map((key) => settings[key] ?? null);
  return part.every((value) => value === null) ? null : JSON.stringify(part);
}

/** The lines of a TOML file in a table about hooks, or that name hooks (`codex_hooks = true`). */
function tomlHookLines(text: string): string {
  let table = "";
  const kept: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const header = /^\[\[?\s*([^\]]*?)\s*\]\]?/.exec(line);
    if (header !== null) {
      table = header[1] ?? "";
      if (/hook/i.test(table)) kept.push(line);
    } else if (/hook/i.test(table) || /hook/i.test(line)) kept.push(`${table}: ${line}`);
  }
  return kept.join("\n");
}

/** The files whose hook part differs between two looks (a file in one look only counts). */
export function changedHookSettings(
  before: Readonly<Record<string, string | null>>,
  now: Readonly<Record<string, string | null>>,
): string[] {
  const paths = new Set([...Object.keys(before), ...Object.keys(now)]);
  return [...paths].filter((path) => (before[path] ?? null) !== (now[path] ?? null)).sort();
}

/** What a gating mode's Stop says of hook settings changed since the last look. */
export function hookSettingsLine(mode: string, shown: readonly string[]): string {
  return `tailtest ${mode}: an agent's hook settings changed this turn (${shown.join(", ")}): they decide whether tailtest's hooks run at all, and only the person changes them. If the change removed or switched off tailtest's hooks (disableAllHooks, an emptied hooks file), the next session runs without the ${mode} gate. Tell the person.`;
}
