import type {
  EditClaimEvent,
  ObjectRefSchema,
  StrictEvent,
  StrictMode,
  TestRunEvent,
} from "./strict-events.ts";
import type * as z from "zod/mini";

/**
 * strict mode's state: a reducer over the event log (strict-events.ts), so every decision can be
 * replayed from the file. Nothing here reads the clock or the disk.
 */

type ObjectRef = z.infer<typeof ObjectRefSchema>;

export type ClaimStatus = "open" | "green" | "escalated";

export interface ClaimState {
  claim: string;
  test_id: string;
  /** Project-relative files the claim lets the agent edit. */
  targets: string[];
  /** Position of the claim's first event in the log. */
  index: number;
  status: ClaimStatus;
  /**
   * The red the claim was made on: the test's latest run when the claim was recorded. It stays
   * the claim's red after a failed verification (the edits are reverted, so the code is back to
   * it), and it is void once the test file changes.
   */
  red: TestRunEvent | undefined;
  /** Failed verifications so far (the last `repair` event's attempt). */
  attempts: number;
  /**
   * Files edited under the claim since its last verification, with their content before the
   * first of those edits (null: the file did not exist). What a failed verification restores.
   */
  snapshots: Map<string, ObjectRef>;
}

export interface LatestRun {
  event: TestRunEvent;
  index: number;
}

export interface StrictState {
  mode: StrictMode;
  /** Claims by id, in the order they were made. */
  claims: Map<string, ClaimState>;
  /** The latest result of each test id. */
  runs: Map<string, LatestRun>;
}

export function initialStrictState(): StrictState {
  return { mode: "strict", claims: new Map(), runs: new Map() };
}

function claimOf(state: StrictState, event: EditClaimEvent, index: number): ClaimState {
  const found = state.claims.get(event.claim);
  if (found !== undefined) return found;
  const created: ClaimState = {
    claim: event.claim,
    test_id: event.test_id,
    targets: [],
    index,
    red: state.runs.get(event.test_id)?.event,
    status: "open",
    attempts: 0,
    snapshots: new Map(),
  };
  state.claims.set(event.claim, created);
  return created;
}

/** What happens to a claim's pending edits: snapshots, reverts, verifications, escalation. */
function applyClaimEvent(
  claim: ClaimState,
  event: Extract<StrictEvent, { type: "snapshot" | "edit_reverted" | "repair" | "escalated" }>,
): void {
  switch (event.type) {
    case "snapshot":
      // The first snapshot of a file since the last verification is the one to go back to.
      if (!claim.snapshots.has(event.path)) claim.snapshots.set(event.path, event.object);
      return;
    case "edit_reverted":
      claim.snapshots.delete(event.path);
      return;
    case "repair":
      claim.attempts = Math.max(claim.attempts, event.attempt);
      claim.snapshots.clear();
      return;
    case "escalated":
      claim.status = "escalated";
      claim.snapshots.clear();
      return;
  }
}

function applyToClaim(
  state: StrictState,
  event: Extract<StrictEvent, { type: "snapshot" | "edit_reverted" | "repair" | "escalated" }>,
): void {
  const claim = state.claims.get(event.claim);
  if (claim === undefined) return;
  applyClaimEvent(claim, event);
  // A pass the verification did not accept (a function or file its test never ran, a voided
  // red) was measured on code the repair put back: it says nothing of now, and the claim's red
  // stands, so the claim can be used again.
  if (event.type === "repair" && state.runs.get(claim.test_id)?.event.status === "pass")
    state.runs.delete(claim.test_id);
}

/** Applies one event in place (the reducer's step; `deriveStrictState` owns the state). */
function applyStrictEvent(state: StrictState, event: StrictEvent, index: number): void {
  switch (event.type) {
    case "test_run":
      state.runs.set(event.test_id, { event, index });
      return;
    case "edit_claim": {
      const claim = claimOf(state, event, index);
      if (!claim.targets.includes(event.edit_target)) claim.targets.push(event.edit_target);
      return;
    }
    case "snapshot":
    case "edit_reverted":
    case "repair":
    case "escalated":
      applyToClaim(state, event);
      return;
    case "verify_result": {
      const claim = event.claim === undefined ? undefined : state.claims.get(event.claim);
      if (event.scope === "refactor" || claim === undefined) return;
      claim.snapshots.clear();
      if (event.status === "pass") claim.status = "green";
      return;
    }
    case "mode_changed":
      state.mode = event.mode;
      return;
    case "edit_applied":
    case "edit_denied":
    case "plan_recorded":
    case "edit_unattributed":
      return;
  }
}

/** The state after every event, oldest first. */
export function deriveStrictState(events: readonly StrictEvent[]): StrictState {
  const state = initialStrictState();
  applyStrictEvents(state, events, 0);
  return state;
}

/**
 * Applies events to a state in place, the first being the log's `first`-th strict event: how a
 * state resumed from a checkpoint (checkpoint.ts) takes the events appended since.
 */
export function applyStrictEvents(
  state: StrictState,
  events: readonly StrictEvent[],
  first: number,
): void {
  events.forEach((event, offset) => {
    applyStrictEvent(state, event, first + offset);
  });
}

/** Where a state built by `deferClosedClaims` keeps its open claims until `claims` is built. */
const OPEN_ONLY = Symbol("open claims, before the closed ones are built");

type Deferring = StrictState & { [OPEN_ONLY]?: ClaimState[] };

/**
 * A state whose `claims` map is built on its first touch by `build` (every claim, in the order
 * they were made), while `openClaims` answers from `open` (oldest first) without building it: a
 * checkpoint holds ~1,000 closed claims that a gate never reads (ADR 0010). `open` must be
 * exactly the open claims `build` returns, the same objects; once `claims` is built, every reader
 * goes through it.
 */
export function deferClosedClaims(
  state: Omit<StrictState, "claims">,
  open: ClaimState[],
  build: () => Map<string, ClaimState>,
): StrictState {
  const deferring = state as Deferring;
  const settle = (claims: Map<string, ClaimState>) => {
    delete deferring[OPEN_ONLY];
    Object.defineProperty(deferring, "claims", {
      value: claims,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    return claims;
  };
  Object.defineProperty(deferring, OPEN_ONLY, {
    value: open,
    enumerable: false,
    configurable: true,
  });
  Object.defineProperty(deferring, "claims", {
    get: () => settle(build()),
    set: settle,
    enumerable: true,
    configurable: true,
  });
  return deferring;
}

/** Open claims, oldest first. */
export function openClaims(state: StrictState): ClaimState[] {
  const open = (state as Deferring)[OPEN_ONLY] ?? state.claims.values();
  return [...open].filter((claim) => claim.status === "open");
}

/** Open claims with edits not yet verified: what the end of the turn runs. */
export function pendingClaims(state: StrictState): ClaimState[] {
  return openClaims(state).filter((claim) => claim.snapshots.size > 0);
}
