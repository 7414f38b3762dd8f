import { isAbsolute, join } from "node:path";
import type { Decision } from "../../hook/hook-event.ts";
import { capText } from "../../notes/notes.ts";
import { SWEEP_SLACK_MS } from "../../state/session.ts";
import type { StrictEventInput, StrictTest } from "../strict-events.ts";
import type { ExpectedRed } from "../../engine/expected-red.ts";
import {
  describePlanVerdict,
  describePlanWarnings,
  judgePlan,
  readPlanSteps,
} from "../plan-steps.ts";
import { openClaims, pendingClaims, type ClaimState, type StrictState } from "../strict-state.ts";
import { supportDescription } from "../test-support.ts";
import { classifyTddFile, configLine, tddPatternsFromConfig } from "../../tdd/file-classes.ts";
import { parseRedTarget, withAgentFlag } from "../../tdd/guide.ts";
import { toProjectPath } from "../../project/node/project.ts";
import { weakenedTests, type TestedFile } from "../../gating/node/test-weakening.ts";
import { goProgramsOutsideBuild } from "../../gating/node/go-programs.ts";
import { weakenedLine } from "../../gating/test-weakening.ts";
import { gateTargets } from "../../shell/node/shell-targets.ts";
import { findShellWrites, listSimpleCommands } from "../../shell/node/bash-parser.ts";
import {
  ANY_CONTENT,
  appendStrictEvents,
  hashFile,
  OBJECTS_DIR,
  readObject,
  readStrictEditsSince,
  restoreFile,
  snapshotFile,
  standInOfTargets,
  supportHash,
  supportRewriteReason,
  withVerifyLock,
} from "./strict-store.ts";
import { runStrictTests, runVerifyCommand, type TestRunInput } from "./strict-run.ts";
import { JS_SOURCE, reachedByImports } from "./claim-reach.ts";
import { specifierResolver } from "./stand-in-resolve.ts";
import { importedLine, productionImported } from "../../gating/node/test-imports.ts";
import {
  lookAtTurn,
  lostCheckLine,
  partialCopyLine,
  readBaseline,
  revertToBaseline,
  type TurnLook,
} from "../../gating/node/content-sweep.ts";
import {
  notifyLine,
  summariseCounts,
  withUserMessage,
  type TurnSummary,
} from "../../engine/turn-summary.ts";
import {
  gateStrictWrites,
  judgeableSnapshot,
  recordStrictEdits,
  stamp,
  stateOf,
  type StrictCall,
} from "./strict-gate-call.ts";
import { shellRefusal } from "../../gating/shell-rules.ts";

/**
 * strict mode in the hooks (ADR 0008): the gate before every write, `edit_applied` after it, the
 * plan check at ExitPlanMode, and the end-of-turn verification that runs every claimed test once
 * per runner and reverts a claim's files when its test is still red.
 */

/** Before a shell command: its writes are gated like an edit tool's; installers are refused. */
export async function gateStrictCommand(
  call: StrictCall,
  command: string,
  cwd: string | undefined,
): Promise<Decision> {
  const commands = await listSimpleCommands(command);
  const writes = await findShellWrites(command);
  const refusal = shellRefusal("strict", command, commands, writes);
  if (refusal !== undefined) return { kind: "deny", reason: refusal };
  const base = cwd ?? call.project.root;
  return gateStrictWrites(call, gateTargets(commands, writes, base), base);
}

/** After a shell command: what it wrote, as edits. */
export async function recordStrictCommand(
  call: StrictCall,
  command: string,
  cwd: string | undefined,
): Promise<Decision> {
  const writes = await findShellWrites(command);
  const base = cwd ?? call.project.root;
  const absolute = (path: string) => (isAbsolute(path) ? path : join(base, path));
  // A command that wrote a production file without a claim was refused at its gate, or got
  // past it unread: the end of the turn reports and reverts it (and a failed tool takes no answer).
  return recordStrictEdits(call, writes.written.map(absolute), undefined, false);
}

/** ExitPlanMode: a plan is accepted when every step names the failing test it advances. */
export async function reviewStrictPlan(call: StrictCall, plan: string): Promise<Decision> {
  const state = stateOf(call);
  const patterns = tddPatternsFromConfig(call.project.config);
  const steps = readPlanSteps(plan, (path) => classifyTddFile(path, patterns) === "test");
  const refactor = state.mode === "refactor";
  const verdict = judgePlan(steps, refactor);
  await appendStrictEvents(call.project.root, [
    { type: "plan_recorded", ...stamp(call), steps, accepted: verdict.accepted },
  ]);
  if (!verdict.accepted)
    return { kind: "deny", reason: capText(describePlanVerdict(verdict, steps)) };
  const warning = describePlanWarnings(verdict, steps);
  return warning === undefined || warning === ""
    ? { kind: "none" }
    : { kind: "context", text: warning };
}

/** The note at session start: the rule, the commands, and what is open. */
export async function strictSessionNote(call: StrictCall): Promise<string> {
  const { state, modeChanged } = judgeableSnapshot(call);
  // The first strict session of a project records that the person switched strict mode on.
  if (call.agentId === undefined && !modeChanged)
    await appendStrictEvents(call.project.root, [
      { type: "mode_changed", ...stamp(call), mode: "strict", by: "config" },
    ]);
  const lines = [
    "tailtest strict: every production edit must advance a failing test.",
    "1. Write the failing test (test files are always editable).",
    "2. Run `tailtest claim <test_id> <file…>`: it runs the test and records the claim only if it fails on an assertion, or because a claimed file (or a name in it) does not exist yet.",
    "3. Edit only the claimed files, and in them only code a claimed test runs (a function no claimed test starts fails its claim: claim a test for each). At the end of your turn tailtest runs every claimed test: if one is still red, that claim's edits are reverted; a second failure hands the claim to the person. Then the tests of every file the turn changed run, as at any turn's end.",
    "Test ids: `tests/test_x.py::test_y`, `tests/test_x.py::TestX::test_y`, `src/x.test.ts::suite > case`, or the slug of a `tailtest-id: <slug>` comment above the test.",
    "Restructuring with no failing test (docs, config, renames): `tailtest refactor start`, then `tailtest refactor finish`; the full test run must pass before the turn ends.",
  ];
  if (state.mode === "refactor") lines.push("Now: refactor mode (the per-edit gate is lifted).");
  const open = openClaims(state);
  if (open.length > 0)
    lines.push(
      `Open claims: ${open.map((claim) => `${claim.test_id} → ${claim.targets.join(", ")}`).join("; ")}.`,
    );
  return capText(withAgentFlag(lines.join("\n"), call.agentId));
}

/** The test files of every claim: a claimed test's edit voids its red (its own rule). */
function claimTests(call: StrictCall, state: StrictState): Set<string> {
  const files = new Set<string>();
  for (const claim of state.claims.values()) {
    // Only a claim this Stop verifies holds its test by hash (a changed test voids it and its
    // edits go back): one with no edit is never verified, so a test weakened under it (a
    // `jest.mock` of the module under test, a skip) was said by nothing (the thirty-fifth round).
    if (claim.snapshots.size === 0) continue;
    const file = claim.red?.test.file ?? parseRedTarget(claim.test_id).file;
    const path = toProjectPath(call.project, file);
    if (path !== undefined) files.add(path);
  }
  return files;
}

/**
 * What the Stop holds a turn for beside its claims' verdicts: a test made to stop testing, other
 * than a verified claim's (its hash holds it; the twenty-second round), and the support of a
 * claim with no edit changed since its red. A claim with no edit is never verified, so nothing
 * compared what its test runs with: a `sitecustomize.py` written into the virtual environment
 * made the red pass with no code claimed, and the Stop said nothing (the thirty-fifth round).
 */
async function turnConcerns(
  call: StrictCall,
  state: StrictState,
  look: Parameters<typeof weakenedTests>[1],
): Promise<{ lines: string[]; tested: TestedFile[] }> {
  const { weakened, tested } = weakenedTests(call.project, look, claimTests(call, state));
  const lines =
    weakened.length > 0
      ? [`✗ ${weakenedLine("strict", weakened).replace(/^tailtest strict: /, "")}`]
      : [];
  for (const file of await supportMovedUnedited(call, state))
    lines.push(
      `✗ what ${file} runs with changed since its red, with no claimed edit (${supportDescription(file)}): put it back, or claim the test again while it still fails; a claimed test turns green only through the code its claim edits`,
    );
  return { lines, tested };
}

/**
 * The test files of open claims with no edit whose support (`supportHash`: the helpers, configs,
 * the interpreter's start-up hooks, the runner's installed files) is not what it was at the red.
 */
async function supportMovedUnedited(call: StrictCall, state: StrictState): Promise<string[]> {
  const patterns = tddPatternsFromConfig(call.project.config);
  const moved = new Set<string>();
  const now = new Map<string, string>();
  for (const claim of openClaims(state)) {
    const red = claim.red;
    if (claim.snapshots.size > 0 || red?.support_hash === undefined) continue;
    const file = red.test.file;
    let hash = now.get(file);
    if (hash === undefined) now.set(file, (hash = await supportHash(call.project, file, patterns)));
    if (hash !== red.support_hash) moved.add(file);
  }
  return [...moved];
}

function testOf(claim: ClaimState): StrictTest | undefined {
  return claim.red?.test;
}

interface ClaimOutcome {
  claim: ClaimState;
  kind: "green" | "repair" | "escalated";
  line: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The claimed Python and JavaScript/TypeScript files of these claims that changed since their
 * snapshot and still exist, per claim; and the Python ones with their content at the snapshot
 * (null: new, or not kept whole). The verification asks pytest's witness which of them had
 * changed code run while the claimed test ran, and a JavaScript test's imports which they reach:
 * a claim naming a file its test never runs covers nothing there (ADR 0012, the fourteenth round).
 */
async function changedClaimed(
  root: string,
  claims: readonly ClaimState[],
): Promise<{
  byClaim: Map<ClaimState, string[]>;
  watch: { file: string; before: string | null }[];
}> {
  const byClaim = new Map<ClaimState, string[]>();
  const watch = new Map<string, string | null>();
  for (const claim of claims) {
    const files: string[] = [];
    for (const [path, object] of claim.snapshots) {
      const python = path.endsWith(".py");
      if (!python && !JS_SOURCE.test(path)) continue;
      const now = await hashFile(root, path);
      if (now === null || now === object) continue;
      files.push(path);
      if (python && !watch.has(path))
        watch.set(
          path,
          object === null ? null : (readObject(root, object)?.toString("utf8") ?? null),
        );
    }
    byClaim.set(claim, files);
  }
  return { byClaim, watch: [...watch].map(([file, before]) => ({ file, before })) };
}

/**
 * What a passing claimed test reached of its claim's changed files: pytest's witness's word for a
 * Python test (on the run), the test's imports for a JavaScript one; undefined when not known.
 */
async function reachedOf(
  call: StrictCall,
  changed: readonly string[],
  run: TestRunInput | undefined,
): Promise<string[] | undefined> {
  if (run?.status !== "pass") return undefined;
  if (run.test.file.endsWith(".py")) return run.reached;
  if (!JS_SOURCE.test(run.test.file)) return undefined;
  const scripts = changed.filter((file) => JS_SOURCE.test(file));
  if (scripts.length < 2) return undefined;
  return reachedByImports(call.project, run.test.file, scripts);
}

/** A pass whose claim changed files the test never runs (its witness, or its imports, said). */
function unreachedReason(
  changed: readonly string[],
  reached: readonly string[] | undefined,
  run: TestRunInput | undefined,
): string | undefined {
  if (run?.status !== "pass" || reached === undefined) return undefined;
  const python = run.test.file.endsWith(".py");
  const asked = changed.filter((file) => (python ? file.endsWith(".py") : JS_SOURCE.test(file)));
  const missed = asked.filter((file) => !reached.includes(file));
  if (missed.length === 0) return undefined;
  // A JavaScript test's imports are all that is known: one changed file made the red test pass
  // (an ungated change was put back before the run), and none reached is a test loading its code
  // where the imports do not say (a computed path, another process). pytest's witness sees the
  // code run, and counts every claimed file for a test that started a process.
  if (!python && (asked.length < 2 || missed.length === asked.length)) return undefined;
  const one = missed.length === 1;
  const how = python
    ? `none of ${one ? "its" : "their"} changed code ran while ${run.test.file} ran`
    : `${run.test.file}'s imports never reach ${one ? "it" : "them"}`;
  if (python && missed.length === asked.length)
    return `it passes, but none of the code it claims (${missed.join(", ")}) ran while ${run.test.file} ran: a pass that never runs the changed code (a helper or fixture answering in its place) proves nothing of it; make the test call the real code`;
  return `it passes, but ${missed.join(", ")} changed and ${how}: a claim covers only the files its test runs, so make ${one ? "that change" : "those changes"} under a claim of a failing test that runs ${one ? "it" : "them"}`;
}

/** Why a verification failed, in one line; undefined when the claim is green. */
function failureOf(claim: ClaimState, run: TestRunInput | undefined): string | undefined {
  if (run === undefined) return "it was not run";
  if (run.status === "not_run")
    return `it did not run${run.message === undefined ? "" : ` (${run.message})`}`;
  if (run.status === "fail")
    return `it still fails${run.message === undefined ? "" : `: ${run.message}`}`;
  if (claim.red !== undefined && run.test_file_hash !== claim.red.test_file_hash)
    return `it passes, but ${run.test.file} changed since its red, which voids the claim`;
  if (claim.red?.support_hash !== undefined && run.support_hash !== claim.red.support_hash)
    return `it passes, but what ${run.test.file} runs with changed since its red, which voids the claim (${supportDescription(run.test.file)})`;
  return undefined;
}

async function revertClaim(
  call: StrictCall,
  claim: ClaimState,
): Promise<{ events: StrictEventInput[]; paths: string[] }> {
  const events: StrictEventInput[] = [];
  const paths: string[] = [];
  for (const [path, object] of claim.snapshots) {
    const discarded = await snapshotFile(call.project.root, path);
    // An object that is not kept whole is never restored: the claim still fails and says so.
    if (discarded !== object && !(await restoreFile(call.project.root, path, object))) continue;
    events.push({
      type: "edit_reverted",
      ...stamp(call),
      claim: claim.claim,
      path,
      restored: object,
      discarded,
    });
    paths.push(path);
  }
  return { events, paths };
}

/** The snapshots a revert of these claims, or of the turn's ungated changes, reads. */
function revertObjects(call: StrictCall, claims: readonly ClaimState[]): string[] {
  const objects = new Set<string>();
  for (const claim of claims)
    for (const object of claim.snapshots.values()) if (object !== null) objects.add(object);
  for (const file of Object.values(readBaseline(call.project.root, call.session)?.files ?? {}))
    if (typeof file.object === "string") objects.add(file.object);
  return [...objects].map((object) => `${OBJECTS_DIR}/${object}`);
}

/**
 * Why a pass that would make the claim green proves nothing: the test or its support mocks a
 * claimed file (`strict/stand-in.ts`), or its support rewrites what runs report
 * (`strict/outcome-rewrite.ts`: a conftest written before the claim that acts only once the code
 * exists). Undefined otherwise.
 */
function untrustedPass(
  call: StrictCall,
  run: TestRunInput | undefined,
  targets: readonly string[],
): string | undefined {
  if (run?.status !== "pass") return undefined;
  // The claimed test, or its support, mocking the very files it claims (`stand-in.ts`).
  const patterns = tddPatternsFromConfig(call.project.config);
  const standIn = standInOfTargets(
    call.project,
    run.test.file,
    patterns,
    targets,
    specifierResolver(call.project),
  );
  if (standIn !== undefined) return `it passes, but ${standIn}`;
  const reason = supportRewriteReason(call.project, run.test.file, patterns);
  return reason === undefined ? undefined : `it passes, but ${reason}`;
}

/**
 * Per claimed Python file, the changed functions no passing claimed test of this stop ran (each
 * run's witness lists what its test did not start; a function another claim's test on the same
 * file ran is covered).
 */
function unranAcross(runs: readonly StrictEventInput[]): Map<string, Set<string>> {
  const unran = new Map<string, Set<string>>();
  const seen = new Set<string>();
  for (const run of runs) {
    if (run.type !== "test_run" || run.status !== "pass" || run.reached === undefined) continue;
    for (const file of run.reached) {
      const missed = new Set(run.unran?.[file] ?? []);
      const before = unran.get(file);
      unran.set(
        file,
        !seen.has(file) ? missed : new Set([...(before ?? [])].filter((name) => missed.has(name))),
      );
      seen.add(file);
    }
  }
  return unran;
}

/** A failed refactor check's lines: the rule, then which tests failed, so the agent need not run
 * the whole suite again to find them. */
function refactorFailed(verify: Awaited<ReturnType<typeof runVerifyCommand>>): string[] {
  return [
    `✗ refactor mode: the verify command failed (${verify.reason}). A refactor must leave every test passing: fix it, or revert the change, before the turn ends. \`tailtest refactor finish\` returns to strict mode once it passes.`,
    ...(verify.failures === undefined ? [] : [verify.failures]),
  ];
}

/**
 * What the turn's tests need (`verifyStrictTurnWith`): the files it changed, tests too (one an
 * agent broke is red like any other), none in refactor mode; and the tests of the claims this
 * stop left open, expected to fail at the turn's end.
 */
function turnTests(
  state: StrictState,
  outcomes: readonly ClaimOutcome[],
  look: TurnLook,
): { changed: readonly string[]; expected: ExpectedRed[] } {
  const closed = new Set(
    outcomes.filter((outcome) => outcome.kind === "green").map((outcome) => outcome.claim),
  );
  const expected = openClaims(state)
    .filter((claim) => !closed.has(claim))
    .map(testOf)
    .filter((test): test is StrictTest => test !== undefined)
    .map((test) => ({ file: test.file, name: test.segments.join(" > ") }));
  return { changed: state.mode === "refactor" ? [] : look.changed, expected };
}

/** A pass whose claim changed functions its test never started (pytest's witness said). */
function unranReason(
  changed: readonly string[],
  unran: ReadonlyMap<string, ReadonlySet<string>>,
  run: TestRunInput | undefined,
): string | undefined {
  if (run?.status !== "pass" || !run.test.file.endsWith(".py")) return undefined;
  const missed = changed.flatMap((file) =>
    [...(unran.get(file) ?? [])].map((name) => `${name} (${file})`),
  );
  if (missed.length === 0) return undefined;
  const one = missed.length === 1;
  return `it passes, but ${missed.join(", ")} changed and never ran while ${run.test.file} ran: a claim covers only the functions its test runs, so put ${one ? "that change" : "those changes"} back, or make ${one ? "it" : "them"} under a claim of a failing test that runs ${one ? "it" : "them"}`;
}

async function settleClaim(
  call: StrictCall,
  claim: ClaimState,
  run: TestRunInput | undefined,
  events: StrictEventInput[],
  changed: readonly string[] = [],
  unran: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): Promise<ClaimOutcome> {
  const failure =
    failureOf(claim, run) ??
    untrustedPass(call, run, claim.targets) ??
    unreachedReason(changed, await reachedOf(call, changed, run), run) ??
    unranReason(changed, unran, run);
  const base = { ...stamp(call), scope: "claim" as const, claim: claim.claim };
  if (failure === undefined) {
    const after: Record<string, string | null> = {};
    for (const path of claim.snapshots.keys())
      after[path] = await hashFile(call.project.root, path);
    events.push({
      type: "verify_result",
      ...base,
      status: "pass",
      command: run?.command ?? "",
      after,
    });
    return {
      claim,
      kind: "green",
      line: `✓ ${claim.test_id} passes: the claim on ${claim.targets.join(", ")} is green.`,
    };
  }
  events.push({
    type: "verify_result",
    ...base,
    status: "fail",
    reason: failure,
    command: run?.command ?? "",
  });
  const reverted = await revertClaim(call, claim);
  events.push(...reverted.events);
  const attempt = claim.attempts + 1;
  const max = call.project.config.strict.max_attempts;
  const files =
    reverted.paths.length === 0
      ? "nothing to revert"
      : `reverted ${reverted.paths.join(", ")} to before this turn`;
  if (attempt >= max) {
    events.push({
      type: "escalated",
      ...stamp(call),
      claim: claim.claim,
      test_id: claim.test_id,
      attempts: attempt,
    });
    return {
      claim,
      kind: "escalated",
      line: `✗ ${claim.test_id}: ${failure}. That is ${plural(attempt, "failed verification")}: ${files}, and the claim is handed to the person. Do not change these files again for this test: end your turn by telling the person what you tried, that tailtest reverted it, and that ${claim.test_id} still fails.`,
    };
  }
  events.push({
    type: "repair",
    ...stamp(call),
    claim: claim.claim,
    test_id: claim.test_id,
    attempt,
    reason: failure,
  });
  return {
    claim,
    kind: "repair",
    line: `✗ ${claim.test_id}: ${failure}. ${files[0]?.toUpperCase()}${files.slice(1)}. Attempt ${attempt} of ${max}: the claim stands; fix the production code and end the turn again.`,
  };
}

/**
 * Production files changed this turn that no gate saw (a shell write tailtest could not read, a
 * formatter, a tool it does not see, a test run), found by content since the turn's start. A file
 * the gate saw counts only while it holds what the gate last saw: a write after a gated edit (by
 * any agent, or after a gate that timed out) is not covered by it.
 */
async function unattributedChanges(
  call: StrictCall,
  answered?: Map<string, string[]>,
): Promise<{
  around: string[];
  changed: string[];
  /** Of `changed`, the files edited in refactor mode this turn (under no claim). */
  refactored: string[];
  look: TurnLook;
  imported: Map<string, string[]>;
}> {
  const look = await lookAtTurn(call.project, call.now, call.session);
  const patterns = tddPatternsFromConfig(call.project.config);
  // Code outside the production class that production code imports is production here: no
  // claim can name it, so a change to it is never gated (`gating/node/test-imports.ts`).
  const imported = await productionImported(call.project, look.changed, answered);
  const production = look.changed.filter(
    (path) => imported.has(path) || classifyTddFile(path, patterns) === "prod",
  );
  // A Go program outside every build (a `gen.go`) is no production file to the gate either.
  const programs = goProgramsOutsideBuild(call.project.root, look, production);
  const changed = production.filter((path) => !programs.has(path));
  // What the gate saw this turn, read from the log only when something changed at all.
  const { seen, refactored } =
    changed.length === 0
      ? { seen: new Map<string, Set<string | null>>(), refactored: new Set<string>() }
      : readStrictEditsSince(call.project.root, look.since - SWEEP_SLACK_MS);
  const around: string[] = [];
  for (const path of changed) {
    const objects = seen.get(path);
    if (objects === undefined) around.push(path);
    else if (!objects.has(ANY_CONTENT) && !objects.has(await hashFile(call.project.root, path)))
      around.push(path);
  }
  return {
    around,
    changed,
    refactored: changed.filter((path) => refactored.has(path)),
    look,
    imported,
  };
}

/**
 * strict puts an ungated production change back to the turn's start (its bytes kept in
 * `.tailtest/objects` first); a file whose start cannot be had (a mtime look, a file already
 * dirty that was not kept) is reported only.
 */
async function revertUnattributed(
  call: StrictCall,
  around: readonly string[],
  look: TurnLook,
): Promise<{ events: StrictEventInput[]; reverted: string[] }> {
  const events: StrictEventInput[] = [];
  const reverted: string[] = [];
  for (const path of around) {
    const before = look.before?.get(path);
    let done: { discarded: string | null } | undefined;
    try {
      done = before === undefined ? undefined : await revertToBaseline(call.project, path, before);
    } catch {
      done = undefined;
    }
    if (done !== undefined) reverted.push(path);
    events.push({
      type: "edit_unattributed",
      ...stamp(call),
      path,
      ...(done === undefined ? {} : { reverted: true, discarded: done.discarded }),
    });
  }
  return { events, reverted };
}

/**
 * Refactor mode's line at a Stop that changed production code: the agent may start it itself, so
 * no turn under it goes by with nothing said (ADR 0012, escape hatches).
 */
function refactorLine(changed: readonly string[], passed: boolean): string {
  const head = `refactor mode (tailtest refactor start): production code changed this turn with no claimed failing test: ${changed.join(", ")}.`;
  return passed
    ? `${head} The verify command passed; tailtest refactor finish returns to strict mode.`
    : head;
}

/**
 * The escape hatch is said every turn it was used, as tdd's --skip-red is (ADR 0012): also when
 * the turn started and finished refactor mode before its end (`refactored`: its files).
 */
function hatchLines(
  mode: string,
  changed: readonly string[],
  refactored: readonly string[],
  passed: boolean,
): string[] {
  if (mode === "refactor") return changed.length > 0 ? [refactorLine(changed, passed)] : [];
  if (refactored.length === 0) return [];
  return [
    `refactor mode (tailtest refactor start … finish) was used this turn: production code changed with no claimed failing test: ${refactored.join(", ")}. The finish's verify command judged it; no test claims it.`,
  ];
}

/** What a strict stop's test runs say for the person's line. */
function strictTurnSummary(
  ran: readonly { status: "pass" | "fail" | "not_run"; duration_ms: number }[],
): TurnSummary | undefined {
  if (ran.length === 0) return undefined;
  return summariseCounts({
    passed: ran.filter((run) => run.status === "pass").length,
    failed: ran.filter((run) => run.status === "fail").length,
    missing: 0,
    envErrors: 0,
    timeouts: 0,
    errors: ran.filter((run) => run.status === "not_run").length,
    durationMs: ran.reduce((sum, run) => sum + run.duration_ms, 0),
  });
}

/**
 * Puts the turn's ungated production changes back (strict) and adds their lines; `block` when
 * there were any. Refactor mode reverts nothing (its verify command judges the whole tree).
 */
async function putBackUngated(
  call: StrictCall,
  mode: string,
  events: StrictEventInput[],
  lines: string[],
  said: Set<string> = new Set(),
  /** What this Stop already found production code imports (`test-imports.ts`). */
  answered?: Map<string, string[]>,
): Promise<{ look: TurnLook; block: boolean; changed: string[]; refactored: string[] }> {
  const look = await unattributedChanges(call, answered);
  const { changed, refactored } = look;
  // A file said once this Stop (kept, when it cannot be put back) is not said twice.
  const around = look.around.filter((path) => !said.has(path));
  for (const path of around) said.add(path);
  if (mode === "refactor" || around.length === 0)
    return { look: look.look, block: false, changed, refactored };
  const undone = await revertUnattributed(call, around, look.look);
  events.push(...undone.events);
  const kept = around.filter((path) => !undone.reverted.includes(path));
  const named = (paths: readonly string[]) =>
    paths
      .map((path) => {
        const importers = look.imported.get(path);
        return importers === undefined ? path : importedLine(path, importers);
      })
      .join(", ");
  const testCode = around.some((path) => look.imported.has(path))
    ? " A test, script or generated file that production code imports is production code here, and no claim can name it: move what production needs into production code (through a claim), or use tailtest refactor start."
    : "";
  if (undone.reverted.length > 0)
    lines.push(
      `✗ ${plural(undone.reverted.length, "production file")} changed or deleted this turn without passing the strict gate (a shell command tailtest could not read, a formatter, a test run, or a tool it does not see), put back to the turn's start (what they held is kept in .tailtest/objects): ${named(undone.reverted)}. Claim a failing test and redo the change through the edit tools.${testCode}`,
    );
  if (kept.length > 0)
    lines.push(
      `✗ ${plural(kept.length, "production file")} changed or deleted this turn without passing the strict gate (a shell command tailtest could not read, a formatter, or a tool it does not see): ${named(kept)}. Revert ${kept.length === 1 ? "it" : "them"} (git checkout -- <file>), or claim a failing test and redo the change through the edit tools.${testCode}`,
    );
  return { look: look.look, block: true, changed, refactored };
}

/**
 * The end of the main agent's turn. Refactor mode: the verify command must pass. Otherwise every
 * claim with edits since its last verification has its test run (one process per runner); a green
 * closes the claim, a red reverts its files and sends the agent back (`repair`) or, at the last
 * attempt, hands the claim to the person (`escalated`). Production files changed without passing
 * the gate are reported.
 */
export async function verifyStrictTurn(
  call: StrictCall,
  stopHookActive: boolean,
): Promise<Decision> {
  return (await verifyStrictTurnWith(call, stopHookActive)).decision;
}

/**
 * `verifyStrictTurn`, with what the turn's own tests need next (ADR 0008, "The turn's tests"):
 * the files it changed (none in refactor mode, whose verify command ran the suite) and the tests
 * of the claims still open, which are expected to fail.
 */
export async function verifyStrictTurnWith(
  call: StrictCall,
  stopHookActive: boolean,
): Promise<{
  decision: Decision;
  changed: readonly string[];
  expected: ExpectedRed[];
  tested: readonly TestedFile[];
}> {
  return withVerifyLock(call.project.root, async () => {
    const { state } = judgeableSnapshot(call);
    const events: StrictEventInput[] = [];
    const lines: string[] = [];
    let block = false;
    let refactorPassed = false;
    if (state.mode === "refactor") {
      const verify = await runVerifyCommand(call.project);
      refactorPassed = verify.status === "pass";
      events.push({
        type: "verify_result",
        ...stamp(call),
        scope: "refactor",
        status: verify.status,
        command: verify.command,
        duration_ms: verify.duration_ms,
        reason: verify.reason,
      });
      if (verify.status === "fail") {
        // Once per failing stretch: a stop that follows our own block goes to the person.
        block = !stopHookActive;
        lines.push(...refactorFailed(verify));
      }
    }
    // Ungated production changes go back before the claims' tests run: a verdict must rest on
    // the gated edits alone (a helper a script wrote would verify a claim green, then be reverted).
    const said = new Set<string>();
    const answered = new Map<string, string[]>();
    if (pendingClaims(state).length > 0) {
      const early = await putBackUngated(call, state.mode, events, lines, said, answered);
      if (early.block && !stopHookActive) block = true;
    }
    const pending = pendingClaims(state);
    const tests = pending.map(testOf).filter((test): test is StrictTest => test !== undefined);
    const unique = [...new Map(tests.map((test) => [test.id, test])).values()];
    const claimed = await changedClaimed(call.project.root, pending);
    const ran =
      unique.length === 0
        ? []
        : (
            await runStrictTests(call.project, unique, {
              purpose: "verify",
              now: call.now,
              session: call.session,
              host: call.host,
              guard: revertObjects(call, pending),
              ...(claimed.watch.length === 0 ? {} : { watch: claimed.watch }),
            })
          ).events;
    events.push(...ran);
    const outcomes: ClaimOutcome[] = [];
    const unran = unranAcross(ran);
    for (const claim of pending) {
      const run = ran.find((event) => event.test_id === claim.test_id);
      outcomes.push(await settleClaim(call, claim, run, events, claimed.byClaim.get(claim), unran));
    }
    // A claim made again for the same test and files settles alike: said once.
    lines.push(...new Set(outcomes.map((outcome) => outcome.line)));
    // A repair sends the agent back to fix; an escalation sends it back once, only to tell the
    // person (a message for the person alone is lost in headless runs). Both are bounded: the
    // claim's edits were reverted, so the next stop has nothing of it left to verify.
    if (outcomes.some((outcome) => outcome.kind !== "green")) block = true;
    // Again after the runs: a test's side effect is ungated too.
    const {
      look,
      block: late,
      changed,
      refactored,
    } = await putBackUngated(call, state.mode, events, lines, said, answered);
    if (late && !stopHookActive) block = true;
    lines.push(...hatchLines(state.mode, changed, refactored, refactorPassed));
    lines.push(...configLine("strict", look.changed));
    const concerns = await turnConcerns(call, state, look);
    lines.push(...concerns.lines);
    if (concerns.lines.length > 0 && !stopHookActive) block = true;
    const { tested } = concerns;
    if (look.lost !== undefined) {
      lines.push(`✗ ${lostCheckLine(look.lost, true, look.copy !== undefined)}`);
      if (!stopHookActive) block = true;
    }
    if (look.copy?.over !== undefined) lines.push(`✗ ${partialCopyLine(look.copy.over, true)}`);
    await look.finish();
    await appendStrictEvents(call.project.root, events);
    // The person's line (turn-summary.ts; `notify` in the config): the claimed tests this stop ran.
    const line = notifyLine(strictTurnSummary(ran), call.project.config.notify);
    const next = { ...turnTests(state, outcomes, look), tested };
    if (lines.length === 0) return { decision: withUserMessage({ kind: "none" }, line), ...next };
    // With lines of its own (the claims' verdicts), the stop already tells the person.
    const text = capText(`tailtest strict:\n${lines.join("\n")}`);
    const decision: Decision = block ? { kind: "block", reason: text } : { kind: "context", text };
    return { decision, ...next };
  });
}
