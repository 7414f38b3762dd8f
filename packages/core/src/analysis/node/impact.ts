import { readdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { Budget } from "../budget.ts";
import {
  addFile,
  createImportGraph,
  findImporters,
  graphProgress,
  GraphIndexSchema,
  idOfFile,
  importsChanged,
  indexGraph,
  isGraphComplete,
  isUnread,
  packGraph,
  renderImpactLine,
  setFileImports,
  unpackGraph,
  type GraphIndex,
  type ImportGraph,
} from "../import-graph.ts";
import { loadJsLexers, scanJsModule, type JsModule } from "../js-module.ts";
import { scanPythonModule } from "../python-module.ts";
import { pythonConsoleScripts } from "../python-scripts.ts";
import { sfcScripts } from "../sfc-scripts.ts";
import { RUNNER_ALIAS_CONFIG, runnerAliases } from "../runner-aliases.ts";
import {
  compilePathAliases,
  folderMain,
  normalizeRel,
  packageImports,
  resolveJsImport,
  resolvePythonImport,
  workspaceAliases,
  type PathAliases,
  type ResolveContext,
} from "../resolve.ts";
import { baseName, extensionOf } from "../../filter/languages.ts";
import { parseJsonc } from "../../util/jsonc.ts";
import { dirnameRel, joinRel } from "../../project/project-view.ts";
import {
  GRAPH_VERSION,
  GraphShardSchema,
  lines,
  SHARD_SIZE,
  shardCount,
  shardLines,
  shardOf,
  type GraphShard,
} from "../../selection/graph-shards.ts";
import {
  GRAPH_DIR,
  graphIndexPath,
  OLD_GRAPH_FILE,
  shardFile,
  shardPath,
} from "../../selection/node/graph-store.ts";
import type { Project } from "../../project/node/project.ts";
import { parseIds } from "../../selection/importers.ts";
import { continueWalk, readLeadingLines, readSmallFile } from "./project-walk.ts";
import {
  readStateSync,
  setAside,
  STATE_LOCK,
  withFileLock,
  writeAtomicSync,
  type StateFile,
} from "../../state/node/store.ts";

/**
 * Impact tracing's edge: the import graph's sharded state (`.tailtest/graph/`: an index and its
 * shards, `graph-store.ts`), its time-boxed build, its updates.
 */

export function graphIndexFile(project: Project): StateFile<GraphIndex> {
  return {
    path: graphIndexPath(project),
    schema: GraphIndexSchema,
    create: () => packGraph(createImportGraph()).index,
  };
}

/** A graph read whole, with the text of each state file as read (to write only what changed). */
interface LoadedGraph {
  graph: ImportGraph;
  texts: Map<string, string>;
}

/**
 * The whole graph (the build and an update need every line). Without `repair` it is read as it
 * is, unlocked (writers rename atomically); a state that cannot be used reads as a fresh graph.
 * With `repair` (the caller holds the graph's lock) an index or shard that cannot be used is moved
 * aside, to be built again, and an earlier version's single file is dropped.
 */
export function loadGraph(project: Project, repair: boolean): LoadedGraph {
  const texts = new Map<string, string>();
  const fresh = (): LoadedGraph => ({ graph: createImportGraph(), texts });
  if (repair) dropOldGraph(project);
  const indexFile = graphIndexFile(project);
  const index = readStateSync(indexFile);
  if (!index.existed) return fresh();
  if (index.problem !== undefined) {
    // Another version's graph is derived data an upgrade made stale, not a broken file: built
    // again in its place, nothing set aside.
    if (repair && !ofAnotherVersion(indexFile.path)) setAside(indexFile.path, index.problem);
    return fresh();
  }
  const count = index.value.files === "" ? 0 : index.value.files.split("\n").length;
  const shards: GraphShard[] = [];
  for (let at = 0; at < shardCount(count); at += 1) {
    const file = shardFile(project, at);
    let text: string | undefined;
    try {
      text = readFileSync(file.path, "utf8");
    } catch {
      text = undefined;
    }
    const read = readStateSync(file);
    if (text !== undefined) texts.set(file.path, text);
    // A shard missing, unreadable or not fitting the index (a write cut short): built again.
    const problem = !read.existed
      ? undefined
      : (read.problem ??
        (shardLines(read.value, at, count) === undefined
          ? "it does not fit the graph's index"
          : undefined));
    if (!read.existed || problem !== undefined) {
      if (repair && problem !== undefined) setAside(file.path, problem);
      return fresh();
    }
    shards.push(read.value);
  }
  return { graph: unpackGraph(index.value, shards), texts };
}

/** Whether the file is a graph index some other tailtest version wrote (its `version` not ours). */
function ofAnotherVersion(path: string): boolean {
  try {
    const json: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof json !== "object" || json === null || !("version" in json)) return false;
    return typeof json.version === "number" && json.version !== GRAPH_VERSION;
  } catch {
    return false;
  }
}

/** The single-file graph of earlier versions: the sharded graph is built in its place. */
function dropOldGraph(project: Project): void {
  try {
    unlinkSync(join(project.root, OLD_GRAPH_FILE));
  } catch {
    // none
  }
}

/**
 * Changes the graph under its lock and writes what changed: each shard whose lines changed, then
 * the index, each atomically and durably (`writeAtomicSync`); shards past the file list are
 * removed. `fresh` starts from an empty graph (a new session's build) instead of the stored one.
 */
export async function updateGraph<R>(
  project: Project,
  change: (graph: ImportGraph) => R,
  options: { fresh?: boolean } = {},
): Promise<R> {
  return withFileLock(graphIndexPath(project), STATE_LOCK, () => {
    const loaded = loadGraph(project, true);
    const graph = options.fresh === true ? createImportGraph() : loaded.graph;
    const result = change(graph);
    saveGraph(project, graph, loaded.texts);
    return Promise.resolve(result);
  });
}

/**
 * A complete graph updated with changed files' own imports, reading and writing only the shards
 * their old and new edges live in (the last one too when a changed file joins the graph), then
 * the index, under the graph's lock: a turn that changes an import in a 50,000-file project
 * touches a few of its 25 shards, not all of them. False, with nothing written, when the graph is
 * not complete (a build to carry on) or a shard it needs cannot be used: the caller updates it
 * whole (`updateGraph`), which sets such a shard aside and builds the graph again.
 */
export async function updateGraphShards(
  project: Project,
  changed: readonly string[],
): Promise<boolean> {
  return withFileLock(graphIndexPath(project), STATE_LOCK, () =>
    Promise.resolve(updateShardsLocked(project, changed)),
  );
}

function updateShardsLocked(project: Project, changed: readonly string[]): boolean {
  const read = readStateSync(graphIndexFile(project));
  if (!read.existed || read.problem !== undefined) return false;
  const index = read.value;
  const files = lines(index.files);
  const count = files.length;
  if (!index.walked || index.next < count) return false;
  // Only the loaded shards' lines are filled in; the walk below touches no other.
  const graph: ImportGraph = {
    files,
    imports: new Array<string>(count),
    importers: new Array<string>(count),
    pending_dirs: index.pending_dirs,
    walked: index.walked,
    next: index.next,
    aliases: index.aliases,
    python_roots: index.python_roots,
    ...(index.python_scripts === undefined ? {} : { python_scripts: index.python_scripts }),
    unreadable: index.unreadable,
  };
  const texts = new Map<number, string>();
  const load = (id: number): void => {
    const at = shardOf(id);
    if (texts.has(at) || id >= count) return;
    const text = readFileSync(shardPath(project, at), "utf8");
    const parsed = GraphShardSchema.safeParse(JSON.parse(text));
    const found = parsed.success ? shardLines(parsed.data, at, count) : undefined;
    if (found === undefined) throw new Error(`shard ${at} cannot be used`);
    const first = at * SHARD_SIZE;
    found.imports.forEach((line, k) => (graph.imports[first + k] = line));
    found.importers.forEach((line, k) => (graph.importers[first + k] = line));
    texts.set(at, text);
  };
  const sources = changed.filter(isGraphSource);
  try {
    const context = contextOf(graph);
    // A new file joins at the end: the last shard holds its lines (or a new shard will).
    for (const rel of sources)
      if (project.view.exists(rel) && idOfFile(graph, rel) === undefined) {
        if (count > 0) load(count - 1);
        addFile(graph, rel);
      }
    for (const rel of sources) {
      const id = idOfFile(graph, rel);
      if (id === undefined) continue;
      load(id);
      // The old edges' importers lines lose the file, the new ones' gain it.
      for (const old of parseIds(graph.imports[id])) load(old);
      const targets = project.view.exists(rel)
        ? (readFileImports(project, rel, context) ?? [])
        : [];
      for (const target of targets) {
        const to = idOfFile(graph, target);
        if (to !== undefined) load(to);
      }
      setFileImports(graph, rel, targets);
    }
  } catch {
    return false;
  }
  writeShards(project, graph, count, texts, index);
  return true;
}

/**
 * A shard-wise update's writes: every loaded shard (`texts`, as read) and a shard begun by files
 * added past `count`, when its text changed; then the index, when it changed.
 */
function writeShards(
  project: Project,
  graph: ImportGraph,
  count: number,
  texts: ReadonlyMap<number, string>,
  index: GraphIndex,
): void {
  const packed = packGraph({ ...graph, imports: [], importers: [] }).index;
  // Every loaded shard, and a shard begun by the files added, written when its text changed.
  const touched = new Set(texts.keys());
  for (let id = count; id < graph.files.length; id += 1) touched.add(shardOf(id));
  for (const at of [...touched].sort((a, b) => a - b)) {
    const first = at * SHARD_SIZE;
    const shard: GraphShard = {
      version: GRAPH_VERSION,
      first,
      imports: graph.imports.slice(first, first + SHARD_SIZE).join("\n"),
      importers: graph.importers.slice(first, first + SHARD_SIZE).join("\n"),
    };
    const text = `${JSON.stringify(shard)}\n`;
    if (texts.get(at) !== text) writeAtomicSync(shardPath(project, at), text);
  }
  if (JSON.stringify(packed) !== JSON.stringify(index))
    writeAtomicSync(graphIndexPath(project), `${JSON.stringify(packed)}\n`);
}

/** Writes a graph's shards and index, skipping the files whose text is already `before`'s. */
export function saveGraph(
  project: Project,
  graph: ImportGraph,
  before: ReadonlyMap<string, string> = new Map(),
): void {
  const { index, shards } = packGraph(graph);
  shards.forEach((shard, at) => {
    const path = shardPath(project, at);
    const text = `${JSON.stringify(shard)}\n`;
    if (before.get(path) !== text) writeAtomicSync(path, text);
  });
  removeShardsFrom(project, shards.length);
  const text = `${JSON.stringify(index)}\n`;
  if (before.get(graphIndexPath(project)) !== text) writeAtomicSync(graphIndexPath(project), text);
}

function removeShardsFrom(project: Project, first: number): void {
  let names: string[];
  try {
    names = readdirSync(join(project.root, GRAPH_DIR));
  } catch {
    return;
  }
  for (const name of names) {
    const at = /^shard-(\d+)\.json$/.exec(name)?.[1];
    if (at === undefined || Number(at) < first) continue;
    try {
      unlinkSync(shardPath(project, Number(at)));
    } catch {
      // gone already
    }
  }
}

/** Files whose imports are read; a `.vue`/`.svelte` component's from its `<script>` blocks. */
const CODE_EXTENSIONS = new Set([
  ".py",
  ".js",
  ".jsx",
  ".mjs",
  ".cjs",
  ".ts",
  ".tsx",
  ".mts",
  ".cts",
]);
const COMPONENT_EXTENSIONS = new Set([".vue", ".svelte"]);
const READ_EXTENSIONS = new Set([...CODE_EXTENSIONS, ...COMPONENT_EXTENSIONS]);
const TS_CONFIGS = new Set(["tsconfig.json", "jsconfig.json"]);
const PYTHON_MANIFESTS = new Set(["pyproject.toml", "setup.py", "setup.cfg"]);
/**
 * A JavaScript file larger than this is generated or bundled; it is not read. A Python file's
 * head of this size is (`readLeadingLines`).
 */
const READ_CAP = 256 * 1024;

export function isGraphSource(rel: string): boolean {
  return READ_EXTENSIONS.has(extensionOf(rel)) && !rel.endsWith(".d.ts");
}

/**
 * Carries a graph's build on until it is complete or the budget runs out: first the walk (every
 * source file, tsconfig `paths` and Python roots on the way), then each file's imports.
 */
export function advanceGraph(project: Project, graph: ImportGraph, budget: Budget): void {
  indexGraph(graph);
  if (!graph.walked) {
    graph.walked = continueWalk(project.root, project.ignoreRules, graph.pending_dirs, budget, {
      file: (rel, name) => addWalkedFile(project, graph, rel, name),
    });
    if (!graph.walked) return;
  }
  const context = contextOf(graph);
  while (graph.next < graph.files.length) {
    if (budget.expired()) return;
    const id = graph.next;
    graph.next += 1;
    if (!isUnread(graph, id)) continue;
    const rel = graph.files[id] ?? "";
    const targets = readFileImports(project, rel, context);
    if (targets === undefined) graph.unreadable += 1;
    setFileImports(graph, rel, targets ?? []);
  }
}

/** One file the walk found: a source file joins the graph, a tsconfig or manifest its rules. */
function addWalkedFile(project: Project, graph: ImportGraph, rel: string, name: string): void {
  if (isGraphSource(rel)) addFile(graph, rel);
  if (TS_CONFIGS.has(name)) addAliases(project, graph, rel);
  if (RUNNER_ALIAS_CONFIG.test(name)) addRunnerAliases(project, graph, rel);
  if (PYTHON_MANIFESTS.has(name)) {
    addPythonRoot(graph, dirnameRel(rel));
    addPythonScripts(project, graph, rel, name);
  }
  if (name === "package.json") addWorkspacePackage(project, graph, rel);
}

/** A Python manifest's console scripts (`[project.scripts]`, `console_scripts`). */
function addPythonScripts(project: Project, graph: ImportGraph, rel: string, name: string): void {
  const scripts = pythonConsoleScripts(name, project.view.readText(rel) ?? "");
  if (Object.keys(scripts).length > 0)
    graph.python_scripts = { ...scripts, ...graph.python_scripts };
}

/** A monorepo package's name, so `import "@acme/ui"` reaches `packages/ui/src/index.ts`. */
function addWorkspacePackage(project: Project, graph: ImportGraph, rel: string): void {
  let manifest: unknown;
  try {
    manifest = JSON.parse(project.view.readText(rel) ?? "null");
  } catch {
    return;
  }
  const aliases = workspaceAliases(dirnameRel(rel), manifest);
  if (aliases !== undefined) graph.aliases.push(aliases);
  const main = folderMain(dirnameRel(rel), manifest);
  if (main !== undefined) graph.aliases.push(main);
  const imports = packageImports(dirnameRel(rel), manifest);
  if (imports !== undefined) graph.aliases.push(imports);
  addRunnerAliases(project, graph, rel);
}

/** A jest `moduleNameMapper` or vite `alias` of a runner config (or package.json's `jest`). */
function addRunnerAliases(project: Project, graph: ImportGraph, rel: string): void {
  const found = readRunnerAliases(project, rel);
  if (found === undefined) return;
  // A folder's configs are read in the order its files are walked: the first with aliases wins.
  if (!graph.aliases.some((entry) => entry.scope === found.scope)) graph.aliases.push(found);
}

function readRunnerAliases(project: Project, rel: string): PathAliases | undefined {
  const text = project.view.readText(rel);
  return text === undefined ? undefined : runnerAliases(rel, text);
}

/** Resolution against the graph's files (its index built). */
export function contextOf(graph: ImportGraph): ResolveContext {
  indexGraph(graph);
  return {
    files: { has: (path) => idOfFile(graph, path) !== undefined },
    aliases: graph.aliases,
    pythonRoots: graph.python_roots,
    ...(graph.python_scripts === undefined ? {} : { pythonScripts: graph.python_scripts }),
  };
}

/**
 * Resolution for one edited file: a candidate is looked for on disk first (a few `stat`s), and
 * only one that exists is looked up in the graph's file list, so no index of every file is built.
 */
function editContext(project: Project, graph: ImportGraph): ResolveContext {
  const onDisk = diskLookup(project);
  return {
    files: { has: (path) => onDisk.has(path) && idOfFile(graph, path) !== undefined },
    aliases: graph.aliases,
    pythonRoots: graph.python_roots,
    ...(graph.python_scripts === undefined ? {} : { pythonScripts: graph.python_scripts }),
  };
}

/**
 * The project files one file imports, resolved; undefined when it cannot be read or lexed.
 * `loadJsLexers` must have been awaited.
 */
export function readFileImports(
  project: Project,
  rel: string,
  context: ResolveContext,
): string[] | undefined {
  const ext = extensionOf(rel);
  if (!READ_EXTENSIONS.has(ext)) return [];
  // A large Python file is data, not a bundle: its imports are read from its head.
  const text =
    ext === ".py"
      ? readLeadingLines(join(project.root, rel), READ_CAP)
      : readSmallFile(join(project.root, rel), READ_CAP);
  if (text === undefined) return undefined;
  const found: string[] = [];
  if (ext === ".py") {
    const module = scanPythonModule(text, context.pythonScripts);
    const here = dirnameRel(rel);
    const own = withPathInserts(context, [
      ...module.pathInserts,
      ...module.cwdInserts,
      ...module.ownInserts.map((folder) => (here === "" ? folder : `${here}/${folder}`)),
    ]);
    for (const entry of module.imports) found.push(...resolvePythonImport(own, rel, entry));
    for (const entry of [...module.loadable, ...(module.scriptRuns ?? [])])
      for (const file of resolvePythonImport(own, rel, entry))
        if (file !== rel && !found.includes(file)) found.push(file);
    return found;
  }
  const module = COMPONENT_EXTENSIONS.has(ext) ? scanComponent(text, rel) : scanJsModule(text, rel);
  for (const entry of module.imports) {
    const target = resolveJsImport(context, rel, entry.specifier);
    if (target !== undefined) found.push(target);
  }
  return module.parsed ? found : undefined;
}

/** A single-file component's imports: only its `<script>` blocks are lexed. */
function scanComponent(text: string, rel: string): JsModule {
  const script = sfcScripts(text);
  return scanJsModule(script.code, `${rel}${script.jsx ? ".tsx" : ".ts"}`);
}

/**
 * A module's literal `sys.path` folders as Python roots for its own imports: relative to where
 * the process starts, taken as the project's root (where its tests run from), or to the module's
 * own folder when named from `__file__`; one outside the project, absolute or climbing out,
 * holds no project file.
 */
function withPathInserts(context: ResolveContext, inserts: readonly string[]): ResolveContext {
  const roots = inserts
    .filter((folder) => !folder.startsWith("/"))
    .map((folder) => normalizeRel(folder))
    .filter((folder): folder is string => folder !== undefined)
    .filter((folder) => !context.pythonRoots.includes(folder));
  if (roots.length === 0) return context;
  return { ...context, pythonRoots: [...context.pythonRoots, ...new Set(roots)] };
}

function addPythonRoot(graph: ImportGraph, dir: string): void {
  for (const root of [dir, dir === "" ? "src" : `${dir}/src`]) {
    if (!graph.python_roots.includes(root)) graph.python_roots.push(root);
  }
}

/** A tsconfig's `paths`/`baseUrl`, following relative `extends` (a package's is not read). */
function addAliases(project: Project, graph: ImportGraph, rel: string): void {
  const aliases = readPathAliases(project, rel);
  if (aliases !== undefined) graph.aliases.push(aliases);
}

export function readPathAliases(project: Project, rel: string): PathAliases | undefined {
  const chain: { dir: string; compilerOptions: Record<string, unknown> }[] = [];
  let current: string | undefined = rel;
  const seen = new Set<string>();
  while (current !== undefined && !seen.has(current) && chain.length < 8) {
    seen.add(current);
    const json = parseJsonc(project.view.readText(current) ?? "");
    if (json === null || typeof json !== "object") break;
    const config = json as { compilerOptions?: unknown; extends?: unknown };
    const options =
      config.compilerOptions !== null && typeof config.compilerOptions === "object"
        ? (config.compilerOptions as Record<string, unknown>)
        : {};
    chain.push({ dir: dirnameRel(current), compilerOptions: options });
    const parent = typeof config.extends === "string" ? config.extends : undefined;
    current =
      parent !== undefined && parent.startsWith(".")
        ? normalizeConfigPath(dirnameRel(current), parent)
        : undefined;
  }
  return compilePathAliases(
    chain.map((link) => ({
      dir: link.dir,
      compilerOptions: {
        ...(typeof link.compilerOptions["baseUrl"] === "string"
          ? { baseUrl: link.compilerOptions["baseUrl"] }
          : {}),
        ...(isPathMap(link.compilerOptions["paths"])
          ? { paths: link.compilerOptions["paths"] }
          : {}),
      },
    })),
  );
}

/**
 * A resolve context without a graph, for one file: files are looked at in the project, Python
 * roots are the root, `src/` and the packages above the file, aliases the nearest tsconfig's
 * and the nearest package.json's `imports` map.
 */
export function lookupContext(project: Project, forFile: string): ResolveContext {
  const pythonRoots = ["", "src"];
  let pythonScripts: Record<string, string> = {};
  const aliases: PathAliases[] = [];
  // The package a file is in is the nearest package.json's: its `imports` map (`#helpers`).
  let inPackage = false;
  let tsconfig = false;
  let runner = false;
  let dir = dirnameRel(forFile);
  for (;;) {
    const manifest = dir === "" ? "package.json" : `${dir}/package.json`;
    if (!runner) {
      const configs = project.view.list(dir).filter((name) => RUNNER_ALIAS_CONFIG.test(name));
      for (const rel of [...configs.sort().map((name) => joinRel(dir, name)), manifest]) {
        const found = project.view.exists(rel) ? readRunnerAliases(project, rel) : undefined;
        if (found === undefined) continue;
        runner = true;
        aliases.push(found);
        break;
      }
    }
    if (!inPackage && project.view.exists(manifest)) {
      inPackage = true;
      const text = project.view.readText(manifest) ?? "";
      const imports = text.includes('"imports"')
        ? packageImports(dir, parseJsonc(text))
        : undefined;
      if (imports !== undefined) aliases.push(imports);
    }
    const manifests = [...PYTHON_MANIFESTS].filter((name) =>
      project.view.exists(joinRel(dir, name)),
    );
    if (manifests.length > 0)
      for (const root of [dir, dir === "" ? "src" : `${dir}/src`])
        if (!pythonRoots.includes(root)) pythonRoots.push(root);
    pythonScripts = { ...manifestScripts(project, dir, manifests), ...pythonScripts };
    if (!tsconfig) {
      const config = [...TS_CONFIGS]
        .map((name) => (dir === "" ? name : `${dir}/${name}`))
        .find((path) => project.view.exists(path));
      const found = config === undefined ? undefined : readPathAliases(project, config);
      if (found !== undefined) {
        tsconfig = true;
        aliases.push(found);
      }
    }
    if (dir === "") break;
    dir = dirnameRel(dir);
  }
  return withScripts({ files: diskLookup(project), aliases, pythonRoots }, pythonScripts);
}

function withScripts(context: ResolveContext, scripts: Record<string, string>): ResolveContext {
  return Object.keys(scripts).length === 0 ? context : { ...context, pythonScripts: scripts };
}

/** The console scripts of a folder's Python manifests. */
function manifestScripts(
  project: Project,
  dir: string,
  manifests: readonly string[],
): Record<string, string> {
  let scripts: Record<string, string> = {};
  for (const name of manifests)
    scripts = {
      ...pythonConsoleScripts(name, project.view.readText(joinRel(dir, name)) ?? ""),
      ...scripts,
    };
  return scripts;
}

/** Whether a project file exists on disk (a file, not a folder), each path looked at once. */
function diskLookup(project: Project): { has(path: string): boolean } {
  const known = new Map<string, boolean>();
  return {
    has: (path) => {
      let found = known.get(path);
      if (found === undefined) {
        found = project.view.exists(path) && !project.view.isDirectory(path);
        known.set(path, found);
      }
      return found;
    },
  };
}

function isPathMap(value: unknown): value is Record<string, string[]> {
  return (
    value !== null &&
    typeof value === "object" &&
    Object.values(value).every(
      (targets) => Array.isArray(targets) && targets.every((t) => typeof t === "string"),
    )
  );
}

function normalizeConfigPath(dir: string, target: string): string | undefined {
  const withExt = target.endsWith(".json") ? target : `${target}.json`;
  const parts = (dir === "" ? withExt : `${dir}/${withExt}`).split("/");
  const out: string[] = [];
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}

/** What a walk made at session start already found, so the graph need not walk again. */
export interface WalkResult {
  files: readonly string[];
  /** Folders still to list (empty when the walk finished). */
  pending: readonly string[];
}

/**
 * A new session's graph: built afresh (from the session's walk when there is one), as far as the
 * budget goes. Returns a note when the build was cut short.
 */
export async function startImportGraph(
  project: Project,
  budget: Budget,
  walk?: WalkResult,
): Promise<string | undefined> {
  await loadJsLexers();
  return updateGraph(
    project,
    (graph) => {
      if (walk !== undefined) {
        indexGraph(graph);
        for (const rel of walk.files) addWalkedFile(project, graph, rel, baseName(rel));
        graph.pending_dirs = [...walk.pending];
        graph.walked = walk.pending.length === 0;
      }
      advanceGraph(project, graph, budget);
      return describeCut(graph, budget);
    },
    { fresh: true },
  );
}

function describeCut(graph: ImportGraph, budget: Budget): string | undefined {
  if (isGraphComplete(graph)) return undefined;
  const progress = graphProgress(graph);
  const where = graph.walked
    ? `${progress.read} of ${progress.total} files read`
    : `the project walk found ${progress.total} source files so far`;
  return `tailtest: impact tracing: building the import graph was cut short by its time box (${budget.ms} ms): ${where}; the next edits carry it on.`;
}

/**
 * The impact line for an edited file: the graph carried on (if unfinished) within the budget,
 * the file's own imports read again, its importers up to `impact_depth` hops.
 */
export async function traceImpact(project: Project, rel: string, budget: Budget): Promise<string> {
  await loadJsLexers();
  // The common edit changes no import: a complete graph is read without the lock and, when the
  // file's imports are what it holds already, not written at all.
  const { graph: seen } = loadGraph(project, false);
  if (isGraphComplete(seen)) {
    const targets = isGraphSource(rel)
      ? (readFileImports(project, rel, editContext(project, seen)) ?? [])
      : undefined;
    if (targets === undefined || !importsChanged(seen, rel, targets)) {
      const levels = findImporters(seen, rel, project.config.impact_depth);
      return renderImpactLine(rel, levels, graphProgress(seen));
    }
  }
  return updateGraph(project, (graph) => {
    if (!isGraphComplete(graph)) advanceGraph(project, graph, budget);
    if (isGraphSource(rel)) {
      const targets = readFileImports(project, rel, editContext(project, graph));
      setFileImports(graph, rel, targets ?? []);
    }
    const levels = findImporters(graph, rel, project.config.impact_depth);
    return renderImpactLine(rel, levels, graphProgress(graph));
  });
}
