import * as z from "zod/mini";

/**
 * The import graph's state, sharded (`.tailtest/graph/`): an index holds the file list (one path
 * per line; a file's line number, from 0, is its id) and the build's progress, and each shard
 * holds the imports and importers lines of `SHARD_SIZE` consecutive ids. An edit's question (who
 * imports this file, hop by hop) reads the index and the shards of the ids its walk reaches, not
 * the whole graph; an update writes only the shards whose lines changed. Pure: no file access.
 */

export const GRAPH_VERSION = 3;

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
export const GraphShardSchema = z.object({
  version: z.literal(GRAPH_VERSION),
  first: z.number(),
  imports: z.string(),
  importers: z.string(),
});
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
  private readonly text: string;
  private readonly starts: Int32Array;

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
