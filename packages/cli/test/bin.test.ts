import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { commitAll, copyFixture, makeProject, REPO_ROOT, runBin } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");
const VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, "packages/cli/package.json"), "utf8")) as {
    version: string;
  }
).version;

describe("tailtest bin", () => {
  it("is built", () => {
    expect(existsSync(BIN), "run the build first (pnpm test does)").toBe(true);
    expect(readFileSync(BIN, "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
  });

  it("--version prints the package version", async () => {
    const result = await runBin(BIN, ["--version"]);
    expect(result).toEqual({ stdout: VERSION, stderr: "", exitCode: 0 });
  });

  it("--help lists the commands", async () => {
    const result = await runBin(BIN, ["--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("Usage: tailtest [options] [command]");
    expect(result.stdout).toContain("explain [options] <files...>");
  });

  it("an unknown command is a usage error on stderr with exit code 2", async () => {
    const result = await runBin(BIN, ["frobnicate"]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it("explain does not ask for a test of a file's own name when other tests cover it", async () => {
    // Python-Markdown: nl2br has no tests/test_nl2br.py; test_toc.py imports its extension.
    const project = copyFixture("projects/markdown");
    try {
      await commitAll(project.root);
      const result = await runBin(BIN, ["explain", "markdown/extensions/nl2br.py"], {
        cwd: project.root,
      });
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain(
        "  test    none named after it (the related tests below cover it)",
      );
      expect(result.stdout).toContain(
        "  related tests/test_syntax/extensions/test_toc.py (imports: imports it)",
      );
      expect(result.stdout).not.toContain("(to write)");
      // No place is made up for a test nobody asks for (the project's are not in tests/).
      expect(result.stdout).not.toContain("tests/test_nl2br.py");
      // A new extension: its first test goes where the project keeps its extensions' tests,
      // and the test row says the same as the note.
      project.write("markdown/extensions/strike.py", "def strike(text):\n    return text\n");
      const added = await runBin(BIN, ["explain", "markdown/extensions/strike.py"], {
        cwd: project.root,
      });
      expect(added.stdout).toContain(
        "  test    tests/test_syntax/extensions/test_strike.py (to write)",
      );
      expect(added.stdout).toContain(
        "write test to tests/test_syntax/extensions/test_strike.py. runner: unittest.",
      );
    } finally {
      project.cleanup();
    }
  });

  it("explain on a Go program no test reaches: built at the end of a turn, a test asked for", async () => {
    const project = copyFixture("runners/go");
    try {
      project.write("cmd/tool/main.go", "package main\n\nfunc main() {}\n");
      await commitAll(project.root);
      const result = await runBin(BIN, ["explain", "cmd/tool/main.go"], { cwd: project.root });
      expect(result.stdout).toContain(
        "  related cmd/tool/main.go (self: go test compiles its package)",
      );
      expect(result.stdout).toContain("write test to cmd/tool/main_test.go. runner: go test.");
      expect(result.stdout).not.toContain("covered by existing tests");
    } finally {
      project.cleanup();
    }
  });

  it("explain shows the core's decision for each file", async () => {
    const project = copyFixture("runners/monorepo");
    try {
      project.write(".tailtest/config.json", '{"depth": "simple"}');
      project.write(
        "services/billing/invoice.py",
        "import httpx\n\ndef total(lines):\n    return sum(lines)\n",
      );
      const result = await runBin(
        BIN,
        ["explain", "services/billing/invoice.py", "packages/web/src/calc.test.ts", "README.md"],
        {
          cwd: project.root,
        },
      );
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain(
        "services/billing/invoice.py\n  verdict queue: python source\n  status  new (not tracked by git)",
      );
      expect(result.stdout).toContain(
        "  runner  pytest (pyproject.toml [tool.pytest] in services/billing/): python3 -m pytest",
      );
      expect(result.stdout).toContain(
        "  test    services/billing/tests/test_invoice.py (to write)",
      );
      expect(result.stdout).toContain(
        "  note    tailtest: services/billing/invoice.py queued (new, python). write test to services/billing/tests/test_invoice.py. runner: pytest. Complexity: standard (invoice: +4 billing +3 HTTP +1 functions = 8 scenarios). Generate ~8 scenarios.",
      );
      expect(result.stdout).toContain(
        "packages/web/src/calc.test.ts\n  verdict run (test): a typescript test file (by name); not queued, the end of a turn runs the tests below",
      );
      // README.md is not in this fixture: explain says so before what it would do.
      expect(result.stdout).toContain(
        "README.md\n  warning this file does not exist; below is what tailtest would do if it did\n  verdict skip (docs): documentation",
      );
      expect(result.stdout).toContain(
        "  depth   standard, raised by complexity (score 8: +4 billing +3 HTTP +1 functions; ~8 scenarios)",
      );
      // explain only looks: it queues nothing.
      expect(existsSync(join(project.root, ".tailtest/session.json"))).toBe(false);
    } finally {
      project.cleanup();
    }
  });

  it("explain on a file that does not exist says so, then what tailtest would do if it did", async () => {
    const project = copyFixture("runners/go");
    try {
      const result = await runBin(BIN, ["explain", "nowhere.go"], { cwd: project.root });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain(
        "nowhere.go\n  warning this file does not exist; below is what tailtest would do if it did\n  verdict queue:",
      );
      const json = await runBin(BIN, ["explain", "--json", "nowhere.go", "calc.go"], {
        cwd: project.root,
      });
      const parsed = JSON.parse(json.stdout) as { files: { exists: boolean }[] };
      expect(parsed.files.map((file) => file.exists)).toEqual([false, true]);
    } finally {
      project.cleanup();
    }
  });

  it("run --timeout with a bad value is a usage error: exit 2, one line, nothing run", async () => {
    const project = copyFixture("runners/go");
    try {
      for (const value of ["x", "0", "-5"]) {
        const result = await runBin(BIN, ["run", "--timeout", value, "calc.go"], {
          cwd: project.root,
        });
        expect(result.exitCode).toBe(2);
        expect(result.stderr).toBe(
          `tailtest: --timeout must be a positive number of seconds (got ${value})`,
        );
        expect(result.stdout).toBe("");
      }
    } finally {
      project.cleanup();
    }
  });

  it("explain --json is machine-readable", async () => {
    const project = copyFixture("runners/go");
    try {
      const result = await runBin(BIN, ["explain", "--json", "calc.go"], { cwd: project.root });
      const parsed = JSON.parse(result.stdout) as {
        files: { path: string; runner: { id: string }; target: { path: string } }[];
        selection_ms: unknown;
        selection_cpu_ms: unknown;
      };
      expect(parsed.files[0]).toMatchObject({
        path: "calc.go",
        runner: { id: "go" },
        target: { path: "calc_test.go" },
      });
      // The selection's cost, as wall and CPU time (bench/selection-scale.mjs judges the CPU).
      for (const cost of [parsed.selection_ms, parsed.selection_cpu_ms]) {
        expect(Number.isInteger(cost)).toBe(true);
        expect(cost).toBeGreaterThanOrEqual(0);
      }
    } finally {
      project.cleanup();
    }
  });

  it("run --dry-run shows the build a run of tsc's output makes first", async () => {
    const project = makeProject({
      "package.json": JSON.stringify({
        name: "stubs",
        scripts: { build: "tsc", test: "mocha lib" },
        devDependencies: { mocha: "^11", typescript: "^5" },
      }),
      "tsconfig.json": JSON.stringify({ compilerOptions: { rootDir: "src", outDir: "lib" } }),
      ".mocharc.json": '{ "recursive": true }',
      "src/main.ts": "export const one = 1;\n",
      "src/test/main_test.ts": 'import { one } from "../main.js";\n',
    });
    try {
      const result = await runBin(BIN, ["run", "--dry-run", "src/test/main_test.ts"], {
        cwd: project.root,
      });
      expect(result.stdout.split("\n")[0]).toMatch(/ lib\/test\/main_test\.js$/);
      expect(result.stdout.split("\n").slice(1)).toEqual([
        "  built first: tsc -p tsconfig.json",
        "  src/test/main_test.ts",
      ]);
    } finally {
      project.cleanup();
    }
  });

  it("run --dry-run shows the plan and runs nothing", async () => {
    const project = copyFixture("runners/monorepo");
    try {
      project.write("services/billing/invoice.py", "def total():\n    return 1\n");
      const result = await runBin(
        BIN,
        [
          "run",
          "--dry-run",
          "services/billing/calc.py",
          "services/billing/invoice.py",
          "packages/web/src/calc.ts",
          "README.md",
        ],
        { cwd: project.root },
      );
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(
        [
          "pytest in services/billing: python3 -m pytest -o junit_family=xunit1 --junitxml=<report> --continue-on-collection-errors tests/test_calc.py",
          "  services/billing/tests/test_calc.py",
          "vitest in packages/web: npx --no-install vitest run --coverage.enabled=false --reporter=json --outputFile=<report> src/calc.test.ts",
          "  packages/web/src/calc.test.ts",
          "missing test: services/billing/invoice.py (expected services/billing/tests/test_invoice.py)",
          "skipped: README.md (documentation)",
        ].join("\n"),
      );
      expect(existsSync(join(project.root, "services/billing/.pytest_cache"))).toBe(false);
    } finally {
      project.cleanup();
    }
  });

  it("run without paths runs the queued files of the session", async () => {
    const project = copyFixture("runners/pytest-pyproject");
    try {
      project.write(
        ".tailtest/session.json",
        JSON.stringify({
          version: 1,
          session_id: "s1",
          started_at: "2026-11-23T10:00:00.000Z",
          depth: "standard",
          mode: "follow",
          paused: false,
          runners: [],
          pending_files: [{ path: "calc.py", language: "python", status: "existing" }],
          touched_files: ["calc.py"],
          fix_attempts: {},
          generated_tests: {},
          deferred_failures: [],
          complexity_scores: {},
          results: {},
          scenario_log: [],
          last_failures: [],
          notices_shown: [],
        }),
      );
      const result = await runBin(BIN, ["run", "--dry-run"], { cwd: project.root });
      expect(result.stdout.split("\n")[0]).toBe(
        "pytest in .: python3 -m pytest -o junit_family=xunit1 --junitxml=<report> --continue-on-collection-errors tests/test_calc.py",
      );
      const real = await runBin(BIN, ["run"], { cwd: project.root });
      expect(real.exitCode).toBe(1);
      // The line that failed, pytest's E lines and where, not the test's first lines.
      expect(real.stdout).toContain(
        [
          "FAIL tests/test_calc.py::test_fails_on_purpose",
          "  >       assert add(2, 2) == 5",
          "  E       assert 4 == 5",
          "  E        +  where 4 = add(2, 2)",
          "  tests/test_calc.py:10: AssertionError",
        ].join("\n"),
      );
      expect(real.stdout.trimEnd().endsWith("tailtest: failed")).toBe(true);
    } finally {
      project.cleanup();
    }
  }, 60_000);
});

/** Runs the bin with its stdout pipe closed before it writes: a reader that stopped at once. */
async function runWithClosedStdout(
  args: readonly string[],
  cwd: string,
): Promise<{ exitCode: number | null; signal: string | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  // A command that never notices would hang (watch): it is killed, and the test says so.
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const [exitCode, signal] = await new Promise<[number | null, string | null]>((resolve) =>
    child.on("close", (code, sig) => resolve([code, sig])),
  );
  clearTimeout(timer);
  return { exitCode, signal, stderr };
}

describe("a reader that stops reading (tailtest status --help | head -1)", () => {
  it.each([
    [["--help"]],
    [["status", "--help"]],
    [["status"]],
    [["history"]],
    [["explain", "calc.py"]],
    [["doctor"]],
    [["tdd", "status"]],
    [["strict", "status"]],
    [["run", "--dry-run", "calc.py"]],
    // A failing test run exits 1 for a reader; one that stopped reading gets 0.
    [["run", "calc.py"]],
    // Watch stops as on SIGTERM: the session is flushed, the process ends.
    [["watch", "--debounce", "50"]],
  ])(
    "%j ends quietly with exit code 0",
    async (args) => {
      const project = copyFixture("runners/pytest-pyproject");
      try {
        const result = await runWithClosedStdout(args, project.root);
        expect(result).toEqual({
          exitCode: 0,
          signal: null,
          stderr: args[0] === "run" && args[1] !== "--dry-run" ? "running pytest in .\n" : "",
        });
      } finally {
        project.cleanup();
      }
    },
    60_000,
  );
});
