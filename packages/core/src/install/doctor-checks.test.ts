import { describe, expect, it } from "vitest";
import {
  diagnoseProject,
  findHookInstalls,
  DOCTOR_FILE_CAP,
  DOCTOR_HOOK_FILES,
  doctorExitCode,
  DoctorReportSchema,
  isDoctorIgnoredFile,
  isDoctorSkippedDir,
  renderDoctorReport,
  type DoctorCheck,
  type ParsedToml,
  type DoctorCheckId,
  type DoctorReport,
} from "./doctor-checks.ts";
import type { CodexTrust } from "./codex-trust.ts";
import { buildIgnoreRules } from "../filter/filter.ts";
import { createMemoryView } from "../project/project-view.ts";

const CONFIG = ".tailtest/config.json";
const VITEST_PACKAGE = JSON.stringify({ scripts: { test: "vitest run" } });
const CLAUDE_COMMAND =
  'node "$CLAUDE_PROJECT_DIR/node_modules/@tailtest/claude-code/dist/hook.cjs" --event=Stop';
const CLAUDE_HOOK = "node_modules/@tailtest/claude-code/dist/hook.cjs";
const CURSOR_COMMAND =
  'node "${CURSOR_PROJECT_DIR:-.}/node_modules/@tailtest/cursor/dist/hook.cjs" --event=stop';
const CODEX_COMMAND = `sh -c 'd=$PWD; while :; do f="$d/node_modules/@tailtest/codex/dist/hook.cjs"; done' sh --event=Stop`;

/** Settings shaped as Claude Code's (and Codex's hooks.json): events → groups → handlers. */
const groupHooks = (command: string, events = ["SessionStart", "Stop"]): string =>
  JSON.stringify({
    hooks: Object.fromEntries(
      events.map((event) => [event, [{ hooks: [{ type: "command", command, timeout: 30 }] }]]),
    ),
  });

/** What the CLI's listing passes in: no file under a skipped folder, no ignored file. */
function listFiles(paths: readonly string[], gitignore: string | undefined): string[] {
  const rules = buildIgnoreRules({ gitignore });
  return paths.filter((path) => {
    const dirs = path.split("/").slice(0, -1);
    const skipped = dirs.some((_, index) =>
      isDoctorSkippedDir(dirs.slice(0, index + 1).join("/"), rules),
    );
    return !skipped && !isDoctorIgnoredFile(path, rules);
  });
}

function diagnose(
  files: Readonly<Record<string, string>>,
  options: {
    truncated?: boolean;
    tomls?: Record<string, ParsedToml>;
    codexTrust?: CodexTrust;
  } = {},
): DoctorReport {
  const report = diagnoseProject({
    view: createMemoryView(files),
    configText: files[CONFIG],
    files: listFiles(Object.keys(files), files[".gitignore"]),
    filesTruncated: options.truncated ?? false,
    hookTexts: Object.fromEntries(DOCTOR_HOOK_FILES.map((path) => [path, files[path]])),
    hookTomls: options.tomls ?? {},
    codexTrust: options.codexTrust,
  });
  // Every report fits its own schema.
  expect(DoctorReportSchema.parse(report)).toEqual(report);
  return report;
}

function checkOf(report: DoctorReport, id: DoctorCheckId): DoctorCheck {
  const found = report.checks.find((check) => check.id === id);
  if (found === undefined) throw new Error(`no ${id} check`);
  return found;
}

describe("doctor: config", () => {
  it.each<[string, Record<string, string>, DoctorCheck["status"], RegExp]>([
    [
      "missing: the defaults",
      {},
      "ok",
      /^no \.tailtest\/config\.json: tailtest uses the defaults$/,
    ],
    ["valid", { [CONFIG]: '{ "mode": "tdd" }' }, "ok", /^\.tailtest\/config\.json is valid$/],
    [
      "not JSON",
      { [CONFIG]: "{ mode: tdd" },
      "fail",
      /^\.tailtest\/config\.json is not valid JSON \(.+\); using defaults\.$/,
    ],
    [
      "a bad mode",
      { [CONFIG]: '{ "mode": "lax" }' },
      "fail",
      /^\.tailtest\/config\.json: "mode" is "lax"; expected one of follow, tdd, strict\./,
    ],
    [
      "an unknown field",
      { [CONFIG]: '{ "colour": "red" }' },
      "warn",
      /^\.tailtest\/config\.json has an unknown field "colour"; it is ignored\.$/,
    ],
  ])("%s", (_name, files, status, summary) => {
    const config = checkOf(diagnose(files), "config");
    expect(config.status).toBe(status);
    expect(config.summary).toMatch(summary);
    expect(config.summary).not.toContain("\n");
  });

  it("shows the first problem in the summary and the rest as detail", () => {
    const config = checkOf(
      diagnose({ [CONFIG]: '{ "mode": "lax", "depth": 3, "x": 1 }' }),
      "config",
    );
    expect(config.status).toBe("fail");
    // config.ts reports the fields in the schema's order (depth before mode), warnings last.
    expect(config.summary).toContain('"depth" is 3');
    expect(config.detail).toHaveLength(2);
    expect(config.detail?.[0]).toContain('"mode" is "lax"');
    expect(config.detail?.[1]).toContain('unknown field "x"');
  });
});

describe("doctor: mode", () => {
  it.each([
    [{}, /^follow \(the default\): tests follow each edit/],
    [{ [CONFIG]: '{ "mode": "tdd" }' }, /^tdd \(set in \.tailtest\/config\.json\): Red/],
    [{ [CONFIG]: '{ "mode": "strict" }' }, /^strict \(set in \.tailtest\/config\.json\): /],
    [{ [CONFIG]: '{ "mode": "lax" }' }, /^follow \(the default\)/],
    [{ [CONFIG]: "not json" }, /^follow \(the default\)/],
  ])("%j → %s", (files, summary) => {
    const mode = checkOf(diagnose(files), "mode");
    expect(mode.status).toBe("ok");
    expect(mode.summary).toMatch(summary);
  });
});

describe("doctor: runners", () => {
  it("lists every package's runners, the root first, with their commands as detail", () => {
    const runners = checkOf(
      diagnose({
        "py/pytest.ini": "[pytest]\n",
        "py/tests/test_calc.py": "",
        "package.json": VITEST_PACKAGE,
        "src/calc.test.ts": "",
      }),
      "runners",
    );
    expect(runners.status).toBe("ok");
    expect(runners.summary).toBe("vitest (.), pytest (py/)");
    expect(runners.detail).toHaveLength(2);
    expect(runners.detail?.[0]).toMatch(
      /^vitest \(\.\): .*vitest.* \(package\.json scripts\.test runs vitest\)$/,
    );
    expect(runners.detail?.[1]).toMatch(/^pytest \(py\/\): .*pytest.* \(pytest\.ini\)$/);
  });

  it.each<[string, Record<string, string>, boolean]>([
    ["an empty project", {}, false],
    ["TypeScript without a manifest", { "src/a.ts": "", "src/a.test.ts": "" }, false],
    ["Python tests without a manifest", { "calc.py": "", "tests/test_calc.py": "" }, true],
  ])("warns when none is detected: %s", (_name, files, unittestNote) => {
    const runners = checkOf(diagnose(files), "runners");
    expect(runners.status).toBe("warn");
    expect(runners.summary).toBe("no test runner detected");
    expect(runners.detail?.some((line) => line.includes("unittest"))).toBe(unittestNote);
  });
});

describe("doctor: tests", () => {
  it.each<[string, Record<string, string>, string]>([
    [
      "by name and by folder, grouped by top folder",
      {
        "calc_test.go": "",
        "src/a.test.ts": "",
        "src/b.spec.ts": "",
        "tests/test_a.py": "",
        "tests/conftest.py": "",
        "tests/__init__.py": "",
      },
      // conftest.py and __init__.py support tests; they are none.
      "4 test files in ./, src/, tests/",
    ],
    [
      "one file",
      { "tests/test_a.py": "", "calc.py": "", "README.md": "", "tests/data.json": "" },
      "1 test file in tests/",
    ],
    [
      "not in dependency, build, tool or gitignored folders, nor gitignored files",
      {
        ".gitignore": "generated/\n*.snap.test.ts\n",
        "tests/test_a.py": "",
        "node_modules/x/a.test.js": "",
        "packages/x/node_modules/y/a.test.js": "",
        "dist/a.test.js": "",
        "build/a.test.js": "",
        "target/a_test.go": "",
        ".venv/lib/test_x.py": "",
        "venv/lib/test_x.py": "",
        "vendor/x/x_test.go": "",
        "src/__pycache__/test_a.py": "",
        ".git/hooks/a.test.js": "",
        ".tailtest/x.test.ts": "",
        "generated/a.test.ts": "",
        "src/ui.snap.test.ts": "",
      },
      "1 test file in tests/",
    ],
    [
      "end-to-end tests and the configured test patterns count",
      {
        [CONFIG]: JSON.stringify({ tdd: { file_classes: { test: ["checks/**"] } } }),
        "e2e/login.ts": "",
        "checks/calc.ts": "",
      },
      "2 test files in checks/, e2e/",
    ],
    [
      "inline Rust tests when cargo runs them",
      {
        "Cargo.toml": '[package]\nname = "calc"\n',
        "src/lib.rs": "pub fn add() {}\n#[cfg(test)]\nmod tests {}\n",
        "src/main.rs": "fn main() {}\n",
      },
      "1 test file in src/",
    ],
  ])("%s", (_name, files, summary) => {
    const tests = checkOf(diagnose(files), "tests");
    expect(tests.status).toBe("ok");
    expect(tests.summary).toBe(summary);
  });

  it("test support alone (conftest.py, __init__.py, a setup file) is no test: the check warns", () => {
    const tests = checkOf(
      diagnose({ "tests/conftest.py": "", "tests/__init__.py": "", "src/setupTests.ts": "" }),
      "tests",
    );
    expect(tests.status).toBe("warn");
    expect(tests.summary).toBe("no test files found");
  });

  it("details each folder's count", () => {
    const tests = checkOf(
      diagnose({ "src/a.test.ts": "", "src/b.test.ts": "", "tests/test_a.py": "" }),
      "tests",
    );
    expect(tests.detail).toEqual(["src/: 2 test files", "tests/: 1 test file"]);
  });

  it("names at most six folders in the summary", () => {
    const files = Object.fromEntries(
      ["a", "b", "c", "d", "e", "f", "g", "h"].map((dir) => [`${dir}/x.test.ts`, ""]),
    );
    const tests = checkOf(diagnose(files), "tests");
    expect(tests.summary).toBe("8 test files in a/, b/, c/, d/, e/, f/ and 2 more folders");
    expect(tests.detail).toHaveLength(8);
  });

  it("ignores Rust files without a cargo runner, and Rust files without tests", () => {
    const noCargo = { "src/lib.rs": "#[test]\nfn t() {}\n" };
    expect(checkOf(diagnose(noCargo), "tests").summary).toBe("no test files found");
  });

  it("warns when there are none, and says when the listing was cut short", () => {
    const tests = checkOf(diagnose({ "src/calc.ts": "" }, { truncated: true }), "tests");
    expect(tests.status).toBe("warn");
    expect(tests.summary).toBe("no test files found");
    expect(tests.detail?.at(-1)).toBe(
      `the listing stopped after ${DOCTOR_FILE_CAP} files: there may be more`,
    );
  });
});

describe("doctor: the listing's folders", () => {
  const rules = buildIgnoreRules({ gitignore: "/out-of-git/\nlogs\n" });
  it.each<[string, boolean]>([
    ["node_modules", true],
    ["packages/app/node_modules", true],
    ["packages/app/dist", true],
    ["src/build", true],
    ["crates/x/target", true],
    ["vendor", true],
    ["lib/vendor", true],
    ["src/.venv", true],
    ["py/__pycache__", true],
    [".tailtest", true],
    [".git", true],
    [".pytest_cache", true],
    ["out-of-git", true],
    ["src/logs", true],
    ["src", false],
    ["tests", false],
    ["src/out-of-git", false],
  ])("%s skipped: %s", (dir, skipped) => {
    expect(isDoctorSkippedDir(dir, rules)).toBe(skipped);
  });

  it("files match the ignore rules; without rules nothing is ignored", () => {
    expect(isDoctorIgnoredFile("src/logs", rules)).toBe(true);
    expect(isDoctorIgnoredFile("src/a.ts", rules)).toBe(false);
    expect(isDoctorIgnoredFile("src/logs")).toBe(false);
  });
});

describe("doctor: hooks", () => {
  const NONE =
    "no agent's hooks are installed: run npx tailtest-claude-code init (or -cursor, -codex)";

  it.each<[string, Record<string, string>, DoctorCheck["status"], string]>([
    ["nothing installed", {}, "warn", NONE],
    [
      "another tool's Claude hooks only",
      { ".claude/settings.json": groupHooks("prettier --write") },
      "warn",
      NONE,
    ],
    [
      "Claude Code, with its hook installed",
      { ".claude/settings.json": groupHooks(CLAUDE_COMMAND), [CLAUDE_HOOK]: "" },
      "ok",
      "installed for Claude Code; not for Cursor, Codex",
    ],
    [
      "Claude Code in settings.local.json",
      { ".claude/settings.local.json": groupHooks("npx tailtest-claude-code hook --event=Stop") },
      "ok",
      "installed for Claude Code; not for Cursor, Codex",
    ],
    [
      "Claude Code, its package missing from node_modules",
      { ".claude/settings.json": groupHooks(CLAUDE_COMMAND) },
      "warn",
      "installed for Claude Code; not for Cursor, Codex",
    ],
    [
      "Cursor",
      {
        ".cursor/hooks.json": JSON.stringify({
          version: 1,
          hooks: { stop: [{ command: CURSOR_COMMAND, timeout: 600 }] },
        }),
        "node_modules/@tailtest/cursor/dist/hook.cjs": "",
      },
      "ok",
      "installed for Cursor; not for Claude Code, Codex",
    ],
    [
      "Codex in hooks.json",
      { ".codex/hooks.json": groupHooks(CODEX_COMMAND) },
      "ok",
      "installed for Codex; not for Claude Code, Cursor",
    ],
    [
      "all three",
      {
        ".claude/settings.json": groupHooks(CLAUDE_COMMAND),
        [CLAUDE_HOOK]: "",
        ".cursor/hooks.json": JSON.stringify({ hooks: { stop: [{ command: CURSOR_COMMAND }] } }),
        "node_modules/@tailtest/cursor/dist/hook.cjs": "",
        ".codex/hooks.json": groupHooks(CODEX_COMMAND),
      },
      "ok",
      "installed for Claude Code, Cursor, Codex",
    ],
    [
      "a broken settings.json next to an installed Codex",
      { ".claude/settings.json": "{ oops", ".codex/hooks.json": groupHooks(CODEX_COMMAND) },
      "warn",
      "installed for Codex; not for Claude Code, Cursor",
    ],
  ])("%s", (_name, files, status, summary) => {
    const hooks = checkOf(diagnose(files), "hooks");
    expect(hooks.status).toBe(status);
    expect(hooks.summary).toBe(summary);
  });

  it("says per platform where the hooks are, and what is missing", () => {
    const hooks = checkOf(
      diagnose({
        ".claude/settings.json": groupHooks(CLAUDE_COMMAND, ["SessionStart", "Stop", "SessionEnd"]),
        ".cursor/hooks.json": "{}",
      }),
      "hooks",
    );
    expect(hooks.detail).toEqual([
      "Claude Code: installed in .claude/settings.json (3 events)",
      `Claude Code: the hooks run ${CLAUDE_HOOK}, which is missing: npm i -D @tailtest/claude-code`,
      "Cursor: not installed (no tailtest hooks in .cursor/hooks.json)",
      "Codex: not installed (no .codex/hooks.json or .codex/config.toml)",
    ]);
  });

  describe("Codex's config.toml, as the caller's TOML library parsed it", () => {
    const toml = `[[hooks.Stop]]\nhooks = [{ type = "command", command = "${CODEX_COMMAND}" }]\n`;
    const parsed: ParsedToml = {
      value: {
        model: "x",
        hooks: { Stop: [{ hooks: [{ type: "command", command: CODEX_COMMAND }] }] },
      },
    };

    it("counts the events of a hooks table", () => {
      const hooks = checkOf(
        diagnose({ ".codex/config.toml": toml }, { tomls: { ".codex/config.toml": parsed } }),
        "hooks",
      );
      expect(hooks.status).toBe("ok");
      expect(hooks.summary).toBe("installed for Codex; not for Claude Code, Cursor");
      expect(hooks.detail).toContain("Codex: installed in .codex/config.toml (1 event)");
    });

    it("a file that only names the package in a comment holds no hooks", () => {
      const hooks = checkOf(
        diagnose(
          { ".codex/config.toml": '# @tailtest/codex some day\nmodel = "x"\n' },
          { tomls: { ".codex/config.toml": { value: { model: "x" } } } },
        ),
        "hooks",
      );
      expect(hooks.status).toBe("warn");
      expect(hooks.summary).toBe(NONE);
    });

    it("a file that is not TOML is a problem, said in one line", () => {
      const hooks = checkOf(
        diagnose(
          { ".codex/config.toml": "[hooks" },
          { tomls: { ".codex/config.toml": { problem: "is not valid TOML" } } },
        ),
        "hooks",
      );
      expect(hooks.detail).toContain("Codex: .codex/config.toml is not valid TOML");
    });

    it("installed but not trusted yet: a warning with what to do", () => {
      const trust: CodexTrust = {
        project: "unknown",
        handlers: 1,
        trusted: 0,
        disabled: 0,
        pending: true,
        lines: ["project not trusted yet", "0 of 1 hooks trusted"],
      };
      const files = { ".codex/hooks.json": groupHooks(CODEX_COMMAND) };
      const pending = checkOf(diagnose(files, { codexTrust: trust }), "hooks");
      expect(pending.status).toBe("warn");
      expect(pending.detail).toContain("Codex: project not trusted yet");
      const trusted = checkOf(
        diagnose(files, { codexTrust: { ...trust, pending: false, lines: [] } }),
        "hooks",
      );
      expect(trusted.status).toBe("ok");
    });
  });

  it("reports a file it cannot read as JSON in one line", () => {
    const hooks = checkOf(diagnose({ ".claude/settings.json": "{ oops" }), "hooks");
    expect(hooks.detail).toContainEqual(
      expect.stringMatching(/^Claude Code: \.claude\/settings\.json is not valid JSON \(.+\)$/),
    );
  });
});

describe("doctor: strict", () => {
  const STRICT = { [CONFIG]: '{ "mode": "strict" }' };

  it.each<[string, Record<string, string>]>([
    ["follow", {}],
    ["tdd", { [CONFIG]: '{ "mode": "tdd" }' }],
  ])("is no check in %s mode", (_name, files) => {
    const report = diagnose(files);
    expect(report.checks.map((check) => check.id)).toEqual([
      "config",
      "mode",
      "runners",
      "tests",
      "hooks",
    ]);
    expect(doctorExitCode(report)).toBe(0);
  });

  it("refuses a project without tests and proposes refactor mode", () => {
    const report = diagnose({ ...STRICT, "package.json": VITEST_PACKAGE, "src/calc.ts": "" });
    expect(report.checks.map((check) => check.id)).toEqual([
      "config",
      "mode",
      "runners",
      "tests",
      "hooks",
      "strict",
    ]);
    expect(checkOf(report, "strict")).toEqual({
      id: "strict",
      status: "fail",
      summary: "strict mode on a project without tests locks every edit out",
      detail: [
        "write a first test, or run `tailtest refactor start` to work without the per-edit gate (the verify command must pass before the turn ends)",
      ],
    });
    expect(checkOf(report, "tests").status).toBe("warn");
    expect(report.status).toBe("fail");
    expect(doctorExitCode(report)).toBe(1);
  });

  it.each<[string, Record<string, string>, DoctorCheck["status"], RegExp]>([
    [
      "tests and a runner",
      { "package.json": VITEST_PACKAGE, "src/calc.test.ts": "" },
      "ok",
      /^strict mode can gate edits: 1 test file a runner can run$/,
    ],
    [
      "tests but no runner",
      { "src/calc.test.ts": "", "src/calc.ts": "" },
      "fail",
      /no runner can run locks every edit out$/,
    ],
    [
      "tests only in a language no runner covers",
      { "pytest.ini": "[pytest]\n", "web/app.test.ts": "" },
      "fail",
      /^strict mode with 1 test file that no runner can run/,
    ],
    [
      "Python tests without a manifest (unittest runs them)",
      { "tests/test_calc.py": "" },
      "ok",
      /^strict mode can gate edits: 1 test file/,
    ],
  ])("%s → %s", (_name, files, status, summary) => {
    const strict = checkOf(diagnose({ ...STRICT, ...files }), "strict");
    expect(strict.status).toBe(status);
    expect(strict.summary).toMatch(summary);
  });

  it("names the tests no runner covers", () => {
    const strict = checkOf(
      diagnose({
        ...STRICT,
        "pytest.ini": "[pytest]\n",
        "tests/test_a.py": "",
        "web/a.test.ts": "",
      }),
      "strict",
    );
    expect(strict.status).toBe("ok");
    expect(strict.detail).toEqual(["no runner for 1 typescript test file"]);
  });
});

describe("renderDoctorReport", () => {
  it("prints one line per check and indents the detail", () => {
    const report: DoctorReport = {
      status: "fail",
      checks: [
        { id: "runners", status: "ok", summary: "vitest (.), pytest (py/)" },
        { id: "strict", status: "fail", summary: "no", detail: ["first", "second"] },
      ],
    };
    expect(renderDoctorReport(report)).toBe(
      [
        "ok    runners   vitest (.), pytest (py/)",
        "fail  strict    no",
        "                first",
        "                second",
        "",
      ].join("\n"),
    );
  });

  it("is the same text for the same project", () => {
    const files = { "package.json": VITEST_PACKAGE, "src/b.test.ts": "", "src/a.test.ts": "" };
    expect(renderDoctorReport(diagnose(files))).toBe(renderDoctorReport(diagnose(files)));
  });
});

describe("findHookInstalls (tailtest status)", () => {
  it("says per platform whether tailtest's hooks are installed, where, and what is wrong", () => {
    const files: Record<string, string> = {
      ".claude/settings.json": groupHooks(CLAUDE_COMMAND),
      ".codex/hooks.json": groupHooks(CODEX_COMMAND),
      ".cursor/hooks.json": "{ not json",
    };
    const installs = findHookInstalls(
      createMemoryView(files),
      Object.fromEntries(DOCTOR_HOOK_FILES.map((path) => [path, files[path]])),
    );
    expect(installs.map((install) => [install.platform, install.installed, install.files])).toEqual(
      [
        ["claude-code", true, [".claude/settings.json"]],
        ["cursor", false, []],
        ["codex", true, [".codex/hooks.json"]],
      ],
    );
    // The hook file the Claude command runs is missing, and Cursor's file does not parse.
    expect(installs[0]?.problems).toEqual([
      `Claude Code: the hooks run ${CLAUDE_HOOK}, which is missing: npm i -D @tailtest/claude-code`,
    ]);
    expect(installs[1]?.problems[0]).toMatch(/^Cursor: \.cursor\/hooks\.json /);
    expect(installs[2]?.problems).toEqual([]);
  });

  it.each([
    ["claude-code", ".claude/settings.json", CLAUDE_COMMAND, "Claude Code"],
    ["codex", ".codex/hooks.json", CODEX_COMMAND, "Codex"],
  ])(
    "an older %s install, whose commands do not name their event, says to re-run init",
    (id, path, command, label) => {
      const files: Record<string, string> = {
        [path]: groupHooks(command.replace(/ --event=Stop$/, "")),
        [CLAUDE_HOOK]: "",
      };
      const texts = Object.fromEntries(DOCTOR_HOOK_FILES.map((file) => [file, files[file]]));
      const line = `${label}: ${path} has hook commands that do not name their event (an older install): re-run npx tailtest-${id} init`;
      const installs = findHookInstalls(createMemoryView(files), texts);
      expect(installs.find((install) => install.platform === id)?.problems).toEqual([line]);
      // doctor says the same, as a warning.
      const hooks = checkOf(diagnose(files), "hooks");
      expect(hooks.status).toBe("warn");
      expect(hooks.detail).toContain(line);
    },
  );

  it("a Cursor install with one command that does not name its event says to re-run init", () => {
    const files: Record<string, string> = {
      ".cursor/hooks.json": JSON.stringify({
        version: 1,
        hooks: {
          stop: [{ command: CURSOR_COMMAND }],
          afterFileEdit: [{ command: CURSOR_COMMAND.replace(/ --event=stop$/, "") }],
        },
      }),
      "node_modules/@tailtest/cursor/dist/hook.cjs": "",
    };
    const hooks = checkOf(diagnose(files), "hooks");
    expect(hooks.status).toBe("warn");
    expect(hooks.detail).toContain(
      "Cursor: .cursor/hooks.json has hook commands that do not name their event (an older install): re-run npx tailtest-cursor init",
    );
  });
});
