import type { Decision, HookEvent } from "../../hook/hook-event.ts";
import { capText } from "../../notes/notes.ts";
import type { StrictSnapshot } from "../checkpoint.ts";
import type { Host, StrictEventInput } from "../strict-events.ts";
import { decideStrictEdit, type StrictEditDecision } from "../strict-gate.ts";
import { openClaims, type StrictState } from "../strict-state.ts";
import { tddPatternsFromConfig } from "../../tdd/file-classes.ts";
import { withAgentFlag } from "../../tdd/guide.ts";
import type { Project } from "../../project/node/project.ts";
import {
  appendStrictEvents,
  appendStrictRefusals,
  hashFile,
  readStrictState,
  snapshotFile,
  supportHash,
} from "./strict-store.ts";
import { gatedFiles } from "../../tdd/node/tdd-gate-call.ts";
import { agentKey, type AgentIdentity } from "../../tdd/node/tdd-store.ts";
import { isoString } from "../../util/iso-datetime.ts";

/**
 * strict mode's gate before a write (ADR 0008), on its own: what `handleEvent` runs for it, and
 * what the gate bundle (`hook-gate.cjs`, ADR 0010) runs without loading the rest of strict mode.
 */

export interface StrictCall {
  project: Project;
  now: () => Date;
  /** The agent session's log key, stamped on every event. */
  session: string | undefined;
  host: Host;
  agentId?: string | undefined;
}

export function stamp(call: StrictCall) {
  return {
    ts: isoString(call.now()),
    ...(call.session === undefined ? {} : { session: call.session }),
    host: call.host,
  };
}

/**
 * The project's reduced log, when this tailtest can judge it: one holding events of a newer
 * tailtest throws, so every strict hook that reads it fails closed (ADR 0002) rather than judge a
 * part. Read from the log's checkpoint and the lines since (strict-store.ts).
 */
export function judgeableSnapshot(call: StrictCall): StrictSnapshot {
  const { snapshot, newer } = readStrictState(call.project.root);
  if (newer)
    throw new Error(
      ".tailtest/events.jsonl holds events of a newer tailtest; update tailtest to use strict mode",
    );
  return snapshot;
}

/** The log's state; a log written by a newer tailtest cannot be judged (the gate fails closed). */
export function stateOf(call: StrictCall): StrictState {
  return judgeableSnapshot(call).state;
}

/** sha256 of every open claim's test file as it is now, and of what it runs with. */
async function testHashes(
  call: StrictCall,
  state: StrictState,
): Promise<{ tests: Map<string, string | null>; support: Map<string, string> }> {
  const tests = new Map<string, string | null>();
  const support = new Map<string, string>();
  const patterns = tddPatternsFromConfig(call.project.config);
  for (const claim of openClaims(state)) {
    const red = claim.red;
    const file = red?.test.file;
    if (file === undefined || tests.has(file)) continue;
    tests.set(file, await hashFile(call.project.root, file));
    if (red?.support_hash !== undefined)
      support.set(file, await supportHash(call.project, file, patterns));
  }
  return { tests, support };
}

/**
 * Before a write: each project file is judged by the strict gate. A denial is logged and names
 * what is missing; an allowed production edit first snapshots the file (once per claim and turn)
 * so a failed verification can put it back.
 */
export async function gateStrictWrites(
  call: StrictCall,
  paths: readonly string[],
  base?: string,
): Promise<Decision> {
  const files = gatedFiles(call, paths, base ?? call.project.root);
  if (files.length === 0) return { kind: "none" };
  const state = stateOf(call);
  const hashes = await testHashes(call, state);
  const verdicts: Array<{ relPath: string; decision: StrictEditDecision }> = files.map((file) => ({
    relPath: file.relPath,
    decision: decideStrictEdit(state, {
      ...file,
      testHashes: hashes.tests,
      supportHashes: hashes.support,
    }),
  }));
  const denied = verdicts.filter((verdict) => verdict.decision.decision === "deny");
  if (denied.length > 0) {
    const events: Extract<StrictEventInput, { type: "edit_denied" }>[] = [];
    const messages: string[] = [];
    for (const { relPath, decision } of denied) {
      if (decision.decision !== "deny") continue;
      events.push({
        type: "edit_denied",
        ...stamp(call),
        path: relPath,
        code: decision.code,
        reason: decision.message,
      });
      messages.push(decision.message);
    }
    await appendStrictRefusals(call.project.root, events);
    return { kind: "deny", reason: capText(withAgentFlag(messages.join("\n"), call.agentId)) };
  }
  const events: StrictEventInput[] = [];
  const warnings: string[] = [];
  for (const { relPath, decision } of verdicts) {
    if (decision.decision !== "allow") continue;
    if (decision.warning !== undefined) warnings.push(decision.warning);
    for (const claimId of decision.claims) {
      const claim = state.claims.get(claimId);
      if (claim === undefined || claim.snapshots.has(relPath)) continue;
      const object = await snapshotFile(call.project.root, relPath);
      events.push({ type: "snapshot", ...stamp(call), claim: claimId, path: relPath, object });
    }
  }
  await appendStrictEvents(call.project.root, events);
  return warnings.length === 0
    ? { kind: "none" }
    : { kind: "context", text: capText(warnings.join("\n")) };
}

/**
 * After a write: an `edit_applied` event per production file the gate let through, with the
 * claims it went under. A production file no open claim snapshotted did not pass the gate (a
 * gate that timed out, a hook the platform skipped): nothing is recorded, so the end of the turn
 * finds it by content and reports it. In refactor mode every edit passes without a claim.
 */
export async function recordStrictEdits(
  call: StrictCall,
  paths: readonly string[],
  base?: string,
  /** Say an edit the gate did not let through (an edit tool's); a shell's is the Stop's to say. */
  sayUngated = true,
): Promise<Decision> {
  const files = gatedFiles(call, paths, base ?? call.project.root).filter(
    (file) => file.fileClass === "prod",
  );
  if (files.length === 0) return { kind: "none" };
  const state = stateOf(call);
  const events: StrictEventInput[] = [];
  const ungated: string[] = [];
  for (const file of files) {
    const claims = openClaims(state)
      .filter((claim) => claim.snapshots.has(file.relPath))
      .map((claim) => claim.claim);
    if (claims.length === 0 && state.mode !== "refactor") {
      ungated.push(file.relPath);
      continue;
    }
    const object = await snapshotFile(call.project.root, file.relPath);
    events.push({ type: "edit_applied", ...stamp(call), path: file.relPath, claims, object });
  }
  await appendStrictEvents(call.project.root, events);
  if (ungated.length === 0 || !sayUngated) return { kind: "none" };
  // An edit the gate did not let through (another tool, a timed-out gate): said now, and the
  // end of the turn reports and reverts it.
  return {
    kind: "block",
    reason: capText(
      `tailtest strict: ${ungated.join(", ")} changed without a claim: the strict gate did not let this edit through, so the end of the turn reverts it. Claim a failing test (tailtest claim) and redo the change through the edit tools.`,
    ),
  };
}

/** The call a strict-mode event makes, stamped with the agent's log key and the platform. */
export function strictCallOf(
  project: Project,
  event: HookEvent,
  identity: Omit<AgentIdentity, "agentId"> | undefined,
  host: Host,
  now: () => Date,
): StrictCall {
  const agentId = "agentId" in event ? event.agentId : undefined;
  return { project, now, session: agentKey({ ...identity, agentId }), host, agentId };
}
