import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { runInThisContext } from "node:vm";
import { dirname, join, resolve } from "node:path";
import { loadPayload, makeProject, REPO_ROOT, type TempProject } from "@tailtest/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImportGraph, packGraph, setFileImports } from "../src/analysis/import-graph.ts";
import { flavourOf } from "../src/hook/node/code-cache.ts";
import { HOOK_NODE_FLAGS, hookNodeFlags } from "../src/hook/node/launcher.ts";

/**
 * What keeps a hook near the cost of `node -e 0` (docs/performance.md): the guards here fail on
 * the change that would make every edit slower, where a timed test would only flicker. Timings
 * themselves are bench/'s.
 */

const ADAPTERS = ["claude-code", "codex", "cursor"] as const;
type Adapter = (typeof ADAPTERS)[number];

// ---------------------------------------------------------------------------------------------
// The modules a hook call evaluates, read off the sources.

/** Workspace package subpaths, through the `@tailtest/source` condition the bundler uses. */
function workspaceEntry(specifier: string): string | undefined {
  const match = /^@tailtest\/([^/]+)(\/.*)?$/.exec(specifier);
  if (match === null) return undefined;
  const [, name, sub] = match;
  const dir = existsSync(join(REPO_ROOT, "packages", name ?? ""))
    ? join(REPO_ROOT, "packages", name ?? "")
    : join(REPO_ROOT, "adapters", name ?? "");
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    exports: Record<string, { "@tailtest/source"?: string } | string>;
  };
  const entry = manifest.exports[`.${sub ?? ""}`];
  const source = typeof entry === "object" ? entry["@tailtest/source"] : undefined;
  if (source === undefined) throw new Error(`${specifier} has no @tailtest/source export`);
  return join(dir, source);
}

/** An adapter's own module that a shared entry imports (`tailtest:adapter/platform`). */
function adapterModule(adapter: Adapter, specifier: string): string | undefined {
  if (!specifier.startsWith(ADAPTER_MODULE)) return undefined;
  return join(REPO_ROOT, "adapters", adapter, `src/${specifier.slice(ADAPTER_MODULE.length)}.ts`);
}

/**
 * Every workspace module reached from `entry` by static imports: what a bundle evaluates as
 * soon as it loads (`import()` targets are evaluated only when called; `import type` never).
 * With `dynamic`, `import()` targets too: everything the bundle contains.
 */
function staticGraph(adapter: Adapter, entry: string, dynamic = false): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() ?? "";
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    const imports = [
      ...source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+"([^"]+)";/gms),
      ...(dynamic ? source.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g) : []),
    ];
    for (const [, specifier = ""] of imports) {
      const target = specifier.startsWith(".")
        ? resolve(dirname(file), specifier)
        : (adapterModule(adapter, specifier) ?? workspaceEntry(specifier));
      if (target !== undefined) queue.push(target);
    }
  }
  return seen;
}

/** The adapter's own modules the shared entries import (tsup.config.base.ts `adapterConfig`). */
const ADAPTER_MODULE = "tailtest:adapter/";
/** The shared entry of one of an adapter's hook bundles. */
const ENTRY = (bundle: "hook-main" | "hook-post" | "hook-gate") =>
  join(REPO_ROOT, "packages/core/src/entries/node/adapter", `${bundle}.ts`);
/** What only some modes or events need: loaded by `import()` where a call needs it. */
const COLD = [
  /packages\/core\/src\/index\.ts$/,
  /packages\/core\/src\/entries\/node\/core-node\.ts$/,
  /packages\/core\/src\/(tdd|strict|engine\/parsers)\//,
  /packages\/core\/src\/(shell\/node\/|(state\/node\/lifecycle|project\/node\/mtime-sweep|install\/node\/setup-io)\.ts$)/,
  /packages\/core\/src\/engine\/node\//,
  /packages\/core\/src\/engine\/(plan|summarize|results)\.ts$/,
  /packages\/core\/src\/(install\/(doctor-checks|hook-groups)|shell\/inline-(script-writes|interpreter))\.ts$/,
];
/** The Claude Code hook answers a call Cursor makes through Cursor's adapter, loaded for it. */
const COLD_FOR: Partial<Record<Adapter, RegExp[]>> = {
  "claude-code": [/adapters\/cursor\/src\//],
};

describe("a hook call evaluates only what every call needs", () => {
  it.each(ADAPTERS)(
    "%s: no mode's, runner's or parser's module is imported statically",
    (adapter) => {
      const graph = [...staticGraph(adapter, ENTRY("hook-main"))].map((file) =>
        file.slice(REPO_ROOT.length + 1),
      );
      const patterns = [...COLD, ...(COLD_FOR[adapter] ?? [])];
      const cold = graph.filter((file) => patterns.some((pattern) => pattern.test(file)));
      expect(cold).toEqual([]);
      // The graph is read for real: the modules every call needs are in it.
      expect(graph).toEqual(
        expect.arrayContaining([
          `adapters/${adapter}/src/platform.ts`,
          "packages/core/src/hook/node/handle-event.ts",
          "packages/core/src/state/node/store.ts",
          "packages/core/src/state/session.ts",
        ]),
      );
    },
  );

  it.each(ADAPTERS)(
    "%s: the post-edit bundle holds follow mode's edit and its covering note, no lexer or graph build",
    (adapter) => {
      const graph = [...staticGraph(adapter, ENTRY("hook-post"), true)].map((file) =>
        file.slice(REPO_ROOT.length + 1),
      );
      const cold = graph.filter((file) =>
        [
          ...COLD,
          /adapters\/cursor\/src\/run-hook\.ts$/,
          /packages\/core\/src\/hook\/node\/handle-event\.ts$/,
          // The import graph's build: lexers, resolver, walk; the turn's selection.
          /packages\/core\/src\/analysis\/(?!switches\.ts$)/,
          /packages\/core\/src\/selection\/node\/(graph-selection|choose-tests|reverse-lookup)\.ts$/,
        ].some((pattern) => pattern.test(file)),
      );
      expect(cold).toEqual([]);
      expect(graph).toEqual(
        expect.arrayContaining([
          "packages/core/src/follow/node/follow-edit.ts",
          "packages/core/src/selection/node/covering.ts",
          "packages/core/src/selection/related.ts",
        ]),
      );
      // No lexer reaches the bundle by any path: es-module-lexer inlines its wasm (base64 of
      // "\0asm"), cjs-module-lexer names its parser.
      const built = readFileSync(
        join(REPO_ROOT, "adapters", adapter, "dist/hook-post.cjs"),
        "utf8",
      );
      expect(built).not.toMatch(/AGFzbQ|parseCJS/);
    },
  );

  it.each(ADAPTERS)(
    "%s: the gate bundle holds tdd's and strict's gate and record, and nothing a call could load later",
    (adapter) => {
      const graph = [...staticGraph(adapter, ENTRY("hook-gate"), true)].map((file) =>
        file.slice(REPO_ROOT.length + 1),
      );
      const cold = graph.filter((file) =>
        [
          /packages\/core\/src\/index\.ts$/,
          /packages\/core\/src\/entries\/node\/core-node\.ts$/,
          /packages\/core\/src\/engine\/parsers\/(?!_shared)/,
          /packages\/core\/src\/(shell\/node\/|(state\/node\/lifecycle|project\/node\/mtime-sweep|install\/node\/setup-io)\.ts$)/,
          /packages\/core\/src\/engine\/node\//,
          /packages\/core\/src\/hook\/node\/handle-event\.ts$/,
          /packages\/core\/src\/tdd\/node\/(tdd-hooks|plan-review)\.ts$/,
          /packages\/core\/src\/strict\/node\/(strict-hooks|strict-run|strict-claim)\.ts$/,
          /packages\/core\/src\/engine\/(plan|summarize)\.ts$/,
          /packages\/core\/src\/(install\/(doctor-checks|hook-groups)|shell\/inline-(script-writes|interpreter))\.ts$/,
          /packages\/core\/src\/(analysis\/(?!switches\.ts$)|tdd\/(test-commands|cycles))/,
          /packages\/core\/src\/strict\/(plan-steps|pairs)\.ts$/,
          /adapters\/cursor\/src\/run-hook\.ts$/,
        ].some((pattern) => pattern.test(file)),
      );
      expect(cold).toEqual([]);
      expect(graph).toEqual(
        expect.arrayContaining([
          "packages/core/src/tdd/node/tdd-gate-call.ts",
          "packages/core/src/strict/node/strict-gate-call.ts",
          "packages/core/src/gating/node/gated-edit.ts",
        ]),
      );
    },
  );

  it("the schemas a hook reads on every call are zod/mini's", () => {
    const graph = new Set(
      ADAPTERS.flatMap((adapter) => [
        ...staticGraph(adapter, ENTRY("hook-main")),
        ...staticGraph(adapter, ENTRY("hook-post"), true),
        ...staticGraph(adapter, ENTRY("hook-gate"), true),
      ]),
    );
    const classic = [...graph].filter((file) => /from "zod";/.test(readFileSync(file, "utf8")));
    expect(classic.map((file) => file.slice(REPO_ROOT.length + 1))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The built bundles and a real call.

describe.each(ADAPTERS)("%s's built hook", (adapter) => {
  const dist = join(REPO_ROOT, "adapters", adapter, "dist");

  it("is a stamped, pure-ASCII bundle with a code cache for each route and no import()", () => {
    const text = readFileSync(join(dist, "hook-main.cjs"), "latin1");
    const stamp = /^\/\*tailtest-build:([0-9a-f]{16}):ascii\*\/\n/.exec(text)?.[1];
    expect(stamp, "run the build first").toBeDefined();
    // eslint-disable-next-line no-control-regex -- bytes outside ASCII
    expect(/[^\x00-\x7f]/.test(text)).toBe(false);
    expect(text).not.toMatch(/\bimport\(/);
    const caches = readdirSync(dist).filter((name) => name.endsWith(".cache"));
    // Each route's cache is made under the node flags its hook command runs with (launcher.ts
    // hookNodeFlags: the calls around a tool), the name V8's flag check needs.
    const around = flavourOf(HOOK_NODE_FLAGS.join(" "));
    expect(around).not.toBe("");
    const routes = { pre: around, "pre-shell": around, post: around, shell: around, other: "" };
    for (const [route, flavour] of Object.entries(routes))
      expect(caches, route).toContainEqual(
        `hook-main.${stamp}-${process.versions.v8}-${process.arch}-${route}${flavour === "" ? "" : `-${flavour}`}.cache`.replace(
          /[^\w.-]/g,
          "_",
        ),
      );
  });
});

const ALLOWED_BUILTINS =
  /^(NativeModule (vm|v8|internal\/heap_utils|internal\/promise_hooks)|Internal Binding (signal_wrap|v8|serdes|profiler|heap_utils|internal_only_v8))$/;

/**
 * The node modules a whole hook process loaded beyond what `node -e 0` loads, and
 * `signal-exit` when proper-lockfile (which loads it) was evaluated: its emitter on `process`.
 */
function builtinsLoaded(bin: string, stdin: string, root: string): string[] {
  // The list goes to fd 3, so the hook's own answer on stdout stays out of it.
  const dump = `process.on("exit", () => require("node:fs").writeSync(3, JSON.stringify([...process.moduleLoadList, ...("__signal_exit_emitter__" in process ? ["signal-exit"] : [])])));`;
  const loaded = (args: string[], input: string): string[] =>
    JSON.parse(
      execFileSync("bash", ["-c", '"$0" "$@" 3>&1 1>/dev/null', process.execPath, ...args], {
        input,
        cwd: root,
        env: {
          ...process.env,
          CLAUDE_PROJECT_DIR: root,
          CURSOR_PROJECT_DIR: root,
          NODE_OPTIONS: "",
          // A CA bundle there makes node load crypto as it starts, hiding a hook's own load.
          NODE_EXTRA_CA_CERTS: undefined,
        },
        encoding: "utf8",
      }),
    ) as string[];
  const before = new Set(loaded(["-e", dump], ""));
  const hook = `${dump} const bin = process.argv[1]; process.argv.splice(1, 1); require(bin);`;
  return loaded(["-e", hook, bin], stdin).filter((name) => !before.has(name));
}

describe("a follow-mode edit loads no node module it does not use", () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject({
      "pyproject.toml": "[tool.pytest.ini_options]\ntestpaths = ['tests']\n",
      "src/billing.py": "def charge(amount):\n    return amount\n",
      "tests/test_billing.py": "def test_charge():\n    assert True\n",
    });
  });
  afterAll(() => project.cleanup());

  const post: Record<Adapter, () => string> = {
    "claude-code": () =>
      JSON.stringify(
        loadPayload("claude-2.1.330", "context.PostToolUse-Write.json", project.root).stdin,
      ),
    codex: () =>
      JSON.stringify(
        loadPayload("codex-0.169.0", "context.PostToolUse-apply_patch.json", project.root).stdin,
      ),
    cursor: () =>
      JSON.stringify(loadPayload("cursor", "edit.afterFileEdit.json", project.root).stdin),
  };

  it.each(ADAPTERS)(
    "%s: the edit is queued with no process, stream, crypto or promise API",
    (adapter) => {
      const bin = join(REPO_ROOT, "adapters", adapter, "dist/hook.cjs");
      // A file's first edit may ask git whether it is new (Cursor's payload does not say); the
      // edits after it, the ones an agent makes again and again, start nothing.
      builtinsLoaded(bin, post[adapter](), project.root);
      const extra = builtinsLoaded(bin, post[adapter](), project.root);
      // vm evaluates the bundle, v8 sets the flag its code caches are made under (code-cache.ts);
      // signal_wrap is the lock's clean-up on a signal (proper-lockfile). The edit takes no
      // lock (a journal line), so proper-lockfile is not even evaluated (no signal-exit).
      expect(extra.filter((name) => !ALLOWED_BUILTINS.test(name))).toEqual([]);
      expect(extra).toContain("NativeModule vm");
      expect(extra).not.toContain("signal-exit");
    },
  );
});

describe("a tdd or strict gate loads no crypto, no os, no perf_hooks and no lock it does not use", () => {
  const gate: Record<Adapter, (root: string) => string> = {
    "claude-code": (root) =>
      JSON.stringify(loadPayload("claude-2.1.330", "context.PreToolUse-Write.json", root).stdin),
    codex: (root) =>
      JSON.stringify(
        loadPayload("codex-0.169.0", "context.PreToolUse-apply_patch.json", root).stdin,
      ),
    cursor: (root) =>
      JSON.stringify(loadPayload("cursor", "gate.preToolUse-Write.json", root).stdin),
  };

  it.each(
    ADAPTERS.flatMap((adapter) =>
      (["tdd", "strict"] as const).map((mode) => [adapter, mode] as const),
    ),
  )(
    "%s, %s: node's crypto, os and perf_hooks and proper-lockfile (signal-exit) stay unloaded",
    (adapter, mode) => {
      const project = makeProject({
        "pyproject.toml": "[tool.pytest.ini_options]\ntestpaths = ['tests']\n",
        "src/billing.py": "def charge(amount):\n    return amount\n",
        "tests/test_billing.py": "def test_charge():\n    assert True\n",
        ".tailtest/config.json": JSON.stringify({ mode }),
      });
      try {
        const bin = join(REPO_ROOT, "adapters", adapter, "dist/hook.cjs");
        builtinsLoaded(bin, gate[adapter](project.root), project.root);
        const extra = builtinsLoaded(bin, gate[adapter](project.root), project.root);
        expect(extra).toContain("NativeModule vm");
        // os: only where a home folder is asked of it without $HOME (write-identity.ts);
        // perf_hooks: the global `performance`'s first use (~12 M instructions) loads it.
        expect(
          extra.filter((name) => /crypto|signal-exit|^NativeModule os$|perf/.test(name)),
        ).toEqual([]);
      } finally {
        project.cleanup();
      }
    },
  );
});

describe("who answers an edit: hook-post.cjs in follow mode, hook-gate.cjs in tdd and strict mode, hook-main.cjs for the rest", () => {
  let work: TempProject;
  /** Where the hook copies and project copies go: outside the project, removed at the end. */
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "tailtest-routed-"));
    work = makeProject({
      "pyproject.toml": "[tool.pytest.ini_options]\ntestpaths = ['tests']\n",
      "src/billing.py": "def charge(amount):\n    return amount\n",
      "tests/test_billing.py": "def test_charge():\n    assert True\n",
    });
  });
  afterAll(() => {
    work.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A copy of an adapter's hook files, without the bundle named by `without`. */
  function hookCopy(adapter: Adapter, without: string): string {
    const dist = join(REPO_ROOT, "adapters", adapter, "dist");
    const bin = mkdtempSync(join(scratch, `bin-${adapter}-`));
    for (const name of readdirSync(dist))
      if (/^hook/.test(name) && !name.startsWith(without) && !name.endsWith(".local.cache"))
        copyFileSync(join(dist, name), join(bin, name));
    return join(bin, "hook.cjs");
  }

  function project(config: Record<string, unknown> | undefined): string {
    const root = mkdtempSync(join(scratch, "routed-"));
    cpSync(work.root, root, { recursive: true });
    if (config !== undefined) {
      mkdirSync(join(root, ".tailtest"), { recursive: true });
      writeFileSync(join(root, ".tailtest/config.json"), JSON.stringify(config));
    }
    return root;
  }

  const edit = (root: string) =>
    JSON.stringify(loadPayload("claude-2.1.330", "context.PostToolUse-Write.json", root).stdin);
  const call = (bin: string, root: string) =>
    spawnSync(process.execPath, [bin], {
      input: edit(root),
      cwd: root,
      env: { ...process.env, CLAUDE_PROJECT_DIR: root, NODE_OPTIONS: "" },
      encoding: "utf8",
    });

  it("a follow-mode edit: the same answer from either bundle, and hook-main.cjs not needed", () => {
    const noMain = hookCopy("claude-code", "hook-main");
    const noPost = hookCopy("claude-code", "hook-post");
    const [a, b] = [project(undefined), project(undefined)];
    const fromPost = call(noMain, a);
    const fromMain = call(noPost, b);
    expect(fromPost.stderr).toBe("");
    expect(fromPost.stdout).toContain("queued (new, python)");
    expect(fromPost.stdout.replaceAll(a, "<root>")).toBe(fromMain.stdout.replaceAll(b, "<root>"));
    expect(readFileSync(join(a, ".tailtest/session.json"), "utf8")).toContain('"src/billing.py"');
  });

  it("a queued edit run as its command runs it (node's flags) takes the build's cache", () => {
    const bin = hookCopy("claude-code", "hook-main");
    const dist = dirname(bin);
    const locals = () => readdirSync(dist).filter((n) => /^hook-post.*\.local\.cache$/.test(n));
    const run = (flags: readonly string[], root: string) =>
      spawnSync(process.execPath, [...flags, bin, "--event=PostToolUse"], {
        input: edit(root),
        cwd: root,
        env: { ...process.env, CLAUDE_PROJECT_DIR: root, NODE_OPTIONS: "" },
        encoding: "utf8",
      });
    // The session's first edit writes no cache (it created state); a later one would, had V8
    // rejected the build's cache or found none under these flags.
    const root = project(undefined);
    for (let i = 0; i < 2; i += 1)
      expect(run(hookNodeFlags("PostToolUse"), root).stdout).toContain("queued");
    expect(locals()).toEqual([]);
    // Without them the build's cache has another name, and the call writes one of its own.
    for (let i = 0; i < 2; i += 1) expect(run([], root).stdout).toContain("queued");
    expect(locals()).toHaveLength(1);
  });

  it("a tdd and a strict gate run as their command takes the build's cache for its mode", () => {
    const bin = hookCopy("claude-code", "hook-main");
    const dist = dirname(bin);
    const locals = () => readdirSync(dist).filter((n) => /^hook-gate.*\.local\.cache$/.test(n));
    const gate = (root: string) =>
      spawnSync(process.execPath, [...hookNodeFlags("PreToolUse"), bin, "--event=PreToolUse"], {
        input: JSON.stringify(
          loadPayload("claude-2.1.330", "context.PreToolUse-Write.json", root).stdin,
        ),
        cwd: root,
        env: { ...process.env, CLAUDE_PROJECT_DIR: root, NODE_OPTIONS: "" },
        encoding: "utf8",
      });
    // Each mode's gate, again and again: a call whose route has no cache of the build's (or one
    // V8 rejects) writes one of its own.
    for (const mode of ["tdd", "strict"]) {
      const root = project({ mode });
      for (let i = 0; i < 3; i += 1) expect(gate(root).stdout).toContain('"deny"');
    }
    expect(locals()).toEqual([]);
  });

  it("an edit answered by hook-post.cjs ends with process.exit, whose exit listeners still run", () => {
    const bin = hookCopy("claude-code", "hook-main");
    const launcherCaches = () =>
      readdirSync(dirname(bin)).filter((n) => /^hook\.[^-]+-.*\.local\.cache$/.test(n));
    expect(launcherCaches()).toEqual([]);
    const root = project(undefined);
    const first = call(bin, root);
    expect([first.status, first.stderr]).toEqual([0, ""]);
    expect(first.stdout).toContain("queued (new, python)");
    // The launcher stub writes its own cache on `exit`: process.exit emits it, reallyExit would not.
    expect(launcherCaches()).toHaveLength(1);
    expect(call(bin, root).stdout).toContain("queued");
  });

  it("a later edit is one journal line: no lock, session.json not rewritten (ADR 0010)", () => {
    const root = project(undefined);
    writeFileSync(join(root, "src/other.py"), "def other():\n    return 1\n");
    const bin = join(REPO_ROOT, "adapters", "claude-code", "dist/hook.cjs");
    expect(call(bin, root).stdout).toContain("src/billing.py queued");
    const session = readFileSync(join(root, ".tailtest/session.json"), "utf8");
    const other = spawnSync(process.execPath, [bin], {
      input: edit(root).replaceAll("src/billing.py", "src/other.py"),
      cwd: root,
      env: { ...process.env, CLAUDE_PROJECT_DIR: root, NODE_OPTIONS: "" },
      encoding: "utf8",
    });
    expect(other.stderr).toBe("");
    expect(other.stdout).toContain("src/other.py queued (new, python)");
    expect(other.stdout).toContain("2 files pending");
    expect(readFileSync(join(root, ".tailtest/session.json"), "utf8")).toBe(session);
    const lines = readFileSync(join(root, ".tailtest/session.edits.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line !== "");
    expect(
      lines.map((line) => (JSON.parse(line) as { queue: { path: string } }).queue.path),
    ).toEqual(["src/other.py"]);
    expect(readdirSync(join(root, ".tailtest")).filter((name) => name.endsWith(".lock"))).toEqual(
      [],
    );
  });

  it("with an import graph, the covering note is hook-post.cjs's too, the same as hook-main.cjs's", () => {
    const noMain = hookCopy("claude-code", "hook-main");
    const noPost = hookCopy("claude-code", "hook-post");
    const [a, b] = [project(undefined), project(undefined)];
    for (const root of [a, b]) {
      writeFileSync(join(root, "src/api.py"), "from billing import charge\n");
      writeFileSync(join(root, "tests/test_api.py"), "from api import charge\n");
      // The graph as the end of a turn leaves it: api.py imports billing.py, test_api.py api.py.
      const graph = createImportGraph();
      graph.walked = true;
      graph.pending_dirs = [];
      setFileImports(graph, "src/billing.py", []);
      setFileImports(graph, "src/api.py", ["src/billing.py"]);
      setFileImports(graph, "tests/test_api.py", ["src/api.py"]);
      setFileImports(graph, "tests/test_billing.py", []);
      graph.next = graph.files.length;
      mkdirSync(join(root, ".tailtest/graph"), { recursive: true });
      const packed = packGraph(graph);
      writeFileSync(join(root, ".tailtest/graph/index.json"), JSON.stringify(packed.index));
      packed.shards.forEach((shard, at) =>
        writeFileSync(join(root, `.tailtest/graph/shard-${at}.json`), JSON.stringify(shard)),
      );
    }
    const fromPost = call(noMain, a);
    const fromMain = call(noPost, b);
    expect(fromPost.stderr).toBe("");
    expect(fromPost.stdout).toContain(
      "covered by existing tests tests/test_billing.py (named after it), tests/test_api.py (they import it through other modules)",
    );
    expect(fromPost.stdout.replaceAll(a, "<root>")).toBe(fromMain.stdout.replaceAll(b, "<root>"));
  });

  const gate = (root: string) =>
    JSON.stringify(loadPayload("claude-2.1.330", "context.PreToolUse-Write.json", root).stdin);
  const callWith = (bin: string, root: string, input: string) =>
    spawnSync(process.execPath, [bin], {
      input,
      cwd: root,
      env: { ...process.env, CLAUDE_PROJECT_DIR: root, NODE_OPTIONS: "" },
      encoding: "utf8",
    });
  /** events.jsonl without its times, which differ from one run to the other. */
  const events = (root: string) =>
    existsSync(join(root, ".tailtest/events.jsonl"))
      ? readFileSync(join(root, ".tailtest/events.jsonl"), "utf8")
          .replace(/"ts":"[^"]+"|"at":"[^"]+"/g, "")
          .replaceAll(root, "<root>")
      : "";

  it.each(["tdd", "strict"])(
    "%s mode: the gate and the record are hook-gate.cjs's, the same as hook-main.cjs's",
    (mode) => {
      const noMain = hookCopy("claude-code", "hook-main");
      const noGate = hookCopy("claude-code", "hook-gate");
      const [a, b] = [project({ mode }), project({ mode })];
      for (const input of [gate, edit]) {
        const fromGate = callWith(noMain, a, input(a));
        const fromMain = callWith(noGate, b, input(b));
        expect(fromGate.stderr).toBe("");
        expect(fromGate.stdout.replaceAll(a, "<root>")).toBe(
          fromMain.stdout.replaceAll(b, "<root>"),
        );
      }
      // The gate denied the write to production code, and said so in the log, alike.
      expect(events(a)).toMatch(/"decision":"blocked"|"type":"edit_denied"/);
      expect(events(a)).toBe(events(b));
    },
  );

  it.each<[string, Record<string, unknown>]>([
    ["an optional analysis on", { api_validation: true }],
    ["a config that does not say the mode", { mode: "none-such" }],
  ])("%s: the edit is hook-main.cjs's (without it, the launcher says so)", (_label, config) => {
    const root = project(config);
    const result = call(hookCopy("claude-code", "hook-main"), root);
    expect(result.stderr).toMatch(/hook-main\.cjs did not load/);
    // hook-post.cjs wrote nothing before it left the call.
    expect(existsSync(join(root, ".tailtest/session.json"))).toBe(false);
  });

  it("a gate whose config does not say the mode is hook-main.cjs's, which denies it", () => {
    const root = project({ mode: "none-such" });
    const result = callWith(hookCopy("claude-code", "hook-main"), root, gate(root));
    // Without hook-main.cjs the launcher cannot decide, and a gate outside follow mode fails closed.
    expect(result.stderr).toMatch(/hook-main\.cjs did not load/);
    expect(result.stdout).toContain('"deny"');
  });
});

describe("picomatch in the bundles: loaded on its first call (scripts/hook-shims/lazy-picomatch.cjs)", () => {
  const CORE_SRC = join(REPO_ROOT, "packages/core/src");
  const shimFile = join(REPO_ROOT, "scripts/hook-shims/lazy-picomatch.cjs");

  it("core calls it as a function and through isMatch only, what the shim forwards", () => {
    const users = readdirSync(CORE_SRC, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .map((file) => readFileSync(join(CORE_SRC, file), "utf8"))
      .filter((source) => /^import picomatch from "picomatch";$/m.test(source));
    expect(users.length).toBeGreaterThan(0);
    for (const source of users) {
      const code = source
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "")
        .replace(/^import picomatch from "picomatch";$/m, "");
      for (const use of code.matchAll(/\bpicomatch\b(\.\w+)?/g))
        expect([undefined, ".isMatch"]).toContain(use[1]);
      expect(code).not.toMatch(/\bpicomatch\b(?!\(|\.isMatch\()/);
    }
  });

  it("answers as the library does, and loads it only when first called", () => {
    // Evaluated as the bundle does: its require resolves from core, which depends on picomatch.
    const from = createRequire(join(REPO_ROOT, "packages/core/package.json"));
    const required: string[] = [];
    const module = { exports: {} as unknown };
    const wrapped = `(function (module, exports, require) {${readFileSync(shimFile, "utf8")}\n})`;
    (runInThisContext(wrapped) as (...args: unknown[]) => void)(
      module,
      module.exports,
      (name: string) => {
        required.push(name);
        return from(name) as unknown;
      },
    );
    type Picomatch = ((glob: string) => (path: string) => boolean) & {
      isMatch(path: string, glob: string): boolean;
    };
    const shim = module.exports as Picomatch;
    expect(required).toEqual([]);
    const library = from("picomatch") as Picomatch;
    for (const [path, glob] of [
      ["tests/test_calc.py", "tests/**/*.py"],
      ["src/.hidden.py", "src/*.py"],
      ["a/b.spec.ts", "**/*.test.ts"],
    ] as const) {
      expect(shim(glob)(path)).toBe(library(glob)(path));
      expect(shim.isMatch(path, glob)).toBe(library.isMatch(path, glob));
    }
    expect(required).toEqual(["picomatch"]);
  });
});
