import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { copyInForce, copyPath } from "@tailtest/core/node";

/**
 * Writes state lines into a project as tailtest writes them (`appendLogged`, tdd-store.ts): to
 * the project's log and, while a session's mode copy is in force, to tailtest's copy of it
 * outside the project (state-copy.ts), which the gates then read. A test that stands for
 * tailtest's own writing uses this; a test of lines something else wrote writes the project's
 * file alone. `replace` writes both files whole.
 */
export function writeStateLines(
  root: string,
  text: string,
  { path = ".tailtest/events.jsonl", replace = false }: { path?: string; replace?: boolean } = {},
): void {
  for (const target of stateLogFiles(root, path)) {
    mkdirSync(dirname(target), { recursive: true });
    if (replace) writeFileSync(target, text);
    else appendFileSync(target, text);
  }
}

/**
 * The files a project's state log is read from and written to: the project's own and, while a
 * session's mode copy is in force, tailtest's copy (a test that breaks the log breaks both).
 */
export function stateLogFiles(root: string, path = ".tailtest/events.jsonl"): string[] {
  const copy = copyInForce(root) ? copyPath(root, path) : undefined;
  return copy === undefined ? [join(root, path)] : [join(root, path), copy];
}
