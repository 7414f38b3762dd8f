import { describe, expect, it } from "vitest";
import {
  STRICT_EVENT_VERSION,
  StrictEventSchema,
  type StrictEvent,
  type StrictEventInput,
} from "./strict-events.ts";
import {
  RedGreenTripleSchema,
  formatTriplesJsonl,
  pairRedGreen,
  summarisePairs,
  type PairSummary,
  type RedGreenTriple,
} from "./pairs.ts";

// A small log builder: each event gets the next second as its time and is checked against the
// schema, so the tests only ever feed the reducer events a writer could have written.

const A = "tests/test_calc.py::TestCalc::test_add";
const B = "src/math.test.ts::math > adds";
const H1 = "1".repeat(64);
const H2 = "2".repeat(64);
const H3 = "3".repeat(64);
const H4 = "4".repeat(64);

type Draft = StrictEventInput extends infer E
  ? E extends StrictEventInput
    ? Omit<E, "ts">
    : never
  : never;

function log(...drafts: Draft[]): StrictEvent[] {
  return drafts.map((draft, i) =>
    StrictEventSchema.parse({
      v: STRICT_EVENT_VERSION,
      ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      ...draft,
    }),
  );
}

/** The time log() gives the event at that index. */
function ts(index: number): string {
  return new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString();
}

function run(
  testId: string,
  status: "pass" | "fail" | "not_run",
  extra: { purpose?: "claim" | "verify" | "run"; hash?: string | null; message?: string } = {},
): Draft {
  const [file = testId, ...segments] = testId.split("::");
  return {
    type: "test_run",
    test_id: testId,
    test: { id: testId, file, segments, source: "native" },
    status,
    ...(status === "fail" ? { fail_reason: "assertion" as const } : {}),
    ...(extra.message === undefined ? {} : { message: extra.message }),
    command: `run ${testId} (${status})`,
    duration_ms: status === "pass" ? 120 : 80,
    test_file_hash: extra.hash === undefined ? H1 : extra.hash,
    purpose: extra.purpose ?? (status === "pass" ? "verify" : "claim"),
  };
}

function claim(id: string, testId: string, target: string): Draft {
  return { type: "edit_claim", claim: id, test_id: testId, edit_target: target };
}

function snapshot(id: string, path: string, object: string | null): Draft {
  return { type: "snapshot", claim: id, path, object };
}

function applied(path: string, claims: string[], object?: string): Draft {
  return { type: "edit_applied", path, claims, ...(object === undefined ? {} : { object }) };
}

function verified(
  id: string,
  status: "pass" | "fail",
  after?: Record<string, string | null>,
): Draft {
  return {
    type: "verify_result",
    scope: "claim",
    claim: id,
    status,
    ...(after === undefined ? {} : { after }),
  };
}

function repair(id: string, testId: string, attempt: number): Draft {
  return { type: "repair", claim: id, test_id: testId, attempt, reason: "still failing" };
}

function escalated(id: string, testId: string): Draft {
  return { type: "escalated", claim: id, test_id: testId, attempts: 2 };
}

function redOf(index: number, testId: string = A): RedGreenTriple["red"] {
  return {
    ts: ts(index),
    fail_reason: "assertion",
    command: `run ${testId} (fail)`,
    test_file_hash: H1,
  };
}

function greenOf(index: number, testId: string = A): RedGreenTriple["green"] {
  return { ts: ts(index), command: `run ${testId} (pass)`, duration_ms: 120 };
}

interface Case {
  name: string;
  events: StrictEvent[];
  triples: RedGreenTriple[];
  summary: PairSummary;
}

const CASES: Case[] = [
  {
    name: "a simple triple",
    events: log(
      run(A, "fail", { message: "assert 1 == 2" }), // 0
      claim("c1", A, "calc.py"), // 1
      snapshot("c1", "calc.py", H2), // 2
      applied("calc.py", ["c1"], H3), // 3
      run(A, "pass"), // 4
      verified("c1", "pass", { "calc.py": H3 }), // 5
    ),
    triples: [
      {
        test_id: A,
        claim: "c1",
        red: { ...redOf(0), message: "assert 1 == 2" },
        edits: [{ path: "calc.py", ts: ts(3), before: H2, after: H3 }],
        green: greenOf(4),
        repairs: 0,
      },
    ],
    summary: { triples: 1, open: 0, escalated: 0, repairs: 0 },
  },
  {
    name: "two claims interleaved",
    events: log(
      run(A, "fail"), // 0
      run(B, "fail"), // 1
      claim("ca", A, "calc.py"), // 2
      claim("cb", B, "src/math.ts"), // 3
      snapshot("cb", "src/math.ts", null), // 4
      applied("src/math.ts", ["cb"]), // 5
      snapshot("ca", "calc.py", H2), // 6
      applied("calc.py", ["ca"]), // 7
      run(B, "pass"), // 8
      run(A, "pass"), // 9
      verified("ca", "pass", { "calc.py": H3 }), // 10
      verified("cb", "pass", { "src/math.ts": H4 }), // 11
    ),
    triples: [
      {
        test_id: A,
        claim: "ca",
        red: redOf(0),
        edits: [{ path: "calc.py", ts: ts(7), before: H2, after: H3 }],
        green: greenOf(9),
        repairs: 0,
      },
      {
        test_id: B,
        claim: "cb",
        red: redOf(1, B),
        edits: [{ path: "src/math.ts", ts: ts(5), before: null, after: H4 }],
        green: greenOf(8, B),
        repairs: 0,
      },
    ],
    summary: { triples: 2, open: 0, escalated: 0, repairs: 0 },
  },
  {
    name: "a repair, then a green",
    events: log(
      run(A, "fail"), // 0
      claim("c1", A, "calc.py"), // 1
      snapshot("c1", "calc.py", H2), // 2
      applied("calc.py", ["c1"]), // 3
      run(A, "fail", { purpose: "verify" }), // 4
      verified("c1", "fail"), // 5
      { type: "edit_reverted", claim: "c1", path: "calc.py", restored: H2, discarded: H3 }, // 6
      repair("c1", A, 1), // 7
      applied("calc.py", ["c1"]), // 8
      run(A, "pass"), // 9
      verified("c1", "pass", { "calc.py": H4 }), // 10
      repair("c1", A, 2), // 11: after the green, not counted in the triple
    ),
    triples: [
      {
        test_id: A,
        claim: "c1",
        red: redOf(0),
        edits: [{ path: "calc.py", ts: ts(3), before: H2, after: H4 }],
        green: greenOf(9),
        repairs: 1,
      },
    ],
    summary: { triples: 1, open: 0, escalated: 0, repairs: 2 },
  },
  {
    name: "an escalated claim is no triple",
    events: log(
      run(A, "fail"), // 0
      claim("c1", A, "calc.py"), // 1
      applied("calc.py", ["c1"]), // 2
      verified("c1", "fail"), // 3
      repair("c1", A, 1), // 4
      applied("calc.py", ["c1"]), // 5
      verified("c1", "fail"), // 6
      escalated("c1", A), // 7
      run(A, "pass"), // 8: the person fixed it by hand
      verified("c1", "pass"), // 9
    ),
    triples: [],
    summary: { triples: 0, open: 0, escalated: 1, repairs: 1 },
  },
  {
    name: "a red after the claim is ignored",
    events: log(
      run(A, "pass"), // 0
      claim("c1", A, "calc.py"), // 1
      run(A, "fail"), // 2
      applied("calc.py", ["c1"]), // 3
      run(A, "pass"), // 4
      verified("c1", "pass"), // 5
    ),
    triples: [],
    summary: { triples: 0, open: 1, escalated: 0, repairs: 0 },
  },
  {
    name: "the latest red before the claim, not an earlier one or another test's",
    events: log(
      run(A, "fail", { hash: H2 }), // 0
      run(A, "fail", { message: "second" }), // 1
      run(B, "fail", { hash: H3 }), // 2
      claim("c1", A, "calc.py"), // 3
      applied("calc.py", ["c1"]), // 4
      run(A, "pass"), // 5
      verified("c1", "pass"), // 6
    ),
    triples: [
      {
        test_id: A,
        claim: "c1",
        red: { ...redOf(1), message: "second" },
        edits: [{ path: "calc.py", ts: ts(4), before: null }],
        green: greenOf(5),
        repairs: 0,
      },
    ],
    summary: { triples: 1, open: 0, escalated: 0, repairs: 0 },
  },
  {
    name: "several files in one claim group, one entry per path",
    events: log(
      run(A, "fail", { hash: null }), // 0: the test file did not exist yet
      claim("c1", A, "calc.py"), // 1
      claim("c1", A, "ops.py"), // 2
      snapshot("c1", "calc.py", H2), // 3
      applied("calc.py", ["c1"]), // 4
      snapshot("c1", "ops.py", null), // 5
      applied("ops.py", ["c1"]), // 6
      applied("calc.py", ["c1"]), // 7: second edit of calc.py keeps the first time
      snapshot("c1", "calc.py", H4), // 8: a later snapshot is not "before"
      applied("util.py", ["c2", "c1"]), // 9: shared with another claim, no snapshot
      run(A, "pass"), // 10
      verified("c1", "pass", { "calc.py": H3, "ops.py": null }), // 11
      applied("late.py", ["c1"]), // 12: after the green
    ),
    triples: [
      {
        test_id: A,
        claim: "c1",
        red: { ...redOf(0), test_file_hash: null },
        edits: [
          { path: "calc.py", ts: ts(4), before: H2, after: H3 },
          { path: "ops.py", ts: ts(6), before: null, after: null },
          { path: "util.py", ts: ts(9), before: null },
        ],
        green: greenOf(10),
        repairs: 0,
      },
    ],
    summary: { triples: 1, open: 0, escalated: 0, repairs: 0 },
  },
  {
    name: "a claim never verified",
    events: log(
      run(A, "fail"), // 0
      claim("c1", A, "calc.py"), // 1
      applied("calc.py", ["c1"]), // 2
      run(A, "pass"), // 3
      { type: "verify_result", scope: "refactor", status: "pass" }, // 4: not the claim's
      verified("c2", "pass"), // 5: another claim's
    ),
    triples: [],
    summary: { triples: 0, open: 1, escalated: 0, repairs: 0 },
  },
  {
    name: "a verified claim with no passing run since the claim",
    events: log(
      run(A, "pass"), // 0
      run(A, "fail"), // 1
      claim("c1", A, "calc.py"), // 2
      applied("calc.py", ["c1"]), // 3
      run(A, "not_run"), // 4
      verified("c1", "pass"), // 5
    ),
    triples: [],
    summary: { triples: 0, open: 1, escalated: 0, repairs: 0 },
  },
  {
    name: "the green is the first passing verification",
    events: log(
      run(A, "fail"), // 0
      claim("c1", A, "calc.py"), // 1
      applied("calc.py", ["c1"]), // 2
      run(A, "pass"), // 3
      verified("c1", "pass", { "calc.py": H3 }), // 4
      applied("calc.py", ["c1"]), // 5
      run(A, "pass"), // 6
      verified("c1", "pass", { "calc.py": H4 }), // 7
    ),
    triples: [
      {
        test_id: A,
        claim: "c1",
        red: redOf(0),
        edits: [{ path: "calc.py", ts: ts(2), before: null, after: H3 }],
        green: greenOf(3),
        repairs: 0,
      },
    ],
    summary: { triples: 1, open: 0, escalated: 0, repairs: 0 },
  },
  {
    name: "an empty log",
    events: [],
    triples: [],
    summary: { triples: 0, open: 0, escalated: 0, repairs: 0 },
  },
];

describe("pairRedGreen", () => {
  it.each(CASES)("$name", ({ events, triples }) => {
    const paired = pairRedGreen(events);
    expect(paired).toEqual(triples);
    for (const triple of paired) {
      // Valid, and already in the schema's key order (parsing would reorder otherwise).
      const parsed = RedGreenTripleSchema.parse(triple);
      expect(JSON.stringify(parsed)).toBe(JSON.stringify(triple));
    }
  });

  it("leaves out an absent after, and keeps a stable key order", () => {
    const [triple] = pairRedGreen(CASES[5]?.events ?? []);
    expect(triple === undefined ? [] : Object.keys(triple)).toEqual([
      "test_id",
      "claim",
      "red",
      "edits",
      "green",
      "repairs",
    ]);
    expect(triple?.edits[0]).not.toHaveProperty("after");
  });
});

describe("summarisePairs", () => {
  it.each(CASES)("$name", ({ events, summary }) => {
    expect(summarisePairs(events)).toEqual(summary);
  });
});

describe("formatTriplesJsonl", () => {
  it("writes one line per triple, each ending in a newline", () => {
    const triples = pairRedGreen(CASES[1]?.events ?? []);
    const text = formatTriplesJsonl(triples);
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => RedGreenTripleSchema.parse(JSON.parse(line)))).toEqual(triples);
  });

  it("writes nothing for no triples", () => {
    expect(formatTriplesJsonl([])).toBe("");
  });
});
