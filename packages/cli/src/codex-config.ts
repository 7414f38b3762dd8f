import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "@decimalturn/toml-patch";
import {
  checkCodexTrust,
  parseJsonObject,
  type CodexHooksSource,
  type CodexTrust,
  type ParsedToml,
} from "@tailtest/core/status";

/**
 * Codex's TOML, read one way for `status` and `doctor`: the same library the Codex installer
 * edits it with, so both commands see the same hooks and the same trust.
 */

/** The markers doctor knows Codex's hooks by (its `PLATFORMS` table). */
const CODEX_MARKERS = ["@tailtest/codex", "tailtest-codex"];

/** A TOML text parsed, or why not; undefined for no file. */
export function parseTomlText(text: string | undefined): ParsedToml | undefined {
  if (text === undefined) return undefined;
  try {
    return { value: parseToml(text) };
  } catch {
    return { problem: "is not valid TOML" };
  }
}

/** The `.toml` files among `texts`, parsed. */
export function parseHookTomls(
  texts: Readonly<Record<string, string | undefined>>,
): Record<string, ParsedToml> {
  const parsed: Record<string, ParsedToml> = {};
  for (const [path, text] of Object.entries(texts)) {
    if (!path.endsWith(".toml")) continue;
    const toml = parseTomlText(text);
    if (toml !== undefined) parsed[path] = toml;
  }
  return parsed;
}

function valueOf(parsed: ParsedToml | undefined): unknown {
  return parsed !== undefined && "value" in parsed ? parsed.value : undefined;
}

function hooksOf(value: unknown): unknown {
  return value !== null && typeof value === "object"
    ? (value as Record<string, unknown>)["hooks"]
    : undefined;
}

// Synchronous, as core's views/status-view.ts reads: see there.
function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Codex trust for this project: the project's `.codex/hooks.json` and `.codex/config.toml`, and
 * the user's `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`), where Codex records both
 * kinds of trust.
 */
export async function readCodexTrust(
  root: string,
  texts: Readonly<Record<string, string | undefined>>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<CodexTrust> {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // A root that cannot be resolved is named as given.
  }
  const sources: CodexHooksSource[] = [];
  const json = parseJsonObject(texts[".codex/hooks.json"]);
  if (texts[".codex/hooks.json"] !== undefined && json.ok)
    sources.push({ path: join(real, ".codex/hooks.json"), hooks: json.value["hooks"] });
  const projectToml = parseTomlText(texts[".codex/config.toml"]);
  if (projectToml !== undefined && "value" in projectToml)
    sources.push({ path: join(real, ".codex/config.toml"), hooks: hooksOf(projectToml.value) });
  // node:os loaded here: status loads it only for a project with Codex's hooks.
  const home = env["CODEX_HOME"] ?? join(process.getBuiltinModule("node:os").homedir(), ".codex");
  const userToml = parseTomlText(readText(join(home, "config.toml")));
  return checkCodexTrust({
    root: real,
    sources,
    userConfig: valueOf(userToml),
    userConfigProblem:
      userToml !== undefined && "problem" in userToml
        ? `${join(home, "config.toml")} ${userToml.problem}`
        : undefined,
    projectConfig: valueOf(projectToml),
    markers: CODEX_MARKERS,
  });
}
