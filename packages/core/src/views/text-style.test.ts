import { describe, expect, it } from "vitest";
import { ANSI_STYLE, padVisible, PLAIN_STYLE, renderColumns } from "./text-style.ts";

describe("text styles", () => {
  it("plain leaves text alone; ANSI wraps it and resets only its own attribute", () => {
    expect(PLAIN_STYLE.bad("x")).toBe("x");
    expect(ANSI_STYLE.bad("x")).toBe("\u001b[31mx\u001b[39m");
    expect(ANSI_STYLE.dim("x")).toBe("\u001b[2mx\u001b[22m");
    expect(ANSI_STYLE.good("")).toBe("");
  });

  it("aligns columns by visible width, whatever the colours", () => {
    const rows = renderColumns([
      ["a", ANSI_STYLE.good("passed"), "x"],
      ["long name", "failed", "y"],
    ]);
    const plain = rows.map((row) => row.replaceAll(ANSI_STYLE.good("passed"), "passed"));
    expect(plain).toEqual(["a          passed  x", "long name  failed  y"]);
    expect(padVisible(ANSI_STYLE.bad("ab"), 4)).toBe(`${ANSI_STYLE.bad("ab")}  `);
  });
});
