// What `tailtest` adds to a test run on real projects (the corpus of fixtures/projects/, set up as
// bench/selection.mjs sets them up), interleaved with the same runner run directly in the same
// run: `tailtest run <test file>` against the project's runner on that file (≤ 1.1× + 100 ms), on
// projects of different runners, and Claude Code's Stop with 10 queued files against the runner
// run directly over the test files that Stop ran (≤ 1.15×). Run after a build:
//   node bench/run-cost.mjs [--runs N] [--projects cachetools,negotiator,commander,ufo] [--json out.json]
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
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
import { loadCorpus, missingToolchain, prepare, runnerArgv } from "./selection.mjs";

const argv = process.argv.slice(2);
const args = benchArgs(
  argv.filter((_, i) => argv[i] !== "--projects" && argv[i - 1] !== "--projects"),
);
const at = argv.indexOf("--projects");
/** Four runners: pytest, mocha, node --test, vitest (dayjs's jest takes minutes per round here). */
const PROJECTS =
  at === -1 ? ["cachetools", "negotiator", "commander", "ufo"] : argv[at + 1].split(",");
/** One test file of each project, run alone (`tailtest run <file>` and the runner on it). */
const RUN_FILE = {
  cachetools: "tests/test_lru.py",
  negotiator: "test/charset.js",
  commander: "tests/command.action.test.js",
  dayjs: "test/parse.test.js",
  ufo: "test/parse.test.ts",
};
/** The project whose Stop runs 10 queued files: its 5 modules and 5 of its test files. */
const STOP_PROJECT = "cachetools";
const QUEUED = 10;

const TAILTEST = join(REPO, "packages/cli/dist/tailtest.cjs");
if (!existsSync(TAILTEST)) throw new Error("build first: npx -y pnpm@10.34.9 build");
const box = scratch("tailtest-bench-run-cost-");
const env = benchEnv(args, { CI: "true" });

const cases = [baselineCase(env)];
let stop;
for (const project of loadCorpus(PROJECTS)) {
  const missing = missingToolchain(project.meta);
  if (missing !== undefined) {
    console.log(`${project.name}: skipped (${missing})`);
    continue;
  }
  const root = join(box, project.name);
  prepare(project, root);
  const file =
    RUN_FILE[project.name] ?? project.meta.modules[Object.keys(project.meta.modules)[0]][0];
  const [command, ...bare] = runnerArgv(project.meta, root, [file]);
  const direct = `${project.meta.runner} ${file} (${project.name}), run directly`;
  cases.push(
    { name: direct, command, args: bare, cwd: root, env },
    {
      name: `tailtest run ${file} (${project.name})`,
      command: process.execPath,
      args: [TAILTEST, "run", file],
      cwd: root,
      env,
      target: { of: direct, ratio: 1.1, plusMs: 100 },
    },
  );
  if (project.name === STOP_PROJECT) stop = stopCases(project, root);
}
if (stop !== undefined) cases.push(...stop.cases);

const rows = measure(cases, {
  runs: args.runs,
  instructions: args.instructions,
  before: (one) => {
    if (one.stop) stop.restore();
  },
  check: (one, result) => {
    if (one.stop) stop.check(result);
  },
});
report("What tailtest adds to a test run, real projects (bench/run-cost.mjs)", rows, args);

/**
 * A Claude Code session on `root` with 10 files queued (the project's modules, then test files),
 * as 10 edits leave it; every Stop starts from it. pytest runs through a wrapper that logs its
 * arguments: the direct case runs pytest, through the same wrapper, over the test files the
 * warm-up Stop gave it, and every Stop must give it the same ones.
 */
function stopCases(project, root) {
  const log = join(root, "..", `${project.name}-pytest-args.log`);
  const wrapper = join(root, "..", `${project.name}-pytest`);
  writeFileSync(
    wrapper,
    `#!/bin/sh\necho "$@" >> ${JSON.stringify(log)}\nexec ${JSON.stringify(join(root, ".venv/bin/python"))} -m pytest "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  mkdirSync(join(root, ".tailtest"), { recursive: true });
  writeFileSync(
    join(root, ".tailtest/config.json"),
    JSON.stringify({ runners: { python: { command: [wrapper] } } }),
  );
  const hookEnv = { ...env, CLAUDE_PROJECT_DIR: root };
  const claude = (event, extra = {}) =>
    JSON.stringify({
      session_id: "bench",
      transcript_path: join(root, "t.jsonl"),
      cwd: root,
      hook_event_name: event,
      ...extra,
    });
  const hook = (input) =>
    runOnce({
      command: process.execPath,
      args: [hookBin("claude-code")],
      input,
      cwd: root,
      env: hookEnv,
    });
  const modules = Object.keys(project.meta.modules);
  const tests = [...new Set(Object.values(project.meta.modules).flat())];
  const files = [...modules, ...tests].slice(0, QUEUED);
  hook(claude("SessionStart", { source: "startup" }));
  files.forEach((file, i) =>
    hook(
      claude("PostToolUse", {
        tool_name: "Edit",
        tool_input: { file_path: join(root, file), old_string: "a", new_string: "b" },
        tool_response: {},
        tool_use_id: `toolu_${i}`,
      }),
    ),
  );
  // The queue is the session file and its journal of edits not folded in yet (one line each):
  // every Stop starts from both as the edits left them.
  const session = { path: join(root, ".tailtest/session.json") };
  session.journal = session.path.replace(/\.json$/, ".edits.jsonl");
  session.saved = save(session.path);
  session.savedJournal = save(session.journal);
  const queued = new Set([
    ...JSON.parse(readFileSync(session.path, "utf8")).pending_files.map((entry) => entry.path),
    ...journalPaths(session.journal),
  ]).size;
  if (queued !== QUEUED) throw new Error(`expected ${QUEUED} queued files, found ${queued}`);
  // The warm-up Stop: the test files it gave pytest are what the direct case runs.
  const first = hook(claude("Stop", { stop_hook_active: false }));
  const ran = lastTestFiles(log);
  if (ran.length === 0) throw new Error(`the Stop ran no test: ${first.stdout.slice(0, 400)}`);
  restore(session);
  const direct = `pytest over the ${ran.length} test files the Stop ran (${project.name}), run directly`;
  return {
    restore: () => restore(session),
    cases: [
      { name: direct, command: wrapper, args: ran, cwd: root, env },
      {
        name: `claude-code Stop, ${QUEUED} queued files (${project.name})`,
        command: process.execPath,
        args: [hookBin("claude-code")],
        input: claude("Stop", { stop_hook_active: false }),
        cwd: root,
        env: hookEnv,
        target: { of: direct, ratio: 1.15 },
        stop: true,
      },
    ],
    check(result) {
      const again = lastTestFiles(log);
      if (again.join() !== ran.join())
        throw new Error(`the Stop ran other tests: ${again.join(", ")}; ${result.stdout}`);
    },
  };
}

/** A copy of a state file beside it, or undefined when there is none. */
function save(path) {
  if (!existsSync(path)) return undefined;
  copyFileSync(path, `${path}.bench`);
  return `${path}.bench`;
}

/** The session and its journal as the 10 edits left them. */
function restore({ path, journal, saved, savedJournal }) {
  copyFileSync(saved, path);
  if (savedJournal === undefined) rmSync(journal, { force: true });
  else copyFileSync(savedJournal, journal);
}

/** The files queued in a session's journal (`{"queue": {"path": …}}` lines). */
function journalPaths(journal) {
  if (!existsSync(journal)) return [];
  return readFileSync(journal, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line).queue?.path)
    .filter((path) => typeof path === "string");
}

/** The test files of the last pytest start the wrapper logged (its options left out). */
function lastTestFiles(log) {
  const lines = readFileSync(log, "utf8").trim().split("\n");
  const words = (lines.at(-1) ?? "").split(" ");
  const files = [];
  for (let i = 0; i < words.length; i += 1) {
    if (words[i] === "-o" || words[i] === "-p") i += 1;
    else if (words[i] !== "" && !words[i].startsWith("-")) files.push(words[i]);
  }
  return files.sort();
}
