import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  collectTestStems,
  addCommits,
  hasNothingToTest,
  hasTestStem,
  MAX_SIZE_POINTS,
  pickTop,
  renderRampUpCut,
  scoreWithoutSize,
  sizePoints,
  testStemOf,
  type RampUpCandidate,
  type UnreadCandidate,
} from "./ramp-up.ts";

describe("testStemOf", () => {
  it.each([
    ["tests/test_billing.py", "billing"],
    ["pkg/billing_test.go", "billing"],
    ["src/billing.test.ts", "billing"],
    ["src/billing.spec.tsx", "billing"],
    ["spec/user_service_spec.rb", "userservice"],
    ["src/test/java/UserServiceTest.java", "userservice"],
    ["Tests/BillingTests.cs", "billing"],
    ["it/CheckoutIT.java", "checkout"],
    ["tests/conftest.py", undefined],
    ["src/billing.py", undefined],
  ])("%s → %s", (path, stem) => {
    expect(testStemOf(path)).toBe(stem);
  });
});

describe("test stems", () => {
  it("match sources by normalized stem within a language family", () => {
    const stems = collectTestStems([
      "tests/test_user_service.py",
      "src/cart.test.ts",
      "spec/api_spec.rb",
    ]);
    expect(hasTestStem(stems, "app/services/user_service.py")).toBe(true);
    expect(hasTestStem(stems, "app/UserService.py")).toBe(true);
    expect(hasTestStem(stems, "src/cart.js")).toBe(true);
    expect(hasTestStem(stems, "src/cart.py")).toBe(false);
    expect(hasTestStem(stems, "lib/api.rb")).toBe(true);
    expect(hasTestStem(stems, "lib/other.rb")).toBe(false);
  });

  it("ties a test in a folder of its own to sources in a folder of that name", () => {
    const stems = collectTestStems(["tests/payments/test_api.py", "web/orders/api.test.ts"]);
    expect(hasTestStem(stems, "src/payments/api.py")).toBe(true);
    expect(hasTestStem(stems, "src/users/api.py")).toBe(false);
    expect(hasTestStem(stems, "web/orders/api.ts")).toBe(true);
    expect(hasTestStem(stems, "web/users/api.ts")).toBe(false);
  });
});

describe("scoring", () => {
  it.each([
    ["app/services/pay.py", 0, 30],
    ["src/x.py", 3, 26],
    ["x.py", 50, 40],
    ["docs/x.py", 0, 0],
  ])("%s with %d commits scores %d before its size", (path, commits, score) => {
    expect(scoreWithoutSize(path, commits)).toBe(score);
  });

  it.each([
    [10, -20],
    [50, 0],
    [80, 30],
    [800, 30],
    [1000, 10],
    [5000, 0],
  ])("%d lines → %d", (lines, points) => {
    expect(sizePoints(lines)).toBe(points);
  });

  it("hands git's lines to the counts a line at a time, trimmed", () => {
    const lines: string[] = [];
    const counts = { addCommit: (path: string) => lines.push(path) };
    addCommits("a.py\nb.py\n\n  a.py\n", counts);
    addCommits("c.py\nb.py", counts);
    expect(lines).toEqual(["a.py", "b.py", "", "a.py", "c.py", "b.py"]);
  });

  it.each<[string, string, Parameters<typeof hasNothingToTest>[1], boolean]>([
    [
      "a package __init__.py with no def or class",
      "src/shop/api/__init__.py",
      { language: "python", defs: [] },
      true,
    ],
    [
      "a package __init__.py with a function",
      "src/shop/__init__.py",
      { language: "python", defs: ["setup"] },
      false,
    ],
    [
      "a module with no def or class (it may hold logic)",
      "src/settings.py",
      { language: "python", defs: [] },
      false,
    ],
    ["a JS/TS barrel", "src/lib/index.ts", { language: "javascript", facade: true }, true],
    [
      "a JS/TS module with code",
      "src/lib/money.ts",
      { language: "javascript", facade: false },
      false,
    ],
  ])("%s: nothing to test is %s", (_name, path, shape, expected) => {
    expect(hasNothingToTest(path, shape)).toBe(expected);
  });
});

/** Scores every file and sorts: what `pickTop` must equal, reading less. */
function rankAll(
  candidates: readonly UnreadCandidate[],
  limit: number,
  points: ReadonlyMap<string, number | undefined>,
): RampUpCandidate[] {
  return candidates
    .flatMap((candidate) => {
      const size = points.get(candidate.path);
      return size === undefined ? [] : [{ path: candidate.path, score: candidate.partial + size }];
    })
    .filter((candidate) => candidate.score > 0)
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1))
    .slice(0, limit);
}

describe("pickTop", () => {
  it("picks the top scores above 0, ties by path, and reads no file that cannot make it", () => {
    const points = new Map<string, number | undefined>([
      ["d", 30],
      ["b", 0],
      ["a", 0],
      ["barrel", undefined],
      ["c", -20],
      ["e", 30],
    ]);
    const read: string[] = [];
    const picked = pickTop(
      [
        { path: "b", partial: 10 },
        { path: "a", partial: 10 },
        { path: "barrel", partial: 60 },
        { path: "c", partial: 20 },
        { path: "d", partial: 10 },
        { path: "e", partial: -40 },
      ],
      2,
      (path) => {
        read.push(path);
        return points.get(path);
      },
    );
    expect(picked).toEqual({
      top: [
        { path: "d", score: 40 },
        { path: "a", score: 10 },
      ],
      read: 5,
      complete: true,
    });
    // e could reach -10 at best: never read.
    expect(read).toEqual(["barrel", "c", "a", "b", "d"]);
  });

  it("equals scoring every file and sorting, for any scores", () => {
    const candidate = fc.record({
      path: fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h"),
      partial: fc.integer({ min: -40, max: 70 }),
      size: fc.option(fc.integer({ min: -20, max: MAX_SIZE_POINTS }), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(candidate, { selector: (entry) => entry.path, maxLength: 8 }),
        fc.integer({ min: 0, max: 5 }),
        (entries, limit) => {
          const points = new Map<string, number | undefined>(
            entries.map((entry) => [entry.path, entry.size]),
          );
          const picked = pickTop(entries, limit, (path) => points.get(path));
          expect(picked.top).toEqual(rankAll(entries, limit, points));
          expect(picked.read).toBeLessThanOrEqual(entries.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("stops when its budget runs out and says how many files it read", () => {
    let checks = 0;
    const picked = pickTop(
      ["a", "b", "c", "d"].map((path) => ({ path, partial: 20 })),
      3,
      () => 30,
      { expired: () => (checks += 1) > 2 },
    );
    expect(picked).toEqual({
      top: [
        { path: "a", score: 50 },
        { path: "b", score: 50 },
      ],
      read: 2,
      complete: false,
    });
  });
});

describe("renderRampUpCut", () => {
  it.each<[Parameters<typeof renderRampUpCut>[1], string]>([
    [{ stage: "listing", found: 40 }, "while listing the project's files (40 found so far)"],
    [{ stage: "reading", done: 3, total: 9 }, "after reading 3 of 9 untested source files"],
  ])("%j", (progress, where) => {
    expect(renderRampUpCut(500, progress)).toBe(
      `tailtest: first-session coverage scan stopped at its time box (500 ms) ${where}; nothing was queued, and it runs again next session.`,
    );
  });
});
