import { describe, expect, it } from "vitest";
import {
  collectTestStems,
  countCommits,
  hasTestStem,
  pickTop,
  renderRampUpCut,
  scoreWithoutSize,
  sizePoints,
  testStemOf,
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

  it("counts commits per path and picks the top scores above 0, ties by path", () => {
    expect(countCommits("a.py\nb.py\n\na.py\n")).toEqual(
      new Map([
        ["a.py", 2],
        ["b.py", 1],
      ]),
    );
    expect(
      pickTop(
        [
          { path: "b", score: 10 },
          { path: "a", score: 10 },
          { path: "c", score: 0 },
          { path: "d", score: 40 },
        ],
        2,
      ),
    ).toEqual([
      { path: "d", score: 40 },
      { path: "a", score: 10 },
    ]);
  });

  it("says a cut scan runs again", () => {
    expect(renderRampUpCut(500, 3, 9)).toBe(
      "tailtest: first-session coverage scan stopped at its time box (500 ms) after 3 of 9 files; nothing was queued, and it runs again next session.",
    );
  });
});
