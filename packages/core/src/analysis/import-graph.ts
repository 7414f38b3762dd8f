import * as z from "zod/mini";
import { PathAliasesSchema } from "./resolve.ts";
import { importerLevels, parseIds } from "../selection/importers.ts";
import {
  GRAPH_VERSION,
  lines,
  shardLines,
  splitShards,
  SHARD_SIZE as SHARD_IDS,
  type GraphShard,
} from "../selection/graph-shards.ts";

/**
 * The project's import graph, kept in `.tailtest/graph/` (never in session.json, which every edit
 * reads and writes), sharded (`selection/graph-shards.ts`): an index with the file list and the
 * build's progress, and shards of each file's imports and importers lines. Files are ids (their
 * line in `files`); per file the state keeps a line of the ids it imports and a line of the ids
 * that import it, so an edit's question (who imports this, two hops out) reads the index and a
 * few shards, not the whole graph. A graph is built in time-boxed steps: the walk lists folders
 * (`pending_dirs`), then files are read in order (`next`); each hook that finds it unfinished
 * carries it on.
 */

export const IMPORT_GRAPH_VERSION = GRAPH_VERSION;

/** The mark, in `imports`, of a file not read yet. */
const UNREAD = "-";

/** The graph's index: its files and the build's progress (the lines are in the shards). */
export const GraphIndexSchema = z.object({
  version: z.literal(IMPORT_GRAPH_VERSION),
  /** Project-relative source files, one per line; a file's line number (from 0) is its id. */
  files: z.string(),
  /** Folders the walk has yet to list. */
  pending_dirs: z.array(z.string()),
  walked: z.boolean(),
  /** The next file id to read. */
  next: z.int().check(z.minimum(0)),
  aliases: z.array(PathAliasesSchema),
  python_roots: z.array(z.string()),
  /** The Python manifests' console scripts: command name → the module of its entry point. */
  python_scripts: z.optional(z.record(z.string(), z.string())),
  /** Files that could not be read or lexed (they import nothing in the graph). */
  unreadable: z.int().check(z.minimum(0)),
});
export type GraphIndex = z.infer<typeof GraphIndexSchema>;

/** The graph being worked on: the state's tables unpacked into arrays of lines. */
export interface ImportGraph {
  files: string[];
  imports: string[];
  importers: string[];
  pending_dirs: string[];
  walked: boolean;
  next: number;
  aliases: GraphIndex["aliases"];
  python_roots: string[];
  python_scripts?: Record<string, string>;
  unreadable: number;
  /** File → id, built on first need. */
  index?: Map<string, number>;
}

export function createImportGraph(): ImportGraph {
  return {
    files: [],
    imports: [],
    importers: [],
    pending_dirs: [""],
    walked: false,
    next: 0,
    aliases: [],
    python_roots: [""],
    unreadable: 0,
  };
}

/**
 * The graph from its index and its shards' lines (`shards[k]` for shard k, in order); a fresh
 * graph when they do not fit together (a torn or hand-edited state).
 */
export function unpackGraph(
  index: GraphIndex,
  shards: readonly (GraphShard | undefined)[],
): ImportGraph {
  const files = lines(index.files);
  const imports: string[] = [];
  const importers: string[] = [];
  for (let at = 0; at * SHARD_IDS < files.length; at += 1) {
    const shard = shards[at];
    const found = shard === undefined ? undefined : shardLines(shard, at, files.length);
    if (found === undefined) return createImportGraph();
    imports.push(...found.imports);
    importers.push(...found.importers);
  }
  return {
    files,
    imports,
    importers,
    pending_dirs: index.pending_dirs,
    walked: index.walked,
    next: Math.min(index.next, files.length),
    aliases: index.aliases,
    python_roots: index.python_roots,
    ...(index.python_scripts === undefined ? {} : { python_scripts: index.python_scripts }),
    unreadable: index.unreadable,
  };
}

/** The graph as its index and shards, to be written. */
export function packGraph(graph: ImportGraph): { index: GraphIndex; shards: GraphShard[] } {
  return {
    index: {
      version: IMPORT_GRAPH_VERSION,
      files: graph.files.join("\n"),
      pending_dirs: graph.pending_dirs,
      walked: graph.walked,
      next: graph.next,
      aliases: graph.aliases,
      python_roots: graph.python_roots,
      ...(graph.python_scripts === undefined ? {} : { python_scripts: graph.python_scripts }),
      unreadable: graph.unreadable,
    },
    shards: splitShards(graph),
  };
}

export function isGraphComplete(graph: ImportGraph): boolean {
  return graph.walked && graph.next >= graph.files.length;
}

/** How far a build got: files read of files found, and whether it is done. */
export function graphProgress(graph: ImportGraph): {
  read: number;
  total: number;
  complete: boolean;
} {
  const total = graph.files.length;
  if (isGraphComplete(graph)) return { read: total, total, complete: true };
  let read = 0;
  for (const line of graph.imports) if (line !== UNREAD) read += 1;
  return { read, total, complete: false };
}

/**
 * A file's id: through the index when one was built (a build makes thousands of lookups), else
 * by a scan of the file list (an edit makes a few, and building the index would cost more).
 */
export function idOfFile(graph: ImportGraph, file: string): number | undefined {
  if (graph.index !== undefined) return graph.index.get(file);
  const id = graph.files.indexOf(file);
  return id === -1 ? undefined : id;
}

/** Builds the file → id index, for work that looks up many files. */
export function indexGraph(graph: ImportGraph): void {
  graph.index ??= new Map(graph.files.map((path, id) => [path, id]));
}

/** Adds a file the graph does not know yet (not read); returns its id. */
export function addFile(graph: ImportGraph, file: string): number {
  const known = idOfFile(graph, file);
  if (known !== undefined) return known;
  const id = graph.files.length;
  graph.files.push(file);
  graph.imports.push(UNREAD);
  graph.importers.push("");
  graph.index?.set(file, id);
  return id;
}

/**
 * Sets one file's imports (adding the file, and any target not yet known), keeping every
 * target's importers line right: the old targets lose the file, the new ones gain it.
 */
export function setFileImports(graph: ImportGraph, file: string, targets: readonly string[]): void {
  const id = addFile(graph, file);
  // A file added after the walk is read here and now: the build need not come back for it.
  if (graph.next === id && graph.walked) graph.next += 1;
  const next = [...new Set(targets.map((target) => addFile(graph, target)))]
    .filter((target) => target !== id)
    .sort((a, b) => a - b);
  const before = new Set(parseIds(graph.imports[id]));
  const after = new Set(next);
  for (const old of before) {
    if (!after.has(old))
      graph.importers[old] = parseIds(graph.importers[old])
        .filter((from) => from !== id)
        .join(",");
  }
  for (const target of next) {
    if (before.has(target)) continue;
    const current = graph.importers[target] ?? "";
    graph.importers[target] = current === "" ? String(id) : `${current},${id}`;
  }
  graph.imports[id] = next.join(",");
}

/** Whether setting a file's imports to `targets` would change the graph. */
export function importsChanged(
  graph: ImportGraph,
  file: string,
  targets: readonly string[],
): boolean {
  const id = idOfFile(graph, file);
  if (id === undefined) return true;
  const ids: number[] = [];
  for (const target of new Set(targets)) {
    const to = idOfFile(graph, target);
    if (to === undefined) return true;
    if (to !== id) ids.push(to);
  }
  return ids.sort((a, b) => a - b).join(",") !== graph.imports[id];
}

/**
 * The files that import `file`, by distance: `[direct, through one other file, …]`, up to
 * `depth` hops (`selection/importers.ts`).
 */
export function findImporters(graph: ImportGraph, file: string, depth: number): string[][] {
  const start = idOfFile(graph, file);
  return start === undefined ? [] : importerLevels(graph, start, depth);
}

/** Whether a file still waits to be read (its imports unknown). */
export function isUnread(graph: ImportGraph, id: number): boolean {
  return graph.imports[id] === UNREAD;
}

const SHOWN = 5;

/**
 * The queued note's impact part, one bounded line: "Impact: billing.py is imported by a.py,
 * b.py (+3 more); 4 more files import those (up to 2 hops)".
 */
export function renderImpactLine(
  path: string,
  levels: readonly (readonly string[])[],
  progress: { read: number; total: number; complete: boolean },
): string {
  const partial = progress.complete
    ? ""
    : ` (import graph incomplete: ${progress.read} of ${progress.total} files read so far, the rest during the next edits)`;
  const direct = levels[0] ?? [];
  if (direct.length === 0) return `Impact: no project file imports ${path}${partial}`;
  const shown = direct.slice(0, SHOWN).join(", ");
  const more = direct.length > SHOWN ? ` (+${direct.length - SHOWN} more)` : "";
  const further = levels.slice(1).reduce((sum, level) => sum + level.length, 0);
  const beyond =
    further === 0
      ? ""
      : `; ${further} more ${further === 1 ? "file imports" : "files import"} those (up to ${levels.length} hops)`;
  return `Impact: ${path} is imported by ${shown}${more}${beyond}${partial}`;
}
