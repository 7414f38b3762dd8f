import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { lazy } from "./lazy.ts";
import { optionOf } from "./union-option.ts";

/**
 * Holds a map of options to its discriminated union: every option of the union is in the map
 * under each of its discriminator values, nothing else is, and every sample parses through
 * `optionOf` exactly as through the union (data, or the same issues).
 */
function expectOptionsOfUnion(
  union: z.core.$ZodType,
  discriminator: string,
  options: ReadonlyMap<unknown, z.core.$ZodType>,
  samples: readonly unknown[],
): void {
  const def = union._zod.def as unknown as { options: z.core.$ZodType[] };
  const expected = new Map<unknown, z.core.$ZodType>();
  for (const option of def.options)
    for (const value of option._zod.propValues?.[discriminator] ?? []) expected.set(value, option);
  expect([...options.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [value, option] of expected) expect(options.get(value)).toBe(option);
  for (const sample of samples) {
    const viaUnion = z.safeParse(union, sample);
    const viaOption = z.safeParse(optionOf(sample, discriminator, options, union), sample);
    expect(viaOption.success).toBe(viaUnion.success);
    expect(viaOption.data).toEqual(viaUnion.data);
    expect(viaOption.error?.issues).toEqual(viaUnion.error?.issues);
  }
}

describe("optionOf: the option a discriminator names, the union's own answer", () => {
  let built = 0;
  const a = lazy(() => {
    built += 1;
    return z.object({ kind: z.literal("a"), n: z.number() });
  });
  const b = lazy(() => {
    built += 1;
    return z.object({ kind: z.literal("b"), s: z.string() });
  });
  const union = lazy(() => z.discriminatedUnion("kind", [a, b]));
  const options = new Map<unknown, z.core.$ZodType>([
    ["a", a],
    ["b", b],
  ]);

  it("builds only the option it parses with", () => {
    expect(
      z.parse(optionOf({ kind: "a", n: 1 }, "kind", options, union), { kind: "a", n: 1 }),
    ).toEqual({ kind: "a", n: 1 });
    expect(built).toBe(1);
  });

  it("leaves to the union what names no option", () => {
    for (const value of [null, 1, "a", [], [{ kind: "a" }], {}, { kind: "c" }, { kind: 1 }])
      expect(optionOf(value, "kind", options, union)).toBe(union);
    expect(optionOf({ kind: "b" }, "kind", options, union)).toBe(b);
  });

  it("gives what the union gives, good or bad", () => {
    expectOptionsOfUnion(union, "kind", options, [
      { kind: "a", n: 1 },
      { kind: "a", n: "1" },
      { kind: "a" },
      { kind: "b", s: "x", extra: true },
      { kind: "b", s: 2 },
      { kind: "c", n: 1 },
      { kind: undefined },
      {},
      [],
      null,
      "a",
    ]);
  });

  it("is caught when the map misses an option or names the wrong one", () => {
    expect(() =>
      expectOptionsOfUnion(union, "kind", new Map<unknown, z.core.$ZodType>([["a", a]]), []),
    ).toThrow();
    expect(() =>
      expectOptionsOfUnion(
        union,
        "kind",
        new Map<unknown, z.core.$ZodType>([
          ["a", b],
          ["b", a],
        ]),
        [],
      ),
    ).toThrow();
  });
});
