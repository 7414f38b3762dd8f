import { existsSync } from "node:fs";
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
  parseSettings,
  removeTailtestHooks,
  type HooksChange,
} from "./install.ts";

export const SETTINGS_PATH = ".claude/settings.json";
export { SetupError, type SetupReport };

export { CONFIG_PATH, GITIGNORE_PATH };

export interface InitOptions {
  root: string;
  mode?: Mode | undefined;
}

async function readSettings(root: string) {
  const text = await readOptional(join(root, SETTINGS_PATH));
  const parsed = parseSettings(text);
  if (!parsed.ok) {
    throw new SetupError(`${SETTINGS_PATH} ${parsed.error}; fix it first, nothing was changed`);
  }
  return { text, settings: parsed.value };
}

function describeHooks(change: HooksChange): string[] {
  const lines: string[] = [];
  if (change.added.length > 0) lines.push(`added hooks: ${change.added.join(", ")}`);
  if (change.updated.length > 0) lines.push(`updated hooks: ${change.updated.join(", ")}`);
  if (change.removed.length > 0) {
    lines.push(`removed tailtest hooks from: ${change.removed.join(", ")}`);
  }
  return lines.map((line) => `${SETTINGS_PATH}: ${line}`);
}

/**
 * Registers tailtest's hooks in the project's Claude Code settings. Every file is read and
 * checked before the first write, so a refusal leaves the project exactly as it was.
 */
export async function initProject(options: InitOptions): Promise<SetupReport> {
  const { root } = options;
  const { text, settings } = await readSettings(root);
  const change = addTailtestHooks(settings);

  const projectFiles = await planProjectFiles(root, {
    mode: options.mode,
    gitignoreEntries: [GITIGNORE_ENTRY],
  });

  const report: SetupReport = { lines: [], warnings: [] };
  if (hasChanges(change)) {
    await writeAtomic(join(root, SETTINGS_PATH), renderJson(change.settings, detectIndent(text)));
    report.lines.push(...describeHooks(change));
  } else {
    report.lines.push(`${SETTINGS_PATH}: tailtest's hooks are already there`);
  }
  report.lines.push(...(await projectFiles.apply()));

  if (!existsSync(join(root, "node_modules", HOOK_MARKER))) {
    report.warnings.push(
      `node_modules/${HOOK_MARKER} is not in this project; the hooks run it from there: npm i -D @tailtest/claude-code`,
    );
  }
  return report;
}

/** Takes out exactly what `init` put into settings.json; `.tailtest/` stays. */
export async function uninstallProject(options: { root: string }): Promise<SetupReport> {
  const { root } = options;
  const { text, settings } = await readSettings(root);
  const report: SetupReport = { lines: [], warnings: [] };
  const change = removeTailtestHooks(settings);
  if (text === undefined) {
    report.lines.push(`${SETTINGS_PATH}: not found, nothing to remove`);
  } else if (hasChanges(change)) {
    await writeAtomic(join(root, SETTINGS_PATH), renderJson(change.settings, detectIndent(text)));
    report.lines.push(...describeHooks(change));
  } else {
    report.lines.push(`${SETTINGS_PATH}: no tailtest hooks found`);
  }
  if (existsSync(join(root, ".tailtest"))) {
    report.lines.push(".tailtest/: left as it is (config and test history); delete it if unwanted");
  }
  return report;
}
