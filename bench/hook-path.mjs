// Whole-process timings of every hook that runs around a tool call, as ratios against
// `node -e 0` in the same run (a hook is a fresh process on every edit). Run after a build:
//   node bench/hook-path.mjs [--runs N] [--only TEXT] [--env-as-is] [--json out.json]
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  HOOK_MIB,
  REPO,
  baselineCase,
  benchArgs,
  benchEnv,
  hookArgs,
  measure,
  report,
  scratch,
} from "./lib.mjs";

const args = benchArgs();
const box = scratch("tailtest-bench-hooks-");

/** The pytest fixture as a git project in a mode, with files a turn of edits can name. */
function project(name, mode, extra = () => {}) {
  const root = join(box, name);
  cpSync(join(REPO, "fixtures/runners/pytest-pyproject"), root, { recursive: true });
  mkdirSync(join(root, ".tailtest"), { recursive: true });
  if (mode !== undefined)
    writeFileSync(join(root, ".tailtest/config.json"), `{"mode":"${mode}"}\n`);
  for (let i = 0; i < 64; i += 1)
    writeFileSync(join(root, `mod${i}.py`), `def f${i}(x):\n    return x + ${i}\n`);
  extra(root);
  const git = (...argv) => execFileSync("git", argv, { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "bench");
  return root;
}

const follow = project("follow", undefined);
const tdd = project("tdd", "tdd");
// A project in tdd mode for months: 20,000 lines of earlier sessions in events.jsonl (the gate's
// audit, Reds, runs) and 5,000 in tdd-applied.jsonl; the gate reads only its own session's.
const tddLong = project("tdd-long", "tdd", (root) => {
  writeFileSync(join(root, ".tailtest/events.jsonl"), tddHistory(20_000));
  writeFileSync(join(root, ".tailtest/tdd-applied.jsonl"), appliedHistory(5_000));
});
// 1,000 verified claims (5,000 events), none open: the gate reads the whole log and denies.
const strict = project("strict", "strict", (root) =>
  writeFileSync(join(root, ".tailtest/events.jsonl"), strictHistory(1000)),
);

/** The state folder the hooks keep their copies in (mode-witness.ts, state-copy.ts): the bench's own. */
const state = join(box, "state");

// 4,000 test files in 400 folders and a new source file no test is named after: the note's
// search for a test with its name elsewhere in the test folders reads up to its bound, then keeps
// what it listed (`.tailtest/test-names.txt`) for the turn's next notes; the end of a turn sets it
// aside, for the next turn's first note to take back once it finds each folder unchanged.
const wide = project("wide", undefined, (root) => {
  for (let area = 0; area < 40; area += 1)
    for (let sub = 0; sub < 10; sub += 1) {
      const dir = join(root, "tests", `area${area}`, `sub${sub}`);
      mkdirSync(dir, { recursive: true });
      for (let i = 0; i < 10; i += 1)
        writeFileSync(join(dir, `test_a${area}s${sub}m${i}.py`), "def test_x():\n    pass\n");
    }
});
for (const root of [follow, wide]) writeFileSync(join(root, "fresh.py"), "x = 1\n");

// A real TypeScript project of the corpus (unjs/ufo, vitest): a queued edit there detects its
// runner from package.json and reads the suite's shape, which the Python projects above never
// do. Reported beside the fixture's case; its figure is what a JavaScript user's edit costs.
const typed = join(box, "ufo");
cpSync(join(REPO, "fixtures/projects/ufo"), typed, { recursive: true });
{
  const git = (...argv) => execFileSync("git", argv, { cwd: typed, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "bench");
}

function tddHistory(lines) {
  const at = "2026-11-23T10:00:00.000Z";
  const out = [];
  for (let i = 0; i < lines; i += 1) {
    const agent_key = `earlier-session-${Math.floor(i / 200)}`;
    const line =
      i % 10 === 0
        ? {
            v: 1,
            type: "tdd.red",
            agent_key,
            test: `tests/test_calc.py::test_${i}`,
            expects: "fails",
            at,
          }
        : i % 10 === 1
          ? {
              v: 1,
              type: "tdd.test",
              agent_key,
              command: "python -m pytest",
              outcome: "failed",
              at,
            }
          : {
              v: 1,
              type: "tdd.edit",
              agent_key,
              path: `mod${i % 64}.py`,
              file_class: "prod",
              state: "red",
              decision: "allowed",
              at,
            };
    out.push(`${JSON.stringify(line)}\n`);
  }
  return out.join("");
}

function appliedHistory(lines) {
  const out = [];
  for (let i = 0; i < lines; i += 1) {
    const line = {
      path: `mod${i % 64}.py`,
      content: "a".repeat(40),
      agent_key: `earlier-session-${Math.floor(i / 50)}`,
      at: "2026-11-23T10:00:00.000Z",
    };
    out.push(`${JSON.stringify(line)}\n`);
  }
  return out.join("");
}

function strictHistory(claims) {
  const ts = "2026-11-23T10:00:00.000Z";
  const hash = "a".repeat(64);
  const lines = [];
  for (let i = 0; i < claims; i += 1) {
    const id = `tests/test_calc.py::test_case_${i}`;
    const test = {
      id,
      file: "tests/test_calc.py",
      segments: [`test_case_${i}`],
      runner: "pytest",
      source: "native",
    };
    const run = {
      v: 1,
      type: "test_run",
      ts,
      test_id: id,
      test,
      command: "python -m pytest",
      duration_ms: 900,
      test_file_hash: hash,
    };
    lines.push(
      { ...run, status: "fail", fail_reason: "assertion", purpose: "claim" },
      { v: 1, type: "edit_claim", ts, claim: `c${i + 1}`, test_id: id, edit_target: "calc.py" },
      { v: 1, type: "snapshot", ts, claim: `c${i + 1}`, path: "calc.py", object: hash },
      { ...run, status: "pass", purpose: "verify" },
      { v: 1, type: "verify_result", ts, scope: "claim", claim: `c${i + 1}`, status: "pass" },
    );
  }
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

const claude = (root, event, tool, input, extra = {}) => ({
  session_id: "bench",
  transcript_path: join(root, "t.jsonl"),
  cwd: root,
  permission_mode: "bypassPermissions",
  hook_event_name: event,
  tool_name: tool,
  tool_input: input,
  tool_use_id: "toolu_bench",
  ...extra,
});
const codex = (root, event, tool, command) => ({
  session_id: "bench",
  turn_id: "t",
  transcript_path: null,
  cwd: root,
  model: "gpt-5.5",
  hook_event_name: event,
  tool_name: tool,
  tool_input: { command },
  ...(event === "PostToolUse" ? { tool_response: "Exit code: 0" } : {}),
  tool_use_id: "call_bench",
});
const cursor = (root, event, extra) => ({
  conversation_id: "bench",
  generation_id: "g",
  cursor_version: "2.1.50",
  workspace_roots: [root],
  hook_event_name: event,
  ...extra,
});
const update = (file) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-x\n+y\n*** End Patch\n`;
const writeInput = (root, file) => ({ file_path: join(root, file), content: "x = 1\n" });

const env = benchEnv(args);
// The gated projects as a session that started in their mode leaves them: a session file, and
// the copies of its mode and of the state logs outside the project, which the gates then read.
// The follow project's session is started too, as every agent's is: its start builds the import
// graph, which a queued edit's note then reads for the tests covering the file (without it the
// bench measured a cheaper call than any real session makes).
for (const root of [follow, tdd, tddLong, strict, typed])
  execFileSync(process.execPath, hookArgs("claude-code", "SessionStart"), {
    input: JSON.stringify({ ...claude(root, "SessionStart"), source: "startup" }),
    cwd: root,
    env: { ...env, CLAUDE_PROJECT_DIR: root, XDG_STATE_HOME: state },
    stdio: ["pipe", "ignore", "ignore"],
  });
const hook = (name, adapter, root, payload, target, expect) => ({
  name,
  command: process.execPath,
  // As the command `init` writes runs it: the hook flags, the file, the event.
  args: hookArgs(adapter, payload.hook_event_name),
  input: JSON.stringify(payload),
  cwd: root,
  env: { ...env, CLAUDE_PROJECT_DIR: root, CURSOR_PROJECT_DIR: root, XDG_STATE_HOME: state },
  target: target ?? ANY,
  expect,
});

const QUEUED = /queued/;
/**
 * A per-edit hook and a gate at most 1.5× `node -e 0` (the long-term goal stays 1.3×); every
 * hook at most 64 MiB.
 */
const GATE = { ratio: 1.5, mib: HOOK_MIB };
const ANY = { mib: HOOK_MIB };
const DENIED = /"deny"/;
let tracked = 0;
const cases = [
  baselineCase(env),
  hook(
    "claude-code PostToolUse Write, a queued file",
    "claude-code",
    follow,
    claude(follow, "PostToolUse", "Write", writeInput(follow, "calc.py"), {
      tool_response: { type: "update" },
    }),
    GATE,
    QUEUED,
  ),
  hook(
    "claude-code PostToolUse Write, a queued file of a real TypeScript project (unjs/ufo)",
    "claude-code",
    typed,
    claude(typed, "PostToolUse", "Write", writeInput(typed, "src/parse.ts"), {
      tool_response: { type: "update" },
    }),
    undefined,
    QUEUED,
  ),
  hook(
    "claude-code PostToolUse Write, a new file without a test",
    "claude-code",
    follow,
    claude(follow, "PostToolUse", "Write", writeInput(follow, "fresh.py"), {
      tool_response: { type: "create" },
    }),
    GATE,
    QUEUED,
  ),
  hook(
    "claude-code PostToolUse Write, a new file without a test, 4,000 test files",
    "claude-code",
    wide,
    claude(wide, "PostToolUse", "Write", writeInput(wide, "fresh.py"), {
      tool_response: { type: "create" },
    }),
    GATE,
    QUEUED,
  ),
  {
    ...hook(
      "claude-code PostToolUse Write, a new file without a test, 4,000 test files, nothing kept",
      "claude-code",
      wide,
      claude(wide, "PostToolUse", "Write", writeInput(wide, "fresh.py"), {
        tool_response: { type: "create" },
      }),
      undefined,
      QUEUED,
    ),
    // No listing kept, this turn's or an earlier one's: the search reads the folders.
    next: () => {
      rmSync(join(wide, ".tailtest/test-names.txt"), { force: true });
      rmSync(join(wide, ".tailtest/test-names.earlier.txt"), { force: true });
      return JSON.stringify(
        claude(wide, "PostToolUse", "Write", writeInput(wide, "fresh.py"), {
          tool_response: { type: "create" },
        }),
      );
    },
  },
  {
    ...hook(
      "claude-code PostToolUse Write, a new file without a test, 4,000 test files, the turn's first",
      "claude-code",
      wide,
      claude(wide, "PostToolUse", "Write", writeInput(wide, "fresh.py"), {
        tool_response: { type: "create" },
      }),
      undefined,
      QUEUED,
    ),
    // The turn's first such note: the turn's start set the listing aside (`forgetTestNames`), so
    // the note checks each folder it read, unchanged since, and takes it back.
    next: () => {
      rmSync(join(wide, ".tailtest/test-names.earlier.txt"), { force: true });
      if (existsSync(join(wide, ".tailtest/test-names.txt")))
        renameSync(
          join(wide, ".tailtest/test-names.txt"),
          join(wide, ".tailtest/test-names.earlier.txt"),
        );
      return JSON.stringify(
        claude(wide, "PostToolUse", "Write", writeInput(wide, "fresh.py"), {
          tool_response: { type: "create" },
        }),
      );
    },
  },
  hook(
    "cursor afterFileEdit, a queued file",
    "cursor",
    follow,
    cursor(follow, "afterFileEdit", { file_path: join(follow, "calc.py"), edits: [] }),
    GATE,
    /^\{\}/,
  ),
  hook(
    "codex PostToolUse apply_patch, a queued file",
    "codex",
    follow,
    codex(follow, "PostToolUse", "apply_patch", update("calc.py")),
    GATE,
    QUEUED,
  ),
  {
    ...hook(
      "claude-code PostToolUse Edit, a tracked file's first edit (git)",
      "claude-code",
      follow,
      {},
      undefined,
      QUEUED,
    ),
    // A file not queued yet, a different one each run: new or existing is asked of git once.
    next: () =>
      JSON.stringify(
        claude(follow, "PostToolUse", "Edit", {
          file_path: join(follow, `mod${(tracked += 1) % 64}.py`),
          old_string: "x",
          new_string: "y",
        }),
      ),
  },
  hook(
    "codex PostToolUse Bash, a command that writes (shell parser)",
    "codex",
    follow,
    codex(follow, "PostToolUse", "Bash", "cat > calc.py <<'EOF'\nx = 1\nEOF\n"),
    undefined,
    QUEUED,
  ),
  hook(
    "codex PostToolUse Bash, a read-only command",
    "codex",
    follow,
    codex(follow, "PostToolUse", "Bash", "git status --short && ls -la"),
    undefined,
    /^$/,
  ),
  hook(
    "claude-code PreToolUse Write, follow (launcher only)",
    "claude-code",
    follow,
    claude(follow, "PreToolUse", "Write", writeInput(follow, "calc.py")),
    undefined,
    /^$/,
  ),
  hook(
    "codex PreToolUse apply_patch, follow (launcher only)",
    "codex",
    follow,
    codex(follow, "PreToolUse", "apply_patch", update("calc.py")),
    undefined,
    /^$/,
  ),
  hook(
    "cursor preToolUse Write, follow (launcher only)",
    "cursor",
    follow,
    cursor(follow, "preToolUse", {
      tool_name: "Write",
      tool_input: writeInput(follow, "calc.py"),
      tool_use_id: "t",
    }),
    undefined,
    /^\{\}/,
  ),
  hook(
    "claude-code PreToolUse Write, tdd gate (denied)",
    "claude-code",
    tdd,
    claude(tdd, "PreToolUse", "Write", writeInput(tdd, "calc.py")),
    GATE,
    DENIED,
  ),
  hook(
    "claude-code PreToolUse Write, tdd gate (denied), 20,000 lines of earlier sessions",
    "claude-code",
    tddLong,
    claude(tddLong, "PreToolUse", "Write", writeInput(tddLong, "calc.py")),
    GATE,
    DENIED,
  ),
  hook(
    "claude-code PostToolUse Write, tdd, 20,000 lines of earlier sessions",
    "claude-code",
    tddLong,
    claude(tddLong, "PostToolUse", "Write", writeInput(tddLong, "calc.py"), {
      tool_response: { type: "update" },
    }),
    GATE,
    /^$/,
  ),
  hook(
    "codex PreToolUse apply_patch, tdd gate (denied)",
    "codex",
    tdd,
    codex(tdd, "PreToolUse", "apply_patch", update("calc.py")),
    GATE,
    DENIED,
  ),
  hook(
    "cursor preToolUse Write, tdd gate (denied)",
    "cursor",
    tdd,
    cursor(tdd, "preToolUse", {
      tool_name: "Write",
      tool_input: writeInput(tdd, "calc.py"),
      tool_use_id: "t",
    }),
    GATE,
    DENIED,
  ),
  hook(
    "codex PreToolUse Bash, tdd gate on a shell write (parser, denied)",
    "codex",
    tdd,
    codex(tdd, "PreToolUse", "Bash", "echo 'x = 1' > calc.py"),
    undefined,
    DENIED,
  ),
  hook(
    "claude-code PreToolUse Write, strict gate, 5,000-event log",
    "claude-code",
    strict,
    claude(strict, "PreToolUse", "Write", writeInput(strict, "calc.py")),
    GATE,
    DENIED,
  ),
  hook(
    "codex PreToolUse apply_patch, strict gate, 5,000-event log",
    "codex",
    strict,
    codex(strict, "PreToolUse", "apply_patch", update("calc.py")),
    GATE,
    DENIED,
  ),
  hook(
    "cursor preToolUse Write, strict gate, 5,000-event log",
    "cursor",
    strict,
    cursor(strict, "preToolUse", {
      tool_name: "Write",
      tool_input: writeInput(strict, "calc.py"),
      tool_use_id: "t",
    }),
    GATE,
    DENIED,
  ),
];

// `--only TEXT`: `node -e 0` and the cases whose name holds TEXT (`--only gate`).
const chosen = cases.filter(
  (one, index) => index === 0 || args.only === undefined || one.name.includes(args.only),
);
const rows = measure(chosen, {
  runs: args.runs,
  instructions: args.instructions,
  before: (one) => {
    if (one.next !== undefined) one.input = one.next();
  },
  check: (one, result) => {
    if (one.expect !== undefined && !one.expect.test(result.stdout))
      throw new Error(
        `${one.name}: unexpected answer ${result.stdout.slice(0, 300)} ${result.stderr.slice(0, 300)}`,
      );
  },
});
report("Hooks around a tool call (bench/hook-path.mjs)", rows, args);
