import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyInForce, copyPath } from "./state-copy.ts";

/**
 * The lines of the project's state logs that tailtest's copy lacks (state-copy.ts, ADR 0012 tenth
 * round): written into `.tailtest/` by something else, a program the agent ran. While the copy is
 * in force they move nothing; the end of the turn names them, and holds the Stop once each time
 * their number grows.
 */

const LOGS = [".tailtest/events.jsonl", ".tailtest/tdd-applied.jsonl"] as const;

export interface ForeignLines {
  /** Per project log, the lines its copy does not hold (only logs with some). */
  counts: { path: string; lines: number }[];
  /** Their number has grown since the last Stop that said it. */
  grown: boolean;
}

/** Undefined when no copy is in force, or every line was written by tailtest. */
export function foreignLines(root: string): ForeignLines | undefined {
  if (!copyInForce(root)) return undefined;
  const counts: ForeignLines["counts"] = [];
  for (const path of LOGS) {
    const copy = copyPath(root, path);
    if (copy === undefined) return undefined;
    const kept = new Set(wholeLines(copy));
    const lines = wholeLines(join(root, path)).filter((line) => !kept.has(line)).length;
    if (lines > 0) counts.push({ path, lines });
  }
  if (counts.length === 0) return undefined;
  const total = counts.reduce((sum, count) => sum + count.lines, 0);
  const mark = copyPath(root, ".tailtest/foreign-lines");
  const said = mark === undefined ? 0 : Number.parseInt(readText(mark) ?? "0", 10) || 0;
  if (total > said && mark !== undefined)
    try {
      writeFileSync(mark, `${total}\n`);
    } catch {
      // Said again at the next Stop.
    }
  return { counts, grown: total > said };
}

/** The line the Stop says. */
export function foreignLine(found: ForeignLines): string {
  const parts = found.counts.map(
    ({ path, lines }) => `${lines} tdd/strict line${lines === 1 ? "" : "s"} in ${path}`,
  );
  return `tailtest: ${parts.join(" and ")} ${found.counts.length === 1 && (found.counts[0]?.lines ?? 0) === 1 ? "was" : "were"} not written by tailtest; ignored. Tell the person: if they did not write them, something in this turn did.`;
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
