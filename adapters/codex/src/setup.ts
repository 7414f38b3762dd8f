import { existsSync } from "node:fs";
import { mkdir, readdir, rm, rmdir } from "node:fs/promises";
import { dirname, join } from "node:path";
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
import {
  addCodexHooks,
  HOOK_MARKER,
  isEmptySettings,
  parseCodexConfig,
  parseHooksJson,
  planToml,
  removeCodexHooks,
  tomlRoundTrips,
  type CodexConfig,
  type CodexHooksChange,
  type TomlPlan,
} from "./install.ts";

export { SetupError, type SetupReport };

export const CODEX_DIR = ".codex";
export const HOOKS_JSON_PATH = ".codex/hooks.json";
export const CONFIG_TOML_PATH = ".codex/config.toml";
/** How the report names the inline table. */
export const TOML_HOOKS_LABEL = ".codex/config.toml [hooks]";
export const STATE_DIR = ".tailtest";

export interface InitOptions {
  root: string;
  mode?: Mode | undefined;
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
async function readCodexFiles(root: string): Promise<CodexFiles> {
  const jsonText = await readOptional(join(root, HOOKS_JSON_PATH));
  const json = parseHooksJson(jsonText);
  if (!json.ok) refuse(HOOKS_JSON_PATH, json.error);
  const tomlText = await readOptional(join(root, CONFIG_TOML_PATH));
  const toml = parseCodexConfig(tomlText);
  if (!toml.ok) refuse(CONFIG_TOML_PATH, toml.error);
  return { jsonText, json: json.value, tomlText, toml: toml.value };
}

function describeFeatures(plan: TomlPlan | undefined): string[] {
  return (plan?.enabled ?? []).map(
    (key) =>
      `${CONFIG_TOML_PATH}: [features] ${key} was false, so Codex ran no hooks; set it to true`,
  );
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
function placeHooks(files: CodexFiles): Placement {
  const { toml, tomlText } = files;
  if (toml === undefined || tomlText === undefined) return { target: "json" };
  const features = toml.disabledFeatures.length > 0;
  if (toml.hooks !== undefined) {
    const added = planToml(tomlText, toml, { hooks: "add", enableFeatures: true });
    if (added.ok && tomlRoundTrips(tomlText, toml, added.value)) {
      return { target: "toml", toml: added.value };
    }
    const cleared = planToml(tomlText, toml, { hooks: "remove", enableFeatures: true });
    if (!cleared.ok) {
      refuse(
        CONFIG_TOML_PATH,
        cleared.error,
        `take tailtest's entries (${HOOK_MARKER}) out by hand`,
      );
    }
    return {
      target: "json",
      toml: cleared.value,
      warning:
        `${CONFIG_TOML_PATH} has an inline [hooks] table that toml-patch cannot add tailtest's ` +
        `hooks to and take them out of again without touching your entries, so they went to ` +
        `${HOOKS_JSON_PATH}; Codex will warn that this folder has hooks in both places until ` +
        `you move your [hooks] entries to ${HOOKS_JSON_PATH}`,
    };
  }
  if (!features) return { target: "json" };
  const enabled = planToml(tomlText, toml, { hooks: "keep", enableFeatures: true });
  if (!enabled.ok) refuse(CONFIG_TOML_PATH, enabled.error);
  return { target: "json", toml: enabled.value };
}

/** Writes hooks.json after a change, or deletes it when nothing at all is left in it. */
async function writeHooksJson(
  root: string,
  text: string | undefined,
  change: CodexHooksChange,
): Promise<string[]> {
  const lines = describeHookChange(HOOKS_JSON_PATH, change);
  if (!isEmptySettings(change.settings)) {
    await writeAtomic(join(root, HOOKS_JSON_PATH), renderJson(change.settings, detectIndent(text)));
    return lines;
  }
  await rm(join(root, HOOKS_JSON_PATH));
  lines.push(`${HOOKS_JSON_PATH}: deleted (it held nothing but tailtest's hooks)`);
  const dir = join(root, CODEX_DIR);
  if ((await readdir(dir)).length === 0) {
    await rmdir(dir);
    lines.push(`${CODEX_DIR}/: removed (it was left empty)`);
  }
  return lines;
}

/** Writes what `placeHooks` decided: tailtest's handlers in one place, out of the other. */
async function writeCodexFiles(
  root: string,
  files: CodexFiles,
  placement: Placement,
): Promise<string[]> {
  const lines: string[] = [];
  const jsonChange =
    placement.target === "json" ? addCodexHooks(files.json) : removeCodexHooks(files.json);
  if (hasHookChanges(jsonChange)) {
    lines.push(...(await writeHooksJson(root, files.jsonText, jsonChange)));
  } else if (placement.target === "json") {
    lines.push(`${HOOKS_JSON_PATH}: tailtest's hooks are already there`);
  }
  const tomlPlan = placement.toml;
  if (tomlPlan !== undefined && tomlPlan.text !== files.tomlText) {
    await writeAtomic(join(root, CONFIG_TOML_PATH), tomlPlan.text);
    lines.push(...describeFeatures(tomlPlan));
    if (tomlPlan.hooks !== undefined)
      lines.push(...describeHookChange(TOML_HOOKS_LABEL, tomlPlan.hooks));
  }
  if (placement.target === "toml" && tomlPlan?.hooks === undefined) {
    lines.push(`${TOML_HOOKS_LABEL}: tailtest's hooks are already there`);
  }
  return lines;
}

/**
 * Registers tailtest's hooks for Codex in the project's `.codex/`. Every file is read and checked
 * before the first write, so a refusal leaves the project exactly as it was.
 */
export async function initProject(options: InitOptions): Promise<SetupReport> {
  const { root } = options;
  const files = await readCodexFiles(root);
  const placement = placeHooks(files);

  const projectFiles = await planProjectFiles(root, {
    mode: options.mode,
    // Codex's installer writes nothing outside .codex/ and .tailtest/: .tailtest/ ignores itself.
    gitignoreEntries: [],
    ignoreInside: [STATE_DIR],
  });

  const report: SetupReport = { lines: [], warnings: [] };
  if (placement.warning !== undefined) report.warnings.push(placement.warning);
  report.lines.push(...(await writeCodexFiles(root, files, placement)));

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
  const files = await readCodexFiles(root);
  const report: SetupReport = { lines: [], warnings: [] };

  let tomlPlan: TomlPlan | undefined;
  if (files.toml?.hooks !== undefined && files.tomlText !== undefined) {
    const plan = planToml(files.tomlText, files.toml, { hooks: "remove", enableFeatures: false });
    if (!plan.ok) {
      refuse(CONFIG_TOML_PATH, plan.error, `take tailtest's entries (${HOOK_MARKER}) out by hand`);
    }
    tomlPlan = plan.value;
  }
  const jsonChange = removeCodexHooks(files.json);

  if (files.jsonText !== undefined) {
    if (hasHookChanges(jsonChange)) {
      report.lines.push(...(await writeHooksJson(root, files.jsonText, jsonChange)));
    } else {
      report.lines.push(`${HOOKS_JSON_PATH}: no tailtest hooks found`);
    }
  }
  if (tomlPlan !== undefined) {
    if (tomlPlan.hooks === undefined) {
      report.lines.push(`${TOML_HOOKS_LABEL}: no tailtest hooks found`);
    } else {
      await writeAtomic(join(root, CONFIG_TOML_PATH), tomlPlan.text);
      report.lines.push(...describeHookChange(TOML_HOOKS_LABEL, tomlPlan.hooks));
    }
  }
  if (report.lines.length === 0) {
    report.lines.push(`${HOOKS_JSON_PATH}: not found, nothing to remove`);
  }
  report.lines.push(...stateKeptLines(root));
  return report;
}
