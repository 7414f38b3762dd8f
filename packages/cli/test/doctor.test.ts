import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DoctorReportSchema, type DoctorReport } from "@tailtest/core";
import {
  copyFixture,
  findToolchain,
  FIXTURES_DIR,
  makeProject,
  REPO_ROOT,
  runBin,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");
const CLAUDE_BIN = join(REPO_ROOT, "adapters/claude-code/dist/cli.js");
const STRICT = '{ "mode": "strict" }\n';
const REFUSAL = "fail  strict    strict mode on a project without tests locks every edit out";
const REFACTOR =
  "write a first test, or run `tailtest refactor start` to work without the per-edit gate (the verify command must pass before the turn ends)";
const NO_HOOKS =
  "no agent's hooks are installed: run npx tailtest-claude-code init (or -cursor, -codex)";

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

function track(project: TempProject): TempProject {
  projects.push(project);
  return project;
}

// The checks below are about the files; starting the runners has tests of its own at the end.
const doctor = (project: TempProject, args: string[] = [], cwd = project.root) =>
  runBin(BIN, ["doctor", "--no-start", ...args], { cwd });

async function doctorJson(project: TempProject, args: string[] = []): Promise<DoctorReport> {
  const result = await doctor(project, ["--json", ...args]);
  expect(result.stderr).toBe("");
  return DoctorReportSchema.parse(JSON.parse(result.stdout));
}

function checkOf(report: DoctorReport, id: string) {
  return report.checks.find((check) => check.id === id);
}

describe("tailtest doctor", () => {
  it("is built", () => {
    expect(existsSync(BIN), "run the build first (pnpm test does)").toBe(true);
  });

  it("refuses strict mode on a project without tests and proposes refactor mode (exit 1)", async () => {
    const project = track(
      makeProject({
        ".tailtest/config.json": STRICT,
        "package.json": JSON.stringify({ scripts: { test: "vitest run" } }),
        "src/calc.ts": "export const add = (a: number, b: number) => a + b;\n",
      }),
    );
    const result = await doctor(project);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    expect(lines).toContain(REFUSAL);
    expect(lines).toContain(`                ${REFACTOR}`);
    expect(lines).toContain("warn  tests     no test files found");
    expect(lines).toContain("ok    runners   vitest (.)");
  });

  it("passes strict mode on the vitest fixture, whose test is found (exit 0)", async () => {
    const project = track(copyFixture("runners/vitest"));
    project.write(".tailtest/config.json", STRICT);
    const result = await doctor(project);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split("\n").filter((line) => !line.startsWith(" "))).toEqual([
      "ok    config    .tailtest/config.json is valid",
      "ok    mode      strict (set in .tailtest/config.json): every production edit must advance a claimed failing test",
      "ok    runners   vitest (.)",
      "ok    tests     1 test file in src/",
      `warn  hooks     ${NO_HOOKS}`,
      "ok    strict    strict mode can gate edits: 1 test file a runner can run",
    ]);
  });

  it("prints the same report twice, in a fixed order", async () => {
    const project = track(copyFixture("runners/vitest"));
    const first = await doctor(project);
    const second = await doctor(project);
    expect(first.exitCode).toBe(0);
    expect(second).toEqual(first);
  });

  it("--json prints the report: a vitest root and a pytest package, no strict check in follow mode", async () => {
    const project = track(copyFixture("runners/vitest"));
    cpSync(join(FIXTURES_DIR, "runners/pytest-ini"), join(project.root, "py"), {
      recursive: true,
    });
    const report = await doctorJson(project);
    expect(report.status).toBe("warn");
    expect(report.checks.map((check) => check.id)).toEqual([
      "config",
      "mode",
      "runners",
      "tests",
      "hooks",
    ]);
    expect(checkOf(report, "config")).toEqual({
      id: "config",
      status: "ok",
      summary: "no .tailtest/config.json: tailtest uses the defaults",
    });
    expect(checkOf(report, "runners")?.summary).toBe("vitest (.), pytest (py/)");
    expect(checkOf(report, "tests")).toEqual({
      id: "tests",
      status: "ok",
      summary: "2 test files in py/, src/",
      detail: ["py/: 1 test file", "src/: 1 test file"],
    });
  });

  it("--root is relative to the current folder; without it the root is found from a subfolder", async () => {
    const project = track(copyFixture("runners/pytest-ini"));
    project.write(".tailtest/config.json", STRICT);
    // Read from the current folder: the project holds no "proj" (its parent, the machine's
    // temporary folder, might), so a missing folder is a usage error.
    const fromOutside = await runBin(BIN, ["doctor", "--root", "proj"], {
      cwd: join(project.root, "tests"),
    });
    expect(fromOutside).toEqual({
      stdout: "",
      stderr: "tailtest: --root proj: not a folder",
      exitCode: 2,
    });

    const byRoot = await doctor(project, ["--root", "."]);
    const fromSubfolder = await doctor(project, [], join(project.root, "tests"));
    expect(byRoot.exitCode).toBe(0);
    expect(fromSubfolder).toEqual(byRoot);
    expect(byRoot.stdout).toContain("ok    runners   pytest (.)");
    expect(byRoot.stdout).toContain("ok    tests     1 test file in tests/");
  });

  it("does not count tests in node_modules, build output, virtualenvs or gitignored folders", async () => {
    const project = track(
      makeProject({
        ".gitignore": "generated/\n",
        "tests/test_calc.py": "def test_x():\n    assert True\n",
        "node_modules/pkg/index.test.js": "",
        "dist/calc.test.js": "",
        ".venv/lib/test_site.py": "",
        "generated/api.test.ts": "",
      }),
    );
    const report = await doctorJson(project);
    expect(checkOf(report, "tests")?.summary).toBe("1 test file in tests/");
  });

  it("reads Codex's config.toml with the TOML library status uses: dotted keys, trust, comments", async () => {
    const command = "node node_modules/@tailtest/codex/dist/hook.cjs";
    // Dotted keys: a hooks table no `[hooks]` header announces.
    const dotted = `model = "x"\nhooks.Stop = [{ hooks = [{ type = "command", command = "${command}" }] }]\n`;
    const project = track(makeProject({ "tests/test_a.py": "", ".codex/config.toml": dotted }));
    const codexHome = join(project.root, "codex-home");
    mkdirSync(codexHome);
    const env = { CODEX_HOME: codexHome };
    const pending = await runBin(BIN, ["doctor", "--json"], { cwd: project.root, env });
    const hooks = checkOf(DoctorReportSchema.parse(JSON.parse(pending.stdout)), "hooks");
    expect(hooks?.summary).toBe("installed for Codex; not for Claude Code, Cursor");
    expect(hooks?.detail).toContain("Codex: installed in .codex/config.toml (1 event)");
    // Codex skips untrusted project hooks: the same finding status shows, as a warning here.
    expect(hooks?.status).toBe("warn");
    expect(hooks?.detail).toContainEqual(expect.stringMatching(/^Codex: project .*not trusted/));
    const status = await runBin(BIN, ["status", "--json"], { cwd: project.root, env });
    expect(JSON.parse(status.stdout).hooks).toContainEqual(
      expect.objectContaining({
        platform: "codex",
        installed: true,
        trust: expect.objectContaining({ pending: true }),
      }),
    );
    // A comment naming the package is no hook; a file that is not TOML is said so.
    project.write(".codex/config.toml", '# @tailtest/codex some day\nmodel = "x"\n');
    expect(checkOf(await doctorJson(project), "hooks")?.summary).toBe(NO_HOOKS);
    project.write(".codex/config.toml", "[hooks\n");
    expect(checkOf(await doctorJson(project), "hooks")?.detail).toContain(
      "Codex: .codex/config.toml is not valid TOML",
    );
  });

  it("does not count conftest.py or a tests package's __init__.py as tests", async () => {
    const project = track(
      makeProject({
        "tests/conftest.py": "import pytest\n",
        "tests/__init__.py": "",
        "calc.py": "",
      }),
    );
    const tests = checkOf(await doctorJson(project), "tests");
    expect(tests?.status).toBe("warn");
    expect(tests?.summary).toBe("no test files found");
  });

  it("sees Claude Code's hooks once the adapter's init wrote them, and not after uninstall", async () => {
    const project = track(copyFixture("runners/vitest"));
    const before = await doctorJson(project);
    expect(checkOf(before, "hooks")).toMatchObject({ status: "warn", summary: NO_HOOKS });

    const init = await runBin(CLAUDE_BIN, ["init", "--root", project.root]);
    expect(init.exitCode).toBe(0);
    const installed = await doctorJson(project);
    const hooks = checkOf(installed, "hooks");
    expect(hooks?.summary).toBe("installed for Claude Code; not for Cursor, Codex");
    // init warned that the package is not in node_modules: so does doctor.
    expect(hooks?.status).toBe("warn");
    expect(hooks?.detail).toContain(
      "Claude Code: the hooks run node_modules/@tailtest/claude-code/dist/hook.cjs, which is missing: npm i -D @tailtest/claude-code",
    );

    mkdirSync(join(project.root, "node_modules/@tailtest/claude-code/dist"), { recursive: true });
    project.write("node_modules/@tailtest/claude-code/dist/hook.cjs", "");
    const ready = await doctorJson(project);
    expect(checkOf(ready, "hooks")).toEqual({
      id: "hooks",
      status: "ok",
      summary: "installed for Claude Code; not for Cursor, Codex",
      detail: [
        "Claude Code: installed in .claude/settings.json (8 events)",
        "Cursor: not installed (no .cursor/hooks.json)",
        "Codex: not installed (no .codex/hooks.json or .codex/config.toml)",
      ],
    });
    expect(ready.status).toBe("ok");

    const uninstall = await runBin(CLAUDE_BIN, ["uninstall", "--root", project.root]);
    expect(uninstall.exitCode).toBe(0);
    expect(checkOf(await doctorJson(project), "hooks")?.summary).toBe(NO_HOOKS);
  });

  it("init --mode strict on a project without tests: doctor refuses it", async () => {
    const project = track(makeProject({ "pytest.ini": "[pytest]\n", "calc.py": "x = 1\n" }));
    const init = await runBin(CLAUDE_BIN, ["init", "--root", project.root, "--mode", "strict"]);
    expect(init.exitCode).toBe(0);
    const result = await doctor(project);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(REFUSAL);
    expect(result.stdout).toContain("hooks     installed for Claude Code; not for Cursor, Codex");
  });

  it("fails on a config that is not JSON, in one line", async () => {
    const project = track(copyFixture("runners/vitest"));
    project.write(".tailtest/config.json", "{ mode: strict");
    const result = await doctor(project);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(
      /^fail {2}config {4}\.tailtest\/config\.json is not valid JSON \(.+\); using defaults\.$/m,
    );
    expect(result.stdout).toContain("ok    mode      follow (the default)");
  });
});

describe("tailtest doctor starts each runner", () => {
  const python = findToolchain("python3");
  it.skipIf(!python.available)(
    "pytest in the project's virtualenv collects; a venv that cannot import the project fails in one line",
    async () => {
      const project = track(
        makeProject({
          "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
          "src/pkg/__init__.py": "VALUE = 1\n",
          "tests/test_pkg.py":
            "from pkg import VALUE\n\ndef test_value():\n    assert VALUE == 1\n",
        }),
      );
      makeVenv(project.root, join(project.root, "src"));
      const ok = await runBin(BIN, ["doctor", "--json"], { cwd: project.root });
      const report = DoctorReportSchema.parse(JSON.parse(ok.stdout));
      expect(checkOf(report, "start")).toMatchObject({
        status: "ok",
        summary: "pytest started (pytest collected the tests)",
      });
      // The same project whose venv does not reach the source: the runner cannot load the tests.
      makeVenv(project.root, undefined);
      const broken = await runBin(BIN, ["doctor"], { cwd: project.root });
      expect(broken.exitCode).toBe(1);
      expect(broken.stdout).toMatch(
        /fail {2}start {5}pytest cannot start or load the tests: ModuleNotFoundError: No module named 'pkg'/,
      );
    },
    120_000,
  );

  it("a runner command that does not exist fails the check with its name", async () => {
    const project = track(
      makeProject({
        "pytest.ini": "[pytest]\n",
        "tests/test_a.py": "def test_a():\n    pass\n",
        ".tailtest/config.json":
          '{ "runners": { "python": { "command": ["no-such-python-xyz", "-m", "pytest"] } } }\n',
      }),
    );
    const result = await runBin(BIN, ["doctor"], { cwd: project.root });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain("pytest cannot start: no-such-python-xyz (ENOENT)");
  });
});

/** A `python3 -m venv --system-site-packages .venv` whose `.pth` adds `source` (none: no `.pth`). */
function makeVenv(root: string, source: string | undefined): void {
  rmSync(join(root, ".venv"), { recursive: true, force: true });
  execFileSync("python3", ["-m", "venv", "--system-site-packages", join(root, ".venv")]);
  if (source === undefined) return;
  const lib = join(root, ".venv", "lib");
  const version = readdirSync(lib).find((name) => name.startsWith("python"));
  if (version === undefined) throw new Error("no site-packages in the venv");
  writeFileSync(join(lib, version, "site-packages", "project.pth"), `${source}\n`);
}
