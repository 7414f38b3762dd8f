import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createSession, parseLog } from "@tailtest/core";
import { appendTddEntries, readTddEntries } from "@tailtest/core/node";
import { makeProject, REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");
const SESSION = "sess-1";
const LOG = `.tailtest/tdd/${SESSION}.log`;
const RED_COMMAND =
  'tailtest red --test "<test file>" --expects "<test name> fails because <reason>"';
const REASONS = "refactoring, lint-only, adding-coverage";

let project: TempProject;
beforeEach(() => {
  project = makeProject({ "src/calc.ts": "export const add = () => 0;\n" });
  project.write(
    ".tailtest/session.json",
    JSON.stringify(
      createSession({
        sessionId: SESSION,
        now: "2026-02-24T10:00:00.000Z",
        depth: "standard",
        mode: "tdd",
        runners: [],
      }),
    ),
  );
});
afterEach(() => {
  project.cleanup();
});

const tailtest = (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) =>
  runBin(BIN, args, {
    cwd: options.cwd ?? project.root,
    ...(options.env ? { env: options.env } : {}),
  });

const RED_ARGS = [
  "red",
  "--test",
  "src/calc.test.ts",
  "--expects",
  "add fails because it returns 0",
];

async function appendRun(key: string, outcome: "passed" | "failed"): Promise<void> {
  await appendTddEntries(project.root, key, [
    {
      kind: "test",
      command: "npx vitest run src/calc.test.ts",
      outcome,
      at: new Date().toISOString(),
      ...(outcome === "failed" ? { error: "AssertionError: expected 0 to be 3" } : {}),
    },
  ]);
}

describe("tailtest red / green / tdd status", () => {
  it("is built", () => {
    expect(existsSync(BIN), "run the build first (pnpm test does)").toBe(true);
  });

  it("walks a whole cycle in the session's log", async () => {
    expect(await tailtest(RED_ARGS)).toEqual({
      stdout: `tailtest: Red recorded in ${LOG}; state: writing_tests`,
      stderr: "",
      exitCode: 0,
    });

    // The Red has not been seen failing: Green is refused with the command to run next.
    expect(await tailtest(["green", "--change", "make add add", "--file", "src/calc.ts"])).toEqual({
      stdout: "",
      stderr:
        'Run your failing test(s) before logging Green. Your Red (src/calc.test.ts) has not been seen failing yet: run it, then: tailtest green --change "make add add" --file src/calc.ts',
      exitCode: 1,
    });

    await appendRun(SESSION, "failed");
    // From a subfolder: the root is found, and --file is taken relative to the cwd.
    const green = await tailtest(["green", "--change", "make add add", "--file", "calc.ts"], {
      cwd: join(project.root, "src"),
    });
    expect(green).toEqual({
      stdout: `tailtest: Green for src/calc.ts recorded in ${LOG}; state: making_tests_pass`,
      stderr: "",
      exitCode: 0,
    });

    const status = await tailtest(["tdd", "status"]);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toBe(
      [
        `log       ${LOG} (from session)`,
        "state     making_tests_pass",
        "active    Green: make add add",
        "allowlist src/calc.ts",
        "last test npx vitest run src/calc.test.ts - failed (AssertionError: expected 0 to be 3)",
        "overrides none",
      ].join("\n"),
    );

    await appendRun(SESSION, "passed");
    const json = await tailtest(["tdd", "status", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      key: SESSION,
      key_source: "session",
      state: "initial",
      cycle_complete: true,
      allowlist: [],
      declaration: null,
      last_test: { outcome: "passed" },
      problems: [],
      torn: false,
    });

    // The human log has one block per entry, in order, for the same entries events.jsonl holds.
    const text = readFileSync(join(project.root, LOG), "utf8");
    expect(parseLog(text).entries.map((entry) => entry.kind)).toEqual([
      "red",
      "test",
      "green",
      "test",
    ]);
    expect(text).toContain("\nFile: src/calc.ts\n");
  });

  it("records an override and says so", async () => {
    await tailtest(RED_ARGS);
    const again = await tailtest(["red", "--test", "src/other.test.ts", "--expects", "x fails"]);
    expect(again.stdout).toBe(
      `tailtest: Red (override from writing_tests) recorded in ${LOG}; state: writing_tests`,
    );
    const skip = await tailtest([
      "green",
      "--skip-red",
      "--reason",
      "refactoring",
      "--change",
      "rename",
      "--file",
      "src/",
    ]);
    expect(skip).toEqual({
      stdout: `tailtest: Green (skip-red: refactoring, override from writing_tests) for src/** recorded in ${LOG}; state: making_tests_pass`,
      stderr: "",
      exitCode: 0,
    });
    const status = await tailtest(["tdd", "status"]);
    expect(status.stdout).toContain(
      "overrides red over writing_tests; green --skip-red over writing_tests",
    );
  });

  it.each([
    {
      name: "Green with no Red",
      args: ["green", "--change", "c", "--file", "src/calc.ts"],
      stderr: `Cannot log Green without a preceding Red cycle. Write a failing test first: ${RED_COMMAND}`,
    },
    {
      name: "--skip-red without --reason",
      args: ["green", "--skip-red", "--change", "c", "--file", "src/calc.ts"],
      stderr: `--skip-red requires --reason. Valid reasons: ${REASONS}. Run: tailtest green --skip-red --reason <refactoring|lint-only|adding-coverage> --change "c" --file src/calc.ts`,
    },
    {
      name: "an invalid --reason",
      args: [
        "green",
        "--skip-red",
        "--reason",
        "because",
        "--change",
        "c",
        "--file",
        "src/calc.ts",
      ],
      stderr: `Invalid --reason "because". Valid reasons: ${REASONS}. Run: tailtest green --skip-red --reason <refactoring|lint-only|adding-coverage> --change "c" --file src/calc.ts`,
    },
    {
      name: "no --file",
      args: ["green", "--change", "c"],
      stderr:
        '--file is missing: list every file this change edits. Run: tailtest green --change "c" --file <path/to/file>',
    },
    {
      name: "a --file outside the project",
      args: [
        "green",
        "--skip-red",
        "--reason",
        "refactoring",
        "--change",
        "c",
        "--file",
        "../elsewhere.ts",
        "--file",
        "src/calc.ts",
      ],
      stderr:
        '--file ../elsewhere.ts is not inside the project: give every file relative to the project root. Run: tailtest green --skip-red --reason refactoring --change "c" --file src/calc.ts',
    },
    {
      name: "an empty --test",
      args: ["red", "--test", " ", "--expects", "e fails"],
      stderr:
        '--test is empty: name the test you are about to make fail. Run: tailtest red --test "<test file>" --expects "e fails"',
    },
  ])(
    "refuses $name with one line on stderr and exit 1, logging nothing",
    async ({ args, stderr }) => {
      expect(await tailtest(args)).toEqual({ stdout: "", stderr, exitCode: 1 });
      expect(existsSync(join(project.root, ".tailtest/events.jsonl"))).toBe(false);
    },
  );

  it("refuses a Red whose --test is a production file, and says where the test goes", async () => {
    // A Rust crate's unit tests sit in its source file's #[cfg(test)] module: `red --test
    // src/lib.rs` was recorded, and then every edit of src/lib.rs was denied as production code.
    project.write("Cargo.toml", '[package]\nname = "calc"\nversion = "0.1.0"\n');
    project.write("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 { a + b }\n");
    const rust = await tailtest(["red", "--test", "src/lib.rs", "--expects", "sub fails: no sub"]);
    expect(rust.exitCode).toBe(1);
    expect(rust.stderr).toContain("src/lib.rs is production code, not a test file");
    expect(rust.stderr).toContain('tailtest red --test "tests/<name>.rs"');
    const ts = await tailtest(["red", "--test", "src/calc.ts::add", "--expects", "add fails"]);
    expect(ts.exitCode).toBe(1);
    expect(ts.stderr).toContain("tailtest explain src/calc.ts");
    expect(existsSync(join(project.root, ".tailtest/events.jsonl"))).toBe(false);
    // A test file, a file not written yet and a bare test name are declared as before.
    for (const test of ["src/calc.test.ts", "tests/sub.rs", "test_sub"])
      expect((await tailtest(["red", "--test", test, "--expects", "x fails"])).exitCode).toBe(0);
  });

  it("an absolute --file outside the project is refused too", async () => {
    const outside = makeProject();
    try {
      const result = await tailtest([
        "green",
        "--skip-red",
        "--reason",
        "lint-only",
        "--change",
        "c",
        "--file",
        join(outside.root, "x.ts"),
      ]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/^--file \S+x\.ts is not inside the project/);
      expect((await readTddEntries(project.root, SESSION)).entries).toEqual([]);
    } finally {
      outside.cleanup();
    }
  });

  it("a missing required option is a usage error (exit 2)", async () => {
    const result = await tailtest(["red", "--test", "t"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("required option '--expects <text>' not specified");
  });

  it("--agent keeps a subagent's log apart from the main agent's", async () => {
    const sub = await tailtest([...RED_ARGS, "--agent", "helper-1"]);
    expect(sub.stdout).toBe(
      `tailtest: Red recorded in .tailtest/tdd/${SESSION}.helper-1.log; state: writing_tests`,
    );
    await appendRun(`${SESSION}.helper-1`, "failed");

    // The main agent has no Red: its Green is refused although the subagent's Red failed.
    const main = await tailtest(["green", "--change", "c", "--file", "src/calc.ts"]);
    expect(main.exitCode).toBe(1);
    expect(main.stderr).toContain("Cannot log Green without a preceding Red cycle.");

    const subGreen = await tailtest([
      "green",
      "--agent",
      "helper-1",
      "--change",
      "c",
      "--file",
      "src/calc.ts",
    ]);
    expect(subGreen.exitCode).toBe(0);

    const mainStatus = JSON.parse((await tailtest(["tdd", "status", "--json"])).stdout) as object;
    expect(mainStatus).toMatchObject({ key: SESSION, state: "initial", last_test: null });
    const subStatus = await tailtest(["tdd", "status", "--agent", "helper-1", "--json"]);
    expect(JSON.parse(subStatus.stdout)).toMatchObject({
      key: `${SESSION}.helper-1`,
      key_source: "agent",
      state: "making_tests_pass",
      allowlist: ["src/calc.ts"],
    });
    expect(existsSync(join(project.root, LOG))).toBe(false);
  });

  it("TAILTEST_TDD_KEY names the log outright", async () => {
    const result = await tailtest(RED_ARGS, { env: { TAILTEST_TDD_KEY: "from-env" } });
    expect(result.stdout).toBe(
      "tailtest: Red recorded in .tailtest/tdd/from-env.log; state: writing_tests",
    );
    expect((await readTddEntries(project.root, "from-env")).entries).toHaveLength(1);
    expect((await readTddEntries(project.root, SESSION)).entries).toEqual([]);
  });

  it("reports unreadable lines in events.jsonl but carries on", async () => {
    project.write(".tailtest/events.jsonl", "garbage\n");
    const result = await tailtest(RED_ARGS);
    expect(result).toEqual({
      stdout: `tailtest: Red recorded in ${LOG}; state: writing_tests`,
      stderr:
        "tailtest: warning: skipped 1 unreadable line(s) in .tailtest/events.jsonl (first: line 1: not JSON)",
      exitCode: 0,
    });
    const status = await tailtest(["tdd", "status"]);
    expect(status.stdout).toContain("problems  1 unreadable line(s) in .tailtest/events.jsonl");
  });
});
