import { describe, expect, it } from "vitest";
import { HANG_FACTOR, HANG_FLOOR_MS, hangBound, hangDumpAfterS, hangReason } from "./hang-bound.ts";

const took = (times: Record<string, number>) => (file: string) => times[file];

describe("a run's bound from its test files' earlier times", () => {
  it("is ten times what they took together, at least the floor, below the timeout", () => {
    const earlier = took({ "tests/a.py": 4_000, "tests/b.py": 5_000 });
    expect(hangBound(["tests/a.py", "tests/b.py"], earlier, 300_000)).toEqual({
      afterMs: 9_000 * HANG_FACTOR,
      tookMs: 9_000,
    });
    expect(hangBound(["tests/a.py"], earlier, 300_000)).toEqual({
      afterMs: HANG_FLOOR_MS,
      tookMs: 4_000,
    });
    expect(hangBound(["tests/a.py"], earlier, 300_000, 2_000)).toEqual({
      afterMs: 40_000,
      tookMs: 4_000,
    });
  });

  it("is none for a file no earlier run timed, a whole suite, or a bound past the timeout", () => {
    const earlier = took({ "tests/a.py": 40_000 });
    expect(hangBound(["tests/a.py", "tests/new.py"], earlier, 300_000)).toBeUndefined();
    expect(hangBound([], earlier, 300_000)).toBeUndefined();
    expect(hangBound(["tests/a.py"], earlier, 300_000)).toBeUndefined();
    expect(hangBound(["tests/a.py"], took({ "tests/a.py": 10 }), 30_000)).toBeUndefined();
  });

  it("says what stopped the run and what the files took", () => {
    expect(hangReason({ afterMs: 60_000, tookMs: 480 })).toBe(
      "after 60 s, over 10× what its test files took in earlier runs (0.5 s)",
    );
  });

  it("asks for the hang dump five seconds before the stop, or half-way when that is sooner", () => {
    expect(hangDumpAfterS(300_000)).toBe(295);
    expect(hangDumpAfterS(60_000)).toBe(55);
    expect(hangDumpAfterS(10_000)).toBe(5);
    // A short bound (a fast file's 10×) still leaves the dump time to print before the stop.
    expect(hangDumpAfterS(4_000)).toBe(2);
    expect(hangDumpAfterS(3_300)).toBe(1.7);
  });
});
