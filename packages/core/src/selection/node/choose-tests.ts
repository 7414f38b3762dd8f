import { readFileSync } from "node:fs";
import * as z from "zod/mini";
import { planRun, planSuites, type Plan, type RunPlan } from "../../engine/plan.ts";
import { shellCommandForTestFiles, type DetectedRunner } from "../../runners/project-runners.ts";
import { compareRelated, nameRanks, type RelatedTest } from "../related.ts";
import { runLogFile } from "../../state/node/run-log-store.ts";
import { selectRelated, type Selection } from "./graph-selection.ts";
import type { Project } from "../../project/node/project.ts";
import { dirnameRel, joinRel, memoView, type ProjectView } from "../../project/project-view.ts";

/** The tests the end of a turn (or `tailtest run <files>`) runs for changed files, and why. */
export interface ChosenTests {
  plan: Plan;
  /** Related tests per changed file, after the time budget (absent with `select: named`). */
  selection?: Selection;
  /** Related test files left out by `verify_budget_seconds`, with the commands that run them. */
  leftOut: { tests: string[]; commands: string[] };
  /** One-line notes for the answer. */
  notes: string[];
  /** What a test file took in the newest earlier run that ran to an end (`testFileCosts`). */
  earlier: (test: string) => number | undefined;
}

/** What one test file is taken to cost when no earlier run says. */
export const DEFAULT_TEST_FILE_MS = 500;

export async function chooseTests(
  opened: Project,
  paths: readonly string[],
  options: { write?: boolean; runners?: readonly DetectedRunner[] } = {},
): Promise<ChosenTests> {
  // Nothing runs while the tests are chosen, so the project's folders and manifests are read
  // once: runner detection walks up from every changed file and asks the same ones each time.
  const project: Project = { ...opened, view: memoView(opened.view) };
  const base = {
    overrides: project.config.runners,
    extraTestPatterns: project.config.file_classes.test,
  };
  const targets = paths.map((path) => ({ kind: "file" as const, path }));
  if (project.config.select === "named")
    return {
      plan: planRun(project.view, targets, base),
      leftOut: { tests: [], commands: [] },
      notes: [],
      earlier: testFileCosts(readRunCosts(project) ?? []).earlier,
    };

  const selection = await selectRelated(project, paths, {
    write: options.write ?? true,
    ...(options.runners === undefined ? {} : { runners: options.runners }),
  });
  const budgetMs = project.config.verify_budget_seconds * 1000;
  const costs = testFileCosts(readRunCosts(project) ?? []);
  const cut = cutToBudget(
    withoutAggregators(selection.related, (path) => project.view.readText(path)),
    budgetMs,
    costs.estimate,
  );
  const related = new Map([...cut.kept].map(([file, tests]) => [file, tests.map((t) => t.path)]));
  const plan = planRun(project.view, targets, {
    ...base,
    related,
    suggested: selection.suggested,
    ...(selection.configs === undefined ? {} : { configs: selection.configs }),
  });
  const notes = [...selection.notes];
  // Tests left out of a changed runner config's suite: the command is the suite's own.
  const left = new Set(cut.leftOut);
  const suites = new Set(
    [...selection.related.values()]
      .flat()
      .filter((test) => test.evidence === "config" && left.has(test.path))
      .map((test) => test.path),
  );
  const leftOutCommands = commandsFor(plan.runs, cut.leftOut, suites, project.view);
  if (cut.leftOut.length > 0) {
    notes.push(
      `tailtest: ${cut.leftOut.length} more related test file(s) were left out of this run (estimated over verify_budget_seconds = ${project.config.verify_budget_seconds}); run them with: ${leftOutCommands.join(" ; ")}`,
    );
  }
  if (project.config.select === "all") {
    const runners = uniqueRunners(plan.runs);
    const suites = planSuites(project.view, runners).runs.map((run) => {
      const own = plan.runs.find(
        (planned) =>
          planned.runner.id === run.runner.id &&
          planned.runner.package_dir === run.runner.package_dir,
      );
      return own === undefined
        ? run
        : {
            ...run,
            sources: own.sources,
            ...(own.related === undefined ? {} : { related: own.related }),
          };
    });
    return {
      plan: { ...plan, runs: suites },
      selection,
      leftOut: { tests: [], commands: [] },
      notes: selection.notes,
      earlier: costs.earlier,
    };
  }
  return {
    plan,
    selection,
    leftOut: { tests: cut.leftOut, commands: leftOutCommands },
    notes,
    earlier: costs.earlier,
  };
}

function uniqueRunners(runs: readonly RunPlan[]): DetectedRunner[] {
  const seen = new Map<string, DetectedRunner>();
  for (const run of runs) seen.set(`${run.runner.id}\u0000${run.runner.package_dir}`, run.runner);
  return [...seen.values()];
}

/**
 * The related tests less the test files that only import other selected test files
 * (`test/index.js` of `import './a.js'` lines, as the unified ecosystem's packages run them):
 * such a file has no test of its own, and running it beside the files it imports ran each of
 * their tests twice. One that imports a test not selected for the same file, or holds anything
 * else, stays; so does a changed test file itself.
 */
export function withoutAggregators(
  related: ReadonlyMap<string, readonly RelatedTest[]>,
  readText: (path: string) => string | undefined,
): Map<string, RelatedTest[]> {
  const imports = new Map<string, string[] | undefined>();
  // The test files a file imports when it does nothing else, else undefined.
  const onlyImports = (path: string): string[] | undefined => {
    if (imports.has(path)) return imports.get(path);
    const lines = /\.[cm]?[jt]s$/.test(path)
      ? (readText(path) ?? "")
          .replace(/\/\*[\s\S]*?\*\//g, "")
          .split("\n")
          .map((line) => line.replace(/\/\/.*$/, "").trim())
          .filter((line) => line !== "")
      : [];
    const specs = lines.map(
      (line) => /^(?:import\s*|require\(\s*)["']\.\/([^"']+)["']\)?;?$/.exec(line)?.[1],
    );
    const found =
      specs.length > 0 && specs.every((spec) => spec !== undefined)
        ? specs.map((spec) => joinRel(dirnameRel(path), spec ?? ""))
        : undefined;
    imports.set(path, found);
    return found;
  };
  return new Map(
    [...related].map(([file, tests]) => {
      const selected = new Set(tests.map((test) => test.path));
      return [
        file,
        tests.filter(
          (test) =>
            test.evidence === "self" ||
            !(onlyImports(test.path)?.every((imported) => selected.has(imported)) ?? false),
        ),
      ];
    }),
  );
}

/**
 * Keeps every file's most specific tests (itself, its named test, and at least its best one) and
 * then the rest, best first across all files, while the estimate stays inside the budget.
 */
export function cutToBudget(
  related: ReadonlyMap<string, readonly RelatedTest[]>,
  budgetMs: number,
  cost: (test: string) => number,
): { kept: Map<string, RelatedTest[]>; leftOut: string[] } {
  const kept = new Map<string, RelatedTest[]>();
  const chosen = new Set<string>();
  let total = 0;
  const take = (file: string, test: RelatedTest): void => {
    const list = kept.get(file) ?? [];
    list.push(test);
    kept.set(file, list);
    if (!chosen.has(test.path)) {
      chosen.add(test.path);
      total += cost(test.path);
    }
  };
  // Across files, a test keeps the name tie-break it had in its own file's list.
  const rest: [file: string, test: RelatedTest, name: number][] = [];
  for (const [file, tests] of related) {
    kept.set(file, []);
    const ranks = nameRanks(
      file,
      tests.map((test) => test.path),
    );
    tests.forEach((test, index) => {
      if (index === 0 || test.evidence === "self" || test.evidence === "name") take(file, test);
      else rest.push([file, test, ranks.get(test.path) ?? 1]);
    });
  }
  rest.sort((a, b) => compareRelated(a[1], b[1], a[2], b[2]));
  const leftOut = new Set<string>();
  for (const [file, test] of rest) {
    if (chosen.has(test.path) || total + cost(test.path) <= budgetMs) take(file, test);
    else leftOut.add(test.path);
  }
  for (const path of chosen) leftOut.delete(path);
  return { kept, leftOut: [...leftOut].sort() };
}

/**
 * What each test file took in the newest earlier run that ran to an end (`testFileCosts`), for a
 * run outside the end of a turn (a strict claim's, a tdd cycle's) to take the hang bound too.
 */
export function earlierTestFileTimes(project: Project): (test: string) => number | undefined {
  return testFileCosts(readRunCosts(project) ?? []).earlier;
}

/** How many of the newest runs say what a test file costs. */
const COST_RUNS = 50;

/**
 * What `testFileCosts` reads of a run in `.tailtest/runs.json`: its time, its count of test
 * files and the files of the tests it kept. The log holds up to `RUN_LOG_CAP` runs of every
 * field (~2.6 MB at the cap); the whole schema is checked by whoever writes the log.
 */
const RunCostSchema = z.object({
  status: z.optional(z.string()),
  duration_ms: z.number().check(z.minimum(0)),
  test_files: z.optional(z.number().check(z.int(), z.minimum(0))),
  tests: z.array(
    z.object({ file: z.string(), duration_ms: z.optional(z.number().check(z.minimum(0))) }),
  ),
});
const RunCostLogSchema = z.object({ version: z.literal(1), runs: z.array(z.unknown()) });

/**
 * The newest runs' costs, or undefined when there is no log or it is not one: only the runs
 * that count are checked, and only for what counts.
 */
function readRunCosts(project: Project): z.infer<typeof RunCostSchema>[] | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(runLogFile(project).path, "utf8"));
  } catch {
    return undefined;
  }
  const log = z.safeParse(RunCostLogSchema, json);
  if (!log.success) return undefined;
  const runs = z.safeParse(z.array(RunCostSchema), log.data.runs.slice(-COST_RUNS));
  return runs.success ? runs.data : undefined;
}

/**
 * Per test file, what earlier runs suggest it costs: a run's time shared by its test files
 * (`estimate`, the typical share for a file no run kept); and what it took in the newest run
 * that ran to an end (`earlier`, undefined when none did): at least its kept tests' own times,
 * which the log keeps for the slowest, so a slow file in a large fast run is not taken for a
 * fast one.
 */
export function testFileCosts(runs: readonly z.infer<typeof RunCostSchema>[]): {
  estimate: (test: string) => number;
  earlier: (test: string) => number | undefined;
} {
  const perFile = new Map<string, number>();
  const ended = new Map<string, number>();
  const shares: number[] = [];
  for (const run of runs) {
    const files = [...new Set(run.tests.map((test) => test.file))];
    // The kept tests are capped: the run's own count of test files divides its time.
    const count = run.test_files ?? files.length;
    if (count === 0) continue;
    const share = run.duration_ms / count;
    shares.push(share);
    for (const file of files) perFile.set(file, share);
    // A run stopped or broken says nothing of how long its files take when they work.
    if (run.status !== "passed" && run.status !== "failed") continue;
    const own = new Map<string, number>();
    for (const test of run.tests)
      own.set(test.file, (own.get(test.file) ?? 0) + (test.duration_ms ?? 0));
    for (const file of files) ended.set(file, Math.max(share, own.get(file) ?? 0));
  }
  shares.sort((a, b) => a - b);
  const typical =
    shares.length === 0
      ? DEFAULT_TEST_FILE_MS
      : (shares[Math.floor(shares.length / 2)] ?? DEFAULT_TEST_FILE_MS);
  return {
    estimate: (test) => perFile.get(test) ?? typical,
    earlier: (test) => ended.get(test),
  };
}

/**
 * The shell commands that run the left-out tests, one per runner and package: its whole suite
 * when one of them was left out of a changed config's suite (`suites`), else the files.
 */
function commandsFor(
  runs: readonly RunPlan[],
  tests: readonly string[],
  suites: ReadonlySet<string> = new Set(),
  view?: ProjectView,
): string[] {
  if (tests.length === 0) return [];
  const commands: string[] = [];
  for (const run of runs) {
    const pkg = run.runner.package_dir;
    const mine = tests.filter((test) => pkg === "" || test.startsWith(`${pkg}/`));
    if (mine.length === 0) continue;
    const whole = mine.some((test) => suites.has(test));
    commands.push(shellCommandForTestFiles(run.runner, whole ? [] : mine, view));
  }
  return commands;
}
