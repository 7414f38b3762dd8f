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
 * every open claim whole and the latest run of each open claim's test; its part (a file of its
 * own, `StrictCheckpointPart`) keeps the closed claims (id, status, test, position) and the tests
 * that have a run at all, which a gate refusing an edit never reads, so it never reads the part
 * either (ADR 0010). A closed claim never opens again (`green` and `escalated` are final), so its
 * red and snapshots are not kept; a test's older runs are only needed when a claim in the appended
 * lines names a test whose run the checkpoint left out, and then the caller replays the whole log.
 * A part that is missing, unreadable or taken at another point of the log is rebuilt from the
 * log's prefix the checkpoint covers when something first reads it (node/strict-store.ts).
 */

/**
 * 4: the log is read for the state with the reducer's stateless lines counted unvalidated
 * (`parseStrictLog`'s `forState`), so an older checkpoint's event count may differ by a bad line.
 */
export const STRICT_CHECKPOINT_VERSION = 4;

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
      /** The first and the last (up to) 4 KiB of those bytes, base64. */
      head: z.string(),
      tail: z.string(),
    }),
    mode: StrictModeSchema,
    mode_changed: z.boolean(),
    open: z.array(OpenClaimSchema),
    /** The latest run of each open claim's test. */
    runs: z.array(z.object({ index: Count, event: TestRunEventSchema })),
  }),
);
export type StrictCheckpoint = z.infer<typeof StrictCheckpointSchema>;

/**
 * The checkpoint's part that only some calls read: written before the checkpoint, and used only
 * for the log (`log`, the same fields) the checkpoint was taken at. Checked by hand as it is read
 * (`readCheckpointPart`): 1,000 closed claims through a schema would cost what the split saves.
 */
export interface StrictCheckpointPart {
  version: typeof STRICT_CHECKPOINT_VERSION;
  log: CheckpointLog;
  /** Every closed claim: `[claim, status, test_id, index]`. */
  closed: ClosedClaim[];
  /** Every test id with a run in the log. */
  run_ids: string[];
}

/** What the part holds, as a snapshot uses it. */
export interface ClosedPart {
  closed: ClosedClaim[];
  runIds: string[];
}

/** The reduced log as the hooks use it. */
export interface StrictSnapshot {
  state: StrictState;
  /** Whether any `mode_changed` event was recorded (the first strict session records one). */
  modeChanged: boolean;
  /** Strict events reduced: the next one's index. */
  events: number;
  /**
   * Every test id with a run in the log (the state's `runs` may hold only the live ones). From a
   * checkpoint, built from its part on first touch.
   */
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
  // Never undefined: a replay from the start holds every run there is.
  return resumeSnapshot(snapshot, events, true) ?? snapshot;
}

/**
 * The snapshot after `events` more, or undefined when one of them claims a test whose latest
 * run the snapshot does not hold (it has one in `runIds`, left out of a checkpoint): the caller
 * then replays the whole log. `whole`: the snapshot is a replay from the log's start, so a test
 * in `runIds` without a run has none to leave out (a `repair` dropped a pass it did not accept),
 * and no event asks for a replay. The given snapshot is changed in place.
 */
export function resumeSnapshot(
  snapshot: StrictSnapshot,
  events: readonly StrictEvent[],
  whole = false,
): StrictSnapshot | undefined {
  const { state } = snapshot;
  // `runIds` and `state.claims` are read only where an event needs them: from a checkpoint, the
  // first touch reads its part.
  for (const event of events) {
    if (
      !whole &&
      event.type === "edit_claim" &&
      !state.claims.has(event.claim) &&
      !state.runs.has(event.test_id) &&
      snapshot.runIds.has(event.test_id)
    )
      return undefined;
    if (event.type === "test_run") snapshot.runIds.add(event.test_id);
    if (event.type === "mode_changed") snapshot.modeChanged = true;
    applyStrictEvents(state, [event], snapshot.events);
    snapshot.events += 1;
  }
  return snapshot;
}

/** The checkpoint of a snapshot taken at `log`, and its part. */
export function checkpointOf(
  snapshot: StrictSnapshot,
  at: Omit<CheckpointLog, "events">,
): { checkpoint: StrictCheckpoint; part: StrictCheckpointPart } {
  const { state } = snapshot;
  const log = { ...at, events: snapshot.events };
  const open: StrictCheckpoint["open"] = [];
  const runs: StrictCheckpoint["runs"] = [];
  for (const claim of state.claims.values()) {
    if (claim.status !== "open") continue;
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
    checkpoint: {
      version: STRICT_CHECKPOINT_VERSION,
      log,
      mode: state.mode,
      mode_changed: snapshot.modeChanged,
      open,
      runs,
    },
    part: checkpointPart(log, closedPartOf(snapshot, new Set())),
  };
}

/** The part of a checkpoint taken at `log`, as written (the same bytes whoever writes it). */
export function checkpointPart(log: CheckpointLog, part: ClosedPart): StrictCheckpointPart {
  const { ino, bytes, events, head, tail } = log;
  return {
    version: STRICT_CHECKPOINT_VERSION,
    log: { ino, bytes, events, head, tail },
    closed: part.closed,
    run_ids: part.runIds,
  };
}

/**
 * The closed claims and tested ids of a snapshot (a replay of the prefix a checkpoint covers,
 * when its part cannot be used), leaving out the ids the checkpoint holds open.
 */
export function closedPartOf(snapshot: StrictSnapshot, openIds: ReadonlySet<string>): ClosedPart {
  const closed: ClosedClaim[] = [];
  for (const claim of snapshot.state.claims.values())
    if (claim.status !== "open" && !openIds.has(claim.claim))
      closed.push([claim.claim, claim.status, claim.test_id, claim.index]);
  return { closed, runIds: [...snapshot.runIds] };
}

const CLAIM_STATUSES: ReadonlySet<string> = new Set<ClaimStatus>(["green", "escalated"]);

/** The open claims' ids, or undefined when one is there twice (not written by `checkpointOf`). */
export function openIdsOf(checkpoint: StrictCheckpoint): ReadonlySet<string> | undefined {
  const ids = new Set(checkpoint.open.map((claim) => claim.claim));
  return ids.size === checkpoint.open.length ? ids : undefined;
}

/**
 * The snapshot a checkpoint holds, or undefined when its open claims do not read as the writer
 * wrote them (the caller replays the log). Claims come back in the order they were made. The
 * closed claims and tested ids come from `closedPart`, called once, on the first touch of
 * `state.claims` or `runIds` (`deferClosedClaims`): a gate reads the open ones. `closedPart`
 * answers the part's content or throws; it must never leave out what the log holds.
 */
export function snapshotOfCheckpoint(
  checkpoint: StrictCheckpoint,
  closedPart: () => ClosedPart,
): StrictSnapshot | undefined {
  const openIds = openIdsOf(checkpoint);
  if (openIds === undefined) return undefined;
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
  open.sort((a, b) => a.index - b.index);
  let part: ClosedPart | undefined;
  const read = () => (part ??= closedPart());
  const runs: StrictState["runs"] = new Map();
  for (const run of checkpoint.runs)
    runs.set(run.event.test_id, { index: run.index, event: run.event });
  const state = deferClosedClaims({ mode: checkpoint.mode, runs }, open, () => {
    const claims: ClaimState[] = [
      ...read()
        .closed.filter(([claim]) => !openIds.has(claim))
        .map(closedClaim),
      ...open,
    ].sort((a, b) => a.index - b.index);
    return new Map(claims.map((claim) => [claim.claim, claim]));
  });
  const snapshot = {
    state,
    modeChanged: checkpoint.mode_changed,
    events: checkpoint.log.events,
  } as StrictSnapshot;
  const settle = (runIds: Set<string>) => {
    Object.defineProperty(snapshot, "runIds", {
      value: runIds,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    return runIds;
  };
  Object.defineProperty(snapshot, "runIds", {
    get: () => settle(new Set(read().runIds)),
    set: settle,
    enumerable: true,
    configurable: true,
  });
  return snapshot;
}

/** Why a part was not used: another point of the log (or version), or bytes that do not read. */
export type PartReading = { part: ClosedPart } | { part: undefined; problem: "stale" | "corrupt" };

/**
 * A part's text, checked item by item as `checkpointOf` writes it: for the log the checkpoint
 * was taken at, no closed claim also open, every status final, every id a string.
 */
export function readCheckpointPart(
  text: string,
  log: CheckpointLog,
  openIds: ReadonlySet<string>,
): PartReading {
  const corrupt = { part: undefined, problem: "corrupt" } as const;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return corrupt;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return corrupt;
  const { version, log: at, closed, run_ids: runIds } = json as Record<string, unknown>;
  const stale = { part: undefined, problem: "stale" } as const;
  if (version !== STRICT_CHECKPOINT_VERSION) return stale;
  if (!isLog(at)) return corrupt;
  if (!sameLog(at, log)) return stale;
  if (!Array.isArray(closed) || !Array.isArray(runIds)) return corrupt;
  for (const item of closed) if (!isClosedClaim(item, openIds)) return corrupt;
  for (const id of runIds) if (typeof id !== "string") return corrupt;
  return { part: { closed: closed as ClosedClaim[], runIds: runIds as string[] } };
}

function isLog(at: unknown): at is CheckpointLog {
  if (typeof at !== "object" || at === null) return false;
  const { ino, bytes, events, head, tail } = at as Record<string, unknown>;
  return (
    typeof ino === "number" &&
    typeof bytes === "number" &&
    typeof events === "number" &&
    typeof head === "string" &&
    typeof tail === "string"
  );
}

function sameLog(at: CheckpointLog, log: CheckpointLog): boolean {
  return (
    at.ino === log.ino &&
    at.bytes === log.bytes &&
    at.events === log.events &&
    at.head === log.head &&
    at.tail === log.tail
  );
}

type ClosedClaim = [claim: string, status: ClaimStatus, testId: string, index: number];

function isClosedClaim(item: unknown, openIds: ReadonlySet<string>): boolean {
  if (!Array.isArray(item) || item.length !== 4) return false;
  const [claim, status, testId, index] = item as unknown[];
  return (
    typeof claim === "string" &&
    !openIds.has(claim) &&
    typeof status === "string" &&
    CLAIM_STATUSES.has(status) &&
    typeof testId === "string" &&
    typeof index === "number" &&
    Number.isInteger(index) &&
    index >= 0
  );
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
