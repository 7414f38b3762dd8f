// The end of a turn with 10 queued source files: the Claude Code Stop hook runs their tests in
// one pytest process, against pytest run directly over the same 10 test files, in the same run
// (and `node -e 0` as ever). A wrapper counts runner processes: exactly one per Stop. Run after a
// build:
//   node bench/verify.mjs [--runs N] [--json out.json]
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  HOOK_MIB,
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
const root = join(scratch("tailtest-bench-verify-"), "project");
const FILES = 10;
cpSync(join(REPO, "fixtures/runners/pytest-pyproject"), root, { recursive: true });
mkdirSync(join(root, "shop"), { recursive: true });
for (let i = 0; i < FILES; i += 1) {
  writeFileSync(
    join(root, `shop/m${i}.py`),
    `def price${i}(amount, rate=${i + 1}):\n    if amount < 0:\n        raise ValueError("negative")\n    return amount * rate\n`,
  );
  const tests = Array.from(
    { length: 5 },
    (_, k) => `def test_price${i}_${k}():\n    assert price${i}(${k}) == ${k} * ${i + 1}\n`,
  ).join("\n\n");
  writeFileSync(
    join(root, `tests/test_m${i}.py`),
    `from shop.m${i} import price${i}\n\n\n${tests}`,
  );
}

// pytest through a wrapper that counts its starts: the hook must start it once per Stop.
const starts = join(root, "..", "pytest-starts.log");
const wrapper = join(root, "..", "counted-pytest");
writeFileSync(
  wrapper,
  `#!/bin/sh\necho run >> ${JSON.stringify(starts)}\nexec python3 -m pytest "$@"\n`,
);
chmodSync(wrapper, 0o755);
mkdirSync(join(root, ".tailtest"), { recursive: true });
writeFileSync(
  join(root, ".tailtest/config.json"),
  JSON.stringify({ runners: { python: { command: [wrapper] } } }),
);
const git = (...argv) => execFileSync("git", argv, { cwd: root, stdio: "ignore" });
git("init", "-q");
git("add", "-A");
git("-c", "user.email=b@b", "-c", "user.name=bench", "commit", "-qm", "bench");

const env = { ...benchEnv(args), CLAUDE_PROJECT_DIR: root };
const claude = (event, extra = {}) =>
  JSON.stringify({
    session_id: "bench",
    transcript_path: join(root, "t.jsonl"),
    cwd: root,
    hook_event_name: event,
    ...extra,
  });
const hook = (input) =>
  runOnce({ command: process.execPath, args: [hookBin("claude-code")], input, cwd: root, env });

// A session with the 10 modules queued, as 10 edits leave it; every Stop starts from it.
hook(claude("SessionStart", { source: "startup" }));
for (let i = 0; i < FILES; i += 1)
  hook(
    claude("PostToolUse", {
      tool_name: "Edit",
      tool_input: { file_path: join(root, `shop/m${i}.py`), old_string: "a", new_string: "b" },
      tool_response: {},
      tool_use_id: `toolu_${i}`,
    }),
  );
// The queue is the session file and its journal of edits not folded in yet (one line each):
// every Stop starts from both as the edits left them.
const session = join(root, ".tailtest/session.json");
const journal = session.replace(/\.json$/, ".edits.jsonl");
const saved = `${session}.bench`;
const savedJournal = existsSync(journal) ? `${journal}.bench` : undefined;
copyFileSync(session, saved);
if (savedJournal !== undefined) copyFileSync(journal, savedJournal);
const restore = () => {
  copyFileSync(saved, session);
  if (savedJournal === undefined) rmSync(journal, { force: true });
  else copyFileSync(savedJournal, journal);
};
const queued = new Set([
  ...JSON.parse(readFileSync(session, "utf8")).pending_files.map((entry) => entry.path),
  ...(savedJournal === undefined ? [] : readFileSync(journal, "utf8").split("\n"))
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line).queue?.path)
    .filter((path) => typeof path === "string"),
]).size;
if (queued !== FILES) throw new Error(`expected ${FILES} queued files, found ${queued}`);

const countStarts = () => {
  try {
    return readFileSync(starts, "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
};

const DIRECT = "pytest over the same 10 test files, run directly";
const testFiles = Array.from({ length: FILES }, (_, i) => `tests/test_m${i}.py`);
const cases = [
  baselineCase(env),
  { name: DIRECT, command: wrapper, args: testFiles, cwd: root, env, direct: true },
  {
    name: "claude-code Stop, 10 queued files (their tests in one pytest process)",
    command: process.execPath,
    args: [hookBin("claude-code")],
    input: claude("Stop", { stop_hook_active: false }),
    cwd: root,
    env,
    target: { of: DIRECT, ratio: 1.2, mib: HOOK_MIB },
    stop: true,
  },
];

let before = 0;
const rows = measure(cases, {
  runs: args.runs,
  before: (one) => {
    before = countStarts();
    if (one.stop) restore();
  },
  check: (one, result) => {
    if (!one.direct && !one.stop) return;
    const started = countStarts() - before;
    if (started !== 1) throw new Error(`${one.name}: ${started} pytest processes`);
    if (one.stop) {
      const results = JSON.parse(readFileSync(session, "utf8")).results;
      const passed = Object.values(results).filter((r) => r.outcome === "passed").length;
      if (passed !== FILES || result.stdout.includes("block"))
        throw new Error(`${one.name}: ${passed} passed; ${result.stdout.slice(0, 400)}`);
    }
  },
});
report("End of a turn, 10 queued files (bench/verify.mjs)", rows, args);
