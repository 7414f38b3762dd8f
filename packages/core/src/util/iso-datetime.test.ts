import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { isIsoDateTime, isoDateTime, isoString } from "./iso-datetime.ts";

const zodPattern = z.iso.datetime()._zod.def.pattern as RegExp;

const digit = fc.constantFrom(..."0123456789");
const garbage = fc.string({ maxLength: 3 });
/** Mostly `valid`, now and then something else: most generated strings are near a datetime. */
const mostly = (valid: fc.Arbitrary<string>) =>
  fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: garbage, weight: 1 });
const twoDigits = (max: number) =>
  mostly(fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, "0")));
/** Strings shaped like a datetime, a part now and then wrong (a bad digit, separator, length). */
const shaped = fc
  .tuple(
    mostly(
      fc.oneof(
        fc.constantFrom("2024", "2023", "2000", "1900", "2100", "2400", "0000", "0004", "1996"),
        fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, "0")),
        fc.array(digit, { minLength: 3, maxLength: 5 }).map((d) => d.join("")),
      ),
    ),
    mostly(fc.constant("-")),
    twoDigits(13),
    mostly(fc.constant("-")),
    twoDigits(32),
    mostly(fc.constantFrom("T", "T", "T", "t", " ")),
    twoDigits(25),
    mostly(fc.constant(":")),
    twoDigits(61),
    mostly(fc.constantFrom(":", ":", ":", "")),
    twoDigits(61),
    mostly(
      fc.oneof(
        fc.constant(""),
        fc.array(digit, { maxLength: 4 }).map((d) => `.${d.join("")}`),
        fc.constantFrom(".", ".5x", "+01:00"),
      ),
    ),
    mostly(fc.constantFrom("Z", "Z", "Z", "z", "", "Z\n")),
  )
  .map((parts) => parts.join(""));

describe("isIsoDateTime", () => {
  it("accepts exactly what zod's datetime pattern accepts", () => {
    fc.assert(
      fc.property(fc.oneof(shaped, fc.string({ maxLength: 30 })), (text) => {
        expect(isIsoDateTime(text)).toBe(zodPattern.test(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    ["2024-02-29T10:00:00Z", true],
    ["2023-02-29T10:00:00Z", false],
    ["2000-02-29T10:00:00.000Z", true],
    ["1900-02-29T10:00:00Z", false],
    ["2026-04-31T10:00:00Z", false],
    ["2026-12-31T23:59:59.123456Z", true],
    ["2026-12-31T24:00:00Z", false],
    ["2026-12-31T10:00Z", false],
    ["2026-12-31T10:00:00.Z", false],
    ["2026-12-31T10:00:00+01:00", false],
    ["２026-12-31T10:00:00Z", false],
  ])("%s: %s", (text, valid) => {
    expect(isIsoDateTime(text)).toBe(valid);
    expect(zodPattern.test(text)).toBe(valid);
  });
});

describe("isoDateTime", () => {
  it("parses and refuses as z.iso.datetime(), with the same issues", () => {
    const ours = isoDateTime();
    const theirs = z.iso.datetime();
    for (const value of ["2026-11-23T10:00:00.000Z", "2026-02-30T10:00:00Z", "yesterday", 42, ""]) {
      const a = z.safeParse(ours, value);
      const b = z.safeParse(theirs, value);
      expect(a.success).toBe(b.success);
      expect(a.error?.issues).toEqual(b.error?.issues);
    }
  });

  it("runs zod's pattern only on a value the hand check refuses", () => {
    const test = vi.spyOn(RegExp.prototype, "test");
    const ours = isoDateTime();
    expect(z.safeParse(ours, "2026-11-23T10:00:00.000Z").success).toBe(true);
    expect(test).not.toHaveBeenCalled();
    expect(z.safeParse(ours, "2026-11-23").success).toBe(false);
    expect(test).toHaveBeenCalledWith("2026-11-23");
    test.mockRestore();
  });
});

describe("isoString", () => {
  const check = (ms: number) => {
    expect(isoString(new Date(ms))).toBe(new Date(ms).toISOString());
  };

  it("is toISOString on any instant of the years 0000-9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), check),
      { numRuns: 5000 },
    );
  });

  it("is toISOString at the edges: the epoch, leap days, centuries, the ends of the range", () => {
    for (const text of [
      "1970-01-01T00:00:00.000Z",
      "1969-12-31T23:59:59.999Z",
      "2000-02-29T12:00:00.005Z",
      "2024-02-29T23:59:59.999Z",
      "2100-03-01T00:00:00.050Z",
      "1900-02-28T00:00:00.000Z",
      "2400-02-29T00:00:00.000Z",
      "0000-01-01T00:00:00.000Z",
      "9999-12-31T23:59:59.999Z",
    ])
      check(Date.parse(text));
    check(Date.now());
  });

  it("leaves the years outside 0000-9999 and an invalid date to toISOString", () => {
    check(-62_167_219_200_001);
    check(253_402_300_800_000);
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});
