/**
 * The import graph's reverse walk on its packed tables, without the graph's build (no lexers, no
 * resolver, no zod): what an edit's note needs to name the tests that import the edited file.
 * `files[id]` is a file, `importers[id]` the comma-separated ids of the files that import it
 * (`analysis/import-graph.ts` keeps both).
 */
export interface ImporterTables {
  readonly files: readonly string[];
  readonly importers: readonly string[];
}

/** A line of ids (`"3,17"`); empty, or `-` for a file not read yet, is none. */
export function parseIds(line: string | undefined): number[] {
  if (line === undefined || line === "" || line === "-") return [];
  return line.split(",").map(Number);
}

/**
 * The files that import file `start`, by distance: `[direct, through one other file, …]`, up to
 * `depth` hops, each list sorted; a file appears once, at its shortest distance. Reads only the
 * importers lines of the files it reaches.
 */
export function importerLevels(tables: ImporterTables, start: number, depth: number): string[][] {
  return importerLevelsOf(
    { path: (id) => tables.files[id], importers: (id) => tables.importers[id] },
    start,
    depth,
  );
}

/** The tables read through accessors (a sharded graph reads a file's lines on first need). */
export interface ImporterLookup {
  path(id: number): string | undefined;
  importers(id: number): string | undefined;
}

/** `importerLevels` on any lookup: only the lines of the files the walk reaches are asked for. */
export function importerLevelsOf(lookup: ImporterLookup, start: number, depth: number): string[][] {
  const seen = new Set([start]);
  const levels: string[][] = [];
  let frontier = [start];
  for (let level = 0; level < depth && frontier.length > 0; level += 1) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const from of parseIds(lookup.importers(id))) {
        if (seen.has(from) || lookup.path(from) === undefined) continue;
        seen.add(from);
        next.push(from);
      }
    }
    if (next.length === 0) break;
    levels.push(next.map((id) => lookup.path(id) ?? "").sort());
    frontier = next;
  }
  return levels;
}
