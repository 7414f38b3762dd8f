import { existsSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { detectIndent, GITIGNORE_ENTRY, renderJson, type Mode } from "@tailtest/core";
import {
  CONFIG_PATH,
  GITIGNORE_PATH,
  planProjectFiles,
  readOptional,
  SetupError,
  writeAtomic,
  type SetupReport,
} from "@tailtest/core/node";
import {
  addTailtestHooks,
  hasChanges,
  HOOK_MARKER,
  parseHooksFile,
  removeTailtestHooks,
  unknownEvents,
  type HooksChange,
} from "./install.ts";
import { CURSOR_STATE_DIR, HOOKS_PATH } from "./paths.ts";

export { HOOKS_PATH, SetupError, type SetupReport };

export { CONFIG_PATH, GITIGNORE_PATH };
/** tailtest's state: its own folder, and the folder Cursor hooks keep their state in. */
export const GITIGNORE_ENTRIES = [GITIGNORE_ENTRY, CURSOR_STATE_DIR] as const;

export interface InitOptions {
  root: string;
  mode?: Mode | undefined;
}

/** Cursor refuses a hooks.json reached through a symlink; writing through one would be lost. */
async function symlinkOnTheWay(root: string): Promise<string | undefined> {
  for (const path of [".cursor", HOOKS_PATH]) {
    try {
      if ((await lstat(join(root, path))).isSymbolicLink()) return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return undefined;
}

async function readHooksFile(root: string) {
  const link = await symlinkOnTheWay(root);
  if (link !== undefined) {
    throw new SetupError(
      `${link} is a symlink, and Cursor does not load hooks through symlinks; make it a real ${link === HOOKS_PATH ? "file" : "folder"} first, nothing was changed`,
    );
  }
  const text = await readOptional(join(root, HOOKS_PATH));
  const parsed = parseHooksFile(text);
  if (!parsed.ok) {
    throw new SetupError(`${HOOKS_PATH} ${parsed.error}; fix it first, nothing was changed`);
  }
  return { text, file: parsed.value };
}

function describeHooks(change: HooksChange): string[] {
  const lines: string[] = [];
  if (change.versionAdded) lines.push("added version 1");
  if (change.added.length > 0) lines.push(`added hooks: ${change.added.join(", ")}`);
  if (change.updated.length > 0) lines.push(`updated hooks: ${change.updated.join(", ")}`);
  if (change.removed.length > 0) {
    lines.push(`removed tailtest hooks from: ${change.removed.join(", ")}`);
  }
  return lines.map((line) => `${HOOKS_PATH}: ${line}`);
}

/**
 * Registers tailtest's hooks in the project's `.cursor/hooks.json`. Every file is read and
 * checked before the first write, so a refusal leaves the project exactly as it was.
 */
export async function initProject(options: InitOptions): Promise<SetupReport> {
  const { root } = options;
  const { text, file } = await readHooksFile(root);
  const change = addTailtestHooks(file);

  const projectFiles = await planProjectFiles(root, {
    mode: options.mode,
    gitignoreEntries: GITIGNORE_ENTRIES,
  });

  const report: SetupReport = { lines: [], warnings: [] };
  if (hasChanges(change)) {
    await writeAtomic(join(root, HOOKS_PATH), renderJson(change.file, detectIndent(text)));
    report.lines.push(...describeHooks(change));
  } else {
    report.lines.push(`${HOOKS_PATH}: tailtest's hooks are already there`);
  }
  report.lines.push(...(await projectFiles.apply()));

  for (const event of unknownEvents(change.file)) {
    report.warnings.push(
      `${HOOKS_PATH} has the event "${event}", which Cursor does not know: Cursor ignores the whole file (tailtest's hooks too) until it is renamed or removed`,
    );
  }
  if (!existsSync(join(root, "node_modules", HOOK_MARKER))) {
    report.warnings.push(
      `node_modules/${HOOK_MARKER} is not in this project; the hooks run it from there: npm i -D @tailtest/cursor`,
    );
  }
  return report;
}

/** Takes out exactly what `init` put into hooks.json; `.tailtest/` stays. */
export async function uninstallProject(options: { root: string }): Promise<SetupReport> {
  const { root } = options;
  const { text, file } = await readHooksFile(root);
  const report: SetupReport = { lines: [], warnings: [] };
  const change = removeTailtestHooks(file);
  if (text === undefined) {
    report.lines.push(`${HOOKS_PATH}: not found, nothing to remove`);
  } else if (hasChanges(change)) {
    await writeAtomic(join(root, HOOKS_PATH), renderJson(change.file, detectIndent(text)));
    report.lines.push(...describeHooks(change));
  } else {
    report.lines.push(`${HOOKS_PATH}: no tailtest hooks found`);
  }
  if (existsSync(join(root, ".tailtest"))) {
    report.lines.push(".tailtest/: left as it is (config and test history); delete it if unwanted");
  }
  return report;
}
