import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  inspectEdit,
  memoView,
  openProject,
  renderQueuedNote,
  runnerLabel,
  selectRelated,
  type EditInsight,
  type Language,
  type ScoreInputs,
  type Selection,
} from "@tailtest/core/node/explain";

export interface ExplainOptions {
  root: string;
  json: boolean;
}

/**
 * What tailtest would do with each file if an agent edited it now, and which tests the end of
 * the turn would run for it with the evidence for each; writes nothing.
 */
export async function explainFiles(
  files: readonly string[],
  options: ExplainOptions,
): Promise<string> {
  // One pass over a project that does not change meanwhile (explain writes nothing): runner
  // detection, the filter and the selection ask the same manifests and folders again and again.
  const opened = openProject(options.root);
  const project = { ...opened, view: memoView(opened.view) };
  // A file that is not there is said so: what follows is what tailtest would do if it were.
  const insights = files.map((file) => ({
    ...inspectEdit(project, file),
    exists: existsSync(resolve(options.root, file)),
  }));
  // Not `performance.now()`: the first use of `performance` loads node's perf_hooks.
  const clock = (): number => Number(process.hrtime.bigint()) / 1e6;
  const started = clock();
  const cpuBefore = cpuMs();
  const selectable = insights
    .filter((insight) => insight.verdict.queue || insight.runOnly === true)
    .map((insight) => insight.path);
  const selection =
    project.config.select === "named"
      ? undefined
      : await selectRelated(project, selectable, { write: false, clock });
  const selectionMs = Math.round(clock() - started);
  const selectionCpuMs = Math.round(cpuMs() - cpuBefore);
  if (options.json) {
    const withTests = insights.map((insight) => ({
      ...insight,
      ...relatedOf(insight, selection),
    }));
    return `${JSON.stringify({ files: withTests, selection_ms: selectionMs, selection_cpu_ms: selectionCpuMs, selection_notes: selection?.notes ?? [], config_problems: project.configProblems }, null, 2)}\n`;
  }
  const blocks = insights.map((insight) =>
    renderInsight(insight, relatedOf(insight, selection), insight.exists),
  );
  const problems = project.configProblems.map((line) => `${line}\n`).join("");
  // How the test files were known when a runner had to be asked (or did not answer).
  const notes = (selection?.notes ?? []).map((line) => `${line}\n`).join("");
  return `${problems}${blocks.join("\n")}${notes === "" ? "" : `\n${notes}`}`;
}

/**
 * The CPU time this process and the children it has waited for (git) have used, in ms: unlike
 * wall time, a busy machine does not stretch it. Children's time comes from `/proc/self/stat`
 * (in ticks of 10 ms) where there is one.
 */
function cpuMs(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // After the command's name: state is field 3, cutime and cstime fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    children = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // not Linux: the process's own time only
  }
  return (own.user + own.system) / 1000 + (Number.isFinite(children) ? children : 0);
}

/** What the complexity score was computed from, each count before its cap. */
function renderScoreInputs(inputs: ScoreInputs): string {
  const yes = (value: boolean): string => (value ? "yes" : "no");
  return [
    `path words: ${inputs.pathTerms.join(", ") || "none"}`,
    `HTTP: ${yes(inputs.http)}`,
    `DB: ${yes(inputs.db)}`,
    `branches: ${inputs.branches} (4 points at most)`,
    `public functions: ${inputs.publicFunctions} (5 points at most)`,
    `code read: ${inputs.codeChars} of ${inputs.contentChars} characters`,
  ].join("; ");
}

interface RelatedView {
  related_tests?: { path: string; evidence: string; detail: string }[];
  suggested_test?: string;
}

function relatedOf(insight: EditInsight, selection: Selection | undefined): RelatedView {
  const related = selection?.related.get(insight.path);
  if (related === undefined) return {};
  // A file not worth a test of its own shows its tests only when it has some.
  if (!insight.verdict.queue && related.length === 0) return {};
  const suggested = selection?.suggested.get(insight.path);
  return {
    related_tests: related.map(({ path, evidence, detail }) => ({ path, evidence, detail })),
    ...(suggested === undefined ? {} : { suggested_test: suggested }),
  };
}

/** The related tests, one row each with its evidence. */
function relatedRows(related: RelatedView): [string, string][] {
  const tests = related.related_tests;
  if (tests === undefined) return [];
  if (tests.length === 0)
    return [["related", `none; a first test goes to ${related.suggested_test ?? "?"}`]];
  const rows: [string, string][] = tests
    .slice(0, 20)
    .map((test, index) => [
      index === 0 ? "related" : "",
      `${test.path} (${test.evidence}: ${test.detail})`,
    ]);
  if (tests.length > 20) rows.push(["", `… and ${tests.length - 20} more`]);
  return rows;
}

/**
 * The tests an edit's note names: not a Go program's own package, which the end of a turn only
 * builds (no test reaches it), as the hook's note does not.
 */
function coveringTests<T extends { path: string; evidence: string }>(
  language: Language,
  tests: readonly T[],
): T[] {
  return tests.filter(
    (test) => !(language === "go" && test.evidence === "self" && !test.path.endsWith("_test.go")),
  );
}

/** The depth, the score's inputs and the note the agent would read. */
function depthRows(
  insight: EditInsight,
  language: Language,
  depth: NonNullable<EditInsight["depth"]>,
  related: RelatedView,
): [string, string][] {
  const signals = depth.signals.map((s) => `+${s.points} ${s.label}`).join(" ") || "no signals";
  const how = depth.override ? "raised by complexity" : "as configured";
  const asks = depth.inputs.runtimeCode
    ? `~${depth.scenarios} scenarios`
    : "no runtime code: no scenarios";
  const note = renderQueuedNote({
    path: insight.path,
    status: insight.status ?? "new",
    language,
    target: insight.target,
    runner: insight.runner,
    runnerReason: insight.runnerReason ?? "",
    pendingCount: 1,
    depthNote: depth.note,
    covering:
      related.related_tests === undefined
        ? undefined
        : {
            tests: coveringTests(language, related.related_tests),
            suggested: related.suggested_test,
          },
  });
  return [
    ["depth", `${depth.depth}, ${how} (score ${depth.score}: ${signals}; ${asks})`],
    ["inputs", renderScoreInputs(depth.inputs)],
    ["note", note],
  ];
}

/**
 * A Rust file's own tests, as the related tests found them: its unit tests when it has some;
 * when the selection did not run (no graph, no git), the file is only where they would go.
 */
function inlineState(related: RelatedView, covered: boolean): string {
  const tests = related.related_tests;
  if (tests === undefined) return "inline: its #[cfg(test)] module, if it has one";
  if (tests.some((test) => test.evidence === "self")) return "inline: its own unit tests";
  return covered
    ? "no unit tests of its own; the related tests below cover it"
    : "no unit tests yet: a first one goes in a #[cfg(test)] module in it";
}

/**
 * Queued (a note and a test to write or update), run (a test, its data, example code and the
 * like: no note, but the end of a turn runs the tests that reach it, when there are any), or
 * skipped.
 */
function verdictLine({ verdict, runOnly }: EditInsight, related: RelatedView): string {
  if (verdict.queue) return `queue: ${verdict.reason}`;
  if (runOnly !== true) return `skip (${verdict.kind}): ${verdict.reason}`;
  const tests = related.related_tests ?? [];
  const runs =
    tests.length > 0
      ? "the end of a turn runs the tests below"
      : "no test reaches it now, so the end of a turn runs nothing for it";
  return `run (${verdict.kind}): ${verdict.reason}; not queued, ${runs}`;
}

export function renderInsight(
  insight: EditInsight,
  related: RelatedView = {},
  exists = true,
): string {
  const rows: [string, string][] = [];
  const { verdict } = insight;
  if (!exists)
    rows.push(["warning", "this file does not exist; below is what tailtest would do if it did"]);
  rows.push(["verdict", verdictLine(insight, related)]);
  if (verdict.queue) {
    rows.push([
      "status",
      insight.status === "existing" ? "existing (tracked by git)" : "new (not tracked by git)",
    ]);
    rows.push([
      "runner",
      insight.runner === undefined
        ? `none: ${insight.runnerReason ?? ""}`
        : `${runnerLabel(insight.runner.id)} (${insight.runnerReason ?? ""}): ${insight.runner.command.join(" ")}`,
    ]);
    if (insight.target !== undefined) rows.push(testRow(insight.target, related));
    if (insight.depth !== undefined)
      rows.push(...depthRows(insight, verdict.language, insight.depth, related));
  }
  // The tests the end of a turn would run for it, with the evidence for each.
  rows.push(...relatedRows(related));
  // Last, so the rows above read as before: which rule gave the verdict.
  rows.push(["rule", verdict.rule]);
  return `${insight.path}\n${rows.map(([key, value]) => `  ${key.padEnd(8)}${value}`).join("\n")}\n`;
}

/** The row of the test named after a file: its path and whether it exists or is to write. */
function testRow(
  target: NonNullable<EditInsight["target"]>,
  related: RelatedView,
): [string, string] {
  // A file with no test of its own name may still be covered: say so, as the note does.
  const covered = (related.related_tests ?? []).some((test) => test.evidence !== "self");
  let state = target.exists ? "exists" : "to write";
  if (!target.exists && covered) state = "the related tests below cover it";
  if (target.kind === "inline")
    return ["test", `${target.path} (${inlineState(related, covered)})`];
  // A covered file has none asked for, so no place is made up for one (the runner table's
  // `test/x.test.ts` beside a project whose specs sit next to their sources).
  if (!target.exists && covered) return ["test", `none named after it (${state})`];
  // Where the note and the end of a turn want a first test: the project's own convention.
  const path = target.exists ? target.path : (related.suggested_test ?? target.path);
  return ["test", `${path} (${state})`];
}
