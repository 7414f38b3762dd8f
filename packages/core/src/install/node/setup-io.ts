import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Mode } from "../../config/config.ts";
import { hasHookChanges, type HookChangeSummary } from "../hook-groups.ts";
import {
  addGitignoreEntry,
  addStateIgnore,
  detectIndent,
  GITIGNORE_ENTRY,
  renderJson,
  setConfigMode,
  STATE_IGNORE_LINES,
} from "../project-files.ts";
import { STATE_DIR } from "../../project/node/project.ts";
import { writeAtomic } from "../../state/node/store.ts";

/** A refusal the user can act on; its message is one line and nothing was written. */
export class SetupError extends Error {}

/** What an installer did, for its summary. */
export interface SetupReport {
  /** What changed, one line each (paths relative to the project root). */
  lines: string[];
  warnings: string[];
}

/** A file's text, or undefined when it does not exist (other errors are thrown). */
export async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export const CONFIG_PATH = `${STATE_DIR}/config.json`;
/** What `.tailtest/.gitignore` said before config.json could be committed (the whole folder). */
const OLD_STATE_SELF_IGNORE = "# Written by tailtest: its state and history stay out of git.\n*\n";
/** A folder's own .gitignore that ignores the whole folder, itself included. */
const SELF_IGNORE = OLD_STATE_SELF_IGNORE;
/** `.tailtest/.gitignore`: the state stays out of git, the team's config.json does not. */
const STATE_SELF_IGNORE =
  "# Written by tailtest: its state and history stay out of git; config.json is the team's.\n*\n!.gitignore\n!config.json\n";
export const GITIGNORE_PATH = ".gitignore";

/** The user-file part of an `init`, checked and ready; `apply` writes it and says what it did. */
export interface ProjectFilesPlan {
  apply: () => Promise<string[]>;
}

/**
 * Reads and checks what every adapter's `init` changes besides the agent's own files: `mode` in
 * `.tailtest/config.json` (when asked) and the `.gitignore` entries. Nothing is written until
 * `apply`, so an adapter can check all its files before the first write; an unreadable config is
 * a one-line SetupError.
 */
export async function planProjectFiles(
  root: string,
  options: {
    mode: Mode | undefined;
    /** Lines for the project's own .gitignore. */
    gitignoreEntries: readonly string[];
    /**
     * Tool folders kept out of git by a `.gitignore` of their own (`*`), for installers that
     * may write nothing outside their folders (Codex).
     */
    ignoreInside?: readonly string[];
  },
): Promise<ProjectFilesPlan> {
  const configPath = join(root, CONFIG_PATH);
  const { mode } = options;
  const config =
    mode === undefined ? undefined : setConfigMode(await readOptional(configPath), mode);
  if (config !== undefined && !config.ok) {
    throw new SetupError(`${CONFIG_PATH} ${config.error}; fix it first, nothing was changed`);
  }
  const gitignorePath = join(root, GITIGNORE_PATH);
  let gitignore = await readOptional(gitignorePath);
  let gitignoreChanged = false;
  const ignoreLines: string[] = [];
  for (const entry of options.gitignoreEntries) {
    if (entry === GITIGNORE_ENTRY) {
      const next = addStateIgnore(gitignore);
      const lines = STATE_IGNORE_LINES.join(" and ");
      if (next === undefined) ignoreLines.push(`${GITIGNORE_PATH}: already has ${lines}`);
      else {
        gitignore = next.text;
        gitignoreChanged = true;
        ignoreLines.push(
          next.migrated
            ? `${GITIGNORE_PATH}: ${entry} became ${lines} (the team can commit .tailtest/config.json)`
            : `${GITIGNORE_PATH}: added ${lines}`,
        );
      }
      continue;
    }
    const next = addGitignoreEntry(gitignore, entry);
    if (next === undefined) {
      ignoreLines.push(`${GITIGNORE_PATH}: already ignores ${entry}`);
    } else {
      gitignore = next;
      gitignoreChanged = true;
      ignoreLines.push(`${GITIGNORE_PATH}: added ${entry}`);
    }
  }
  const inside: { path: string; text: string; state: "missing" | "there" | "old" }[] = [];
  for (const dir of options.ignoreInside ?? []) {
    const path = `${dir}/.gitignore`;
    const text = dir === STATE_DIR ? STATE_SELF_IGNORE : SELF_IGNORE;
    const before = await readOptional(join(root, path));
    let state: "missing" | "there" | "old" = before === undefined ? "missing" : "there";
    // An earlier init's whole-folder ignore: config.json becomes committable.
    if (dir === STATE_DIR && before === OLD_STATE_SELF_IGNORE) state = "old";
    inside.push({ path, text, state });
  }
  return {
    async apply() {
      const lines: string[] = [];
      if (config?.ok === true && mode !== undefined) {
        if (config.value.changed) {
          await writeAtomic(configPath, config.value.text);
          lines.push(`${CONFIG_PATH}: mode ${mode}`);
        } else {
          lines.push(`${CONFIG_PATH}: mode is already ${mode}`);
        }
      }
      for (const { path, text, state } of inside) {
        if (state === "there") {
          lines.push(`${path}: already there`);
        } else {
          await writeAtomic(join(root, path), text);
          const folder = path.replace(/\.gitignore$/, "");
          const kept = text === STATE_SELF_IGNORE ? ", all but config.json" : "";
          lines.push(
            state === "old"
              ? `${path}: updated (keeps ${folder} out of git${kept})`
              : `${path}: added (keeps ${folder} out of git${kept})`,
          );
        }
      }
      if (gitignoreChanged && gitignore !== undefined) await writeAtomic(gitignorePath, gitignore);
      return [...lines, ...ignoreLines];
    },
  };
}

/** The report lines for a hooks change, each prefixed with where it happened. */
export function describeHookChange(label: string, change: HookChangeSummary): string[] {
  const lines: string[] = [];
  if (change.versionAdded === true) lines.push("added version 1");
  if (change.added.length > 0) lines.push(`added hooks: ${change.added.join(", ")}`);
  if (change.updated.length > 0) lines.push(`updated hooks: ${change.updated.join(", ")}`);
  if (change.removed.length > 0)
    lines.push(`removed tailtest hooks from: ${change.removed.join(", ")}`);
  return lines.map((line) => `${label}: ${line}`);
}

/**
 * Writes an agent's JSON hooks file when the change did something, in the indentation it already
 * had, and says what changed; otherwise says `unchanged`.
 */
export async function writeJsonHooks(
  root: string,
  path: string,
  before: string | undefined,
  change: { value: unknown; summary: HookChangeSummary; unchanged: string },
): Promise<string[]> {
  if (!hasHookChanges(change.summary)) return [`${path}: ${change.unchanged}`];
  await writeAtomic(join(root, path), renderJson(change.value, detectIndent(before)));
  return describeHookChange(path, change.summary);
}

/** What uninstall says about `.tailtest/`, which it never deletes. */
export function stateKeptLines(root: string): string[] {
  return existsSync(join(root, STATE_DIR))
    ? [`${STATE_DIR}/: left as it is (config and test history); delete it if unwanted`]
    : [];
}

/** The warning when the package the hooks run is not installed where they look for it. */
export function missingPackageWarning(marker: string, packageName: string, where = ""): string {
  return `node_modules/${marker} is not in this project${where}; the hooks run it from there: npm i -D ${packageName}`;
}
