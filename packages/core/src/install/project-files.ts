import type { Mode } from "../config/config.ts";

/**
 * Pure helpers for the files an installer touches in a user's project (JSON settings,
 * .gitignore, .tailtest/config.json). Every adapter's `init` uses them, so a JSON file keeps its
 * indentation and key order the same way on every platform.
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** JSON object text → its value (undefined or blank: `{}`). Errors are one-line message tails. */
export function parseJsonObject(text: string | undefined): Parsed<Record<string, unknown>> {
  if (text === undefined || text.trim() === "") return { ok: true, value: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { ok: false, error: `is not valid JSON (${detail})` };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { ok: false, error: "is not a JSON object" };
  }
  return { ok: true, value: json as Record<string, unknown> };
}

/** The indentation a JSON file already uses, so a rewrite keeps it (2 spaces when unknown). */
export function detectIndent(text: string | undefined): string {
  const match = /^([ \t]+)["{[\]}]/m.exec(text ?? "");
  return match?.[1] ?? "  ";
}

export function renderJson(value: unknown, indent = "  "): string {
  return `${JSON.stringify(value, null, indent)}\n`;
}

/** Sets `mode` in .tailtest/config.json text, keeping every other field. */
export function setConfigMode(
  text: string | undefined,
  mode: Mode,
): Parsed<{ text: string; changed: boolean }> {
  const json = parseJsonObject(text);
  if (!json.ok) return json;
  if (json.value["mode"] === mode && text !== undefined) {
    return { ok: true, value: { text, changed: false } };
  }
  return {
    ok: true,
    value: { text: renderJson({ ...json.value, mode }, detectIndent(text)), changed: true },
  };
}

export const GITIGNORE_ENTRY = ".tailtest/";

/**
 * How a project keeps tailtest's session state out of git while its team commits the config:
 * every file in `.tailtest/` ignored but `config.json` (a folder entry would hide the config too,
 * and git never looks inside an ignored folder for a negation).
 */
export const STATE_IGNORE_LINES = [".tailtest/*", "!.tailtest/config.json"] as const;

/** What earlier installs wrote, or a person might: lines that ignore the folder, config and all. */
const WHOLE_STATE_FOLDER = new Set(
  [".tailtest", ".tailtest/", ".tailtest/**"].flatMap((line) => [line, `/${line}`]),
);

/**
 * The .gitignore text that ignores tailtest's state but not `.tailtest/config.json`, and what
 * changed; undefined when it already does. A line ignoring the whole folder (what `init` wrote
 * before) is replaced where it stands.
 */
export function addStateIgnore(
  text: string | undefined,
): { text: string; migrated: boolean } | undefined {
  const newline = text?.includes("\r\n") === true ? "\r\n" : "\n";
  const lines = (text ?? "").split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  const present = (entry: string) =>
    lines.some((line) => [entry, entry.replace(/^(!?)/, "$1/")].includes(line.trim()));
  const isWhole = (line: string) => WHOLE_STATE_FOLDER.has(line.trim());
  const migrated = lines.some(isWhole);
  const missing = STATE_IGNORE_LINES.filter((entry) => !present(entry));
  if (!migrated && missing.length === 0) return undefined;
  const out: string[] = [];
  let placed = false;
  for (const line of lines) {
    if (!isWhole(line)) out.push(line);
    else if (!placed) {
      out.push(...missing);
      placed = true;
    }
  }
  if (!placed) out.push(...missing);
  return { text: `${out.join(newline)}${newline}`, migrated };
}

/** The lines that already ignore a folder entry such as `.tailtest/`. */
function coveringLines(entry: string): Set<string> {
  const bare = entry.replace(/\/+$/, "");
  return new Set(
    [bare, `${bare}/`, `${bare}/*`, `${bare}/**`].flatMap((line) => [line, `/${line}`]),
  );
}

/** The .gitignore text with a folder entry added, or undefined when a line already ignores it. */
export function addGitignoreEntry(
  text: string | undefined,
  entry: string = GITIGNORE_ENTRY,
): string | undefined {
  const covering = coveringLines(entry);
  const lines = (text ?? "").split(/\r?\n/).map((line) => line.trim());
  if (lines.some((line) => covering.has(line))) return undefined;
  if (text === undefined || text === "") return `${entry}\n`;
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  const separator = text.endsWith("\n") ? "" : newline;
  return `${text}${separator}${entry}${newline}`;
}
