import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import {
  FileTable,
  GRAPH_VERSION,
  GraphShardSchema,
  SHARD_SIZE,
  shardLines,
  shardOf,
  type GraphShard,
} from "../graph-shards.ts";
import { STATE_DIR, type Project } from "../../project/node/project.ts";
import { readHead } from "../../project/node/fs-view.ts";
import type { StateFile } from "../../state/node/store.ts";
import { lazy } from "../../util/lazy.ts";

/**
 * Where the import graph's sharded state lives (`selection/graph-shards.ts`), and its reader for
 * an edit's note and selection: the index once, then only the shards of the ids a walk reaches.
 * No lexer, resolver or classic zod (the post-edit bundle loads this); the build and its updates
 * are `impact.ts`'s.
 */

export const GRAPH_DIR = `${STATE_DIR}/graph`;
export const GRAPH_INDEX = `${GRAPH_DIR}/index.json`;
/** The single-file graph of earlier versions: dropped, and the graph built again, sharded. */
export const OLD_GRAPH_FILE = `${STATE_DIR}/import-graph.json`;

export function graphIndexPath(project: Project): string {
  return join(project.root, GRAPH_INDEX);
}

export function shardPath(project: Project, index: number): string {
  return join(project.root, GRAPH_DIR, `shard-${index}.json`);
}

export function shardFile(project: Project, index: number): StateFile<GraphShard> {
  return {
    path: shardPath(project, index),
    schema: GraphShardSchema,
    create: () => ({
      version: GRAPH_VERSION,
      first: index * SHARD_SIZE,
      imports: "",
      importers: "",
    }),
  };
}

/** Whether the project has a (sharded) import graph. */
export function graphExists(project: Project): boolean {
  return existsSync(graphIndexPath(project));
}

/**
 * Whether the project's graph index was written by another version of tailtest (its `version`,
 * the index's first field, is not `GRAPH_VERSION`): an upgrade made it stale, and no reader uses
 * it until it is built again. Read at a session's start only (the first bytes of the index).
 */
export function graphOfAnotherVersion(project: Project): boolean {
  const head = readHead(graphIndexPath(project), 32);
  const version = head === undefined ? undefined : /^\{"version":(\d+)/.exec(head)?.[1];
  return version !== undefined && Number(version) !== GRAPH_VERSION;
}

/** What a reader needs of the index: a loose view, so a newer field never fails it. */
const IndexViewSchema = lazy(() =>
  z.looseObject({
    version: z.literal(GRAPH_VERSION),
    files: z.string(),
    walked: z.boolean(),
    next: z.number(),
  }),
);

/** A shard that cannot be read or does not fit the index: the graph is not used as it is. */
export class BrokenShard extends Error {
  constructor(readonly index: number) {
    super(`import graph shard ${index} cannot be used`);
  }
}

/** The graph read lazily: its file list, and each file's lines from its shard on first need. */
export interface ShardedGraph {
  readonly table: FileTable;
  readonly complete: boolean;
  /** The index as read (its other fields unchecked: a reader that needs one checks it). */
  readonly index: Readonly<Record<string, unknown>>;
  /** File `id`'s imports line (`-` while unread); throws `BrokenShard`. */
  importsLine(id: number): string;
  /** File `id`'s importers line; throws `BrokenShard`. */
  importersLine(id: number): string;
  /** Shards read so far. */
  readonly shardsRead: number;
}

/** The graph as the last writer left it, read lazily; undefined when there is none or its index is unusable. */
export function readShardedGraph(project: Project): ShardedGraph | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(graphIndexPath(project), "utf8"));
  } catch {
    return undefined;
  }
  const parsed = IndexViewSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const index = parsed.data;
  const table = new FileTable(index.files);
  const shards = new Map<number, { imports: string[]; importers: string[] }>();
  const shard = (id: number): { imports: string[]; importers: string[] } => {
    const at = shardOf(id);
    let found = shards.get(at);
    if (found === undefined) {
      found = readShard(project, at, table.count);
      if (found === undefined) throw new BrokenShard(at);
      shards.set(at, found);
    }
    return found;
  };
  const line = (id: number, which: "imports" | "importers"): string => {
    if (id < 0 || id >= table.count) return "";
    return shard(id)[which][id - shardOf(id) * SHARD_SIZE] ?? "";
  };
  return {
    table,
    index,
    complete: index.walked && index.next >= table.count,
    importsLine: (id) => line(id, "imports"),
    importersLine: (id) => line(id, "importers"),
    get shardsRead() {
      return shards.size;
    },
  };
}

/** One shard's lines, checked against the index's file count; undefined when unusable. */
export function readShard(
  project: Project,
  index: number,
  count: number,
): { imports: string[]; importers: string[] } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(shardPath(project, index), "utf8"));
  } catch {
    return undefined;
  }
  const parsed = GraphShardSchema.safeParse(json);
  return parsed.success ? shardLines(parsed.data, index, count) : undefined;
}
