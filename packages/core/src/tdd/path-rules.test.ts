import fc from "fast-check";
import ignore from "ignore";
import { describe, expect, it } from "vitest";
import { DEFAULT_E2E_PATTERNS } from "./file-classes.ts";
import { pathRules, requiredPathLiterals } from "./path-rules.ts";
import { DEFAULT_PROTECTED_PATHS } from "./tdd-gate.ts";

/** Path segments near and far from the default lists' literals, in several cases. */
const SEGMENTS = [
  "src",
  "e2e",
  "E2E",
  "tests",
  "cypress",
  "Cypress",
  "playwright",
  "a.e2e.ts",
  "a.E2E-spec.js",
  "login.cy.ts",
  "x.CY.js",
  ".tailtest",
  ".TailTest",
  "tailtest",
  ".claude",
  "settings.json",
  "Settings.local.JSON",
  "settings",
  ".cursor",
  "hooks",
  "hooks.json",
  "state",
  ".codex",
  "config.toml",
  "lib",
  "a.py",
  "e2ex",
  "ſettings.json",
  "K.e2e.ts",
];

const pathArb = fc
  .array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join("/"));

/** Patterns as a config could write them: plain, wildcards, folders, negations, classes. */
const patternArb = fc.oneof(
  fc.constantFrom(...DEFAULT_E2E_PATTERNS, ...DEFAULT_PROTECTED_PATHS),
  fc.constantFrom(
    "lib/**",
    "*.py",
    "!e2e/",
    "#e2e/",
    "src/[ab].py",
    "a\\*.py",
    "**",
    "*",
    "tests/",
    "/src/",
    "  ",
    "hooks?json",
    "Settings*.json ",
  ),
  fc
    .array(fc.constantFrom(...SEGMENTS, "*", "**", "?"), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.join("/")),
);

describe("path rules", () => {
  it("answer what `ignore` answers, for any path and list", () => {
    fc.assert(
      fc.property(
        fc.array(patternArb, { maxLength: 6 }),
        fc.array(pathArb, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (patterns, paths, ignorecase) => {
          const guarded = pathRules(patterns, { ignorecase });
          const plain = ignore({ ignorecase }).add(patterns);
          for (const path of paths) {
            const want = plain.test(path);
            const got = guarded.test(path);
            expect(got.ignored).toBe(want.ignored);
            expect(got.unignored).toBe(want.unignored);
            expect(got.rule?.pattern).toBe(want.rule?.pattern);
            expect(guarded.ignores(path)).toBe(plain.ignores(path));
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("answer the default lists as `ignore` does on every path of the segments", () => {
    for (const [list, ignorecase] of [
      [DEFAULT_E2E_PATTERNS, true],
      [DEFAULT_PROTECTED_PATHS, true],
    ] as const) {
      const guarded = pathRules(list, { ignorecase });
      const plain = ignore({ ignorecase }).add([...list]);
      for (const a of SEGMENTS)
        for (const b of SEGMENTS)
          for (const path of [a, `${a}/${b}`, `x/${a}/${b}`]) {
            expect(guarded.test(path).rule?.pattern, path).toBe(plain.test(path).rule?.pattern);
            expect(guarded.ignores(path), path).toBe(plain.ignores(path));
          }
    }
  });

  it("reads a literal off each plain pattern, and none off the rest", () => {
    expect(requiredPathLiterals(DEFAULT_E2E_PATTERNS)).toEqual([
      "e2e",
      "cypress",
      "playwright",
      ".e2e.",
      ".e2e-spec.",
      ".cy.",
    ]);
    expect(requiredPathLiterals(DEFAULT_PROTECTED_PATHS)).toEqual([
      ".tailtest",
      ".cursor/hooks/state",
      ".claude/settings",
      ".cursor/hooks.json",
      ".codex/hooks.json",
      ".codex/config.toml",
    ]);
    expect(requiredPathLiterals(["  ", "Lib/**"])).toEqual(["lib"]);
    for (const pattern of ["!e2e/", "#x", "src/[ab].py", "a\\*.py", "**", "*/?", "é.py", "a\tb"])
      expect(requiredPathLiterals(["e2e/", pattern]), pattern).toBeUndefined();
  });
});
