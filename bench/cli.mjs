// The `tailtest` command as a person starts it, against `node -e 0` in the same run: the start
// of `--version`, `--help`, `status` and `explain` (each ≤ 2× `node -e 0`), and `tailtest run
// <test file>` against the bare runner on the same file (≤ 1.1× + 100 ms) for pytest, node --test
// and vitest. The bin is the one `@tailtest/cli` publishes (`dist/tailtest.cjs`: a CommonJS
// launcher and the code-cached `tailtest-main.cjs`); the warm-up round writes each command's code
// cache, as a person's first call of a command does. `--instructions` also counts each process's
// instructions once (valgrind), which a busy machine does not change. Run after a build:
//   node bench/cli.mjs [--runs N] [--env-as-is] [--instructions] [--json out.json]
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  REPO,
  baselineCase,
  benchArgs,
  benchEnv,
  hookBin,
  measure,
  report,
  runOnce,
  scratch,
} from "./lib.mjs";

const args = benchArgs();
const box = scratch("tailtest-bench-cli-");
const env = benchEnv(args);
const TAILTEST = join(REPO, "packages/cli/dist/tailtest.cjs");
const PACKAGE_BIN = join(REPO, "packages/cli/dist/bin.js");

/** A runner fixture copied as a project that uses tailtest (a `.tailtest/` folder), in git. */
function project(fixture, name = fixture) {
  const root = join(box, name);
  cpSync(join(REPO, "fixtures/runners", fixture), root, { recursive: true });
  mkdirSync(join(root, ".tailtest"), { recursive: true });
  const git = (...argv) => execFileSync("git", argv, { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "bench");
  return root;
}

// `status` reads what a session leaves: a session with queued files and a finished turn.
const python = project("pytest-pyproject");
const hook = (payload) =>
  runOnce({
    command: process.execPath,
    args: [hookBin("claude-code")],
    input: JSON.stringify({
      session_id: "bench",
      transcript_path: join(python, "t.jsonl"),
      cwd: python,
      ...payload,
    }),
    cwd: python,
    env: { ...env, CLAUDE_PROJECT_DIR: python },
  });
hook({ hook_event_name: "SessionStart", source: "startup" });
for (const file of ["calc.py", "tests/test_calc.py"])
  hook({
    hook_event_name: "PostToolUse",
    tool_name: "Edit",
    tool_input: { file_path: join(python, file), old_string: "a", new_string: "b" },
    tool_response: {},
    tool_use_id: "toolu_bench",
  });
hook({ hook_event_name: "Stop", stop_hook_active: false });

const nodeTest = project("node-test");
const vitest = project("vitest");
// The repository's own vitest, as the fixture's dependency (what `npm install` would give it).
if (!existsSync(join(vitest, "node_modules")))
  symlinkSync(join(REPO, "node_modules"), join(vitest, "node_modules"), "dir");
writeFileSync(join(vitest, ".gitignore"), "node_modules\n");

/** ≤ 2× `node -e 0`: the target for the command's start (by instructions with `--instructions`). */
const START = { ratio: 2, instructions: true };
const tailtest = (name, argv, cwd, extra = {}) => ({
  name,
  command: process.execPath,
  args: [TAILTEST, ...argv],
  cwd,
  env,
  target: START,
  ...extra,
});

/** The fixtures keep one failing test: the bare run and `tailtest run` both exit 1. */
const runPair = (label, root, bare, testFile) => {
  const bareName = `${label} ${testFile}, run directly`;
  return [
    {
      name: bareName,
      command: bare[0],
      args: [...bare.slice(1), testFile],
      cwd: root,
      env,
      exit: 1,
    },
    {
      name: `tailtest run ${testFile} (${label})`,
      command: process.execPath,
      args: [TAILTEST, "run", testFile],
      cwd: root,
      env,
      exit: 1,
      target: { of: bareName, ratio: 1.1, plusMs: 100 },
      expect: /1 failed|failed/,
    },
  ];
};

const cases = [
  baselineCase(env),
  tailtest("tailtest --version", ["--version"], python, { expect: /^\d+\.\d+\.\d+\n$/ }),
  tailtest("tailtest --help", ["--help"], python, { expect: /Usage: tailtest/ }),
  tailtest("tailtest status (a session, a finished turn)", ["status"], python, {
    expect: /sessions/,
  }),
  tailtest("tailtest explain calc.py (tracked, graph built)", ["explain", "calc.py"], python, {
    expect: /verdict/,
  }),
  {
    name: "dist/bin.js, the same launcher as an ES module, --version",
    command: process.execPath,
    args: [PACKAGE_BIN, "--version"],
    cwd: python,
    env,
  },
  ...runPair("pytest", python, ["python3", "-m", "pytest"], "tests/test_calc.py"),
  ...runPair("node --test", nodeTest, [process.execPath, "--test"], "test/calc.test.js"),
  ...runPair("vitest", vitest, ["npx", "vitest", "run"], "src/calc.test.ts"),
];

const rows = measure(cases, {
  runs: args.runs,
  instructions: args.instructions,
  check: (one, result) => {
    if (one.expect !== undefined && !one.expect.test(result.stdout))
      throw new Error(`${one.name}: unexpected output: ${result.stdout.slice(0, 300)}`);
  },
});
report("The tailtest command (bench/cli.mjs)", rows, args);
