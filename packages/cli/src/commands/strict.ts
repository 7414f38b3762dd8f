import {
  deriveStrictState,
  formatTriplesJsonl,
  openClaims,
  pairRedGreen,
  summarisePairs,
} from "@tailtest/core";
import {
  activeTddKey,
  claimTest,
  EVENTS_PATH,
  finishRefactor,
  openProject,
  readStrictLog,
  startRefactor,
  type StrictCliContext,
} from "@tailtest/core/node";
import { realDir, rootOrRefuse } from "../project-root.ts";

/**
 * `tailtest claim`, `tailtest refactor start|finish`, `tailtest strict status` and
 * `tailtest export`: strict mode from the command line (ADR 0008). Refusals exit 1 with one line.
 */

export interface StrictIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

export interface StrictOptions {
  root?: string;
}

/** The command's context; undefined after saying the `--root` is bad (the command exits 2). */
async function contextFor(
  options: StrictOptions,
  io: StrictIO,
): Promise<StrictCliContext | undefined> {
  const chosen = rootOrRefuse(options.root, io);
  if (chosen === undefined) return undefined;
  const root = realDir(chosen);
  const project = openProject(root);
  const key = await activeTddKey(root, io.env);
  return { project, cwd: realDir(io.cwd), now: () => new Date(), session: key.key };
}

/** Strict-mode commands act only when the project is in strict mode. */
function refuseOutsideStrict(context: StrictCliContext, io: StrictIO): boolean {
  const mode = context.project.config.mode;
  if (mode === "strict") return false;
  io.stderr(
    `tailtest: the project is in ${mode} mode; claims and refactor mode belong to strict mode ("mode": "strict" in .tailtest/config.json)\n`,
  );
  return true;
}

/** `tailtest claim <test_id> <file…>`: 0 claimed, 1 refused. */
export async function claim(
  testId: string,
  files: readonly string[],
  options: StrictOptions,
  io: StrictIO,
): Promise<number> {
  const context = await contextFor(options, io);
  if (context === undefined) return 2;
  if (refuseOutsideStrict(context, io)) return 1;
  const outcome = await claimTest(context, testId, files);
  if (!outcome.ok) {
    io.stderr(`tailtest: ${outcome.message}\n`);
    return 1;
  }
  io.stdout(`tailtest: ${outcome.message}\n`);
  return 0;
}

/** `tailtest refactor start|finish`: 0 done, 1 refused or the verify failed, 2 bad usage. */
export async function refactor(
  action: string,
  options: StrictOptions,
  io: StrictIO,
): Promise<number> {
  // Bad usage is bad usage in any mode: said before the project is looked at.
  if (action !== "start" && action !== "finish") {
    io.stderr(`tailtest: refactor takes start or finish, not "${action}"\n`);
    return 2;
  }
  const context = await contextFor(options, io);
  if (context === undefined) return 2;
  if (refuseOutsideStrict(context, io)) return 1;
  const outcome = action === "start" ? await startRefactor(context) : await finishRefactor(context);
  (outcome.ok ? io.stdout : io.stderr)(`tailtest: ${outcome.message}\n`);
  return outcome.ok ? 0 : 1;
}

/** `tailtest strict status`: the mode, the open claims and their last runs; writes nothing. */
export async function strictStatus(
  options: StrictOptions & { json: boolean },
  io: StrictIO,
): Promise<number> {
  const context = await contextFor(options, io);
  if (context === undefined) return 2;
  const log = await readStrictLog(context.project.root);
  const state = deriveStrictState(log.events);
  const claims = openClaims(state).map((entry) => ({
    claim: entry.claim,
    test_id: entry.test_id,
    targets: entry.targets,
    attempts: entry.attempts,
    pending_files: [...entry.snapshots.keys()],
    last_run: state.runs.get(entry.test_id)?.event.status ?? null,
  }));
  const summary = summarisePairs(log.events);
  if (options.json) {
    io.stdout(
      `${JSON.stringify({ config_mode: context.project.config.mode, mode: state.mode, open_claims: claims, ...summary, problems: log.problems }, null, 2)}\n`,
    );
    return 0;
  }
  const rows: Array<[string, string]> = [
    ["config", `mode ${context.project.config.mode}`],
    ["mode", state.mode],
    [
      "claims",
      claims.length === 0
        ? "none open"
        : claims
            .map(
              (entry) =>
                `${entry.claim} ${entry.test_id} → ${entry.targets.join(", ")} (last run: ${entry.last_run ?? "none"}, failed verifications: ${entry.attempts})`,
            )
            .join("\n          "),
    ],
    [
      "history",
      `${summary.triples} red→edit→green, ${summary.repairs} repairs, ${summary.escalated} escalated`,
    ],
  ];
  if (log.problems.length > 0)
    rows.push(["problems", `${log.problems.length} unreadable line(s) in ${EVENTS_PATH}`]);
  io.stdout(rows.map(([key, value]) => `${key.padEnd(10)}${value}\n`).join(""));
  return 0;
}

/** `tailtest export`: every (red, edit, green) triple as JSONL on stdout. */
export async function exportTriples(options: StrictOptions, io: StrictIO): Promise<number> {
  const context = await contextFor(options, io);
  if (context === undefined) return 2;
  const log = await readStrictLog(context.project.root);
  if (log.problems.length > 0)
    io.stderr(
      `tailtest: warning: skipped ${log.problems.length} unreadable line(s) in ${EVENTS_PATH}\n`,
    );
  io.stdout(formatTriplesJsonl(pairRedGreen(log.events)));
  return 0;
}
