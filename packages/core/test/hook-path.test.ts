import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { loadPayload, makeProject, REPO_ROOT, type TempProject } from "@tailtest/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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

/**
 * Every workspace module reached from `entry` by static imports: what a bundle evaluates as
 * soon as it loads (`import()` targets are evaluated only when called; `import type` never).
 */
function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() ?? "";
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    const imports = source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+"([^"]+)";/gms);
    for (const [, specifier = ""] of imports) {
      const target = specifier.startsWith(".")
        ? resolve(dirname(file), specifier)
        : workspaceEntry(specifier);
      if (target !== undefined) queue.push(target);
    }
  }
  return seen;
}

const HOT = (adapter: Adapter) => join(REPO_ROOT, "adapters", adapter, "src/hook-main.ts");
/** What only some modes or events need: loaded by `import()` where a call needs it. */
const COLD = [
  /packages\/core\/src\/index\.ts$/,
  /packages\/core\/src\/node\/index\.ts$/,
  /packages\/core\/src\/(tdd|strict|parsers)\//,
  /packages\/core\/src\/node\/(tdd-|strict-|shell|execute|verify|lifecycle|sweep|plan-review|setup-io)/,
  /packages\/core\/src\/(plan|summarize|results|doctor|hook-groups|script-writes|inline-script)\.ts$/,
];
/** The Claude Code hook answers a call Cursor makes through Cursor's adapter, loaded for it. */
const COLD_FOR: Partial<Record<Adapter, RegExp[]>> = {
  "claude-code": [/adapters\/cursor\/src\//],
};

describe("a hook call evaluates only what every call needs", () => {
  it.each(ADAPTERS)(
    "%s: no mode's, runner's or parser's module is imported statically",
    (adapter) => {
      const graph = [...staticGraph(HOT(adapter))].map((file) => file.slice(REPO_ROOT.length + 1));
      const patterns = [...COLD, ...(COLD_FOR[adapter] ?? [])];
      const cold = graph.filter((file) => patterns.some((pattern) => pattern.test(file)));
      expect(cold).toEqual([]);
      // The graph is read for real: the modules every call needs are in it.
      expect(graph).toEqual(
        expect.arrayContaining([
          "packages/core/src/node/handle.ts",
          "packages/core/src/node/store.ts",
          "packages/core/src/session.ts",
        ]),
      );
    },
  );

  it("the schemas a hook reads on every call are zod/mini's", () => {
    const graph = new Set(ADAPTERS.flatMap((adapter) => [...staticGraph(HOT(adapter))]));
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
    for (const route of ["pre", "post", "shell", "other"])
      expect(caches, route).toContainEqual(
        `hook-main.${stamp}-${process.versions.v8}-${process.arch}-${route}.cache`.replace(
          /[^\w.-]/g,
          "_",
        ),
      );
  });
});

const ALLOWED_BUILTINS =
  /^(NativeModule (vm|v8|internal\/heap_utils|internal\/promise_hooks)|Internal Binding (signal_wrap|v8|serdes|profiler|heap_utils|internal_only_v8))$/;

/** The node modules a whole hook process loaded beyond what `node -e 0` loads. */
function builtinsLoaded(bin: string, stdin: string, root: string): string[] {
  // The list goes to fd 3, so the hook's own answer on stdout stays out of it.
  const dump = `process.on("exit", () => require("node:fs").writeSync(3, JSON.stringify(process.moduleLoadList)));`;
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
      // signal_wrap is the lock's clean-up on a signal (proper-lockfile).
      expect(extra.filter((name) => !ALLOWED_BUILTINS.test(name))).toEqual([]);
      expect(extra).toContain("NativeModule vm");
    },
  );
});
