// SessionStart on a generated project of 50,000 files (bench/analysis-project.mjs, a git work
// tree) as whole Claude Code hook processes against `node -e 0` in the same run: a project's
// first session (no .tailtest/ yet), a later one, the first in tdd, the first and a later one in
// strict, and a first session with the coverage scan (ramp-up) on, which the original tailtest
// took past 30 s on such a project. Run after a build:
//   node bench/session-start.mjs [--runs N] [--json out.json] [--only TEXT]
// (--only: the cases whose name holds TEXT, and the `node -e 0` baseline)
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
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
} from "./lib.mjs";

const args = benchArgs();
const root = cachedProject("analysis-50k-v1", (dir) => generateAnalysisProject(dir, 50_000));
const env = { ...benchEnv(args), CLAUDE_PROJECT_DIR: root };
const state = join(root, ".tailtest");

const start = (source) =>
  JSON.stringify({
    session_id: `bench-${source}`,
    transcript_path: join(root, "t.jsonl"),
    cwd: root,
    hook_event_name: "SessionStart",
    source,
  });

const TARGET = { ms: 1000, mib: HOOK_MIB };
const startCase = (name, source, prepare, expect) => ({
  name,
  command: process.execPath,
  args: [hookBin("claude-code")],
  input: start(source),
  cwd: root,
  env,
  target: TARGET,
  prepare,
  expect,
});

/** No .tailtest/ at all, or one with only this config. */
const fresh = (config) => () => {
  rmSync(state, { recursive: true, force: true });
  if (config === undefined) return;
  mkdirSync(state, { recursive: true });
  writeFileSync(join(state, "config.json"), JSON.stringify(config));
};

/** Only this config, over the state the previous round of the same case left. */
const configured = (config) => () => {
  mkdirSync(state, { recursive: true });
  writeFileSync(join(state, "config.json"), JSON.stringify(config));
};

const cases = [
  baselineCase(env),
  startCase(
    "SessionStart, 50,000 files, the project's first session",
    "startup",
    fresh(),
    /session started/,
  ),
  // The session before was started by the previous round of this same case.
  startCase(
    "SessionStart, 50,000 files, a later session",
    "startup",
    () => undefined,
    /session started/,
  ),
  // tdd and strict take a content baseline (git's) and, in strict, tailtest's own copy of the
  // production files (ADR 0012): each the first in its mode, after a session in the one before.
  startCase(
    "SessionStart, 50,000 files, the first session in tdd",
    "startup",
    configured({ mode: "tdd" }),
    /session started/,
  ),
  startCase(
    "SessionStart, 50,000 files, then the first in strict",
    "startup",
    () => {
      // Each round copies the production files anew, as a project's first strict session does.
      configured({ mode: "strict" })();
      rmSync(join(state, "objects"), { recursive: true, force: true });
      rmSync(join(state, "tree-snapshot.json"), { force: true });
    },
    /session started/,
  ),
  // A later strict session reads the copy the one before left (5,000 files' entries) and copies
  // only what changed since.
  startCase(
    "SessionStart, 50,000 files, then a later one in strict",
    "startup",
    configured({ mode: "strict" }),
    /session started/,
  ),
  startCase(
    "SessionStart, 50,000 files, first session with ramp-up (ramp_up_limit 5)",
    "startup",
    fresh({ ramp_up_limit: 5 }),
    /coverage scan/,
  ),
];

const chosen = cases.filter(
  (one, index) => index === 0 || args.only === undefined || one.name.includes(args.only),
);
const rows = measure(chosen, {
  runs: args.runs,
  before: (one) => one.prepare?.(),
  check: (one, result) => {
    if (one.expect !== undefined && !one.expect.test(result.stdout))
      throw new Error(`${one.name}: unexpected answer ${result.stdout.slice(0, 400)}`);
  },
});
rmSync(state, { recursive: true, force: true });
report("SessionStart, 50,000 files (bench/session-start.mjs)", rows, args);
