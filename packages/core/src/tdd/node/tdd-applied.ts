import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { lazy } from "../../util/lazy.ts";
import { isoDateTime } from "../../util/iso-datetime.ts";
import { STATE_DIR } from "../../project/node/project.ts";
import { appendLogged, keyMark } from "./tdd-store.ts";
import { readKeyedLog } from "../../gating/node/keyed-read.ts";
import { readPath } from "../../gating/node/state-copy.ts";

/**
 * What tdd mode's gated edits left in the files (ADR 0012): after a tool the gate allowed has
 * run, the content of each production or test file it wrote, by agent. The end of the turn
 * counts a changed file as gated only while it holds one of these: an allowance is for the edit
 * the gate saw, not for the path, so a subagent's allowed edit does not cover the main agent's
 * ungated write to the same file, nor does an edit before cover a write after a gate that timed
 * out. One line per file, appended (whole lines in one O_APPEND write), never rewritten; read
 * from tailtest's copy while a session's mode copy is in force (state-copy.ts), like events.jsonl.
 */
export const APPLIED_PATH = `${STATE_DIR}/tdd-applied.jsonl`;

/** A file's content as git names it (the blob id), or `absent` for no file. */
export function contentId(root: string, relPath: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, relPath));
  } catch {
    return ABSENT;
  }
  // Loaded here: node's crypto costs a gate ~10% of `node -e 0` to load (ADR 0010), and a denied
  // gate before an edit hashes nothing (the record after it does).
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

const ABSENT = "absent";

const AppliedLineSchema = lazy(() =>
  z.object({
    path: z.string(),
    content: z.string(),
    agent_key: z.string(),
    at: isoDateTime(),
  }),
);

/** Records what the files hold now, as left by `agentKey`'s allowed edit. */
export async function recordApplied(
  root: string,
  agentKey: string,
  relPaths: readonly string[],
  at: string,
): Promise<void> {
  if (relPaths.length === 0) return;
  const lines = relPaths.map(
    (path) =>
      `${JSON.stringify({ path, content: contentId(root, path), agent_key: agentKey, at })}\n`,
  );
  await appendLogged(root, APPLIED_PATH, lines.join(""));
}

type AppliedLine = z.infer<typeof AppliedLineSchema>;

/**
 * Every line recorded, oldest first (a line that does not parse is skipped); with `agentKey`,
 * only the lines that name it, found by a search of the bytes: the file holds every session's
 * lines and only grows, and the post-edit call reads its own.
 */
export function readAppliedLines(
  root: string,
  agentKey?: string,
  /** Only lines stamped at or after this time (ms), told apart before their schema is run. */
  sinceMs = Number.NEGATIVE_INFINITY,
): AppliedLine[] {
  let bytes: Buffer;
  try {
    // An agent's lines are read from its first (keyed-read.ts); every agent's, whole.
    bytes =
      agentKey === undefined
        ? readFileSync(readPath(root, APPLIED_PATH))
        : readKeyedLog(root, APPLIED_PATH, agentKey, keyMark(agentKey), join(root, APPLIED_PATH))
            .bytes;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const lines: AppliedLine[] = [];
  const add = (raw: string) => {
    if (raw.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return;
    }
    // Most of a long-lived project's lines are older than the turn: a stamp is read first.
    const at = (json as { at?: unknown } | null)?.at;
    if (typeof at === "string" && Date.parse(at) < sinceMs) return;
    const line = AppliedLineSchema.safeParse(json);
    if (line.success && (agentKey === undefined || line.data.agent_key === agentKey))
      lines.push(line.data);
  };
  if (agentKey === undefined) {
    for (const raw of bytes.toString("utf8").split("\n")) add(raw);
    return lines;
  }
  // `recordApplied` writes the key as `"agent_key":"<key>"` (a key is ASCII with no escapes).
  const mark = keyMark(agentKey);
  for (let at = bytes.indexOf(mark); at !== -1;) {
    const start = at === 0 ? 0 : bytes.lastIndexOf(0x0a, at - 1) + 1;
    const found = bytes.indexOf(0x0a, at);
    const stop = found === -1 ? bytes.length : found;
    add(bytes.toString("utf8", start, stop));
    at = found === -1 ? -1 : bytes.indexOf(mark, stop + 1);
  }
  return lines;
}

/** Each path's contents recorded at or after `sinceIso` (any agent's). */
export function readApplied(root: string, sinceIso: string): Map<string, Set<string>> {
  const applied = new Map<string, Set<string>>();
  const since = Date.parse(sinceIso);
  for (const line of readAppliedLines(root, undefined, since)) {
    if (Date.parse(line.at) < since) continue;
    const contents = applied.get(line.path) ?? new Set<string>();
    contents.add(line.content);
    applied.set(line.path, contents);
  }
  return applied;
}

/**
 * When each path was last recorded for this agent: an allowance is used by the first record
 * after it, so a later write (after a gate that timed out) finds none left.
 */
export function lastAppliedAt(root: string, agentKey: string): Map<string, number> {
  const last = new Map<string, number>();
  for (const line of readAppliedLines(root, agentKey)) last.set(line.path, Date.parse(line.at));
  return last;
}

/** Whether the file holds what an allowed edit left in it this turn. */
export function holdsApplied(
  root: string,
  relPath: string,
  applied: ReadonlyMap<string, ReadonlySet<string>>,
): boolean {
  return applied.get(relPath)?.has(contentId(root, relPath)) === true;
}
