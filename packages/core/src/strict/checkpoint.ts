import * as z from "zod/mini";
import { lazy } from "../util/lazy.ts";
import {
  ObjectRefSchema,
  StrictModeSchema,
  TestRunEventSchema,
  type StrictEvent,
} from "./strict-events.ts";
import {
  applyStrictEvents,
  deferClosedClaims,
  initialStrictState,
  type ClaimState,
  type ClaimStatus,
  type StrictState,
} from "./strict-state.ts";

/*
 * The strict gate runs before every write, and the event log only grows: replaying and validating
 * every line of it on every call cost a 5,000-event log ~75 ms and ~40 MiB. A checkpoint keeps
 * the reduced state of the log up to a byte offset (ADR 0010), so a call reads the checkpoint and
 * the lines appended since. The log stays the only source of truth: the checkpoint is a cache,
 * checked against the log before use (node/strict-store.ts) and rebuilt from it whenever it does
 * not match.
 *
 * What a checkpoint keeps is what a hook reads: the mode, whether the mode was ever recorded,
 * every open claim whole, the latest run of each open claim's test, and, packed into one string
 * each, the closed claims (id, status, test, position) and the tests that have a run at all.
 * A closed claim never opens again (`green` and `escalated` are final), so its red and snapshots
 * are not kept; a test's older runs are only needed when a claim in the appended lines names a
 * test whose run the checkpoint left out, and then the caller replays the whole log.
 */

export const STRICT_CHECKPOINT_VERSION = 1;

const Count = lazy(() => z.number().check(z.int(), z.minimum(0)));

const OpenClaimSchema = lazy(() =>
  z.object({
    claim: z.string(),
    test_id: z.string(),
    targets: z.array(z.string()),
    index: Count,
    attempts: Count,
    red: z.optional(TestRunEventSchema),
    snapshots: z.array(z.tuple([z.string(), ObjectRefSchema])),
  }),
);

export const StrictCheckpointSchema = lazy(() =>
  z.object({
    version: z.literal(STRICT_CHECKPOINT_VERSION),
    /** Which log, up to where: checked against the file before the checkpoint is used. */
    log: z.object({
      /** The file's inode: a log replaced by another file is another log. */
      ino: Count,
      /** Bytes of the log reduced (always the end of a line). */
      bytes: Count,
      /** Strict events in those bytes: the next event's index. */
      events: Count,
      /** FNV-1a of the first and of the last (up to) 4 KiB of those bytes. */
      head: z.string(),
      tail: z.string(),
    }),
    mode: StrictModeSchema,
    mode_changed: z.boolean(),
    open: z.array(OpenClaimSchema),
    /** The latest run of each open claim's test. */
    runs: z.array(z.object({ index: Count, event: TestRunEventSchema })),
    /** JSON of `[claim, status, test_id, index][]`: every closed claim. */
    closed: z.string(),
    /** JSON of `string[]`: every test id with a run in the log. */
    run_ids: z.string(),
  }),
);
export type StrictCheckpoint = z.infer<typeof StrictCheckpointSchema>;

/** The reduced log as the hooks use it. */
export interface StrictSnapshot {
  state: StrictState;
  /** Whether any `mode_changed` event was recorded (the first strict session records one). */
  modeChanged: boolean;
  /** Strict events reduced: the next one's index. */
  events: number;
  /** Every test id with a run in the log (the state's `runs` may hold only the live ones). */
  runIds: Set<string>;
}

/** Where a checkpoint was taken: the log's identity and the bytes it covers. */
export type CheckpointLog = StrictCheckpoint["log"];

/** The snapshot of a whole log. */
export function snapshotOfEvents(events: readonly StrictEvent[]): StrictSnapshot {
  const snapshot: StrictSnapshot = {
    state: initialStrictState(),
    modeChanged: false,
    events: 0,
    runIds: new Set(),
  };
  // Never undefined: the snapshot holds every run there is.
  return resumeSnapshot(snapshot, events) ?? snapshot;
}

/**
 * The snapshot after `events` more, or undefined when one of them claims a test whose latest
 * run the snapshot does not hold (it has one in `runIds`, left out of a checkpoint): the caller
 * then replays the whole log. The given snapshot is changed in place.
 */
export function resumeSnapshot(
  snapshot: StrictSnapshot,
  events: readonly StrictEvent[],
): StrictSnapshot | undefined {
  const { state, runIds } = snapshot;
  for (const event of events) {
    if (
      event.type === "edit_claim" &&
      !state.claims.has(event.claim) &&
      !state.runs.has(event.test_id) &&
      runIds.has(event.test_id)
    )
      return undefined;
    if (event.type === "test_run") runIds.add(event.test_id);
    if (event.type === "mode_changed") snapshot.modeChanged = true;
    applyStrictEvents(state, [event], snapshot.events);
    snapshot.events += 1;
  }
  return snapshot;
}

/** The checkpoint of a snapshot taken at `log`. */
export function checkpointOf(
  snapshot: StrictSnapshot,
  log: Omit<CheckpointLog, "events">,
): StrictCheckpoint {
  const { state } = snapshot;
  const open: StrictCheckpoint["open"] = [];
  const closed: Array<[string, ClaimStatus, string, number]> = [];
  const runs: StrictCheckpoint["runs"] = [];
  for (const claim of state.claims.values()) {
    if (claim.status !== "open") {
      closed.push([claim.claim, claim.status, claim.test_id, claim.index]);
      continue;
    }
    open.push({
      claim: claim.claim,
      test_id: claim.test_id,
      targets: [...claim.targets],
      index: claim.index,
      attempts: claim.attempts,
      ...(claim.red === undefined ? {} : { red: claim.red }),
      snapshots: [...claim.snapshots],
    });
    const run = state.runs.get(claim.test_id);
    if (run !== undefined && !runs.some((kept) => kept.event.test_id === claim.test_id))
      runs.push({ index: run.index, event: run.event });
  }
  return {
    version: STRICT_CHECKPOINT_VERSION,
    log: { ...log, events: snapshot.events },
    mode: state.mode,
    mode_changed: snapshot.modeChanged,
    open,
    runs,
    closed: JSON.stringify(closed),
    run_ids: JSON.stringify([...snapshot.runIds]),
  };
}

const CLAIM_STATUSES: ReadonlySet<string> = new Set<ClaimStatus>(["green", "escalated"]);

/**
 * The snapshot a checkpoint holds, or undefined when its packed lists do not read as the writer
 * wrote them (the caller replays the log). Claims come back in the order they were made. The
 * closed claims are checked here but built only when something reads `state.claims`
 * (`deferClosedClaims`): a gate reads the open ones.
 */
export function snapshotOfCheckpoint(checkpoint: StrictCheckpoint): StrictSnapshot | undefined {
  const open: ClaimState[] = checkpoint.open.map((claim) => ({
    claim: claim.claim,
    test_id: claim.test_id,
    targets: claim.targets,
    index: claim.index,
    status: "open" as const,
    red: claim.red,
    attempts: claim.attempts,
    snapshots: new Map(claim.snapshots),
  }));
  const openIds = new Set(open.map((claim) => claim.claim));
  // A claim is open or closed, once: anything else was not written by `checkpointOf`.
  if (openIds.size !== open.length) return undefined;
  const closed = unpackClosed(checkpoint.closed, openIds);
  const runIds = unpackStrings(checkpoint.run_ids);
  if (closed === undefined || runIds === undefined) return undefined;
  open.sort((a, b) => a.index - b.index);
  const runs: StrictState["runs"] = new Map();
  for (const run of checkpoint.runs)
    runs.set(run.event.test_id, { index: run.index, event: run.event });
  const state = deferClosedClaims({ mode: checkpoint.mode, runs }, open, () => {
    const claims: ClaimState[] = [...closed.map(closedClaim), ...open].sort(
      (a, b) => a.index - b.index,
    );
    return new Map(claims.map((claim) => [claim.claim, claim]));
  });
  return {
    state,
    modeChanged: checkpoint.mode_changed,
    events: checkpoint.log.events,
    runIds: new Set(runIds),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function unpackStrings(text: string): string[] | undefined {
  const list = parseJson(text);
  if (!Array.isArray(list)) return undefined;
  for (const item of list) if (typeof item !== "string") return undefined;
  return list as string[];
}

type ClosedClaim = [claim: string, status: ClaimStatus, testId: string, index: number];

/** The packed closed claims, checked item by item; none may share an id with an open claim. */
function unpackClosed(text: string, openIds: ReadonlySet<string>): ClosedClaim[] | undefined {
  const list = parseJson(text);
  if (!Array.isArray(list)) return undefined;
  for (const item of list) {
    if (!Array.isArray(item) || item.length !== 4) return undefined;
    const [claim, status, testId, index] = item as unknown[];
    if (
      typeof claim !== "string" ||
      openIds.has(claim) ||
      typeof status !== "string" ||
      !CLAIM_STATUSES.has(status) ||
      typeof testId !== "string" ||
      typeof index !== "number" ||
      !Number.isInteger(index) ||
      index < 0
    )
      return undefined;
  }
  return list as ClosedClaim[];
}

function closedClaim([claim, status, testId, index]: ClosedClaim): ClaimState {
  return {
    claim,
    test_id: testId,
    targets: [],
    index,
    status,
    red: undefined,
    attempts: 0,
    snapshots: new Map(),
  };
}

/** FNV-1a (32-bit) of some bytes, as hex: enough to tell a log's head or tail changed. */
export function fnv1a(bytes: Uint8Array): string {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
