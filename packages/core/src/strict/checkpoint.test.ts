import fc from "fast-check";
import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import {
  checkpointOf,
  closedPartOf,
  openIdsOf,
  readCheckpointPart,
  resumeSnapshot,
  snapshotOfCheckpoint,
  snapshotOfEvents,
  StrictCheckpointSchema,
  type StrictSnapshot,
} from "./checkpoint.ts";
import { STRICT_EVENT_VERSION, type StrictEvent, type TestRunEvent } from "./strict-events.ts";
import { decideStrictEdit } from "./strict-gate.ts";
import { deriveStrictState, openClaims, pendingClaims, type StrictState } from "./strict-state.ts";

const TS = "2026-11-23T10:00:00.000Z";
const HASHES = ["a".repeat(64), "b".repeat(64)];
const TESTS = ["tests/test_a.py::test_one", "tests/test_a.py::test_two", "tests/test_b.py::test_x"];
const FILES = ["src/a.py", "src/b.py", "src/c.py"];
const CLAIMS = ["c1", "c2", "c3", "c4"];

function run(testId: string, status: TestRunEvent["status"], hash: string): TestRunEvent {
  const [file = "", name = ""] = testId.split("::");
  return {
    v: STRICT_EVENT_VERSION,
    type: "test_run",
    ts: TS,
    test_id: testId,
    test: { id: testId, file, segments: [name], runner: "pytest", source: "native" },
    status,
    ...(status === "fail" ? { fail_reason: "assertion" as const } : {}),
    command: "python -m pytest",
    duration_ms: 10,
    test_file_hash: hash,
    purpose: "claim",
  };
}

const base = { v: STRICT_EVENT_VERSION, ts: TS } as const;

/** A claim's event as `tailtest claim` writes it. */
function claimed(claim: string, testId: string, target: string): StrictEvent {
  return { ...base, type: "edit_claim", claim, test_id: testId, edit_target: target };
}

/** Every kind of event the reducer reads, over a few tests, files and claim ids. */
const eventArb: fc.Arbitrary<StrictEvent> = fc.oneof(
  fc
    .record({
      test: fc.constantFrom(...TESTS),
      status: fc.constantFrom<TestRunEvent["status"]>("pass", "fail", "not_run"),
      hash: fc.constantFrom(...HASHES),
    })
    .map(({ test, status, hash }) => run(test, status, hash)),
  fc
    .record({
      claim: fc.constantFrom(...CLAIMS),
      test: fc.constantFrom(...TESTS),
      file: fc.constantFrom(...FILES),
    })
    .map(({ claim, test, file }) => ({
      ...base,
      type: "edit_claim" as const,
      claim,
      test_id: test,
      edit_target: file,
    })),
  fc
    .record({ claim: fc.constantFrom(...CLAIMS), file: fc.constantFrom(...FILES) })
    .map(({ claim, file }) => ({
      ...base,
      type: "snapshot" as const,
      claim,
      path: file,
      object: HASHES[0] ?? null,
    })),
  fc
    .record({ claim: fc.constantFrom(...CLAIMS), file: fc.constantFrom(...FILES) })
    .map(({ claim, file }) => ({
      ...base,
      type: "edit_reverted" as const,
      claim,
      path: file,
      restored: null,
      discarded: HASHES[1] ?? null,
    })),
  fc
    .record({ claim: fc.constantFrom(...CLAIMS), attempt: fc.integer({ min: 1, max: 3 }) })
    .map(({ claim, attempt }) => ({
      ...base,
      type: "repair" as const,
      claim,
      test_id: TESTS[0] ?? "",
      attempt,
      reason: "still red",
    })),
  fc.constantFrom(...CLAIMS).map((claim) => ({
    ...base,
    type: "escalated" as const,
    claim,
    test_id: TESTS[0] ?? "",
    attempts: 2,
  })),
  fc
    .record({
      claim: fc.constantFrom(...CLAIMS),
      status: fc.constantFrom<"pass" | "fail">("pass", "fail"),
      scope: fc.constantFrom<"claim" | "refactor">("claim", "refactor"),
    })
    .map(({ claim, status, scope }) => ({
      ...base,
      type: "verify_result" as const,
      scope,
      claim,
      status,
    })),
  fc.constantFrom<"strict" | "refactor">("strict", "refactor").map((mode) => ({
    ...base,
    type: "mode_changed" as const,
    mode,
    by: "config" as const,
  })),
  fc.constantFrom(...FILES).map((path) => ({
    ...base,
    type: "edit_denied" as const,
    path,
    code: "no_claim" as const,
    reason: "no claim",
  })),
);

/** What the hooks read of a state: the mode, the open claims whole, every claim's id and status. */
function liveView(state: StrictState) {
  return {
    mode: state.mode,
    claims: [...state.claims.values()].map((claim) => [claim.claim, claim.status, claim.test_id]),
    open: openClaims(state).map((claim) => ({
      ...claim,
      snapshots: [...claim.snapshots],
      run: state.runs.get(claim.test_id),
    })),
    pending: pendingClaims(state).map((claim) => claim.claim),
  };
}

/** Every decision the gate takes on the state, for each file as production code and as a test. */
function decisions(state: StrictState) {
  const hashes = new Map(TESTS.map((test) => [test.split("::")[0] ?? "", HASHES[0] ?? null]));
  return [...FILES, "tests/test_a.py"].flatMap((relPath) =>
    (["prod", "test"] as const).map((fileClass) =>
      decideStrictEdit(state, { relPath, fileClass, testHashes: hashes }),
    ),
  );
}

/**
 * A snapshot through its checkpoint (as written to disk and read back), then the tail. Its part
 * is read back as written, or (`replayed`) rebuilt from a replay of the head, as the store does
 * when the part cannot be used.
 */
function throughCheckpoint(
  head: readonly StrictEvent[],
  tail: readonly StrictEvent[],
  replayed = false,
) {
  const { checkpoint, part } = checkpointOf(snapshotOfEvents(head), {
    ino: 1,
    bytes: 100,
    head: "0",
    tail: "0",
  });
  const read = z.parse(StrictCheckpointSchema, JSON.parse(JSON.stringify(checkpoint)));
  const openIds = openIdsOf(read) ?? new Set<string>();
  const closedPart = () => {
    if (replayed) return closedPartOf(snapshotOfEvents(head), openIds);
    const back = readCheckpointPart(JSON.stringify(part), read.log, openIds);
    if (back.part === undefined) throw new Error("a part just written did not read back");
    return back.part;
  };
  const restored = snapshotOfCheckpoint(read, closedPart);
  if (restored === undefined) throw new Error("a checkpoint just written did not read back");
  return resumeSnapshot(restored, tail);
}

describe("the strict log's checkpoint", () => {
  it("a checkpoint then the lines after it give what the whole log gives, or say to replay it", () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { maxLength: 40 }),
        fc.nat(),
        fc.boolean(),
        (events, at, replayed) => {
          const split = events.length === 0 ? 0 : at % (events.length + 1);
          const resumed = throughCheckpoint(events.slice(0, split), events.slice(split), replayed);
          const whole = deriveStrictState(events);
          if (resumed === undefined) {
            // Only a claim on a test whose run the checkpoint left out asks for a replay.
            expect(events.slice(split).some((event) => event.type === "edit_claim")).toBe(true);
            return;
          }
          // Decided first, as a gate does: from the open claims, the closed ones not yet built.
          expect(decisions(resumed.state)).toEqual(decisions(whole));
          expect(liveView(resumed.state)).toEqual(liveView(whole));
          expect(decisions(resumed.state)).toEqual(decisions(whole));
          expect(resumed.events).toBe(events.length);
          expect(resumed.modeChanged).toBe(events.some((event) => event.type === "mode_changed"));
          expect([...resumed.runIds].sort()).toEqual(
            [...new Set(events.flatMap((e) => (e.type === "test_run" ? [e.test_id] : [])))].sort(),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("a claim made as `tailtest claim` makes it (its run, then the claim) never needs a replay", () => {
    const head: StrictEvent[] = [
      run(TESTS[0] ?? "", "fail", HASHES[0] ?? ""),
      claimed("c1", TESTS[0] ?? "", "src/a.py"),
      { ...base, type: "verify_result", scope: "claim", claim: "c1", status: "pass" },
    ];
    const tail: StrictEvent[] = [
      run(TESTS[0] ?? "", "fail", HASHES[1] ?? ""),
      claimed("c2", TESTS[0] ?? "", "src/b.py"),
    ];
    const resumed = throughCheckpoint(head, tail);
    expect(resumed).toBeDefined();
    const claim = resumed?.state.claims.get("c2");
    expect(claim?.red?.test_file_hash).toBe(HASHES[1]);
    expect(decisions(resumed?.state ?? deriveStrictState([]))).toEqual(
      decisions(deriveStrictState([...head, ...tail])),
    );
  });

  it("a new claim on a test last run before the checkpoint asks for a replay", () => {
    const head: StrictEvent[] = [run(TESTS[1] ?? "", "fail", HASHES[0] ?? "")];
    const tail: StrictEvent[] = [claimed("c1", TESTS[1] ?? "", "src/a.py")];
    expect(throughCheckpoint(head, tail)).toBeUndefined();
  });

  it("a replay keeps a claim made after a repair dropped its test's pass, and all after it", () => {
    const events: StrictEvent[] = [
      run(TESTS[1] ?? "", "pass", HASHES[0] ?? ""),
      claimed("c1", TESTS[1] ?? "", "src/a.py"),
      { ...base, type: "repair", claim: "c1", test_id: TESTS[1] ?? "", attempt: 1, reason: "x" },
      claimed("c4", TESTS[1] ?? "", "src/b.py"),
      { ...base, type: "mode_changed", mode: "refactor", by: "config" },
    ];
    const snapshot = snapshotOfEvents(events);
    expect(snapshot.events).toBe(events.length);
    expect(snapshot.state.mode).toBe("refactor");
    expect(liveView(snapshot.state)).toEqual(liveView(deriveStrictState(events)));
    expect(openClaims(snapshot.state).map((claim) => claim.claim)).toEqual(["c1", "c4"]);
  });

  it("keeps closed claims in its part, and refuses a part that does not read", () => {
    const events: StrictEvent[] = [
      run(TESTS[0] ?? "", "fail", HASHES[0] ?? ""),
      claimed("c1", TESTS[0] ?? "", "src/a.py"),
      { ...base, type: "escalated", claim: "c1", test_id: TESTS[0] ?? "", attempts: 2 },
      run(TESTS[1] ?? "", "fail", HASHES[0] ?? ""),
      claimed("c2", TESTS[1] ?? "", "src/b.py"),
    ];
    const at = { ino: 1, bytes: 1, head: "0", tail: "0" };
    const { checkpoint, part } = checkpointOf(snapshotOfEvents(events), at);
    expect(part).toEqual({
      version: checkpoint.version,
      log: checkpoint.log,
      closed: [["c1", "escalated", TESTS[0], 1]],
      run_ids: [TESTS[0], TESTS[1]],
    });
    expect(checkpoint.open.map((claim) => claim.claim)).toEqual(["c2"]);
    expect(JSON.stringify(checkpoint)).not.toContain('"c1"');
    const openIds = new Set(["c2"]);
    const text = JSON.stringify(part);
    const back = readCheckpointPart(text, checkpoint.log, openIds);
    expect(back).toEqual({ part: { closed: part.closed, runIds: part.run_ids } });
    const restored = snapshotOfCheckpoint(checkpoint, () => {
      if (back.part === undefined) throw new Error("unread");
      return back.part;
    }) as StrictSnapshot;
    expect([...restored.state.claims.keys()]).toEqual(["c1", "c2"]);
    expect(restored.state.claims.get("c1")?.status).toBe("escalated");

    const variant = (change: Record<string, unknown>) => JSON.stringify({ ...part, ...change });
    const table: Array<[text: string, problem: "stale" | "corrupt"]> = [
      ["", "corrupt"],
      ["{", "corrupt"],
      ["null", "corrupt"],
      ["[]", "corrupt"],
      ["{}", "stale"],
      [variant({ version: 1 }), "stale"],
      [variant({ log: { ...part.log, bytes: 2 } }), "stale"],
      [variant({ log: { ...part.log, events: 4 } }), "stale"],
      [variant({ log: { ...part.log, tail: "1" } }), "stale"],
      [variant({ log: undefined }), "corrupt"],
      [variant({ log: { ...part.log, ino: "1" } }), "corrupt"],
      [variant({ closed: "[]" }), "corrupt"],
      [variant({ closed: [["c1", "open", "t", 1]] }), "corrupt"],
      [variant({ closed: [["c1", "green", "t", -1]] }), "corrupt"],
      [variant({ closed: [["c1", "green", "t", 1.5]] }), "corrupt"],
      [variant({ closed: [["c1", "green", 3, 1]] }), "corrupt"],
      [variant({ closed: [["c1", "green", "t"]] }), "corrupt"],
      [variant({ closed: [1] }), "corrupt"],
      // A claim both closed and open was not written by `checkpointOf`.
      [variant({ closed: [["c2", "green", "t", 1]] }), "corrupt"],
      [variant({ run_ids: [1] }), "corrupt"],
      [variant({ run_ids: "x" }), "corrupt"],
    ];
    for (const [bad, problem] of table)
      expect(readCheckpointPart(bad, checkpoint.log, openIds), bad).toEqual({
        part: undefined,
        problem,
      });
  });

  it("reads its part only when something reads every claim or every tested id", () => {
    const claim = (id: string, test: string, file: string): StrictEvent => ({
      ...base,
      type: "edit_claim",
      claim: id,
      test_id: test,
      edit_target: file,
    });
    const events: StrictEvent[] = [
      run(TESTS[0] ?? "", "fail", HASHES[0] ?? ""),
      claim("c1", TESTS[0] ?? "", "src/a.py"),
      { ...base, type: "verify_result", scope: "claim", claim: "c1", status: "pass" },
      run(TESTS[1] ?? "", "fail", HASHES[0] ?? ""),
      claim("c2", TESTS[1] ?? "", "src/b.py"),
    ];
    const { checkpoint, part } = checkpointOf(snapshotOfEvents(events), {
      ino: 1,
      bytes: 1,
      head: "0",
      tail: "0",
    });
    let reads = 0;
    const closedPart = () => {
      reads += 1;
      return { closed: part.closed, runIds: part.run_ids };
    };
    const snapshot = snapshotOfCheckpoint(checkpoint, closedPart) as StrictSnapshot;
    const { state } = snapshot;
    const built = () => Object.getOwnPropertyDescriptor(state, "claims")?.get === undefined;
    expect(openClaims(state).map((open) => open.claim)).toEqual(["c2"]);
    expect(
      decideStrictEdit(state, { relPath: "src/b.py", fileClass: "prod", testHashes: new Map() }),
    ).toMatchObject({ decision: "deny", code: "test_changed" });
    // Lines a gate appends (refusals) and a run of an open claim's test need no part either.
    const refused = resumeSnapshot(snapshot, [
      { ...base, type: "edit_denied", path: "src/a.py", code: "no_claim", reason: "no claim" },
    ]);
    expect(refused).toBe(snapshot);
    expect(built()).toBe(false);
    expect(reads).toBe(0);
    expect([...state.claims.keys()]).toEqual(["c1", "c2"]);
    expect(built()).toBe(true);
    expect(openClaims(state)[0]).toBe(state.claims.get("c2"));
    expect([...snapshot.runIds]).toEqual([TESTS[0], TESTS[1]]);
    expect(reads).toBe(1);

    // The tested ids alone read it too, once.
    reads = 0;
    const other = snapshotOfCheckpoint(checkpoint, closedPart) as StrictSnapshot;
    expect(other.runIds.has(TESTS[0] ?? "")).toBe(true);
    expect(other.state.claims.size).toBe(2);
    expect(reads).toBe(1);

    // An open claim there twice was not written by `checkpointOf`: the log is replayed.
    const open = checkpoint.open[0];
    expect(open).toBeDefined();
    if (open !== undefined)
      expect(
        snapshotOfCheckpoint({ ...checkpoint, open: [open, open] }, closedPart),
      ).toBeUndefined();
  });
});
