import { describe, expect, it } from "vitest";
import { loosens } from "./gate-strength.ts";

describe("loosens: a mode change that gates less", () => {
  it.each([
    ["strict", "tdd", true],
    ["strict", "follow", true],
    ["tdd", "follow", true],
    ["follow", "tdd", false],
    ["follow", "strict", false],
    ["tdd", "strict", false],
    ["follow", "follow", false],
    ["tdd", "tdd", false],
    ["strict", "strict", false],
  ] as const)("%s → %s: %s", (from, to, expected) => {
    expect(loosens(from, to)).toBe(expected);
  });
});
