import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * Hook calls whose answer is "no opinion" whatever core would say, told apart before an adapter's
 * bundle (zod, core, the parsers) is evaluated: that evaluation is most of a hook's cost, and a
 * pre-tool hook holds the tool call until it exits. Each adapter's `hook.ts` is `launchHook`
 * with its platform below; `hook-main.js` is the bundle, loaded only when a call may need it.
 *
 * This module imports nothing but node (`@tailtest/core/quiet`): not core's index, not zod.
 */

/** Core's HOOKS_OFF_ENV (a test keeps the two equal): set for tailtest's own nested agents. */
export const HOOKS_OFF = "TAILTEST_HOOKS_OFF";

/** Core's STATE_DIR and its config file. */
const STATE_DIR = ".tailtest";
const CONFIG_FILE = join(STATE_DIR, "config.json");

export type Env = Readonly<Record<string, string | undefined>>;

type Payload = Record<string, unknown>;

/** What differs between agents in the launcher's shortcut. */
export interface QuietPlatform {
  /** The npm package a broken install should be reinstalled from. */
  packageName: string;
  /** The one event whose answer can refuse a tool call before it runs (tdd mode's gate). */
  gateEvent: string;
  /** What the agent reads as no opinion. */
  noOpinion: string;
  /** The project of a well-formed gate call's payload, else undefined. */
  gateRoot(payload: Payload, env: Env, cwd: string): string | undefined;
  /** The agent's refusal of a tool call, as printed on stdout. */
  deny(reason: string): string;
}

const CURSOR_MARKERS = ['"cursor_version"', '"conversation_id"'];

function isObject(value: unknown): value is Payload {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Claude Code's and Codex's PreToolUse fields (and not a Cursor payload), with its `cwd`. */
function claudeShapedCwd(payload: Payload): string | undefined {
  const cwd = payload["cwd"];
  if (
    typeof payload["session_id"] !== "string" ||
    typeof cwd !== "string" ||
    typeof payload["tool_name"] !== "string" ||
    !isObject(payload["tool_input"]) ||
    "cursor_version" in payload ||
    "conversation_id" in payload
  )
    return undefined;
  return cwd;
}

function claudeShapedDeny(reason: string): string {
  return `${JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  })}\n`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** Claude Code: CLAUDE_PROJECT_DIR, else the payload's `cwd`. */
export const CLAUDE_CODE: QuietPlatform = {
  packageName: "@tailtest/claude-code",
  gateEvent: "PreToolUse",
  noOpinion: "",
  gateRoot(payload, env) {
    const cwd = claudeShapedCwd(payload);
    if (cwd === undefined) return undefined;
    return nonEmpty(env["CLAUDE_PROJECT_DIR"]) ?? cwd;
  },
  deny: claudeShapedDeny,
};

/** Codex names no project: the nearest folder with .tailtest/ (else .git) above the payload's `cwd`. */
export const CODEX: QuietPlatform = {
  packageName: "@tailtest/codex",
  gateEvent: "PreToolUse",
  noOpinion: "",
  gateRoot(payload, _env, cwd) {
    const from = claudeShapedCwd(payload);
    return from === undefined ? undefined : findRoot(resolve(cwd, from));
  },
  deny: claudeShapedDeny,
};

/** Cursor: CURSOR_PROJECT_DIR, else the first workspace root, else the project around `cwd`. */
export const CURSOR: QuietPlatform = {
  packageName: "@tailtest/cursor",
  gateEvent: "preToolUse",
  // Cursor counts an empty answer as a failed hook.
  noOpinion: "{}\n",
  gateRoot(payload, env, cwd) {
    if (
      (typeof payload["conversation_id"] !== "string" &&
        typeof payload["cursor_version"] !== "string") ||
      typeof payload["tool_name"] !== "string" ||
      !isObject(payload["tool_input"])
    )
      return undefined;
    const roots = payload["workspace_roots"];
    const first: unknown = Array.isArray(roots) ? roots[0] : undefined;
    return (
      nonEmpty(env["CURSOR_PROJECT_DIR"]) ?? (typeof first === "string" ? first : findRoot(cwd))
    );
  },
  deny(reason) {
    const firstLine = reason.split("\n")[0] ?? reason;
    return `${JSON.stringify({ permission: "deny", user_message: firstLine, agent_message: reason })}\n`;
  },
};

/**
 * True when the call has no opinion for sure: the hooks are switched off, or it is the platform's
 * well-formed gate call in a project whose config says follow mode (or has no config), where
 * every gate answers nothing. Anything else (other events, bad input, another mode, a config
 * that does not read cleanly) goes the whole way.
 */
export function answersNothing(
  platform: QuietPlatform,
  stdin: string,
  env: Env,
  cwd: string = process.cwd(),
): boolean {
  if (env[HOOKS_OFF] === "1") return true;
  const root = gateRoot(platform, stdin, env, cwd);
  return root !== undefined && isFollowProject(root);
}

/**
 * The launcher could not load the bundle (a broken install): a gate call in a project that is
 * not in follow mode is denied, as any gate that cannot decide (ADR 0002); undefined otherwise.
 */
export function unreachableGateAnswer(
  platform: QuietPlatform,
  stdin: string,
  env: Env,
  why: string,
  cwd: string = process.cwd(),
): string | undefined {
  const root = gateRoot(platform, stdin, env, cwd);
  if (root === undefined || isFollowProject(root)) return undefined;
  return platform.deny(
    `tailtest could not decide (${why}), so this call is blocked: outside follow mode tailtest fails closed. Ask the person to reinstall ${platform.packageName}.`,
  );
}

/** The project of a well-formed gate call, else undefined. */
function gateRoot(
  platform: QuietPlatform,
  stdin: string,
  env: Env,
  cwd: string,
): string | undefined {
  // Most calls are other events: they skip the parse.
  if (!stdin.includes(`"${platform.gateEvent}"`)) return undefined;
  // Cursor runs Claude Code hooks with its own payloads; the full path handles those.
  if (platform !== CURSOR && CURSOR_MARKERS.some((marker) => stdin.includes(marker)))
    return undefined;
  let json: unknown;
  try {
    json = JSON.parse(stdin);
  } catch {
    return undefined;
  }
  if (!isObject(json) || json["hook_event_name"] !== platform.gateEvent) return undefined;
  return platform.gateRoot(json, env, cwd);
}

/**
 * The nearest folder holding .tailtest/, else the nearest holding .git, else `start` itself
 * (core's `findProjectRoot` is this walk).
 */
export function findRoot(start: string): string {
  const from = resolve(start);
  for (const marker of [STATE_DIR, ".git"]) {
    let dir = from;
    for (;;) {
      if (existsSync(join(dir, marker))) return dir;
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return from;
}

/** No config, or one that parses and leaves `mode` at follow. */
export function isFollowProject(root: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(root, CONFIG_FILE), "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
  try {
    const config = JSON.parse(text) as unknown;
    if (!isObject(config)) return false;
    const mode = config["mode"];
    return mode === undefined || mode === "follow";
  } catch {
    return false;
  }
}

/** The whole of stdin as text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** What an adapter's `hook-main.js` exports: the whole hook, for a call that may need it. */
export interface HookMain {
  answerHook(stdin: string): Promise<{ stdout: string; stderr: string; exitCode: number }>;
}

/**
 * An adapter's hook bin. A call with no opinion for sure ends here; anything else imports
 * `main` (the adapter's `hook-main.js`, a URL so the bundler leaves it a file of its own) and
 * runs the real hook. A `main` that cannot load denies a gate call outside follow mode, with one
 * stderr line; any other call gets no opinion and that line.
 */
export async function launchHook(platform: QuietPlatform, main: URL): Promise<void> {
  let stdin = "";
  try {
    stdin = await readStdin();
  } catch {
    // Unreadable stdin reads as empty: hook-main reports it (and denies a tdd-mode gate).
  }
  if (answersNothing(platform, stdin, process.env)) {
    process.stdout.write(platform.noOpinion);
    return;
  }
  let loaded: HookMain;
  try {
    loaded = (await import(main.href)) as HookMain;
  } catch (error) {
    // The code, not the message: the message holds this machine's path, which agents never see.
    const code = (error as { code?: unknown } | null)?.code;
    const name = `./${main.pathname.split("/").pop() ?? ""}`;
    const why = `${name} did not load (${typeof code === "string" ? code : "error"})`;
    process.stdout.write(
      unreachableGateAnswer(platform, stdin, process.env, why) ?? platform.noOpinion,
    );
    process.stderr.write(`tailtest: ${why}\n`);
    return;
  }
  const output = await loaded.answerHook(stdin);
  process.stdout.write(output.stdout);
  process.stderr.write(output.stderr);
  process.exitCode = output.exitCode;
}
