import * as z from "zod/mini";
import { lazy } from "../util/lazy.ts";
import { ModeSchema } from "../config/config.ts";
import type { StrictEvent } from "../strict/strict-events.ts";

/**
 * What a session was, beside the per-file outcomes history keeps for follow mode: its mode, when
 * it ran, and for the gating modes what they measured: tdd mode's cycles (Red → Green → Refactor,
 * with times and skip-red reasons) and strict mode's claims (verified, reverted, escalated).
 * Pure (build-session-record.ts builds one): from the session file and the session's own lines of `.tailtest/events.jsonl`,
 * whose times it keeps, so recording a session again never re-stamps it.
 */

/** Why a Green was logged without a failing test first (tdd/tdd-log.ts re-exports it). */
export const SkipRedReasonSchema = lazy(() =>
  z.enum(["refactoring", "lint-only", "adding-coverage"]),
);
export type SkipRedReason = z.infer<typeof SkipRedReasonSchema>;

/** One TDD cycle (tdd/cycles.ts `listTddCycles`), as the report and the session records keep it. */
export const TddCycleSchema = lazy(() =>
  z.object({
    red: z.optional(z.object({ test: z.string(), expects: z.string(), at: z.string() })),
    /** The failing run that moved the cycle to `red`. */
    red_confirmed_at: z.optional(z.string()),
    green: z.optional(
      z.object({
        change: z.string(),
        files: z.array(z.string()),
        at: z.string(),
        skip_red: z.optional(SkipRedReasonSchema),
      }),
    ),
    /** The passing run that closed it. */
    completed_at: z.optional(z.string()),
    /** `replaced`: a new declaration (or the end of a subagent's log) came before it closed. */
    outcome: z.enum(["complete", "open", "replaced"]),
  }),
);
export type TddCycle = z.infer<typeof TddCycleSchema>;

/** At most this many cycles and claims are kept per session (the newest); `total` says how many. */
export const SESSION_RECORD_CAP = 50;

export const TddCycleRecordSchema = lazy(() =>
  z.extend(TddCycleSchema, {
    /** The agent's log key: the session's own, or `<session>.<subagent>`. */
    agent: z.string(),
  }),
);
export type TddCycleRecord = z.infer<typeof TddCycleRecordSchema>;

/**
 * A strict claim's end: `verified` (its test went green at a turn's end), `escalated` (it failed
 * `max_attempts` verifications: reverted and handed to the person), `reverted` (its last
 * verification failed and its edits were put back; the claim stands for another try), `open`
 * (not verified yet).
 */
export const ClaimOutcomeSchema = lazy(() => z.enum(["verified", "reverted", "escalated", "open"]));
export type ClaimOutcome = z.infer<typeof ClaimOutcomeSchema>;

export const StrictClaimRecordSchema = lazy(() =>
  z.object({
    claim: z.string(),
    test_id: z.string(),
    /** The files the claim let the agent edit. */
    targets: z.array(z.string()),
    claimed_at: z.string(),
    outcome: ClaimOutcomeSchema,
    /** When it was verified, escalated or last reverted. */
    settled_at: z.optional(z.string()),
    /** Failed verifications (each put its edits back). */
    reverts: z.number().check(z.int(), z.minimum(0)),
    /** The last failed verification's reason, one line. */
    reason: z.optional(z.string()),
  }),
);
export type StrictClaimRecord = z.infer<typeof StrictClaimRecordSchema>;

export const SessionRecordSchema = lazy(() =>
  z.object({
    session_id: z.string().check(z.minLength(1)),
    mode: ModeSchema,
    platform: z.optional(z.string()),
    started_at: z.string(),
    ended_at: z.optional(z.string()),
    tdd: z.optional(
      z.object({
        total: z.number().check(z.int(), z.minimum(0)),
        cycles: z.array(TddCycleRecordSchema),
      }),
    ),
    strict: z.optional(
      z.object({
        total: z.number().check(z.int(), z.minimum(0)),
        claims: z.array(StrictClaimRecordSchema),
      }),
    ),
  }),
);
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

/** A log key (tdd's agent key, strict's `session`) of this session: its id, or `<id>.<agent>`. */
export function keyOfSession(key: string | undefined, sessionId: string): boolean {
  return key !== undefined && (key === sessionId || key.startsWith(`${sessionId}.`));
}

/** Each claim group's record, from the strict events of one session, in claim order. */
export function strictClaimsOf(events: readonly StrictEvent[]): StrictClaimRecord[] {
  const claims = new Map<string, StrictClaimRecord>();
  for (const event of events) {
    if (event.type === "edit_claim") {
      const found = claims.get(event.claim);
      if (found === undefined)
        claims.set(event.claim, {
          claim: event.claim,
          test_id: event.test_id,
          targets: [event.edit_target],
          claimed_at: event.ts,
          outcome: "open",
          reverts: 0,
        });
      else if (!found.targets.includes(event.edit_target)) found.targets.push(event.edit_target);
      continue;
    }
    const claim =
      event.type === "verify_result" || event.type === "escalated" ? event.claim : undefined;
    const found = claim === undefined ? undefined : claims.get(claim);
    if (found === undefined || found.outcome === "escalated" || found.outcome === "verified")
      continue;
    if (event.type === "escalated") {
      found.outcome = "escalated";
      found.settled_at = event.ts;
    } else if (event.type === "verify_result" && event.status === "pass") {
      found.outcome = "verified";
      found.settled_at = event.ts;
    } else if (event.type === "verify_result") {
      found.outcome = "reverted";
      found.settled_at = event.ts;
      found.reverts += 1;
      if (event.reason !== undefined) found.reason = event.reason;
    }
  }
  return [...claims.values()];
}

/** How a session's TDD cycles ended, and how many skipped the Red (with a reason). */
export function countCycles(record: Pick<SessionRecord, "tdd">): {
  complete: number;
  open: number;
  replaced: number;
  skip_red: number;
} {
  const cycles = record.tdd?.cycles ?? [];
  const by = (outcome: TddCycleRecord["outcome"]) =>
    cycles.filter((cycle) => cycle.outcome === outcome).length;
  return {
    complete: by("complete"),
    open: by("open"),
    replaced: by("replaced"),
    skip_red: cycles.filter((cycle) => cycle.green?.skip_red !== undefined).length,
  };
}

/** How a session's strict claims ended. */
export function countClaims(record: Pick<SessionRecord, "strict">): Record<ClaimOutcome, number> {
  const claims = record.strict?.claims ?? [];
  const by = (outcome: ClaimOutcome) => claims.filter((claim) => claim.outcome === outcome).length;
  return {
    verified: by("verified"),
    reverted: by("reverted"),
    escalated: by("escalated"),
    open: by("open"),
  };
}

/** A record worth keeping: a session with file outcomes, TDD cycles or strict claims. */
export function isWorthRecording(record: SessionRecord, outcomes: number): boolean {
  return outcomes > 0 || record.tdd !== undefined || record.strict !== undefined;
}
