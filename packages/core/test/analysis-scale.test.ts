import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module shared with bench/analysis.mjs, without types.
import { generateAnalysisProject } from "../../../bench/analysis-project.mjs";
import { createBudget, steppingClock } from "../src/analysis/budget.ts";
import { runStartAnalyses } from "../src/analysis/node/run-analyses.ts";
import { loadGraph, traceImpact } from "../src/analysis/node/impact.ts";
import { openProject } from "../src/project/node/project.ts";
import { createFsView } from "../src/project/node/fs-view.ts";
import { detectProjectRunners } from "../src/runners/project-runners.ts";
import { isGraphComplete } from "../src/analysis/import-graph.ts";

/**
 * The analyses' time boxes on a generated project of 50,000 source and test files (Python and
 * TypeScript). The cuts are checked with a stepping clock (by count, not by time); one real-time
 * start shows the box holds on this machine with a wide margin.
 */

let root = "";
const ALL_ON = {
  impact_tracing: true,
  api_validation: true,
  style_sampling: true,
  ramp_up_limit: 5,
};

function configure(config: Record<string, unknown>): void {
  mkdirSync(join(root, ".tailtest"), { recursive: true });
  writeFileSync(join(root, ".tailtest/config.json"), JSON.stringify(config));
}

function reset(): void {
  rmSync(join(root, ".tailtest"), { recursive: true, force: true });
}

const input = () => ({
  resumed: false,
  runners: detectProjectRunners(createFsView(root)),
  now: () => new Date(),
});

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "tailtest-scale-"));
  generateAnalysisProject(root, 50_000);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a 50,000-file project", () => {
  it("cuts every session-start analysis at its box and says so (stepping clock)", async () => {
    reset();
    configure({ ...ALL_ON, analysis_budget_ms: 200 });
    const notes = await runStartAnalyses(openProject(root), { ...input(), clock: steppingClock() });
    expect(notes).toEqual([
      expect.stringMatching(
        /^tailtest: first-session coverage scan stopped at its time box \(200 ms\) while listing the project's files \(\d+ found so far\); nothing was queued, and it runs again next session\.$/,
      ),
      expect.stringMatching(/\(from part of the project: the walk was cut by its time box\)/),
      expect.stringMatching(
        /^tailtest: impact tracing: building the import graph was cut short by its time box \(200 ms\): the project walk found \d+ source files so far; the next edits carry it on\.$/,
      ),
    ]);
  });

  it("holds the real 500 ms box at session start", async () => {
    reset();
    configure(ALL_ON);
    const started = performance.now();
    const notes = await runStartAnalyses(openProject(root), input());
    const elapsed = performance.now() - started;
    // Without the box the walk, the scan and the graph take several seconds here.
    expect(notes.join("\n")).toMatch(/time box \(500 ms\)/);
    expect(elapsed).toBeLessThan(3000);
  });

  it("finishes the graph over later edits and traces impact across both languages", async () => {
    const project = openProject(root);
    let edits = 0;
    while (!isGraphComplete(loadGraph(project, false).graph)) {
      await traceImpact(
        project,
        "src/big/p3/m7.py",
        createBudget(2000, () => performance.now()),
      );
      edits += 1;
      expect(edits).toBeLessThan(200);
    }
    const line = await traceImpact(
      project,
      "src/big/p3/m7.py",
      createBudget(2000, () => performance.now()),
    );
    expect(line).toBe(
      "Impact: src/big/p3/m7.py is imported by src/big/p3/m8.py, src/big/p4/m7.py, tests/p3/test_m7.py; 5 more files import those (up to 2 hops)",
    );
    expect(
      await traceImpact(
        project,
        "web/d3/m7.ts",
        createBudget(2000, () => performance.now()),
      ),
    ).toBe(
      "Impact: web/d3/m7.ts is imported by web/d3/m7.test.ts, web/d3/m8.ts, web/d4/m7.ts; 5 more files import those (up to 2 hops)",
    );
  }, 60_000);

  it("ranks the whole project for ramp-up in one linear pass when the box allows", async () => {
    reset();
    configure({ ramp_up_limit: 5, analysis_budget_ms: 10_000 });
    const started = performance.now();
    const notes = await runStartAnalyses(openProject(root), input());
    expect(notes).toEqual([
      "tailtest: first-session coverage scan: 5 untested file(s) queued (ramp-up): src/big/p100/m0.py, src/big/p100/m10.py, src/big/p100/m20.py, src/big/p100/m30.py, src/big/p100/m40.py. Write tests for them as for any queued file.",
    ]);
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 30_000);
});
