import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { STATE_DIR } from "../../project/node/project.ts";
import { writeAtomicSync } from "../../state/node/store.ts";
import { changedHookSettings, hookPart } from "../hook-settings.ts";

export { hookSettingsLine } from "../hook-settings.ts";
import { protectionFor, realTarget } from "./write-identity.ts";

/**
 * The agents' hook settings as a gating session last saw them (ADR 0012, the twenty-first
 * round): looked at when a session starts and at each main Stop, which says a change once. The
 * files are the ones the gate protects by name (`protectionFor`): project and user level.
 */
export const HOOK_SETTINGS_PATH = `${STATE_DIR}/hook-settings.json`;

type Look = Record<string, string | null>;

function readSafe(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function lookAt(paths: Iterable<string>): Look {
  const look: Look = {};
  for (const path of paths) look[path] = hookPart(path, readSafe(path));
  return look;
}

function readLook(root: string): Look | undefined {
  const text = readSafe(join(root, HOOK_SETTINGS_PATH));
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    const look: Look = {};
    for (const [path, part] of Object.entries(parsed as Record<string, unknown>))
      look[path] = typeof part === "string" ? part : null;
    return look;
  } catch {
    return undefined;
  }
}

function saveLook(root: string, look: Look): void {
  try {
    writeAtomicSync(join(root, HOOK_SETTINGS_PATH), `${JSON.stringify(look)}\n`);
  } catch {
    // Not kept: the next look starts afresh, and says nothing of what it cannot compare with.
  }
}

/** Takes the look a session starts from. */
export function recordHookSettings(root: string, env: NodeJS.ProcessEnv = process.env): void {
  saveLook(root, lookAt(protectionFor(root, env).files));
}

/**
 * The hook settings changed since the last look, as the agent reads them (project-relative,
 * `~/…`), and the look kept for the next Stop; empty when none changed or there was no look to
 * compare with (one is kept then).
 */
export function takeHookSettingsChange(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const protection = protectionFor(root, env);
  const before = readLook(root);
  const now = lookAt(new Set([...protection.files, ...Object.keys(before ?? {})]));
  if (before === undefined) {
    saveLook(root, now);
    return [];
  }
  const changed = changedHookSettings(before, now);
  if (changed.length === 0) return [];
  saveLook(root, now);
  const realRoot = realTarget(root);
  return changed.map((path) => shown(path, realRoot, protection.home));
}

function shown(path: string, root: string, home: string | undefined): string {
  if (path.startsWith(`${root}${sep}`)) return relative(root, path).split(sep).join("/");
  if (home !== undefined && path.startsWith(`${home}${sep}`))
    return `~/${relative(home, path).split(sep).join("/")}`;
  return path;
}
