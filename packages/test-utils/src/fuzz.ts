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
import fc from "fast-check";
import { afterAll, beforeAll, expect } from "vitest";
import { makeProject, REPO_ROOT, type TempProject } from "./index.ts";

/**
 * What the three adapters' fuzz tests share: the world the hooks run in
 * (projects in each mode, a sentinel folder beside them, and the snapshot of what must never
 * change), the hostile strings, paths and commands, the payload mutations and encodings, and the
 * run settings. Each adapter's test keeps what is its platform's: payload shapes, the answer
 * check, and how a call is made.
 */

export const FUZZ_MODES = ["follow", "tdd", "strict"] as const;
export type FuzzMode = (typeof FUZZ_MODES)[number];
export type Payload = Record<string, unknown>;
/** The marker file an injected command would create. */
export const PWNED = "tailtest-pwned";
/** A line of a JavaScript stack trace. */
export const STACK = /^\s+at .+(:\d+:\d+\)?|\(native\)|<anonymous>\)?)$/m;

/**
 * Seed and run counts: TAILTEST_FUZZ_SEED replays a failure, TAILTEST_FUZZ_SCALE scales every
 * count (10,060 calls per adapter at 1).
 */
export function fuzzSettings(defaultSeed: number) {
  const seed = Number(process.env["TAILTEST_FUZZ_SEED"] ?? defaultSeed);
  const scale = Number(process.env["TAILTEST_FUZZ_SCALE"] ?? 1);
  const runs = (n: number) => Math.max(1, Math.round(n * scale));
  return {
    seed,
    runs: {
      shaped: runs(6200),
      injection: runs(800),
      random: runs(1500),
      garbage: runs(1500),
      huge: runs(30),
      bin: runs(30),
    },
    params: (numRuns: number) => ({ numRuns, seed, endOnFailure: true }),
  };
}

// ---------------------------------------------------------------------------------------------
// The world: projects, a sentinel folder beside them, and what must never change.

export interface FuzzWorld {
  box: string;
  outside: string;
  scratch: string;
  home: string;
  projects: Record<FuzzMode, TempProject>;
  /** A follow-mode project with a real runner (node --test), for the one property that runs tests. */
  runner: TempProject;
  /** Paths whose lstat (size, times) must not change; folders holding state are listed instead. */
  watched: string[];
  baseline: string;
  /** Whether this file system records reads in atime (checked on a canary at setup). */
  atimeWorks: boolean;
}

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
 * `config` is each mode project's `.tailtest/config.json`.
 */
function makeWorld(config: (mode: FuzzMode) => Payload): FuzzWorld {
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
  const projects = {} as Record<FuzzMode, TempProject>;
  for (const mode of FUZZ_MODES) {
    const project = makeProject({
      ".tailtest/config.json": `${JSON.stringify(config(mode))}\n`,
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
  for (const mode of FUZZ_MODES) watched.push(...projectFiles(projects[mode].root));
  return { box, outside, scratch, home, projects, runner, watched, atimeWorks, baseline: "" };
}

export const OLD = new Date("2001-01-01T00:00:00Z");
/**
 * The files whose atime must not move (a read moves it). The sentinel folders' own atimes are not
 * checked: listing a folder is no read of what is in it.
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
export function snapshot(w: FuzzWorld): string {
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
  for (const mode of FUZZ_MODES) {
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

/** State files whose growth forces a trim, relative to the project root. */
const STATE_FILES = [
  ".tailtest/session.json",
  ".tailtest/events.jsonl",
  ".tailtest/history.json",
  ".tailtest/cursor-session.json",
];
let trims = 0;

/** Clears a project's state (never its config) every 250 calls, and once it grows. */
export function trimState(root: string, force = false): void {
  const big = STATE_FILES.some(
    (rel) => (statSync(join(root, rel), { throwIfNoEntry: false })?.size ?? 0) > 128 * 1024,
  );
  trims += 1;
  if (!force && !big && trims % 250 !== 0) return;
  const state = join(root, ".tailtest");
  for (const name of readdirSync(state))
    if (name !== "config.json") rmSync(join(state, name), { recursive: true, force: true });
  rmSync(join(root, ".cursor", "hooks", "state"), { recursive: true, force: true });
}

const tally = new Map<string, number>();
/** Counts what the calls did; TAILTEST_FUZZ_TALLY=1 prints the counts at the end. */
export const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);

/**
 * The world for one test file: built before its tests (HOME and TMPDIR pointed into it), checked
 * and removed after them. The getter returns it inside a test.
 */
export function useFuzzWorld(config: (mode: FuzzMode) => Payload): () => FuzzWorld {
  let world: FuzzWorld | undefined;
  const saved = { TMPDIR: process.env["TMPDIR"], HOME: process.env["HOME"] };
  beforeAll(() => {
    world = makeWorld(config);
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
  return () => {
    if (world === undefined) throw new Error("the fuzz world is built in beforeAll");
    return world;
  };
}

/** The event a payload names, as the adapters read it (undefined: it cannot tell). */
export function eventOf(stdin: string): string | undefined {
  try {
    const json = JSON.parse(stdin.replace(/^\uFEFF/, "")) as unknown;
    if (typeof json !== "object" || json === null) return undefined;
    const name = (json as Record<string, unknown>)["hook_event_name"];
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The self-test every fuzz file starts with: a sentinel read and a file appearing in each watched
 * place are seen by the snapshot (then undone, and the baseline taken again).
 */
export function expectSnapshotSeesChanges(w: FuzzWorld): void {
  const before = snapshot(w);
  const secret = join(w.outside, "secret.py");
  if (w.atimeWorks) {
    readFileSync(secret);
    expect(snapshot(w)).not.toBe(before);
    utimesSync(secret, OLD, statSync(secret).mtime);
  }
  for (const path of [
    join(w.projects.tdd.root, "src", PWNED),
    join(w.outside, "nested", PWNED),
    join(w.box, PWNED),
  ]) {
    writeFileSync(path, "");
    expect(snapshot(w), path).not.toBe(before);
    rmSync(path);
  }
  w.baseline = snapshot(w);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Strings that break naive code: shells, paths, unicode, control characters, JSON look-alikes. */
function hostileStrings(w: FuzzWorld): string[] {
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

export function hostileString(w: FuzzWorld): fc.Arbitrary<string> {
  hostile ??= fc.oneof(
    { weight: 3, arbitrary: fc.string() },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme" }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary" }) },
    { weight: 3, arbitrary: fc.constantFrom(...hostileStrings(w)) },
  );
  return hostile;
}

/** One path segment: ordinary, or with spaces, unicode, newlines, shell syntax, dots or dashes. */
export const segment = fc.oneof(
  fc.constantFrom("src", "lib", "tests", "test", "..", ".", "linkdir", ".tailtest", ".git"),
  fc.constantFrom("my file", "naïve", "日本", "🧪", "new\nline", "tab\there", "-rf", "--help"),
  fc.constantFrom(`$(touch ${PWNED})`, `;touch ${PWNED};`, `\`touch ${PWNED}\``, "a'b\"c"),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }),
);

const EXTENSIONS = [".py", ".js", ".ts", ".test.js", "_test.py", ".md", "", ".json", ".sh"];

/** Injected file names: each would create the marker if it ever reached a shell. */
export function injectedPaths(w: FuzzWorld): string[] {
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
export function pathArb(w: FuzzWorld, root: string): fc.Arbitrary<string> {
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
export function commandArb(w: FuzzWorld, paths: fc.Arbitrary<string>): fc.Arbitrary<string> {
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
export const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, true, 0, -1, 1e308, [], {}, [[]], { "": "" }),
);

/** Each field given as `fieldsArb(mode)` etc., tagged with the mode whose project it runs in. */
export const withModes = <T>(make: (mode: FuzzMode) => fc.Arbitrary<T>) =>
  fc.oneof(...FUZZ_MODES.map((mode) => make(mode).map((value) => ({ mode, value }))));

// ---------------------------------------------------------------------------------------------
// Mutations and encodings

export interface Mutation {
  op: "drop" | "set" | "input";
  key: string;
  value?: unknown;
}

/** Up to three mutations: a top-level field dropped or set, or a tool input field set. */
export function mutationsArb(
  w: FuzzWorld,
  keys: readonly string[],
  inputKeys: readonly string[],
): fc.Arbitrary<Mutation[]> {
  const value = fc.oneof(anyJson, hostileString(w));
  const mutation = fc.oneof(
    fc.record({ op: fc.constant("drop" as const), key: fc.constantFrom(...keys) }),
    fc.record({ op: fc.constant("set" as const), key: fc.constantFrom(...keys), value }),
    fc.record({ op: fc.constant("input" as const), key: fc.constantFrom(...inputKeys), value }),
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

/**
 * The payload with the mutations applied, on a copy (fast-check reuses values when shrinking).
 * `cwd` names the project: a mutation may break its type or drop it, never move it elsewhere.
 */
export function mutate(payload: Payload, mutations: readonly Mutation[]): Payload {
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
export function encode(payload: Payload, how: number, cut: number): string {
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

/**
 * Fully random JSON, or a random object that names one of `events`: with random extra fields
 * (and, half the time, `extra`), or with each of `fields` given a random value (plus `fixed`).
 */
export function randomJsonArb(
  events: readonly string[],
  fields: readonly string[],
  options: { extra?: Payload; fixed?: Payload } = {},
): fc.Arbitrary<string> {
  const event = fc.constantFrom(...events);
  const values = fc.array(fc.jsonValue(), { minLength: fields.length, maxLength: fields.length });
  return fc.oneof(
    fc.json(),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc
      .tuple(event, fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.boolean())
      .map(([name, random, withExtra]) =>
        JSON.stringify({
          ...random,
          hook_event_name: name,
          ...(withExtra ? (options.extra ?? {}) : {}),
        }),
      ),
    fc.tuple(event, values).map(([name, given]) =>
      JSON.stringify({
        hook_event_name: name,
        ...Object.fromEntries(fields.map((field, i) => [field, given[i]])),
        ...options.fixed,
      }),
    ),
  );
}

/** stdin that is not JSON, or JSON no hook expects. */
export const garbageArb: fc.Arbitrary<string> = fc.oneof(
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
// Huge strings and shell-reaching file names

/** What a 1-2 MB string is made of. */
export const hugeUnitArb = fc.constantFrom(
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

/**
 * `unit` repeated to `bytes`. A unit with a slash never makes a file name (`inPath`): a path of
 * 500,000 folders would only time the run out, and such paths are refused (PAYLOAD_LIMITS) or
 * not inspected (MAX_PATH_SEGMENTS), each tested on its own; `$(x)` is not put in a command a
 * shell parser reads (`inShell`): a megabyte of substitutions takes seconds to parse.
 */
export function hugeString(
  unit: string,
  bytes: number,
  where: { inPath: boolean; inShell: boolean },
): string {
  let safe = where.inPath && unit.includes("/") ? "a" : unit;
  if (where.inShell && unit === "$(x)") safe = "x";
  return safe.repeat(Math.ceil(bytes / Buffer.byteLength(safe)));
}

/** Slash-free file names that would run `touch tailtest-pwned` if a shell ever saw them. */
export const SHELL_NAMES = [
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

/** A node --test file that passes or fails. */
export function nodeTest(passing: boolean): string {
  return [
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    `test("value", () => assert.equal(1, ${passing ? 1 : 2}));`,
    "",
  ].join("\n");
}

/** No marker file appeared where a shell run from one of `dirs` would have made one. */
export function expectNoMarker(dirs: readonly string[]): void {
  for (const dir of dirs) expect(existsSync(join(dir, PWNED)), dir).toBe(false);
}
