import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { compiledShadowsReason, prepareForPython } from "../../runners/node/python-cache.ts";
import { specOf } from "../../runners/table.ts";
import { runFilesOf, sourcesOfRun } from "../../runners/compiled.ts";
import { JASMINE_REPORTER_SOURCE } from "../parsers/jasmine-reporter.ts";
import { NODE_TEST_REPORTER_SOURCE } from "../parsers/node-test-reporter.ts";
import { TAPE_PRELOAD_SOURCE } from "../parsers/tape-preload.ts";
import {
  CONFIG_WITHOUT_SPEC_TOKEN,
  configWithoutSpecSource,
  displayArg,
  REPORT_TOKEN,
  REPORTER_TOKEN,
  HANG_SECONDS_TOKEN,
  type RunPlan,
} from "../plan.ts";
import type { ParsedRun } from "../results.ts";
import {
  PYTEST_WITNESS_CHILD_DIR_ENV,
  PYTEST_WITNESS_CHILD_SOURCE,
  PYTEST_WITNESS_ENV,
  PYTEST_WITNESS_MODULE,
  PYTEST_WITNESS_SOURCE,
  PYTEST_WITNESS_WATCH_ENV,
  witnessedRun,
} from "../pytest-witness.ts";
import type * as Parsers from "../parsers/index.ts";
import { guardState, tamperedReason } from "./state-guard.ts";
import { emptiedTests } from "./emptied-tests.ts";
import { summarizeRun, type ProcessOutcome, type RunResult } from "../summarize.ts";
import { hangDumpAfterS, hangReason, type HangBound } from "../hang-bound.ts";

type ParsersModule = typeof Parsers;

export interface ExecuteOptions {
  /** Absolute project root; the plan's cwd is relative to it. */
  root: string;
  timeoutMs: number;
  /**
   * A sooner stop for the test process (not a build) when earlier runs say how long its test
   * files take (`hangBound`): a hanging test then costs a minute or so, not `timeoutMs`.
   */
  hang?: HangBound | undefined;
  /** Bytes of output kept from the start and from the end of the run each. */
  outputCapBytes?: number;
  /** Called with each chunk of the runner's output (for a progress line). */
  onOutput?: (chunk: string) => void;
  /** Grace period between SIGTERM and SIGKILL for the process group. */
  killGraceMs?: number;
  /**
   * Project files besides tailtest's deciding ones (`state-guard.ts`) that the run may not remove
   * or change, such as the snapshots a revert needs.
   */
  guard?: readonly string[];
  /**
   * Work for after the run that does not depend on it, done while the runner runs (another
   * process, another core) instead of after it exits. Its failure is its own: never thrown.
   */
  whileRunning?: () => void;
  /**
   * Follow mode: a Python run imports what the project's tree holds, bytecode caches included,
   * as the person's own run would. Otherwise (tdd, strict: the default) the project's
   * `__pycache__` folders are removed first and a run over compiled modules standing in for a
   * source is not a pass (`python-cache.ts`, ADR 0012): an agent could plant them.
   */
  trustCompiled?: boolean;
  /**
   * strict's verification: the claimed files that changed (project-relative) and their content
   * at the claim's snapshot (null: they did not exist). A gating pytest run's witness then says
   * which of them had changed code run while each test ran (`reached`, ADR 0012).
   */
  watch?: ReadonlyArray<{ file: string; before: string | null }>;
}

/** The module each report format hands its runner in place of `REPORTER_TOKEN`. */
const REPORTER_MODULES: Partial<Record<RunPlan["format"], readonly [string, string]>> & {
  "node-test-ndjson": readonly [string, string];
} = {
  "node-test-ndjson": ["node-test-reporter.mjs", NODE_TEST_REPORTER_SOURCE],
  "jasmine-events": ["jasmine-reporter.mjs", JASMINE_REPORTER_SOURCE],
  "tape-tap": ["tape-preload.cjs", TAPE_PRELOAD_SOURCE],
};

const DEFAULT_OUTPUT_CAP = 256 * 1024;
/**
 * Where the output is the report (TAP, unittest's text, mocha's and node's JSON), a middle cut
 * out of it breaks its structure: a subtest opened before the cut never closes, and what came
 * after was read as nested inside it (npm/node-semver's 44 tap files write 530 KB).
 */
const REPORT_OUTPUT_CAP = 8 * 1024 * 1024;

/**
 * Starts one planned runner process, with an argument array (no shell ever sees a file name),
 * in its own process group so a timeout kills the whole tree, and turns what it wrote into a
 * RunResult.
 */

export async function executePlan(plan: RunPlan, options: ExecuteOptions): Promise<RunResult> {
  const cwd = plan.cwd === "" ? options.root : join(options.root, plan.cwd);
  const scratch = await mkdtemp(join(tmpdir(), "tailtest-run-"));
  const reportPath = join(scratch, plan.format === "trx" ? "report.trx" : "report.out");
  try {
    let reporterPath = "";
    if (plan.argv.some((arg) => arg.includes(REPORTER_TOKEN))) {
      // The module tailtest hands the runner (node --test's and jasmine's reporters, tape's
      // preload), by report format.
      const [name, source] = REPORTER_MODULES[plan.format] ?? REPORTER_MODULES["node-test-ndjson"];
      reporterPath = join(scratch, name);
      await writeFile(reporterPath, source);
    }
    let configPath = "";
    const wrapped = plan.argv.find((arg) => arg.startsWith(CONFIG_WITHOUT_SPEC_TOKEN));
    if (wrapped !== undefined) {
      configPath = join(scratch, "config-without-spec.cjs");
      const config = join(cwd, wrapped.slice(CONFIG_WITHOUT_SPEC_TOKEN.length));
      await writeFile(configPath, configWithoutSpecSource(config));
    }
    const bounded = withHangBound(options);
    const argv = [
      ...plan.argv.map((arg) =>
        arg.startsWith(CONFIG_WITHOUT_SPEC_TOKEN)
          ? configPath
          : arg.split(REPORT_TOKEN).join(reportPath).split(REPORTER_TOKEN).join(reporterPath),
      ),
      ...hangArgsOf(plan, bounded.timeoutMs),
    ];
    // Tests that load build output run against this turn's sources, built now.
    if (plan.build !== undefined) {
      const failed = await runBuild(plan, plan.build, cwd, options);
      if (failed !== undefined) return failed;
    }
    // A gating mode's Python run reads no bytecode the project's tree held (`python-cache.ts`).
    const python =
      options.trustCompiled !== true && specOf(plan.runner.id).languages.includes("python");
    // ...and its pytest passes are checked by tailtest's witness plugin (`pytest-witness.ts`).
    const run = await withWitness(plan, argv, scratch, python, options);
    const started = Date.now();
    const guard = guardState(options.root, options.guard);
    // The parsers load while the runner runs (another process, another core), not before it.
    let parsers: Promise<ParsersModule> | undefined;
    const shadows = python ? prepareForPython(options.root) : [];
    const readsOutput =
      plan.report.kind === "output" || READS_OUTPUT_WITHOUT_REPORT.has(plan.format);
    const capped =
      bounded.outputCapBytes === undefined && readsOutput
        ? { ...bounded, outputCapBytes: REPORT_OUTPUT_CAP }
        : bounded;
    const outcome = await runProcess(run.argv, cwd, activated(plan, cwd, run.env), capped, () => {
      parsers = import("../parsers/index.ts");
      try {
        options.whileRunning?.();
      } catch {
        // It only saves time after the run; the run goes on.
      }
    });
    const restored = guard.check();
    const { parseRunOutput } = await (parsers ?? import("../parsers/index.ts"));
    const raw = await readReport(plan, cwd, reportPath, started, outcome.output);
    const context = {
      runner: plan.runner.id,
      packageDir: plan.cwd,
      packageAbs: cwd,
      goModule: await readGoModule(plan, cwd),
      files: runFilesOf(plan.compiled, plan.test_files),
      namesFrom: plan.names_from,
    };
    let parsed = parsedRun(plan, raw ?? outcome.output, raw !== undefined, (format, text) =>
      parseRunOutput(format, text, context),
    );
    // Tests run from tsc's output are named as their sources.
    parsed = sourcesOfRun(plan.compiled, parsed, (file) => existsSync(join(options.root, file)));
    if (run.witness !== "")
      parsed = witnessedRun(parsed, await readText(run.witness), context, run.watching);
    parsed = emptiedTests(options.root, parsed);
    const result = summarizeRun(
      { ...plan, argv: plan.argv.map((arg) => displayArg(arg)) },
      parsed,
      stoppedBy(outcome, bounded, options),
    );
    if (restored.length === 0 && shadows.length === 0) return result;
    // Whatever the runner reported, a run that touched tailtest's files, or that ran compiled
    // Python in place of the project's source, is not a pass.
    const reason = restored.length > 0 ? tamperedReason(restored) : compiledShadowsReason(shadows);
    return {
      ...result,
      status: "error",
      reason,
      tests: [],
      errors: [...result.errors, { kind: "crash", message: reason }],
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The run's report parsed, or its output where the format reads that; else "no report". */
function parsedRun(
  plan: RunPlan,
  text: string,
  reported: boolean,
  parse: (format: RunPlan["format"], text: string) => ParsedRun,
): ParsedRun {
  if (reported || READS_OUTPUT_WITHOUT_REPORT.has(plan.format)) return parse(plan.format, text);
  return {
    tests: [],
    errors: [{ kind: "crash", message: `${plan.runner.id} wrote no report` }],
  };
}

/** The runner's arguments for printing where a test hangs, shortly before `timeoutMs`. */
function hangArgsOf(plan: RunPlan, timeoutMs: number): string[] {
  const seconds = hangDumpAfterS(timeoutMs);
  if (seconds <= 0 || plan.hang_args === undefined) return [];
  return plan.hang_args.map((arg) => arg.split(HANG_SECONDS_TOKEN).join(String(seconds)));
}

/** The options for a run's test process: its hang bound, when sooner, as its timeout. */
function withHangBound(options: ExecuteOptions): ExecuteOptions {
  return options.hang === undefined || options.hang.afterMs >= options.timeoutMs
    ? options
    : { ...options, timeoutMs: options.hang.afterMs };
}

/** A timed-out outcome says what stopped it when the hang bound did. */
function stoppedBy(
  outcome: ProcessOutcome,
  bounded: ExecuteOptions,
  options: ExecuteOptions,
): ProcessOutcome {
  return outcome.timedOut && bounded !== options && options.hang !== undefined
    ? { ...outcome, stoppedBy: hangReason(options.hang) }
    : outcome;
}

/**
 * Runs the build a plan's test files load (`plan.build`) in the run's folder, with the package's
 * and the project's `node_modules/.bin` on the PATH. A build that fails is the run's result (an
 * error naming the build, with its output's last lines): the tests would load the last build.
 */
async function runBuild(
  plan: RunPlan,
  line: string,
  cwd: string,
  options: ExecuteOptions,
): Promise<RunResult | undefined> {
  const bins = [join(cwd, "node_modules", ".bin"), join(options.root, "node_modules", ".bin")];
  const path = [...new Set(bins), process.env["PATH"] ?? ""].join(delimiter);
  const argv = ["sh", "-c", line];
  const outcome = await runProcess(argv, cwd, { PATH: path }, options, () => undefined);
  if (outcome.exitCode === 0 && !outcome.timedOut) return undefined;
  const reason = `the build the tests load (${line}) ${buildFailure(outcome)}, so they did not run`;
  // npm's own warnings (an `npm_config_*` it does not know, set by pnpm or a CI) would fill the
  // excerpt's few lines before the build's error.
  const tail = outcome.output
    .split("\n")
    .filter((text) => text.trim() !== "" && !/^npm (warn|WARN|notice)\b/.test(text))
    .slice(-20)
    .join("\n");
  return {
    runner: plan.runner.id,
    cwd: plan.cwd,
    command: argv,
    exit_code: outcome.exitCode,
    duration_ms: Math.round(outcome.durationMs),
    tests: [],
    // No test file failed to load: the run broke before any (the excerpt shows the build's end).
    errors: [{ kind: "crash", message: tail }],
    output_tail: "",
    status: "error",
    reason,
  };
}

function buildFailure(outcome: ProcessOutcome): string {
  if (outcome.timedOut) return "was stopped after the timeout";
  if (outcome.spawnError !== undefined) return `could not start (${outcome.spawnError})`;
  return `failed (exit ${outcome.exitCode ?? outcome.signal ?? "unknown"})`;
}

/**
 * A gating mode's pytest run with tailtest's witness plugin (any other run as planned, with
 * witness ""): its module in the run's scratch folder, on `PYTHONPATH`, loaded with `-p` before
 * the report's option (so the selectors stay last), and the file it writes named in its
 * environment.
 */
async function withWitness(
  plan: RunPlan,
  argv: string[],
  scratch: string,
  gating: boolean,
  options: ExecuteOptions,
): Promise<{ argv: string[]; env: Record<string, string>; witness: string; watching: boolean }> {
  if (!gating || plan.runner.id !== "pytest")
    return { argv, env: plan.env, witness: "", watching: false };
  await writeFile(join(scratch, `${PYTEST_WITNESS_MODULE}.py`), PYTEST_WITNESS_SOURCE);
  const child = join(scratch, "child");
  const at = plan.argv.findIndex((arg) => arg.includes(REPORT_TOKEN));
  const cut = at < 0 ? argv.length : at;
  const witness = join(scratch, "witness.jsonl");
  const inherited = plan.env.PYTHONPATH ?? process.env.PYTHONPATH ?? "";
  const watched = options.watch ?? [];
  const watch: Record<string, string> = {};
  if (watched.length > 0) {
    const entries = watched.map(({ file, before }) => [
      file,
      { path: join(options.root, file), before },
    ]);
    watch[PYTEST_WITNESS_WATCH_ENV] = join(scratch, "watch.json");
    await writeFile(watch[PYTEST_WITNESS_WATCH_ENV], JSON.stringify(Object.fromEntries(entries)));
    // The processes a watched test starts report what they ran (the child witness).
    await mkdir(child, { recursive: true });
    await writeFile(join(child, "sitecustomize.py"), PYTEST_WITNESS_CHILD_SOURCE);
    watch[PYTEST_WITNESS_CHILD_DIR_ENV] = child;
  }
  return {
    argv: [...argv.slice(0, cut), "-p", PYTEST_WITNESS_MODULE, ...argv.slice(cut)],
    env: {
      ...plan.env,
      PYTHONPATH: inherited === "" ? scratch : `${scratch}${delimiter}${inherited}`,
      [PYTEST_WITNESS_ENV]: witness,
      ...watch,
    },
    witness,
    watching: watched.length > 0,
  };
}

/** A run from a virtualenv sees it activated: its `bin/` first on PATH, `VIRTUAL_ENV` set. */
function activated(
  plan: RunPlan,
  cwd: string,
  env: Record<string, string>,
): Record<string, string> {
  if (plan.venv === undefined) return env;
  const venv = resolve(cwd, plan.venv);
  const path = env["PATH"] ?? process.env["PATH"] ?? "";
  const bin = join(venv, "bin");
  return {
    ...env,
    PATH: path === "" ? bin : `${bin}${delimiter}${path}`,
    VIRTUAL_ENV: venv,
  };
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/** mocha writes no report when a spec file cannot load; the reason is in its output. */
const READS_OUTPUT_WITHOUT_REPORT = new Set(["mocha-json", "node-test-ndjson"]);

async function readGoModule(plan: RunPlan, cwd: string): Promise<string | undefined> {
  if (plan.runner.id !== "go") return undefined;
  try {
    return /^module\s+(\S+)/m.exec(await readFile(join(cwd, "go.mod"), "utf8"))?.[1];
  } catch {
    return undefined;
  }
}

export async function runProcess(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string>,
  options: ExecuteOptions,
  onStarted: () => void,
): Promise<ProcessOutcome> {
  const cap = options.outputCapBytes ?? DEFAULT_OUTPUT_CAP;
  const output = new CappedText(cap);
  const started = performance.now();
  const [file, ...args] = argv;
  // Every process the run starts inherits this mark, also one that leaves the process group
  // (`setsid`, a daemon): at the timeout, or when one keeps the output open after the runner
  // ended, whatever carries the mark is killed (Linux, through /proc).
  const mark = `${process.pid}-${started.toFixed(0)}-${Math.random().toString(36).slice(2)}`;
  // node's own spawn, not execa: a `tailtest run` of one test file paid more for evaluating
  // execa than for the rest of its start (docs/performance.md). Loaded here: hooks that only
  // queue files start no process.
  const { spawn } = process.getBuiltinModule("node:child_process");
  const child = spawn(file ?? "", args, {
    cwd,
    env: { ...process.env, ...env, [RUN_MARK_ENV]: mark },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    windowsHide: true,
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: string }>(
    (settle) => {
      let error: string | undefined;
      child.on("error", (failure: NodeJS.ErrnoException) => {
        error = failure.code ?? failure.message.split("\n")[0] ?? "unknown error";
        // A process that never started has nothing more to say.
        if (child.pid === undefined) settle({ code: null, signal: null, error });
      });
      child.on("close", (code, signal) =>
        settle({ code, signal, ...(error === undefined ? {} : { error }) }),
      );
    },
  );
  const firstPid = child.pid;
  onStarted();
  let timedOut = false;
  const kill = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const release = () => {
    killMarked(mark, false, firstPid);
    // Whatever still holds the pipes is gone or out of reach: stop reading them.
    child.stdout?.destroy();
    child.stderr?.destroy();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill("SIGTERM");
    setTimeout(() => {
      kill("SIGKILL");
      release();
    }, options.killGraceMs ?? 2000).unref();
  }, options.timeoutMs);
  // The runner ended, but a process it left (in or out of its group) may keep the output open,
  // and with it this hook: after a short grace, it is killed.
  let held: NodeJS.Timeout | undefined;
  child.on("exit", () => {
    held = setTimeout(() => {
      kill("SIGKILL");
      release();
    }, STREAM_GRACE_MS);
    held.unref();
  });
  // One stream of both, as the runner wrote them; each decoded whole characters at a time.
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (text: string) => {
      output.push(text);
      options.onOutput?.(text);
    });
  }
  const result = await ended;
  clearTimeout(timer);
  if (held !== undefined) clearTimeout(held);
  // Whatever the runner left behind, in its group or not (watchers, servers, a `setsid` child),
  // goes with it; build daemons that outlive a build by design stay.
  kill("SIGKILL");
  const durationMs = performance.now() - started;
  // A long run may have gone round the whole pid range: every process is looked at then.
  killMarked(mark, !timedOut, durationMs < FULL_SCAN_AFTER_MS ? firstPid : undefined);
  // A process ended by a signal has no exit code either, but it did start.
  const signal = timedOut ? undefined : (result.signal ?? undefined);
  const spawnError =
    result.error !== undefined && result.code === null && !timedOut && signal === undefined
      ? result.error
      : undefined;
  return {
    exitCode: result.code,
    timedOut,
    signal,
    durationMs,
    spawnError,
    output: output.text(),
  };
}

/** The environment variable every process of a run inherits (see `runProcess`). */
export const RUN_MARK_ENV = "TAILTEST_RUN_MARK";
/** How long the output may stay open after the runner ended. */
const STREAM_GRACE_MS = 2000;

/** Runs at least this long look at every process after they end (see `killMarked`). */
const FULL_SCAN_AFTER_MS = 10_000;

/**
 * Kills every process that carries a run's mark in its environment (Linux: /proc/<pid>/environ,
 * readable for the user's own processes), a few rounds, as a dying tree may still fork. With
 * `firstPid` (the runner's), only the processes started since are read: Linux hands out pids in
 * order, wrapping at its maximum, and the last one it gave is in /proc/loadavg, so a process
 * started by the run has a pid from `firstPid` on to that one (on a busy machine, a scan of
 * every process cost a short run more than the rest of tailtest's work after it).
 */
export function killMarked(mark: string, sparingDaemons = false, firstPid?: number): number {
  if (process.platform !== "linux") return 0;
  const { readdirSync, readFileSync } = process.getBuiltinModule("node:fs");
  const needle = Buffer.from(`${RUN_MARK_ENV}=${mark}\0`);
  let killed = 0;
  for (let round = 0; round < 3; round += 1) {
    let found = 0;
    let pids: string[];
    try {
      pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
    } catch {
      return killed;
    }
    const since = startedSince(firstPid, readFileSync);
    for (const pid of pids) {
      if (Number(pid) === process.pid || !since(Number(pid))) continue;
      let environ: Buffer;
      try {
        environ = readFileSync(`/proc/${pid}/environ`);
      } catch {
        continue;
      }
      if (environ.indexOf(needle) < 0) continue;
      if (sparingDaemons && isBuildDaemon(pid)) continue;
      try {
        process.kill(Number(pid), "SIGKILL");
        found += 1;
      } catch {
        // Gone already.
      }
    }
    killed += found;
    if (found === 0) break;
  }
  return killed;
}

/**
 * Whether a pid may belong to a process started since `firstPid` was handed out: from it to the
 * last pid given (/proc/loadavg's last field), across the wrap when the counter went round.
 * Every pid may when that cannot be told.
 */
function startedSince(
  firstPid: number | undefined,
  read: (path: string, encoding: "latin1") => string,
): (pid: number) => boolean {
  if (firstPid === undefined) return () => true;
  let last: number;
  try {
    last = Number(/(\d+)\s*$/.exec(read("/proc/loadavg", "latin1"))?.[1]);
  } catch {
    return () => true;
  }
  if (!Number.isSafeInteger(last) || last <= 0) return () => true;
  return last >= firstPid
    ? (pid) => pid >= firstPid && pid <= last
    : (pid) => pid >= firstPid || pid <= last;
}

/** Gradle's and Kotlin's daemons serve the next build: killing them costs every run a start. */
const BUILD_DAEMON = /GradleDaemon|KotlinCompileDaemon|GradleWorkerMain/;

function isBuildDaemon(pid: string): boolean {
  try {
    const { readFileSync } = process.getBuiltinModule("node:fs");
    return BUILD_DAEMON.test(readFileSync(`/proc/${pid}/cmdline`, "latin1"));
  } catch {
    return false;
  }
}

async function readReport(
  plan: RunPlan,
  cwd: string,
  reportPath: string,
  startedAt: number,
  output: string,
): Promise<string | undefined> {
  switch (plan.report.kind) {
    case "output":
      return output;
    case "file":
      try {
        return await readFile(reportPath, "utf8");
      } catch {
        return undefined;
      }
    case "dir": {
      const dir = join(cwd, plan.report.path);
      const pattern = globToRegex(plan.report.pattern);
      let names: string[];
      try {
        names = (await readdir(dir)).filter((name) => pattern.test(name)).sort();
      } catch {
        return undefined;
      }
      // Reports left by earlier builds are not this run's results.
      const fresh: string[] = [];
      for (const name of names) {
        const info = await stat(join(dir, name));
        if (info.mtimeMs >= startedAt - 1000) fresh.push(await readFile(join(dir, name), "utf8"));
      }
      return fresh.length === 0
        ? undefined
        : `<testsuites>${fresh.map(stripXmlDeclaration).join("\n")}</testsuites>`;
    }
  }
}

function stripXmlDeclaration(xml: string): string {
  return xml.replace(/^\s*<\?xml[^>]*\?>/, "");
}

function globToRegex(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
}

/** Keeps the first and the last `cap` bytes of a long output, with a marker between. */
class CappedText {
  private head = "";
  private tail = "";
  private dropped = 0;
  constructor(private readonly cap: number) {}
  push(text: string): void {
    if (this.head.length < this.cap) {
      const room = this.cap - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text === "") return;
    this.tail += text;
    if (this.tail.length > this.cap) {
      this.dropped += this.tail.length - this.cap;
      this.tail = this.tail.slice(-this.cap);
    }
  }
  text(): string {
    return this.dropped === 0
      ? this.head + this.tail
      : `${this.head}\n… (${this.dropped} characters cut) …\n${this.tail}`;
  }
}
