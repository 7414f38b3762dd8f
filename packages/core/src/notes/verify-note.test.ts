import { describe, expect, it } from "vitest";
import { CLASSIFY_FAILURES, renderVerifyBlock } from "./verify-note.ts";

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
