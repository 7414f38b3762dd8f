import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitAll, makeProject, REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * What a person waits for on every call (bench/cli.mjs measures it, ADR 0010): the published bin
 * is CommonJS (no ES module loader in the process), and a command that prints one screen to a
 * pipe loads none of node's streams, sockets or child processes.
 */

const CLI = join(REPO_ROOT, "packages/cli");
const manifest = JSON.parse(readFileSync(join(CLI, "package.json"), "utf8")) as {
  version: string;
  bin: Record<string, string>;
  files: string[];
};
const BIN = join(CLI, manifest.bin["tailtest"] ?? "");

/**
 * The node modules the bin loaded beyond what `node -e 0` loads, stdout a pipe (or `/dev/null`,
 * a character device that is no terminal).
 */
function builtinsLoaded(args: string[], cwd: string, stdout: "pipe" | "null" = "pipe"): string[] {
  // The list goes to fd 3, so the command's own output, into a pipe as for `| less`, stays out.
  const dump = `process.on("exit", () => require("node:fs").writeSync(3, JSON.stringify(process.moduleLoadList)));`;
  const into = stdout === "pipe" ? "| cat >/dev/null" : ">/dev/null";
  const loaded = (argv: string[]): string[] =>
    JSON.parse(
      execFileSync("bash", ["-c", `exec 4>&1; "$0" "$@" 3>&4 ${into}`, process.execPath, ...argv], {
        cwd,
        env: { ...process.env, NODE_OPTIONS: "" },
        encoding: "utf8",
      }),
    ) as string[];
  const before = new Set(loaded(["-e", dump]));
  // `node -e` leaves the arguments after the code in process.argv from index 1, as a bin has them.
  const run = `${dump} require(process.argv[1]);`;
  return loaded(["-e", run, BIN, ...args]).filter((name) => !before.has(name));
}

/** Modules a one-screen command must not load: node's streams, sockets, child processes. */
const HEAVY = /^NativeModule (child_process|net|stream|fs\/promises|tty|dgram)$/;

describe("the published tailtest bin", () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject({
      ".tailtest/config.json": "{}\n",
      "calc.py": "def add(a, b):\n    return a + b\n",
    });
  });
  afterAll(() => project.cleanup());

  it("is the CommonJS launcher, packed, and answers --version", async () => {
    expect(manifest.bin["tailtest"]).toBe("./dist/tailtest.cjs");
    expect(manifest.files).toContain("dist/tailtest.cjs");
    expect(readFileSync(BIN, "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
    const result = await runBin(BIN, ["--version"]);
    expect(result).toEqual({ stdout: manifest.version, stderr: "", exitCode: 0 });
  });

  it.each([["--help"], ["status"], ["status", "--json"]])(
    "%s loads no stream, socket or child process module",
    (...args) => {
      // Twice: the first call of a command writes its code cache.
      builtinsLoaded(args, project.root);
      const heavy = builtinsLoaded(args, project.root).filter((name) => HEAVY.test(name));
      expect(heavy).toEqual([]);
    },
  );

  it("status with its output at /dev/null loads no tty, stream or socket module", () => {
    builtinsLoaded(["status"], project.root, "null");
    const loaded = builtinsLoaded(["status"], project.root, "null");
    expect(loaded.filter((name) => HEAVY.test(name))).toEqual([]);
  });

  it("explain with its output at /dev/null loads no tty", () => {
    // This project has no import graph yet: git's child_process brings net and the streams.
    builtinsLoaded(["explain", "calc.py"], project.root, "null");
    const loaded = builtinsLoaded(["explain", "calc.py"], project.root, "null");
    expect(loaded.filter((name) => EXPLAIN_HEAVY.test(name))).toEqual([]);
  });

  it("explain with no import graph yet asks git, and loads neither crypto, perf_hooks nor a tty", () => {
    builtinsLoaded(["explain", "calc.py"], project.root);
    const loaded = builtinsLoaded(["explain", "calc.py"], project.root);
    expect(loaded).toContain("NativeModule child_process");
    expect(loaded.filter((name) => EXPLAIN_HEAVY.test(name))).toEqual([]);
  });

  it("explain of a tracked file the import graph answers starts no process", async () => {
    const tracked = makeProject({
      ".tailtest/config.json": "{}\n",
      "calc.py": "def add(a, b):\n    return a + b\n",
    });
    try {
      await commitAll(tracked.root);
      // A plan for a source file builds the graph, as the end of a turn does.
      const plan = await runBin(BIN, ["run", "--dry-run", "calc.py"], { cwd: tracked.root });
      expect(plan.stdout).toContain("missing test: calc.py");
      builtinsLoaded(["explain", "calc.py"], tracked.root);
      const loaded = builtinsLoaded(["explain", "calc.py"], tracked.root);
      expect(loaded.filter((name) => HEAVY.test(name) || EXPLAIN_HEAVY.test(name))).toEqual([]);
      const explain = await runBin(BIN, ["explain", "calc.py"], { cwd: tracked.root });
      expect(explain.stdout).toContain("existing (tracked by git)");
    } finally {
      tracked.cleanup();
    }
  });

  it("status and explain run from their own bundles, without the whole command's", async () => {
    const alone = mkdtempSync(join(tmpdir(), "tailtest-own-bundles-"));
    try {
      for (const file of ["tailtest.cjs", "tailtest-status.cjs", "tailtest-explain.cjs"])
        copyFileSync(join(CLI, "dist", file), join(alone, file));
      const bin = join(alone, "tailtest.cjs");
      const status = await runBin(bin, ["status"], { cwd: project.root });
      expect(status.stderr).toBe("");
      expect(status.stdout).toContain("mode");
      const explain = await runBin(bin, ["explain", "calc.py"], { cwd: project.root });
      expect(explain.stderr).toBe("");
      expect(explain.stdout).toContain("verdict queue: python source");
      // The own bundle holds its command's options, not the others'.
      const statusHelp = await runBin(bin, ["status", "--help"], { cwd: project.root });
      expect(statusHelp.stdout).toContain("Usage: tailtest status [options]");
      expect(readFileSync(join(alone, "tailtest-status.cjs"), "utf8")).not.toContain("--dry-run");
      // Their schemas are zod/mini: classic zod's instances carry every method, built at start.
      for (const file of ["tailtest-status.cjs", "tailtest-explain.cjs"])
        expect(readFileSync(join(alone, file), "utf8")).not.toContain('"ZodString"');
      // Anything else needs the whole command.
      const other = await runBin(bin, ["history"], { cwd: project.root });
      expect(other.exitCode).not.toBe(0);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });
});

/** What `explain` must not load: node's crypto (and its streams), perf_hooks, a terminal's tty. */
const EXPLAIN_HEAVY = /^NativeModule (crypto|perf_hooks|tty|fs\/promises)$/;
