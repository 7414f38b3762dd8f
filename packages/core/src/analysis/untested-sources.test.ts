import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyFile, isTestFile } from "../filter/filter.ts";
import {
  addCommits,
  collectTestStems,
  hasTestStem,
  scoreWithoutSize,
  type CandidateGroup,
  type UnreadCandidate,
} from "./ramp-up.ts";
import { UntestedSources } from "./untested-sources.ts";

/** The sort as a list of every path did it: what the walk-fed sort must equal. */
function untestedOfList(files: readonly string[], extra: readonly string[]): string[] {
  const tests = files.filter((file) => isTestFile(file, extra));
  const sources = files.filter(
    (file) => !isTestFile(file, extra) && classifyFile(file, { extraTestPatterns: extra }).queue,
  );
  const stems = collectTestStems(tests);
  return sources.filter((source) => !hasTestStem(stems, source));
}

function flatten(groups: Iterable<CandidateGroup>): UnreadCandidate[] {
  return [...groups].flatMap((group) =>
    [...group.paths()].map((path) => ({ path, partial: group.partial })),
  );
}

function sorted(files: readonly string[], extra: readonly string[] = []): UntestedSources {
  const sources = new UntestedSources(extra);
  for (const file of files) sources.add(file);
  return sources;
}

const FILES = [
  "pyproject.toml",
  "setup.py",
  "app.py",
  "README.md",
  "src/services/billing.py",
  "src/services/user.py",
  "src/services/__init__.py",
  "tests/test_billing.py",
  "tests/payments/test_api.py",
  "src/payments/api.py",
  "src/orders/api.py",
  "web/cart.ts",
  "web/cart.test.ts",
  "web/lib/index.ts",
  "web/lib/money.tsx",
  "web/lib/stories/Button.stories.tsx",
  "lib/models/order.rb",
  "spec/models/order_spec.rb",
  "docs/conf.py",
  "scripts/release.py",
  // A folder's files need not come together.
  "src/services/tax.py",
  "web/cart.py",
];

describe("the walk-fed sort into untested sources", () => {
  it("finds the untested sources the list's sort found, counted, whichever order", () => {
    const expected = untestedOfList(FILES, []);
    expect(expected.length).toBeGreaterThan(5);
    for (const files of [FILES, [...FILES].reverse()]) {
      const candidates = sorted(files).finish();
      expect(candidates.count).toBe(expected.length);
      expect(
        flatten(candidates.groups())
          .map((entry) => entry.path)
          .sort(),
      ).toEqual([...expected].sort());
    }
    expect(sorted(FILES).files).toBe(FILES.length);
  });

  it("counts a config's extra test patterns as tests", () => {
    const files = ["src/billing.py", "checks/billing_check.py", "src/tax.py"];
    const extra = ["checks/**"];
    expect(flatten(sorted(files, extra).finish().groups()).map((entry) => entry.path)).toEqual(
      untestedOfList(files, extra),
    );
    expect(untestedOfList(files, extra)).not.toContain("checks/billing_check.py");
  });

  it("says whether any untested source is a JS or TS file", () => {
    expect(sorted(["src/a.py", "web/b.ts"]).finish().js).toBe(true);
    expect(sorted(["src/a.py", "web/b.ts", "web/b.test.ts"]).finish().js).toBe(false);
  });

  it("counts git's lines for its candidates only, and forgets them when told", () => {
    const candidates = sorted(["a.py", "src/b.py", "src/c.py", "tests/test_c.py"]).finish();
    addCommits("a.py\nsrc/b.py\n\nsrc/c.py\nsrc/b.py\nother/b.py\nsrc/d.py\nb.py\n", candidates);
    expect(flatten(candidates.groups())).toEqual([
      { path: "src/b.py", partial: scoreWithoutSize("src/b.py", 2) },
      { path: "a.py", partial: scoreWithoutSize("a.py", 1) },
    ]);
    candidates.forgetCommits();
    expect(flatten(candidates.groups())).toEqual([
      { path: "src/b.py", partial: 20 },
      { path: "a.py", partial: 0 },
    ]);
  });

  it("hands out every candidate best first, ties by path, as pickTop orders them", () => {
    const dirs = ["", "src", "src/services", "src/api", "lib", "lib/x", "app/models", "web"];
    const file = fc.record({
      dir: fc.constantFrom(...dirs),
      name: fc.constantFrom("a.py", "b.py", "c.ts", "d.rb", "e.go", "f.py"),
      commits: fc.integer({ min: 0, max: 25 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(file, {
          selector: (entry) => `${entry.dir}/${entry.name}`,
          maxLength: 30,
        }),
        (entries) => {
          const paths = entries.map((entry) =>
            entry.dir === "" ? entry.name : `${entry.dir}/${entry.name}`,
          );
          const candidates = sorted(paths).finish();
          const log = entries.flatMap((entry, index) =>
            Array.from({ length: entry.commits }, () => paths[index]),
          );
          addCommits(log.join("\n"), candidates);
          const expected = entries
            .map((entry, index) => ({
              path: paths[index] ?? "",
              partial: scoreWithoutSize(paths[index] ?? "", entry.commits),
            }))
            .sort((a, b) => b.partial - a.partial || (a.path < b.path ? -1 : 1));
          expect(flatten(candidates.groups())).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("makes a group's paths only when asked", () => {
    const candidates = sorted(["src/a.py", "x/b.py"]).finish();
    const groups = [...candidates.groups()];
    expect(groups.map((group) => group.partial)).toEqual([20, 0]);
    expect([...(groups[1]?.paths() ?? [])]).toEqual(["x/b.py"]);
  });
});
