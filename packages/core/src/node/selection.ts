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
import { detectLanguage } from "../languages.ts";
import type { RelatedTest } from "../selection/related.ts";
import type { DetectedRunner } from "../runners.ts";
import {
  BY_PACKAGE,
  IMPORT_HOPS,
  packageTests,
  SELECTABLE,
  selectOne,
  shapesOf,
  type GraphView,
} from "./covering.ts";
import {
  advanceGraph,
  contextOf,
  importGraphFile,
  isGraphSource,
  readFileImports,
} from "./impact.ts";
import type { Project } from "./project.ts";
import { readState, updateState } from "./store.ts";

export { IMPORT_HOPS };

/** The graph being worked on, as `selectOne` reads it. */
function graphView(graph: ImportGraph, complete: boolean): GraphView {
  return {
    files: graph.files,
    complete,
    importers: (rel) =>
      idOfFile(graph, rel) === undefined ? undefined : findImporters(graph, rel, IMPORT_HOPS),
  };
}

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
  const shapes = shapesOf(project, options.runners);
  const view = graphView(graph, selection.complete);
  for (const file of selectable) {
    const language = detectLanguage(file);
    if (language === undefined) continue;
    const found = selectOne(project, view, shapes, file, language);
    selection.related.set(file, found.related);
    if (found.suggested !== undefined) selection.suggested.set(file, found.suggested);
  }
  return selection;
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
