import { createBudget, type Budget } from "../analysis/budget.ts";
import {
  addFile,
  findImporters,
  graphProgress,
  idOfFile,
  importsChanged,
  isGraphComplete,
  setFileImports,
  unpackGraph,
  packGraph,
  type ImportGraph,
} from "../analysis/import-graph.ts";
import { loadJsLexers } from "../analysis/js-module.ts";
import { baseName, detectLanguage, type Language } from "../languages.ts";
import { dirnameRel, joinRel } from "../project-view.ts";
import { mentions, mentionTokens, relatedTests, type RelatedTest } from "../selection/related.ts";
import { suiteShape, type TestSuiteShape } from "../selection/suite.ts";
import { askedKey, askRunners } from "./runner-lists.ts";
import { suggestTestPath } from "../selection/suggest.ts";
import {
  detectProjectRunners,
  findTestTarget,
  resolveRunner,
  runnerLabel,
  type DetectedRunner,
} from "../runners.ts";
import {
  advanceGraph,
  contextOf,
  importGraphFile,
  isGraphSource,
  readFileImports,
} from "./impact.ts";
import type { Project } from "./project.ts";
import { readState, updateState } from "./store.ts";

/** How far import chains are followed from a changed file to the tests that load it. */
export const IMPORT_HOPS = 12;

/** What selection found for the files of one turn. */
export interface Selection {
  /** Per changed file (graph languages only): its related tests, best first. */
  related: Map<string, RelatedTest[]>;
  /** Per changed file without any related test: where the project would keep its test. */
  suggested: Map<string, string>;
  /** One-line notes for the answer: an import graph cut short, a shape that could not be read. */
  notes: string[];
  /** Whether the import graph was complete when the tests were chosen. */
  complete: boolean;
}

const SELECTABLE: ReadonlySet<Language> = new Set(["python", "javascript", "typescript"]);
/** Languages whose tests are found by their package's layout, not by an import graph. */
const BY_PACKAGE: ReadonlySet<Language> = new Set(["go", "rust"]);

/** Whether selection by imports applies to a file's language (Python, JS, TS). */
export function isSelectable(rel: string): boolean {
  const language = detectLanguage(rel);
  return language !== undefined && (SELECTABLE.has(language) || BY_PACKAGE.has(language));
}

export interface SelectOptions {
  /** Milliseconds the import graph's build may take now (the rest carries on next time). */
  graphMs?: number;
  clock?: () => number;
  /** Write the graph back (the end of a turn, `run`); `explain` only reads. */
  write?: boolean;
  /** The project's runners when already known (the session detected them at its start). */
  runners?: readonly DetectedRunner[];
  /** Only runners' test lists asked before (`runner-lists.ts`): no runner is started. */
  cachedLists?: boolean;
}

/**
 * The related tests of changed files: the project's import graph (`.tailtest/import-graph.json`)
 * carried on within a time box and updated with the changed files' own imports, the suite's test
 * files as each runner sees them, then `relatedTests` per file.
 */
export async function selectRelated(
  project: Project,
  files: readonly string[],
  options: SelectOptions = {},
): Promise<Selection> {
  const selection: Selection = {
    related: new Map(),
    suggested: new Map(),
    notes: [],
    complete: true,
  };
  for (const file of files) {
    const language = detectLanguage(file);
    if (language === undefined || !BY_PACKAGE.has(language)) continue;
    const related = packageTests(project, file, language);
    if (related !== undefined) selection.related.set(file, related);
  }
  const selectable = files.filter((file) => {
    const language = detectLanguage(file);
    return language !== undefined && SELECTABLE.has(language);
  });
  if (selectable.length === 0) return selection;
  await loadJsLexers();
  const budget = createBudget(options.graphMs ?? 3000, options.clock ?? (() => performance.now()));
  const graph = await currentGraph(project, selectable, budget, options.write ?? true);
  selection.complete = isGraphComplete(graph);
  if (!selection.complete) {
    const progress = graphProgress(graph);
    selection.notes.push(
      `tailtest: the import graph is still being built (${progress.read} of ${progress.total} files read); tests that import the changed files from the rest are not selected yet.`,
    );
  }
  const shapes = await shapesOf(project, options, selection.notes);
  for (const file of selectable) selectOne(project, graph, shapes, file, selection);
  return selection;
}

/** One Python/JS/TS file's related tests (or, with none, where its first test goes). */
function selectOne(
  project: Project,
  graph: ImportGraph,
  shapes: readonly RunnerShape[],
  file: string,
  selection: Selection,
): void {
  const language = detectLanguage(file);
  if (language === undefined) return;
  const family = shapes.filter((shape) => shape.runner.languages.includes(language));
  const own = resolveRunner(project.view, file, language, project.config.runners).runner;
  if (own !== undefined && !family.some((shape) => sameRunner(shape.runner, own)))
    family.push({ runner: own, shape: suiteShape(project.view, own) });
  const tests = graph.files.filter(
    (rel) => sameFamily(rel, language) && family.some(({ shape }) => shape.isTest(rel)),
  );
  const testSet = new Set(tests);
  const isTest = (rel: string): boolean =>
    testSet.has(rel) || family.some(({ shape }) => shape.isTest(rel));
  const isSupport = (rel: string): boolean =>
    !isTest(rel) && family.some(({ shape }) => shape.isSupport(rel));
  // A test deleted since the graph saw it is not run (a runner fails on a missing path).
  const related = relatedTests({
    file,
    tests,
    isTest,
    isSupport,
    importers: (rel) =>
      idOfFile(graph, rel) === undefined ? undefined : findImporters(graph, rel, IMPORT_HOPS),
  }).filter((test) => test.path === file || project.view.exists(test.path));
  // A graph still being built may not list every test yet: the name-matched test on disk
  // still counts, so an unfinished graph never makes a tested file look untested.
  if (related.length === 0 && own !== undefined && !selection.complete) {
    const named = findTestTarget(project.view, own, file);
    if (named.kind === "file" && named.exists && named.path !== file)
      related.push({ path: named.path, evidence: "name", detail: "named after it", hops: 0 });
  }
  if (related.length === 0 && !isTest(file)) related.push(...mentionedBy(project, file, tests));
  selection.related.set(file, related);
  if (related.length === 0 && own !== undefined && !isTest(file) && !isSupport(file)) {
    const fallback = findTestTarget(project.view, own, file);
    const ownTests = tests.filter((rel) =>
      family.some(({ runner, shape }) => sameRunner(runner, own) && shape.isTest(rel)),
    );
    selection.suggested.set(
      file,
      suggestTestPath({ file, runner: own, tests: ownTests, fallback: fallback.path }),
    );
  }
}

/**
 * Go and Rust tests by their package's layout: a Go file's package is its folder, whose
 * `*_test.go` files are its tests (the name-matched one first); a Rust file's tests are its own
 * `#[cfg(test)]` module and the crate's integration tests (`tests/*.rs`), those that name the
 * module first. Undefined when no runner owns the file (the plan says why).
 */
function packageTests(
  project: Project,
  file: string,
  language: Language,
): RelatedTest[] | undefined {
  const runner = resolveRunner(project.view, file, language, project.config.runners).runner;
  if (runner === undefined) return undefined;
  const view = project.view;
  const stem = baseName(file).replace(/\.(go|rs)$/, "");
  if (language === "go") {
    const dir = dirnameRel(file);
    if (file.endsWith("_test.go"))
      return [{ path: file, evidence: "self", detail: "the changed file is a test", hops: 0 }];
    return view
      .list(dir)
      .filter((name) => name.endsWith("_test.go"))
      .map((name): RelatedTest => {
        const path = joinRel(dir, name);
        return name === `${stem}_test.go`
          ? { path, evidence: "name", detail: `named after ${baseName(file)}`, hops: 0 }
          : { path, evidence: "family", detail: "in the same Go package", hops: 0 };
      })
      .sort(
        (a, b) =>
          Number(b.evidence === "name") - Number(a.evidence === "name") ||
          a.path.localeCompare(b.path),
      );
  }
  const tests = joinRel(runner.package_dir, "tests");
  if (file.startsWith(`${tests}/`))
    return [{ path: file, evidence: "self", detail: "the changed file is a test", hops: 0 }];
  const related: RelatedTest[] = [];
  if (/#\[cfg\(test\)\]/.test(view.readText(file) ?? ""))
    related.push({ path: file, evidence: "self", detail: "its own #[cfg(test)] module", hops: 0 });
  const module = new RegExp(`\\b${stem.replace(/[^\w]/g, "")}\\b`);
  const integration = view
    .list(tests)
    .filter((name) => name.endsWith(".rs"))
    .map((name): RelatedTest => {
      const path = joinRel(tests, name);
      return module.test(view.readText(path) ?? "") && stem !== "lib" && stem !== "main"
        ? { path, evidence: "imports", detail: `names ${stem}`, hops: 1 }
        : { path, evidence: "imports-via", detail: "an integration test of the crate", hops: 2 };
    });
  return [
    ...related,
    ...integration.sort((a, b) => a.hops - b.hops || a.path.localeCompare(b.path)),
  ];
}

/** Tests read for a name when nothing else relates a file, and how long that may take. */
const MENTION_FILES = 3000;
const MENTION_MS = 400;

/** The tests that load a file by name (a template tag library, a string path), nearest first. */
function mentionedBy(project: Project, file: string, tests: readonly string[]): RelatedTest[] {
  const tokens = mentionTokens(file);
  if (tokens.length === 0) return [];
  const deadline = performance.now() + MENTION_MS;
  const found: RelatedTest[] = [];
  for (const test of tests.slice(0, MENTION_FILES)) {
    if (performance.now() > deadline) break;
    const token = mentions(project.view.readText(test) ?? "", tokens);
    if (token !== undefined)
      found.push({ path: test, evidence: "mentions", detail: `names ${token}`, hops: 0 });
  }
  return found;
}

function sameRunner(a: DetectedRunner, b: DetectedRunner): boolean {
  return a.id === b.id && a.package_dir === b.package_dir;
}

function sameFamily(rel: string, language: Language): boolean {
  const other = detectLanguage(rel);
  if (other === undefined) return false;
  if (language === "python") return other === "python";
  return other === "javascript" || other === "typescript";
}

interface RunnerShape {
  runner: DetectedRunner;
  shape: TestSuiteShape;
}

/**
 * Each runner's test files as it sees them; a runner whose config cannot be read as text is
 * asked (`runner-lists.ts`), and what it said, or that it did not answer, is noted.
 */
async function shapesOf(
  project: Project,
  options: SelectOptions,
  notes: string[],
): Promise<RunnerShape[]> {
  const known = options.runners;
  const found = known ?? detectProjectRunners(project.view, 2, project.config.runners);
  const runners = found.map((runner) => {
    const override = runner.languages
      .map((language) => project.config.runners[language]?.command)
      .find((command) => command !== undefined);
    return override === undefined ? runner : { ...runner, command: override };
  });
  const asked = await askRunners(project, runners, { cachedOnly: options.cachedLists === true });
  for (const runner of runners) {
    const answer = asked.get(askedKey(runner));
    if (answer === undefined) continue;
    const where = runner.package_dir === "" ? "" : ` in ${runner.package_dir}/`;
    notes.push(`tailtest: ${runnerLabel(runner.id)}${where}: ${answer.note}.`);
  }
  return runners.map((runner) => ({
    runner,
    shape: suiteShape(project.view, runner, asked.get(askedKey(runner))),
  }));
}

/**
 * The import graph as it stands, carried on within the budget and with the changed files' own
 * imports read again; written back when it changed (and `write`). A graph that cannot be read is
 * rebuilt; one that cannot be written is still used for this answer.
 */
async function currentGraph(
  project: Project,
  changed: readonly string[],
  budget: Budget,
  write: boolean,
): Promise<ImportGraph> {
  const file = importGraphFile(project);
  const seen = await readState(file);
  let graph = unpackGraph(seen.value);
  if (isGraphComplete(graph) && !needsUpdate(project, graph, changed)) return graph;
  if (!write) {
    advanceGraph(project, graph, budget);
    refresh(project, graph, changed);
    return graph;
  }
  try {
    await updateState(file, (state) => {
      graph = unpackGraph(state);
      if (!isGraphComplete(graph)) advanceGraph(project, graph, budget);
      refresh(project, graph, changed);
      return { value: packGraph(graph), result: undefined };
    });
  } catch {
    advanceGraph(project, graph, budget);
    refresh(project, graph, changed);
  }
  return graph;
}

function needsUpdate(project: Project, graph: ImportGraph, changed: readonly string[]): boolean {
  const context = contextOf(graph);
  return changed.some((rel) => {
    if (!isGraphSource(rel)) return false;
    const exists = project.view.exists(rel);
    if (!exists)
      return idOfFile(graph, rel) !== undefined && graph.imports[idOfFile(graph, rel) ?? 0] !== "";
    const targets = readFileImports(project, rel, context);
    return importsChanged(graph, rel, targets ?? []);
  });
}

function refresh(project: Project, graph: ImportGraph, changed: readonly string[]): void {
  // New files join first, so a changed test's import of a file created in the same turn resolves.
  for (const rel of changed)
    if (isGraphSource(rel) && project.view.exists(rel)) addFile(graph, rel);
  const context = contextOf(graph);
  for (const rel of changed) {
    if (!isGraphSource(rel)) continue;
    if (!project.view.exists(rel)) {
      if (idOfFile(graph, rel) !== undefined) setFileImports(graph, rel, []);
      continue;
    }
    setFileImports(graph, rel, readFileImports(project, rel, context) ?? []);
  }
}
