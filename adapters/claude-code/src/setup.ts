import { existsSync } from "node:fs";
import { join } from "node:path";
import { GITIGNORE_ENTRY, type Mode } from "@tailtest/core";
import {
  CONFIG_PATH,
  GITIGNORE_PATH,
  missingPackageWarning,
  planProjectFiles,
  readOptional,
  SetupError,
  stateKeptLines,
  writeJsonHooks,
  type SetupReport,
} from "@tailtest/core/node";
import { addTailtestHooks, HOOK_MARKER, parseSettings, removeTailtestHooks } from "./install.ts";

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
  report.lines.push(
    ...(await writeJsonHooks(root, SETTINGS_PATH, text, {
      value: change.settings,
      summary: change,
      unchanged: "tailtest's hooks are already there",
    })),
    ...(await projectFiles.apply()),
  );

  if (!existsSync(join(root, "node_modules", HOOK_MARKER)))
    report.warnings.push(missingPackageWarning(HOOK_MARKER, "@tailtest/claude-code"));
  return report;
}

/** Takes out exactly what `init` put into settings.json; `.tailtest/` stays. */
export async function uninstallProject(options: { root: string }): Promise<SetupReport> {
  const { root } = options;
  const { text, settings } = await readSettings(root);
  const change = removeTailtestHooks(settings);
  const lines =
    text === undefined
      ? [`${SETTINGS_PATH}: not found, nothing to remove`]
      : await writeJsonHooks(root, SETTINGS_PATH, text, {
          value: change.settings,
          summary: change,
          unchanged: "no tailtest hooks found",
        });
  return { lines: [...lines, ...stateKeptLines(root)], warnings: [] };
}
