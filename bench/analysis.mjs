// The optional analyses (impact tracing, API validation, ramp-up, style sampling) as whole Claude
// Code hook processes, against `node -e 0` in the same run: on a fixture project and on a
// generated project of 50,000 source and test files (bench/analysis-project.mjs). Run after a
// build:
//   node bench/analysis.mjs [--runs N] [--json out.json]
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
  measure,
  report,
  runOnce,
  scratch,
} from "./lib.mjs";

const args = benchArgs(process.argv.slice(2), { runs: 10 });
const env = benchEnv(args);
const box = scratch("tailtest-bench-analysis-");
const big = cachedProject("analysis-50k-v1", (dir) => generateAnalysisProject(dir, 50_000));

const ALL_ON = {
  impact_tracing: true,
  api_validation: true,
  style_sampling: true,
  ramp_up_limit: 7,
};
const EDIT_ON = { impact_tracing: true, api_validation: true };

function configure(root, config) {
  rmSync(join(root, ".tailtest"), { recursive: true, force: true });
  mkdirSync(join(root, ".tailtest"), { recursive: true });
  if (config !== undefined)
    writeFileSync(join(root, ".tailtest/config.json"), JSON.stringify(config));
}

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
const hook = (root, input) =>
  runOnce({
    command: process.execPath,
    args: [hookBin("claude-code")],
    input,
    cwd: root,
    env: { ...env, CLAUDE_PROJECT_DIR: root },
  });

/** A copy of the Python fixture, its analyses' state built by a session start. */
function fixture(name, config) {
  const root = join(box, name);
  cpSync(join(REPO, "fixtures/analysis/python-app"), root, { recursive: true });
  configure(root, config);
  hook(root, start(root));
  return root;
}
const small = fixture("off", undefined);
const smallOn = fixture("on", EDIT_ON);

// The 50,000-file project: its state with every analysis done (a 10 s box lets them finish),
// kept aside and put back before each case that needs it.
configure(big, { ...ALL_ON, analysis_budget_ms: 10_000 });
const whole = hook(big, start(big));
if (/time box/.test(whole.stdout)) throw new Error("the 10 s box did not hold the whole work");
console.log(
  `one-off: a session start doing every analysis on 50,000 files (10 s box): ${whole.ms.toFixed(0)} ms, ${((whole.rssKiB ?? 0) / 1024).toFixed(1)} MiB`,
);
const built = join(box, "built-state");
cpSync(join(big, ".tailtest"), built, { recursive: true });

const state = (config) => () => {
  if (config === "built") {
    rmSync(join(big, ".tailtest"), { recursive: true, force: true });
    cpSync(built, join(big, ".tailtest"), { recursive: true });
    writeFileSync(join(big, ".tailtest/config.json"), JSON.stringify(ALL_ON));
  } else configure(big, config);
};

const ANY = { mib: HOOK_MIB };
const hookCase = (name, root, input, prepare, expect) => ({
  name,
  command: process.execPath,
  args: [hookBin("claude-code")],
  input,
  cwd: root,
  env: { ...env, CLAUDE_PROJECT_DIR: root },
  target: ANY,
  prepare,
  expect,
});

const cases = [
  baselineCase(env),
  hookCase("PostToolUse Write, analyses off (fixture)", small, write(small, "src/shop/billing.py")),
  hookCase(
    "PostToolUse Write, impact + API on (fixture)",
    smallOn,
    write(smallOn, "src/shop/billing.py"),
    undefined,
    /Impact/,
  ),
  hookCase(
    "PostToolUse Write, analyses off (50k)",
    big,
    write(big, "src/big/p3/m7.py"),
    state(undefined),
  ),
  hookCase(
    "PostToolUse Write, impact + API on (50k, graph built)",
    big,
    write(big, "src/big/p3/m7.py"),
    state("built"),
    /Impact/,
  ),
  hookCase(
    "SessionStart, all analyses on, 500 ms box (50k)",
    big,
    start(big),
    state(ALL_ON),
    /time box \(500 ms\)|coverage scan/,
  ),
];

const rows = measure(cases, {
  runs: args.runs,
  before: (one) => one.prepare?.(),
  check: (one, result) => {
    if (one.expect !== undefined && !one.expect.test(result.stdout))
      throw new Error(`${one.name}: unexpected answer ${result.stdout.slice(0, 400)}`);
  },
});
rmSync(join(big, ".tailtest"), { recursive: true, force: true });
report("Optional analyses (bench/analysis.mjs)", rows, args);
