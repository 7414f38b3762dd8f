import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  commitAll,
  copyFixtureWithDeps,
  findToolchain,
  makeProject,
  REPO_ROOT,
  runBin,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";

/**
 * Related-test selection through the built Claude Code hook, as an agent's session drives it:
 * the end of a turn runs the tests that really cover an edit (by name, family, folder or
 * imports), runs an edited test, and tells the agent which existing tests cover a file.
 */

const HOOK = join(REPO_ROOT, "adapters/claude-code/dist/hook.cjs");
const CLI = join(REPO_ROOT, "packages/cli/dist/bin.js");

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

function track(project: TempProject): TempProject {
  projects.push(project);
  return project;
}

const base = (root: string) => ({
  session_id: "3f1e0c7a-5b7e-4a53-9f55-selection01",
  transcript_path: join(root, ".transcript.jsonl"),
  cwd: root,
});

async function hook(root: string, payload: Record<string, unknown>) {
  const result = await runBin(HOOK, [], {
    input: JSON.stringify({ ...base(root), ...payload }),
    env: { CLAUDE_PROJECT_DIR: root },
  });
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  return result.stdout === "" ? {} : (JSON.parse(result.stdout) as Record<string, unknown>);
}

const start = (root: string) => hook(root, { hook_event_name: "SessionStart", source: "startup" });

/** The agent's Edit of `rel` (already written to disk), as Claude Code reports it. */
function edited(root: string, rel: string) {
  return hook(root, {
    hook_event_name: "PostToolUse",
    permission_mode: "default",
    tool_name: "Edit",
    tool_input: { file_path: join(root, rel), old_string: "x", new_string: "y" },
    tool_response: { filePath: join(root, rel), oldString: "x", newString: "y" },
    tool_use_id: `toolu_${rel.replace(/\W/g, "")}`,
  });
}

const stop = (root: string) =>
  hook(root, { hook_event_name: "Stop", permission_mode: "default", stop_hook_active: false });

/** A green end of a turn: nothing for the agent (the person may get a systemMessage line). */
function green(answer: Record<string, unknown>): boolean {
  return Object.keys(answer).every((key) => key === "systemMessage");
}

function contextOf(answer: Record<string, unknown>): string {
  const specific = answer["hookSpecificOutput"] as { additionalContext?: string } | undefined;
  return specific?.additionalContext ?? "";
}

/** A src-layout Python package in a `python3 -m venv --system-site-packages .venv`. */
function pythonProject(): TempProject {
  const project = track(
    makeProject({
      "pyproject.toml":
        '[project]\nname = "shop"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      "src/shop/__init__.py": "from ._cached import cached\nfrom .auth import parse_auth\n",
      "src/shop/_cached.py": "def cached(x):\n    return x * 2\n",
      "src/shop/auth.py": 'def parse_auth(s):\n    return s.split(":")\n',
      "src/shop/url.py":
        "from .auth import parse_auth\n\n\ndef user(u):\n    return parse_auth(u)[0]\n",
      "tests/test_cached.py":
        "from shop import cached\n\n\ndef test_cached():\n    assert cached(2) == 4\n",
      "tests/test_url.py":
        'from shop.url import user\n\n\ndef test_user():\n    assert user("a:b") == "a"\n',
    }),
  );
  execFileSync("python3", ["-m", "venv", "--system-site-packages", join(project.root, ".venv")]);
  const lib = join(project.root, ".venv", "lib");
  const version = readdirSync(lib).find((name) => name.startsWith("python")) ?? "";
  writeFileSync(join(lib, version, "site-packages", "shop.pth"), `${join(project.root, "src")}\n`);
  project.write(".gitignore", ".venv/\n");
  project.write(".tailtest/config.json", "{}\n");
  return project;
}

const python = findToolchain("python3");

describe.skipIf(!python.available)("selection on a src-layout package with a virtualenv", () => {
  it("a bug whose failing test is not the name-matched one blocks the turn, naming that test", async () => {
    const project = pythonProject();
    await commitAll(project.root);
    await start(project.root);
    // A first turn builds the import graph at its end; later edits' notes read it.
    project.write(
      "src/shop/url.py",
      "# users\nfrom .auth import parse_auth\n\n\ndef user(u):\n    return parse_auth(u)[0]\n",
    );
    expect(contextOf(await edited(project.root, "src/shop/url.py"))).toContain("queued");
    expect(green(await stop(project.root))).toBe(true);
    project.write("src/shop/auth.py", 'def parse_auth(s):\n    return s.split("@")\n');
    const note = contextOf(await edited(project.root, "src/shop/auth.py"));
    expect(note).toContain("covered by existing tests");
    expect(note).toContain("tests/test_url.py (they import it through other modules)");
    const answer = await stop(project.root);
    expect(answer["decision"]).toBe("block");
    expect(String(answer["reason"])).toContain("FAIL tests/test_url.py::test_user");
  }, 120_000);

  it("_cached.py maps to tests/test_cached.py; a harmless edit ends the turn green", async () => {
    const project = pythonProject();
    await commitAll(project.root);
    const explained = await runBin(CLI, ["explain", "--json", "src/shop/_cached.py"], {
      cwd: project.root,
    });
    const files = (JSON.parse(explained.stdout) as { files: { related_tests: unknown[] }[] }).files;
    expect(files[0]?.related_tests[0]).toMatchObject({
      path: "tests/test_cached.py",
      evidence: "name",
    });
    await start(project.root);
    project.write("src/shop/_cached.py", "def cached(x):\n    # doubled\n    return x * 2\n");
    await edited(project.root, "src/shop/_cached.py");
    expect(green(await stop(project.root))).toBe(true);
  }, 120_000);

  it("an edited test that is now red blocks the turn; the run uses the venv's interpreter", async () => {
    const project = pythonProject();
    await commitAll(project.root);
    await start(project.root);
    project.write(
      "tests/test_cached.py",
      "from shop import cached\n\n\ndef test_cached():\n    assert cached(2) == 5\n",
    );
    // No note for a test: it is queued to be run, not asked for a test of its own.
    expect(contextOf(await edited(project.root, "tests/test_cached.py"))).toBe("");
    const answer = await stop(project.root);
    expect(answer["decision"]).toBe("block");
    expect(String(answer["reason"])).toContain("FAIL tests/test_cached.py::test_cached");
    // The system python3 cannot import `shop` (only the venv's .pth adds src/): this passing
    // import proves the venv's interpreter ran, though its link leads out of the project.
    expect(String(answer["reason"])).not.toContain("No module named");
  }, 120_000);

  it("a changed pytest config runs the suite: one that breaks pytest blocks, a fix ends green", async () => {
    const project = pythonProject();
    await commitAll(project.root);
    await start(project.root);
    const config = '[project]\nname = "shop"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n';
    // An option pytest does not know: no test can run. Nothing imports a config.
    project.write("pyproject.toml", `${config}addopts = "--no-such-option"\n`);
    expect(contextOf(await edited(project.root, "pyproject.toml"))).toBe("");
    const answer = await stop(project.root);
    expect(answer["decision"]).toBe("block");
    expect(String(answer["reason"])).toContain("unrecognized arguments: --no-such-option");
    project.write("pyproject.toml", `${config}addopts = "-q"\n`);
    await edited(project.root, "pyproject.toml");
    const fixed = await stop(project.root);
    expect(green(fixed)).toBe(true);
    // Both tests of the suite ran, though neither imports the config.
    expect(String(fixed["systemMessage"])).toContain("2 tests passed");
  }, 120_000);

  it("a syntax error two imports away shows pytest's E line, not its traceback's head", async () => {
    const project = pythonProject();
    await commitAll(project.root);
    await start(project.root);
    project.write("src/shop/auth.py", 'def parse_auth(s)\n    return s.split(":")\n');
    await edited(project.root, "src/shop/auth.py");
    const reason = String((await stop(project.root))["reason"]);
    expect(reason).toContain("SyntaxError: expected ':'");
    expect(reason).not.toContain("importtestmodule");
  }, 120_000);
});

describe("selection on a node --test project with test families", () => {
  it("lib/option.js runs tests/option.*.test.js; the note asks for .js tests despite a tsconfig", async () => {
    const project = track(
      makeProject({
        "package.json": JSON.stringify({ type: "module", scripts: { test: "node --test tests/" } }),
        "tsconfig.json": '{ "compilerOptions": { "checkJs": true } }\n',
        "lib/option.js": "export function parseOption(s) {\n  return s.replace(/^--/, '');\n}\n",
        "tests/option.parse.test.js":
          "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { parseOption } from '../lib/option.js';\ntest('strips dashes', () => assert.equal(parseOption('--x'), 'x'));\n",
        "tests/other.test.js": "import { test } from 'node:test';\ntest('unrelated', () => {});\n",
        ".tailtest/config.json": "{}\n",
      }),
    );
    await commitAll(project.root);
    await start(project.root);
    // A new file: only new files must come with a test.
    project.write("lib/help.js", "export const help = () => 'usage: x';\n");
    expect(contextOf(await edited(project.root, "lib/help.js"))).toContain(
      "write test to tests/help.test.js",
    );
    project.write("lib/option.js", "export function parseOption(s) {\n  return s;\n}\n");
    await edited(project.root, "lib/option.js");
    const answer = await stop(project.root);
    expect(answer["decision"]).toBe("block");
    expect(String(answer["reason"])).toContain("tests/option.parse.test.js");
    expect(String(answer["reason"])).toContain(
      "MISSING lib/help.js: no test at tests/help.test.js",
    );
  }, 120_000);
});

describe("selection through a vitest project's imports", () => {
  const vitest = findToolchain("node");
  it.skipIf(!vitest.available)(
    "src/calc.ts is covered by a test named otherwise that imports it",
    async () => {
      const project = track(copyFixtureWithDeps("runners/vitest"));
      project.write(
        "src/calculations.test.ts",
        "import { expect, it } from 'vitest';\nimport { add } from './calc';\nit('adds', () => expect(add(2, 2)).toBe(4));\n",
      );
      const explained = await runBin(CLI, ["explain", "--json", "src/calc.ts"], {
        cwd: project.root,
      });
      const related = (
        JSON.parse(explained.stdout) as { files: { related_tests: { path: string }[] }[] }
      ).files[0]?.related_tests.map((test) => test.path);
      expect(related).toContain("src/calculations.test.ts");
    },
    120_000,
  );
});

describe("Go and Rust tests by their package's layout", () => {
  async function relatedOf(project: TempProject, file: string): Promise<[string, string][]> {
    const result = await runBin(CLI, ["explain", "--json", file], { cwd: project.root });
    const files = (
      JSON.parse(result.stdout) as {
        files: { related_tests: { path: string; evidence: string }[] }[];
      }
    ).files;
    return (files[0]?.related_tests ?? []).map((test) => [test.path, test.evidence]);
  }

  it("a Go file's package tests, its name-matched test first", async () => {
    const project = track(
      makeProject({
        "go.mod": "module example.com/u\n\ngo 1.19\n",
        "marshal.go": "package uuid\n",
        "uuid_test.go": "package uuid\n",
        "json_test.go": "package uuid\n",
        "marshal_test.go": "package uuid\n",
        "sub/other_test.go": "package sub\n",
      }),
    );
    expect(await relatedOf(project, "marshal.go")).toEqual([
      ["marshal_test.go", "name"],
      ["json_test.go", "family"],
      ["uuid_test.go", "family"],
    ]);
  });

  it("a Rust file's own tests, then the integration tests that name it", async () => {
    const project = track(
      makeProject({
        "Cargo.toml": '[package]\nname = "semver"\nversion = "1.0.0"\n',
        "src/lib.rs": "mod eval;\n",
        "src/eval.rs": "pub fn eval() {}\n#[cfg(test)]\nmod tests {}\n",
        "tests/test_eval.rs": "use semver::eval;\n",
        "tests/test_version.rs": "use semver::Version;\n",
      }),
    );
    expect(await relatedOf(project, "src/eval.rs")).toEqual([
      ["src/eval.rs", "self"],
      ["tests/test_eval.rs", "imports"],
      ["tests/test_version.rs", "imports-via"],
    ]);
    const plan = await runBin(CLI, ["run", "--dry-run", "--json", "src/eval.rs"], {
      cwd: project.root,
    });
    const argv = (JSON.parse(plan.stdout) as { runs: { argv: string[] }[] }).runs[0]?.argv;
    expect(argv).toEqual([
      "cargo",
      "test",
      "--no-fail-fast",
      "--lib",
      "--test",
      "test_eval",
      "--test",
      "test_version",
    ]);
  });
});
