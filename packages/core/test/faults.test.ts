import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import {
  findToolchain,
  loadPayload,
  makeProject,
  REPO_ROOT,
  type TempProject,
} from "@tailtest/test-utils";
import { contextOf, protocolAnswer } from "@tailtest/test-utils/answers";
import { readSession } from "@tailtest/test-utils/session";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formatStrictEvent,
  HistoryFileSchema,
  parseConfigText,
  parseStrictLog,
  SessionStateSchema,
} from "../src/index.ts";
import { PlanReviewStateSchema } from "../src/entries/node/core-node.ts";

/**
 * Faults: every state file broken in each way a disk or a person can break it, then the built
 * hook bins run on the project. ADR 0002: the hook exits 0, answers per its agent's protocol, and
 * says at most one line on stderr, never a stack trace. ADR 0003: a state file the hook rewrites
 * (`updateState`) is moved aside as `<file>.corrupt-…` and rebuilt; one it only reads
 * (`readState`) is left as it is; nothing else is lost.
 */

type Platform = "claude-code" | "codex" | "cursor";
type Payload = Record<string, unknown>;
type Mode = "follow" | "tdd" | "strict";

const BIN: Record<Platform, string> = {
  "claude-code": join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs"),
  codex: join(REPO_ROOT, "adapters/codex/dist/hook.cjs"),
  cursor: join(REPO_ROOT, "adapters/cursor/dist/hook.cjs"),
};
const CLAUDE = "claude-2.1.330";
const CODEX = "codex-0.169.0";
const pytest = findToolchain("pytest");
const bash = findToolchain("bash");

const SESSION = ".tailtest/session.json";
const HISTORY = ".tailtest/history.json";
const CONFIG = ".tailtest/config.json";
const EVENTS = ".tailtest/events.jsonl";
const CURSOR_STATE = ".tailtest/cursor-session.json";
const PLAN_REVIEW = ".tailtest/plan-review.json";

interface StateFileCase {
  rel: string;
  /** The mode the project is in: the one where the hooks read and write this file. */
  mode: Mode;
}

const STATE_FILES: readonly StateFileCase[] = [
  { rel: SESSION, mode: "follow" },
  { rel: HISTORY, mode: "follow" },
  { rel: CONFIG, mode: "follow" },
  // Only tdd and strict mode read the event log; strict mode refuses to decide on a bad one.
  { rel: EVENTS, mode: "strict" },
  { rel: CURSOR_STATE, mode: "follow" },
  // Only tdd mode's plan review (Claude Code's ExitPlanMode) reads and writes it.
  { rel: PLAN_REVIEW, mode: "tdd" },
];

/** Why a file holds no usable state (empty when it is fine). */
function problemsOf(root: string, rel: string): string[] {
  const text = readFileSync(join(root, rel), "utf8");
  if (rel === EVENTS) return parseStrictLog(text).problems.map((p) => `${p.line}: ${p.message}`);
  if (rel === CONFIG) {
    const parsed = parseConfigText(text);
    return parsed.ok ? parsed.warnings : [...parsed.errors, ...parsed.warnings];
  }
  let schema: { safeParse(value: unknown): { success: boolean } } = SessionStateSchema;
  if (rel === HISTORY) schema = HistoryFileSchema;
  if (rel === PLAN_REVIEW) schema = PlanReviewStateSchema;
  try {
    return schema.safeParse(JSON.parse(text)).success ? [] : ["off-schema"];
  } catch {
    return ["not JSON"];
  }
}

// ---------------------------------------------------------------------------------------------
// Hook calls
// ---------------------------------------------------------------------------------------------

interface HookCall {
  platform: Platform;
  event: string;
  stdin: Payload;
  env: Record<string, string>;
}

interface Fired extends HookCall {
  stdout: string;
  stderr: string;
  exitCode: number;
  ms: number;
}

/** When a hook call still running is killed. */
const KILL_AFTER_MS = 90_000;
/**
 * A hook call that has not answered by then counts as hung. The agents' own budgets are longer
 * (Claude Code, Codex and Cursor give SessionStart 30 s, PostToolUse 660 s, Stop 600 s), but a
 * loaded test machine can stretch a 0.5 s call past 30 s; no call here comes near a minute unless
 * something waits in vain.
 */
const HANG_MS = 60_000;

/** This process's environment without anything that steers an agent hook (a real session's). */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(CLAUDE|CURSOR|CODEX|TAILTEST)/.test(key)) continue;
    env[key] = value;
  }
  return env;
}

/** Runs a hook bin; `wrap` (argv) runs it under another program, e.g. a shell setting ulimit. */
async function fire(call: HookCall, root: string, wrap: readonly string[] = []): Promise<Fired> {
  const argv = [...wrap, process.execPath, binFor(call.platform, wrap)];
  const started = performance.now();
  const result = await execa(argv[0] ?? "", argv.slice(1), {
    input: JSON.stringify(call.stdin),
    env: { ...baseEnv(), ...call.env },
    extendEnv: false,
    cwd: root,
    reject: false,
    // No call here should come near it; one that does is killed and fails its checks.
    timeout: KILL_AFTER_MS,
  });
  return {
    ...call,
    stdout: result.stdout,
    stderr: result.stderr,
    exitCode: result.exitCode ?? -1,
    ms: performance.now() - started,
  };
}

const EXTRA = "def extra(x):\n    return x * 2\n";

/** Recorded payloads for a project at `root`, with their tool fields changed. */
function calls(root: string) {
  const make = (platform: Platform, dir: string, name: string, changes: Payload = {}) => {
    const stored = loadPayload<Payload>(dir, name, root);
    const stdin = { ...stored.stdin, ...changes };
    let env: Record<string, string> = {};
    if (platform === "claude-code") env = { CLAUDE_PROJECT_DIR: root };
    if (platform === "cursor") env = stored.env;
    return { platform, event: stdin["hook_event_name"] as string, stdin, env };
  };
  const input = (rel: string, content: string) => ({ file_path: join(root, rel), content });
  return {
    claudeStart: () => make("claude-code", CLAUDE, "context.SessionStart.json"),
    claudeWrite: (rel: string, content = EXTRA) =>
      make("claude-code", CLAUDE, "context.PostToolUse-Write.json", {
        tool_input: input(rel, content),
        tool_response: { type: "create", filePath: join(root, rel), content },
      }),
    claudePreWrite: (rel: string, content = EXTRA) =>
      make("claude-code", CLAUDE, "context.PreToolUse-Write.json", {
        tool_input: input(rel, content),
      }),
    claudePlan: (sessionId?: string) =>
      make("claude-code", CLAUDE, "context.PreToolUse-Write.json", {
        tool_name: "ExitPlanMode",
        tool_input: { plan: "1. Add extra() to src/extra.py\n2. Test it in tests/test_extra.py" },
        ...(sessionId === undefined ? {} : { session_id: sessionId }),
      }),
    claudeStop: () => make("claude-code", CLAUDE, "context.Stop.json"),
    claudeEnd: () => make("claude-code", CLAUDE, "context.SessionEnd.json"),
    codexPatch: (rel: string) =>
      make("codex", CODEX, "context.PostToolUse-apply_patch.json", {
        tool_input: {
          command: `*** Begin Patch\n*** Add File: ${rel}\n+def extra(x):\n+    return x * 2\n*** End Patch\n`,
        },
        tool_response: `Exit code: 0\nOutput:\nSuccess. Updated the following files:\nA ${rel}\n`,
      }),
    cursorStart: () => make("cursor", "cursor", "edit.sessionStart.json"),
    cursorWrite: (rel: string, content = EXTRA) =>
      make("cursor", "cursor", "edit.postToolUse-Write.json", { tool_input: input(rel, content) }),
    cursorStop: () => make("cursor", "cursor", "edit.stop.json"),
  };
}

/**
 * ADR 0002 for one call: exit 0, at most one line on stderr and no stack trace, stdout what the
 * agent reads (empty or the documented JSON; Cursor always a JSON object). The answer, {} for
 * none.
 */
function answerOf(fired: Fired, what: string): Payload {
  expect(fired.ms, `${what}: answered after ${Math.round(fired.ms)} ms`).toBeLessThan(HANG_MS);
  expect(fired.exitCode, `${what}: exit code (stderr: ${fired.stderr})`).toBe(0);
  expect(fired.stderr.trimEnd().split("\n").length, `${what}: stderr ${fired.stderr}`).toBe(1);
  expect(fired.stderr, `${what}: a stack trace`).not.toMatch(/^\s+at /m);
  expect(fired.stderr, `${what}: this machine's paths`).not.toContain(REPO_ROOT);
  return protocolAnswer(fired.platform, fired.event, fired.stdout, what);
}

// ---------------------------------------------------------------------------------------------
// Projects with every state file in place
// ---------------------------------------------------------------------------------------------

const PROJECT_FILES = {
  "pytest.ini": "[pytest]\npythonpath = .\n",
  "src/billing.py": "def charge(amount):\n    return round(amount * 1.2, 2)\n",
  "tests/test_billing.py":
    "from src.billing import charge\n\n\ndef test_charge():\n    assert charge(10) == 12\n",
  "src/extra.py": EXTRA,
};

function configOf(mode: Mode): Record<string, unknown> {
  if (mode === "follow") return { test_timeout_seconds: 60 };
  // The plan reviewer is a real process that answers at once (the default is `claude -p`).
  if (mode === "tdd") return { mode, tdd: { plan_review: { command: ["echo", "reviewed"] } } };
  return { mode };
}

/**
 * A project in `mode` after a real session: a finished one in history, a new one with a queued
 * file for Claude Code (shared with Codex) and for Cursor, the event log, a reviewed plan.
 */
async function seededProject(mode: Mode): Promise<TempProject> {
  const project = makeProject({
    ...PROJECT_FILES,
    [CONFIG]: `${JSON.stringify(configOf(mode), null, 2)}\n`,
  });
  const { root } = project;
  const p = calls(root);
  const steps = [
    p.claudeStart(),
    p.claudeWrite("src/billing.py"),
    p.claudeStop(),
    p.claudeEnd(),
    p.claudeStart(),
    p.claudeWrite("src/billing.py"),
    p.cursorStart(),
    p.cursorWrite("src/billing.py"),
    ...(mode === "strict" ? [p.claudePreWrite("src/billing.py")] : []),
    ...(mode === "tdd" ? [p.claudePlan("an-earlier-session")] : []),
  ];
  for (const step of steps) expect((await fire(step, root)).exitCode).toBe(0);
  const ts = new Date().toISOString();
  if (!existsSync(join(root, EVENTS)))
    project.write(
      EVENTS,
      `${formatStrictEvent({ type: "edit_unattributed", ts, path: "x.py" })}\n`,
    );
  if (!existsSync(join(root, PLAN_REVIEW))) {
    const sessions = [{ id: "an-earlier-session", reviewed_at: ts }];
    project.write(PLAN_REVIEW, `${JSON.stringify({ version: 1, sessions }, null, 2)}\n`);
  }
  for (const file of STATE_FILES) expect(problemsOf(root, file.rel), file.rel).toEqual([]);
  return project;
}

function copyOf(template: TempProject): TempProject {
  const copy = makeProject();
  cpSync(template.root, copy.root, { recursive: true });
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Faults
// ---------------------------------------------------------------------------------------------

const FAULTS = [
  "truncated",
  "empty",
  "binary garbage",
  "future version",
  // Cannot be read even by root (EISDIR): the unreadable case where chmod cannot make one.
  "a folder in its place",
  "unreadable",
  "read-only folder",
] as const;
type Fault = (typeof FAULTS)[number];

const GARBAGE = Buffer.from([
  0x00, 0xff, 0xfe, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x7b, 0x22, 0xc3, 0x28,
  0x9f, 0x00,
]);
/** What "a folder in its place" holds, to find it again wherever it was moved. */
const KEPT = "kept.txt";

/** The bytes a content fault leaves in the file (undefined: the fault keeps the bytes). */
function faultyBytes(fault: Fault, rel: string, original: Buffer): Buffer | undefined {
  switch (fault) {
    case "truncated":
      return original.subarray(0, Math.floor(original.length / 2));
    case "empty":
      return Buffer.alloc(0);
    case "binary garbage":
      return GARBAGE;
    case "future version": {
      if (rel === EVENTS) {
        const ts = new Date().toISOString();
        const line = { v: 99, type: "mode_changed", ts, mode: "strict", by: "config" };
        return Buffer.concat([original, Buffer.from(`${JSON.stringify(line)}\n`)]);
      }
      const json = JSON.parse(original.toString("utf8")) as Payload;
      return Buffer.from(`${JSON.stringify({ ...json, version: 99 }, null, 2)}\n`);
    }
    default:
      return undefined;
  }
}

/** Breaks the file at `abs`; the bytes left in it (undefined: a folder is). */
function breakFile(fault: Fault, rel: string, abs: string): Buffer | undefined {
  const original = readFileSync(abs);
  const bad = faultyBytes(fault, rel, original);
  if (bad !== undefined) writeFileSync(abs, bad);
  if (fault === "a folder in its place") {
    rmSync(abs);
    mkdirSync(abs);
    writeFileSync(join(abs, KEPT), "x");
    return undefined;
  }
  if (fault === "unreadable") chmodSync(abs, 0o000);
  if (fault === "read-only folder") chmodSync(dirname(abs), 0o555);
  return bad ?? original;
}

/** The same thing is at `path`: the bytes, or the folder that stood in for the file. */
function holds(path: string, faulted: Buffer | undefined): boolean {
  if (faulted === undefined) return existsSync(join(path, KEPT));
  return statSync(path).isFile() && readFileSync(path).equals(faulted);
}

/**
 * Whether this user's permissions stop it: root (and CAP_DAC_OVERRIDE) reads a chmod 000 file
 * and writes into a chmod 555 folder all the same. Such a user runs the permission faults' hooks
 * as `nobody` (setpriv, util-linux) on a copy that `nobody` owns, so the faults bite there too.
 */
function permissionsBite(wrap: readonly string[]): boolean {
  const probe = makeProject({ "locked.txt": "x" });
  try {
    if (wrap.length > 0) handOver(probe.root);
    chmodSync(join(probe.root, "locked.txt"), 0o000);
    const argv = [...wrap, "cat", join(probe.root, "locked.txt")];
    return spawnSync(argv[0] ?? "", argv.slice(1), { stdio: "ignore" }).status !== 0;
  } finally {
    chmodSync(join(probe.root, "locked.txt"), 0o644);
    probe.cleanup();
  }
}

/** uid and gid of `nobody` on Debian. */
const NOBODY = 65534;
const AS_NOBODY = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];

/** Gives a project to `nobody` (and opens its temp folder, mode 700, to it). */
function handOver(root: string): void {
  const chown = spawnSync("chown", ["-R", `${NOBODY}:${NOBODY}`, root], { stdio: "ignore" });
  if (chown.status !== 0) throw new Error(`chown ${root} failed`);
  chmodSync(root, 0o755);
}

/**
 * The hook bins where `nobody` can run them: a copy of each adapter's dist (a bundle with
 * everything inside). The checkout may sit in a folder only root enters, as a CI clone made in a
 * `mktemp -d` folder does. Undefined when there is nothing built to copy.
 */
const NOBODY_BINS: Record<Platform, string> | undefined = (() => {
  if (process.getuid?.() !== 0 || !Object.values(BIN).every((bin) => existsSync(bin)))
    return undefined;
  const dir = mkdtempSync(join(tmpdir(), "tailtest-bins-"));
  chmodSync(dir, 0o755);
  const bins: Partial<Record<Platform, string>> = {};
  for (const [platform, bin] of Object.entries(BIN) as [Platform, string][]) {
    cpSync(dirname(bin), join(dir, platform), { recursive: true });
    bins[platform] = join(dir, platform, basename(bin));
  }
  return bins as Record<Platform, string>;
})();

/** The bin a hook call runs: the copy `nobody` can reach when it runs as nobody. */
function binFor(platform: Platform, wrap: readonly string[]): string {
  if (wrap[0] === "setpriv" && NOBODY_BINS !== undefined) return NOBODY_BINS[platform];
  return BIN[platform];
}

/**
 * How the permission faults' hooks run: as this user, as `nobody` when this user is root, or not
 * at all (the reason says why).
 */
const PERMISSION_RUN: { wrap: readonly string[] } | { skip: string } = (() => {
  if (permissionsBite([])) return { wrap: [] };
  if (process.getuid?.() !== 0)
    return { skip: "this user ignores file permissions (CAP_DAC_OVERRIDE) and is not root" };
  if (spawnSync("setpriv", ["--version"], { stdio: "ignore" }).status !== 0)
    return { skip: "this user is root and setpriv (util-linux) is missing to run as nobody" };
  if (!permissionsBite(AS_NOBODY)) return { skip: "even as nobody a chmod 000 file could be read" };
  const bin = NOBODY_BINS?.["claude-code"];
  const tried =
    bin === undefined
      ? undefined
      : spawnSync(AS_NOBODY[0] ?? "", [...AS_NOBODY.slice(1), process.execPath, bin], {
          input: "",
          stdio: ["pipe", "ignore", "ignore"],
        });
  if (tried?.status !== 0)
    return { skip: "nobody cannot run node or a copy of the hook bins on this machine" };
  return { wrap: AS_NOBODY };
})();

function isPermissionFault(fault: Fault): boolean {
  return fault === "unreadable" || fault === "read-only folder";
}

/** One hook call run on a freshly broken copy of a seeded project. */
interface Probe {
  name: string;
  call: (root: string) => HookCall;
  /** State files it rebuilds (moved aside) when unusable: the ones it writes through updateState. */
  rebuilds: readonly string[];
  /** State files it may rewrite when they are fine. */
  writes: readonly string[];
}

const PROBES: readonly Probe[] = [
  {
    name: "Claude Code SessionStart",
    call: (root) => calls(root).claudeStart(),
    rebuilds: [SESSION, HISTORY],
    writes: [SESSION, HISTORY],
  },
  {
    name: "Claude Code PostToolUse Write",
    call: (root) => calls(root).claudeWrite("src/extra.py"),
    rebuilds: [SESSION],
    writes: [SESSION],
  },
  {
    // The end of the turn reads the session without a lock (readState): a bad file queues
    // nothing, so nothing is run or written.
    name: "Claude Code Stop",
    call: (root) => calls(root).claudeStop(),
    rebuilds: [],
    writes: [SESSION],
  },
  {
    name: "Codex PostToolUse apply_patch",
    call: (root) => calls(root).codexPatch("src/extra.py"),
    rebuilds: [SESSION],
    writes: [SESSION],
  },
  {
    name: "Cursor sessionStart",
    call: (root) => calls(root).cursorStart(),
    rebuilds: [CURSOR_STATE, HISTORY],
    writes: [CURSOR_STATE, HISTORY],
  },
  {
    name: "Cursor postToolUse Write",
    call: (root) => calls(root).cursorWrite("src/extra.py"),
    rebuilds: [CURSOR_STATE],
    writes: [CURSOR_STATE],
  },
];

const PLAN_PROBE: Probe = {
  name: "Claude Code PreToolUse ExitPlanMode",
  call: (root) => calls(root).claudePlan(),
  rebuilds: [PLAN_REVIEW],
  writes: [PLAN_REVIEW],
};

function probesFor(file: StateFileCase): readonly Probe[] {
  return file.rel === PLAN_REVIEW ? [...PROBES, PLAN_PROBE] : PROBES;
}

/** Files moved aside next to `rel`. */
function movedAside(root: string, rel: string): string[] {
  const dir = dirname(join(root, rel));
  return readdirSync(dir)
    .filter((name) => name.startsWith(`${basename(rel)}.corrupt-`))
    .map((name) => join(dir, name));
}

function bytesOf(root: string): Map<string, Buffer> {
  return new Map(STATE_FILES.map((file) => [file.rel, readFileSync(join(root, file.rel))]));
}

function startsWith(whole: Buffer, prefix: Buffer): boolean {
  return whole.subarray(0, prefix.length).equals(prefix);
}

/** `file session status` of every history entry. */
function historyKeys(bytes: Buffer): string[] {
  const history = HistoryFileSchema.parse(JSON.parse(bytes.toString("utf8")));
  return history.entries.map((entry) => `${entry.file} ${entry.session_id} ${entry.status}`);
}

/** The other state files: untouched, or still valid and (history) holding all they held. */
function expectNothingElseLost(
  root: string,
  faulted: string,
  probe: Probe,
  before: Map<string, Buffer>,
  what: string,
): void {
  for (const other of STATE_FILES.filter((file) => file.rel !== faulted)) {
    const was = before.get(other.rel) ?? Buffer.alloc(0);
    const now = readFileSync(join(root, other.rel));
    expect(movedAside(root, other.rel), `${what}: ${other.rel} moved aside`).toEqual([]);
    if (other.rel === EVENTS) {
      // Append-only: what was there is still there, and every line reads.
      expect(startsWith(now, was), `${what}: events.jsonl rewritten`).toBe(true);
      expect(problemsOf(root, EVENTS), `${what}: events.jsonl`).toEqual([]);
    } else if (probe.writes.includes(other.rel)) {
      expect(problemsOf(root, other.rel), `${what}: ${other.rel}`).toEqual([]);
      if (other.rel === HISTORY)
        expect(historyKeys(now), `${what}: history lost entries`).toEqual(
          expect.arrayContaining(historyKeys(was)),
        );
    } else {
      expect(now.equals(was), `${what}: ${other.rel} changed`).toBe(true);
    }
  }
}

/** The broken file after the call: moved aside and rebuilt, or left exactly as it was. */
function expectFaultedFile(
  root: string,
  file: StateFileCase,
  rebuilt: boolean,
  faulted: Buffer | undefined,
  what: string,
): void {
  const moved = movedAside(root, file.rel);
  const abs = join(root, file.rel);
  if (rebuilt) {
    expect(moved, `${what}: moved aside`).toHaveLength(1);
    expect(holds(moved[0] ?? "", faulted), `${what}: what was there is kept`).toBe(true);
    expect(problemsOf(root, file.rel), `${what}: rebuilt`).toEqual([]);
    return;
  }
  expect(moved, `${what}: moved aside`).toEqual([]);
  if (file.rel === EVENTS && faulted !== undefined)
    expect(startsWith(readFileSync(abs), faulted), `${what}: log rewritten`).toBe(true);
  else expect(holds(abs, faulted), `${what}: changed in place`).toBe(true);
}

/** Breaks `rel` in a copy of `template`, runs one hook call, and checks what ADR 0002/0003 say. */
async function runProbe(
  template: TempProject,
  file: StateFileCase,
  fault: Fault,
  probe: Probe,
): Promise<void> {
  const what = `${file.rel} ${fault}, ${probe.name}`;
  const copy = copyOf(template);
  try {
    const before = bytesOf(copy.root);
    const permissions = isPermissionFault(fault) && "wrap" in PERMISSION_RUN;
    const wrap = permissions ? PERMISSION_RUN.wrap : [];
    if (wrap.length > 0) handOver(copy.root);
    const faulted = breakFile(fault, file.rel, join(copy.root, file.rel));
    const call = probe.call(copy.root);
    // nobody's own home on Debian: this user's (root's) would be unreadable to it.
    if (wrap.length > 0) call.env = { ...call.env, HOME: "/nonexistent" };
    const fired = await fire(call, copy.root, wrap);
    restorePermissions(copy.root, file.rel);

    const answer = answerOf(fired, what);
    const rebuilt =
      file.rel !== CONFIG &&
      file.rel !== EVENTS &&
      fault !== "read-only folder" &&
      probe.rebuilds.includes(file.rel);
    expectFaultedFile(copy.root, file, rebuilt, faulted, what);
    const starts = probe.name.endsWith("essionStart");
    // A session start tells the agent (and so the person) once.
    if (rebuilt && starts)
      expect(contextOf(answer), what).toContain(`${basename(file.rel)}.corrupt-`);
    // A bad config is named at the start of a session, and the hook runs on defaults.
    if (file.rel === CONFIG && starts && fault !== "read-only folder")
      expect(contextOf(answer), what).toContain("config.json");
    expectNothingElseLost(copy.root, file.rel, probe, before, what);
  } finally {
    restorePermissions(copy.root, file.rel);
    copy.cleanup();
  }
}

function restorePermissions(root: string, rel: string): void {
  const abs = join(root, rel);
  chmodSync(dirname(abs), 0o755);
  for (const path of [abs, ...movedAside(root, rel)]) {
    if (existsSync(path)) chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
  }
}

const templates = new Map<Mode, TempProject>();

beforeAll(async () => {
  for (const mode of ["follow", "tdd", "strict"] as const)
    templates.set(mode, await seededProject(mode));
}, 120_000);
afterAll(() => {
  for (const template of templates.values()) template.cleanup();
  const bins = NOBODY_BINS?.["claude-code"];
  if (bins !== undefined) rmSync(dirname(dirname(bins)), { recursive: true, force: true });
});

function templateOf(mode: Mode): TempProject {
  const template = templates.get(mode);
  if (template === undefined) throw new Error(`no ${mode} project`);
  return template;
}

describe("faults: a broken state file never breaks a hook or loses other state", () => {
  it("the hook bins are built", () => {
    for (const bin of Object.values(BIN)) expect(existsSync(bin), `build first: ${bin}`).toBe(true);
  });

  // The cases run side by side (each on its own copies): hook processes mostly wait on disk.
  describe.concurrent.each(STATE_FILES)("$rel", (file) => {
    it.for(FAULTS)(
      `%s: ${probesFor(file).length} hook calls each exit 0 with a protocol answer`,
      { timeout: 180_000 },
      async (fault, ctx) => {
        if (isPermissionFault(fault) && "skip" in PERMISSION_RUN) {
          console.log(`faults: skipped ${file.rel} ${fault}: ${PERMISSION_RUN.skip}`);
          return ctx.skip(PERMISSION_RUN.skip);
        }
        const template = templateOf(file.mode);
        // Each call gets its own broken copy, so each meets the fault; they run side by side.
        const check = async () => {
          const settled = await Promise.allSettled(
            probesFor(file).map((probe) => runProbe(template, file, fault, probe)),
          );
          const failed = settled.find((one) => one.status === "rejected");
          if (failed !== undefined) throw failed.reason;
        };
        await check();
      },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// A test run that hangs or dies
// ---------------------------------------------------------------------------------------------

const TEST_TIMEOUT_S = 2;
/** execute.ts: SIGTERM to the runner's process group at the timeout, SIGKILL 2 s later. */
const KILL_GRACE_S = 2;
/** What a loaded machine adds: node and the agent hook starting, pytest starting. */
const SLACK_S = 30;

function runProject(test: string): TempProject {
  return makeProject({
    "pytest.ini": "[pytest]\npythonpath = .\n",
    ".tailtest/config.json": `${JSON.stringify({ test_timeout_seconds: TEST_TIMEOUT_S })}\n`,
    "src/slow.py": "def slow():\n    return 1\n",
    "tests/test_slow.py": test,
  });
}

const HANGS =
  "import os\nimport time\n\nfrom src.slow import slow\n\n\ndef test_slow():\n" +
  '    with open("sleeper.pid", "w") as f:\n        f.write(str(os.getpid()))\n' +
  "    time.sleep(600)\n    assert slow() == 1\n";
const DIES =
  "import os\n\nfrom src.slow import slow\n\n\ndef test_slow():\n" +
  "    os.kill(os.getpid(), 9)\n    assert slow() == 1\n";

/** Queues src/slow.py in the agent's session, then ends the turn: the Stop answer, timed. */
async function stopAfterEdit(platform: "claude-code" | "cursor", root: string) {
  const p = calls(root);
  const [start, write, stop] =
    platform === "cursor"
      ? [
          p.cursorStart(),
          p.cursorWrite("src/slow.py", "def slow():\n    return 1\n"),
          p.cursorStop(),
        ]
      : [
          p.claudeStart(),
          p.claudeWrite("src/slow.py", "def slow():\n    return 1\n"),
          p.claudeStop(),
        ];
  for (const call of [start, write]) answerOf(await fire(call, root), `${platform} ${call.event}`);
  const fired = await fire(stop, root);
  const answer = answerOf(fired, `${platform} ${stop.event}`);
  const seconds = fired.ms / 1000;
  console.log(`faults: ${platform} ${stop.event} answered in ${seconds.toFixed(1)} s`);
  expect(seconds).toBeLessThan(TEST_TIMEOUT_S + KILL_GRACE_S + SLACK_S);
  const said = answer["reason"] ?? answer["followup_message"];
  const reason = typeof said === "string" ? said : "";
  return { answer, reason };
}

function resultOf(root: string, rel: string) {
  const session = readSession(root, rel);
  return { result: session.results["src/slow.py"], pending: session.pending_files };
}

describe.skipIf(!pytest.available)("a test run that hangs or dies mid-way", () => {
  it.for(["claude-code", "cursor"] as const)(
    "%s: a hanging test is stopped after test_timeout_seconds; Stop blocks and names the timeout",
    { timeout: 120_000 },
    async (platform) => {
      const project = runProject(HANGS);
      try {
        const { answer, reason } = await stopAfterEdit(platform, project.root);
        if (platform === "claude-code") expect(answer["decision"]).toBe("block");
        expect(reason).toContain("TIMEOUT pytest");
        // Why, which setting, and the command that runs the file that hangs.
        expect(reason).toContain("stopped at the test timeout (test_timeout_seconds)");
        expect(reason).toMatch(/Re-run them: \S*python\S* -m pytest tests\/test_slow\.py/);
        // Measured and kept: the session holds the failure and that it was a timeout.
        const state = platform === "cursor" ? CURSOR_STATE : SESSION;
        const { result, pending } = resultOf(project.root, state);
        expect(result).toMatchObject({
          outcome: "failed",
          failure: "timeout",
          test_path: "tests/test_slow.py",
        });
        expect(pending.map((entry) => entry.path)).toEqual(["src/slow.py"]);
        // The whole process group went: the sleeping test is not left behind.
        const pid = Number(readFileSync(join(project.root, "sleeper.pid"), "utf8"));
        expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
      } finally {
        project.cleanup();
      }
    },
  );

  it("a test run killed mid-way (SIGKILL): Stop blocks, the run is recorded as failed", async () => {
    const project = runProject(DIES);
    try {
      const { answer, reason } = await stopAfterEdit("claude-code", project.root);
      expect(answer["decision"]).toBe("block");
      const { result, pending } = resultOf(project.root, SESSION);
      expect(result).toMatchObject({ outcome: "failed", test_path: "tests/test_slow.py" });
      expect(pending.map((entry) => entry.path)).toEqual(["src/slow.py"]);
      expect(result?.failure).toBe("crash");
      expect(reason).toContain("killed by SIGKILL");
      expect(reason).not.toContain("could not start");
    } finally {
      project.cleanup();
    }
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// Disk full
// ---------------------------------------------------------------------------------------------

/**
 * No disk can be filled here without mounting one. A file-size limit of 0 (`ulimit -f 0`, set by
 * a shell that then runs the hook) makes every write fail with EFBIG where a full disk gives
 * ENOSPC: the same path through the hook, except that the limit also raises SIGXFSZ, which
 * would kill node were the hook not listening for it (store.ts sets one as it loads).
 */
describe.skipIf(!bash.available || process.platform === "win32")(
  "disk full (simulated: every write fails, ulimit -f 0)",
  () => {
    const FULL = ["bash", "-c", 'ulimit -f 0 && exec "$0" "$@"'];

    it("a PostToolUse whose session write fails leaves every state file as it was", async () => {
      const copy = copyOf(templateOf("follow"));
      const stateDir = join(copy.root, ".tailtest");
      try {
        const before = bytesOf(copy.root);
        const call = calls(copy.root).claudeWrite("src/extra.py");
        const fired = await fire(call, copy.root, FULL);
        for (const file of STATE_FILES) {
          const now = readFileSync(join(copy.root, file.rel));
          expect(now.equals(before.get(file.rel) ?? Buffer.alloc(0)), file.rel).toBe(true);
        }
        expect(readdirSync(stateDir).filter((name) => name.endsWith(".lock"))).toEqual([]);
        // The hook answers (no SIGXFSZ death) and says in one line that it could not write.
        answerOf(fired, "disk full, PostToolUse");
        expect(fired.stderr).toMatch(/^tailtest: /);
        expect(readdirSync(stateDir)).not.toContainEqual(expect.stringMatching(/\.tmp$/));
        // Once there is room again, the next call queues the file.
        answerOf(await fire(call, copy.root), "after the disk full");
        expect(pendingPaths(copy.root)).toContain("src/extra.py");
      } finally {
        copy.cleanup();
      }
    }, 120_000);
  },
);

function pendingPaths(root: string): string[] {
  return readSession(root, SESSION).pending_files.map((entry) => entry.path);
}

// ---------------------------------------------------------------------------------------------
// tdd and strict when their state cannot be read or written
// ---------------------------------------------------------------------------------------------

/** What the gating modes meet, and how the hook is run to meet it. */
interface GateFault {
  name: string;
  /** Breaks the project (after its session started). */
  apply: (root: string) => void;
  /** argv the hook runs under; undefined: the fault cannot be made by this user. */
  wrap: () => readonly string[] | undefined;
}

const DISK_FULL = ["bash", "-c", 'ulimit -f 0 && exec "$0" "$@"'];
const asNobodyWhenRoot = () => ("wrap" in PERMISSION_RUN ? PERMISSION_RUN.wrap : undefined);

const GATE_FAULTS: readonly GateFault[] = [
  {
    name: ".tailtest/ read-only",
    apply: (root) => chmodSync(join(root, ".tailtest"), 0o555),
    wrap: asNobodyWhenRoot,
  },
  {
    name: "events.jsonl unreadable",
    apply: (root) => {
      // tdd mode writes its log at the first Red; an empty log is a valid one.
      if (!existsSync(join(root, EVENTS))) writeFileSync(join(root, EVENTS), "");
      chmodSync(join(root, EVENTS), 0o000);
    },
    wrap: asNobodyWhenRoot,
  },
  { name: "the disk full", apply: () => undefined, wrap: () => (bash.available ? DISK_FULL : []) },
];

/**
 * ADR 0002, tdd and strict: a hook that cannot read or write its state does not let the call
 * through silently. Before a tool: deny. After an edit (strict, which records it): block. At the
 * end of the turn: block once, and let the stop go when the agent is already continuing from a
 * stop hook, saying why in one line.
 */
describe("tdd and strict when their state cannot be read or written", () => {
  const cases = (["tdd", "strict"] as const).flatMap((mode) =>
    GATE_FAULTS.map((fault) => ({ mode, fault, name: `${mode}, ${fault.name}` })),
  );
  it.concurrent.for(cases)(
    "$name: the edit is denied, the stop held once, nothing let through in silence",
    { timeout: 120_000 },
    async ({ mode, fault }, ctx) => {
      const wrap = fault.wrap();
      if (wrap === undefined) {
        const why = "skip" in PERMISSION_RUN ? PERMISSION_RUN.skip : "";
        console.log(`faults: skipped ${mode}, ${fault.name}: ${why}`);
        return ctx.skip(why);
      }
      const project = makeProject({
        ...PROJECT_FILES,
        [CONFIG]: `${JSON.stringify(configOf(mode), null, 2)}\n`,
      });
      const { root } = project;
      try {
        const p = calls(root);
        const sudo = wrap === DISK_FULL ? [] : wrap;
        if (sudo.length > 0) handOver(root);
        const run = (call: HookCall, under: readonly string[] = wrap) => {
          if (sudo.length > 0) call.env = { ...call.env, HOME: "/nonexistent" };
          return fire(call, root, under);
        };
        answerOf(await run(p.claudeStart(), sudo), `${mode} SessionStart`);
        fault.apply(root);

        const pre = answerOf(await run(p.claudePreWrite("src/billing.py")), "PreToolUse");
        expect(pre["hookSpecificOutput"]).toMatchObject({ permissionDecision: "deny" });

        const post = await run(p.claudeWrite("src/billing.py"));
        const posted = answerOf(post, "PostToolUse");
        // tdd mode judged the edit before it ran and keeps nothing after it; strict says an
        // edit its gate did not let through is reverted at the end of the turn.
        if (mode === "strict") {
          expect(posted["decision"], post.stdout).toBe("block");
          expect(String(posted["reason"])).toMatch(/could not check this|changed without a claim/);
        }

        // A source file changed in the turn (the agent's edit got through some other way).
        writeFileSync(join(root, "src/billing.py"), "def charge(amount):\n    return amount\n");
        const stop = await run(p.claudeStop());
        const stopped = answerOf(stop, "Stop");
        expect(stopped["decision"], `${stop.stdout} ${stop.stderr}`).toBe("block");

        const again = p.claudeStop();
        again.stdin = { ...again.stdin, stop_hook_active: true };
        const second = await run(again);
        expect(answerOf(second, "Stop again")["decision"]).toBeUndefined();
        expect(second.stderr).toMatch(/^tailtest: /);
      } finally {
        restorePermissions(root, EVENTS);
        project.cleanup();
      }
    },
  );
});
