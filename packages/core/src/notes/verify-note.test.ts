import { describe, expect, it } from "vitest";
import { CLASSIFY_FAILURES, renderVerifyBlock, UNWRITTEN_SNAPSHOT } from "./verify-note.ts";

describe("renderVerifyBlock's next step", () => {
  const cases: Array<[string, string, boolean]> = [
    [
      "MISSING src/a.py: no test at tests/test_a.py",
      "Next: write the missing tests, run them, and make them pass.",
      false,
    ],
    ["FAIL tests/test_a.py::test_x\n  assert 1 == 2", "Next: make the failing tests pass.", true],
    [
      "ERROR tests/test_b.py (could not load)\n  E   ImportError",
      "Next: make the failing tests pass.",
      true,
    ],
    ["TIMEOUT pytest in .", "Next: make the failing tests pass.", true],
    ["ENVIRONMENT pytest: pytest could not start", "Next: make the failing tests pass.", true],
    [
      "FAIL tests/test_a.py::test_x\nMISSING src/b.py: no test at tests/test_b.py",
      "Next: make the failing tests pass and write the missing tests.",
      true,
    ],
  ];
  it.each(cases)("%s", (excerpt, next, classify) => {
    const text = renderVerifyBlock({ excerpt, round: 1, budget: 3 });
    expect(text).toContain(`\n${next}`);
    expect(text.includes(CLASSIFY_FAILURES)).toBe(classify);
    expect(text.endsWith("(round 1 of 3)")).toBe(true);
  });
});

describe("renderVerifyBlock on a snapshot jest did not write (tailtest runs as CI does)", () => {
  const excerpt = [
    "FAIL src/schemas/__tests__/Extra.test.js::normalizes a single entity",
    "  Error: expect(received).toMatchSnapshot()",
    "  New snapshot was not written. The update flag must be explicitly passed to write a new snapshot.",
  ].join("\n");
  it("says how to write it without -u, which would overwrite the failing ones", () => {
    const text = renderVerifyBlock({ excerpt, round: 1, budget: 3 });
    expect(text).toContain(`Next: make the failing tests pass. ${UNWRITTEN_SNAPSHOT}`);
    expect(text).toContain(CLASSIFY_FAILURES);
  });
  it("says nothing of snapshots for another failure", () => {
    const text = renderVerifyBlock({
      excerpt: "FAIL a.test.js::x\n  expected 1",
      round: 1,
      budget: 3,
    });
    expect(text).not.toContain(UNWRITTEN_SNAPSHOT);
  });
});
