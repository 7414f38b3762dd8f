import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { makeProject, REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCursorHook, type HookOutput } from "../src/run-hook.ts";

const HOOK_BIN = join(REPO_ROOT, "adapters/cursor/dist/hook.js");

/**
 * Issue 9, "Bad input": property-based tests of the Cursor hook (fast-check). Payloads shaped like
 * the synthetic ones built from the protocol reference (fixtures/payloads/cursor) with fields
 * fuzzed and mutated, file names and commands that try to reach a shell, fully random JSON,
 * non-JSON stdin and ≥ 1 MB strings go through `runCursorHook` in process, in follow, tdd and
 * strict projects without test runner files (so no stop starts a test run), then a sample through
 * the built bin. Every call must resolve with exit 0 and no stack trace, and always answer a JSON
 * object with only the keys hook-protocols §2.4 lists for its event (Cursor counts empty stdout as
 * a failed hook, and invalid JSON on a permission event blocks), and leave everything but the
 * project's own state alone: a sentinel folder beside the projects (never read or written;
 * symlinks in each project lead into it), the projects' parent folder, HOME, the test engine's
 * scratch TMPDIR, and no `$(touch …)` / `; touch …` marker may ever appear.
 *
 * The project is CURSOR_PROJECT_DIR, which Cursor always sets (§2.2); every payload field,
 * `workspace_roots` and `cwd` included, may point anywhere.
 * Replay a failure with TAILTEST_FUZZ_SEED=<seed>; TAILTEST_FUZZ_SCALE scales the run counts.
 */

const SEED = Number(process.env["TAILTEST_FUZZ_SEED"] ?? 90_002);
const SCALE = Number(process.env["TAILTEST_FUZZ_SCALE"] ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
const RUNS = {
  shaped: runs(6200),
  injection: runs(800),
  random: runs(1500),
  garbage: runs(1500),
  huge: runs(30),
  bin: runs(30),
};
const MODES = ["follow", "tdd", "strict"] as const;
type Mode = (typeof MODES)[number];
const PWNED = "tailtest-pwned";
/** A line of a JavaScript stack trace. */
const STACK = /^\s+at .+(:\d+:\d+\)?|\(native\)|<anonymous>\)?)$/m;

// ---------------------------------------------------------------------------------------------
// The world: projects, a sentinel folder beside them, and what must never change.

interface World {
  box: string;
  outside: string;
  scratch: string;
  home: string;
  projects: Record<Mode, TempProject>;
  /** A follow-mode project with a real runner (node --test), for the one property that runs tests. */
  runner: TempProject;
  /** Paths whose lstat (size, times) must not change; folders holding state are listed instead. */
  watched: string[];
  baseline: string;
  /** Whether this file system records reads in atime (checked on a canary at setup). */
  atimeWorks: boolean;
}

let world: World;
const saved = { TMPDIR: process.env["TMPDIR"], HOME: process.env["HOME"] };

/**
 * Where the box goes: TAILTEST_FUZZ_DIR, else a RAM-backed tmpfs when the machine has one (the
 * state store fsyncs every write, ≈5 ms on a disk, which 10,000 calls would feel), else the OS
 * temp folder.
 */
function boxParent(): string {
  const chosen = process.env["TAILTEST_FUZZ_DIR"];
  if (chosen !== undefined && chosen !== "") return chosen;
  try {
    return statSync("/dev/shm").isDirectory() ? "/dev/shm" : tmpdir();
  } catch {
    return tmpdir();
  }
}

/**
 * box/ holds the three projects, the sentinel folder `outside/`, the HOME the hooks see and the
 * scratch TMPDIR of the test engine. Each project has symlinks that lead out: to a file, to a
 * folder, and a dangling one (a write through it would create a file in the sentinel folder).
 */
function makeWorld(): World {
  const box = mkdtempSync(join(boxParent(), "tailtest-fuzz-"));
  const outside = join(box, "outside");
  mkdirSync(join(outside, "nested"), { recursive: true });
  writeFileSync(join(outside, "secret.py"), "TOKEN = 'do not read'\n");
  writeFileSync(join(outside, "nested", "keep.txt"), "keep\n");
  const scratch = join(box, "scratch");
  const home = join(box, "home");
  mkdirSync(scratch);
  mkdirSync(home);
  process.env["TMPDIR"] = box;
  const projects = {} as Record<Mode, TempProject>;
  for (const mode of MODES) {
    const project = makeProject({
      ".tailtest/config.json": `${JSON.stringify({ mode })}\n`,
      "src/app.py": "def add(a, b):\n    return a + b\n",
      "src/util.js": "export const one = 1;\n",
      "README.md": "# fuzz\n",
    });
    symlinkSync(join("..", "..", "outside", "secret.py"), join(project.root, "src", "leak.py"));
    symlinkSync(join("..", "..", "outside", "ghost.py"), join(project.root, "src", "ghost.py"));
    symlinkSync(join("..", "outside"), join(project.root, "linkdir"));
    projects[mode] = project;
  }
  const runner = makeProject({
    ".tailtest/config.json": '{"mode":"follow"}\n',
    "package.json": '{"type":"module","scripts":{"test":"node --test"}}\n',
    "src/calc.js": "export const add = (a, b) => a + b;\n",
    "test/calc.test.js": 'import { test } from "node:test";\ntest("ok", () => {});\n',
  });
  process.env["TMPDIR"] = scratch;
  process.env["HOME"] = home;
  const atimeWorks = armAtime(outside);
  const watched = [outside, join(outside, "nested"), home, box];
  for (const mode of MODES) watched.push(...projectFiles(projects[mode].root));
  return { box, outside, scratch, home, projects, runner, watched, atimeWorks, baseline: "" };
}

const OLD = new Date("2001-01-01T00:00:00Z");
/**
 * The files whose atime must not move. The sentinel folders' own atimes are not checked: runner
 * detection lists a folder a project symlinks to (two levels deep), reported apart (issue 9).
 */
const SENTINEL_FILES = ["secret.py", join("nested", "keep.txt")];

/** Puts the sentinel files' atimes before their mtimes, so a read moves them (relatime); checks it. */
function armAtime(outside: string): boolean {
  const canary = join(outside, SENTINEL_FILES[1] ?? "");
  utimesSync(canary, OLD, new Date());
  readFileSync(canary);
  const works = statSync(canary).atimeMs > OLD.getTime();
  for (const file of SENTINEL_FILES) utimesSync(join(outside, file), OLD, new Date());
  return works;
}

/** The hook's own state: `.tailtest/` but its config, and Cursor's state folder. */
function isState(rel: string): boolean {
  if (rel === ".cursor" || rel === ".cursor/hooks" || rel.startsWith(".cursor/hooks/state"))
    return true;
  return rel.startsWith(".tailtest/") && rel !== ".tailtest/config.json";
}

/** Every path of a project but its state; symlinks are not followed. */
function projectFiles(root: string): string[] {
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (isState(relative(root, path))) continue;
      paths.push(path);
      if (lstatSync(path).isDirectory()) walk(path);
    }
  };
  walk(root);
  return paths;
}

/**
 * What must never change, cheaply enough to check after every call: the lstat of every watched
 * path (a folder's mtime moves when an entry appears or goes; a file's when it is written), the
 * sentinel files' atimes (a read moves them), the listing of each project root and `.tailtest/`
 * (whose own times move with the state beside them), an empty scratch folder (the test engine
 * removes its own), a marker in the folder the tests run from, and Object.prototype.
 */
function snapshot(w: World): string {
  const lines: string[] = [];
  for (const path of w.watched) {
    const s = lstatSync(path, { throwIfNoEntry: false });
    const stateHolder =
      path.endsWith(".tailtest") || Object.values(w.projects).some((p) => p.root === path);
    if (s === undefined) lines.push(`${path} gone`);
    else if (stateHolder) lines.push(`${path} ${s.isDirectory()}`);
    else lines.push(`${path} ${s.size} ${s.mtimeMs} ${s.ctimeMs}`);
  }
  if (w.atimeWorks)
    for (const file of SENTINEL_FILES) lines.push(String(statSync(join(w.outside, file)).atimeMs));
  lines.push(readdirSync(w.scratch).join(" "));
  for (const mode of MODES) {
    const root = w.projects[mode].root;
    lines.push(
      readdirSync(root)
        .filter((name) => name !== ".cursor")
        .sort()
        .join(" "),
    );
    lines.push(readdirSync(join(root, ".tailtest")).includes("config.json") ? "config" : "none");
  }
  lines.push(String(existsSync(join(process.cwd(), PWNED)) || existsSync(join(REPO_ROOT, PWNED))));
  lines.push(Object.keys(Object.prototype).join(" "));
  return lines.join("\n");
}

let calls = 0;

/** Clears a project's state (never its config) every 250 calls, and once it grows. */
function trimState(root: string, force = false): void {
  const state = join(root, ".tailtest");
  const files = [
    "session.json",
    "events.jsonl",
    "history.json",
    "../.cursor/hooks/state/tailtest.json",
  ];
  const big = files.some(
    (name) => (statSync(join(state, name), { throwIfNoEntry: false })?.size ?? 0) > 128 * 1024,
  );
  calls += 1;
  if (!force && !big && calls % 250 !== 0) return;
  for (const name of readdirSync(state))
    if (name !== "config.json") rmSync(join(state, name), { recursive: true, force: true });
  rmSync(join(root, ".cursor", "hooks", "state"), { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// The checks after every call.

/** The event a payload names, as the adapter reads it (undefined: it cannot tell). */
function eventOf(stdin: string): string | undefined {
  try {
    const json = JSON.parse(stdin.replace(/^\uFEFF/, "")) as unknown;
    if (typeof json !== "object" || json === null) return undefined;
    const name = (json as Record<string, unknown>)["hook_event_name"];
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

type Outcome = "silent" | "context" | "deny" | "block" | "message";

/** Keys Cursor reads per event (hook-protocols §2.4); any other event: `{}` only. */
const CURSOR_KEYS: Readonly<Record<string, readonly string[]>> = {
  sessionStart: ["env", "additional_context", "continue", "user_message"],
  beforeSubmitPrompt: ["continue", "user_message", "additional_context"],
  preToolUse: ["permission", "user_message", "agent_message", "additional_context"],
  beforeShellExecution: ["permission", "user_message", "agent_message"],
  beforeMCPExecution: ["permission", "user_message", "agent_message"],
  beforeReadFile: ["permission", "user_message"],
  subagentStart: ["permission", "user_message"],
  postToolUse: ["additional_context"],
  postToolUseFailure: ["additional_context"],
  stop: ["followup_message"],
  subagentStop: ["followup_message"],
  preCompact: ["user_message"],
};

/**
 * exit 0, no stack trace, and always one line of JSON: an object with only the keys Cursor reads
 * for the event, string values (`env`: strings too). tailtest never answers "allow" (nor "ask");
 * a call whose event cannot be read may only be denied (tdd/strict) or get `{}`; follow mode
 * never denies.
 */
function checkAnswer(result: HookOutput, stdin: string, mode: Mode): Outcome {
  expect(result.exitCode).toBe(0);
  for (const stream of [result.stdout, result.stderr]) {
    expect(stream).not.toMatch(STACK);
    expect(stream).not.toContain(REPO_ROOT);
  }
  expect(result.stdout).toMatch(/^\{[^\n]*\}\n$/);
  const json = JSON.parse(result.stdout) as Record<string, unknown>;
  const event = eventOf(stdin) ?? "preToolUse";
  for (const [key, value] of Object.entries(json)) {
    expect(CURSOR_KEYS[event] ?? []).toContain(key);
    if (key !== "env") expect(typeof value).toBe("string");
    else for (const v of Object.values(value as object)) expect(typeof v).toBe("string");
  }
  if (json["permission"] !== undefined) {
    expect(json["permission"]).toBe("deny");
    expect(typeof json["agent_message"]).toBe("string");
    expect(mode).not.toBe("follow");
    return "deny";
  }
  if (Object.keys(json).length === 0) return result.stderr === "" ? "silent" : "message";
  expect(eventOf(stdin), "only a deny answers a call whose event cannot be read").toBeDefined();
  return json["followup_message"] === undefined ? "context" : "block";
}

/** The hook's environment as Cursor sets it (§2.2): the project is named. */
function envFor(root: string): Record<string, string> {
  return { CURSOR_PROJECT_DIR: root, CLAUDE_PROJECT_DIR: root, CURSOR_VERSION: "2.1.50" };
}

const tally = new Map<string, number>();
const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);

/** One in-process hook call in a mode's project, and every check. */
async function fire(stdin: string, mode: Mode): Promise<HookOutput> {
  const { root } = world.projects[mode];
  trimState(root);
  const result = await runCursorHook({ stdin, env: envFor(root), cwd: root });
  count(`${mode} ${checkAnswer(result, stdin, mode)}`);
  count("calls in process");
  if (/internal error/.test(result.stderr)) count(`internal error: ${result.stderr.slice(0, 200)}`);
  expect(snapshot(world), "nothing outside the project's state changed").toBe(world.baseline);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Strings that break naive code: shells, paths, unicode, control characters, JSON look-alikes. */
function hostileStrings(w: World): string[] {
  const out = w.outside;
  return [
    "",
    " ",
    "\n",
    "\u0000",
    "\uFEFF",
    "\uD800",
    "\u202Eyp.tset",
    "é\u0301 日本語 🧪",
    `$(touch ${out}/${PWNED})`,
    `; touch ${out}/${PWNED};`,
    `\`touch ${out}/${PWNED}\``,
    `' || touch ${out}/${PWNED} #`,
    `" && touch ${PWNED} "`,
    `\ntouch ${out}/${PWNED}\n`,
    "../../../../../../etc/passwd",
    "..",
    "~",
    "*",
    "%s%n%x",
    "${HOME}",
    "null",
    "{}",
    "__proto__",
    "constructor",
    "toString",
    "C:\\Windows\\System32",
    "file:///etc/passwd",
    "a".repeat(300),
    "a/".repeat(2100),
  ];
}

/** Built once: fast-check's first grapheme string arbitrary costs about two seconds. */
let hostile: fc.Arbitrary<string> | undefined;

function hostileString(w: World): fc.Arbitrary<string> {
  hostile ??= fc.oneof(
    { weight: 3, arbitrary: fc.string() },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme" }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary" }) },
    { weight: 3, arbitrary: fc.constantFrom(...hostileStrings(w)) },
  );
  return hostile;
}

/** One path segment: ordinary, or with spaces, unicode, newlines, shell syntax, dots or dashes. */
const segment = fc.oneof(
  fc.constantFrom("src", "lib", "tests", "test", "..", ".", "linkdir", ".tailtest", ".git"),
  fc.constantFrom("my file", "naïve", "日本", "🧪", "new\nline", "tab\there", "-rf", "--help"),
  fc.constantFrom(`$(touch ${PWNED})`, `;touch ${PWNED};`, `\`touch ${PWNED}\``, "a'b\"c"),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }),
);

const EXTENSIONS = [".py", ".js", ".ts", ".test.js", "_test.py", ".md", "", ".json", ".sh"];

/** Injected file names: each would create the marker if it ever reached a shell. */
function injectedPaths(w: World): string[] {
  return [
    `src/$(touch ${w.outside}/${PWNED}).py`,
    `src/x; touch ${w.outside}/${PWNED}; .py`,
    `src/\`touch ${w.outside}/${PWNED}\`.js`,
    `src/a' || touch ${PWNED} '.py`,
    `src/a\ntouch ${PWNED}\n.py`,
    `$(touch ${PWNED}).py`,
    "src/with space/and 'quotes'.py",
  ];
}

/** A file path as an agent might name it: inside, outside, through a symlink, or nonsense. */
function pathArb(w: World, root: string): fc.Arbitrary<string> {
  const rel = fc
    .tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom(...EXTENSIONS))
    .map(([parts, ext]) => `${parts.join("/")}${ext}`);
  const injected = fc.constantFrom(...injectedPaths(w));
  return fc.oneof(
    { weight: 4, arbitrary: rel.map((path) => join(root, path)) },
    { weight: 2, arbitrary: rel },
    { weight: 2, arbitrary: injected },
    { weight: 1, arbitrary: injected.map((path) => join(root, path)) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        join(w.outside, "secret.py"),
        join(w.outside, "new.py"),
        join(w.outside, "nested"),
        join(root, "..", "outside", "secret.py"),
        join(root, "src", "leak.py"),
        join(root, "src", "ghost.py"),
        join(root, "linkdir", "secret.py"),
        join(root, "linkdir", "fresh.py"),
        "../outside/secret.py",
        "src/leak.py",
        "src/ghost.py",
        "/etc/passwd",
        "/dev/null",
        "/proc/self/environ",
        "/",
        root,
        join(root, "src", "app.py"),
        "src/app.py",
      ),
    },
    { weight: 1, arbitrary: hostileString(w) },
  );
}

/** A shell command that writes, deletes, moves or tests those paths, or injects a command. */
function commandArb(w: World, paths: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const touch = `touch ${w.outside}/${PWNED}`;
  return fc.oneof(
    paths.map((a) => `echo x > ${a}`),
    paths.map((a) => `echo x > '${a}'`),
    paths.map((a) => `cat > "${a}" <<'EOF'\nprint(1)\nEOF\n`),
    paths.map((a) => `mkdir -p $(dirname ${a}) && touch ${a}`),
    paths.map((a) => `python3 -c "open('${a}', 'w').write('x')"`),
    paths.map((a) => `node -e "require('fs').writeFileSync('${a}', 'x')"`),
    paths.map((a) => `sed -i 's/a/b/' ${a}`),
    paths.map((a) => `rm -rf ${a}`),
    fc.tuple(paths, paths).map(([a, b]) => `mv ${a} ${b}`),
    paths.map((a) => `pytest ${a}`),
    paths.map((a) => `npx vitest run ${a}`),
    fc.constantFrom(
      `$(${touch})`,
      `; ${touch}`,
      `\`${touch}\``,
      `echo hi | tee ${w.outside}/${PWNED}`,
      `cp ${w.outside}/secret.py src/copied.py`,
      "python3 -m pytest -q",
      "git apply patch.diff",
      `bash -c '${touch}'`,
    ),
    hostileString(w),
  );
}

/** Any JSON value, for fields given the wrong type. */
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, true, 0, -1, 1e308, [], {}, [[]], { "": "" }),
);

type Payload = Record<string, unknown>;

/** A tool call as Cursor sends it (§2.4): Write, Delete, Shell, Read, Task, MCP, others. */
function toolArb(
  w: World,
  root: string,
  paths: fc.Arbitrary<string>,
): fc.Arbitrary<[string, unknown]> {
  const text = hostileString(w);
  const tool = (name: string, input: fc.Arbitrary<Payload>) =>
    input.map((value): [string, unknown] => [name, value]);
  const cwd = fc.oneof(fc.constant(root), paths);
  return fc.oneof(
    { weight: 3, arbitrary: tool("Write", fc.record({ file_path: paths, content: text })) },
    {
      weight: 1,
      arbitrary: tool(
        "Delete",
        fc.oneof(fc.record({ file_path: paths }), fc.record({ path: paths })),
      ),
    },
    { weight: 3, arbitrary: tool("Shell", fc.record({ command: commandArb(w, paths), cwd })) },
    { weight: 1, arbitrary: tool("Read", fc.record({ file_path: paths })) },
    { weight: 1, arbitrary: tool("MCP:write_file", fc.record({ path: paths })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom("Write", "Shell", "Delete", "Task", ""), anyJson),
    },
  );
}

/** Payloads shaped like fixtures/payloads/cursor (one per event), values fuzzed. */
function shapedArb(w: World, root: string, paths = pathArb(w, root)): fc.Arbitrary<Payload> {
  const s = hostileString(w);
  const conversation = fc.oneof(fc.uuid(), s);
  const common = fc.record({
    conversation_id: conversation,
    generation_id: fc.oneof(fc.uuid(), fc.constant(null)),
    model: fc.constantFrom("claude-4.5-sonnet", "", null),
    session_id: conversation,
    cursor_version: fc.constantFrom("2.1.50", null),
    workspace_roots: fc.oneof(
      { weight: 4, arbitrary: fc.constant([root]) },
      { weight: 1, arbitrary: fc.array(paths, { maxLength: 2 }) },
    ),
    user_email: fc.constant("dev@example.com"),
    transcript_path: fc.oneof(
      fc.constant(join(w.home, ".cursor", "t.txt")),
      fc.constant(null),
      paths,
    ),
  });
  const tools = toolArb(w, root, paths);
  const loop = fc.constantFrom(0, 1, 2, -1, 0.5);
  const toolCall = (event: "preToolUse" | "postToolUse" | "postToolUseFailure") =>
    fc.tuple(tools, s, fc.option(s)).map(([[name, input], output, subagent]) => ({
      hook_event_name: event,
      tool_name: name,
      tool_input: input,
      tool_use_id: "toolu_fuzz",
      cwd: root,
      ...(event === "postToolUse" ? { tool_output: output, duration: 14 } : {}),
      ...(event === "postToolUseFailure" ? { error_message: output, is_interrupt: false } : {}),
      ...(subagent === null ? {} : { subagent_id: subagent }),
    }));
  const event = fc.oneof(
    fc
      .boolean()
      .map((background) => ({ hook_event_name: "sessionStart", is_background_agent: background })),
    s.map((prompt) => ({ hook_event_name: "beforeSubmitPrompt", prompt, attachments: [] })),
    { weight: 4, arbitrary: toolCall("preToolUse") },
    { weight: 4, arbitrary: toolCall("postToolUse") },
    { weight: 1, arbitrary: toolCall("postToolUseFailure") },
    {
      weight: 2,
      arbitrary: fc.tuple(paths, s).map(([file, text]) => ({
        hook_event_name: "afterFileEdit",
        file_path: file,
        edits: [{ old_string: "", new_string: text }],
      })),
    },
    fc
      .tuple(fc.constantFrom("completed", "aborted", "error", "?"), loop)
      .map(([status, count]) => ({
        hook_event_name: "stop",
        status,
        loop_count: count,
      })),
    fc.tuple(s, fc.option(s)).map(([id, parent]) => ({
      hook_event_name: "subagentStart",
      subagent_id: id,
      subagent_type: "generalPurpose",
      task: "t",
      parent_conversation_id: parent,
    })),
    fc.tuple(fc.option(s), loop).map(([id, count]) => ({
      hook_event_name: "subagentStop",
      subagent_id: id,
      status: "completed",
      loop_count: count,
    })),
    fc.constant({ hook_event_name: "sessionEnd", reason: "completed", duration_ms: 1 }),
    fc.tuple(commandArb(w, paths), paths).map(([command, file]) => ({
      hook_event_name: "beforeShellExecution",
      command,
      cwd: root,
      file_path: file,
    })),
    fc
      .constantFrom("beforeReadFile", "afterShellExecution", "preCompact", "PreToolUse", "")
      .map((name) => ({ hook_event_name: name, file_path: root, command: "ls" })),
  );
  return fc.tuple(common, event).map(([base, specific]) => ({ ...base, ...specific }));
}

/** An edit of a payload: a field dropped, given a wrong-typed or hostile value, or added. */
interface Mutation {
  op: "drop" | "set" | "input";
  key: string;
  value?: unknown;
}

const KEYS = [
  "conversation_id",
  "session_id",
  "hook_event_name",
  "workspace_roots",
  "tool_name",
  "tool_input",
  "file_path",
  "edits",
  "loop_count",
  "status",
  "subagent_id",
  "parent_conversation_id",
  "transcript_path",
  "cursor_version",
  "__proto__",
  "constructor",
];

function mutationsArb(w: World): fc.Arbitrary<Mutation[]> {
  const value = fc.oneof(anyJson, hostileString(w));
  const mutation = fc.oneof(
    fc.record({ op: fc.constant("drop" as const), key: fc.constantFrom(...KEYS) }),
    fc.record({ op: fc.constant("set" as const), key: fc.constantFrom(...KEYS), value }),
    fc.record({
      op: fc.constant("input" as const),
      key: fc.constantFrom("command", "file_path", "path", "cwd", "__proto__"),
      value,
    }),
  );
  return fc.array(mutation, { maxLength: 3 });
}

/** An own property, even for `__proto__` (plain assignment would set the prototype). */
function setOwn(target: Payload, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** The payload with the mutations applied, on a copy (fast-check reuses values when shrinking). */
function mutate(payload: Payload, mutations: readonly Mutation[]): Payload {
  const copy = JSON.parse(JSON.stringify(payload)) as Payload;
  for (const { op, key, value } of mutations) {
    if (op === "drop") delete copy[key];
    else if (op === "set" && !(key === "cwd" && typeof value === "string"))
      setOwn(copy, key, value);
    else if (op === "input") {
      const input = copy["tool_input"];
      if (typeof input === "object" && input !== null) setOwn(input as Payload, key, value);
    }
  }
  return copy;
}

/** How the payload reaches stdin: plain JSON mostly, sometimes with a BOM, spaces or damage. */
function encode(payload: Payload, how: number, cut: number): string {
  const text = JSON.stringify(payload);
  switch (how % 10) {
    case 0:
      return `\uFEFF${text}`;
    case 1:
      return JSON.stringify(payload, null, 2);
    case 2:
      return text.slice(0, Math.floor((cut * text.length) / 1000));
    case 3:
      return `${text}\n${text}`;
    case 4:
      return `${text}garbage`;
    default:
      return text;
  }
}

/** Fully random JSON, or a random object that names a real event (with or without an id). */
function randomJsonArb(): fc.Arbitrary<string> {
  const events = fc.constantFrom(
    "sessionStart",
    "preToolUse",
    "postToolUse",
    "afterFileEdit",
    "stop",
    "subagentStart",
    "subagentStop",
    "sessionEnd",
  );
  return fc.oneof(
    fc.json(),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc
      .tuple(events, fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.boolean())
      .map(([event, extra, id]) =>
        JSON.stringify({
          ...extra,
          hook_event_name: event,
          ...(id ? { conversation_id: "c" } : {}),
        }),
      ),
    fc
      .tuple(events, fc.jsonValue(), fc.jsonValue(), fc.jsonValue(), fc.jsonValue())
      .map(([event, a, b, c, d]) =>
        JSON.stringify({
          hook_event_name: event,
          conversation_id: a,
          workspace_roots: b,
          tool_input: c,
          file_path: d,
          tool_name: "Write",
        }),
      ),
  );
}

/** stdin that is not JSON, or JSON no hook expects. */
const garbageArb: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString("utf8")),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  fc.constantFrom(
    "",
    " ",
    "\n",
    "\uFEFF",
    "null",
    "[]",
    "{}",
    '""',
    "0",
    "true",
    "1e999",
    "{",
    '{"hook_event_name":',
    '{"hook_event_name":null}',
    '{"__proto__":{"polluted":true},"hook_event_name":"Stop"}',
    `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
    `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`,
    "\u0000\u0001\u0002",
    "hook_event_name=PreToolUse",
  ),
);

// ---------------------------------------------------------------------------------------------

/**
 * Where a huge string goes: a field, a tool input field, or a file name. Units with a slash never
 * go into a file name (nor a Shell `cwd`, which writes resolve against): a path of 500,000
 * segments sends core's path handling (the ignore rules' per-folder cache, inspectEdit's ancestor
 * walks) into quadratic time and memory, and a 1 MB command of `$(x)` takes seconds to parse;
 * both are reported apart (issue 9).
 */
const hugePlaceArb = fc.constantFrom(
  "conversation_id",
  "generation_id",
  "transcript_path",
  "user_email",
  "prompt",
  "tool_output",
  "subagent_id",
  "status",
  "extra",
  "content",
  "command",
  "cwd",
  "file_path",
  "redirect path",
);
const hugeUnitArb = fc.constantFrom(
  "a",
  "é",
  "日",
  "🧪",
  "\n",
  " ",
  "$(x)",
  "\\",
  '"',
  "/",
  "a/",
  "../",
);
const SHELL_PLACES = new Set(["command", "redirect path"]);
const PATH_PLACES = new Set(["cwd", "file_path", "redirect path"]);

function withHuge(payload: Payload, place: string, unit: string, bytes: number): Payload {
  let safeUnit = PATH_PLACES.has(place) && unit.includes("/") ? "a" : unit;
  if (SHELL_PLACES.has(place) && unit === "$(x)") safeUnit = "x";
  const huge = safeUnit.repeat(Math.ceil(bytes / Buffer.byteLength(safeUnit)));
  const input = payload["tool_input"];
  const fields = typeof input === "object" && input !== null ? (input as Payload) : {};
  switch (place) {
    case "content":
    case "command":
      return { ...payload, tool_input: { ...fields, [place]: huge } };
    case "cwd":
      return {
        ...payload,
        tool_name: "Shell",
        tool_input: { command: "echo x > a.py", cwd: huge },
      };
    case "file_path":
      return {
        ...payload,
        file_path: `src/${huge}.py`,
        tool_input: { ...fields, file_path: `src/${huge}.py` },
      };
    case "redirect path":
      return { ...payload, tool_name: "Shell", tool_input: { command: `echo x > src/${huge}.py` } };
    default:
      return { ...payload, [place]: huge };
  }
}

/** Slash-free file names that would run `touch tailtest-pwned` if a shell ever saw them. */
const SHELL_NAMES = [
  `$(touch ${PWNED})`,
  `;touch ${PWNED};`,
  `\`touch ${PWNED}\``,
  `a&&touch ${PWNED}`,
  `a|touch ${PWNED}`,
  `a\ntouch ${PWNED}\n`,
  `$(cd ..;touch ${PWNED})`,
  `'$(touch ${PWNED})'`,
  `x" $(touch ${PWNED}) "`,
];

function nodeTest(passing: boolean): string {
  return [
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    `test("value", () => assert.equal(1, ${passing ? 1 : 2}));`,
    "",
  ].join("\n");
}

const params = (numRuns: number) => ({ numRuns, seed: SEED, endOnFailure: true });

beforeAll(() => {
  world = makeWorld();
  world.baseline = snapshot(world);
});

afterAll(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  if (world === undefined) return;
  expect(readFileSync(join(world.outside, "secret.py"), "utf8")).toBe("TOKEN = 'do not read'\n");
  rmSync(world.box, { recursive: true, force: true });
  if (process.env["TAILTEST_FUZZ_TALLY"] === "1")
    console.log([...tally].map(([key, n]) => `${n}\t${key}`).join("\n"));
});

const withModes = <T>(make: (mode: Mode) => fc.Arbitrary<T>) =>
  fc.oneof(...MODES.map((mode) => make(mode).map((value) => ({ mode, value }))));

describe("cursor hook: fuzzed input (issue 9)", () => {
  it("the checks can fail: a sentinel read, a new file, a marker, a bad answer are all seen", () => {
    const before = snapshot(world);
    const secret = join(world.outside, "secret.py");
    if (world.atimeWorks) {
      readFileSync(secret);
      expect(snapshot(world)).not.toBe(before);
      utimesSync(secret, OLD, statSync(secret).mtime);
    }
    for (const path of [
      join(world.projects.tdd.root, "src", PWNED),
      join(world.outside, "nested", PWNED),
      join(world.box, PWNED),
    ]) {
      writeFileSync(path, "");
      expect(snapshot(world), path).not.toBe(before);
      rmSync(path);
    }
    world.baseline = snapshot(world);
    // Answers a platform refuses (or that would show a stack trace), for a tdd preToolUse/PreToolUse.
    const event = "preToolUse";
    const stdin = JSON.stringify({ hook_event_name: event });
    const bad: [string, string][] = [
      ['{"permission":"allow"}\n', ""],
      ['{"followup_message":"x"}\n', ""],
      ["", ""],
      ["{}\n", "tailtest: boom\n    at run (/x/y.js:1:2)\n"],
      ["not json\n", ""],
    ];
    for (const [stdout, stderr] of bad)
      expect(() => checkAnswer({ stdout, stderr, exitCode: 0 }, stdin, "tdd"), stdout).toThrow();
  });

  it(`payloads shaped like the recorded ones, fields fuzzed and mutated (${RUNS.shaped} runs)`, async () => {
    const w = world;
    const arb = withModes((mode) =>
      fc.record({
        payload: shapedArb(w, w.projects[mode].root),
        mutations: mutationsArb(w),
        how: fc.nat(),
        cut: fc.nat(1000),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ mode, value: { payload, mutations, how, cut } }) => {
        await fire(encode(mutate(payload, mutations), how, cut), mode);
      }),
      params(RUNS.shaped),
    );
  }, 120_000);

  it(`file names and commands built to reach a shell never do: edit, then stop (${RUNS.injection} runs)`, async () => {
    const w = world;
    const arb = withModes((mode) => {
      const root = w.projects[mode].root;
      const named = fc.constantFrom(...injectedPaths(w));
      const paths = fc.oneof(
        named,
        named.map((path) => join(root, path)),
      );
      return fc.record({ tool: toolArb(w, root, paths), stop: fc.boolean(), id: fc.uuid() });
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ mode, value: { tool, stop, id } }) => {
        const [name, input] = tool;
        const root = world.projects[mode].root;
        const base = { conversation_id: id, cursor_version: "2.1.50", workspace_roots: [root] };
        const call = { ...base, tool_name: name, tool_input: input, tool_use_id: "t", cwd: root };
        await fire(JSON.stringify({ ...call, hook_event_name: "preToolUse" }), mode);
        await fire(
          JSON.stringify({ ...call, hook_event_name: "postToolUse", tool_output: "" }),
          mode,
        );
        const file = (input as Payload | null)?.["file_path"];
        if (typeof file === "string")
          await fire(
            JSON.stringify({ ...base, hook_event_name: "afterFileEdit", file_path: file }),
            mode,
          );
        if (stop)
          await fire(JSON.stringify({ ...base, hook_event_name: "stop", loop_count: 0 }), mode);
        expect(existsSync(join(world.outside, PWNED))).toBe(false);
      }),
      params(RUNS.injection),
    );
  }, 120_000);

  it(`fully random JSON, and random objects naming a real event (${RUNS.random} runs)`, async () => {
    const arb = withModes(() => randomJsonArb());
    await fc.assert(
      fc.asyncProperty(arb, async ({ mode, value }) => {
        await fire(value, mode);
      }),
      params(RUNS.random),
    );
  }, 120_000);

  it(`stdin that is not JSON, or no hook's JSON (${RUNS.garbage} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        withModes(() => garbageArb),
        async ({ mode, value }) => {
          await fire(value, mode);
        },
      ),
      params(RUNS.garbage),
    );
  }, 120_000);

  it(`1-2 MB strings in any field (${RUNS.huge} runs)`, async () => {
    const w = world;
    const arb = withModes((mode) =>
      fc.record({
        payload: shapedArb(w, w.projects[mode].root),
        place: hugePlaceArb,
        unit: hugeUnitArb,
        bytes: fc.integer({ min: 1 << 20, max: 2 << 20 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ mode, value: { payload, place, unit, bytes } }) => {
        const stdin = JSON.stringify(withHuge(payload, place, unit, bytes));
        expect(Buffer.byteLength(stdin)).toBeGreaterThanOrEqual(1 << 20);
        await fire(stdin, mode);
      }),
      params(RUNS.huge),
    );
  }, 120_000);

  it(`a real test run of files named to break out: node --test gets them as arguments, no shell (${SHELL_NAMES.length} runs)`, async () => {
    const project = world.runner;
    for (const [index, name] of SHELL_NAMES.entries()) {
      const passing = index % 2 === 1;
      const viaShell = index % 4 >= 2;
      project.write(`src/${name}.js`, "export const value = 1;\n");
      project.write(`test/${name}.test.js`, nodeTest(passing));
      const base = { conversation_id: "runner", cursor_version: "2.1.50" };
      const file = join(project.root, "src", `${name}.js`);
      const command = `echo 'export const value = 1;' > 'src/${name.replaceAll("'", "'\\''")}.js'`;
      const edit = {
        ...base,
        hook_event_name: "postToolUse",
        tool_name: viaShell ? "Shell" : "Write",
        tool_input: viaShell ? { command, cwd: project.root } : { file_path: file, content: "" },
        tool_output: "",
      };
      const answers: string[] = [];
      for (const payload of [edit, { ...base, hook_event_name: "stop", loop_count: 0 }]) {
        const stdin = JSON.stringify(payload);
        const result = await runCursorHook({ stdin, env: envFor(project.root), cwd: project.root });
        checkAnswer(result, stdin, "follow");
        answers.push(result.stdout);
      }
      // The run happened: the failing test holds the turn, the passing one does not.
      const held = (answers[1] ?? "").includes('"followup_message"');
      expect(held, `${name}: ${answers[1]}`).toBe(!passing);
      for (const dir of [
        world.box,
        project.root,
        join(project.root, "src"),
        join(project.root, "test"),
      ])
        expect(existsSync(join(dir, PWNED)), dir).toBe(false);
      rmSync(join(project.root, "src", `${name}.js`));
      rmSync(join(project.root, "test", `${name}.test.js`));
      trimState(project.root, true);
      expect(snapshot(world)).toBe(world.baseline);
    }
  }, 120_000);

  it(`the built bin (launcher + bundle) holds the same on a sample (${RUNS.bin} payloads)`, async () => {
    const w = world;
    const arb = withModes((mode) =>
      fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .record({ payload: shapedArb(w, w.projects[mode].root), mutations: mutationsArb(w) })
            .map(({ payload, mutations }) => JSON.stringify(mutate(payload, mutations))),
        },
        { weight: 1, arbitrary: garbageArb },
      ),
    );
    const one = async ({ mode, value }: { mode: Mode; value: string }) => {
      const root = w.projects[mode].root;
      const stdin = value;
      const ran = await runBin(HOOK_BIN, [], { input: stdin, cwd: root, env: envFor(root) });
      // runBin (execa) strips the final newlines.
      const line = (text: string) => (text === "" ? "" : `${text}\n`);
      const result = { ...ran, stdout: line(ran.stdout), stderr: line(ran.stderr) };
      count(`bin ${mode} ${checkAnswer(result, stdin, mode)}`);
    };
    const samples = fc.sample(arb, { numRuns: RUNS.bin, seed: SEED });
    // Two at a time: hooks of one turn can land together, and it halves the wait.
    for (let i = 0; i < samples.length; i += 2) {
      await Promise.all(samples.slice(i, i + 2).map(one));
      expect(snapshot(w)).toBe(w.baseline);
    }
  }, 120_000);
});
