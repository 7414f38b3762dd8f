import { join, relative, sep } from "node:path";
import chokidar, { type FSWatcher } from "chokidar";
import {
  isSkippedDir,
  OUTCOME_LABELS,
  outcomeStatusOf,
  renderFailureExcerpt,
  runnerLabel,
  SessionStateSchema,
  unqueueFiles,
  type OutcomeStatus,
  type SessionState,
  type TextStyle,
} from "@tailtest/core";
import {
  endSession,
  flushToHistory,
  inspectEdit,
  openProject,
  queueEdit,
  readState,
  sessionFile,
  startSession,
  updateState,
  verifyTurn,
  type Project,
  type Verification,
} from "@tailtest/core/node";
import { onProcessSignals } from "../closed-output.ts";
import { rootOrRefuse } from "../project-root.ts";
import { startProgress } from "../terminal.ts";

/**
 * `tailtest watch`: for agents without hooks (Aider, Cline, Continue) and for people. A chokidar
 * watcher sees files change; after a quiet period each changed file goes through the hooks' own
 * filter and queue (`inspectEdit`, `queueEdit`), and the queue's tests run through the hooks'
 * own end-of-turn engine (`verifyTurn`), so outcomes land in the same session and history.
 * SIGINT or SIGTERM stops it: the run in progress finishes, the session's outcomes are flushed
 * to history, and it exits 0.
 */

export interface WatchOptions {
  root?: string;
  debounce: string;
}

export interface WatchIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  style: TextStyle;
  /** stderr is a terminal: the progress line redraws itself. */
  interactive: boolean;
  /** Calls `stop` on SIGINT/SIGTERM; returns a function that removes the handlers. */
  onStopSignal?: (stop: () => void) => () => void;
  now?: () => Date;
}

type Change = "changed" | "deleted";

function clock(now: Date): string {
  return now.toTimeString().slice(0, 8);
}

/** The order a run's verdict is picked in: the worst outcome class any file had. */
const VERDICT_ORDER: readonly OutcomeStatus[] = [
  "failed",
  "timeout",
  "env_error",
  "missing_test",
  "not_run",
  "fixed",
  "passed",
];

function styleOutcome(status: OutcomeStatus, text: string, style: TextStyle): string {
  if (status === "passed" || status === "fixed") return style.good(text);
  return status === "failed" ? style.bad(text) : style.warn(text);
}

/** Each checked file's outcome class, from the session the run was recorded in. */
export function outcomeClasses(
  verification: Verification,
  session: SessionState,
): Record<string, OutcomeStatus> {
  const classes: Record<string, OutcomeStatus> = {};
  for (const file of Object.keys(verification.outcomes)) {
    const result = session.results[file];
    classes[file] =
      result === undefined ? "not_run" : outcomeStatusOf(result, session.fix_attempts[file] ?? 0);
  }
  return classes;
}

/**
 * One line per run: time, the verdict (the worst outcome class, in the words `status`, `history`
 * and the report use), each file's outcome, runners and time taken; the failure excerpt after a
 * red one.
 */
export function renderWatchResult(
  verification: Verification,
  classes: Readonly<Record<string, OutcomeStatus>>,
  now: Date,
  style: TextStyle,
  root: string,
): string {
  const seen = Object.values(classes);
  const verdict = VERDICT_ORDER.find((status) => seen.includes(status));
  const files = Object.entries(classes).map(
    ([file, status]) => `${file} ${styleOutcome(status, OUTCOME_LABELS[status], style)}`,
  );
  const runners = verification.results.map(
    (result) => `${runnerLabel(result.runner)} ${(result.duration_ms / 1000).toFixed(1)}s`,
  );
  const head =
    verdict === undefined
      ? style.warn("nothing checked")
      : `${styleOutcome(verdict, OUTCOME_LABELS[verdict], style)}: ${files.join(", ")}`;
  const line = `${style.dim(clock(now))} ${head}${runners.length === 0 ? "" : ` (${runners.join(", ")})`}`;
  if (verdict === undefined || verdict === "passed" || verdict === "fixed") return `${line}\n`;
  const excerpt = renderFailureExcerpt(verification.results, verification.missing, {
    replacePaths: [
      [`${root}/`, ""],
      [root, "."],
    ],
  });
  return `${line}\n${excerpt === "" ? "" : `${excerpt}\n`}`;
}

/**
 * Joins the agent session still open in `.tailtest/session.json` (a person watching beside an
 * agent), or starts its own (flushing the previous session into history). A session that already
 * received its SessionEnd is never joined: its history is written and its times are its own.
 */
async function openSession(project: Project): Promise<{ id: string; joined: boolean }> {
  const current = await readState({ ...sessionFile(project), schema: SessionStateSchema });
  const session = current.value;
  const busy =
    current.existed &&
    current.problem === undefined &&
    session.platform !== "cli" &&
    session.ended_at === undefined &&
    (session.pending_files.length > 0 || Object.keys(session.results).length > 0);
  const started = await startSession(project, {
    source: busy ? "resume" : "startup",
    platform: "cli",
  });
  return { id: started.session.session_id, joined: started.resumed };
}

export async function runWatch(options: WatchOptions, io: WatchIO): Promise<number> {
  const debounceMs = Number(options.debounce);
  if (!Number.isInteger(debounceMs) || debounceMs < 0) {
    io.stderr(
      `tailtest: --debounce must be a whole number of milliseconds (got ${options.debounce})\n`,
    );
    return 2;
  }
  const root = rootOrRefuse(options.root, io);
  if (root === undefined) return 2;
  const project = openProject(root);
  for (const problem of project.configProblems) io.stderr(`${problem}\n`);
  const session = await openSession(project);
  const watch = new Watch(project, io, debounceMs, session.joined);
  try {
    await watch.start();
  } catch (error) {
    io.stderr(
      `tailtest: cannot watch ${root} (${error instanceof Error ? error.message : String(error)})\n`,
    );
    return 1;
  }
  io.stdout(
    `watching ${root} (${session.joined ? "joined session" : "session"} ${session.id}, ${debounceMs} ms after the last change); Ctrl-C stops\n`,
  );
  await new Promise<void>((resolve) => {
    const remove = (io.onStopSignal ?? onProcessSignals)(() => {
      remove();
      resolve();
    });
  });
  if (watch.busy) io.stderr("stopping: the run in progress finishes first\n");
  const flushed = await watch.stop();
  io.stdout(`stopped; ${flushed} file outcome(s) recorded in .tailtest/history.json\n`);
  return 0;
}

class Watch {
  private watcher: FSWatcher | undefined;
  private readonly changes = new Map<string, Change>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopping = false;

  constructor(
    private readonly project: Project,
    private readonly io: WatchIO,
    private readonly debounceMs: number,
    /** The session is an agent's, joined: stopping flushes it but does not end it. */
    private readonly joined: boolean,
  ) {}

  /** A batch is being queued or its tests run. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  private rel(path: string): string {
    return relative(this.project.root, path).split(sep).join("/");
  }

  async start(): Promise<void> {
    const watcher = chokidar.watch(this.project.root, {
      ignoreInitial: true,
      // The filter's own folders: dependencies, caches, tool state (.git, .tailtest, …), build
      // output at the root, and what .gitignore and .tailtest-ignore exclude. Never entered.
      ignored: (path, stats) => {
        const rel = this.rel(path);
        if (rel === "" || rel.startsWith("..")) return false;
        return (
          (stats === undefined || stats.isDirectory()) &&
          isSkippedDir(rel, this.project.ignoreRules)
        );
      },
    });
    this.watcher = watcher;
    watcher.on("add", (path) => this.note(path, "changed"));
    watcher.on("change", (path) => this.note(path, "changed"));
    watcher.on("unlink", (path) => this.note(path, "deleted"));
    watcher.on("error", (error) =>
      this.io.stderr(
        `tailtest: watcher: ${error instanceof Error ? error.message : String(error)}\n`,
      ),
    );
    await new Promise<void>((resolve, reject) => {
      watcher.once("ready", resolve);
      watcher.once("error", reject);
    });
  }

  private note(path: string, change: Change): void {
    if (this.stopping) return;
    this.changes.set(this.rel(path), change);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
  }

  private flush(): void {
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.cycle()
      .catch((error: unknown) =>
        this.io.stderr(`tailtest: ${error instanceof Error ? error.message : String(error)}\n`),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopping) {
          this.again = false;
          this.flush();
        }
      });
  }

  /** Queues the changed files the filter keeps; drops deleted ones. Returns how many. */
  private async queueChanges(): Promise<number> {
    const batch = [...this.changes];
    this.changes.clear();
    const deleted = batch.filter(([, change]) => change === "deleted").map(([rel]) => rel);
    if (deleted.length > 0)
      await updateState(sessionFile(this.project), (state) => ({
        value: unqueueFiles(state, deleted),
        result: undefined,
      }));
    let queued = 0;
    for (const [rel, change] of batch) {
      if (change === "deleted") continue;
      const insight = inspectEdit(this.project, join(this.project.root, rel));
      if ((await queueEdit(this.project, insight)) !== undefined) queued += 1;
    }
    return queued;
  }

  private async cycle(): Promise<void> {
    if ((await this.queueChanges()) === 0) return;
    const { value: session } = await readState(sessionFile(this.project));
    const mine = session.pending_files.filter((entry) => entry.agent_id === undefined);
    const progress = startProgress(
      `tests for ${mine.map((entry) => entry.path).join(", ")}`,
      this.io,
    );
    let verification: Verification;
    try {
      // verifyTurn records the run in .tailtest/runs.json, as the watch's.
      verification = await verifyTurn(this.project, {
        stopHookActive: false,
        source: "watch",
        ...(this.io.now === undefined ? {} : { now: this.io.now }),
      });
    } finally {
      progress.stop();
    }
    const now = (this.io.now ?? (() => new Date()))();
    const { value: after } = await readState(sessionFile(this.project));
    this.io.stdout(
      renderWatchResult(
        verification,
        outcomeClasses(verification, after),
        now,
        this.io.style,
        this.project.root,
      ),
    );
  }

  /**
   * Stops watching, lets a run in progress finish, queues what changed since (without running
   * it), and flushes the session's outcomes into history. Returns how many it flushed.
   */
  async stop(): Promise<number> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.watcher?.close();
    await this.running;
    if (this.changes.size > 0) await this.queueChanges();
    if (!this.joined) return endSession(this.project);
    // The agent's session goes on: its outcomes so far reach history, its end is the agent's.
    const { value } = await readState(sessionFile(this.project));
    return (await flushToHistory(this.project, value)).count;
  }
}
