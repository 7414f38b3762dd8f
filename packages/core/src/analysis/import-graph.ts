import * as z from "zod";
import { PathAliasesSchema } from "./resolve.ts";

/**
 * The project's import graph, kept in `.tailtest/import-graph.json` (never in session.json, which
 * every edit reads and writes). Files are ids (their index in `files`); each file's imports are a
 * comma-separated list of ids, so the file stays small and quick to validate. A graph is built in
 * time-boxed steps: the walk lists folders (`pending_dirs`), then files are read in order
 * (`next`); each hook that finds it unfinished carries it on.
 */

export const IMPORT_GRAPH_VERSION = 1;

export const ImportGraphSchema = z.object({
  version: z.literal(IMPORT_GRAPH_VERSION),
  /** Project-relative source files; a file's index is its id. */
  files: z.array(z.string()),
  /** Per file id: the ids it imports, comma-separated; null while the file is not read yet. */
  edges: z.array(z.string().nullable()),
  /** Folders the walk has yet to list; the walk is done when this is empty and `walked`. */
  pending_dirs: z.array(z.string()),
  walked: z.boolean(),
  /** The next file id to read. */
  next: z.number().int().min(0),
  aliases: z.array(PathAliasesSchema),
  python_roots: z.array(z.string()),
  /** Files that could not be read or lexed (they import nothing in the graph). */
  unreadable: z.number().int().min(0),
});
export type ImportGraph = z.infer<typeof ImportGraphSchema>;

export function createImportGraph(): ImportGraph {
  return {
    version: IMPORT_GRAPH_VERSION,
    files: [],
    edges: [],
    pending_dirs: [""],
    walked: false,
    next: 0,
    aliases: [],
    python_roots: [""],
    unreadable: 0,
  };
}

export function isGraphComplete(graph: ImportGraph): boolean {
  return graph.walked && graph.next >= graph.files.length;
}

/** How far a build got: files read of files found, and whether the walk is over. */
export function graphProgress(graph: ImportGraph): {
  read: number;
  total: number;
  complete: boolean;
} {
  let read = 0;
  for (const edge of graph.edges) if (edge !== null) read += 1;
  return { read, total: graph.files.length, complete: isGraphComplete(graph) };
}

/** Sets one file's imports (adding the file, and any target not yet known, to the graph). */
export function setFileImports(
  graph: ImportGraph,
  file: string,
  targets: readonly string[],
  index: Map<string, number> = indexFiles(graph),
): void {
  const id = idOf(graph, file, index);
  // A file added after the walk is read here and now: the build need not come back for it.
  if (graph.next === id && graph.walked) graph.next += 1;
  const ids = [...new Set(targets.map((target) => idOf(graph, target, index)))]
    .filter((target) => target !== id)
    .sort((a, b) => a - b);
  graph.edges[id] = ids.join(",");
}

export function indexFiles(graph: ImportGraph): Map<string, number> {
  return new Map(graph.files.map((file, id) => [file, id]));
}

function idOf(graph: ImportGraph, file: string, index: Map<string, number>): number {
  let id = index.get(file);
  if (id === undefined) {
    id = graph.files.length;
    graph.files.push(file);
    graph.edges.push(null);
    index.set(file, id);
  }
  return id;
}

/**
 * The files that import `file`, by distance: `[direct, through one other file, …]`, up to
 * `depth` hops, each list sorted; a file appears once, at its shortest distance. Linear in the
 * graph's size (one reverse index, one breadth-first walk).
 */
export function findImporters(graph: ImportGraph, file: string, depth: number): string[][] {
  const start = graph.files.indexOf(file);
  if (start === -1) return [];
  const importers = new Map<number, number[]>();
  graph.edges.forEach((edge, from) => {
    if (edge === null || edge === "") return;
    for (const part of edge.split(",")) {
      const to = Number(part);
      const list = importers.get(to);
      if (list === undefined) importers.set(to, [from]);
      else list.push(from);
    }
  });
  const seen = new Set([start]);
  const levels: string[][] = [];
  let frontier = [start];
  for (let level = 0; level < depth && frontier.length > 0; level += 1) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const from of importers.get(id) ?? []) {
        if (seen.has(from)) continue;
        seen.add(from);
        next.push(from);
      }
    }
    if (next.length === 0) break;
    levels.push(next.map((id) => graph.files[id] ?? "").sort());
    frontier = next;
  }
  return levels;
}

const SHOWN = 5;

/**
 * The queued note's impact part, one bounded line: "Impact: billing.py is imported by a.py,
 * b.py (+3 more); 4 more files import those (2 hops)".
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
