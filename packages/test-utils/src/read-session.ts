import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { SessionStateSchema, type SessionState } from "@tailtest/core";
import { sessionJournal } from "@tailtest/core/node";

/**
 * A session file as tailtest's readers see it: the file, with the queued edits its journal holds
 * past the file's cursor folded in (an edit is one line of `session.edits.jsonl` until a reader
 * holding the lock folds it into `session.json`: ADR 0010).
 */
export function readSession(root: string, rel = ".tailtest/session.json"): SessionState {
  const path = join(root, rel);
  const session = SessionStateSchema.parse(JSON.parse(readFileSync(path, "utf8")));
  const journal = sessionJournal(path);
  const cursor = session.journal;
  if (
    cursor === undefined ||
    !existsSync(journal.path) ||
    statSync(journal.path).ino !== cursor.ino
  )
    return session;
  const text = readFileSync(journal.path).subarray(cursor.bytes).toString("utf8");
  return text
    .slice(0, text.lastIndexOf("\n") + 1)
    .split("\n")
    .filter((line) => line !== "")
    .reduce(journal.fold, session);
}
