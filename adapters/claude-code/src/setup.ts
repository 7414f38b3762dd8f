import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { GITIGNORE_ENTRY, type Mode } from "@tailtest/core";
import {
  missingPackageWarning,
  planProjectFiles,
  readOptional,
  SetupError,
  stateKeptLines,
  writeJsonHooks,
  type SetupReport,
} from "@tailtest/core/node";
import {
  installForUser,
  shownPath,
  uninstallForUser,
  type Env,
  type UserHooksFile,
  type UserPackage,
} from "@tailtest/cli/installer";
import packageJson from "../package.json" with { type: "json" };
import {
  addTailtestHooks,
  HOOK_MARKER,
  parseSettings,
  removeTailtestHooks,
  userHookCommand,
} from "./install.ts";

export const SETTINGS_PATH = ".claude/settings.json";
export { SetupError, type SetupReport };

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

/** The pinned copy a user-level install makes of this package. */
const USER_PACKAGE: UserPackage = {
  folder: "claude-code",
  name: packageJson.name,
  version: packageJson.version,
  dist: builtDist(),
};

/** Claude Code's user settings: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`. */
export function userSettingsPath(env: Env = process.env): string {
  return join(env["CLAUDE_CONFIG_DIR"] ?? join(homedir(), ".claude"), "settings.json");
}

/** This package's built hook files (dist/, beside cli.js; ../dist from src/ in the tests). */
function builtDist(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
}

/** The user settings as a user-level install reads, checks and writes them. */
function userSettingsFile(env: Env): UserHooksFile {
  const settingsPath = userSettingsPath(env);
  const folder = dirname(settingsPath);
  const read = async () => {
    const text = await readOptional(settingsPath);
    const parsed = parseSettings(text);
    if (!parsed.ok)
      throw new SetupError(
        `${shownPath(settingsPath)} ${parsed.error}; fix it first, nothing was changed`,
      );
    return { text, settings: parsed.value };
  };
  const label = (lines: string[]) => lines.map((line) => `${shownPath(folder)}/${line}`);
  return {
    async prepareAdd(hook) {
      const { text, settings } = await read();
      const change = addTailtestHooks(settings, (event) => userHookCommand(hook, event));
      return {
        write: async () =>
          label(
            await writeJsonHooks(folder, "settings.json", text, {
              value: change.settings,
              summary: change,
              unchanged: "tailtest's hooks are already there",
            }),
          ),
      };
    },
    async prepareRemove() {
      const { text, settings } = await read();
      if (text === undefined)
        return () => Promise.resolve([`${shownPath(settingsPath)}: not found, nothing to remove`]);
      const change = removeTailtestHooks(settings);
      return async () =>
        label(
          await writeJsonHooks(folder, "settings.json", text, {
            value: change.settings,
            summary: change,
            unchanged: "no tailtest hooks found",
          }),
        );
    },
  };
}

/**
 * `init --user`: copies this version's hook into the user data folder and registers it in
 * Claude Code's user settings, for every project (`installForUser`).
 */
export function initUser(env: Env = process.env): Promise<SetupReport> {
  return installForUser(USER_PACKAGE, userSettingsFile(env), env);
}

/** `uninstall --user`: the user settings' tailtest hooks and the pinned copy, nothing else. */
export function uninstallUser(env: Env = process.env): Promise<SetupReport> {
  return uninstallForUser(USER_PACKAGE, userSettingsFile(env), env);
}
