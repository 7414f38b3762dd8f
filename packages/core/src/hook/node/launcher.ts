import { existsSync, readFileSync, readSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { loadBundle } from "./code-cache.ts";
import { armDeadline } from "./deadline.ts";
import { workingDir } from "./working-dir.ts";
import { witnessNames } from "../../gating/node/mode-witness-path.ts";

/** The bundle loader, for the adapters' `tailtest` launcher (packages/cli/src/launch.ts). */
export { loadBundle } from "./code-cache.ts";

/**
 * Hook calls whose answer is "no opinion" whatever core would say, told apart before an adapter's
 * bundle (zod, core, the parsers) is evaluated: that evaluation is most of a hook's cost, and a
 * pre-tool hook holds the tool call until it exits. Each adapter's `hook.cjs`
 * (`entries/node/adapter/hook.ts`) is `launchHook` with its platform below; `hook-main.cjs` is the bundle, loaded (with its V8 code cache, see
 * code-cache.ts) only when a call may need it.
 *
 * This module imports nothing but node (`@tailtest/core/quiet`): not core's index, not zod. The
 * launcher is CommonJS and reads stdin and writes stdout with plain system calls: an ES module
 * entry, or touching `process.stdin`/`process.stdout` (streams), each cost a hook 10–20 ms.
 */

/** Set for tailtest's own nested agents (the plan review): their hooks have no opinion at all. */
export const HOOKS_OFF = "TAILTEST_HOOKS_OFF";

/** Core's STATE_DIR and its config file. */
const STATE_DIR = ".tailtest";
const CONFIG_FILE = join(STATE_DIR, "config.json");

/** What a user-level install's hook command passes: the hook runs for every project. */
export const USER_FLAG = "--user";
/** A project's opt-out of a user-level install (`tailtest-<agent> opt-out`). */
export const OPT_OUT_FILE = join(STATE_DIR, "off");

/**
 * A user-level hook (ADR 0011) has no opinion in a project that opted out (`.tailtest/off`) or
 * that installed the package itself, whose own hooks answer instead; a payload that names no
 * project goes the whole way (the bundle reports it). An opt-out is a mode weaker than any: in a
 * project whose config or session gates (tdd, strict) it is not taken, as a weaker config is not
 * (ADR 0012's mode pin), so a program that writes `.tailtest/off` cannot switch a gate off.
 */
export function userHookStandsAside(platform: QuietPlatform, stdin: string, env: Env): boolean {
  let json: unknown;
  try {
    json = JSON.parse(stdin);
  } catch {
    return false;
  }
  if (!isObject(json)) return false;
  const root = platform.projectRoot(json, env, workingDir());
  if (root === undefined) return false;
  return (
    (existsSync(join(root, OPT_OUT_FILE)) && isFollowProject(root)) ||
    existsSync(join(root, "node_modules", platform.packageName, "dist", "hook.cjs"))
  );
}

export type Env = Readonly<Record<string, string | undefined>>;

type Payload = Record<string, unknown>;

/** What differs between agents in the launcher's shortcut. */
export interface QuietPlatform {
  /** The npm package a broken install should be reinstalled from. */
  packageName: string;
  /** The one event whose answer can refuse a tool call before it runs (tdd mode's gate). */
  gateEvent: string;
  /** The events after a tool ran (an edit to queue, a command to read), which share a cache. */
  postEvents: readonly string[];
  /** The end of a turn, which runs the queued files' tests: a cache of its own. */
  stopEvents: readonly string[];
  /** What the agent reads as no opinion. */
  noOpinion: string;
  /** Whether a payload has the platform's gate call's fields (a tool and its input). */
  isGateCall(payload: Payload): boolean;
  /** The project of any call, as the adapter finds it (undefined: the payload does not say). */
  projectRoot(payload: Payload, env: Env, cwd: string): string | undefined;
  /** The agent's refusal of a tool call, as printed on stdout. */
  deny(reason: string): string;
}

const CURSOR_MARKERS = ['"cursor_version"', '"conversation_id"'];

/**
 * Whether a payload may be Cursor's (it names Cursor's fields), without parsing it: Cursor also
 * runs Claude Code's hooks, and every other call is spared the parse and Cursor's module.
 */
export function mayBeCursorPayload(stdin: string): boolean {
  return CURSOR_MARKERS.some((marker) => stdin.includes(marker));
}

function isObject(value: unknown): value is Payload {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Claude Code's and Codex's PreToolUse fields, and not a Cursor payload. */
function isClaudeShapedGate(payload: Payload): boolean {
  return (
    typeof payload["session_id"] === "string" &&
    typeof payload["cwd"] === "string" &&
    typeof payload["tool_name"] === "string" &&
    isObject(payload["tool_input"]) &&
    !("cursor_version" in payload) &&
    !("conversation_id" in payload)
  );
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
  postEvents: ["PostToolUse", "PostToolUseFailure"],
  stopEvents: ["Stop", "SubagentStop"],
  noOpinion: "",
  isGateCall: isClaudeShapedGate,
  projectRoot(payload, env) {
    const cwd = payload["cwd"];
    return (
      nonEmpty(env["CLAUDE_PROJECT_DIR"]) ?? (typeof cwd === "string" ? nonEmpty(cwd) : undefined)
    );
  },
  deny: claudeShapedDeny,
};

/** Codex names no project: the nearest folder with .tailtest/ (else .git) above the payload's `cwd`. */
export const CODEX: QuietPlatform = {
  packageName: "@tailtest/codex",
  gateEvent: "PreToolUse",
  postEvents: ["PostToolUse"],
  stopEvents: ["Stop"],
  noOpinion: "",
  isGateCall: isClaudeShapedGate,
  projectRoot(payload, _env, cwd) {
    const from = payload["cwd"];
    return typeof from === "string" ? findRoot(resolve(cwd, from)) : undefined;
  },
  deny: claudeShapedDeny,
};

/** Cursor: CURSOR_PROJECT_DIR, else the first workspace root, else the project around `cwd`. */
export const CURSOR: QuietPlatform = {
  packageName: "@tailtest/cursor",
  gateEvent: "preToolUse",
  postEvents: ["postToolUse", "afterFileEdit"],
  stopEvents: ["stop", "subagentStop"],
  // Cursor counts an empty answer as a failed hook.
  noOpinion: "{}\n",
  isGateCall(payload) {
    return (
      (typeof payload["conversation_id"] === "string" ||
        typeof payload["cursor_version"] === "string") &&
      typeof payload["tool_name"] === "string" &&
      isObject(payload["tool_input"])
    );
  },
  projectRoot(payload, env, cwd) {
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
  cwd: string = workingDir(),
): boolean {
  return env[HOOKS_OFF] === "1" || gateOf(platform, stdin, env, cwd)?.mode === "follow";
}

/**
 * A well-formed gate call's project and the mode the launcher reads for it, else undefined. The
 * launcher reads them once a call: both its shortcut and the gate's deadline ask.
 */
function gateOf(
  platform: QuietPlatform,
  stdin: string,
  env: Env,
  cwd: string,
): { mode: ReturnType<typeof launcherMode> } | undefined {
  const root = gateRoot(platform, stdin, env, cwd);
  return root === undefined ? undefined : { mode: launcherMode(root) };
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
  cwd: string = workingDir(),
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
  if (platform !== CURSOR && mayBeCursorPayload(stdin)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(stdin);
  } catch {
    return undefined;
  }
  if (!isObject(json) || json["hook_event_name"] !== platform.gateEvent) return undefined;
  return platform.isGateCall(json) ? platform.projectRoot(json, env, cwd) : undefined;
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

/**
 * The mode a project's config says, as the launcher reads it: follow without a config, undefined
 * when the config does not read cleanly or names no known mode (the bundle settles that).
 */
export function launcherMode(root: string): "follow" | "tdd" | "strict" | undefined {
  const mode = configMode(root);
  // A session pinned to a gating mode (mode-pin.ts) outlives a weaker or missing config: the
  // bundle settles which mode is in force.
  if (mode === "follow" && sessionGates(root)) return undefined;
  return mode;
}

function configMode(root: string): "follow" | "tdd" | "strict" | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, CONFIG_FILE), "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "follow" : undefined;
  }
  try {
    const config = JSON.parse(text) as unknown;
    if (!isObject(config)) return undefined;
    const mode = config["mode"];
    if (mode === undefined) return "follow";
    return mode === "follow" || mode === "tdd" || mode === "strict" ? mode : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Session files, Claude's and Codex's first, then Cursor's, and where Cursor's lived before it
 * moved into .tailtest/ (moved on a project's next hook call, `adoptLegacyCursorSession`).
 */
const SESSION_FILES = [
  ".tailtest/session.json",
  ".tailtest/cursor-session.json",
  ".cursor/hooks/state/tailtest.json",
];

/**
 * A session file records a gating mode (read as text: the launcher loads no schema). A file that
 * is not there is asked first rather than read: most projects hold one of the three, and each
 * failed read was an exception (an Error with its stack, ~8 KB of young objects) on every call.
 */
function sessionGates(root: string): boolean {
  return SESSION_FILES.some((file) => gatingModeIn(join(root, file))) || witnessGates(root);
}

/** A file read as text that records a gating mode; one not there is asked first, not read. */
function gatingModeIn(path: string): boolean {
  try {
    return existsSync(path) && /"mode"\s*:\s*"(tdd|strict)"/.test(readFileSync(path, "utf8"));
  } catch {
    return false;
  }
}

/**
 * The copy of a session's gating mode kept outside the project (mode-witness.ts): a session
 * file rewritten to follow, or deleted, with the config gone leaves the copy, and the bundle
 * settles the mode.
 */
function witnessGates(root: string): boolean {
  return WITNESSED_SESSIONS.some((file) => witnessNames(root, file, GATING));
}

const GATING = ["tdd", "strict"];

/** Core's SESSION_PATHS (a test keeps the two equal): the session files whose mode has a copy. */
export const WITNESSED_SESSIONS = [".tailtest/session.json", ".tailtest/cursor-session.json"];

/** No config, or one that parses and leaves `mode` at follow. */
export function isFollowProject(root: string): boolean {
  return launcherMode(root) === "follow";
}

/** The code cache a call uses (code-cache.ts): the event name read off the text, unparsed. */
export function routeOf(
  platform: QuietPlatform,
  stdin: string,
): "pre" | "pre-shell" | "post" | "shell" | "stop" | "other" {
  const name = /"hook_event_name"\s*:\s*"([A-Za-z]+)"/.exec(stdin)?.[1];
  // A shell command's gate loads the bash grammar, under flags of its own (code-cache.ts).
  if (name === platform.gateEvent) return isShellCall(stdin) ? "pre-shell" : "pre";
  if (name !== undefined && platform.stopEvents.includes(name)) return "stop";
  if (name === undefined || !platform.postEvents.includes(name)) return "other";
  // After a shell command: the bash grammar's loader and reader, which an edit never runs.
  return isShellCall(stdin) ? "shell" : "post";
}

/** A call about a shell command (Claude Code's and Codex's Bash, Cursor's Shell), read unparsed. */
function isShellCall(stdin: string): boolean {
  return /"tool_name"\s*:\s*"(Bash|Shell)"/.test(stdin);
}

/** More than this many bytes is more than PAYLOAD_LIMITS' 16 Mi characters, however encoded. */
const STDIN_BYTE_CAP = 4 * 16 * 1024 * 1024 + 1;
/** What the first read asks for: most payloads are a few kilobytes. */
const STDIN_FIRST_READ = 64 * 1024;

/**
 * The whole of stdin as text, read with plain system calls (no stream is set up). A stdin that
 * is non-blocking (EAGAIN) is read on through the stream instead. Reading stops past the cap:
 * the payload check refuses such a stdin anyway, and the hook's memory stays bounded.
 *
 * Into one buffer, grown only for a payload past 64 KiB, and decoded once: every node function a
 * hook calls for the first time is compiled in that process (node's code cache holds only its
 * modules' top levels), and `subarray` and `Buffer.concat` on every call cost ~0.5 M
 * instructions that a payload of a few kilobytes never needed (ADR 0010).
 */
export async function readStdin(): Promise<string> {
  let buffer = Buffer.allocUnsafe(STDIN_FIRST_READ);
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, STDIN_BYTE_CAP));
      buffer.copy(grown, 0, 0, total);
      buffer = grown;
    }
    let count: number;
    try {
      count = readSync(0, buffer, total, buffer.length - total, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") return readRestFromStream([buffer.subarray(0, total)], total);
      if (code === "EOF") break;
      throw error;
    }
    if (count === 0) break;
    total += count;
    if (total >= STDIN_BYTE_CAP) break;
  }
  return buffer.toString("utf8", 0, total);
}

async function readRestFromStream(chunks: Buffer[], total: number): Promise<string> {
  let read = total;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    read += (chunk as Buffer).length;
    if (read >= STDIN_BYTE_CAP) break;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Whether this process has written an answer on stdout (a late failure adds none). */
let wroteAnswer = false;
/** Whether part of an answer went through node's stream (still to be flushed at exit). */
let streamed = false;
/** Disarms the gate's deadline once an answer is out (`watchGate`). */
let disarmGate: (() => void) | undefined;

/** Writes all of `text` to fd 1 or 2; a non-blocking pipe that is full goes through the stream. */
export function writeOut(fd: 1 | 2, text: string): void {
  // An answer ends the gate's deadline, an empty one (no opinion) too.
  if (fd === 1) disarmGate?.();
  if (text === "") return;
  if (fd === 1) wroteAnswer = true;
  const data = Buffer.from(text, "utf8");
  let done = 0;
  while (done < data.length) {
    try {
      done += writeSync(fd, data, done, data.length - done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      streamed = true;
      (fd === 1 ? process.stdout : process.stderr).write(data.subarray(done));
      return;
    }
  }
}

type Output = { stdout: string; stderr: string; exitCode: number };

/** What an adapter's `hook-main.cjs` exports: the whole hook, for a call that may need it. */
export interface HookMain {
  answerHook(stdin: string): Promise<Output>;
}

/**
 * What `hook-post.cjs` (follow mode's answer to an edit) and `hook-gate.cjs` (tdd and strict
 * mode's around an edit tool) export: an answer, or undefined for a call they leave to
 * `hook-main.cjs`.
 */
export interface HookPart {
  answerHook(stdin: string): Promise<Output | undefined>;
}

/** An adapter's hook files: `hook-main.cjs`, and the smaller bundles that answer the most calls. */
export interface HookBundles {
  main: string;
  post?: string;
  gate?: string;
}

/**
 * An adapter's hook bin. A call with no opinion for sure ends here. An edit tool's call goes to
 * the bundle made for it when there is one (`hook-post.cjs` in follow mode, `hook-gate.cjs` in
 * tdd and strict mode, as the config says); anything else, or a call such a bundle leaves, to
 * `main` (the adapter's `hook-main.cjs`). Each is evaluated with its code cache. A `main` that
 * cannot load denies a gate call outside follow mode, with one stderr line; any other call gets
 * no opinion and that line.
 */
export async function launchHook(platform: QuietPlatform, bundles: HookBundles): Promise<void> {
  let stdin = "";
  // Whatever escapes (a stack overflow, a throw from a callback): one line and the policy's
  // answer, never a stack trace or the bundle's source (ADR 0002).
  const fail = (error: unknown) => {
    process.exitCode = 0;
    if (!wroteAnswer) writeOut(1, failedAnswer(platform, stdin, process.env, error));
    writeOut(2, `tailtest: internal error, skipped this hook: ${escapedLine(error)}\n`);
    process.exit();
  };
  process.on("uncaughtException", fail);
  process.on("unhandledRejection", fail);
  try {
    await launch(platform, bundles, (read) => (stdin = read));
  } catch (error) {
    fail(error);
  }
}

async function launch(
  platform: QuietPlatform,
  bundles: HookBundles,
  keep: (stdin: string) => void,
): Promise<void> {
  let stdin = "";
  try {
    stdin = await readStdin();
  } catch {
    // Unreadable stdin reads as empty: hook-main reports it (and denies a tdd-mode gate).
  }
  keep(stdin);
  const unread = unreadableCall(platform, stdin, process.argv);
  if (unread !== undefined) {
    writeOut(1, platform.noOpinion);
    writeOut(2, unread);
    return;
  }
  // The payload parsed and the config read once for both the shortcut and the gate's deadline.
  const off = process.env[HOOKS_OFF] === "1";
  const gate = off ? undefined : gateOf(platform, stdin, process.env, workingDir());
  if (
    off ||
    gate?.mode === "follow" ||
    (process.argv.includes(USER_FLAG) && userHookStandsAside(platform, stdin, process.env))
  ) {
    writeOut(1, platform.noOpinion);
    return;
  }
  const route = routeOf(platform, stdin);
  const gateMode =
    route === "pre" || route === "pre-shell" ? watchGate(platform, stdin, gate) : undefined;
  const part = partFor(platform, bundles, route, stdin);
  if (part !== undefined && (await answeredByPart(part, partRoute(route, gateMode), stdin))) return;
  const main = bundles.main;
  let loaded: ReturnType<typeof loadBundle<HookMain>>;
  try {
    loaded = loadBundle<HookMain>(main, route);
  } catch (error) {
    // The code, not the message: the message holds this machine's path, which agents never see.
    const code = (error as { code?: unknown } | null)?.code;
    const why = `./${basename(main)} did not load (${typeof code === "string" ? code : "error"})`;
    writeOut(1, unreachableGateAnswer(platform, stdin, process.env, why) ?? platform.noOpinion);
    writeOut(2, `tailtest: ${why}\n`);
    return;
  }
  const output = await loaded.exports.answerHook(stdin);
  writeOut(1, output.stdout);
  writeOut(2, output.stderr);
  process.exitCode = output.exitCode;
  // After the answer is out: a call that compiled the bundle keeps the result for the next one.
  loaded.keepCache();
}

/**
 * The smaller bundle an edit tool's call goes to first: by the mode the config says, read here
 * (a gate call that got this far is not in follow mode). Shell commands, which need the bash
 * parser, and anything else go straight to `hook-main.cjs`.
 */
export function partFor(
  platform: QuietPlatform,
  bundles: HookBundles,
  route: ReturnType<typeof routeOf>,
  stdin: string,
): string | undefined {
  // A shell command's gate (`pre-shell`) needs the bash parser: hook-gate.cjs would only hand
  // it on.
  if (route === "pre") return bundles.gate;
  if (route !== "post") return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(stdin);
  } catch {
    return undefined;
  }
  if (!isObject(payload)) return undefined;
  const root = platform.projectRoot(payload, process.env, workingDir());
  const mode = root === undefined ? undefined : launcherMode(root);
  if (mode === "follow") return bundles.post;
  return mode === undefined ? undefined : bundles.gate;
}

/**
 * The code cache a smaller bundle's call uses: hook-gate.cjs keeps strict's gate apart from tdd's
 * (`pre-strict`), so neither gate deserialises the other's functions (ADR 0010, seventh round).
 * A mode the launcher cannot tell (the bundle then settles it) keeps `pre`.
 */
export function partRoute(
  route: ReturnType<typeof routeOf>,
  gateMode: ReturnType<typeof launcherMode>,
): string {
  return route === "pre" && gateMode === "strict" ? "pre-strict" : route;
}

/**
 * Answers from a smaller bundle when it takes the call; false when it leaves the call to
 * `hook-main.cjs`, having written nothing, or cannot be loaded at all.
 */
async function answeredByPart(bundle: string, route: string, stdin: string): Promise<boolean> {
  let loaded: ReturnType<typeof loadBundle<HookPart>>;
  try {
    loaded = loadBundle<HookPart>(bundle, route);
  } catch {
    return false;
  }
  const output = await loaded.exports.answerHook(stdin);
  if (output === undefined) return false;
  writeOut(1, output.stdout);
  writeOut(2, output.stderr);
  process.exitCode = output.exitCode;
  loaded.keepCache();
  exitAnswered();
  return true;
}

/**
 * Ends a per-edit call once its answer is out and its cache kept: nothing is left to run (the
 * answer, the state and the cache were written with plain system calls), and node's natural
 * exit would first take down V8's heap a region at a time (~60 `munmap`s, each page freed on
 * its own), where the kernel frees the whole address space at once (ADR 0010, sixth round).
 * `process.exit` still emits `exit` (the launcher's own cache, a lock's release). Not when part
 * of the answer went through node's stream: that is flushed by the natural exit.
 */
function exitAnswered(): void {
  if (!streamed) process.exit();
}

/**
 * How long after its process started a gate (a pre-tool call outside follow mode) may take: past
 * it, it denies and exits (ADR 0002), well before the 30 s the installers give Codex's and
 * Cursor's gates, where a gate that times out lets the tool call through. A plan review (Claude
 * Code's ExitPlanMode, allowed up to its own timeout) is not held to it.
 */
export const GATE_DEADLINE_MS = 20_000;

/**
 * Arms the gate's deadline for a gate call outside follow mode (nothing for any other call):
 * `gate` is what `gateOf` read for it (undefined: not a well-formed gate call). Returns the mode
 * the launcher reads for the call's project (undefined: none read, or unsure).
 */
function watchGate(
  platform: QuietPlatform,
  stdin: string,
  gate: ReturnType<typeof gateOf>,
): ReturnType<typeof launcherMode> | undefined {
  if (/"tool_name"\s*:\s*"ExitPlanMode"/.test(stdin)) return undefined;
  if (gate === undefined) return undefined;
  const mode = gate.mode;
  if (mode === "follow") return mode;
  // process.uptime, not performance: the global's first use loads perf_hooks (~12 M instructions).
  const left = GATE_DEADLINE_MS - process.uptime() * 1000;
  disarmGate = armDeadline(Math.max(0, left), () => {
    // An answer already out stands: the process is only finishing (a code cache).
    if (wroteAnswer) return;
    writeOut(1, platform.deny(gateTimeoutReason()));
    writeOut(2, `tailtest: ${gateTimeoutReason()}\n`);
    process.exit(0);
  });
  return mode;
}

function gateTimeoutReason(): string {
  return `the gate could not decide within ${GATE_DEADLINE_MS / 1000} s (the machine is busy), so this call is blocked: outside follow mode tailtest fails closed. Try again.`;
}

/** `--event=<name>`: the event a hook command was registered for, when it says so. */
export const EVENT_FLAG = "--event=";

/**
 * Node's flags in the hook commands `init` writes for the calls around a tool call (each
 * platform's gate event and post events: a queued edit, a gate), before the hook file. V8 sizes
 * its young generation as the heap is made, so no hook can set this itself: a queued edit's
 * allocations (~1.4 MB with node's own) sat at the edge of the first 1 MB semi-space and ran one
 * scavenge, and starting at 2 MB runs none (ADR 0010, fifth round). Not for the session's start
 * or the end of a turn: their walks of a large tree would hold the larger young generation (a
 * SessionStart on 50,000 files peaked 2.6 MiB higher). Every node from 20.19 to 24 takes it (an
 * unknown flag makes node exit 9, which would wedge every hook). V8 checks a code cache against
 * its flags, so the caches' names carry them (code-cache.ts) and the build trains under them.
 */
export const HOOK_NODE_FLAGS = ["--min-semi-space-size=2"] as const;

/** The events around a tool call, on any platform: their commands carry `HOOK_NODE_FLAGS`. */
const TOOL_CALL_EVENTS: ReadonlySet<string> = new Set(
  [CLAUDE_CODE, CODEX, CURSOR].flatMap((platform) => [platform.gateEvent, ...platform.postEvents]),
);

/** Node's flags in the command for `event`'s hook (the benches run hooks with these too). */
export function hookNodeFlags(event: string): readonly string[] {
  return TOOL_CALL_EVENTS.has(event) ? HOOK_NODE_FLAGS : [];
}

/** How `event`'s hook command starts node on the hook file: `node [flags] "<hook.cjs>" …`. */
export function hookNode(event: string): string {
  return ["node", ...hookNodeFlags(event)].join(" ");
}

/**
 * The event a call is for: the command's `--event=` when it passes one, else the payload's
 * `hook_event_name` read off the text (a truncated payload still names it).
 */
export function invokedEvent(stdin: string, argv: readonly string[]): string | undefined {
  const flagged = argv.find((arg) => arg.startsWith(EVENT_FLAG))?.slice(EVENT_FLAG.length);
  if (flagged !== undefined && /^[A-Za-z]+$/.test(flagged)) return flagged;
  return /"hook_event_name"\s*:\s*"([A-Za-z]+)"/.exec(stdin.slice(0, 64 * 1024))?.[1];
}

/**
 * Stdin that is not a payload (empty, not JSON, cut off, not an object) for an event that is
 * not the platform's gate: the one stderr line to print with no opinion, since nothing is about
 * to run (ADR 0002). Undefined when the call goes on: a readable payload, a gate call (the
 * bundle denies it outside follow mode), or a call whose event cannot be told.
 */
export function unreadableCall(
  platform: QuietPlatform,
  stdin: string,
  argv: readonly string[],
): string | undefined {
  const event = invokedEvent(stdin, argv);
  if (event === undefined || event === platform.gateEvent) return undefined;
  const text = stdin.trim();
  if (text.startsWith("{") && text.endsWith("}")) {
    try {
      if (isObject(JSON.parse(text))) return undefined;
    } catch {
      // Read as what it is below.
    }
  }
  const what = text === "" ? "stdin is empty" : "stdin is not a JSON object";
  return `tailtest: ignored a ${event} hook call: ${what}\n`;
}

/**
 * The answer of a hook that failed outside any handler: a gate call outside follow mode is
 * denied (it cannot be decided), anything else gets no opinion.
 */
export function failedAnswer(
  platform: QuietPlatform,
  stdin: string,
  env: Env,
  error: unknown,
  cwd: string = workingDir(),
): string {
  try {
    const root = gateRoot(platform, stdin, env, cwd);
    if (root === undefined || isFollowProject(root)) return platform.noOpinion;
  } catch {
    // Not even the config could be read: a gate call still fails closed.
    if (!stdin.includes(`"${platform.gateEvent}"`)) return platform.noOpinion;
  }
  return platform.deny(
    `tailtest could not decide (internal error: ${escapedLine(error)}), so this call is blocked: outside follow mode tailtest fails closed. Try again; if it keeps failing, ask the person to look at .tailtest/.`,
  );
}

/** An error that escaped, as its name and message (its stack and any path left out). */
export function escapedLine(error: unknown): string {
  if (!(error instanceof Error)) return "error";
  const message = (error.message.split("\n")[0] ?? "").slice(0, 200);
  return message === "" || message.includes("/") ? error.name : `${error.name}: ${message}`;
}

/** What a project's committed hook command needs to know to stand in for a missing install. */
export interface NotInstalledOptions {
  /** The package whose hook the command runs, e.g. `@tailtest/claude-code`. */
  packageName: string;
  /** The hook file, as the shell sees it (may use the agent's variables). */
  hookPath: string;
  /** The project folder, as a JS expression over `process.env` in the notice. */
  projectExpression: string;
  /** The event that starts a session, where a gating mode says its gate is off. */
  sessionStartEvent: string;
  /** Printed on stdout by every call: the platform's no opinion (may be empty). */
  noOpinion: string;
  /** Whether the platform shows the person a `systemMessage` from a session start. */
  systemMessage: boolean;
  /** The project folder, as the shell sees it (may use the agent's variables). */
  projectDir: string;
  /** The platform's gate event, blocked without node outside follow mode. */
  gateEvent: string;
  /** The event this command is registered for, passed on as `--event=<name>`. */
  event: string;
}

/** What a missing `node` on the hooks' PATH is, in one line. */
export const NO_NODE_LINE = "tailtest: node not found on the PATH agent hooks run with";

/** The files whose text says a project's mode: its config, then the sessions (mode-pin.ts). */
const MODE_FILES = [CONFIG_FILE, ...SESSION_FILES];

/** What a hook command needs to know to answer without node (`nodeGuardScript`). */
export interface NodeGuardOptions {
  /** The project folder, as the shell sees it (may use the agent's or the script's variables). */
  projectDir: string;
  /** The platform's gate event: the one call that blocks without node outside follow mode. */
  gateEvent: string;
  /** The event the command is registered for (every platform runs one command per event). */
  event: string;
  /** Printed on stdout: the platform's no opinion (may be empty). */
  noOpinion: string;
  /**
   * Project-relative files whose presence means the command stands aside, silently (a
   * user-level install: the project opted out, or installed the package itself).
   */
  standAside?: readonly string[];
}

/**
 * POSIX sh, builtins only, that runs first in a hook command: without `node` on the PATH a hook
 * would exit 127, which every agent takes as "go on". Instead it prints one line and the
 * platform's no opinion, except for the gate event in a project whose config or session says
 * tdd or strict: that exits 2, each platform's block, with the line as the reason (ADR 0002).
 * The event is the command's own (`--event=`), so stdin is never read; the mode is read as text
 * (`"mode": "tdd"`, spaced or not), since no JSON reader runs without node. No single quote
 * inside: commands wrap scripts in them.
 */
export function nodeGuardScript(options: NodeGuardOptions): string {
  const dir = options.projectDir;
  const quoted = (files: readonly string[]) => files.map((file) => `"${dir}/${file}"`).join(" ");
  const aside = options.standAside ?? [];
  let gate = "";
  if (options.event === options.gateEvent) {
    const mode = ["tdd", "strict"]
      .flatMap((name) => [`*\\"mode\\":\\"${name}\\"*`, `*\\"mode\\":\\ \\"${name}\\"*`])
      .join("|");
    gate = [
      ` m=; for c in ${quoted(MODE_FILES)}; do [ -r "$c" ] || continue;`,
      ` while IFS= read -r l || [ -n "$l" ]; do case $l in ${mode}) m=1;; esac; done < "$c"; done;`,
      ` if [ -n "$m" ]; then echo "${NO_NODE_LINE}, so tailtest cannot decide and blocks this call (tdd and strict fail closed)" >&2; exit 2; fi;`,
    ].join("");
  }
  const script = [
    "command -v node >/dev/null 2>&1 || {",
    aside.length === 0 ? "" : ` s=; for a in ${quoted(aside)}; do [ -e "$a" ] && s=1; done;`,
    aside.length === 0 ? "" : ' if [ -z "$s" ]; then',
    gate,
    ` echo "${NO_NODE_LINE}: its hooks do nothing until it is" >&2;`,
    aside.length === 0 ? "" : " fi;",
    options.noOpinion === "" ? "" : ` printf "%s\\n" "${options.noOpinion}";`,
    " exit 0; }",
  ].join("");
  if (script.includes("'")) throw new Error("the node guard may not contain a single quote");
  return script;
}

/**
 * The shell command a project commits (ADR 0011): it runs the installed hook when the project's
 * node_modules has it, and otherwise (a teammate's fresh clone before `npm install`) answers
 * itself with node alone: one line on stderr and the platform's no opinion, exit 0, never a stack
 * trace. In tdd and strict mode the session's start says, once, that the gate is not active.
 * Each event has its own command, which names it (`--event=`), so a call whose stdin is empty
 * or torn still gets its own event's answer. No single quote inside the notice: the command
 * wraps it in them.
 */
export function projectHookCommand(options: NotInstalledOptions): string {
  const line = `tailtest: ${options.packageName} is not installed in this checkout yet (run npm install); its hooks do nothing until then`;
  const notice =
    options.event === options.sessionStartEvent
      ? [
          'const fs=process.getBuiltinModule("fs");let m;',
          `try{m=/"mode"\\s*:\\s*"(tdd|strict)"/.exec(fs.readFileSync((${options.projectExpression})+"/${CONFIG_FILE}","utf8"))[1]}catch{}`,
          `let l=${JSON.stringify(line)};`,
          'if(m){l+=": the "+m+" gate is NOT active this session";',
          options.systemMessage ? "process.stdout.write(JSON.stringify({systemMessage:l}))}" : "}",
          options.noOpinion === ""
            ? ""
            : `${options.systemMessage ? "else " : ""}process.stdout.write(${JSON.stringify(options.noOpinion)});`,
          "console.error(l)",
        ].join("")
      : [
          options.event === options.gateEvent ? goneGate(options) : "",
          options.noOpinion === ""
            ? ""
            : `process.stdout.write(${JSON.stringify(options.noOpinion)});`,
          `console.error(${JSON.stringify(line)})`,
        ].join("");
  if (notice.includes("'"))
    throw new Error("the not-installed notice may not contain a single quote");
  const guard = nodeGuardScript({
    projectDir: options.projectDir,
    gateEvent: options.gateEvent,
    event: options.event,
    noOpinion: options.noOpinion,
  });
  return `${guard}; f="${options.hookPath}"; if [ -f "$f" ]; then exec ${hookNode(options.event)} "$f" ${EVENT_FLAG}${options.event}; fi; exec node -e '${notice}'`;
}

/**
 * A package install the gate lets run while tailtest's bundle is gone from a gating session:
 * `npm install`, `npm ci`, `pnpm i`, `yarn`, `npx -y pnpm@10 install --frozen-lockfile`, never one
 * that leaves development packages out. (`np[x]`: the hook command itself never names npx.)
 */
const REINSTALL =
  /^\s*(?:np[x]\s+(?:-y\s+)?)?(?:npm|pnpm|yarn|bun)(?:@[\w.-]+)?(?:\s+(?:install|i|ci))?(?:\s+-[\w=.-]+)*\s*$/;
const LEAVES_OUT_DEV = /omit|prod/;
const GATING_MODE_TEXT = /"mode"\s*:\s*"(tdd|strict)"/;

/**
 * The gate's part of the not-installed notice (JS, no single quote): in a project whose session
 * says tdd or strict, the bundle was there when the session began, so its absence is not a fresh
 * clone's (whose session state git never held): it was taken away (`npm prune`, a
 * `package.json` without it and `npm install`, ADR 0012). The gate cannot decide, so it blocks
 * (exit 2) every call but a shell command that reinstalls the packages.
 */
function goneGate(options: NotInstalledOptions): string {
  const line = `tailtest: ${options.packageName} is gone from node_modules while this session is in `;
  return [
    'const fs=process.getBuiltinModule("fs");let m;',
    `for(const f of ${JSON.stringify(SESSION_FILES)}){try{m=${GATING_MODE_TEXT.toString()}.exec(fs.readFileSync((${options.projectExpression})+"/"+f,"utf8"))[1];break}catch{}}`,
    'if(m){let c="";try{const w=(v)=>{if(v===null||typeof v!=="object")return;for(const k of Object.keys(v)){const x=v[k];if(k==="command"&&typeof x==="string")c=x;else if(k==="command"&&Array.isArray(x))c=x.join(" ");else w(x)}};w(JSON.parse(fs.readFileSync(0,"utf8")))}catch{}',
    `if(!${REINSTALL.toString()}.test(c)||${LEAVES_OUT_DEV.toString()}.test(c)){console.error(${JSON.stringify(line)}+m+" mode: the gate cannot decide, so it blocks this call. Reinstall the packages (npm install), then go on.");process.exit(2)}}`,
  ].join("");
}

/** A hook command that runs a hook file installed outside the project (ADR 0011). */
export interface InstalledHookOptions extends NodeGuardOptions {
  /** The hook file, as the shell sees it (inside double quotes). */
  hookPath: string;
  /** Flags before `--event=` (a user-level install's `--user`). */
  flags?: readonly string[];
}

/**
 * The command of a user-level install's pinned copy, or of the Claude Code plugin: the no-node
 * guard, then the hook with its flags and its event. Not wrapped: the caller quotes it for the
 * shell that runs it.
 */
export function installedHookCommand(options: InstalledHookOptions): string {
  const args = [...(options.flags ?? []), `${EVENT_FLAG}${options.event}`].join(" ");
  return `${nodeGuardScript(options)}; exec ${hookNode(options.event)} "${options.hookPath}" ${args}`;
}
