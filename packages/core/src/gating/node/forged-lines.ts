import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  copyInForce,
  copyPath,
  FOREIGN_COUNT,
  REMOVED_NOTE,
  STATE_LOGS,
  witnessGates,
} from "./state-copy.ts";

/**
 * The lines of the project's state logs that tailtest's copy lacks (state-copy.ts, ADR 0012 tenth
 * round): written into `.tailtest/` by something else, a program the agent ran. While the copy is
 * in force they move nothing; the end of the turn names them, and holds the Stop once each time
 * their number grows.
 */

export interface ForeignLines {
  /** Per project log, the lines its copy does not hold (only logs with some). */
  counts: { path: string; lines: number }[];
  /** Their number has grown since the last Stop that said it. */
  grown: boolean;
  /**
   * The project says copies were kept, yet no session's mode copy gated (now, or when a hook
   * wrote one again): the state folder was removed by something else (tailtest removes the mode
   * copies only with the mark).
   */
  removed: boolean;
}

/** Undefined when no copy is in force, or every line was written by tailtest. */
export function foreignLines(root: string): ForeignLines | undefined {
  if (!copyInForce(root)) return undefined;
  const counts: ForeignLines["counts"] = [];
  const note = copyPath(root, REMOVED_NOTE);
  const removed = !witnessGates(root) || (note !== undefined && existsSync(note));
  if (note !== undefined && removed)
    try {
      rmSync(note, { force: true });
    } catch {
      // Said again at the next Stop.
    }
  for (const path of STATE_LOGS) {
    const copy = copyPath(root, path);
    if (copy === undefined) return undefined;
    const kept = new Set(wholeLines(copy));
    const lines = wholeLines(join(root, path)).filter((line) => !kept.has(line)).length;
    if (lines > 0) counts.push({ path, lines });
  }
  if (counts.length === 0 && !removed) return undefined;
  const total = counts.reduce((sum, count) => sum + count.lines, 0);
  const mark = copyPath(root, FOREIGN_COUNT);
  const said = mark === undefined ? 0 : Number.parseInt(readText(mark) ?? "0", 10) || 0;
  if (total > said && mark !== undefined)
    try {
      writeFileSync(mark, `${total}\n`);
    } catch {
      // Said again at the next Stop.
    }
  return { counts, grown: total > said || removed, removed };
}

/** The line the Stop says. */
export function foreignLine(found: ForeignLines): string {
  const parts = found.counts.map(
    ({ path, lines }) => `${lines} tdd/strict line${lines === 1 ? "" : "s"} in ${path}`,
  );
  const one = found.counts.length === 1 && (found.counts[0]?.lines ?? 0) === 1;
  const lines =
    parts.length === 0
      ? ""
      : `${parts.join(" and ")} ${one ? "was" : "were"} not written by tailtest; ignored.`;
  const removed = found.removed
    ? "tailtest's copy of this project's tdd/strict state, kept outside the project, was removed by something other than tailtest: Reds, Greens and claims from before it are not read."
    : "";
  const said = [removed, lines].filter((part) => part !== "").join(" ");
  return `tailtest: ${said} Tell the person: if they did not ${found.removed ? "do this" : "write them"}, something in this turn did.`;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** A log's complete, non-blank lines (a torn last line is left out). */
function wholeLines(path: string): string[] {
  const text = readText(path) ?? "";
  const lines = text.split("\n");
  lines.pop();
  return lines.filter((line) => line.trim() !== "");
}
