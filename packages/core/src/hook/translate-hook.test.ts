import { describe, expect, it } from "vitest";
import { nonEmptyString } from "./translate-hook.ts";

describe("nonEmptyString", () => {
  it.each<[unknown, string | undefined]>([
    ["x", "x"],
    [" ", " "],
    ["", undefined],
    [undefined, undefined],
    [null, undefined],
    [0, undefined],
    [["x"], undefined],
  ])("%j → %j", (value, expected) => {
    expect(nonEmptyString(value)).toBe(expected);
  });
});
