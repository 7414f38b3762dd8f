import * as z from "zod/mini";
import { FailureKindSchema } from "../engine/results.ts";
import {
  ObjectRefSchema,
  type StrictEvent,
  type TestRunEvent,
  type VerifyResultEvent,
} from "./strict-events.ts";

/**
 * `tailtest export`'s labelled corpus: each claim that went from a red test, through its edits,
 * to a verified green, as one (red, edits, green) triple. A pure reduction of the event log, in
 * file order (which is time order).
 *
 * - A claim group is every `edit_claim` sharing a `claim` id (one per edit target, one test id).
 * - Its red: the latest failing `test_run` of the test id before the group's first claim event.
 * - Its edits: the `edit_applied` events listing the claim, before its green; one per path (the
 *   first one's time), `before` from the claim's snapshot of that path, `after` from the green.
 * - Its green: the first passing `verify_result` of the claim, with the latest passing
 *   `test_run` of the test id between the claim and it.
 * - Escalated claims, and claims with no red or no green, are no triples.
 */

const TimestampSchema = z.iso.datetime();

export const RedGreenTripleSchema = z.object({
  test_id: z.string().check(z.minLength(1)),
  claim: z.string().check(z.minLength(1)),
  red: z.object({
    ts: TimestampSchema,
    fail_reason: z.optional(FailureKindSchema),
    message: z.optional(z.string()),
    command: z.string(),
    test_file_hash: ObjectRefSchema,
  }),
  edits: z.array(
    z.object({
      path: z.string().check(z.minLength(1)),
      ts: TimestampSchema,
      /** The file before the claim's first edit of it (null: it did not exist, or no snapshot). */
      before: ObjectRefSchema,
      /** The file at the green, when the verification recorded it (null: it was removed). */
      after: z.optional(ObjectRefSchema),
    }),
  ),
  green: z.object({
    ts: TimestampSchema,
    command: z.string(),
    duration_ms: z.number().check(z.minimum(0)),
  }),
  /** Failed verifications of the claim (repair events) before its green. */
  repairs: z.number().check(z.int(), z.minimum(0)),
});
export type RedGreenTriple = z.infer<typeof RedGreenTripleSchema>;

export interface PairSummary {
  /** Claims that became triples. */
  triples: number;
  /** Claims neither escalated nor a triple: not green yet, or with no red before them. */
  open: number;
  escalated: number;
  /** Every repair event of a claim group in the log. */
  repairs: number;
}

type ObjectRef = z.infer<typeof ObjectRefSchema>;

interface AppliedEdit {
  at: number;
  path: string;
  ts: string;
}

interface ClaimRecord {
  claim: string;
  testId: string;
  /** Index of the group's first `edit_claim`. */
  first: number;
  /** The first snapshot of each path. */
  snapshots: Map<string, ObjectRef>;
  edits: AppliedEdit[];
  repairs: number[];
  escalated: boolean;
  /** The first passing claim verification. */
  green: { at: number; event: VerifyResultEvent } | undefined;
}

interface IndexedRun {
  at: number;
  event: TestRunEvent;
}

interface LogIndex {
  /** Claim groups in the order of their first claim event. */
  claims: ClaimRecord[];
  runs: Map<string, IndexedRun[]>;
}

/** Claim-keyed facts that may be logged before or after the claim event itself. */
interface Pending {
  snapshots: Map<string, Map<string, ObjectRef>>;
  edits: Map<string, AppliedEdit[]>;
  repairs: Map<string, number[]>;
  escalated: Set<string>;
  greens: Map<string, { at: number; event: VerifyResultEvent }>;
}

function listIn<K, V>(map: Map<K, V[]>, key: K): V[] {
  const existing = map.get(key);
  if (existing !== undefined) return existing;
  const created: V[] = [];
  map.set(key, created);
  return created;
}

function collect(event: StrictEvent, at: number, pending: Pending, index: LogIndex): void {
  switch (event.type) {
    case "test_run":
      listIn(index.runs, event.test_id).push({ at, event });
      return;
    case "snapshot": {
      const paths = pending.snapshots.get(event.claim) ?? new Map<string, ObjectRef>();
      if (!paths.has(event.path)) paths.set(event.path, event.object);
      pending.snapshots.set(event.claim, paths);
      return;
    }
    case "edit_applied":
      for (const claim of new Set(event.claims)) {
        listIn(pending.edits, claim).push({ at, path: event.path, ts: event.ts });
      }
      return;
    case "repair":
      listIn(pending.repairs, event.claim).push(at);
      return;
    case "escalated":
      pending.escalated.add(event.claim);
      return;
    case "verify_result":
      if (event.scope !== "claim" || event.claim === undefined || event.status !== "pass") return;
      if (!pending.greens.has(event.claim)) pending.greens.set(event.claim, { at, event });
      return;
    default:
      return;
  }
}

function indexLog(events: readonly StrictEvent[]): LogIndex {
  const index: LogIndex = { claims: [], runs: new Map() };
  const pending: Pending = {
    snapshots: new Map(),
    edits: new Map(),
    repairs: new Map(),
    escalated: new Set(),
    greens: new Map(),
  };
  const firsts = new Map<string, { at: number; testId: string }>();
  events.forEach((event, at) => {
    if (event.type === "edit_claim" && !firsts.has(event.claim)) {
      firsts.set(event.claim, { at, testId: event.test_id });
    }
    collect(event, at, pending, index);
  });
  for (const [claim, { at, testId }] of firsts) {
    index.claims.push({
      claim,
      testId,
      first: at,
      snapshots: pending.snapshots.get(claim) ?? new Map<string, ObjectRef>(),
      edits: pending.edits.get(claim) ?? [],
      repairs: pending.repairs.get(claim) ?? [],
      escalated: pending.escalated.has(claim),
      green: pending.greens.get(claim),
    });
  }
  return index;
}

/** The latest run of a status strictly between two indexes. */
function latestRun(
  runs: readonly IndexedRun[],
  status: TestRunEvent["status"],
  after: number,
  before: number,
): TestRunEvent | undefined {
  for (let i = runs.length - 1; i >= 0; i -= 1) {
    const run = runs[i];
    if (run === undefined || run.at >= before) continue;
    if (run.at <= after) return undefined;
    if (run.event.status === status) return run.event;
  }
  return undefined;
}

function tripleOf(record: ClaimRecord, runs: readonly IndexedRun[]): RedGreenTriple | undefined {
  if (record.escalated || record.green === undefined) return undefined;
  const greenAt = record.green.at;
  const red = latestRun(runs, "fail", -1, record.first);
  const pass = latestRun(runs, "pass", record.first, greenAt);
  if (red === undefined || pass === undefined) return undefined;
  const after = record.green.event.after ?? {};
  const seen = new Set<string>();
  const edits: RedGreenTriple["edits"] = [];
  for (const edit of record.edits) {
    if (edit.at < record.first || edit.at > greenAt || seen.has(edit.path)) continue;
    seen.add(edit.path);
    edits.push({
      path: edit.path,
      ts: edit.ts,
      before: record.snapshots.get(edit.path) ?? null,
      ...(Object.hasOwn(after, edit.path) ? { after: after[edit.path] ?? null } : {}),
    });
  }
  return {
    test_id: record.testId,
    claim: record.claim,
    red: {
      ts: red.ts,
      ...(red.fail_reason === undefined ? {} : { fail_reason: red.fail_reason }),
      ...(red.message === undefined ? {} : { message: red.message }),
      command: red.command,
      test_file_hash: red.test_file_hash,
    },
    edits,
    green: { ts: pass.ts, command: pass.command, duration_ms: pass.duration_ms },
    repairs: record.repairs.filter((at) => at < greenAt).length,
  };
}

function pairAll(events: readonly StrictEvent[]): {
  index: LogIndex;
  triples: RedGreenTriple[];
} {
  const index = indexLog(events);
  const triples: RedGreenTriple[] = [];
  for (const record of index.claims) {
    const triple = tripleOf(record, index.runs.get(record.testId) ?? []);
    if (triple !== undefined) triples.push(triple);
  }
  return { index, triples };
}

/** Every claim that went red → edits → green, in the order the claims were made. */
export function pairRedGreen(events: readonly StrictEvent[]): RedGreenTriple[] {
  return pairAll(events).triples;
}

/** How the log's claims ended: triples, still open, escalated; and how many repairs it saw. */
export function summarisePairs(events: readonly StrictEvent[]): PairSummary {
  const { index, triples } = pairAll(events);
  const escalated = index.claims.filter((record) => record.escalated).length;
  return {
    triples: triples.length,
    open: index.claims.length - triples.length - escalated,
    escalated,
    repairs: index.claims.reduce((sum, record) => sum + record.repairs.length, 0),
  };
}

/** One JSON line per triple, each ending in a newline ("" for none). */
export function formatTriplesJsonl(triples: readonly RedGreenTriple[]): string {
  return triples.map((triple) => `${JSON.stringify(triple)}\n`).join("");
}
