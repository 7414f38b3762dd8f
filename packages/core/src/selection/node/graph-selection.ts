import * as z from "zod/mini";
import { createBudget, type Budget } from "../../analysis/budget.ts";
import {
  addFile,
  findImporters,
  graphProgress,
  GraphIndexSchema,
  idOfFile,
  importsChanged,
  isGraphComplete,
  setFileImports,
  type ImportGraph,
} from "../../analysis/import-graph.ts";
import { loadJsLexers } from "../../analysis/js-module.ts";
import type { ResolveContext } from "../../analysis/resolve.ts";
import { detectLanguage, type Language } from "../../filter/languages.ts";
import {
  dotenvLanguage,
  goDataPackage,
  templateLanguage,
  testDataLanguage,
} from "../../project/test-data.ts";
import { walkFiles } from "../../project/project-view.ts";
import {
  deletedConfigOwner,
  packageJsonRunner,
  runnerConfigOwner,
} from "../../runners/runner-config.ts";
import { headText, packageJsonSettingsChanged } from "./package-json-change.ts";
import { suiteShape } from "../suite.ts";
import type { RelatedTest } from "../related.ts";
import {
  findTestTarget,
  resolveRunner,
  runnerLabel,
  type DetectedRunner,
} from "../../runners/project-runners.ts";
import { doctestPageLanguage } from "../../runners/doctest-pages.ts";
import { askedKey, askRunners } from "../../runners/node/runner-lists.ts";
import {
  BY_PACKAGE,
  IMPORT_HOPS,
  packageTests,
  SELECTABLE,
  selectOne,
  projectRunners,
  shardedView,
  shapesOf,
  type GraphView,
} from "./covering.ts";
import { BrokenShard, readShardedGraph, type ShardedGraph } from "./graph-store.ts";
import {
  advanceGraph,
  contextOf,
  isGraphSource,
  loadGraph,
  readFileImports,
  updateGraph,
  updateGraphShards,
} from "../../analysis/node/impact.ts";
import type { Project } from "../../project/node/project.ts";
import { coldGraphView, sourceIndex } from "./reverse-lookup.ts";

export { IMPORT_HOPS };

/** The graph being worked on, as `selectOne` reads it. */
function graphView(graph: ImportGraph, complete: boolean): GraphView {
  return {
    filesMatching: (pattern) => graph.files.filter((rel) => pattern.test(rel)),
    allFiles: () => graph.files,
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
  /** Per changed (or deleted) runner config: the runner whose suite it selected. */
  configs?: Map<string, DetectedRunner>;
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
  /**
   * Write the graph back (the end of a turn, `run`); `explain` only reads, and does not carry an
   * unfinished graph on (the cold path answers it, and nothing would keep the work).
   */
  write?: boolean;
  /** Milliseconds the cold path (importers searched for, `reverse-lookup.ts`) may take. */
  coldMs?: number;
  /** The project's runners when already known (the session detected them at its start). */
  runners?: readonly DetectedRunner[];
  /** Only runners' test lists asked before (`runner-lists.ts`): no runner is started. */
  cachedLists?: boolean;
}

/**
 * Each runner's test files as it sees them; a runner whose config cannot be read as text is
 * asked for its tests (`runner-lists.ts`, or its cached answer), and what it said is noted: a
 * list it gave is noted when it was asked, not every turn it is reused (a green turn says
 * nothing more than its one line); no list (its defaults used) every time.
 */
async function askedShapes(
  project: Project,
  options: SelectOptions,
  notes: string[],
): Promise<ReturnType<typeof shapesOf>> {
  const runners = projectRunners(project, options.runners);
  const asked = await askRunners(project, runners, { cachedOnly: options.cachedLists === true });
  for (const runner of runners) {
    const answer = asked.get(askedKey(runner));
    if (answer === undefined || (answer.files !== undefined && answer.asked === false)) continue;
    const where = runner.package_dir === "" ? "" : ` in ${runner.package_dir}/`;
    notes.push(`tailtest: ${runnerLabel(runner.id)}${where}: ${answer.note}.`);
  }
  return shapesOf(project, runners, asked);
}

/**
 * The related tests of changed files: the project's import graph (`.tailtest/graph/`) read where
 * the walks go, or carried on within a time box and updated with the changed files' own imports,
 * the suite's test files as each runner sees them, then `relatedTests` per file.
 */
export async function selectRelated(
  project: Project,
  files: readonly string[],
  options: SelectOptions = {},
): Promise<Selection> {
  // The cold search's import lines wait in a temporary file until the files are chosen.
  const opened: { close: () => void }[] = [];
  try {
    return await selectWith(project, files, options, opened);
  } finally {
    for (const view of opened) view.close();
  }
}

async function selectWith(
  project: Project,
  files: readonly string[],
  options: SelectOptions,
  opened: { close: () => void }[],
): Promise<Selection> {
  const selection: Selection = {
    related: new Map(),
    suggested: new Map(),
    notes: [],
    complete: true,
  };
  selectByPackage(project, files, selection);
  selectDoctestPages(project, files, selection);
  const configs = selectByConfig(project, files, selection);
  const languages = new Map<string, Language | undefined>(
    files.map((file) => [
      file,
      detectLanguage(file) ??
        testDataLanguage(project.view, file) ??
        templateLanguage(project.view, file) ??
        dotenvLanguage(project.view, file),
    ]),
  );
  const selectable = files.filter((file) => {
    const language = languages.get(file);
    return language !== undefined && SELECTABLE.has(language) && !configs.has(file);
  });
  if (selectable.length === 0) return selection;
  // The JS lexers (two WebAssembly modules) only when a JS file may be read: a changed one, or
  // any while the graph is not whole (its build and the cold search read the project's files).
  if (selectable.some((file) => languages.get(file) !== "python")) await loadJsLexers();
  const clock = options.clock ?? (() => performance.now());
  const budget = createBudget(options.graphMs ?? 3000, clock);
  const write = options.write ?? true;
  let current = await currentView(project, selectable, budget, write);
  const shapes = await askedShapes(project, options, selection.notes);
  if (!current.complete) await loadJsLexers();
  let cold = current.complete ? undefined : coldView(project, options, clock, opened);
  const chooseAll = (view: GraphView): void => {
    for (const file of selectable) {
      const language = languages.get(file);
      if (language === undefined) continue;
      const found = selectOne(project, view, shapes, file, language);
      selection.related.set(file, found.related);
      if (found.suggested !== undefined) selection.suggested.set(file, found.suggested);
    }
  };
  try {
    chooseAll(cold ?? current.view);
  } catch (error) {
    // A shard the walk reached cannot be used: the graph is read whole (and, when this call
    // writes, the shard moved aside and the graph built again).
    if (!(error instanceof BrokenShard)) throw error;
    current = await wholeView(project, selectable, budget, write);
    if (!current.complete) await loadJsLexers();
    cold = current.complete ? undefined : coldView(project, options, clock, opened);
    chooseAll(cold ?? current.view);
  }
  const view = cold ?? current.view;
  selection.complete = view.complete && cold?.cut() !== true;
  if (!selection.complete) selection.notes.push(unfinishedNote(current, cold, options));
  return selection;
}

/** The most test files a changed runner config selects (its suite's, in listing order). */
const CONFIG_TESTS = 2000;
/** Folders a runner config's suite is not looked for in. */
const NOT_TESTS = new Set(["node_modules", "__pycache__", "venv", "dist", "build", "target"]);

/**
 * A changed runner config (`runnerConfigOwner`: `pytest.ini`, `vitest.config.ts`; a package.json
 * whose runner settings changed since HEAD; a config deleted, `deletedConfigOwner`) selects its
 * suite's test files, up to `CONFIG_TESTS`: no test imports it, and a change to it can break
 * every one of them. Ranked last (evidence `config`), so the time budget cuts them first.
 */
function selectByConfig(
  project: Project,
  files: readonly string[],
  selection: Selection,
): Set<string> {
  const configs = new Set<string>();
  for (const file of files) {
    const runner =
      runnerConfigOwner(project.view, file, project.config.runners) ??
      changedPackageJsonRunner(project, file) ??
      deletedConfigOwner(
        project.view,
        file,
        () => headText(project.root, file),
        project.config.runners,
      );
    if (runner === undefined) continue;
    configs.add(file);
    (selection.configs ??= new Map()).set(file, runner);
    const shape = suiteShape(project.view, runner);
    const pkg = runner.package_dir;
    const within = (path: string): string => (pkg === "" ? path : `${pkg}/${path}`);
    const tests = walkFiles(project.view, pkg, "", {
      depth: 12,
      files: CONFIG_TESTS,
      skip: NOT_TESTS,
      keep: (path) => shape.isTest(within(path)),
    });
    const detail = `runs under ${runnerLabel(runner.id)}'s changed config`;
    selection.related.set(
      file,
      tests.map((path) => ({ path: within(path), evidence: "config", detail, hops: 0 })),
    );
  }
  return configs;
}

/** The runner whose settings a changed package.json changed (its test script, its key). */
function changedPackageJsonRunner(project: Project, file: string): DetectedRunner | undefined {
  const runner = packageJsonRunner(project.view, file, project.config.runners);
  return runner !== undefined && packageJsonSettingsChanged(project, file, runner)
    ? runner
    : undefined;
}

/**
 * A text page the project's pytest runs as doctests (`--doctest-glob=README.md` in `addopts`):
 * the page is its own test, as an edited test file is, and the end of the turn runs it (the plan
 * does). Without this, `explain` said such a page ran nothing.
 */
function selectDoctestPages(
  project: Project,
  files: readonly string[],
  selection: Selection,
): void {
  for (const file of files) {
    if (detectLanguage(file) !== undefined) continue;
    if (doctestPageLanguage(project.view, file, project.config.runners) === undefined) continue;
    selection.related.set(file, [
      { path: file, evidence: "self", detail: "pytest runs its examples as doctests", hops: 0 },
    ]);
  }
}

/** Go and Rust files' tests, by their package's layout. */
function selectByPackage(project: Project, files: readonly string[], selection: Selection): void {
  for (const file of files) {
    // A Go package's data file (`golden/testdata/upper.golden`) runs that package's tests.
    const language =
      detectLanguage(file) ?? (goDataPackage(project.view, file) === undefined ? undefined : "go");
    if (language === undefined || !BY_PACKAGE.has(language)) continue;
    const related = packageTests(project, file, language);
    if (related === undefined) continue;
    selection.related.set(file, related);
    // With none (a Rust module no `mod` declares yet), where its first test goes, for explain.
    if (related.length > 0 || detectLanguage(file) === undefined) continue;
    // A Go package no test reaches (a `cmd/` program) is still compiled by `go test` on its
    // folder, as by the developer's `go test ./...`: an edit that breaks its build fails that run.
    if (language === "go")
      selection.related.set(file, [
        { path: file, evidence: "self", detail: "go test compiles its package", hops: 0 },
      ]);
    const runner = resolveRunner(project.view, file, language, project.config.runners).runner;
    if (runner !== undefined)
      selection.suggested.set(file, findTestTarget(project.view, runner, file).path);
  }
}

/** What an answer says when the graph was not whole (and the search, if any, was cut). */
function unfinishedNote(
  current: CurrentView,
  cold: ReturnType<typeof coldView>,
  options: SelectOptions,
): string {
  const progress = current.progress();
  return cold === undefined
    ? `tailtest: the import graph is still being built (${progress.read} of ${progress.total} files read); tests that import the changed files from the rest are not selected yet.`
    : `tailtest: the import graph is still being built (${progress.read} of ${progress.total} files read) and the search for the changed files' importers was cut short by its time box (${options.coldMs ?? COLD_MS} ms); some tests that import them may not be selected yet.`;
}

/** The cold path's time box: the search for importers while the graph is not whole. */
const COLD_MS = 2000;

/** Before the graph is whole, each file's importers are searched for (`reverse-lookup.ts`). */
function coldView(
  project: Project,
  options: SelectOptions,
  clock: () => number,
  opened: { close: () => void }[],
): ReturnType<typeof coldGraphView> | undefined {
  const budget = createBudget(options.coldMs ?? COLD_MS, clock);
  const index = sourceIndex(project, budget);
  if (index === undefined) return undefined;
  opened.push(index);
  return coldGraphView(project, index, IMPORT_HOPS, budget);
}

/** The graph selection reads, whether it is whole, and how far its build got. */
interface CurrentView {
  view: GraphView;
  complete: boolean;
  progress: () => { read: number; total: number };
}

/**
 * The import graph as it stands. The common turn changes no import: then the sharded graph is
 * read lazily (its index, and the shards of the files a walk reaches), unlocked and unwritten.
 * Otherwise it is read whole, carried on within the budget and updated with the changed files'
 * own imports (`wholeView`).
 */
async function currentView(
  project: Project,
  changed: readonly string[],
  budget: Budget,
  write: boolean,
): Promise<CurrentView> {
  const lazy = readShardedGraph(project);
  if (lazy?.complete === true) {
    try {
      if (!lazyNeedsUpdate(project, lazy, changed)) return lazyView(lazy);
      // An import changed: only the shards its old and new edges live in are read and written.
      if (write && (await updateShards(project, changed))) {
        const updated = readShardedGraph(project);
        if (updated?.complete === true) return lazyView(updated);
      }
    } catch (error) {
      if (!(error instanceof BrokenShard)) throw error;
    }
  }
  return wholeView(project, changed, budget, write);
}

function lazyView(graph: ShardedGraph): CurrentView {
  const total = graph.table.count;
  return { view: shardedView(graph), complete: true, progress: () => ({ read: total, total }) };
}

/** The shard-wise update; false when it could not be made (the graph is then updated whole). */
async function updateShards(project: Project, changed: readonly string[]): Promise<boolean> {
  try {
    return await updateGraphShards(project, changed);
  } catch {
    return false;
  }
}

/** Whether a changed file's imports differ from what the sharded graph holds (or cannot be told). */
function lazyNeedsUpdate(
  project: Project,
  graph: ShardedGraph,
  changed: readonly string[],
): boolean {
  const { table } = graph;
  const index = z.safeParse(
    z.pick(GraphIndexSchema, { aliases: true, python_roots: true, python_scripts: true }),
    graph.index,
  );
  if (!index.success) return true;
  const onDisk = new Map<string, boolean>();
  const context: ResolveContext = {
    files: {
      has: (path) => {
        let found = onDisk.get(path);
        if (found === undefined) {
          found =
            project.view.exists(path) &&
            !project.view.isDirectory(path) &&
            table.idOf(path) !== undefined;
          onDisk.set(path, found);
        }
        return found;
      },
    },
    aliases: index.data.aliases,
    pythonRoots: index.data.python_roots,
    ...(index.data.python_scripts === undefined
      ? {}
      : { pythonScripts: index.data.python_scripts }),
  };
  return changed.some((rel) => {
    if (!isGraphSource(rel)) return false;
    const id = table.idOf(rel);
    if (!project.view.exists(rel)) return id !== undefined && graph.importsLine(id) !== "";
    if (id === undefined) return true;
    const ids: number[] = [];
    for (const target of new Set(readFileImports(project, rel, context) ?? [])) {
      const to = table.idOf(target);
      if (to === undefined) return true;
      if (to !== id) ids.push(to);
    }
    return ids.sort((a, b) => a - b).join(",") !== graph.importsLine(id);
  });
}

/**
 * The import graph read whole, carried on within the budget and with the changed files' own
 * imports read again; written back (only the shards that changed) when it changed and `write`.
 * A graph that cannot be read is rebuilt; one that cannot be written is still used for this
 * answer.
 */
async function wholeView(
  project: Project,
  changed: readonly string[],
  budget: Budget,
  write: boolean,
): Promise<CurrentView> {
  const graph = await currentGraph(project, changed, budget, write);
  const complete = isGraphComplete(graph);
  return { view: graphView(graph, complete), complete, progress: () => graphProgress(graph) };
}

async function currentGraph(
  project: Project,
  changed: readonly string[],
  budget: Budget,
  write: boolean,
): Promise<ImportGraph> {
  let graph = loadGraph(project, false).graph;
  // Building the graph on, or a graph written back (another writer's may be unfinished), reads
  // files of every language.
  if (write || !isGraphComplete(graph)) await loadJsLexers();
  // Each changed file is read and lexed once: what the check read is what the update sets, as
  // long as the graph it was resolved against is the one updated (complete, no file added since).
  const reads = new Map<string, string[] | undefined>();
  const readAgainst = graph.files.length;
  if (isGraphComplete(graph) && !needsUpdate(project, graph, changed, reads)) return graph;
  const reuse = (current: ImportGraph) =>
    isGraphComplete(current) && current.files.length === readAgainst ? reads : undefined;
  if (!write) {
    if (isGraphComplete(graph)) refresh(project, graph, changed, reuse(graph));
    return graph;
  }
  try {
    await updateGraph(project, (stored) => {
      graph = stored;
      const known = reuse(graph);
      if (!isGraphComplete(graph)) advanceGraph(project, graph, budget);
      refresh(project, graph, changed, known);
    });
  } catch {
    advanceGraph(project, graph, budget);
    refresh(project, graph, changed);
  }
  return graph;
}

/** Whether any changed file's imports differ from the graph's; what was read is kept in `reads`. */
function needsUpdate(
  project: Project,
  graph: ImportGraph,
  changed: readonly string[],
  reads: Map<string, string[] | undefined>,
): boolean {
  const context = contextOf(graph);
  return changed.some((rel) => {
    if (!isGraphSource(rel)) return false;
    const exists = project.view.exists(rel);
    if (!exists)
      return idOfFile(graph, rel) !== undefined && graph.imports[idOfFile(graph, rel) ?? 0] !== "";
    const targets = readFileImports(project, rel, context);
    reads.set(rel, targets);
    return importsChanged(graph, rel, targets ?? []);
  });
}

function refresh(
  project: Project,
  graph: ImportGraph,
  changed: readonly string[],
  reads?: ReadonlyMap<string, string[] | undefined>,
): void {
  // New files join first, so a changed test's import of a file created in the same turn resolves.
  const before = graph.files.length;
  for (const rel of changed)
    if (isGraphSource(rel) && project.view.exists(rel)) addFile(graph, rel);
  // A file added changes what imports resolve to: what was read before is read again.
  const known = graph.files.length === before ? reads : undefined;
  const context = contextOf(graph);
  for (const rel of changed) {
    if (!isGraphSource(rel)) continue;
    if (!project.view.exists(rel)) {
      if (idOfFile(graph, rel) !== undefined) setFileImports(graph, rel, []);
      continue;
    }
    const targets =
      known?.has(rel) === true ? known.get(rel) : readFileImports(project, rel, context);
    setFileImports(graph, rel, targets ?? []);
  }
}
