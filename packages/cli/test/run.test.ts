import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  copyFixture,
  copyFixtureWithDeps,
  findToolchain,
  REPO_ROOT,
  RUNNER_FIXTURES,
  runBin,
  type RunnerFixture,
} from "@tailtest/test-utils";
import {
  CURSOR_SESSION_PATH,
  inspectEdit,
  openProject,
  queueEdit,
  sessionFile,
} from "@tailtest/core/node";
import { describe, expect, it } from "vitest";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");

interface RunJson {
  status: string;
  runs: {
    runner: string;
    command: string[];
    status: string;
    reason: string;
    tests: {
      id: { runner: string; file: string; segments: string[] };
      status: string;
      failure?: string;
    }[];
    errors: { file?: string; kind: string; message: string }[];
  }[];
  missing: { source: string; expected_test: string }[];
}

/** The command each runner needs on this machine; these must really run in CI. */
const MUST_RUN: Readonly<Record<string, string>> = {
  pytest: "python3",
  unittest: "python3",
  vitest: "node",
  jest: "node",
  mocha: "node",
  ava: "node",
  uvu: "node",
  jasmine: "node",
  tap: "node",
  tape: "node",
  "node-test": "node",
  cargo: "cargo",
  go: "go",
  bun: "bun",
  deno: "deno",
};

/** "test_adds_two_numbers", "TestAddsTwoNumbers" and "adds two numbers" are the same test. */
const squash = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z]/g, "")
    .replace(/^test/, "");

async function runTailtest(fixture: RunnerFixture, args: readonly string[]) {
  const project = copyFixtureWithDeps(`runners/${fixture.dir}`);
  const tool = findToolchain(MUST_RUN[fixture.runner] ?? fixture.runner);
  try {
    const result = await runBin(BIN, ["run", "--json", ...args], {
      cwd: project.root,
      env: tool.path === undefined ? {} : { PATH: tool.path },
    });
    return { result, json: JSON.parse(result.stdout) as RunJson, project };
  } finally {
    project.cleanup();
  }
}

describe("tailtest run on every fixture project", () => {
  it("is built", () => expect(existsSync(BIN)).toBe(true));

  it.each(RUNNER_FIXTURES.map((fixture) => [fixture.dir, fixture] as const))(
    "%s",
    async (_dir, fixture) => {
      const needed = MUST_RUN[fixture.runner];
      const tool = needed === undefined ? undefined : findToolchain(needed);
      if (tool !== undefined && !tool.available) {
        // Printed so a skipped runner is visible in the CI log.
        console.warn(`skipping the real ${fixture.runner} run: ${tool.reason}`);
        return;
      }
      const { result, json } = await runTailtest(fixture, [fixture.source]);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const run = json.runs[0]!;
      expect(json.runs).toHaveLength(1);
      expect(run.runner).toBe(fixture.runner);
      if (needed === undefined) {
        // Toolchains this machine cannot install: the run must still end in a clear error (the
        // runner missing altogether is an environment error, never a red test).
        expect(["error", "failed", "env_error"]).toContain(run.status);
        expect(run.reason).not.toBe("");
        expect([1, 3]).toContain(result.exitCode);
        return;
      }
      expect(run.status, `${run.reason}\n${JSON.stringify(run.errors)}`).toBe("failed");
      expect(result.exitCode).toBe(1);
      const byName = Object.fromEntries(
        run.tests.map((test) => [squash(test.id.segments.at(-1) ?? ""), test]),
      );
      // uvu names only its failing tests: a pass is its place in the suite ("#1").
      const passing = fixture.runner === "uvu" ? squash("#1") : "addstwonumbers";
      expect(byName[passing]?.status).toBe("pass");
      expect(byName["failsonpurpose"]?.status).toBe("fail");
      expect(byName["failsonpurpose"]?.failure ?? "").toMatch(/5|4/);
      for (const test of run.tests) {
        expect(test.id.file.startsWith("/"), test.id.file).toBe(false);
        expect(test.id.runner).toBe(fixture.runner);
      }
    },
    240_000,
  );
});

describe("tailtest run <test file>", () => {
  it("runs the named test file by its own runner, with no selection or import graph", async () => {
    const project = copyFixture("runners/node-test");
    try {
      // A second test file that imports the same module: selection would not run it for a test
      // file, and running the named file directly must not either.
      project.write(
        "test/other.test.js",
        'import { test } from "node:test";\nimport "../src/calc.js";\ntest("other", () => {});\n',
      );
      project.write(".tailtest/config.json", "{}\n");
      const result = await runBin(BIN, ["run", "--json", "test/calc.test.js"], {
        cwd: project.root,
      });
      const json = JSON.parse(result.stdout) as RunJson;
      expect(json.runs.map((run) => run.runner)).toEqual(["node-test"]);
      expect(new Set(json.runs[0]!.tests.map((test) => test.id.file))).toEqual(
        new Set(["test/calc.test.js"]),
      );
      expect(result.exitCode).toBe(1);
      expect(existsSync(join(project.root, ".tailtest/graph/index.json"))).toBe(false);
      // The run is still recorded for status and the report.
      expect(existsSync(join(project.root, ".tailtest/runs.json"))).toBe(true);
      // A source file still goes through selection, which keeps the import graph.
      const source = await runBin(BIN, ["run", "--json", "src/calc.js"], { cwd: project.root });
      expect(source.exitCode).toBe(1);
      expect(existsSync(join(project.root, ".tailtest/graph/index.json"))).toBe(true);
    } finally {
      project.cleanup();
    }
  }, 120_000);
});

describe("tailtest run on a mocha project whose .mocharc declares spec", () => {
  // fixtures/runners/mocha's .mocharc.json has spec test/**/*.test.js; mocha adds a config's spec
  // to the files on the command line. A JS config (mocha runs it) keeps its other options: here a
  // setup file the chosen test checks for.
  const JS_CONFIG =
    'module.exports = { spec: ["test/**/*.test.js"], require: ["./test/setup.cjs"], timeout: 5000 };\n';
  it.each([
    [".mocharc.json", undefined],
    [".mocharc.js", JS_CONFIG],
    [".mocharc.cjs", JS_CONFIG],
  ])(
    "%s: runs only the chosen files, not the config's whole spec",
    async (name, text) => {
      const tool = findToolchain("node");
      if (!tool.available) return;
      const project = copyFixtureWithDeps("runners/mocha");
      try {
        project.write(
          "test/other.test.js",
          'const assert = require("node:assert");\nit("is red elsewhere", () => assert.fail("no"));\n',
        );
        if (text !== undefined) {
          rmSync(join(project.root, ".mocharc.json"));
          project.write(name, text);
          project.write("test/setup.cjs", "globalThis.setupRan = true;\n");
          const test = join(project.root, "test/calc.test.js");
          writeFileSync(
            test,
            `${readFileSync(test, "utf8")}\nit("ran the config's setup", () => require("node:assert").ok(globalThis.setupRan));\n`,
          );
        }
        project.write(".tailtest/config.json", "{}\n");
        const result = await runBin(BIN, ["run", "--json", "src/calc.js"], { cwd: project.root });
        const json = JSON.parse(result.stdout) as RunJson;
        const tests = json.runs.flatMap((run) => run.tests);
        expect(new Set(tests.map((test) => test.id.file))).toEqual(new Set(["test/calc.test.js"]));
        // The fixture's own red test fails; with a JS config, the setup its require ran passes.
        const passed = tests.filter((test) => test.status === "pass");
        expect(passed.map((test) => test.id.segments.at(-1)).sort()).toEqual(
          text === undefined
            ? ["adds two numbers"]
            : ["adds two numbers", "ran the config's setup"],
        );
      } finally {
        project.cleanup();
      }
    },
    120_000,
  );
});

describe("tailtest run on a mocha project whose test script requires a setup module", () => {
  // hexo: `mocha test/scripts/**/*.ts --require ts-node/register`, no rc file: a run of chosen
  // files without the script's --require could not load one TypeScript test.
  it("runs the chosen files with the script's --require", async () => {
    const tool = findToolchain("node");
    if (!tool.available) return;
    const project = copyFixtureWithDeps("runners/mocha");
    try {
      const pkg = JSON.parse(readFileSync(join(project.root, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      };
      pkg.scripts["test"] = "mocha --require ./test/setup.cjs --check-leaks";
      project.write("package.json", `${JSON.stringify(pkg, null, 2)}\n`);
      project.write("test/setup.cjs", "globalThis.setupRan = true;\n");
      const test = join(project.root, "test/calc.test.js");
      writeFileSync(
        test,
        `${readFileSync(test, "utf8")}\nit("ran the script's setup", () => require("node:assert").ok(globalThis.setupRan));\n`,
      );
      project.write(".tailtest/config.json", "{}\n");
      const result = await runBin(BIN, ["run", "--json", "src/calc.js"], { cwd: project.root });
      const json = JSON.parse(result.stdout) as RunJson;
      const passed = json.runs.flatMap((run) => run.tests).filter((t) => t.status === "pass");
      expect(passed.map((t) => t.id.segments.at(-1)).sort()).toEqual([
        "adds two numbers",
        "ran the script's setup",
      ]);
    } finally {
      project.cleanup();
    }
  }, 120_000);
});

describe("tailtest run with the options and variables the test script gives its runner", () => {
  // jest-extended (`jest --color=true`) and vitest-axe (`cross-env FORCE_COLOR=2 vitest`) keep
  // snapshots of coloured messages: a run without the script's colours is red whatever the edit.
  it.each([
    [
      "jest",
      "TAILTEST_SCRIPT_VAR=set jest --color=true",
      "src/calc.test.js",
      // jest colours a failure message only when told to: its output is not a terminal here.
      'test("sees the script", () => {\n  expect(process.env.TAILTEST_SCRIPT_VAR).toBe("set");\n  expect(() => expect(1).toBe(2)).toThrow(/\\u001b\\[/);\n});\n',
    ],
    [
      "vitest",
      "TAILTEST_SCRIPT_VAR=set vitest run",
      "src/calc.test.ts",
      'it("sees the script", () => {\n  expect(process.env.TAILTEST_SCRIPT_VAR).toBe("set");\n});\n',
    ],
  ])(
    "%s",
    async (runner, script, file, extra) => {
      const tool = findToolchain("node");
      if (!tool.available) return;
      const project = copyFixtureWithDeps(`runners/${runner}`);
      try {
        const pkg = JSON.parse(readFileSync(join(project.root, "package.json"), "utf8")) as {
          scripts: Record<string, string>;
        };
        pkg.scripts["test"] = script;
        project.write("package.json", JSON.stringify(pkg, null, 2));
        const test = join(project.root, file);
        writeFileSync(test, `${readFileSync(test, "utf8")}\n${extra}`);
        project.write(".tailtest/config.json", "{}\n");
        const result = await runBin(BIN, ["run", "--json", file], { cwd: project.root });
        const json = JSON.parse(result.stdout) as RunJson;
        const seen = json.runs
          .flatMap((run) => run.tests)
          .find((t) => t.id.segments.at(-1) === "sees the script");
        expect(seen?.status, seen?.failure).toBe("pass");
      } finally {
        project.cleanup();
      }
    },
    120_000,
  );
});

describe("tailtest run with no paths", () => {
  it("runs what any agent queued, Cursor's queue included", async () => {
    const project = copyFixtureWithDeps("runners/pytest-pyproject");
    try {
      const opened = openProject(project.root, { sessionPath: CURSOR_SESSION_PATH });
      await queueEdit(
        opened,
        inspectEdit(opened, "calc.py", { status: "existing" }),
        sessionFile(opened),
      );
      const result = await runBin(BIN, ["run", "--dry-run", "--json"], { cwd: project.root });
      const plan = JSON.parse(result.stdout) as { runs: { sources: Record<string, string> }[] };
      expect(plan.runs.flatMap((run) => Object.keys(run.sources))).toEqual(["calc.py"]);
    } finally {
      project.cleanup();
    }
  });
});

/** Debian's python3 when it has pytest-cov (`.ci/run` installs python3-pytest-cov), else why not. */
function pythonWithPytestCov(): { python?: string; reason: string } {
  for (const python of ["/usr/bin/python3", "python3"]) {
    const probe = spawnSync(python, ["-c", "import pytest, pytest_cov"], { stdio: "ignore" });
    if (probe.status === 0) return { python, reason: "" };
  }
  return { reason: "no python3 with pytest-cov here (Debian: python3-pytest-cov)" };
}

describe("tailtest run under pytest-cov's --cov-fail-under", () => {
  it("runs one test file green where the config's coverage bar fails any part of the suite", async () => {
    const { python, reason } = pythonWithPytestCov();
    if (python === undefined) {
      console.warn(`skipping the pytest-cov run: ${reason}`);
      return;
    }
    const project = copyFixture("runners/pytest-pyproject");
    try {
      // Two functions, each with its test file: one test file alone covers half the module.
      project.write(
        "pyproject.toml",
        readFileSync(join(project.root, "pyproject.toml"), "utf8").replace(
          'pythonpath = ["."]',
          'pythonpath = ["."]\naddopts = "--cov=ops --cov-fail-under=100"',
        ),
      );
      project.write("ops.py", "def mul(a, b):\n    return a * b\n\n\ndef neg(a):\n    return -a\n");
      project.write(
        "tests/test_mul.py",
        "from ops import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n",
      );
      project.write(
        "tests/test_neg.py",
        "from ops import neg\n\n\ndef test_neg():\n    assert neg(2) == -2\n",
      );
      execFileSync(python, ["-m", "venv", "--system-site-packages", ".venv"], {
        cwd: project.root,
      });
      // Without tailtest: the one file's test passes, and pytest exits 1 on the coverage bar.
      const venvPython = join(project.root, ".venv", "bin", "python");
      const direct = spawnSync(venvPython, ["-m", "pytest", "tests/test_mul.py"], {
        cwd: project.root,
        encoding: "utf8",
      });
      expect(direct.status).toBe(1);
      expect(direct.stdout).toMatch(/Required test coverage of 100% not reached/);
      const result = await runBin(BIN, ["run", "--json", "tests/test_mul.py"], {
        cwd: project.root,
      });
      const json = JSON.parse(result.stdout) as RunJson;
      expect(json.runs[0]?.command).toContain("--no-cov");
      expect(json.runs[0]?.status, JSON.stringify(json.runs[0]?.errors)).toBe("passed");
      expect(json.runs[0]?.tests.map((test) => test.status)).toEqual(["pass"]);
      expect(result.exitCode).toBe(0);
    } finally {
      project.cleanup();
    }
  }, 120_000);
});

describe("tailtest run under a vitest config that turns coverage on", () => {
  it("reads each test's result where vitest alone stops for a coverage provider not installed", async () => {
    const project = copyFixtureWithDeps("runners/vitest");
    try {
      project.write(
        "vitest.config.ts",
        'import { defineConfig } from "vitest/config";\n\nexport default defineConfig({\n  test: { coverage: { enabled: true, provider: "v8", thresholds: { lines: 100 } } },\n});\n',
      );
      const result = await runBin(BIN, ["run", "--json", "src/calc.test.ts"], {
        cwd: project.root,
      });
      const json = JSON.parse(result.stdout) as RunJson;
      expect(json.runs[0]?.command).toContain("--coverage.enabled=false");
      // The fixture's one red test fails on purpose; the other passes: a result, not an error.
      expect(json.runs[0]?.status, JSON.stringify(json.runs[0]?.errors)).toBe("failed");
      expect(json.runs[0]?.tests.map((test) => test.status).sort()).toEqual(["fail", "pass"]);
    } finally {
      project.cleanup();
    }
  }, 120_000);
});

describe("tailtest run on a source file with vitest in-source tests", () => {
  it("runs the file's own tests: vitest collects it through includeSource", async () => {
    // A seeded bug in a file tested only by its `if (import.meta.vitest)` block read "1 missing
    // test" at the end of the turn, and nothing ran.
    const project = copyFixtureWithDeps("runners/vitest");
    try {
      project.write(
        "vitest.config.ts",
        'import { defineConfig } from "vitest/config";\n\nexport default defineConfig({ test: { includeSource: ["src/**/*.ts"] } });\n',
      );
      project.write(
        "src/math.ts",
        [
          "export const double = (n: number): number => n * 3;",
          "",
          "if (import.meta.vitest) {",
          "  const { it, expect } = import.meta.vitest;",
          '  it("doubles", () => expect(double(2)).toBe(4));',
          "}",
          "",
        ].join("\n"),
      );
      const result = await runBin(BIN, ["run", "--json", "src/math.ts"], { cwd: project.root });
      const json = JSON.parse(result.stdout) as RunJson;
      expect(json.runs[0]?.status, JSON.stringify(json.runs[0]?.errors)).toBe("failed");
      expect(json.runs[0]?.tests.map((test) => [test.id.file, test.status])).toEqual([
        ["src/math.ts", "fail"],
      ]);
    } finally {
      project.cleanup();
    }
  }, 120_000);
});

/** Debian's python3 when it has Django (`.ci/run` installs python3-django), else why not. */
function pythonWithDjango(): { python?: string; reason: string } {
  for (const python of ["/usr/bin/python3", "python3"]) {
    const probe = spawnSync(python, ["-c", "import django"], { stdio: "ignore" });
    if (probe.status === 0) return { python, reason: "" };
  }
  return { reason: "no python3 with Django here (Debian: python3-django)" };
}

describe("tailtest run on a Django project without pytest", () => {
  it("runs the tests by manage.py test and reads each test's result", async () => {
    const { python, reason } = pythonWithDjango();
    if (python === undefined) {
      console.warn(`skipping the Django run: ${reason}`);
      return;
    }
    const project = copyFixture("django");
    try {
      execFileSync(python, ["-m", "venv", "--system-site-packages", ".venv"], {
        cwd: project.root,
      });
      const run = async () => {
        const result = await runBin(BIN, ["run", "--json", "shop/tests.py"], {
          cwd: project.root,
        });
        return { result, json: JSON.parse(result.stdout) as RunJson };
      };
      const green = await run();
      expect(green.json.runs[0]?.command).toEqual([
        ".venv/bin/python",
        "manage.py",
        "test",
        "--noinput",
        "-v",
        "2",
        "shop.tests",
      ]);
      expect(green.json.runs[0]?.status, JSON.stringify(green.json.runs[0]?.errors)).toBe("passed");
      expect(green.json.runs[0]?.tests.map((test) => test.id.segments)).toEqual([
        ["ItemTests", "test_adds_two_numbers"],
        ["ItemTests", "test_discounted"],
      ]);
      // A bug in the model: the test that uses the database turns red, the other stays green.
      project.write(
        "shop/models.py",
        readFileSync(join(project.root, "shop/models.py"), "utf8").replace(
          "self.price * percent",
          "self.price * (percent + 1)",
        ),
      );
      const red = await run();
      expect(red.result.exitCode).toBe(1);
      const byName = Object.fromEntries(
        red.json.runs[0]!.tests.map((test) => [test.id.segments.at(-1), test]),
      );
      expect(byName["test_discounted"]).toMatchObject({
        id: { file: "shop/tests.py" },
        status: "fail",
      });
      expect(byName["test_discounted"]?.failure).toMatch(/178 != 180/);
      expect(byName["test_adds_two_numbers"]?.status).toBe("pass");
    } finally {
      project.cleanup();
    }
  }, 120_000);

  it("without manage.py, runs the app's own runtests.py, which hands its arguments on", async () => {
    const { python, reason } = pythonWithDjango();
    if (python === undefined) {
      console.warn(`skipping the Django run: ${reason}`);
      return;
    }
    const project = copyFixture("django");
    try {
      rmSync(join(project.root, "manage.py"));
      // django-polymorphic's shape: options and labels told apart by a leading `-`.
      project.write(
        "runtests.py",
        [
          "import os",
          "import sys",
          "from django.core.management import execute_from_command_line",
          "",
          "if __name__ == '__main__':",
          "    os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'site_.settings')",
          "    options = [arg for arg in sys.argv[1:] if arg.startswith('-')]",
          "    labels = [arg for arg in sys.argv[1:] if not arg.startswith('-')] or ['shop']",
          "    execute_from_command_line(sys.argv[:1] + ['test'] + options + labels)",
          "",
        ].join("\n"),
      );
      execFileSync(python, ["-m", "venv", "--system-site-packages", ".venv"], {
        cwd: project.root,
      });
      const result = await runBin(BIN, ["run", "--json", "shop/tests.py"], { cwd: project.root });
      const json = JSON.parse(result.stdout) as RunJson;
      expect(json.runs[0]?.command.slice(1)).toEqual([
        "runtests.py",
        "--noinput",
        "--verbosity=2",
        "shop.tests",
      ]);
      expect(json.runs[0]?.status, JSON.stringify(json.runs[0]?.errors)).toBe("passed");
      expect(json.runs[0]?.tests).toHaveLength(2);
    } finally {
      project.cleanup();
    }
  }, 120_000);

  it("without manage.py, runs `python -m django test` with the settings tox names", async () => {
    const { python, reason } = pythonWithDjango();
    if (python === undefined) {
      console.warn(`skipping the Django run: ${reason}`);
      return;
    }
    const project = copyFixture("django");
    try {
      rmSync(join(project.root, "manage.py"));
      project.write(
        "tox.ini",
        "[testenv]\nsetenv =\n    DJANGO_SETTINGS_MODULE = site_.settings\ncommands = python -m django test {posargs}\n",
      );
      execFileSync(python, ["-m", "venv", "--system-site-packages", ".venv"], {
        cwd: project.root,
      });
      const result = await runBin(BIN, ["run", "--json", "shop/tests.py"], { cwd: project.root });
      const json = JSON.parse(result.stdout) as RunJson;
      expect(json.runs[0]?.command.slice(1, 6)).toEqual([
        "-m",
        "django",
        "test",
        "--settings=site_.settings",
        "--noinput",
      ]);
      expect(json.runs[0]?.status, JSON.stringify(json.runs[0]?.errors)).toBe("passed");
      expect(json.runs[0]?.tests).toHaveLength(2);
    } finally {
      project.cleanup();
    }
  }, 120_000);
});
