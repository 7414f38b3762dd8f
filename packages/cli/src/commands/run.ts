import {
  chooseTests,
  detectProjectRunners,
  executePlan,
  formatId,
  isTestFile,
  overallStatus,
  planRun,
  planSuites,
  runnerLabel,
  displayArg,
  renderFailureExcerpt,
  SessionStateSchema,
  summariseRunRecord,
  type OverallStatus,
  type Plan,
  type RunResult,
  openProject,
  readState,
  recordRun,
  sessionFile,
  SESSION_PATHS,
  STATE_DIR,
  toProjectPath,
} from "@tailtest/core/node/run";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startProgress } from "../terminal.ts";

export interface RunOptions {
  root: string;
  json: boolean;
  dryRun: boolean;
  timeout?: string;
}

export interface RunIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** True when stderr is a terminal: a live progress line is drawn there. */
  interactive: boolean;
}

/** Exit codes of `tailtest run`. */
export const RUN_EXIT: Readonly<Record<OverallStatus, number>> = {
  passed: 0,
  failed: 1,
  error: 3,
  no_tests: 4,
};

export async function runTests(
  paths: readonly string[],
  options: RunOptions,
  io: RunIO,
): Promise<number> {
  // A bad value is a usage error (exit 2, one line), before anything is planned or run.
  const timeoutSeconds = options.timeout === undefined ? undefined : Number(options.timeout);
  if (timeoutSeconds !== undefined && !(Number.isFinite(timeoutSeconds) && timeoutSeconds > 0)) {
    io.stderr(
      `tailtest: --timeout must be a positive number of seconds (got ${options.timeout})\n`,
    );
    return 2;
  }
  const project = openProject(options.root);
  for (const problem of project.configProblems) io.stderr(`${problem}\n`);
  const plan = await choosePlan(paths, project);
  if (options.dryRun) {
    io.stdout(options.json ? `${JSON.stringify(displayPlan(plan), null, 2)}\n` : renderPlan(plan));
    return 0;
  }
  const timeoutMs = (timeoutSeconds ?? project.config.test_timeout_seconds) * 1000;
  const results: RunResult[] = [];
  for (const run of plan.runs) {
    const progress = startProgress(`${runnerLabel(run.runner.id)} in ${run.cwd || "."}`, io);
    try {
      results.push(
        await executePlan(run, {
          root: project.root,
          timeoutMs,
          onOutput: progress.tick,
          trustCompiled: project.config.mode === "follow",
        }),
      );
    } finally {
      progress.stop();
    }
  }
  const status = overallStatus(results, plan.missing);
  await recordInRunLog(project, plan, results, status, io);
  if (options.json) {
    io.stdout(
      `${JSON.stringify({ status, runs: results, missing: plan.missing, skipped: plan.skipped }, null, 2)}\n`,
    );
  } else {
    io.stdout(renderSummary(results, plan, status, project.root));
  }
  return RUN_EXIT[status];
}

/**
 * Keeps the run in `.tailtest/runs.json` for `tailtest status` and `report` (slowest tests), in
 * projects that use tailtest already (a `.tailtest/` folder): a plain `tailtest run` elsewhere
 * leaves no folder behind. A run log that cannot be written costs a warning, never the run.
 */
async function recordInRunLog(
  project: ReturnType<typeof openProject>,
  plan: Plan,
  results: readonly RunResult[],
  status: OverallStatus,
  io: RunIO,
): Promise<void> {
  if (!existsSync(join(project.root, STATE_DIR))) return;
  const files = [
    ...new Set([
      ...plan.runs.flatMap((run) => Object.keys(run.sources)),
      ...plan.missing.map((item) => item.source),
    ]),
  ];
  try {
    await recordRun(
      project,
      summariseRunRecord({
        at: new Date().toISOString(),
        source: "run",
        status,
        files,
        results,
        missing: plan.missing,
        replacePaths: [
          [`${project.root}/`, ""],
          [project.root, "."],
        ],
      }),
    );
  } catch (error) {
    io.stderr(
      `tailtest: warning: the run was not recorded in .tailtest/runs.json (${error instanceof Error ? error.message : String(error)})\n`,
    );
  }
}

async function choosePlan(
  paths: readonly string[],
  project: ReturnType<typeof openProject>,
): Promise<Plan> {
  const options = {
    overrides: project.config.runners,
    extraTestPatterns: project.config.file_classes.test,
  };
  if (paths.length > 0) {
    const files = paths.map((path) => toProjectPath(project, path) ?? path);
    // Test files named: each runs as it is, by its own runner, with no selection (and no import
    // graph read or written); `select: all` still runs whole suites.
    if (
      project.config.select !== "all" &&
      files.every((file) => isTestFile(file, options.extraTestPatterns))
    )
      return planRun(
        project.view,
        files.map((path) => ({ kind: "file" as const, path })),
        options,
      );
    return (await chooseTests(project, files)).plan;
  }
  // No paths: the files the agents queued this session (Claude Code's and Codex's session, and
  // Cursor's), or else every runner's whole suite.
  const pending: string[] = [];
  for (const sessionPath of SESSION_PATHS) {
    const file = sessionFile({ ...project, sessionPath });
    const session = await readState({ ...file, schema: SessionStateSchema });
    if (session.existed) pending.push(...session.value.pending_files.map((entry) => entry.path));
  }
  if (pending.length > 0) return (await chooseTests(project, [...new Set(pending)])).plan;
  return planSuites(project.view, detectProjectRunners(project.view, 2, options.overrides));
}

function displayPlan(plan: Plan): Plan {
  return {
    ...plan,
    runs: plan.runs.map((run) => ({
      ...run,
      argv: run.argv.map(displayArg),
    })),
  };
}

function renderPlan(plan: Plan): string {
  const lines: string[] = [];
  for (const run of displayPlan(plan).runs) {
    lines.push(
      `${runnerLabel(run.runner.id)} in ${run.cwd || "."}: ${run.argv.map(quoteForDisplay).join(" ")}`,
    );
    if (run.build !== undefined) lines.push(`  built first: ${run.build}`);
    for (const file of run.test_files) lines.push(`  ${file}`);
  }
  for (const item of plan.missing)
    lines.push(`missing test: ${item.source} (expected ${item.expected_test})`);
  for (const item of plan.skipped) lines.push(`skipped: ${item.path} (${item.reason})`);
  if (lines.length === 0) lines.push("nothing to run");
  return `${lines.join("\n")}\n`;
}

function quoteForDisplay(arg: string): string {
  return /^[\w@%+=:,./<>-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

function renderSummary(
  results: readonly RunResult[],
  plan: Plan,
  status: OverallStatus,
  root: string,
): string {
  const header = ["runner", "package", "status", "passed", "failed", "skipped", "not run", "time"];
  const rows = results.map((result) => [
    runnerLabel(result.runner),
    result.cwd || ".",
    result.status,
    String(result.tests.filter((t) => t.status === "pass").length),
    String(result.tests.filter((t) => t.status === "fail").length),
    String(result.tests.filter((t) => t.status === "skip").length),
    String(result.tests.filter((t) => t.status === "not_run").length),
    `${(result.duration_ms / 1000).toFixed(1)}s`,
  ]);
  const table = renderTable([header, ...rows]);
  const excerpt = renderFailureExcerpt(results, plan.missing, {
    replacePaths: [
      [`${root}/`, ""],
      [root, "."],
    ],
  });
  const skipped = plan.skipped.map((item) => `skipped ${item.path}: ${item.reason}`);
  const notRun = results.flatMap((r) =>
    r.tests.filter((t) => t.status === "not_run").map((t) => `NOT RUN ${formatId(t.id)}`),
  );
  const reasons = results
    .filter((r) => r.status !== "passed")
    .map((r) => `${runnerLabel(r.runner)}: ${r.reason}`);
  return [
    table,
    ...reasons,
    excerpt,
    ...notRun,
    ...skipped,
    `tailtest: ${status.replace("_", " ")}`,
  ]
    .filter((part) => part !== "")
    .join("\n")
    .concat("\n");
}

function renderTable(rows: readonly (readonly string[])[]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
