import * as z from "zod/mini";
import { lazy } from "../util/lazy.ts";

/**
 * The import graph's state, sharded (`.tailtest/graph/`): an index holds the file list (one path
 * per line; a file's line number, from 0, is its id) and the build's progress, and each shard
 * holds the imports and importers lines of `SHARD_SIZE` consecutive ids. An edit's question (who
 * imports this file, hop by hop) reads the index and the shards of the ids its walk reaches, not
 * the whole graph; an update writes only the shards whose lines changed. Pure: no file access.
 */

export const GRAPH_VERSION = 11;

/** Ids per shard: a 50,000-file project has 25 shards of about 40 KB. */
export const SHARD_SIZE = 2048;

/** The shard that holds a file id's lines. */
export function shardOf(id: number): number {
  return Math.floor(id / SHARD_SIZE);
}

/** How many shards a graph of `count` files has. */
export function shardCount(count: number): number {
  return Math.ceil(count / SHARD_SIZE);
}

/** One shard: the imports and importers lines of ids `first` to `first + lines - 1`. */
export const GraphShardSchema = lazy(() =>
  z.object({
    version: z.literal(GRAPH_VERSION),
    first: z.number(),
    imports: z.string(),
    importers: z.string(),
  }),
);
export type GraphShard = z.infer<typeof GraphShardSchema>;

/** A shard's tables unpacked; undefined when it does not fit the index (a torn or edited file). */
export function shardLines(
  shard: GraphShard,
  index: number,
  count: number,
): { imports: string[]; importers: string[] } | undefined {
  const first = index * SHARD_SIZE;
  const expected = Math.max(0, Math.min(SHARD_SIZE, count - first));
  // One file's empty line and no file at all both join to "": the index's count tells them apart.
  const decode = (text: string): string[] => (text === "" && expected === 1 ? [""] : lines(text));
  const imports = decode(shard.imports);
  const importers = decode(shard.importers);
  if (shard.first !== first || imports.length !== expected || importers.length !== expected)
    return undefined;
  return { imports, importers };
}

/** The shards of whole tables (`imports[id]`, `importers[id]`), in order. */
export function splitShards(tables: {
  readonly imports: readonly string[];
  readonly importers: readonly string[];
}): GraphShard[] {
  const shards: GraphShard[] = [];
  for (let first = 0; first < tables.imports.length; first += SHARD_SIZE) {
    shards.push({
      version: GRAPH_VERSION,
      first,
      imports: tables.imports.slice(first, first + SHARD_SIZE).join("\n"),
      importers: tables.importers.slice(first, first + SHARD_SIZE).join("\n"),
    });
  }
  return shards;
}

export function lines(text: string): string[] {
  return text === "" ? [] : text.split("\n");
}

/**
 * The index's packed file list, looked into without splitting it: a line's id by a search of the
 * text, an id's path by the offsets of the line starts (one small typed array), and the lines
 * that contain a word by one regular expression over the text. A 50,000-file list costs its text
 * and 200 KB of offsets, not 50,000 strings.
 */
export class FileTable {
  readonly count: number;
  protected readonly text: string;
  protected readonly starts: Int32Array;

  constructor(packed: string) {
    this.text = packed;
    let count = packed === "" ? 0 : 1;
    for (let at = packed.indexOf("\n"); at !== -1; at = packed.indexOf("\n", at + 1)) count += 1;
    this.count = count;
    this.starts = new Int32Array(count + 1);
    let line = 1;
    for (let at = packed.indexOf("\n"); at !== -1; at = packed.indexOf("\n", at + 1))
      this.starts[line++] = at + 1;
    this.starts[count] = packed.length + 1;
  }

  /** The path of file `id`; undefined past the list. */
  path(id: number): string | undefined {
    if (!Number.isInteger(id) || id < 0 || id >= this.count) return undefined;
    return this.text.slice(this.starts[id], (this.starts[id + 1] ?? 0) - 1);
  }

  /** The id of `path`, or undefined when the list does not hold it. */
  idOf(path: string): number | undefined {
    if (path === "" || path.includes("\n")) return undefined;
    for (let at = this.text.indexOf(path); at !== -1; at = this.text.indexOf(path, at + 1)) {
      const end = at + path.length;
      if (
        (at === 0 || this.text[at - 1] === "\n") &&
        (end === this.text.length || this.text[end] === "\n")
      )
        return this.lineAt(at);
    }
    return undefined;
  }

  /** Every path whose text `pattern` matches (case as the pattern says), in id order. */
  matching(pattern: RegExp): string[] {
    const flags = [...new Set(`${pattern.flags}gm`)].join("");
    const line = new RegExp(`^[^\\n]*(?:${pattern.source})[^\\n]*$`, flags);
    return [...this.text.matchAll(line)].map((found) => found[0]);
  }

  /** Every path, in id order (a whole list: for the rare question that needs them all). */
  all(): string[] {
    return lines(this.text);
  }

  private lineAt(offset: number): number {
    let low = 0;
    let high = this.count - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}

/**
 * A `FileTable` whose lines are sorted (as JavaScript's `<` orders strings) and distinct: a
 * path's membership by a binary search instead of a search of the text, and a folder's files as
 * one range. The cold search's list of a tree's source files (50,000 paths) is one of these.
 */
export class SortedFileTable extends FileTable {
  /** The table of `paths` (sorted and made distinct here when they are not). */
  static of(packed: string): SortedFileTable {
    const table = new SortedFileTable(packed);
    if (table.isSorted()) return table;
    const ids = Array.from({ length: table.count }, (_, id) => id);
    ids.sort((a, b) => table.compareIds(a, b));
    const kept: string[] = [];
    let last: number | undefined;
    for (const id of ids) {
      if (last !== undefined && table.compareIds(last, id) === 0) continue;
      kept.push(table.path(id) ?? "");
      last = id;
    }
    return new SortedFileTable(kept.join("\n"));
  }

  /** Whether the table lists `path`. */
  has(path: string): boolean {
    const at = this.lowerBound(path);
    return at < this.count && this.compareAt(at, path) === 0;
  }

  /** The paths in `dir` and below (`dir/…`), sorted. */
  under(dir: string): string[] {
    const prefix = `${dir}/`;
    const found: string[] = [];
    for (let id = this.lowerBound(prefix); id < this.count; id += 1) {
      const start = this.starts[id] ?? 0;
      if (!this.text.startsWith(prefix, start)) break;
      found.push(this.path(id) ?? "");
    }
    return found;
  }

  /** The first id whose path is not before `path`. */
  private lowerBound(path: string): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.compareAt(mid, path) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Line `id` against `path`, as `<` orders strings (UTF-16 code units), without a slice. */
  private compareAt(id: number, path: string): number {
    const start = this.starts[id] ?? 0;
    const length = (this.starts[id + 1] ?? 0) - 1 - start;
    const common = Math.min(length, path.length);
    for (let at = 0; at < common; at += 1) {
      const diff = this.text.charCodeAt(start + at) - path.charCodeAt(at);
      if (diff !== 0) return diff;
    }
    return length - path.length;
  }

  private compareIds(a: number, b: number): number {
    const start = this.starts[b] ?? 0;
    const end = (this.starts[b + 1] ?? 0) - 1;
    const startA = this.starts[a] ?? 0;
    const lengthA = (this.starts[a + 1] ?? 0) - 1 - startA;
    const common = Math.min(lengthA, end - start);
    for (let at = 0; at < common; at += 1) {
      const diff = this.text.charCodeAt(startA + at) - this.text.charCodeAt(start + at);
      if (diff !== 0) return diff;
    }
    return lengthA - (end - start);
  }

  private isSorted(): boolean {
    for (let id = 1; id < this.count; id += 1) if (this.compareIds(id - 1, id) >= 0) return false;
    return true;
  }
}
