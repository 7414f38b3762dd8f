import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
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
import packageJson from "../package.json" with { type: "json" };
import { addTailtestHooks, HOOK_MARKER, parseSettings, removeTailtestHooks } from "./install.ts";

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

type Env = Readonly<Record<string, string | undefined>>;

/** What a user-level install copies: the launcher, its bundles and the bash parser. */
const USER_COPY = [
  "hook.cjs",
  "hook-main.cjs",
  "hook-post.cjs",
  "hook-gate.cjs",
  "tree-sitter.wasm",
  "tree-sitter-bash.wasm",
];

/**
 * Where a user-level install keeps its pinned copy: `$TAILTEST_DATA_DIR`, else
 * `$XDG_DATA_HOME/tailtest`, else `~/.local/share/tailtest`. The copy is laid out as a package in
 * a node_modules/, so its hook command carries the same marker as a project's.
 */
export function userDataDir(env: Env = process.env): string {
  return (
    env["TAILTEST_DATA_DIR"] ??
    join(env["XDG_DATA_HOME"] ?? join(homedir(), ".local", "share"), "tailtest")
  );
}

/** Claude Code's user settings: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`. */
export function userSettingsPath(env: Env = process.env): string {
  return join(env["CLAUDE_CONFIG_DIR"] ?? join(homedir(), ".claude"), "settings.json");
}

function userPackageDir(env: Env): string {
  return join(userDataDir(env), "claude-code", "node_modules", "@tailtest", "claude-code");
}

/** The user-level hook command: the pinned copy, with the flag that makes it stand aside. */
export function userHookCommand(env: Env = process.env): string {
  return `node "${join(userPackageDir(env), "dist", "hook.cjs")}" --user`;
}

/** A path as the report shows it: the home folder as `~`. */
function shown(path: string): string {
  const home = homedir();
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** This package's built hook files (dist/, beside cli.js; ../dist from src/ in the tests). */
function builtDist(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
}

/**
 * `init --user`: copies this version's hook into the user data folder and registers it in
 * Claude Code's user settings, for every project. A project opts out with `opt-out`; one that
 * installs the package itself is left to its own hooks. Nothing is written into any project.
 */
export async function initUser(env: Env = process.env): Promise<SetupReport> {
  const settingsPath = userSettingsPath(env);
  const text = await readOptional(settingsPath);
  const parsed = parseSettings(text);
  if (!parsed.ok)
    throw new SetupError(
      `${shown(settingsPath)} ${parsed.error}; fix it first, nothing was changed`,
    );
  const from = builtDist();
  const missing = USER_COPY.filter((file) => !existsSync(join(from, file)));
  if (missing.length > 0)
    throw new SetupError(`this install of @tailtest/claude-code lacks dist/${missing[0] ?? ""}`);
  const target = userPackageDir(env);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(join(target, "dist"), { recursive: true });
  for (const file of USER_COPY) cpSync(join(from, file), join(target, "dist", file));
  writeFileSync(
    join(target, "package.json"),
    `${JSON.stringify({ name: packageJson.name, version: packageJson.version, private: true }, null, 2)}\n`,
  );
  const change = addTailtestHooks(parsed.value, userHookCommand(env));
  const lines = [
    `${shown(target)}: @tailtest/claude-code ${packageJson.version}`,
    ...(
      await writeJsonHooks(dirname(settingsPath), "settings.json", text, {
        value: change.settings,
        summary: change,
        unchanged: "tailtest's hooks are already there",
      })
    ).map((line) => `${shown(dirname(settingsPath))}/${line}`),
  ];
  return { lines, warnings: [] };
}

/** `uninstall --user`: the user settings' tailtest hooks and the pinned copy, nothing else. */
export async function uninstallUser(env: Env = process.env): Promise<SetupReport> {
  const settingsPath = userSettingsPath(env);
  const text = await readOptional(settingsPath);
  const parsed = parseSettings(text);
  if (!parsed.ok)
    throw new SetupError(
      `${shown(settingsPath)} ${parsed.error}; fix it first, nothing was changed`,
    );
  const lines: string[] = [];
  if (text === undefined) lines.push(`${shown(settingsPath)}: not found, nothing to remove`);
  else {
    const change = removeTailtestHooks(parsed.value);
    lines.push(
      ...(
        await writeJsonHooks(dirname(settingsPath), "settings.json", text, {
          value: change.settings,
          summary: change,
          unchanged: "no tailtest hooks found",
        })
      ).map((line) => `${shown(dirname(settingsPath))}/${line}`),
    );
  }
  const copy = join(userDataDir(env), "claude-code");
  if (existsSync(copy)) {
    rmSync(copy, { recursive: true, force: true });
    lines.push(`${shown(copy)}: removed`);
  }
  const data = userDataDir(env);
  if (existsSync(data) && readdirSync(data).length === 0) rmSync(data, { recursive: true });
  return { lines, warnings: [] };
}
