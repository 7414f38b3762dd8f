import ignore from "ignore";
import { describe, expect, it } from "vitest";
import { ignoreChanged, parseStatusV2, rebaseIgnoreRules } from "./turn-baseline.ts";

describe("rebaseIgnoreRules", () => {
  it.each([
    ["a bare name matches at any depth under the folder", "pkg", "local.py", ["/pkg/**/local.py"]],
    ["a leading slash anchors it at the folder", "pkg", "/shadow/", ["/pkg/shadow/"]],
    ["a slash inside anchors it too", "a/b", "sub/x.py", ["/a/b/sub/x.py"]],
    ["a negation stays one", "pkg", "*\n!keep.py", ["/pkg/**/*", "!/pkg/**/keep.py"]],
    ["comments, blank lines and a lone ! are no rules", "pkg", "# c\n\n!\r\nx  ", ["/pkg/**/x"]],
  ])("%s", (_why, dir, text, rules) => {
    expect(rebaseIgnoreRules(dir, text)).toEqual(rules);
  });

  it("ignores, from the root, what git ignores by the folder's file", () => {
    const rules = ignore().add(rebaseIgnoreRules("calc", "*\n!keep.py"));
    expect(rules.ignores("calc/__init__.py")).toBe(true);
    expect(rules.ignores("calc/deep/x.py")).toBe(true);
    expect(rules.ignores("calc/keep.py")).toBe(false);
    expect(rules.ignores("other/__init__.py")).toBe(false);
  });
});

describe("ignoreChanged", () => {
  const root = { gitignore: ".tailtest/\n" };
  it.each([
    ["nothing changed", { ...root, nested: {} }, { ...root, nested: {} }, false],
    [
      "a folder's .gitignore appeared",
      { ...root, nested: {} },
      { ...root, nested: { "calc/.gitignore": "*\n" } },
      true,
    ],
    [
      "a tracked one changed (listed now only)",
      { ...root, nested: {} },
      { ...root, nested: { "pkg/.gitignore": "x\n" } },
      true,
    ],
    [
      "one listed both times, unchanged",
      { ...root, nested: { "d/.gitignore": "y\n" } },
      { ...root, nested: { "d/.gitignore": "y\n" } },
      false,
    ],
    [
      "a baseline from before folders were kept",
      { ...root },
      { ...root, nested: { "calc/.gitignore": "*\n" } },
      false,
    ],
    ["the root's rules changed", { ...root, nested: {} }, { gitignore: "", nested: {} }, true],
  ])("%s → %s", (_why, then, now, changed) => {
    expect(ignoreChanged(then, now)).toBe(changed);
  });
});

describe("parseStatusV2", () => {
  it("keeps ignored files and folders (`!`) apart from untracked ones", () => {
    const status = parseStatusV2(
      "# branch.oid (initial)\0? a.py\0! calc/__init__.py\0! node_modules/\0",
    );
    expect([...status.entries]).toEqual([
      ["a.py", { head: null, untracked: true, ignored: false }],
      ["calc/__init__.py", { head: null, untracked: true, ignored: true }],
      ["node_modules/", { head: null, untracked: true, ignored: true }],
    ]);
  });
});
