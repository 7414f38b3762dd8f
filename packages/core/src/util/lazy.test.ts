import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { lazy } from "./lazy.ts";

describe("lazy: a value built on first use", () => {
  it("builds nothing until touched, then once", () => {
    let builds = 0;
    const schema = lazy(() => {
      builds += 1;
      return z.object({ a: z.string() });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ a: "x" })).toEqual({ a: "x" });
    expect(schema.safeParse({ a: 1 }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it("composes without building: zod reads an inner schema when it parses", () => {
    let builds = 0;
    const inner = lazy(() => {
      builds += 1;
      return z.enum(["red", "green"]);
    });
    const outer = z.object({ state: inner, states: z.array(inner), maybe: z.optional(inner) });
    expect(builds).toBe(0);
    expect(outer.parse({ state: "red", states: ["green"] })).toEqual({
      state: "red",
      states: ["green"],
    });
    expect(outer.safeParse({ state: "blue", states: [] }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it("stands in for the schema everywhere zod looks: extend, unions, instanceof, keys", () => {
    const base = lazy(() => z.object({ kind: z.literal("a"), n: z.number() }));
    const other = lazy(() => z.object({ kind: z.literal("b") }));
    const both = z.discriminatedUnion("kind", [base, other]);
    expect(both.parse({ kind: "a", n: 1 })).toEqual({ kind: "a", n: 1 });
    expect(both.safeParse({ kind: "c" }).success).toBe(false);
    const wider = z.extend(base, { extra: z.optional(z.boolean()) });
    expect(wider.parse({ kind: "a", n: 2, extra: true })).toEqual({ kind: "a", n: 2, extra: true });
    expect(base instanceof z.ZodMiniObject).toBe(true);
    expect(Object.keys(base)).toEqual(Object.keys(z.object({ kind: z.literal("a") })));
    expect(Object.getOwnPropertyDescriptor(base, "_zod")?.value).toBe(base._zod);
    expect("parse" in base).toBe(true);
  });

  it("shows none of its own: every key, symbol or not, is the built value's, for each stand-in", () => {
    const built = [{ a: 1, [Symbol.for("x")]: 2 }, { b: 3 }];
    const stands = built.map((value) => lazy(() => value));
    stands.forEach((stand, i) => {
      expect(Reflect.ownKeys(stand)).toEqual(Reflect.ownKeys(built[i] ?? {}));
      expect(Object.getOwnPropertySymbols(stand)).toEqual(
        Object.getOwnPropertySymbols(built[i] ?? {}),
      );
    });
    expect(stands[0]).toEqual({ a: 1, [Symbol.for("x")]: 2 });
    expect((stands[1] as { b: number }).b).toBe(3);
  });
});
