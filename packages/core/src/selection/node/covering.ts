import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { baseName, detectLanguage, type Language } from "../../filter/languages.ts";
import {
  dirnameRel,
  joinRel,
  normalizeRel,
  type ProjectView,
  walkFiles,
} from "../../project/project-view.ts";
import {
  DetectedRunnerSchema,
  detectProjectRunners,
  findTestTarget,
  resolveRunner,
  type DetectedRunner,
} from "../../runners/project-runners.ts";
import {
  doctestImports,
  hasPythonDoctests,
  pytestDoctestFiles,
  pytestRunsDoctests,
} from "../../runners/doctests.ts";
import { cargoLibraryRoot, dependentCrates, hasDocTests } from "../../runners/rust-crates.ts";
import { cargoTestTarget } from "../../runners/shared.ts";
import { vitestRunsInSource } from "../../runners/vitest.ts";
import { goImporterTests } from "./go-importers.ts";
import { importerLevelsOf } from "../importers.ts";
import {
  listedFolder,
  mentions,
  mentionTokens,
  nameWord,
  relatedTests,
  snapshotOwner,
  type RelatedTest,
} from "../related.ts";
import { TEST_DATA_DIRS } from "../../filter/filter.ts";
import { goDataPackage, pythonDotenv, pythonTemplate } from "../../project/test-data.ts";
import { suggestTestPath } from "../suggest.ts";
import { askedKey, suiteShape, type AskedTests, type TestSuiteShape } from "../suite.ts";
import { graphExists, readShardedGraph, type ShardedGraph } from "./graph-store.ts";
import type { EditInsight, Project } from "../../project/node/project.ts";
import { lazy } from "../../util/lazy.ts";

/**
 * The covering path of an edit: which existing tests cover the edited file, for its note, read
 * from the import graph the end of a turn builds (`.tailtest/graph/`, sharded) without building
 * or updating it: the index, then only the shards of the files the walk up the importers reaches.
 * No lexer, resolver or classic zod schema is loaded: the edited file's importers are in the graph
 * already (its own imports do not change who imports it), so the post-edit bundle answers with
 * this (ADR 0010). The end of a turn selects with the same `selectOne` (`graph-selection.ts`), so an
 * edit's note and the tests the turn runs cannot differ.
 */

/** How far import chains are followed from a changed file to the tests that load it. */
export const IMPORT_HOPS = 12;

/** The graph as selection reads it: its files, and who imports a file. */
export interface GraphView {
  /** Whether every file was read: before that, importers may be missing. */
  readonly complete: boolean;
  /** The files that import `rel`, nearest first; undefined for a file the graph does not know. */
  importers(rel: string): readonly (readonly string[])[] | undefined;
  /** The graph's files whose path `pattern` matches, in the graph's order. */
  filesMatching(pattern: RegExp): readonly string[];
  /** Every source file the graph knows (for the rare question that needs them all). */
  allFiles(): readonly string[];
}

/** Whether the edit's note can name the tests that cover it. */
export function hasImportGraph(project: Project): boolean {
  return project.config.select !== "named" && graphExists(project);
}

/**
 * The import graph as the last turn left it, read only and lazily; undefined when there is none
 * or its index cannot be read. A shard that cannot be used throws `BrokenShard` when reached (the
 * end of a turn moves it aside and builds the graph again).
 */
export function readGraphView(project: Project): GraphView | undefined {
  const graph = readShardedGraph(project);
  return graph === undefined ? undefined : shardedView(graph);
}

/** A view of a sharded graph: a walk reads the shards of the ids it reaches. */
export function shardedView(graph: ShardedGraph): GraphView {
  const { table } = graph;
  let all: string[] | undefined;
  return {
    complete: graph.complete,
    importers: (rel) => {
      const id = table.idOf(rel);
      if (id === undefined) return undefined;
      return importerLevelsOf(
        { path: (at) => table.path(at), importers: (at) => graph.importersLine(at) },
        id,
        IMPORT_HOPS,
      );
    },
    filesMatching: (pattern) => table.matching(pattern),
    allFiles: () => (all ??= table.all()),
  };
}

const SessionRunnersSchema = lazy(() => z.looseObject({ runners: z.array(DetectedRunnerSchema) }));

/** The runners the current session detected at its start, if it has started. */
export function sessionRunners(project: Project): DetectedRunner[] | undefined {
  try {
    const json: unknown = JSON.parse(readFileSync(join(project.root, project.sessionPath), "utf8"));
    const parsed = SessionRunnersSchema.safeParse(json);
    return parsed.success ? parsed.data.runners : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The edit's analysis for follow mode's queue: the insight with the tests covering it, read from
 * the graph once for all the call's files. With no graph, or one still being built, the note
 * keeps the name-matched test.
 */
export function coveringAnalysis(): (
  project: Project,
  insight: EditInsight,
) => Promise<EditInsight> {
  let graph: GraphView | undefined | null = null;
  // The project each call is given: it carries the edit's kept test names (follow-edit.ts).
  return (project, insight) => {
    if (!wantsCovering(insight)) return Promise.resolve(insight);
    if (!canSayCovering(project, insight.path))
      return Promise.resolve(graphWouldSay(project, insight.path) ? unknown(insight) : insight);
    graph ??= readGraphView(project);
    return Promise.resolve(withCovering(project, insight, graph));
  };
}

/** A file whose covering tests the import graph finds, when the config lets it. */
function graphWouldSay(project: Project, path: string): boolean {
  const language = detectLanguage(path);
  return language !== undefined && SELECTABLE.has(language) && project.config.select !== "named";
}

/** The insight marked as one whose covering tests are not known yet (the note hedges). */
function unknown(insight: EditInsight): EditInsight {
  return { ...insight, coveringUnknown: true };
}

/** Go and Rust tests follow their package's layout; the others need the import graph. */
function canSayCovering(project: Project, path: string): boolean {
  const language = detectLanguage(path);
  if (language !== undefined && BY_PACKAGE.has(language)) return project.config.select !== "named";
  return hasImportGraph(project);
}

function wantsCovering(insight: EditInsight): boolean {
  if (!insight.verdict.queue || insight.runOnly === true) return false;
  // Rust's target is the file's own test module; the crate's integration tests may cover it.
  return insight.target?.kind === "file" || detectLanguage(insight.path) === "rust";
}

/** The insight with its covering tests from `graph` (unchanged when the graph cannot say). */
export function withCovering(
  project: Project,
  insight: EditInsight,
  graph: GraphView | undefined,
): EditInsight {
  if (!wantsCovering(insight)) return insight;
  const language = detectLanguage(insight.path);
  if (language === undefined) return insight;
  try {
    const found = coveringOf(project, graph, insight.path, language);
    if (found === undefined)
      return graphWouldSay(project, insight.path) && graph?.complete !== true
        ? unknown(insight)
        : insight;
    const tests = found.related.map((test) => ({ path: test.path, evidence: test.evidence }));
    const suggested = found.suggested;
    return { ...insight, covering: { tests, ...(suggested === undefined ? {} : { suggested }) } };
  } catch {
    return insight;
  }
}

/** Go and Rust tests follow their package's layout; the others need the whole graph read. */
function coveringOf(
  project: Project,
  graph: GraphView | undefined,
  file: string,
  language: Language,
): { related: RelatedTest[]; suggested?: string } | undefined {
  if (BY_PACKAGE.has(language))
    return { related: packageTests(project, file, language, "untested") ?? [] };
  if (!SELECTABLE.has(language) || graph === undefined || !graph.complete) return undefined;
  return selectOne(project, graph, shapesOf(project), file, language);
}

/** Languages whose related tests are found through the import graph. */
export const SELECTABLE: ReadonlySet<Language> = new Set(["python", "javascript", "typescript"]);

export interface RunnerShape {
  runner: DetectedRunner;
  shape: TestSuiteShape;
}

/** One Python/JS/TS file's related tests, best first, or (with none) where its first test goes. */
export function selectOne(
  project: Project,
  graph: GraphView,
  shapes: readonly RunnerShape[],
  file: string,
  language: Language,
): { related: RelatedTest[]; suggested?: string } {
  const template = language === "python" ? pythonTemplate(project.view, file) : undefined;
  if (template !== undefined) return { related: renderersTests(project, graph, shapes, template) };
  if (language === "python" && pythonDotenv(project.view, file))
    return { related: dotenvReadersTests(project, graph, shapes, file) };
  // The deadline is read on the walk's first step: the global `performance` loads node's
  // perf_hooks (~12 M instructions, ADR 0010), which an edit that never walks does not pay.
  const walk: Walk = { seen: new Set([file]), deadline: { at: undefined } };
  return selectModule(project, graph, shapes, file, language, walk);
}

/** The modules a question passed through, and when its walk through loaders stops. */
interface Walk {
  seen: ReadonlySet<string>;
  /** Shared by the whole walk; set on its first step. */
  deadline: { at: number | undefined };
}

/** Whether the walk's time is up, starting its clock on the first ask. */
function pastDeadline(deadline: Walk["deadline"]): boolean {
  const now = performance.now();
  deadline.at ??= now + MENTION_MS;
  return now > deadline.at;
}

/**
 * A module's related tests (`selectOne`); `walk`: the modules this question passed through, and
 * when looking through the modules that load it stops (`throughEntries`).
 */
function selectModule(
  project: Project,
  graph: GraphView,
  shapes: readonly RunnerShape[],
  file: string,
  language: Language,
  walk: Walk,
): { related: RelatedTest[]; suggested?: string } {
  const family = shapes.filter((shape) => shape.runner.languages.includes(language));
  const own = resolveRunner(project.view, file, language, project.config.runners).runner;
  if (own !== undefined && !family.some((shape) => sameRunner(shape.runner, own)))
    family.push({ runner: own, shape: suiteShape(project.view, own) });
  const isTest = (rel: string): boolean => family.some(({ shape }) => shape.isTest(rel));
  const isListed = (rel: string): boolean => sameFamily(rel, language) && isTest(rel);
  // Only a test whose path spells the file's name can match it by name; every test is listed
  // only for a question that needs them all (a conftest's scope, mentions, a first test's place).
  let every: string[] | undefined;
  const allTests = (): string[] => (every ??= graph.allFiles().filter(isListed));
  const near = nameWord(file);
  const tests = near === undefined ? allTests() : graph.filesMatching(near).filter(isListed);
  const isSupport = (rel: string): boolean =>
    !isTest(rel) && family.some(({ shape }) => shape.isSupport(rel));
  // A file a runner loads before each of its tests reaches every test of that runner.
  const setupScope = (rel: string): string[] => {
    const loaders = family.filter(({ shape }) => shape.isSetup(rel));
    return loaders.length === 0
      ? []
      : allTests().filter((test) => loaders.some(({ shape }) => shape.isTest(test)));
  };
  const conftests = (): string[] =>
    graph.allFiles().filter((rel) => baseName(rel) === "conftest.py");
  const loaders = folderLoaders(project, allTests, conftests);
  // A test deleted since the graph saw it is not run (a runner fails on a missing path).
  const related = relatedTests({
    file,
    tests,
    allTests,
    isListedTest: isListed,
    isTest,
    isSupport,
    setupScope,
    folderScope: (rel) => (inTestFolder(rel) ? loaders(rel).map((found) => found.path) : []),
    importers: (rel) => graph.importers(rel),
  }).filter((test) => test.path === file || project.view.exists(test.path));
  // A graph still being built may not list every test yet: the name-matched test on disk
  // still counts, so an unfinished graph never makes a tested file look untested.
  if (related.length === 0 && own !== undefined && !graph.complete) {
    const named = findTestTarget(project.view, own, file, project.testNames);
    if (named.kind === "file" && named.exists && named.path !== file)
      related.push({ path: named.path, evidence: "name", detail: "named after it", hops: 0 });
  }
  if (!isTest(file)) addOwnTests(related, project, own, file);
  // Else the modules that load it, whose own tests run it (a JavaScript route, a fastify app).
  const via = (entry: string): RelatedTest[] =>
    walk.seen.has(entry) || walk.seen.size > ENTRY_DEPTH || pastDeadline(walk.deadline)
      ? []
      : selectModule(project, graph, shapes, entry, language, {
          seen: new Set(walk.seen).add(entry),
          deadline: walk.deadline,
        }).related;
  const throughModules = (): RelatedTest[] =>
    language === "python" || isSupport(file)
      ? []
      : throughEntries(project, graph, file, isTest, via);
  if (related.length === 0 && !isTest(file))
    related.push(
      ...loadedOtherwise(project, file, isTest, allTests, conftests, loaders, throughModules),
    );
  else related.push(...appTestsOfSharedPlugin(project, graph, file, isTest, via, related));
  if (related.length === 0 && language === "python" && isSupport(file))
    related.push(...packageImporters(project, file, graph, isListed));
  if (related.length > 0 || own === undefined || isTest(file) || isSupport(file))
    return { related };
  const fallback = findTestTarget(project.view, own, file, project.testNames);
  const ownTests = allTests().filter((rel) =>
    family.some(({ runner, shape }) => sameRunner(runner, own) && shape.isTest(rel)),
  );
  return {
    related,
    suggested: suggestTestPath({ file, runner: own, tests: ownTests, fallback: fallback.path }),
  };
}

/**
 * The tests of a Python package's template: those of the modules that name it
 * (`render_template("blog/index.html")`), directly or through the templates that extend or
 * include it (`{% extends 'base.html' %}`), as far as the mention search's limits read.
 */
function renderersTests(
  project: Project,
  graph: GraphView,
  shapes: readonly RunnerShape[],
  template: { root: string; name: string },
): RelatedTest[] {
  const owner = dirnameRel(template.root);
  const deadline = performance.now() + MENTION_MS;
  const modules = graph
    .allFiles()
    .filter((rel) => rel.endsWith(".py") && (owner === "" || rel.startsWith(`${owner}/`)))
    .slice(0, MENTION_FILES);
  const templates = walkFiles(project.view, template.root, "", {
    files: MENTION_FILES,
    depth: 8,
    keep: (rel) => pythonTemplate(project.view, joinRel(template.root, rel)) !== undefined,
  });
  const quoted = (name: string): RegExp =>
    new RegExp(`['"]${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}['"]`);
  const renderers = new Set<string>();
  const names = [template.name];
  const seen = new Set(names);
  for (let i = 0; i < names.length && i < 50 && performance.now() < deadline; i += 1) {
    const named = quoted(names[i] ?? "");
    for (const rel of modules)
      if (!renderers.has(rel) && named.test(project.view.readText(rel) ?? "")) renderers.add(rel);
    for (const other of templates)
      if (
        !seen.has(other) &&
        named.test(project.view.readText(joinRel(template.root, other)) ?? "")
      ) {
        seen.add(other);
        names.push(other);
      }
  }
  return readersTests(project, graph, shapes, renderers, "rendered by");
}

/** The tests of the Python modules that read a file (`readers`), each by its fewest hops. */
function readersTests(
  project: Project,
  graph: GraphView,
  shapes: readonly RunnerShape[],
  readers: Iterable<string>,
  verb: string,
  self?: string,
): RelatedTest[] {
  const found = new Map<string, RelatedTest>();
  for (const reader of readers)
    for (const test of selectOne(project, graph, shapes, reader, "python").related) {
      const known = found.get(test.path);
      if (known !== undefined && known.hops <= test.hops + 1) continue;
      let detail = `${verb} ${reader} (${test.detail})`;
      if (test.evidence === "imports") detail = `${verb} ${reader}, which it imports`;
      // "reads it through app/core/config.py, which it imports through the project's modules
      // (2 hops)", not a parenthesis inside a parenthesis.
      else if (test.detail.startsWith("imports it through "))
        detail = `${verb} ${reader}, which it ${test.detail.replace(/^imports it /, "imports ")}`;
      if (test.path === reader && self !== undefined) detail = self;
      found.set(test.path, {
        path: test.path,
        evidence: "imports-via",
        detail,
        hops: test.hops + 1,
      });
    }
  return [...found.values()];
}

/**
 * A call that reads `.env` as it is given no file (`load_dotenv()`, `load_dotenv(override=True)`):
 * python-dotenv's, django-environ's.
 */
const DOTENV_CALL =
  /\b(?:load_dotenv|dotenv_values|find_dotenv|read_env)\s*\(\s*(?:\)|(?!dotenv_path\b|env_file\b|stream\b)\w+\s*=)/;

/**
 * The tests of a Python project's dotenv file (`pythonDotenv`): those of the modules in its
 * folder and below that name it (`Config(BASE_DIR / ".env")`, `env_file=".env.test"`) or, for
 * `.env` itself, call python-dotenv's `load_dotenv()`, which reads it by default; a test or
 * conftest.py that does so runs with its own tests. As far as the mention search's limits read.
 */
function dotenvReadersTests(
  project: Project,
  graph: GraphView,
  shapes: readonly RunnerShape[],
  file: string,
): RelatedTest[] {
  const owner = dirnameRel(file);
  const name = baseName(file);
  const quoted = new RegExp(`['"/]${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}['"]`);
  const deadline = performance.now() + MENTION_MS;
  const readers: string[] = [];
  for (const rel of graph.allFiles()) {
    if (readers.length >= MENTION_FILES || performance.now() > deadline) break;
    if (!rel.endsWith(".py") || (owner !== "" && !rel.startsWith(`${owner}/`))) continue;
    const text = project.view.readText(rel) ?? "";
    if (quoted.test(text) || (name === ".env" && DOTENV_CALL.test(text))) readers.push(rel);
  }
  return readersTests(project, graph, shapes, readers, "reads it through", "reads it itself");
}

/**
 * A module's own tests first (its doctests, its vitest in-source tests), the text files of
 * examples that import it last.
 */
function addOwnTests(
  related: RelatedTest[],
  project: Project,
  runner: DetectedRunner | undefined,
  file: string,
): void {
  related.unshift(
    ...ownDoctests(project, runner, file),
    ...ownInSourceTests(project, runner, file),
  );
  const known = new Set(related.map((test) => test.path));
  related.push(...docDoctests(project, runner, file).filter((test) => !known.has(test.path)));
}

/**
 * The text files pytest runs as doctests (`--doctest-glob "*.rst"`) whose examples import the
 * file's top-level package (`>>> from sortedcontainers import SortedList` for
 * `src/sortedcontainers/sortedlist.py`), or the file itself when it is a top-level module.
 */
function docDoctests(
  project: Project,
  runner: DetectedRunner | undefined,
  file: string,
): RelatedTest[] {
  if (runner?.id !== "pytest" || !file.endsWith(".py")) return [];
  const dir = runner.package_dir;
  const docs = pytestDoctestFiles(project.view, dir);
  if (docs.length === 0) return [];
  const top = topModule(project.view, file);
  return docs
    .map((doc) => (dir === "" ? doc : `${dir}/${doc}`))
    .filter((doc) => doctestImports(project.view.readText(doc) ?? "").has(top))
    .map((doc) => ({
      path: doc,
      evidence: "imports-via" as const,
      detail: `its examples import ${top}`,
      hops: 1,
    }));
}

/** A Python file's top-level module: its outermost package folder (with an `__init__.py`). */
function topModule(view: ProjectView, file: string): string {
  const parts = file.split("/");
  let top = (parts.at(-1) ?? "").replace(/\.py$/, "");
  for (let at = parts.length - 1; at > 0; at -= 1) {
    const folder = parts.slice(0, at).join("/");
    if (!view.exists(`${folder}/__init__.py`)) break;
    top = parts[at - 1] ?? top;
  }
  return top;
}

/** A module whose doctests the project runs with pytest (`--doctest-modules`) is its own test. */
function ownDoctests(
  project: Project,
  runner: DetectedRunner | undefined,
  file: string,
): RelatedTest[] {
  const dir = runner?.package_dir ?? "";
  const rel = dir === "" ? file : file.slice(dir.length + 1);
  if (runner?.id !== "pytest" || !pytestRunsDoctests(project.view, dir, rel)) return [];
  if (!hasPythonDoctests(project.view.readText(file) ?? "")) return [];
  return [{ path: file, evidence: "self", detail: "its own doctests", hops: 0 }];
}

/** A source file whose own in-source tests vitest runs (`includeSource`) is its own test. */
function ownInSourceTests(
  project: Project,
  runner: DetectedRunner | undefined,
  file: string,
): RelatedTest[] {
  if (runner?.id !== "vitest") return [];
  const dir = runner.package_dir;
  const rel = dir === "" ? file : file.slice(dir.length + 1);
  const text = project.view.readText(file) ?? "";
  if (!vitestRunsInSource(project.view, dir, rel, text)) return [];
  return [{ path: file, evidence: "self", detail: "its own in-source tests", hops: 0 }];
}

/** The exported functions and types a Go file declares (`func NewRandom`, `func (u UUID) URN`). */
function goDeclarations(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/^(?:func\s+(?:\([^)]*\)\s*)?|type\s+)([A-Z]\w*)/gm))
    if (match[1] !== undefined) names.add(match[1]);
  return [...names];
}

/** Languages whose tests are found by their package's layout, not by an import graph. */
export const BY_PACKAGE: ReadonlySet<Language> = new Set(["go", "rust"]);

/**
 * Go and Rust tests by their package's layout: a Go file's package is its folder, whose
 * `*_test.go` files are its tests (the name-matched one first), then the tests of the packages
 * importing it (go-importers.ts); a Rust file's tests are its own
 * `#[cfg(test)]` module and the crate's integration tests (`tests/*.rs`), those that name the
 * module first. Undefined when no runner owns the file (the plan says why).
 */
export function packageTests(
  project: Project,
  file: string,
  language: Language,
  /** Go: the importing packages' tests always, or only when the package has none. */
  importers: "always" | "untested" = "always",
): RelatedTest[] | undefined {
  const runner = resolveRunner(project.view, file, language, project.config.runners).runner;
  if (runner === undefined) return undefined;
  const view = project.view;
  const stem = baseName(file).replace(/\.(go|rs)$/, "");
  if (language === "go") {
    const data = file.endsWith(".go") ? undefined : goDataPackage(view, file);
    if (data !== undefined) return goDataTests(view, runner.package_dir, data, file);
    const dir = dirnameRel(file);
    if (file.endsWith("_test.go"))
      return [{ path: file, evidence: "self", detail: "the changed file is a test", hops: 0 }];
    // The package's tests that call what the file declares come before the rest.
    const declared = goDeclarations(view.readText(file) ?? "");
    const calls = (path: string): boolean => {
      const text = view.readText(path) ?? "";
      return declared.some((name) => new RegExp(`\\b${name}\\b`).test(text));
    };
    const own = view
      .list(dir)
      .filter((name) => name.endsWith("_test.go"))
      .map((name): RelatedTest & { uses: boolean } => {
        const path = joinRel(dir, name);
        return name === `${stem}_test.go`
          ? { path, evidence: "name", detail: `named after ${baseName(file)}`, hops: 0, uses: true }
          : {
              path,
              evidence: "family",
              detail: "in the same Go package",
              hops: 0,
              uses: calls(path),
            };
      })
      .sort(
        (a, b) =>
          Number(b.evidence === "name") - Number(a.evidence === "name") ||
          Number(b.uses) - Number(a.uses) ||
          a.path.localeCompare(b.path),
      )
      .map(({ path, evidence, detail, hops }): RelatedTest => ({ path, evidence, detail, hops }));
    // The tests of the packages importing this one: read from the module's files, so an edit's
    // note (`untested`) reads them only for a package with no tests of its own.
    if (importers === "untested" && own.length > 0) return own;
    return [...own, ...goImporterTests(view, runner.package_dir, file, IMPORT_HOPS)];
  }
  const tests = joinRel(runner.package_dir, "tests");
  if (file.startsWith(`${tests}/`)) {
    const inTests = file.slice(runner.package_dir === "" ? 0 : runner.package_dir.length + 1);
    if (cargoTestTarget(inTests) !== undefined)
      return [{ path: file, evidence: "self", detail: "the changed file is a test", hops: 0 }];
    return sharedTestModule(project, tests, file);
  }
  const related: RelatedTest[] = [];
  const own = testsIn(view, file);
  if (own !== undefined)
    related.push({ path: file, evidence: "self", detail: `its own ${own}`, hops: 0 });
  const reach = unitTestsReaching(project, libraryRoot(view, runner.package_dir), file);
  related.push(...reach.tests);
  const name = stem === "mod" ? baseName(dirnameRel(file)) : stem;
  const module = new RegExp(`\\b${name.replace(/[^\w]/g, "")}\\b`);
  const library = libraryNames(project, runner.package_dir);
  const integration = view
    .list(tests)
    .filter((entry) => entry.endsWith(".rs"))
    .flatMap((entry): RelatedTest[] => {
      const path = joinRel(tests, entry);
      const text = view.readText(path) ?? "";
      if (pathModules(text, tests).includes(file))
        return [{ path, evidence: "imports", detail: `compiles ${baseName(file)} in`, hops: 0 }];
      // A test that never names the library, nor declares a module that could, does not use it:
      // ryu's s2d_test.rs compiles the sources it tests into itself.
      if (library !== undefined && !mayUseLibrary(text, library)) return [];
      return module.test(text) && stem !== "lib" && stem !== "main"
        ? [{ path, evidence: "imports", detail: `names ${name}`, hops: 1 }]
        : [{ path, evidence: "imports-via", detail: "an integration test of the crate", hops: 2 }];
    });
  // A module no `mod` declares (a file just written) is not compiled: no test reaches it yet,
  // but for an integration test that compiles the file into itself by `#[path]`.
  if (reach.detached) return [...related, ...integration.filter((test) => test.hops === 0)];
  return [
    ...related,
    ...integration.sort((a, b) => a.hops - b.hops || a.path.localeCompare(b.path)),
    ...dependentsTests(project, runner.package_dir, file),
  ];
}

/** A Go file that embeds files (`//go:embed tests/*`) into its package. */
const GO_EMBED = /^\/\/go:embed\s/m;

/**
 * The tests of a Go package's data file (`goDataPackage`): the package's own tests, which read
 * it; and when the package embeds files (BurntSushi/toml's `internal/toml-test` embeds its
 * `tests/` and has no test of its own), the tests of the packages importing it, which read it
 * through the package.
 */
function goDataTests(
  view: ProjectView,
  moduleDir: string,
  dir: string,
  file: string,
): RelatedTest[] {
  const names = view.list(dir).filter((name) => name.endsWith(".go"));
  const own = names
    .filter((name) => name.endsWith("_test.go"))
    .sort()
    .map((name): RelatedTest => ({
      path: joinRel(dir, name),
      evidence: "family",
      detail: `a test of the Go package ${dir === "" ? "at the root" : dir} whose data it is`,
      hops: 0,
    }));
  const embeds = names.some(
    (name) => !name.endsWith("_test.go") && GO_EMBED.test(view.readText(joinRel(dir, name)) ?? ""),
  );
  if (!embeds) return own;
  return [...own, ...goImporterTests(view, moduleDir, joinRel(dir, baseName(file)), IMPORT_HOPS)];
}

/** Whether a crate has any test: integration tests, or unit or doc tests in its sources. */
function crateHasTests(view: ProjectView, dir: string): boolean {
  if (view.list(joinRel(dir, "tests")).some((name) => name.endsWith(".rs") || !name.includes(".")))
    return true;
  let read = 0;
  const walk = (at: string): boolean =>
    view.list(at).some((name) => {
      const path = joinRel(at, name);
      if (name.endsWith(".rs"))
        return (read += 1) > CRATE_FILES || testsIn(view, path) !== undefined;
      return !name.startsWith(".") && view.isDirectory(path) && walk(path);
    });
  return walk(joinRel(dir, "src"));
}

/** Reads a file a Rust source includes as docs (`include_str!("../README.md")`), by its path. */
function docInclude(view: ProjectView, file: string): (path: string) => string | undefined {
  return (path) => {
    const rel = normalizeRel(joinRel(dirnameRel(file), path));
    return rel === undefined ? undefined : view.readText(rel);
  };
}

/** What tests a Rust file holds: "unit tests", "doc tests", both, or none (undefined). */
function testsIn(view: ProjectView, path: string, read?: string): string | undefined {
  const text = read ?? view.readText(path) ?? "";
  const unit = HAS_TEST_MODULE.test(text);
  const doc = hasDocTests(text, docInclude(view, path));
  if (unit && doc) return "unit and doc tests";
  if (unit) return "unit tests";
  return doc ? "doc tests" : undefined;
}

/**
 * For a library source of a workspace crate, the crates that depend on it by path, each by its
 * crate root: naming that file runs the dependent crate's whole suite (`cargo test` with no
 * target), whose tests use the edited crate through its public API. Other files of the crate
 * (tests, benches, examples) are no part of what the dependents build.
 */
function dependentsTests(project: Project, dir: string, file: string): RelatedTest[] {
  const view = project.view;
  const inCrate = dir === "" ? file : file.slice(dir.length + 1);
  if (!inCrate.startsWith("src/") && inCrate !== "build.rs") return [];
  if (!view.exists(joinRel(dir, "src/lib.rs"))) return [];
  const manifest = view.readText(joinRel(dir, "Cargo.toml")) ?? "";
  const name = /^\s*name\s*=\s*"([\w-]+)"/m.exec(manifest)?.[1] ?? baseName(dir);
  return dependentCrates(view, dir).flatMap((crate): RelatedTest[] => {
    const root = ["src/lib.rs", "src/main.rs"]
      .map((path) => joinRel(crate.dir, path))
      .find((path) => view.exists(path));
    if (root === undefined || !crateHasTests(view, crate.dir)) return [];
    const via = crate.hops === 1 ? "" : ` (through ${crate.hops - 1} other crate(s))`;
    const detail = `crate ${crate.name} depends on ${name}${via}: its tests`;
    return [{ path: root, evidence: "imports-via", detail, hops: 2 + crate.hops }];
  });
}

/**
 * The names an integration test uses a crate's library by (`my_lib`, `my-lib` as the manifest
 * spells it, `[lib] name`); undefined unless the crate is a library alone (a binary's tests run
 * it by a path or a name in any spelling).
 */
function libraryNames(project: Project, dir: string): string[] | undefined {
  const view = project.view;
  if (!view.exists(joinRel(dir, "src/lib.rs"))) return undefined;
  if (view.exists(joinRel(dir, "src/main.rs")) || view.isDirectory(joinRel(dir, "src/bin")))
    return undefined;
  const manifest = view.readText(joinRel(dir, "Cargo.toml")) ?? "";
  if (/^\s*\[\[bin\]\]/m.test(manifest)) return undefined;
  const names = ["package", "lib"].flatMap((table) => {
    const body =
      new RegExp(`^\\s*\\[${table}\\]\\s*$([\\s\\S]*?)(?=^\\s*\\[|(?![\\s\\S]))`, "m").exec(
        manifest,
      )?.[1] ?? "";
    const name = /^\s*name\s*=\s*"([\w-]+)"/m.exec(body)?.[1];
    return name === undefined ? [] : [name, name.replace(/-/g, "_")];
  });
  return names.length === 0 ? undefined : [...new Set(names)];
}

/**
 * Whether an integration test may use the library: it names it, declares a module of `tests/`
 * (which may), or includes code by `include!`. `#[path]` modules are the test's own copies.
 */
function mayUseLibrary(source: string, names: readonly string[]): boolean {
  // Comments are no use (ryu's tests credit the C original by a URL ending in `/ryu`).
  const text = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
  if (names.some((name) => new RegExp(`(^|[^\\w-])${name}($|[^\\w-])`).test(text))) return true;
  const own = text.replace(
    /#\[path\s*=\s*"[^"]*"\s*\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*;/g,
    "",
  );
  return /\bmod\s+\w+\s*;|\binclude!/.test(own);
}

/**
 * The integration tests that compile a module of `tests/` that is no target itself
 * (`tests/common/mod.rs`, `tests/macros/mod.rs`): those declaring its folder with `mod`, or the
 * file by `#[path]`; every integration test of the crate when none is seen to.
 */
function sharedTestModule(project: Project, tests: string, file: string): RelatedTest[] {
  const view = project.view;
  const folder = file.slice(tests.length + 1).split("/")[0] ?? "";
  const declares = new RegExp(`\\bmod\\s+${folder.replace(/\.rs$/, "").replace(/\W/g, "")}\\s*;`);
  const targets = view
    .list(tests)
    .map((name) => (name.endsWith(".rs") ? joinRel(tests, name) : joinRel(tests, name, "main.rs")))
    .filter((path) => path !== file && (!path.endsWith("/main.rs") || view.exists(path)));
  // A module of a folder target (`tests/cli/support.rs` beside `tests/cli/main.rs`): that target.
  const root = joinRel(tests, folder, "main.rs");
  if (targets.includes(root))
    return [{ path: root, evidence: "support", detail: `declares ${baseName(file)}`, hops: 1 }];
  const declaring = targets.filter((path) => {
    const text = view.readText(path) ?? "";
    return declares.test(text) || pathModules(text, dirnameRel(path)).includes(file);
  });
  if (declaring.length > 0)
    return declaring.map((path) => ({
      path,
      evidence: "support",
      detail: `declares ${baseName(file)} as a module`,
      hops: 1,
    }));
  return targets.map((path) => ({
    path,
    evidence: "imports-via",
    detail: "an integration test of the crate",
    hops: 2,
  }));
}

/**
 * The files a Rust crate root in `dir` declares as modules by `#[path = "…"]`: ryu's
 * `tests/s2f_test.rs` compiles `../src/s2f.rs`, which no `mod` of the library declares.
 */
function pathModules(text: string, dir: string): string[] {
  const declared = /#\[path\s*=\s*"([^"]+)"\s*\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s/g;
  return [...text.matchAll(declared)].flatMap(
    ([, target = ""]) => normalizeRel(`${dir}/${target}`) ?? [],
  );
}

/** Unit tests in a Rust file: a `#[cfg(test)]` module, or `#[test]` functions at its top level. */
const HAS_TEST_MODULE = /#\[(?:cfg\(test\)|test)\]/;
/** The source files of a crate read to find who reaches a module; past it, none are named. */
const CRATE_FILES = 1000;
const CRATE_DEPTH = 32;

/**
 * The crate's other source files whose own #[cfg(test)] module reaches a Rust file through the
 * module tree, nearest first: `lib.rs` declares `mod macros;` (its tests run every macro),
 * `simd/mod.rs` declares `mod runtime;` and `lib.rs` in turn `mod simd;`. A module with no test
 * of its own (httparse's `iter.rs`, `macros.rs`) is tested there, and naming that file is what
 * brings the crate's unit tests (`--lib`) into the Stop beside its integration tests.
 */
function unitTestsReaching(
  project: Project,
  root: { src: string; name: string; atPackage: boolean },
  file: string,
): { tests: RelatedTest[]; detached: boolean } {
  const view = project.view;
  const src = root.src;
  const moduleName = (path: string) => rustModuleName(src, path, root.name);
  if ((src !== "" && !file.startsWith(`${src}/`)) || moduleName(file) === undefined)
    return { tests: [], detached: false };
  const files = walkFiles(view, src, "", {
    depth: CRATE_DEPTH,
    files: CRATE_FILES,
    keep: (path) => path.endsWith(".rs"),
    // A library root beside Cargo.toml: the crate's other targets and build output are no modules.
    ...(root.atPackage ? { skip: CRATE_TARGET_DIRS } : {}),
  }).map((path) => joinRel(src, path));
  if (files.length >= CRATE_FILES) return { tests: [], detached: false };
  const texts = new Map(files.map((path) => [path, view.readText(path) ?? ""]));
  const found: RelatedTest[] = [];
  const seen = new Set([file]);
  let level = [file];
  let rooted = false;
  for (let hops = 1; level.length > 0; hops += 1) {
    if (level.some((path) => moduleName(path) === undefined)) rooted = true;
    const names = level.flatMap((path) => moduleName(path) ?? []);
    if (names.length === 0) break;
    const uses = new RegExp(
      `\\bmod\\s+(?:${names.join("|")})\\b|\\b(?:${names.join("|")})::|::(?:${names.join("|")})\\b`,
    );
    level = files.filter((path) => !seen.has(path) && uses.test(texts.get(path) ?? ""));
    for (const path of level) {
      seen.add(path);
      const tests = testsIn(view, path, texts.get(path));
      if (tests !== undefined)
        found.push({
          path,
          evidence: "imports",
          detail: `its ${tests} reach ${baseName(file)}`,
          hops,
        });
    }
  }
  // Only when no file could declare a module out of the walk's sight (`#[path]`, `include!`).
  const unusual = [...texts.values()].some((text) => /#\[path\b|\binclude!/.test(text));
  return { tests: found, detached: !rooted && !unusual };
}

/** The folders beside Cargo.toml that hold other targets or build output, not library modules. */
const CRATE_TARGET_DIRS: ReadonlySet<string> = new Set([
  "tests",
  "examples",
  "benches",
  "target",
  "fuzz",
]);

/**
 * Where a crate's library root is (`cargoLibraryRoot`, `src/lib.rs` when it has none): `src` is
 * its folder in the project, `name` its file name, `atPackage` whether that folder is the crate's.
 */
function libraryRoot(
  view: ProjectView,
  dir: string,
): { src: string; name: string; atPackage: boolean } {
  const path = cargoLibraryRoot(view, dir) ?? "src/lib.rs";
  const folder = dirnameRel(path);
  return { src: joinRel(dir, folder), name: baseName(path), atPackage: folder === "" };
}

/** A Rust source file's module name (`iter` for src/iter.rs, `simd` for src/simd/mod.rs). */
function rustModuleName(src: string, path: string, rootName = "lib.rs"): string | undefined {
  const rel = src === "" ? path : path.slice(src.length + 1);
  if (rel === rootName || rel === "lib.rs" || rel === "main.rs" || rel.startsWith("bin/"))
    return undefined;
  const name = rel.endsWith("/mod.rs") ? (rel.split("/").at(-2) ?? "") : baseName(rel).slice(0, -3);
  return /^[A-Za-z_]\w*$/.test(name) ? name : undefined;
}

/**
 * For a test helper nothing imports by name: the tests that import its package, nearest package
 * first. venusian's tests import `tests.fixtures.two` and scan it, which imports
 * `tests/fixtures/two/mod2.py` through pkgutil; no import statement names the module.
 */
function packageImporters(
  project: Project,
  file: string,
  graph: GraphView,
  isListed: (rel: string) => boolean,
): RelatedTest[] {
  for (let dir = dirnameRel(file); dir !== ""; dir = dirnameRel(dir)) {
    const init = joinRel(dir, "__init__.py");
    if (init === file) continue;
    if (!project.view.exists(init)) return [];
    const levels = graph.importers(init) ?? [];
    const found = levels.flatMap((level, index) =>
      level.filter(isListed).map((path): RelatedTest => ({
        path,
        evidence: "imports-via",
        detail: `imports its package ${dir.replace(/\//g, ".")}`,
        hops: index + 2,
      })),
    );
    if (found.length > 0) return found;
  }
  return [];
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

/**
 * The tests of a file no name or import relates: its snapshot's test, the tests that name it
 * (`mentionedBy`), those that list a test folder holding it, or those of the modules that load
 * it (`throughModules`); the first of these found.
 */
function loadedOtherwise(
  project: Project,
  file: string,
  isTest: (rel: string) => boolean,
  allTests: () => readonly string[],
  conftests: () => readonly string[],
  loaders: (rel: string) => readonly { path: string; detail: string }[],
  throughModules: () => RelatedTest[],
): RelatedTest[] {
  const owner = snapshotOwner(file);
  if (owner !== undefined && isTest(owner) && project.view.exists(owner))
    return [{ path: owner, evidence: "name", detail: "its snapshot file", hops: 0 }];
  const named = mentionedBy(project, file, allTests());
  if (named.length > 0) return named;
  const fixtures = conftestMentions(project, file, allTests, conftests);
  if (fixtures.length > 0) return fixtures;
  if (!inTestFolder(file)) return throughModules();
  return loaders(file).map(({ path, detail }) => ({
    path,
    evidence: "mentions",
    detail,
    hops: 0,
  }));
}

/** How many project modules a file's tests are looked for through (`throughEntries`). */
const ENTRY_DEPTH = 2;
/** How many modules of one kind (importers, folder loaders, helpers) are asked. */
const ENTRY_FILES = 8;

/**
 * The tests of a JavaScript module no test reaches by import, found through the project modules
 * that load it, whose own tests run it: the nearest importers that have tests (`lib/slug.js`
 * required by `routes/todos/index.js`, tested by name as `test/routes/todos.test.js`), a module
 * that loads its folder by listing it (a fastify app's `@fastify/autoload` of
 * `join(__dirname, 'plugins')`), or a test helper that loads it by its path
 * (`path.join(__dirname, '..', 'app.js')` in `test/helper.js`): the tests that import the helper.
 */
function throughEntries(
  project: Project,
  graph: GraphView,
  file: string,
  isTest: (rel: string) => boolean,
  via: (entry: string) => readonly RelatedTest[],
): RelatedTest[] {
  const found = new Map<string, RelatedTest>();
  const add = (tests: readonly RelatedTest[], entry: string, hops: number): void => {
    for (const test of tests)
      if (test.path !== file && isTest(test.path) && !found.has(test.path))
        found.set(test.path, {
          path: test.path,
          evidence: "imports-via",
          detail: `through ${entry} (${test.detail})`,
          hops: test.hops + hops,
        });
  };
  const levels = graph.importers(file) ?? [];
  for (const [index, level] of levels.entries()) {
    for (const importer of level.slice(0, ENTRY_FILES)) add(via(importer), importer, index + 1);
    if (found.size > 0) return [...found.values()];
  }
  for (const loader of listingModules(project, graph, file, isTest)) add(via(loader), loader, 1);
  if (found.size > 0) return [...found.values()];
  const helpers = graph
    .allFiles()
    // A helper a test script's glob takes for a test too (`node --test "test/**/*.ts"`) counts.
    .filter((rel) => rel !== file && inTestFolder(rel) && detectLanguage(rel) !== undefined)
    .slice(0, ENTRY_FILES * 4)
    .filter((rel) => loadsByPath(project.view.readText(rel) ?? "", file));
  for (const helper of helpers.slice(0, ENTRY_FILES))
    for (const [index, level] of (graph.importers(helper) ?? []).entries())
      add(
        level
          .filter((rel) => isTest(rel))
          .map((rel) => ({ path: rel, evidence: "imports", detail: "imports it", hops: 0 })),
        helper,
        index + 1,
      );
  return [...found.values()];
}

/**
 * The app's tests of a plugin a test imports, which the app also loads by its folder: what it
 * decorates the app with reaches every route (`fastify.someSupport()`); none for another file
 * (a route keeps what it registers to its own scope).
 */
function appTestsOfSharedPlugin(
  project: Project,
  graph: GraphView,
  file: string,
  isTest: (rel: string) => boolean,
  via: (entry: string) => readonly RelatedTest[],
  related: readonly RelatedTest[],
): RelatedTest[] {
  // A Python or Go file's text is not read for a JavaScript plugin's import.
  const language = detectLanguage(file);
  if (language !== "javascript" && language !== "typescript") return [];
  if (isTest(file) || !sharesWithApp(project, file)) return [];
  const found: RelatedTest[] = [];
  const known = (path: string): boolean =>
    related.some((test) => test.path === path) || found.some((test) => test.path === path);
  for (const loader of listingModules(project, graph, file, isTest))
    for (const test of via(loader))
      if (test.path !== file && isTest(test.path) && !known(test.path))
        found.push({
          path: test.path,
          evidence: "imports-via",
          detail: `through ${loader} (${test.detail})`,
          hops: test.hops + 1,
        });
  return found;
}

/**
 * A fastify plugin wrapped in `fastify-plugin`: what it registers is shared with the app that
 * loads it, not kept to its own scope as a route's is.
 */
function sharesWithApp(project: Project, file: string): boolean {
  return /\bfrom\s+['"]fastify-plugin['"]|\brequire\s*\(\s*['"]fastify-plugin['"]/.test(
    project.view.readText(file) ?? "",
  );
}

/**
 * The modules that load `file`'s folder by listing it (a fastify app's `@fastify/autoload` of
 * `join(__dirname, 'plugins')`), in the folders above it; at most `ENTRY_FILES`.
 */
function listingModules(
  project: Project,
  graph: GraphView,
  file: string,
  isTest: (rel: string) => boolean,
): string[] {
  const dir = dirnameRel(file);
  const language = detectLanguage(file);
  return graph
    .allFiles()
    .filter((rel) => {
      const at = dirnameRel(rel);
      return (
        rel !== file &&
        !isTest(rel) &&
        (at === "" ? dir !== "" : dir.startsWith(`${at}/`)) &&
        detectLanguage(rel) === language
      );
    })
    .slice(0, ENTRY_FILES * 4)
    .filter((rel) => {
      const at = dirnameRel(rel);
      const sub = at === "" ? dir : dir.slice(at.length + 1);
      return listedFolder(project.view.readText(rel) ?? "", sub) !== undefined;
    })
    .slice(0, ENTRY_FILES);
}

/**
 * Whether a module's text builds `file`'s path: a path call (`path.join(__dirname, '..',
 * 'src', 'app.ts')`, `resolve(...)`) naming its file name and each of its folders as strings.
 */
export function loadsByPath(text: string, file: string): boolean {
  if (!/\b(?:join|resolve)\s*\(/.test(text)) return false;
  const quoted = (part: string): boolean =>
    new RegExp(
      `['"\`](?:[^'"\`\n]*/)?${part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(?:/[^'"\`\n]*)?['"\`]`,
    ).test(text);
  return file.split("/").every(quoted);
}

/**
 * The tests a conftest.py that names a file hands it to: a fixture that opens
 * `Path(request.path.parent, "data", "df_good.csv")` or `read_csv("../data/census.csv")` loads
 * it for the tests in the conftest's folder and below, none of which names it.
 */
function conftestMentions(
  project: Project,
  file: string,
  allTests: () => readonly string[],
  conftests: () => readonly string[],
): RelatedTest[] {
  const tokens = mentionTokens(file);
  if (tokens.length === 0) return [];
  const found: RelatedTest[] = [];
  const claimed = new Set<string>();
  for (const conftest of conftests().slice(0, MENTION_FILES)) {
    const token = mentions(project.view.readText(conftest) ?? "", tokens);
    if (token === undefined) continue;
    const scope = dirnameRel(conftest);
    // A bare file name is a fixture's below the conftest's folder; one named with its folder
    // (`data/census`) may be anywhere.
    if (!token.includes("/") && scope !== "" && !file.startsWith(`${scope}/`)) continue;
    for (const test of allTests())
      if ((scope === "" || test.startsWith(`${scope}/`)) && !claimed.has(test)) {
        claimed.add(test);
        found.push({
          path: test,
          evidence: "mentions",
          detail: `runs with ${conftest}, which names ${token}`,
          hops: 0,
        });
      }
  }
  return found;
}

/** Whether a file lies in a test folder or `fixtures/`, where a test may load it by its folder. */
function inTestFolder(rel: string): boolean {
  return rel
    .split("/")
    .slice(0, -1)
    .some((dir) => TEST_DATA_DIRS.has(dir));
}

/**
 * The tests that load a file by listing a folder that holds it (`listedFolder`), worked out once
 * per folder; as many as the mention search's limits read. A conftest.py that lists it (to
 * parametrize a fixture over its files, hpack's `tests/test_fixtures/`) hands it to the tests in
 * its folder and below.
 */
function folderLoaders(
  project: Project,
  tests: () => readonly string[],
  conftests: () => readonly string[],
): (rel: string) => readonly { path: string; detail: string }[] {
  const byDir = new Map<string, { path: string; detail: string }[]>();
  let deadline: number | undefined;
  const lists = (loader: string, dir: string): string | undefined => {
    const loaderDir = dirnameRel(loader);
    if (loaderDir !== "" && !dir.startsWith(`${loaderDir}/`)) return undefined;
    const sub = loaderDir === "" ? dir : dir.slice(loaderDir.length + 1);
    return listedFolder(project.view.readText(loader) ?? "", sub, loaderDir);
  };
  return (rel) => {
    const dir = dirnameRel(rel);
    const known = byDir.get(dir);
    if (known !== undefined) return known;
    deadline ??= performance.now() + MENTION_MS;
    const found: { path: string; detail: string }[] = [];
    for (const test of tests().slice(0, MENTION_FILES)) {
      if (performance.now() > deadline) break;
      if (lists(test, dir) !== undefined) found.push({ path: test, detail: `lists ${dir}/` });
    }
    const claimed = new Set(found.map((test) => test.path));
    for (const conftest of conftests()) {
      if (performance.now() > deadline) break;
      const folder = lists(conftest, dir);
      if (folder === undefined) continue;
      const scope = dirnameRel(conftest);
      for (const test of tests())
        if ((scope === "" || test.startsWith(`${scope}/`)) && !claimed.has(test)) {
          claimed.add(test);
          found.push({
            path: test,
            detail: `runs with ${conftest}, which lists ${joinRel(scope, folder)}/`,
          });
        }
    }
    byDir.set(dir, found);
    return found;
  };
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

/**
 * Each of the project's runners with its suite's shape (the config's command override applied):
 * the runners given, else the ones the session detected at its start (the same detection, which
 * looks at every folder two levels down: thousands of `stat`s in a large project), else detected
 * now.
 */
export function shapesOf(
  project: Project,
  known?: readonly DetectedRunner[],
  asked?: ReadonlyMap<string, AskedTests>,
): RunnerShape[] {
  // A shape reads its runner's config: only the runners of a changed file's language need it.
  return projectRunners(project, known).map((runner) => {
    let shape: TestSuiteShape | undefined;
    return {
      runner,
      get shape() {
        return (shape ??= suiteShape(project.view, runner, asked?.get(askedKey(runner))));
      },
    };
  });
}

/** The project's runners (known, the session's, else detected), with the config's commands. */
export function projectRunners(
  project: Project,
  known?: readonly DetectedRunner[],
): DetectedRunner[] {
  const found =
    known ??
    sessionRunners(project) ??
    detectProjectRunners(project.view, 2, project.config.runners);
  return found.map((runner) => {
    const override = runner.languages
      .map((language) => project.config.runners[language]?.command)
      .find((command) => command !== undefined);
    return override === undefined ? runner : { ...runner, command: override };
  });
}
