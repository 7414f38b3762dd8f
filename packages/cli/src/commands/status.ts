import { readFile, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "@decimalturn/toml-patch";
import {
  buildStatus,
  checkCodexTrust,
  DOCTOR_CONFIG_PATH,
  DOCTOR_HOOK_FILES,
  findHookInstalls,
  parseJsonObject,
  renderStatus,
  type CodexHooksSource,
  type CodexTrust,
  type TextStyle,
} from "@tailtest/core";
import { createFsView, openProject, readActivity } from "@tailtest/core/node";
import { rootOrRefuse } from "../project-root.ts";

/** `tailtest status`: reads the project's state and hook files, writes nothing. */

export interface StatusOptions {
  root?: string;
  json: boolean;
}

export interface StatusIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  style: TextStyle;
  now?: () => Date;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/** The markers doctor knows Codex's hooks by (its `PLATFORMS` table). */
const CODEX_MARKERS = ["@tailtest/codex", "tailtest-codex"];

type Parsed = { value: unknown } | { problem: string } | undefined;

function parseTomlText(text: string | undefined): Parsed {
  if (text === undefined) return undefined;
  try {
    return { value: parseToml(text) };
  } catch {
    return { problem: "not valid TOML" };
  }
}

function valueOf(parsed: Parsed): unknown {
  return parsed !== undefined && "value" in parsed ? parsed.value : undefined;
}

function hooksOf(value: unknown): unknown {
  return value !== null && typeof value === "object"
    ? (value as Record<string, unknown>)["hooks"]
    : undefined;
}

/**
 * Codex trust for this project: the project's `.codex/hooks.json` and `.codex/config.toml`, and
 * the user's `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`), where Codex records both
 * kinds of trust.
 */
async function readCodexTrust(
  root: string,
  texts: Readonly<Record<string, string | undefined>>,
  env: StatusIO["env"],
): Promise<CodexTrust> {
  const real = await realpath(root).catch(() => root);
  const sources: CodexHooksSource[] = [];
  const json = parseJsonObject(texts[".codex/hooks.json"]);
  if (texts[".codex/hooks.json"] !== undefined && json.ok)
    sources.push({ path: join(real, ".codex/hooks.json"), hooks: json.value["hooks"] });
  const projectToml = parseTomlText(texts[".codex/config.toml"]);
  if (projectToml !== undefined && "value" in projectToml)
    sources.push({ path: join(real, ".codex/config.toml"), hooks: hooksOf(projectToml.value) });
  const home = env["CODEX_HOME"] ?? join(homedir(), ".codex");
  const userToml = parseTomlText(await readText(join(home, "config.toml")));
  return checkCodexTrust({
    root: real,
    sources,
    userConfig: valueOf(userToml),
    userConfigProblem:
      userToml !== undefined && "problem" in userToml
        ? `${join(home, "config.toml")} is ${userToml.problem}`
        : undefined,
    projectConfig: valueOf(projectToml),
    markers: CODEX_MARKERS,
  });
}

export async function runStatus(options: StatusOptions, io: StatusIO): Promise<number> {
  const root = rootOrRefuse(options.root, io);
  if (root === undefined) return 2;
  const project = openProject(root);
  const texts: Record<string, string | undefined> = {};
  for (const path of DOCTOR_HOOK_FILES) texts[path] = await readText(join(root, path));
  const hooks = findHookInstalls(createFsView(root), texts);
  const codexInstalled = hooks.some((hook) => hook.platform === "codex" && hook.installed);
  const activity = await readActivity(project);
  const config = parseJsonObject(await readText(join(root, DOCTOR_CONFIG_PATH)));
  const report = buildStatus({
    mode: project.config.mode,
    modeFromConfig: config.ok && config.value["mode"] === project.config.mode,
    configProblems: project.configProblems,
    hooks,
    codexTrust: codexInstalled ? await readCodexTrust(root, texts, io.env) : undefined,
    sessions: activity.sessions,
    tdd: activity.tdd,
    strictEvents: activity.strictEvents,
    runLog: activity.runLog,
    history: activity.history,
    now: (io.now ?? (() => new Date()))().toISOString(),
    problems: activity.problems,
  });
  io.stdout(
    options.json
      ? `${JSON.stringify({ root, ...report }, null, 2)}\n`
      : renderStatus(report, io.style),
  );
  return 0;
}
