import { readFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import type { Decision } from "../../hook/hook-event.ts";
import { capText } from "../../notes/notes.ts";
import { SWEEP_SLACK_MS } from "../../state/session.ts";
import { planRun, type RunTarget } from "../../engine/plan.ts";
import { detectProjectRunners } from "../../runners/project-runners.ts";
import type { RunResult } from "../../engine/summarize.ts";
import type { ExpectedRed } from "../../engine/expected-red.ts";
import { classifyTddFile, configLine, tddPatternsFromConfig } from "../file-classes.ts";
import {
  cycleRed,
  describeRecordedRun,
  measuredAgainstRed,
  parseRedTarget,
  readMeasuredRuns,
  renderTddSessionNote,
  withAgentFlag,
  type MeasuredRun,
  type RedTarget,
} from "../guide.ts";
import type { TddEntry, TestRunEntry } from "../tdd-log.ts";
import { deriveTddState, type TddView } from "../tdd-state.ts";
import { recogniseTestCommand } from "../test-commands.ts";
import { executePlan } from "../../engine/node/execute.ts";
import { hangBound } from "../../engine/hang-bound.ts";
import { toProjectPath, type Project } from "../../project/node/project.ts";
import { gateTargets } from "../../shell/node/shell-targets.ts";
import {
  findShellWrites,
  listSimpleCommands,
  type SimpleCommand,
} from "../../shell/node/bash-parser.ts";
import { lookAtTurn, lostCheckLine, partialCopyLine } from "../../gating/node/content-sweep.ts";
import { cycleTests, weakenedTests, type TestedFile } from "../../gating/node/test-weakening.ts";
import { goProgramsOutsideBuild } from "../../gating/node/go-programs.ts";
import { weakenedLine } from "../../gating/test-weakening.ts";
import { holdsApplied, readApplied } from "./tdd-applied.ts";
import { importedLine, productionImported } from "../../gating/node/test-imports.ts";
import { mayWriteFiles } from "../../shell/may-write.ts";
import { shellRefusal } from "../../gating/shell-rules.ts";
import { appendTddEntries, readAllowedEdits } from "./tdd-store.ts";
import {
  standInOfTargets,
  supportHash,
  supportRewriteReason,
} from "../../strict/node/strict-store.ts";
import { supportDescription } from "../../strict/test-support.ts";

/**
 * tdd mode in the hooks (ADR 0007): the gate before every write (an edit tool, a shell command),
 * test runs recorded after every test command (measured by running the cycle's test), the
 * session and subagent notes, subagent logs closed at their stop, and the end-of-turn sweep that
 * reports production changes that went round the gate. The state machine decides; no model does.
 */

import {
  gateWrites,
  keyOf,
  recordTddEdits,
  sessionKeyOf,
  viewOf,
  type TddCall,
} from "./tdd-gate-call.ts";

/**
 * Before a shell command runs: the files it would write are gated like an edit tool's, and what
 * `gating/shell-rules.ts` refuses (an installer, a write near tailtest's state) is refused.
 */
export async function gateCommand(
  call: TddCall,
  command: string,
  cwd: string | undefined,
): Promise<Decision> {
  const commands = await listSimpleCommands(command);
  const writes = await findShellWrites(command);
  const refusal = shellRefusal("tdd", command, commands, writes);
  if (refusal !== undefined) return { kind: "deny", reason: refusal };
  const base = cwd ?? call.project.root;
  return gateWrites(call, gateTargets(commands, writes, base), base);
}

/** `scripts` of the package.json in a project folder, if it has one. */
function packageScripts(root: string, dir: string): Record<string, string> | undefined {
  try {
    const json = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as {
      scripts?: unknown;
    };
    if (json.scripts === null || typeof json.scripts !== "object") return undefined;
    return Object.fromEntries(
      Object.entries(json.scripts as Record<string, unknown>).filter(
        (pair): pair is [string, string] => typeof pair[1] === "string",
      ),
    );
  } catch {
    return undefined;
  }
}

/** The project folder a command line runs in: its cwd, then the first literal `cd`. */
function commandDir(call: TddCall, cwd: string | undefined, commands: readonly SimpleCommand[]) {
  const start = cwd === undefined ? "" : relative(call.project.root, cwd);
  const inside = start.startsWith("..") || isAbsolute(start) ? "" : start;
  const cd = commands.find((command) => command.cwd !== undefined)?.cwd;
  if (cd === undefined || cd.startsWith("$") || cd.startsWith("~") || isAbsolute(cd)) return inside;
  return join(inside, cd).split("\\").join("/").replace(/^\.$/, "");
}

export interface FinishedCommand {
  command: string;
  cwd?: string | undefined;
  /** How the command ended, when the platform says; undefined when it does not. */
  failed?: boolean | undefined;
  error?: string | undefined;
}

/**
 * After a shell command: a unit-test run is recorded in the agent's log. While a cycle is open
 * the outcome is measured, never taken from the agent: tailtest runs the cycle's test itself
 * (the Red's test; for a skip-red Green, the tests of its files), so a failure counts as a Red
 * only if the declared test failed on an assertion or a missing name, not a syntax error or an
 * empty selection. End-to-end runs are not recorded.
 */
export async function recordCommand(call: TddCall, finished: FinishedCommand): Promise<Decision> {
  if (/\btailtest\s+(red|green|tdd)\b/.test(finished.command)) return { kind: "none" };
  const commands = await listSimpleCommands(finished.command);
  // What a write the gate allowed left, as for an edit tool (recordTddEdits).
  if (mayWriteFiles(finished.command)) {
    const base = finished.cwd ?? call.project.root;
    const writes = await findShellWrites(finished.command);
    await recordTddEdits(call, gateTargets(commands, writes, base), base);
  }
  const dir = commandDir(call, finished.cwd, commands);
  const verdict = recogniseTestCommand(
    commands.map((command) => command.argv),
    {
      packageScripts: packageScripts(call.project.root, dir),
      runners: detectProjectRunners(call.project.view),
    },
  );
  if (!verdict.isTest || verdict.e2e === true) return { kind: "none" };
  const { entries, view } = await viewOf(call);
  const measured = await measureCycle(call, entries, view, finished);
  if (measured === undefined)
    return {
      kind: "context",
      text: "tailtest tdd: saw a test run but could not measure its outcome (no test of the cycle to run, and the platform does not report exit codes); nothing was recorded.",
    };
  const run: TestRunEntry = {
    kind: "test",
    command: finished.command,
    at: call.now().toISOString(),
    ...(verdict.runner === undefined ? {} : { runner: verdict.runner }),
    ...measured,
  };
  await appendTddEntries(call.project.root, keyOf(call), [run]);
  const after = deriveTddState([...entries, run]);
  return {
    kind: "context",
    text: capText(withAgentFlag(describeRecordedRun(view, after, run), call.identity.agentId)),
  };
}

/** The tests that decide the open cycle, or undefined when there is none to run. */
function cycleTargets(
  call: TddCall,
  entries: readonly TddEntry[],
  view: TddView,
): { targets: RunTarget[]; red: RedTarget | undefined } | undefined {
  const red = cycleRed(entries, view);
  if (red !== undefined) {
    const target = parseRedTarget(red.test);
    const rel = toProjectPath(call.project, target.file);
    if (rel !== undefined && call.project.view.exists(rel))
      return { targets: [{ kind: "file", path: rel }], red: { ...target, file: rel } };
    return undefined;
  }
  if (view.state === "making_tests_pass" && view.skipRed) {
    const files = view.allowlist.filter((entry) => !/[*?[\]{}]/.test(entry));
    if (files.length === 0) return undefined;
    return { targets: files.map((path) => ({ kind: "file", path })), red: undefined };
  }
  return undefined;
}

async function measureCycle(
  call: TddCall,
  entries: readonly TddEntry[],
  view: TddView,
  finished: FinishedCommand,
): Promise<MeasuredRun | undefined> {
  const reported = reportedOutcome(finished);
  if (view.state === "initial") return reported;
  const planned = cycleTargets(call, entries, view);
  if (planned === undefined) return reported;
  const patterns = tddPatternsFromConfig(call.project.config);
  const plan = planRun(call.project.view, planned.targets, {
    overrides: call.project.config.runners,
    extraTestPatterns: patterns.test,
  });
  if (plan.runs.length === 0) return reported;
  // What the Red's test runs with, hashed before it runs (as strict's verification does).
  const support =
    planned.red === undefined
      ? undefined
      : await supportHash(call.project, planned.red.file, patterns);
  const results: RunResult[] = [];
  const timeoutMs = call.project.config.test_timeout_seconds * 1000;
  // A test made to hang is stopped as the end of a turn's run is (ADR 0012, the thirtieth round).
  const { earlierTestFileTimes } = await import("../../selection/node/choose-tests.ts");
  const earlier = earlierTestFileTimes(call.project);
  for (const run of plan.runs)
    results.push(
      await executePlan(run, {
        root: call.project.root,
        timeoutMs,
        hang: hangBound(run.test_files, earlier, timeoutMs),
      }),
    );
  const measured = readMeasuredRuns(results, planned.red, view.redFailed);
  if (support === undefined || planned.red === undefined) return measured;
  const against = measuredAgainstRed(measured, support, view, supportDescription(planned.red.file));
  if (against.outcome !== "passed") return against;
  // A support file that rewrites what runs report makes any code pass (`outcome-rewrite.ts`).
  const rewrite = supportRewriteReason(call.project, planned.red.file, patterns);
  if (rewrite !== undefined)
    return { ...against, outcome: "failed", real_failure: false, error: rewrite };
  // The Red's test, or its support, mocking the very files its Green changes (`stand-in.ts`).
  // Loaded here only: the resolver reads the project's aliases (`stand-in-resolve.ts`).
  const { specifierResolver } = await import("../../strict/node/stand-in-resolve.ts");
  const standIn = standInOfTargets(
    call.project,
    planned.red.file,
    patterns,
    view.allowlist,
    specifierResolver(call.project),
  );
  return standIn === undefined
    ? against
    : {
        ...against,
        outcome: "failed",
        real_failure: false,
        error: `the declared test passes, but ${standIn}`,
      };
}

function reportedOutcome(finished: FinishedCommand): MeasuredRun | undefined {
  if (finished.failed === undefined) return undefined;
  if (!finished.failed) return { outcome: "passed" };
  return finished.error === undefined
    ? { outcome: "failed" }
    : { outcome: "failed", error: finished.error };
}

/** SessionStart: where this agent's cycle stands, and the commands to run. */
export async function tddSessionNote(call: TddCall): Promise<string> {
  const { view } = await viewOf(call);
  return renderTddSessionNote({
    view,
    agentId: call.identity.agentId,
    testHint: testHint(call.project),
  });
}

function testHint(project: Project): string {
  const extra = tddPatternsFromConfig(project.config).test;
  const defaults =
    "*.test.*, *.spec.*, __tests__/, tests/, test_*.py, *_test.py, *_test.go, *Test.java";
  return extra.length === 0 ? defaults : `${extra.join(", ")}, ${defaults}`;
}

/** SubagentStop: the subagent's log is closed; it grants nothing more. */
export async function finishSubagent(call: TddCall): Promise<void> {
  if (call.identity.agentId === undefined) return;
  await appendTddEntries(call.project.root, keyOf(call), [
    { kind: "finished", at: call.now().toISOString() },
  ]);
}

/**
 * The end of a turn: production and test files changed since the last look that no gate allowed
 * went round the gate (a shell command it could not read, a formatter, a tool it does not see).
 * They are reported once: to the agent (it keeps working) unless the stop hook is already
 * active, then to the person.
 */
export async function sweepGate(call: TddCall, stopHookActive: boolean): Promise<Decision> {
  return (await sweepTurn(call, stopHookActive)).decision;
}

/** `sweepGate`, with the files the turn changed (for the turn's tests, `turnTestsOf`). */
export async function sweepTurn(
  call: TddCall,
  stopHookActive: boolean,
): Promise<{ decision: Decision; changed: readonly string[]; tested: readonly TestedFile[] }> {
  const look = await lookAtTurn(call.project, call.now, sessionKeyOf(call));
  const { decision, tested } = await sweptDecision(call, stopHookActive, look);
  return { decision, changed: look.changed, tested };
}

async function sweptDecision(
  call: TddCall,
  stopHookActive: boolean,
  look: Awaited<ReturnType<typeof lookAtTurn>>,
): Promise<{ decision: Decision; tested: readonly TestedFile[] }> {
  const patterns = tddPatternsFromConfig(call.project.config);
  // Code outside the production class that production code imports changes production: the
  // gate let it through as a test (or did not gate it), which covers it only under a Green, the
  // state where production may change (`gating/node/test-imports.ts`).
  const imported = await productionImported(call.project, look.changed);
  const classed = look.changed.filter((path) => {
    const fileClass = classifyTddFile(path, patterns);
    return fileClass === "prod" || fileClass === "test" || imported.has(path);
  });
  // A Go program outside every build (a `gen.go`) is no production file to the gate either.
  const programs = goProgramsOutsideBuild(call.project.root, look, classed);
  const gated = classed.filter((path) => !programs.has(path));
  // Read everything before the look is recorded: a look that fails is done again next time.
  const sinceIso = new Date(look.since - SWEEP_SLACK_MS).toISOString();
  const none = gated.length === 0;
  const allowed = none ? new Set<string>() : await readAllowedEdits(call.project.root, sinceIso);
  const applied = none ? new Map<string, Set<string>>() : readApplied(call.project.root, sinceIso);
  const underGreen =
    imported.size === 0
      ? new Set<string>()
      : await readAllowedEdits(call.project.root, sinceIso, "making_tests_pass");
  // A test made to stop testing, outside a cycle that holds it (the twenty-second round).
  const { weakened, tested } = weakenedTests(call.project, look, await cycleTests(call.project));
  await look.finish();
  // An allowance is for the edit the gate saw: a file that holds anything else was written
  // after it (another agent, a write after a gate that timed out), and is reported too.
  const around = gated.filter(
    (path) =>
      !allowed.has(path) ||
      !holdsApplied(call.project.root, path, applied) ||
      (imported.has(path) && !underGreen.has(path)),
  );
  const lost = [
    ...(look.lost === undefined
      ? []
      : [`tailtest tdd: ${lostCheckLine(look.lost, false, look.copy !== undefined)}`]),
    ...(look.copy?.over === undefined
      ? []
      : [`tailtest tdd: ${partialCopyLine(look.copy.over, false)}`]),
  ];
  const hatch = await skipRedLine(
    call,
    gated.filter(
      (path) =>
        allowed.has(path) &&
        !around.includes(path) &&
        (imported.has(path) || classifyTddFile(path, patterns) === "prod"),
    ),
  );
  const configs = configLine("tdd", look.changed);
  const said = [...(hatch === undefined ? [] : [hatch]), ...configs];
  const weak = weakened.length === 0 ? [] : [weakenedLine("tdd", weakened)];
  if (around.length === 0 && lost.length === 0 && weak.length === 0)
    return {
      decision: said.length === 0 ? { kind: "none" } : { kind: "context", text: said.join("\n") },
      tested,
    };
  const list = around
    .map((path) => {
      const importers = imported.get(path);
      if (importers !== undefined) return `- ${importedLine(path, importers)}`;
      return `- ${path}${allowed.has(path) ? " (changed again after its gated edit)" : ""}`;
    })
    .join("\n");
  const changed =
    around.length === 0
      ? []
      : [
          `tailtest tdd: ${around.length} file${around.length === 1 ? "" : "s"} changed or deleted this turn without passing the tdd gate (a shell command tailtest could not read, a formatter, or a tool it does not see):\n${list}\nIf the change is not part of a declared cycle, revert it (git checkout -- <file>); otherwise declare it (tailtest red …, or tailtest green --skip-red --reason refactoring …) and redo it through the edit tools.${!around.some((path) => imported.has(path)) ? "" : " A test, script or generated file that production code imports is production code here: change it under a Green (tailtest green --skip-red --reason refactoring --file <it>), or move what production needs into production code."}`,
        ];
  const text = capText([...changed, ...weak, ...lost, ...said].join("\n"));
  return {
    decision: stopHookActive ? { kind: "context", text } : { kind: "block", reason: text },
    tested,
  };
}

/**
 * The escape hatch said at the Stop: production files this turn changed under a Green declared
 * with `--skip-red`, with its reason, so no use of it goes by with nothing said.
 */
async function skipRedLine(call: TddCall, changed: readonly string[]): Promise<string | undefined> {
  if (changed.length === 0) return undefined;
  const { entries, view } = await viewOf(call);
  if (!view.skipRed) return undefined;
  const green = entries.findLast((entry) => entry.kind === "green");
  if (green?.kind !== "green") return undefined;
  // Only what the gate let through under this Green: an edit of the cycle before it had its Red.
  const since = await readAllowedEdits(call.project.root, green.at);
  const edited = changed.filter((path) => since.has(path));
  if (edited.length === 0) return undefined;
  const reason = green.skip_red?.reason;
  return `tailtest tdd: production code changed this turn with no failing test first (tailtest green --skip-red${reason === undefined ? "" : `, reason: ${reason}`}): ${edited.join(", ")}.`;
}

/**
 * What the turn's tests must say at its end (ADR 0007, "The turn's tests"): the declared Red's
 * test is expected to fail until its Green is declared; under a Green whose production files this
 * turn changed, it must pass, so it runs even when selection would not pick it.
 */
export async function turnTestsOf(
  call: TddCall,
  changed: readonly string[],
): Promise<{ expected: ExpectedRed[]; alsoRun: string[] }> {
  const { entries, view } = await viewOf(call);
  const red = cycleRed(entries, view);
  const target = red === undefined ? undefined : parseRedTarget(red.test);
  const file = target === undefined ? undefined : toProjectPath(call.project, target.file);
  if (target === undefined || file === undefined) return { expected: [], alsoRun: [] };
  if (view.state === "writing_tests" || view.state === "red")
    return { expected: [{ file, name: target.name }], alsoRun: [] };
  if (view.state !== "making_tests_pass") return { expected: [], alsoRun: [] };
  const patterns = tddPatternsFromConfig(call.project.config);
  const production = changed.some((path) => classifyTddFile(path, patterns) === "prod");
  return { expected: [], alsoRun: production && call.project.view.exists(file) ? [file] : [] };
}
