import { describe, expect, it } from "vitest";
import { adapterSizes, codeLines, countFile, LOGIC_LIMIT } from "../../../scripts/adapter-size.mjs";

/**
 * An adapter is its platform's translation plus its installer: what a second platform would also
 * need lives in core's `hook/` folder. scripts/adapter-size.mjs counts the same way every time.
 */
describe("adapter size", () => {
  it.each(adapterSizes().map((size) => [size.adapter, size] as const))(
    "%s has at most LOGIC_LIMIT lines of logic outside its installer",
    (_adapter, size) => {
      expect(size.logic).toBeLessThanOrEqual(LOGIC_LIMIT);
      // The count is read for real: every adapter translates and installs.
      expect(size.files["translate.ts"]?.logic).toBeGreaterThan(0);
      expect(size.files["platform.ts"]).toBeDefined();
      expect(size.installer).toBeGreaterThan(0);
    },
  );

  it("counts neither blank lines nor comments", () => {
    expect(codeLines("// a\n\n/* b\n c */\nconst x = 1; // d\n  \n")).toBe(1);
  });

  it("counts schemas, literal tables, types and imports as data, code as logic", () => {
    const text = [
      'import * as z from "zod/mini";',
      "/** A schema. */",
      "const A = z.looseObject({",
      "  a: z.string(),",
      "});",
      "const B = lazy(() => z.object({ b: z.number() }));",
      'const EVENTS = new Set(["x", "y"]);',
      'const TABLE = { Stop: { block: true }, Pre: ["a", 1] } as const;',
      "type T = z.infer<typeof A>;",
      "export function f(t: T): number {",
      "  return t.a.length;",
      "}",
    ].join("\n");
    expect(countFile("translate.ts", text)).toEqual({ logic: 3, data: 8, installer: 0 });
    expect(countFile("setup.ts", text)).toEqual({ logic: 0, data: 0, installer: 11 });
  });
});
