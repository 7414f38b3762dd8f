// Related-test selection at scale, against `node -e 0` in the same run, on generated projects of
// 5,000 and 50,000 source and test files (bench/analysis-project.mjs): the per-edit note with and
// without the import graph (whole Claude Code hook processes), and the selection's own cost as
// `tailtest explain --json` reports it (`selection_cpu_ms`, judged; `selection_ms`, wall, shown),
// warm (graph built) and cold (no graph).
// Run after a build:
//   node bench/selection-scale.mjs [--runs N] [--json out.json]
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateAnalysisProject } from "./analysis-project.mjs";
import {
  HOOK_MIB,
  REPO,
  baselineCase,
  benchArgs,
  benchEnv,
  cachedProject,
  hookBin,
  median,
  measure,
  report,
  runOnce,
  scratch,
} from "./lib.mjs";

const args = benchArgs(process.argv.slice(2), { runs: 10 });
const env = benchEnv(args);
const box = scratch("tailtest-bench-selection-");
const CLI = join(REPO, "packages/cli/dist/bin.js");
const small = cachedProject("selection-5k-v1", (dir) => generateAnalysisProject(dir, 5_000));
const big = cachedProject("analysis-50k-v1", (dir) => generateAnalysisProject(dir, 50_000));

const payload = (root, fields) =>
  JSON.stringify({
    session_id: "bench",
    transcript_path: join(root, "t.jsonl"),
    cwd: root,
    ...fields,
  });
const start = (root) => payload(root, { hook_event_name: "SessionStart", source: "startup" });
const write = (root, rel) =>
  payload(root, {
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(root, rel) },
    tool_response: {},
  });
const EDITED = "src/big/p3/m7.py";
const hookEnv = (root) => ({ ...env, CLAUDE_PROJECT_DIR: root });

/**
 * The project's `.tailtest/` with a complete import graph, built once by a session start with
 * impact tracing on and a box long enough to finish, then kept aside; the default config after.
 */
function builtState(root, name) {
  rmSync(join(root, ".tailtest"), { recursive: true, force: true });
  mkdirSync(join(root, ".tailtest"), { recursive: true });
  writeFileSync(
    join(root, ".tailtest/config.json"),
    JSON.stringify({ impact_tracing: true, analysis_budget_ms: 10_000 }),
  );
  const hook = (input) =>
    runOnce({
      command: process.execPath,
      args: [hookBin("claude-code")],
      input,
      cwd: root,
      env: hookEnv(root),
    });
  // A build cut short by its box is carried on by edits (each gets a fifth of the box).
  let answer = hook(start(root)).stdout;
  for (let round = 0; /cut short|incomplete/.test(answer); round += 1) {
    if (round === 50) throw new Error(`${name}: the import graph never completed`);
    answer = hook(write(root, EDITED)).stdout;
  }
  const kept = join(box, name);
  mkdirSync(kept, { recursive: true });
  cpSync(join(root, ".tailtest/graph"), join(kept, "graph"), { recursive: true });
  return kept;
}
const graphs = { small: builtState(small, "small"), big: builtState(big, "big") };

/**
 * Puts a project's state back: the default config, and its graph or none. The session stays, so
 * an edit is the file's next edit, as most are (its first asks git whether it is new).
 */
const state = (root, graph) => () => {
  mkdirSync(join(root, ".tailtest"), { recursive: true });
  writeFileSync(join(root, ".tailtest/config.json"), "{}\n");
  rmSync(join(root, ".tailtest/graph"), { recursive: true, force: true });
  if (graph !== undefined)
    cpSync(join(graph, "graph"), join(root, ".tailtest/graph"), { recursive: true });
};

/** A per-edit hook at most 1.5× `node -e 0` (issue's long-term goal 1.3×), 64 MiB at most. */
const EDIT = { ratio: 1.5, mib: HOOK_MIB };
const COVERED = /covered by existing tests tests\/p3\/test_m7\.py/;
const edit = (name, root, graph, target, expect) => ({
  name,
  command: process.execPath,
  args: [hookBin("claude-code")],
  input: write(root, EDITED),
  cwd: root,
  env: hookEnv(root),
  target,
  prepare: state(root, graph),
  expect,
});

const cases = [
  baselineCase(env),
  edit("PostToolUse Write, no import graph (5k)", small, undefined, EDIT, /queued/),
  edit("PostToolUse Write, import graph built (5k)", small, graphs.small, EDIT, COVERED),
  edit("PostToolUse Write, import graph built (50k)", big, graphs.big, { mib: HOOK_MIB }, COVERED),
];
const rows = measure(cases, {
  runs: args.runs,
  before: (one) => one.prepare?.(),
  check: (one, result) => {
    if (one.expect !== undefined && !one.expect.test(result.stdout))
      throw new Error(`${one.name}: unexpected answer ${result.stdout.slice(0, 400)}`);
  },
});

/**
 * Selection's own cost for one edited file, as `tailtest explain --json` measures it inside the
 * command (the command's start is the CLI benchmark's): the median of `runs` fresh processes, as
 * wall time (`selection_ms`) and as the CPU time the process and its git children spent on it
 * (`selection_cpu_ms`). On a shared machine the wall time carries the load; the CPU time does
 * not, so the targets are judged on it and the wall time is reported beside it.
 */
function selectionRows(name, root, graph, target) {
  const wall = [];
  const cpu = [];
  let rss = 0;
  for (let round = -1; round < args.runs; round += 1) {
    state(root, graph)();
    const result = runOnce({
      command: process.execPath,
      args: [CLI, "explain", "--json", EDITED],
      cwd: root,
      env,
    });
    if (result.status !== 0) throw new Error(`${name}: exit ${result.status}: ${result.stderr}`);
    const answer = JSON.parse(result.stdout);
    const tests = answer.files[0]?.related_tests?.map((test) => test.path) ?? [];
    if (!tests.includes("tests/p3/test_m7.py"))
      throw new Error(
        `${name}: the covering test was not selected: ${result.stdout.slice(0, 400)}`,
      );
    if (round >= 0) {
      wall.push(answer.selection_ms);
      cpu.push(answer.selection_cpu_ms);
    }
    rss = Math.max(rss, result.rssKiB ?? 0);
  }
  const { mib, ...time } = target;
  return [
    {
      name: `${name}: CPU time`,
      target: time,
      ms: median(cpu),
      minMs: Math.min(...cpu),
    },
    {
      name: `${name}: wall`,
      ...(mib === undefined ? {} : { target: { mib } }),
      ms: median(wall),
      minMs: Math.min(...wall),
      rssKiB: rss || undefined,
    },
  ];
}
rows.push(
  ...selectionRows("selection of one file, warm (5k)", small, graphs.small, { ms: 50 }),
  ...selectionRows("selection of one file, cold (50k)", big, undefined, {
    ms: 1000,
    mib: HOOK_MIB,
  }),
);
for (const root of [small, big]) rmSync(join(root, ".tailtest"), { recursive: true, force: true });
report("Selection at scale (bench/selection-scale.mjs)", rows, args);
