import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  buildStatus,
  DOCTOR_CONFIG_PATH,
  DOCTOR_HOOK_FILES,
  findHookInstalls,
  parseJsonObject,
  renderStatus,
  type TextStyle,
} from "@tailtest/core/status";
import {
  copyStatusLine,
  createFsView,
  openProject,
  pinLine,
  pinWithWitness,
  readActivity,
  readWitness,
  SESSION_PATHS,
  sessionModeOf,
} from "@tailtest/core/node/status";
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

// Synchronous reads: node's promise API loads its streams and abort controllers, which cost a
// command's start more than these few small reads (ADR 0010).
function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

export async function runStatus(options: StatusOptions, io: StatusIO): Promise<number> {
  const root = rootOrRefuse(options.root, io);
  if (root === undefined) return 2;
  const project = openProject(root);
  const texts: Record<string, string | undefined> = {};
  for (const path of DOCTOR_HOOK_FILES) texts[path] = readText(join(root, path));
  // Codex's TOML (and the library that reads it) only for a project that has some.
  const hasToml = Object.entries(texts).some(
    ([path, text]) => path.endsWith(".toml") && text !== undefined,
  );
  const codex = hasToml || texts[".codex/hooks.json"] !== undefined;
  const codexConfig = codex ? await import("../codex-config.ts") : undefined;
  const hooks = findHookInstalls(
    createFsView(root),
    texts,
    codexConfig?.parseHookTomls(texts) ?? {},
  );
  const codexInstalled = hooks.some((hook) => hook.platform === "codex" && hook.installed);
  const activity = await readActivity(project);
  const config = parseJsonObject(readText(join(root, DOCTOR_CONFIG_PATH)));
  // A session pinned to a stricter mode than the config says (ADR 0012) is what gates now.
  // A session file that says less than the copy of its mode kept outside the project (or is
  // gone) was changed by something else: the copy's mode gates.
  const pin = SESSION_PATHS.map((path) =>
    pinWithWitness(project, path, sessionModeOf(join(root, path)), readWitness(root, path, io.env)),
  ).find((found) => found !== undefined);
  const mode = pin?.pinned ?? project.config.mode;
  // Said every time, as every Stop says it, until the copy is whole again.
  const copy = copyStatusLine(root, mode);
  const report = buildStatus({
    mode,
    modeFromConfig: pin === undefined && config.ok && config.value["mode"] === project.config.mode,
    configProblems:
      pin === undefined ? project.configProblems : [...project.configProblems, pinLine(pin)],
    hooks,
    codexTrust:
      codexInstalled && codexConfig !== undefined
        ? await codexConfig.readCodexTrust(root, texts, io.env)
        : undefined,
    sessions: activity.sessions,
    tdd: activity.tdd,
    strictEvents: activity.strictEvents,
    runLog: activity.runLog,
    history: activity.history,
    now: (io.now ?? (() => new Date()))().toISOString(),
    problems: copy === undefined ? activity.problems : [...activity.problems, copy],
  });
  io.stdout(
    options.json
      ? `${JSON.stringify({ root, ...report }, null, 2)}\n`
      : renderStatus(report, io.style),
  );
  return 0;
}
