import { describe, expect, it } from "vitest";
import corpus from "../../../../fixtures/filter-corpus/corpus.json" with { type: "json" };
import { classifyFile } from "./filter.ts";

/**
 * Real layouts from public projects (fixtures/filter-corpus/SOURCES.md), each labelled by a
 * reviewer: queue (worth a unit test) or skip, with why. Entries whose verdict depends on the
 * content carry a head written to the real file's shape; the rest are decided by path.
 */
interface CorpusEntry {
  repo: string;
  path: string;
  label: "queue" | "skip";
  reason: string;
  packageDirs?: string[];
  head?: string;
}

const entries = corpus as CorpusEntry[];

/** Misses the filter keeps, each with why it is accepted rather than fixed. */
const ACCEPTED_MISSES: Readonly<Record<string, string>> = {
  "pypa/pip src/pip/_internal/utils/_jaraco_text.py":
    "a vendored copy under the project's own utils/ with an ordinary module name: only the " +
    "project knows; `.tailtest-ignore` is the way to say so",
};

const verdictOf = (entry: CorpusEntry) =>
  classifyFile(entry.path, {
    head: entry.head,
    headComplete: entry.head !== undefined,
    packageDirs: entry.packageDirs ?? [],
  });

describe("the filter on real project layouts", () => {
  it("holds at least 300 labelled files from many projects, each with a reason", () => {
    expect(entries.length).toBeGreaterThanOrEqual(300);
    expect(new Set(entries.map((entry) => entry.repo)).size).toBeGreaterThanOrEqual(15);
    for (const entry of entries) expect(entry.reason.length, entry.path).toBeGreaterThan(10);
    const queued = entries.filter((entry) => entry.label === "queue").length;
    expect(queued).toBeGreaterThan(100);
    expect(entries.length - queued).toBeGreaterThan(150);
  });

  it("is right on at least 98 % of them, and every miss is an accepted one", () => {
    const misses = entries
      .filter((entry) => verdictOf(entry).queue !== (entry.label === "queue"))
      .map((entry) => `${entry.repo} ${entry.path}`);
    expect(misses.sort()).toEqual(Object.keys(ACCEPTED_MISSES).sort());
    expect(1 - misses.length / entries.length).toBeGreaterThanOrEqual(0.98);
  });

  it("says why for every skip", () => {
    for (const entry of entries.filter((e) => e.label === "skip")) {
      const verdict = verdictOf(entry);
      if (verdict.queue) continue;
      expect(verdict.reason, entry.path).not.toBe("");
      expect(verdict.rule, entry.path).not.toBe("source");
    }
  });
});
