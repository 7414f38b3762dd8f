import { existsSync } from "node:fs";
import { mkdir, readdir, rm, rmdir } from "node:fs/promises";
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
import {
  detectIndent,
  hasHookChanges,
  renderJson,
  type HookSettings,
  type Mode,
} from "@tailtest/core";
import {
  describeHookChange,
  missingPackageWarning,
  planProjectFiles,
  readOptional,
  SetupError,
  stateKeptLines,
  writeAtomic,
  type SetupReport,
} from "@tailtest/core/node";
import packageJson from "../package.json" with { type: "json" };
import {
  addCodexHooks,
  hookCommand,
  HOOK_MARKER,
  isEmptySettings,
  parseCodexConfig,
  parseHooksJson,
  planToml,
  removeCodexHooks,
  tomlRoundTrips,
  userHookCommand,
  type CodexCommand,
  type CodexConfig,
  type CodexHooksChange,
  type HookEventName,
  type TomlPlan,
} from "./install.ts";

export { SetupError, type SetupReport };

export const CODEX_DIR = ".codex";
export const HOOKS_JSON_PATH = ".codex/hooks.json";
export const CONFIG_TOML_PATH = ".codex/config.toml";
export const STATE_DIR = ".tailtest";

export interface InitOptions {
  root: string;
  mode?: Mode | undefined;
}

/**
 * One Codex config layer: a project's `.codex/`, or the user's `$CODEX_HOME` (`~/.codex`). Paths
 * are relative to `root`; `dir` is the folder uninstall may remove once it is empty (none for
 * the user's).
 */
export interface CodexLayer {
  root: string;
  json: string;
  toml: string;
  dir?: string;
  /** How the report names a path of this layer. */
  show: (path: string) => string;
}

function projectLayer(root: string): CodexLayer {
  return {
    root,
    json: HOOKS_JSON_PATH,
    toml: CONFIG_TOML_PATH,
    dir: CODEX_DIR,
    show: (path) => path,
  };
}

interface CodexFiles {
  jsonText: string | undefined;
  json: HookSettings;
  tomlText: string | undefined;
  toml: CodexConfig | undefined;
}

function refuse(path: string, error: string, advice = "fix it first"): never {
  throw new SetupError(`${path} ${error}; ${advice}, nothing was changed`);
}

/** Reads and checks both Codex files before anything is written. */
async function readCodexFiles(layer: CodexLayer): Promise<CodexFiles> {
  const jsonText = await readOptional(join(layer.root, layer.json));
  const json = parseHooksJson(jsonText);
  if (!json.ok) refuse(layer.show(layer.json), json.error);
  const tomlText = await readOptional(join(layer.root, layer.toml));
  const toml = parseCodexConfig(tomlText);
  if (!toml.ok) refuse(layer.show(layer.toml), toml.error);
  return { jsonText, json: json.value, tomlText, toml: toml.value };
}

function describeFeatures(layer: CodexLayer, plan: TomlPlan | undefined): string[] {
  return (plan?.enabled ?? []).map(
    (key) =>
      `${layer.show(layer.toml)}: [features] ${key} was false, so Codex ran no hooks; set it to true`,
  );
}

function tomlLabel(layer: CodexLayer): string {
  return `${layer.show(layer.toml)} [hooks]`;
}

/** Where tailtest's handlers go, and the config.toml edit that comes with it. */
interface Placement {
  target: "json" | "toml";
  toml?: TomlPlan;
  warning?: string;
}

/**
 * Codex warns when one config layer has hooks in both hooks.json and an inline `[hooks]` table,
 * so an existing `[hooks]` table gets tailtest's handlers, as long as toml-patch can add them
 * and take them out again without touching anything else. Otherwise they go to hooks.json.
 */
function placeHooks(layer: CodexLayer, files: CodexFiles, command: CodexCommand): Placement {
  const { toml, tomlText } = files;
  if (toml === undefined || tomlText === undefined) return { target: "json" };
  const features = toml.disabledFeatures.length > 0;
  if (toml.hooks !== undefined) {
    const added = planToml(tomlText, toml, { hooks: "add", enableFeatures: true, command });
    if (added.ok && tomlRoundTrips(tomlText, toml, added.value)) {
      return { target: "toml", toml: added.value };
    }
    // A table with no hooks of its own (only the trust records Codex keeps there): hooks.json
    // is no second place for hooks, so there is nothing to warn about.
    if (Object.keys(toml.hooks).length === 0 && !features) return { target: "json" };
    const cleared = planToml(tomlText, toml, { hooks: "remove", enableFeatures: true });
    if (!cleared.ok) {
      refuse(
        layer.show(layer.toml),
        cleared.error,
        `take tailtest's entries (${HOOK_MARKER}) out by hand`,
      );
    }
    const tomlPath = layer.show(layer.toml);
    const jsonPath = layer.show(layer.json);
    return {
      target: "json",
      toml: cleared.value,
      warning:
        `${tomlPath} has an inline [hooks] table that toml-patch cannot add tailtest's ` +
        `hooks to and take them out of again without touching your entries, so they went to ` +
        `${jsonPath}; Codex will warn that this folder has hooks in both places until ` +
        `you move your [hooks] entries to ${jsonPath}`,
    };
  }
  if (!features) return { target: "json" };
  const enabled = planToml(tomlText, toml, { hooks: "keep", enableFeatures: true });
  if (!enabled.ok) refuse(layer.show(layer.toml), enabled.error);
  return { target: "json", toml: enabled.value };
}

/** Writes hooks.json after a change, or deletes it when nothing at all is left in it. */
async function writeHooksJson(
  layer: CodexLayer,
  text: string | undefined,
  change: CodexHooksChange,
): Promise<string[]> {
  const json = layer.show(layer.json);
  const lines = describeHookChange(json, change);
  if (!isEmptySettings(change.settings)) {
    await writeAtomic(
      join(layer.root, layer.json),
      renderJson(change.settings, detectIndent(text)),
    );
    return lines;
  }
  await rm(join(layer.root, layer.json));
  lines.push(`${json}: deleted (it held nothing but tailtest's hooks)`);
  if (layer.dir === undefined) return lines;
  const dir = join(layer.root, layer.dir);
  if ((await readdir(dir)).length === 0) {
    await rmdir(dir);
    lines.push(`${layer.show(layer.dir)}/: removed (it was left empty)`);
  }
  return lines;
}

/** Writes what `placeHooks` decided: tailtest's handlers in one place, out of the other. */
async function writeCodexFiles(
  layer: CodexLayer,
  files: CodexFiles,
  placement: Placement,
  command: CodexCommand,
): Promise<string[]> {
  const lines: string[] = [];
  const jsonChange =
    placement.target === "json" ? addCodexHooks(files.json, command) : removeCodexHooks(files.json);
  if (hasHookChanges(jsonChange)) {
    lines.push(...(await writeHooksJson(layer, files.jsonText, jsonChange)));
  } else if (placement.target === "json") {
    lines.push(`${layer.show(layer.json)}: tailtest's hooks are already there`);
  }
  const tomlPlan = placement.toml;
  if (tomlPlan !== undefined && tomlPlan.text !== files.tomlText) {
    await writeAtomic(join(layer.root, layer.toml), tomlPlan.text);
    lines.push(...describeFeatures(layer, tomlPlan));
    if (tomlPlan.hooks !== undefined)
      lines.push(...describeHookChange(tomlLabel(layer), tomlPlan.hooks));
  }
  if (placement.target === "toml" && tomlPlan?.hooks === undefined) {
    lines.push(`${tomlLabel(layer)}: tailtest's hooks are already there`);
  }
  return lines;
}

/**
 * Registers tailtest's hooks for Codex in the project's `.codex/`. Every file is read and checked
 * before the first write, so a refusal leaves the project exactly as it was.
 */
export async function initProject(options: InitOptions): Promise<SetupReport> {
  const { root } = options;
  const layer = projectLayer(root);
  const files = await readCodexFiles(layer);
  const placement = placeHooks(layer, files, hookCommand);

  const projectFiles = await planProjectFiles(root, {
    mode: options.mode,
    // Codex's installer writes nothing outside .codex/ and .tailtest/: .tailtest/ ignores itself.
    gitignoreEntries: [],
    ignoreInside: [STATE_DIR],
  });

  const report: SetupReport = { lines: [], warnings: [] };
  if (placement.warning !== undefined) report.warnings.push(placement.warning);
  report.lines.push(...(await writeCodexFiles(layer, files, placement, hookCommand)));

  // Codex names no project: the hooks take the nearest folder with .tailtest/ as the root.
  if (!existsSync(join(root, STATE_DIR))) {
    await mkdir(join(root, STATE_DIR));
    report.lines.push(`${STATE_DIR}/: created (it marks the project root for the hooks)`);
  }
  report.lines.push(...(await projectFiles.apply()));

  if (!hookInstalledAbove(root)) {
    report.warnings.push(
      missingPackageWarning(HOOK_MARKER, "@tailtest/codex", " (or a folder above it)"),
    );
  }
  return report;
}

/** The hook command walks up from the session's folder, so a hoisted install counts too. */
function hookInstalledAbove(root: string): boolean {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules", HOOK_MARKER))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * Takes out exactly the handlers `init` added, wherever they are, and the matcher groups and
 * events that leaves empty. hooks.json goes when nothing else is in it (and `.codex/` when that
 * leaves it empty); an inline `[hooks]` table stays, since it was there before tailtest.
 * `[features]` and `.tailtest/` (its own .gitignore included) stay too.
 */
export async function uninstallProject(options: { root: string }): Promise<SetupReport> {
  const { root } = options;
  const remove = await prepareRemoval(projectLayer(root));
  return { lines: [...(await remove()), ...stateKeptLines(root)], warnings: [] };
}

/**
 * Reads and checks a layer's files for uninstall, and returns the write: tailtest's handlers out
 * of hooks.json and of an inline `[hooks]` table, nothing else.
 */
async function prepareRemoval(layer: CodexLayer): Promise<() => Promise<string[]>> {
  const files = await readCodexFiles(layer);
  let tomlPlan: TomlPlan | undefined;
  if (files.toml?.hooks !== undefined && files.tomlText !== undefined) {
    const plan = planToml(files.tomlText, files.toml, { hooks: "remove", enableFeatures: false });
    if (!plan.ok) {
      refuse(
        layer.show(layer.toml),
        plan.error,
        `take tailtest's entries (${HOOK_MARKER}) out by hand`,
      );
    }
    tomlPlan = plan.value;
  }
  const jsonChange = removeCodexHooks(files.json);
  return async () => {
    const lines: string[] = [];
    if (files.jsonText !== undefined) {
      if (hasHookChanges(jsonChange)) {
        lines.push(...(await writeHooksJson(layer, files.jsonText, jsonChange)));
      } else {
        lines.push(`${layer.show(layer.json)}: no tailtest hooks found`);
      }
    }
    if (tomlPlan !== undefined) {
      if (tomlPlan.hooks === undefined) {
        lines.push(`${tomlLabel(layer)}: no tailtest hooks found`);
      } else {
        await writeAtomic(join(layer.root, layer.toml), tomlPlan.text);
        lines.push(...describeHookChange(tomlLabel(layer), tomlPlan.hooks));
      }
    }
    if (lines.length === 0) lines.push(`${layer.show(layer.json)}: not found, nothing to remove`);
    return lines;
  };
}

// ---------------------------------------------------------------------------------------------
// The user level: `$CODEX_HOME` (`~/.codex`), loaded for every project.

/** The pinned copy a user-level install makes of this package (dist/, beside cli.js). */
const USER_PACKAGE: UserPackage = {
  folder: "codex",
  name: packageJson.name,
  version: packageJson.version,
  dist: join(dirname(fileURLToPath(import.meta.url)), "..", "dist"),
};

/** Codex's user config folder: `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: Env = process.env): string {
  return env["CODEX_HOME"] ?? join(homedir(), ".codex");
}

function userLayer(env: Env): CodexLayer {
  const root = codexHome(env);
  return {
    root,
    json: "hooks.json",
    toml: "config.toml",
    show: (path) => `${shownPath(root)}/${path}`,
  };
}

/**
 * The user layer as a user-level install changes it, the way a project's is: into an existing
 * inline `[hooks]` table of config.toml (where Codex keeps its hook trust, so most user configs
 * have one) when toml-patch can add and remove the entries cleanly, else into hooks.json.
 */
function userCodexFiles(env: Env): UserHooksFile {
  const layer = userLayer(env);
  return {
    async prepareAdd(hook) {
      const command = (event: HookEventName) => userHookCommand(hook, event);
      const files = await readCodexFiles(layer);
      const placement = placeHooks(layer, files, command);
      return {
        write: () => writeCodexFiles(layer, files, placement, command),
        warnings: placement.warning === undefined ? [] : [placement.warning],
      };
    },
    prepareRemove: () => prepareRemoval(layer),
  };
}

/**
 * `init --user`: a pinned copy in the user data folder and tailtest's hooks in Codex's user
 * config (`$CODEX_HOME`), for every project; nothing is written into a project.
 */
export function initUser(env: Env = process.env): Promise<SetupReport> {
  return installForUser(USER_PACKAGE, userCodexFiles(env), env);
}

/** `uninstall --user`: tailtest's handlers in `$CODEX_HOME` and the pinned copy. */
export function uninstallUser(env: Env = process.env): Promise<SetupReport> {
  return uninstallForUser(USER_PACKAGE, userCodexFiles(env), env);
}
