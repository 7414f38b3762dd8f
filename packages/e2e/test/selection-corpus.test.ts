import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "@tailtest/test-utils";
import { afterAll, describe, expect, it } from "vitest";

/**
 * bench/selection.mjs, the selection acceptance run on the real-project corpus: the packed
 * Claude Code adapter installed into a copy of a public project, every seeded edit sent through
 * Claude Code's hook sequence. Here on one small project without thresholds (the script works,
 * every seed ran and produced numbers); the whole corpus with --check runs when
 * TAILTEST_SELECTION_CORPUS=1.
 */
const run = promisify(execFile);
const SCRIPT = join(REPO_ROOT, "bench/selection.mjs");
const scratch = mkdtempSync(join(tmpdir(), "tailtest-selection-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Summary {
  project: string;
  skipped?: string;
  bugs: number;
  harmless: number;
  module_count: number;
  catch_rate?: number;
  mapped_rate?: number;
  notes?: number;
  seeds: { id: string; stop_ms: number; problems: string[] }[];
}

describe("bench/selection.mjs", () => {
  it("runs every seed of one corpus project through the installed hooks and reports numbers", async () => {
    const out = join(scratch, "negotiator.json");
    const result = await run("node", [SCRIPT, "--project", "negotiator", "--json", out], {
      cwd: REPO_ROOT,
      timeout: 280_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(result.stdout).toContain("| negotiator |");
    const report = JSON.parse(readFileSync(out, "utf8")) as {
      results: Summary[];
      overall: Summary;
    };
    const meta = JSON.parse(
      readFileSync(join(REPO_ROOT, "fixtures/projects/negotiator.json"), "utf8"),
    ) as { seeds: unknown[]; modules: Record<string, string[]> };
    const [project] = report.results;
    expect(project?.skipped).toBeUndefined();
    expect(project?.seeds).toHaveLength(meta.seeds.length);
    expect((project?.bugs ?? 0) + (project?.harmless ?? 0)).toBe(meta.seeds.length);
    expect(project?.module_count).toBe(Object.keys(meta.modules).length);
    expect(typeof project?.catch_rate).toBe("number");
    expect(typeof project?.mapped_rate).toBe("number");
    // Every queued source edit's note was judged against the files that really cover it.
    expect(project?.notes).toBeGreaterThan(0);
    for (const seed of project?.seeds ?? []) {
      expect(seed.stop_ms, seed.id).toBeGreaterThan(0);
      expect(seed.problems, seed.id).toEqual([]);
    }
  }, 300_000);

  it.each(["codex", "cursor"])(
    "sends a bug and a comment through %s's hooks: the bug blocks the turn, the comment does not",
    async (agent) => {
      const out = join(scratch, `negotiator-${agent}.json`);
      await run(
        "node",
        [
          SCRIPT,
          ...["--project", "negotiator", "--agent", agent],
          ...["--seed", "charset-picks-last", "--seed", "index-comment", "--json", out],
        ],
        { cwd: REPO_ROOT, timeout: 280_000, maxBuffer: 16 * 1024 * 1024 },
      );
      const report = JSON.parse(readFileSync(out, "utf8")) as {
        results: (Summary & {
          seeds: { id: string; caught?: boolean; false_block?: boolean; note_true?: boolean }[];
        })[];
      };
      const seeds = report.results[0]?.seeds ?? [];
      expect(seeds.map((seed) => seed.id)).toEqual(["charset-picks-last", "index-comment"]);
      const [bug, comment] = seeds;
      expect(bug?.caught, JSON.stringify(bug)).toBe(true);
      expect(comment?.false_block, JSON.stringify(comment)).toBe(false);
      // The note reached the agent on its channel and named a test that covers the file.
      expect(bug?.note_true, JSON.stringify(bug)).toBe(true);
      for (const seed of report.results[0]?.seeds ?? []) expect(seed.problems, seed.id).toEqual([]);
    },
    300_000,
  );

  it("plays a bug and a comment in tdd mode: the turn's tests catch the bug under a Green", async () => {
    const out = join(scratch, "negotiator-tdd.json");
    await run(
      "node",
      [
        SCRIPT,
        ...["--project", "negotiator", "--mode", "tdd"],
        ...["--seed", "charset-picks-last", "--seed", "index-comment", "--json", out],
      ],
      { cwd: REPO_ROOT, timeout: 280_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const report = JSON.parse(readFileSync(out, "utf8")) as {
      results: {
        seeds: {
          id: string;
          mode: string;
          caught?: boolean;
          false_block?: boolean;
          problems: string[];
        }[];
      }[];
    };
    const seeds = report.results[0]?.seeds ?? [];
    expect(seeds.map((seed) => [seed.id, seed.mode])).toEqual([
      ["charset-picks-last", "tdd"],
      ["index-comment", "tdd"],
    ]);
    const [bug, comment] = seeds;
    // The gate let each edit through under its Green (a denial is a problem), and the Stop judged it.
    for (const seed of seeds) expect(seed.problems, seed.id).toEqual([]);
    expect(bug?.caught, JSON.stringify(bug)).toBe(true);
    expect(comment?.false_block, JSON.stringify(comment)).toBe(false);
  }, 300_000);

  it.runIf(process.env["TAILTEST_SELECTION_CORPUS"] === "1")(
    "meets the selection targets on the whole corpus (--check)",
    async () => {
      const result = await run("node", [SCRIPT, "--check"], {
        cwd: REPO_ROOT,
        timeout: 900_000,
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: { stdout?: string; code?: number }) => error);
      expect("code" in result ? result.code : 0, result.stdout).toBe(0);
    },
    900_000,
  );
});
