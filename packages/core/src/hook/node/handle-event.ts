import { appendFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Decision, HookEvent } from "../hook-event.ts";
import { capText, NOTE_CAP } from "../../notes/notes.ts";
import { SWEEP_SLACK_MS, type SessionState } from "../../state/session.ts";
import { mayWriteFiles } from "../../shell/may-write.ts";
import { runStartAnalyses, withEditAnalyses } from "../../analysis/node/run-analyses.ts";
import {
  capDecision,
  MODE_LINE_ROOM,
  queueDeletions,
  queueFiles,
} from "../../follow/node/follow-edit.ts";
import { guarded } from "../../gating/node/gate-answer.ts";
import { inspectEdit, queueEdit, sessionFile, type Project } from "../../project/node/project.ts";
import type { ExpectedRed } from "../../engine/expected-red.ts";
import { forgetTestNames } from "../../runners/node/test-names.ts";
import { loosens } from "../../gating/gate-strength.ts";
import {
  CONFIRM_COMMAND,
  pinLine,
  pinnedProject,
  pinWithWitness,
  type ModePin,
} from "../../gating/node/mode-pin.ts";
import { raiseWitness, readWitness, setWitness } from "../../gating/node/mode-witness.ts";
import { boundLockWaits, readState, updateState } from "../../state/node/store.ts";
import type { TddCall } from "../../tdd/node/tdd-gate-call.ts";
import type { StrictCall } from "../../strict/node/strict-gate-call.ts";
import type { AgentIdentity } from "../../tdd/node/tdd-store.ts";
import type { TestedFile } from "../../gating/node/test-weakening.ts";
import type { RunResult } from "../../engine/summarize.ts";

/*
 * A hook is a fresh process per call, and the bundle is evaluated whole unless a module is only
 * reached through `import()`: everything that one mode or one event needs (tdd, strict, the
 * shell parser, the test engine, the sweep, session start and end) is loaded where it is used,
 * so a follow-mode edit evaluates none of it. test/hook-path.test.ts keeps it so.
 */
const lazy = {
  tdd: () => import("../../tdd/node/tdd-hooks.ts"),
  tddGate: () => import("../../tdd/node/tdd-gate-call.ts"),
  strictGate: () => import("../../strict/node/strict-gate-call.ts"),
  strict: () => import("../../strict/node/strict-hooks.ts"),
  tddStore: () => import("../../tdd/node/tdd-store.ts"),
  planReview: () => import("../../tdd/node/plan-review.ts"),
  shell: () => import("../../shell/node/bash-parser.ts"),
  sweep: () => import("../../project/node/mtime-sweep.ts"),
  contentSweep: () => import("../../gating/node/content-sweep.ts"),
  verify: () => import("../../engine/node/verify-turn.ts"),
  lifecycle: () => import("../../state/node/lifecycle.ts"),
  forged: () => import("../../gating/node/forged-lines.ts"),
  hookSettings: () => import("../../gating/node/hook-settings-watch.ts"),
  weakening: () => import("../../gating/test-weakening.ts"),
};

export interface HandleOptions {
  platform: "claude-code" | "cursor" | "codex" | "cli";
  now?: () => Date;
  /**
   * Who is calling, from the payload: tdd mode keeps one log per agent, keyed by the session id
   * (the transcript path's hash without one) and, for a subagent, the event's agent id.
   */
  identity?: Omit<AgentIdentity, "agentId"> | undefined;
}

export { SWEEP_SLACK_MS };

/** A platform-neutral event in, a Decision out: where a call the launcher did not answer goes. */
export async function handleEvent(
  given: Project,
  event: HookEvent,
  options: HandleOptions,
): Promise<Decision> {
  // A gate answers in time: a lock it cannot get soon is a deny, not a timed-out hook.
  const gate = event.kind === "EditRequested" || event.kind === "CommandRequested";
  const unbound = gate ? boundLockWaits() : undefined;
  try {
    return await handleSettled(given, event, options);
  } finally {
    unbound?.();
  }
}

async function handleSettled(
  given: Project,
  event: HookEvent,
  options: HandleOptions,
): Promise<Decision> {
  const now = options.now ?? (() => new Date());
  const { project, pin } = await settleMode(given);
  // Room is kept for the mode-change line, which must not be the part that is cut.
  const decision = await withHookSettings(
    project,
    event,
    await withForgedLines(
      project,
      event,
      capDecision(await dispatch(project, event, options, now), NOTE_CAP - MODE_LINE_ROOM),
    ),
  );
  // A pinned mode is said at every start and every end of the main agent's turn (ADR 0012).
  if (pin !== undefined && (event.kind === "SessionStarted" || isMainStop(event))) {
    const line = pinLine(pin);
    // Cursor's stop shows the person nothing but what the agent is sent back with; a session
    // file changed behind tailtest's back holds every platform's stop once, as a loosened config.
    const toAgent =
      isMainStop(event) &&
      !event.stopHookActive &&
      (options.platform === "cursor" || pin.sessionFile !== undefined);
    if (toAgent && (decision.kind === "none" || decision.kind === "context"))
      return capDecision({ kind: "block", reason: `${line} Tell the person.` }, NOTE_CAP);
    return capDecision(withLine(decision, line), NOTE_CAP);
  }
  if (!isMainStop(event)) return decision;
  if (project.modeUnsure !== undefined) return decision;
  const change = (await takeModeChange(project, now)) ?? (await takeConfirmation(project, now));
  return change === undefined
    ? decision
    : capDecision(withModeChange(decision, change, event.stopHookActive), NOTE_CAP);
}

/**
 * At the end of a main agent's turn in tdd or strict mode, state lines in the project's logs that
 * tailtest's copy lacks (state-copy.ts): ignored by the gates, named here, and the Stop held once
 * each time there are more of them (ADR 0012, tenth round).
 */
async function withForgedLines(
  project: Project,
  event: HookEvent,
  decision: Decision,
): Promise<Decision> {
  if (!isMainStop(event) || project.config.mode === "follow") return decision;
  const { foreignLines, foreignLine } = await lazy.forged();
  const found = foreignLines(project.root);
  if (found === undefined) return decision;
  const line = foreignLine(found);
  if (decision.kind === "block" || decision.kind === "deny" || !found.grown || event.stopHookActive)
    return capDecision(withLine(decision, line), NOTE_CAP - MODE_LINE_ROOM);
  const said = decision.kind === "context" ? `${decision.text}\n` : "";
  return capDecision(
    { userMessage: decision.userMessage, kind: "block", reason: `${said}${line}` },
    NOTE_CAP - MODE_LINE_ROOM,
  );
}

/**
 * At the end of a main agent's turn in tdd or strict mode, the agents' hook settings that changed
 * since the last look (`gating/node/hook-settings-watch.ts`): a program that switched tailtest's
 * hooks off for the next session names no protected path the gate can read (ADR 0012, the
 * twenty-first round). Said once, holding the Stop once.
 */
async function withHookSettings(
  project: Project,
  event: HookEvent,
  decision: Decision,
): Promise<Decision> {
  if (!isMainStop(event) || project.config.mode === "follow") return decision;
  const { hookSettingsLine, takeHookSettingsChange } = await lazy.hookSettings();
  const changed = takeHookSettingsChange(project.root);
  if (changed.length === 0) return decision;
  const line = hookSettingsLine(project.config.mode, changed);
  if (decision.kind === "block" || decision.kind === "deny" || event.stopHookActive)
    return capDecision(withLine(decision, line), NOTE_CAP - MODE_LINE_ROOM);
  const said = decision.kind === "context" ? `${decision.text}\n` : "";
  return capDecision(
    { userMessage: decision.userMessage, kind: "block", reason: `${said}${line}` },
    NOTE_CAP - MODE_LINE_ROOM,
  );
}

function isMainStop(event: HookEvent): event is Extract<HookEvent, { kind: "TurnEnded" }> {
  return event.kind === "TurnEnded" && event.agentId === undefined && event.interrupted !== true;
}

/** A decision with one more line for the person (a block keeps blocking). */
function withLine(decision: Decision, line: string): Decision {
  switch (decision.kind) {
    case "block":
    case "deny":
      return { ...decision, reason: `${decision.reason}\n${line}` };
    case "context":
      return { ...decision, text: `${decision.text}\n${line}` };
    case "none":
      return { kind: "context", text: line };
  }
}

/**
 * The mode is pinned for the session (mode-pin.ts, ADR 0012): a config that is deleted, names a
 * weaker mode, or does not say the mode (unreadable, not JSON, a bad `mode`) leaves the project
 * in the session's mode until the person confirms the change. With no session yet, the config
 * (or the defaults) stand, and a problem is named in the session's start note.
 */
async function settleMode(project: Project): Promise<{ project: Project; pin?: ModePin }> {
  if (project.modeUnsure === undefined && project.config.mode === "strict") return { project };
  const session = await readState(sessionFile(project));
  const sessionMode =
    session.existed && session.problem === undefined ? session.value.mode : undefined;
  // The copy tailtest keeps of the session's mode (mode-witness.ts): a session file that says
  // less, or is gone, was changed by something else.
  const witness = readWitness(project.root, project.sessionPath);
  // None yet (a session started before copies were kept): the session's own mode is the copy.
  if (sessionMode !== undefined && sessionMode !== "follow" && witness === undefined)
    setWitness(project.root, project.sessionPath, sessionMode);
  const pin = pinWithWitness(project, project.sessionPath, sessionMode, witness);
  return pin === undefined ? { project } : { project: pinnedProject(project, pin), pin };
}

interface ModeChange {
  from: SessionState["mode"];
  to: SessionState["mode"];
  /** Who changed it: the config file, or `tailtest mode confirm`. */
  by?: "confirm";
}

/**
 * A mode `tailtest mode confirm` loosened since the last end of a turn, taken (said once): the
 * person's confirmation, or the agent's under a name the gate does not know (`node …/x.cjs`, a
 * link, a script), which nothing else would tell.
 */
async function takeConfirmation(
  project: Project,
  now: () => Date,
): Promise<ModeChange | undefined> {
  const file = sessionFile(project, now);
  const seen = await readState(file);
  if (!seen.existed || seen.problem !== undefined) return undefined;
  if (seen.value.mode_confirmed_from === undefined) return undefined;
  const { result } = await updateState(file, (session) => {
    const { mode_confirmed_from: from, ...rest } = session;
    return {
      value: rest,
      result: from === undefined ? undefined : { from, to: session.mode, by: "confirm" as const },
    };
  });
  return result;
}

/** The mode the config says now, if it differs from the session's; the session takes it. */
async function takeModeChange(project: Project, now: () => Date): Promise<ModeChange | undefined> {
  const file = sessionFile(project, now);
  const seen = await readState(file);
  if (!seen.existed || seen.problem !== undefined) return undefined;
  // The copy of the session's mode rises with it (a pinned mode is not taken here).
  raiseWitness(project.root, project.sessionPath, project.config.mode);
  if (seen.value.mode === project.config.mode) return undefined;
  const { result } = await updateState(file, (session) => ({
    value: { ...session, mode: project.config.mode },
    result:
      session.mode === project.config.mode
        ? undefined
        : { from: session.mode, to: project.config.mode },
  }));
  return result;
}

/**
 * A mode changed by the config file during a session is said once, at the end of the turn that
 * first sees it. A gate switched off or loosened may be an agent's own doing (a program that
 * rewrote the file): the stop is held once so the agent tells the person; a stricter mode goes
 * to the person alone.
 */
function withModeChange(decision: Decision, change: ModeChange, stopHookActive: boolean): Decision {
  const line =
    change.by === "confirm"
      ? `tailtest: \`${CONFIRM_COMMAND}\` changed this session's mode from ${change.from} to ${change.to}.`
      : `tailtest: .tailtest/config.json changed the mode from ${change.from} to ${change.to} during this session.`;
  const loosened = loosens(change.from, change.to);
  switch (decision.kind) {
    case "block":
    case "deny":
      return { ...decision, reason: `${decision.reason}\n${line}` };
    case "context":
      if (!loosened || stopHookActive) return { ...decision, text: `${decision.text}\n${line}` };
      break;
    case "none":
      if (!loosened || stopHookActive)
        return { kind: "context", text: line, userMessage: decision.userMessage };
      break;
  }
  const said = decision.kind === "context" ? `${decision.text}\n` : "";
  return {
    userMessage: decision.userMessage,
    kind: "block",
    reason: `${said}${line} The ${change.from} gate no longer applies. Tell the person about this change before you finish: if they did not make it, something in this turn did.`,
  };
}

async function dispatch(
  project: Project,
  event: HookEvent,
  options: HandleOptions,
  now: () => Date,
): Promise<Decision> {
  // The post-edit note's kept test names (test-names.ts) are set aside at a turn's edges and after
  // a shell command that may have written files the hooks are not told of: the next note takes
  // them back only if no folder they came from has changed.
  if (mayChangeTests(event)) forgetTestNames(project.root);
  if (project.config.mode === "tdd") return handleTdd(project, event, options, now);
  if (project.config.mode === "strict") return handleStrict(project, event, options, now);
  switch (event.kind) {
    case "SessionStarted":
      return startedNote(project, event, options.platform, now);
    case "EditRequested":
    case "CommandRequested":
    case "PlanSubmitted":
    case "SubagentStarted":
      // Gates and plan reviews belong to tdd and strict modes.
      return { kind: "none" };
    case "TurnStarted":
      return markTurnStart(project, now);
    case "FilesEdited":
      return queueFiles(
        project,
        event.paths,
        event.deleted ?? [],
        event.agentId,
        now,
        event.created,
        withEditAnalyses,
      );
    case "CommandFinished": {
      // Most commands an agent runs write nothing the parser could name: no grammar for them.
      if (!mayWriteFiles(event.command)) return { kind: "none" };
      const writes = await (await lazy.shell()).findShellWrites(event.command);
      const base = event.cwd ?? project.root;
      const absolute = (path: string) => (isAbsolute(path) ? path : join(base, path));
      return queueFiles(
        project,
        writes.written.map(absolute),
        writes.deleted.map(absolute),
        event.agentId,
        now,
        [],
        withEditAnalyses,
      );
    }
    case "TurnEnded":
      if (event.interrupted === true) return { kind: "none" };
      if (event.sweep === true) await sweepIntoQueue(project, event.agentId, now);
      return (
        await (
          await lazy.verify()
        ).verifyTurn(project, {
          agentId: event.agentId,
          stopHookActive: event.stopHookActive,
          now,
        })
      ).decision;
    case "SessionEnded":
      await (await lazy.lifecycle()).endSession(project, now);
      return { kind: "none" };
  }
}

function mayChangeTests(event: HookEvent): boolean {
  switch (event.kind) {
    case "SessionStarted":
    case "TurnStarted":
    case "TurnEnded":
      return true;
    case "CommandFinished":
      return mayWriteFiles(event.command);
    default:
      return false;
  }
}

/**
 * A gating mode's stop, after the mode's own checks: what the turn changed is queued and its
 * tests run as in follow mode, less the failures the mode expects (ADR 0007 and 0008, "The
 * turn's tests"). A gated edit that breaks another test is not a finished turn.
 */
async function testTurn(
  project: Project,
  changed: readonly string[],
  tests: {
    expected: readonly ExpectedRed[];
    alsoRun?: readonly string[];
    /** Changed test files that held tests at the turn's start: each must still run one. */
    tested?: readonly TestedFile[];
  },
  stopHookActive: boolean,
  now: () => Date,
): Promise<Decision> {
  const file = sessionFile(project, now);
  for (const path of new Set([...changed, ...(tests.alsoRun ?? [])]))
    await queueEdit(project, inspectEdit(project, path), file);
  const { decision, outcomes, results } = await (
    await lazy.verify()
  ).verifyTurn(project, { stopHookActive, now, expected: tests.expected, newNeedsTest: false });
  // A test file made to run no test by a spelling the text reading does not know (ADR 0012,
  // the twenty-sixth round), or one of its tests that nothing could skip at the turn's start
  // skipped after its edit (the twenty-seventh): said with the other weakenings, held once.
  const tested = tests.tested ?? [];
  const empty = tested.filter(
    ({ path, support }) => support !== true && outcomes[path] === "missing_test",
  );
  const skipped = tested.flatMap(({ path, edited, support, cases, via }) => {
    const names =
      outcomes[path] === "missing_test" && support !== true
        ? []
        : skippedOf(results, path, edited, cases === true);
    return names.length === 0 ? [] : [{ path, names, ...(via === undefined ? {} : { via }) }];
  });
  const mode = project.config.mode;
  if (empty.length + skipped.length > 0 && (mode === "tdd" || mode === "strict")) {
    const weakening = await lazy.weakening();
    const text = [
      ...(empty.length === 0
        ? []
        : [
            weakening.ranNoTestLine(
              mode,
              empty.map(({ path }) => path),
            ),
          ]),
      ...(skipped.length === 0 ? [] : [weakening.skippedTestsLine(mode, skipped)]),
    ].join("\n\n");
    return joined(
      stopHookActive ? { kind: "context", text } : { kind: "block", reason: text },
      decision,
    );
  }
  if (decision.kind !== "block") return decision;
  // The fix is an edit the mode gates: say how to make one.
  const how =
    project.config.mode === "strict"
      ? "In strict mode a fix needs a claim: `tailtest claim <failing test id> <file…>` names the red test and the files to change, then edit them."
      : "In tdd mode a fix is a cycle: `tailtest red --test <the failing test> --expects …` (it already fails), then `tailtest green`, then edit.";
  return { ...decision, reason: `${decision.reason}\n\n${how}` };
}

/**
 * The tests of `edited` the runs report in `path` with every instance skipped or not run (names
 * without parameters), or with `cases` (no conftest.py above could skip one) any case skipped:
 * else a parametrised test some of whose cases a conftest's fixture skips still runs.
 */
function skippedOf(
  results: readonly RunResult[],
  path: string,
  edited: readonly string[],
  cases: boolean,
): string[] {
  if (edited.length === 0) return [];
  const ran = new Map<string, boolean>();
  const someSkipped = new Set<string>();
  for (const result of results)
    for (const test of result.tests) {
      if (test.id.file !== path) continue;
      const name = (test.id.segments.at(-1) ?? "").replace(/\[.*\]$/, "");
      if (!edited.includes(name)) continue;
      const skipped = test.status === "skip" || test.status === "not_run";
      ran.set(name, (ran.get(name) ?? false) || !skipped);
      // One case of a parametrised test skipped while another ran (the twenty-eighth round).
      if (cases && test.status === "skip") someSkipped.add(name);
    }
  return [...ran].filter(([name, any]) => !any || someSkipped.has(name)).map(([name]) => name);
}

/** Two answers of one stop as one: a block wins, and every text is kept. */
function joined(first: Decision, second: Decision): Decision {
  const textOf = (decision: Decision): string[] => {
    if (decision.kind === "context") return [decision.text];
    return decision.kind === "block" ? [decision.reason] : [];
  };
  const texts = [...textOf(first), ...textOf(second)];
  // A stop whose mode already told the person (a claim's verdict, the sweep's line) adds no line
  // of the turn's tests: those speak only when red, flaky or not run.
  const userMessage =
    textOf(first).length > 0 ? first.userMessage : (second.userMessage ?? first.userMessage);
  const person = userMessage === undefined ? {} : { userMessage };
  if (texts.length === 0) return { kind: "none", ...person };
  const text = capText(texts.join("\n\n"));
  if (first.kind === "block" || second.kind === "block")
    return { kind: "block", reason: text, ...person };
  return { kind: "context", text, ...person };
}

/** A new user turn: the end-of-turn sweeps look for changes made after it. */
async function markTurnStart(project: Project, now: () => Date, key?: string): Promise<Decision> {
  // Which tracked files are already missing, for the end of the turn to see deletions by.
  const missing = (await lazy.sweep()).missingTrackedFiles(project.root);
  // …and keep the work tree's content, for the content check at the turn's end.
  const kept = project.config.mode !== "follow" && (await recordTurnBaseline(project, now, key));
  await updateState(sessionFile(project, now), (session) => ({
    value: {
      ...session,
      ...(kept ? { baseline_kept: true } : {}),
      turn_started_at: now().toISOString(),
      ...(missing === undefined ? {} : { missing_seen: missing }),
    },
    result: undefined,
  }));
  return { kind: "none" };
}

/**
 * The gating modes' content baseline of the work tree (none outside git), the agent session's
 * own (`key`): true when kept.
 */
async function recordTurnBaseline(
  project: Project,
  now: () => Date,
  key?: string,
): Promise<boolean> {
  const { recordBaseline, baselineOptions } = await lazy.contentSweep();
  return recordBaseline(project, baselineOptions(project, now, key));
}

/**
 * SessionStart in a gating mode: the session note, then the mode's note, and the agent's log key
 * put where the agent's shell finds it (Claude's env file, Cursor's `env`).
 */
async function startedWithKey(
  project: Project,
  event: Extract<HookEvent, { kind: "SessionStarted" }>,
  options: HandleOptions,
  now: () => Date,
  modeNote: () => Promise<string>,
): Promise<Decision> {
  const started = await startedNote(project, event, options.platform, now);
  // The hook settings the session starts with, for its Stops to compare with.
  if (event.source !== "compact") (await lazy.hookSettings()).recordHookSettings(project.root);
  const { agentKey, TDD_KEY_ENV } = await lazy.tddStore();
  const key = agentKey({ ...options.identity });
  // A compaction comes mid-turn: the turn's baseline stays. The baseline is the session's own:
  // another session's turn, under way, keeps its own (ADR 0012, the twenty-eighth round).
  if (event.source !== "compact") {
    (await lazy.contentSweep()).pruneTurnBaselines(project.root, now());
    if (await recordTurnBaseline(project, now, key))
      await updateState(sessionFile(project, now), (session) => ({
        value: { ...session, baseline_kept: true },
        result: undefined,
      }));
  }
  let envProblem: string | undefined;
  try {
    if (event.envFile !== undefined)
      appendFileSync(event.envFile, `export ${TDD_KEY_ENV}=${key}\n`);
  } catch (error) {
    // The session's answer still goes out; the agent's shell then finds the key another way.
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    envProblem = `tailtest: the agent's environment file could not be written (${code}); run tailtest commands with ${TDD_KEY_ENV}=${key}.`;
  }
  const note = [await modeNote(), ...(envProblem === undefined ? [] : [envProblem])].join("\n");
  const text = started.kind === "context" ? `${started.text}\n${note}` : note;
  return { kind: "context", text: capText(text), env: { [TDD_KEY_ENV]: key } };
}

async function handleTdd(
  project: Project,
  event: HookEvent,
  options: HandleOptions,
  now: () => Date,
): Promise<Decision> {
  const call = (await lazy.tddGate()).tddCallOf(project, event, options.identity, now);
  return guarded("tdd", project, event, () => decideTdd(call, event, options));
}

async function decideTdd(
  call: TddCall,
  event: HookEvent,
  options: HandleOptions,
): Promise<Decision> {
  const { finishSubagent, gateCommand, recordCommand, sweepTurn, tddSessionNote, turnTestsOf } =
    await lazy.tdd();
  const { gateWrites, recordTddEdits } = await lazy.tddGate();
  switch (event.kind) {
    case "SessionStarted":
      return startedWithKey(call.project, event, options, call.now, () => tddSessionNote(call));
    case "SubagentStarted":
      return { kind: "context", text: await tddSessionNote(call) };
    case "EditRequested":
      return gateWrites(call, [...event.paths, ...(event.deleted ?? [])]);
    case "CommandRequested":
      return gateCommand(call, event.command, event.cwd);
    case "CommandFinished":
      return recordCommand(call, event);
    case "PlanSubmitted":
      return (await lazy.planReview()).reviewPlan(
        call.project,
        { sessionId: call.identity.sessionId, plan: event.plan },
        { now: call.now },
      );
    case "TurnStarted":
      return markTurnStart(call.project, call.now, (await lazy.tddGate()).sessionKeyOf(call));
    case "FilesEdited":
      // The gate judged the edit before it ran; what it left is kept for the turn's end (tdd
      // mode keeps no test queue).
      return recordTddEdits(call, [...event.paths, ...(event.deleted ?? [])]);
    case "TurnEnded":
      if (event.agentId !== undefined) {
        await finishSubagent(call);
        return { kind: "none" };
      }
      if (event.interrupted === true) return { kind: "none" };
      {
        const swept = await sweepTurn(call, event.stopHookActive);
        // Changes that went round the gate come first: their tests run at the next stop.
        if (swept.decision.kind === "block") return swept.decision;
        const tests = await turnTestsOf(call, swept.changed);
        return joined(
          swept.decision,
          await testTurn(
            call.project,
            swept.changed,
            { ...tests, tested: swept.tested },
            event.stopHookActive,
            call.now,
          ),
        );
      }
    case "SessionEnded":
      await (await lazy.lifecycle()).endSession(call.project, call.now);
      return { kind: "none" };
  }
}

async function handleStrict(
  project: Project,
  event: HookEvent,
  options: HandleOptions,
  now: () => Date,
): Promise<Decision> {
  const { strictCallOf } = await lazy.strictGate();
  const call = strictCallOf(project, event, options.identity, options.platform, now);
  return guarded("strict", project, event, () => decideStrict(call, event, options));
}

async function decideStrict(
  call: StrictCall,
  event: HookEvent,
  options: HandleOptions,
): Promise<Decision> {
  const {
    gateStrictCommand,
    recordStrictCommand,
    reviewStrictPlan,
    strictSessionNote,
    verifyStrictTurnWith,
  } = await lazy.strict();
  const { gateStrictWrites, recordStrictEdits } = await lazy.strictGate();
  switch (event.kind) {
    case "SessionStarted":
      return startedWithKey(call.project, event, options, call.now, () => strictSessionNote(call));
    case "SubagentStarted":
      return { kind: "context", text: await strictSessionNote(call) };
    case "EditRequested":
      return gateStrictWrites(call, [...event.paths, ...(event.deleted ?? [])]);
    case "CommandRequested":
      return gateStrictCommand(call, event.command, event.cwd);
    case "FilesEdited":
      return recordStrictEdits(call, [...event.paths, ...(event.deleted ?? [])]);
    case "CommandFinished":
      return recordStrictCommand(call, event.command, event.cwd);
    case "PlanSubmitted":
      return reviewStrictPlan(call, event.plan);
    case "TurnStarted":
      return markTurnStart(call.project, call.now, call.session);
    case "TurnEnded":
      // Claims are the project's: the main agent's stop verifies them, a subagent's does not.
      if (event.agentId !== undefined || event.interrupted === true) return { kind: "none" };
      {
        const verified = await verifyStrictTurnWith(call, event.stopHookActive);
        // A claim to repair comes first: the turn's other tests run at the next stop.
        if (verified.decision.kind === "block") return verified.decision;
        return joined(
          verified.decision,
          await testTurn(
            call.project,
            verified.changed,
            { expected: verified.expected, tested: verified.tested },
            event.stopHookActive,
            call.now,
          ),
        );
      }
    case "SessionEnded":
      await (await lazy.lifecycle()).endSession(call.project, call.now);
      return { kind: "none" };
  }
}

async function startedNote(
  project: Project,
  event: Extract<HookEvent, { kind: "SessionStarted" }>,
  platform: HandleOptions["platform"],
  now: () => Date,
): Promise<Decision> {
  const started = await (
    await lazy.lifecycle()
  ).startSession(project, {
    sessionId: event.sessionId,
    source: event.source,
    platform,
    now,
  });
  const pending = started.session.pending_files;
  const resumedNote =
    started.resumed && pending.length > 0
      ? `\ntailtest: still queued from before ${event.source === "compact" ? "the compaction" : "this resume"}: ${pending.map((entry) => entry.path).join(", ")}.`
      : "";
  const analyses = await runStartAnalyses(project, {
    resumed: started.resumed,
    runners: started.session.runners,
    now,
  });
  const analysisNote = analyses.map((line) => `\n${line}`).join("");
  return { kind: "context", text: capText(`${started.note}${resumedNote}${analysisNote}`) };
}

function newOrExisting(untracked: ReadonlySet<string>, path: string): "new" | "existing" {
  return untracked.has(path) ? "new" : "existing";
}

/**
 * Codex's end of turn: every source file changed since the turn began (or since the last
 * sweep, whichever is later), by whatever tool, goes into the queue before verification.
 */
async function sweepIntoQueue(
  project: Project,
  agentId: string | undefined,
  now: () => Date,
): Promise<void> {
  const file = sessionFile(project, now);
  const { value: session } = await readState(file);
  const sweepStart = now();
  // Never before the session began: files a person or a setup script wrote just before it are
  // not this session's changes.
  const sweep = await lazy.sweep();
  const { changed, untracked, seen } = sweep.sweepTurn(project, session, sweepStart.getTime());
  for (const path of changed) {
    // What git reported tells new from existing; after a walk, git is asked per file.
    const status = untracked === undefined ? {} : { status: newOrExisting(untracked, path) };
    await queueEdit(project, inspectEdit(project, path, status), file, agentId);
  }
  // A deletion changes no modification time: git says which tracked files went missing since
  // the turn began (or the last sweep), and the tests of what they were run.
  const missing = sweep.missingTrackedFiles(project.root);
  await queueDeletions(project, sweep.newlyMissing(session.missing_seen, missing), file, agentId);
  await updateState(file, (current) => ({
    value: {
      ...current,
      last_sweep_at: sweepStart.toISOString(),
      sweep_seen: seen,
      ...(missing === undefined ? {} : { missing_seen: missing }),
    },
    result: undefined,
  }));
}
