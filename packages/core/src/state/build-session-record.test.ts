import { describe, expect, it } from "vitest";
import { buildSessionRecord } from "./build-session-record.ts";
import { countClaims, countCycles, strictClaimsOf } from "./session-record.ts";
import type { StrictEvent } from "../strict/strict-events.ts";
import type { TddEntry } from "../tdd/tdd-log.ts";

const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`;

/** A Red, its failing run, a Green, its passing run; then a skip-red Green left open. */
const TDD: TddEntry[] = [
  { kind: "red", test: "tests/test_a.py", expects: "add returns the sum", at: at(1) },
  { kind: "test", command: "pytest tests/test_a.py", outcome: "failed", at: at(2) },
  { kind: "green", change: "implement add", files: ["src/a.py"], at: at(3) },
  { kind: "test", command: "pytest tests/test_a.py", outcome: "passed", at: at(4) },
  {
    kind: "green",
    change: "rename a helper",
    files: ["src/a.py"],
    at: at(5),
    skip_red: { reason: "refactoring" },
  },
];

const test = { id: "tests/test_b.py::test_b", file: "tests/test_b.py", segments: ["test_b"] };
const base = (minute: number, session = "s-strict") => ({ v: 1, ts: at(minute), session }) as const;

/** Three claims: one verified, one reverted once and then escalated, one reverted and open. */
const STRICT: StrictEvent[] = [
  { ...base(1), type: "edit_claim", claim: "c1", test_id: test.id, edit_target: "src/b.py" },
  { ...base(2), type: "verify_result", scope: "claim", claim: "c1", status: "pass" },
  { ...base(3), type: "edit_claim", claim: "c2", test_id: test.id, edit_target: "src/c.py" },
  { ...base(3), type: "edit_claim", claim: "c2", test_id: test.id, edit_target: "src/d.py" },
  {
    ...base(4),
    type: "verify_result",
    scope: "claim",
    claim: "c2",
    status: "fail",
    reason: "it still fails: expected 3",
  },
  { ...base(5), type: "escalated", claim: "c2", test_id: test.id, attempts: 2 },
  { ...base(6), type: "edit_claim", claim: "c3", test_id: test.id, edit_target: "src/e.py" },
  {
    ...base(7),
    type: "verify_result",
    scope: "claim",
    claim: "c3",
    status: "fail",
    reason: "it was not run",
  },
  // Another session's claim: not this one's.
  {
    ...base(8, "s-other"),
    type: "edit_claim",
    claim: "c9",
    test_id: test.id,
    edit_target: "src/z.py",
  },
];

describe("strictClaimsOf", () => {
  it("ends each claim verified, escalated, reverted or open, with its targets and reverts", () => {
    const claims = strictClaimsOf(STRICT.filter((event) => event.session === "s-strict"));
    expect(
      claims.map(({ claim, outcome, targets, reverts, settled_at, reason }) => ({
        claim,
        outcome,
        targets,
        reverts,
        settled_at,
        reason,
      })),
    ).toEqual([
      {
        claim: "c1",
        outcome: "verified",
        targets: ["src/b.py"],
        reverts: 0,
        settled_at: at(2),
        reason: undefined,
      },
      {
        claim: "c2",
        outcome: "escalated",
        targets: ["src/c.py", "src/d.py"],
        reverts: 1,
        settled_at: at(5),
        reason: "it still fails: expected 3",
      },
      {
        claim: "c3",
        outcome: "reverted",
        targets: ["src/e.py"],
        reverts: 1,
        settled_at: at(7),
        reason: "it was not run",
      },
    ]);
    expect(countClaims({ strict: { total: 3, claims } })).toEqual({
      verified: 1,
      reverted: 1,
      escalated: 1,
      open: 0,
    });
  });
});

describe("buildSessionRecord", () => {
  it("keeps a tdd session's own cycles (its subagents' too) with their times", () => {
    const record = buildSessionRecord({
      session: { session_id: "s-tdd", mode: "tdd", started_at: at(0), ended_at: at(9) },
      tdd: [
        { key: "s-tdd", entries: TDD },
        { key: "s-tdd.helper", entries: TDD.slice(0, 2) },
        { key: "s-tddx", entries: TDD },
      ],
      strictEvents: STRICT,
    });
    expect(record.strict).toBeUndefined();
    expect(record.tdd?.cycles.map((cycle) => [cycle.agent, cycle.outcome])).toEqual([
      ["s-tdd", "complete"],
      ["s-tdd.helper", "open"],
      ["s-tdd", "open"],
    ]);
    expect(record.tdd?.cycles[0]).toEqual({
      agent: "s-tdd",
      red: { test: "tests/test_a.py", expects: "add returns the sum", at: at(1) },
      red_confirmed_at: at(2),
      green: { change: "implement add", files: ["src/a.py"], at: at(3) },
      completed_at: at(4),
      outcome: "complete",
    });
    expect(countCycles(record)).toEqual({ complete: 1, open: 2, replaced: 0, skip_red: 1 });
    expect(record).toMatchObject({ session_id: "s-tdd", mode: "tdd", ended_at: at(9) });
  });

  it("keeps a strict session's claims and nothing of another session's", () => {
    const record = buildSessionRecord({
      session: { session_id: "s-strict", mode: "strict", started_at: at(0) },
      tdd: [{ key: "s-tdd", entries: TDD }],
      strictEvents: STRICT,
    });
    expect(record.tdd).toBeUndefined();
    expect(record.strict?.claims.map((claim) => claim.claim)).toEqual(["c1", "c2", "c3"]);
    expect(record.strict?.total).toBe(3);
  });
});
