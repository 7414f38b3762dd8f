import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Mode } from "../../config/config.ts";
import { partialCopyLine } from "../turn-baseline.ts";

/**
 * What `tailtest status` says of tailtest's copy of the production files (`tree-snapshot.ts`):
 * the Stop's line while the copy passed a bound, in a mode that keeps one. Read without the
 * snapshot module, whose tree walk a status command does not need to load.
 */
export function copyStatusLine(root: string, mode: Mode): string | undefined {
  if (mode !== "tdd" && mode !== "strict") return undefined;
  let over: unknown;
  try {
    over = (
      JSON.parse(readFileSync(join(root, ".tailtest", "tree-snapshot.json"), "utf8")) as {
        over?: unknown;
      }
    ).over;
  } catch {
    return undefined;
  }
  return typeof over === "string" ? partialCopyLine(over, mode === "strict") : undefined;
}
