import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { isDefaultTestFileName } from "./pytest.ts";

describe("isDefaultTestFileName", () => {
  const defaults = picomatch(["test_*.py", "*_test.py"], { basename: true });

  it.each([
    ["test_calc.py", true],
    ["calc_test.py", true],
    ["test_.py", true],
    ["_test.py", true],
    ["test_calc.pyc", false],
    ["tests.py", false],
    [".calc_test.py", false],
    ["test.py", false],
    ["calc.py", false],
  ])("%s: %s, as picomatch says", (name, expected) => {
    expect(isDefaultTestFileName(name)).toBe(expected);
    expect(defaults(name)).toBe(expected);
  });

  it("answers as picomatch does for any file name", () => {
    const name = fc
      .array(fc.constantFrom("test", "_", ".", "py", "t", "s", "x", "\\\\", " ", "é"), {
        maxLength: 8,
      })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(name, (one) => isDefaultTestFileName(one) === defaults(one)),
      { numRuns: 20_000 },
    );
  });
});
