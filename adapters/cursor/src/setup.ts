import { existsSync } from "node:fs";
import { lstat, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  installForUser,
  shownPath,
  uninstallForUser,
  type Env,
  type UserHooksFile,
  type UserPackage,
} from "@tailtest/cli/installer";
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
import packageJson from "../package.json" with { type: "json" };
import {
  addTailtestHooks,
  HOOK_MARKER,
  parseHooksFile,
  removeTailtestHooks,
  unknownEvents,
  userHookCommand,
} from "./install.ts";
import { HOOKS_PATH } from "./paths.ts";

export { HOOKS_PATH, SetupError, type SetupReport };

/** tailtest's state, Cursor's session with it (`.cursor/hooks/state/` is no longer used). */
export const GITIGNORE_ENTRIES = [GITIGNORE_ENTRY] as const;

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
  report.lines.push(
    ...(await writeJsonHooks(root, HOOKS_PATH, text, {
      value: change.file,
      summary: change,
      unchanged: "tailtest's hooks are already there",
    })),
    ...(await projectFiles.apply()),
  );

  for (const event of unknownEvents(change.file)) {
    report.warnings.push(
      `${HOOKS_PATH} has the event "${event}", which Cursor does not know: Cursor ignores the whole file (tailtest's hooks too) until it is renamed or removed`,
    );
  }
  if (!existsSync(join(root, "node_modules", HOOK_MARKER)))
    report.warnings.push(missingPackageWarning(HOOK_MARKER, "@tailtest/cursor"));
  return report;
}

/** Takes out exactly what `init` put into hooks.json; `.tailtest/` stays. */
export async function uninstallProject(options: { root: string }): Promise<SetupReport> {
  const { root } = options;
  const { text, file } = await readHooksFile(root);
  const change = removeTailtestHooks(file);
  const lines =
    text === undefined
      ? [`${HOOKS_PATH}: not found, nothing to remove`]
      : await writeJsonHooks(root, HOOKS_PATH, text, {
          value: change.file,
          summary: change,
          unchanged: "no tailtest hooks found",
        });
  return { lines: [...lines, ...stateKeptLines(root)], warnings: [] };
}

/** The pinned copy a user-level install makes of this package (dist/, beside cli.js). */
const USER_PACKAGE: UserPackage = {
  folder: "cursor",
  name: packageJson.name,
  version: packageJson.version,
  dist: join(dirname(fileURLToPath(import.meta.url)), "..", "dist"),
};

/**
 * The user's `~/.cursor/hooks.json`, which Cursor loads for every workspace: read and checked
 * like a project's (no symlink, a version Cursor accepts), the report naming it with `~`.
 */
function userHooksFile(): UserHooksFile {
  const home = homedir();
  const label = (lines: string[]) => lines.map((line) => `${shownPath(home)}/${line}`);
  return {
    async prepareAdd(hook) {
      const { text, file } = await readHooksFile(home);
      const change = addTailtestHooks(file, (event) => userHookCommand(hook, event));
      return {
        write: async () =>
          label(
            await writeJsonHooks(home, HOOKS_PATH, text, {
              value: change.file,
              summary: change,
              unchanged: "tailtest's hooks are already there",
            }),
          ),
        warnings: unknownEvents(change.file).map(
          (event) =>
            `~/${HOOKS_PATH} has the event "${event}", which Cursor does not know: Cursor ignores the whole file (tailtest's hooks too) until it is renamed or removed`,
        ),
      };
    },
    async prepareRemove() {
      const { text, file } = await readHooksFile(home);
      if (text === undefined)
        return () => Promise.resolve(label([`${HOOKS_PATH}: not found, nothing to remove`]));
      const change = removeTailtestHooks(file);
      return async () => {
        // A file left with nothing but the version init gave it goes: it held only tailtest.
        const keys = Object.keys(change.file);
        if (
          keys.length > 0 &&
          keys.every((key) => key === "version") &&
          change.removed.length > 0
        ) {
          await rm(join(home, HOOKS_PATH));
          return label([
            `${HOOKS_PATH}: removed tailtest hooks from: ${change.removed.join(", ")}`,
            `${HOOKS_PATH}: deleted (it held nothing but tailtest's hooks)`,
          ]);
        }
        return label(
          await writeJsonHooks(home, HOOKS_PATH, text, {
            value: change.file,
            summary: change,
            unchanged: "no tailtest hooks found",
          }),
        );
      };
    },
  };
}

/**
 * `init --user`: a pinned copy in the user data folder and tailtest's hooks in
 * `~/.cursor/hooks.json`, for every workspace; nothing is written into a project.
 */
export function initUser(env: Env = process.env): Promise<SetupReport> {
  return installForUser(USER_PACKAGE, userHooksFile(), env);
}

/** `uninstall --user`: tailtest's entries in `~/.cursor/hooks.json` and the pinned copy. */
export function uninstallUser(env: Env = process.env): Promise<SetupReport> {
  return uninstallForUser(USER_PACKAGE, userHooksFile(), env);
}
