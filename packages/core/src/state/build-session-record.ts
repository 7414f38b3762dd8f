import { listTddCycles } from "../tdd/cycles.ts";
import type { TddEntry } from "../tdd/tdd-log.ts";
import type { StrictEvent } from "../strict/strict-events.ts";
import {
  keyOfSession,
  SESSION_RECORD_CAP,
  strictClaimsOf,
  type SessionRecord,
  type TddCycleRecord,
} from "./session-record.ts";

/**
 * Builds a session's record (session-record.ts) from its session file and events.jsonl. Apart
 * from the schema so that what reads history never loads the TDD cycle reducer.
 */

/** The log key an agent's session id becomes (tdd-store `sanitiseKeyPart`, kept in step). */
function keyPart(sessionId: string): string {
  const clean = sessionId
    .trim()
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .slice(0, 100);
  return /^\.*$/.test(clean) ? clean.replace(/\./g, "_") : clean;
}

export interface SessionRecordInput {
  session: {
    session_id: string;
    mode: SessionRecord["mode"];
    platform?: string | undefined;
    started_at: string;
    ended_at?: string | undefined;
  };
  /** Every agent's TDD entries (only this session's keys are read). */
  tdd: readonly { key: string; entries: readonly TddEntry[] }[];
  /** Every strict event (only this session's are read). */
  strictEvents: readonly StrictEvent[];
}

/** One session's record: its mode and times, and its own cycles and claims, each capped. */
export function buildSessionRecord(input: SessionRecordInput): SessionRecord {
  const { session } = input;
  const id = keyPart(session.session_id);
  const cycles = input.tdd
    .filter(({ key }) => keyOfSession(key, id))
    .flatMap(({ key, entries }) =>
      listTddCycles(entries).map((cycle) => ({ ...cycle, agent: key })),
    )
    .sort((a, b) => cycleTime(a).localeCompare(cycleTime(b)));
  const claims = strictClaimsOf(
    input.strictEvents.filter((event) => keyOfSession(event.session, id)),
  );
  return {
    session_id: session.session_id,
    mode: session.mode,
    ...(session.platform === undefined ? {} : { platform: session.platform }),
    started_at: session.started_at,
    ...(session.ended_at === undefined ? {} : { ended_at: session.ended_at }),
    ...(cycles.length === 0
      ? {}
      : { tdd: { total: cycles.length, cycles: cycles.slice(-SESSION_RECORD_CAP) } }),
    ...(claims.length === 0
      ? {}
      : { strict: { total: claims.length, claims: claims.slice(-SESSION_RECORD_CAP) } }),
  };
}

function cycleTime(cycle: TddCycleRecord): string {
  return cycle.red?.at ?? cycle.green?.at ?? "";
}
