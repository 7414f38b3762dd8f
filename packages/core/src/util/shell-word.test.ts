import { describe, expect, it } from "vitest";
import { isPlainShellWord, shellWord } from "./shell-word.ts";

describe("shellWord", () => {
  it.each([
    ["src/calc.py", "src/calc.py"],
    ["tests/test_calc.py::test_add", "tests/test_calc.py::test_add"],
    ["@scope/pkg,a=b+c%d", "@scope/pkg,a=b+c%d"],
    ["a b", "'a b'"],
    ["it's", "'it'\\''s'"],
    ["", "''"],
    ["$HOME", "'$HOME'"],
    ["x;rm -rf y", "'x;rm -rf y'"],
    ["é", "'é'"],
  ])("%j → %s", (word, quoted) => {
    expect(shellWord(word)).toBe(quoted);
    expect(isPlainShellWord(word)).toBe(word === quoted);
  });
});
