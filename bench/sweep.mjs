// Codex's Stop hook on a generated project of 50,000 files (bench/analysis-project.mjs, a git
// work tree) as whole processes against `node -e 0` in the same run: the end-of-turn sweep with
// nothing changed, and with 10 files written by a shell command (new files the Stop then names);
// in follow mode (the mtime sweep that queues files) and in tdd mode (the check by content against
// the baseline taken at the turn's start, which reports the files).
// Run after a build:
//   node bench/sweep.mjs [--runs N] [--json out.json]
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateAnalysisProject } from "./analysis-project.mjs";
import {
  HOOK_MIB,
  baselineCase,
  benchArgs,
  benchEnv,
  cachedProject,
  hookBin,
  measure,
  report,
  runOnce,
} from "./lib.mjs";

const args = benchArgs();
const root = cachedProject("analysis-50k-v1", (dir) => generateAnalysisProject(dir, 50_000));
const env = benchEnv(args);
const state = join(root, ".tailtest");
const changedDir = join(root, "src/big/swept");

const payload = (event, extra = {}) =>
  JSON.stringify({
    session_id: "bench",
    turn_id: "t1",
    transcript_path: null,
    cwd: root,
    model: "gpt-5.5",
    hook_event_name: event,
    ...extra,
  });
const call = (event, extra) =>
  runOnce({
    command: process.execPath,
    args: [hookBin("codex")],
    input: payload(event, extra),
    cwd: root,
    env,
  });

// A Codex session whose turn began a minute ago, per mode: every Stop below starts from its state.
const saved = (mode) => join(root, "..", `analysis-50k-v1.sweep-state-${mode}`);
for (const mode of ["follow", "tdd"]) {
  rmSync(state, { recursive: true, force: true });
  rmSync(changedDir, { recursive: true, force: true });
  mkdirSync(state, { recursive: true });
  if (mode !== "follow") writeFileSync(join(state, "config.json"), JSON.stringify({ mode }));
  call("SessionStart", { source: "startup" });
  call("UserPromptSubmit", { prompt: "refactor" });
  rmSync(saved(mode), { recursive: true, force: true });
  cpSync(state, saved(mode), { recursive: true });
}

const stop = payload("Stop", { stop_hook_active: false, last_assistant_message: "done" });
const stopCase = (name, target, changed, mode = "follow") => ({
  name,
  mode,
  command: process.execPath,
  args: [hookBin("codex")],
  input: stop,
  cwd: root,
  env,
  target,
  changed,
});

const cases = [
  baselineCase(env),
  stopCase("codex Stop sweep, 50,000 files, nothing changed", { ms: 250, mib: HOOK_MIB }, 0),
  stopCase("codex Stop sweep, 50,000 files, 10 written by a shell", { ms: 300, mib: HOOK_MIB }, 10),
  stopCase(
    "codex Stop in tdd (by content), 50,000 files, nothing changed",
    { ms: 250, mib: HOOK_MIB },
    0,
    "tdd",
  ),
  stopCase(
    "codex Stop in tdd (by content), 50,000 files, 10 written",
    { ms: 300, mib: HOOK_MIB },
    10,
    "tdd",
  ),
];

const rows = measure(cases, {
  runs: args.runs,
  before: (one) => {
    if (one.changed === undefined) return;
    rmSync(state, { recursive: true, force: true });
    cpSync(saved(one.mode), state, { recursive: true });
    rmSync(changedDir, { recursive: true, force: true });
    if (one.changed === 0) return;
    mkdirSync(changedDir, { recursive: true });
    for (let i = 0; i < one.changed; i += 1)
      writeFileSync(join(changedDir, `n${i}.py`), `def n${i}(value):\n    return value\n`);
  },
  check: (one, result) => {
    if (one.changed === undefined) return;
    const named = (result.stdout.match(/swept\/n\d+\.py/g) ?? []).length;
    if (one.changed === 0 ? result.stdout !== "" : named < one.changed)
      throw new Error(`${one.name}: unexpected answer ${result.stdout.slice(0, 400)}`);
  },
});
rmSync(changedDir, { recursive: true, force: true });
rmSync(state, { recursive: true, force: true });
for (const mode of ["follow", "tdd"]) rmSync(saved(mode), { recursive: true, force: true });
report("Codex's end-of-turn sweep, 50,000 files (bench/sweep.mjs)", rows, args);
