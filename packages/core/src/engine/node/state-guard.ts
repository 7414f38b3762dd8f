import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomicSync } from "../../state/node/store.ts";

/**
 * What a test run may not do to tailtest: the code under test runs as the same user in the live
 * tree, so it could delete `.tailtest/` (the config with it: the mode would read as follow), rewrite
 * the config, or cut the event logs. Before a run the files that decide are read; after it, one
 * that is gone or changed is put back and named, and the run is not trusted (never green).
 */

const STATE = ".tailtest";
/** Compared whole: nothing but the person changes these while a test runs. */
const WHOLE = [
  `${STATE}/config.json`,
  `${STATE}/turn-baseline.json`,
  `${STATE}/tree-snapshot.json`,
];
/** Append-only logs: other hooks may append while a test runs, nothing may cut them. */
const APPENDED = [`${STATE}/events.jsonl`, `${STATE}/tdd-applied.jsonl`];
/** Rewritten by concurrent hooks: only their disappearance counts. */
const PRESENT = [`${STATE}/session.json`, `${STATE}/cursor-session.json`];
const TDD_LOGS = `${STATE}/tdd`;

export interface StateGuard {
  /** Puts back what the run removed or changed; the project-relative paths it put back. */
  check: () => string[];
}

function readBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/**
 * Reads tailtest's deciding files (and `extra` ones, such as the snapshots a revert needs) so a
 * run that removes or changes them is caught and undone.
 */
export function guardState(root: string, extra: readonly string[] = []): StateGuard {
  let logs: string[] = [];
  try {
    logs = readdirSync(join(root, TDD_LOGS))
      .filter((name) => name.endsWith(".log"))
      .map((name) => `${TDD_LOGS}/${name}`);
  } catch {
    // No tdd logs.
  }
  const kinds = new Map<string, "whole" | "appended" | "present">();
  for (const rel of [...WHOLE, ...extra]) kinds.set(rel, "whole");
  for (const rel of [...APPENDED, ...logs]) kinds.set(rel, "appended");
  for (const rel of PRESENT) kinds.set(rel, "present");
  const saved = new Map<string, Buffer>();
  for (const rel of kinds.keys()) {
    const bytes = readBytes(join(root, rel));
    if (bytes !== null) saved.set(rel, bytes);
  }
  return {
    check: () => {
      const restored: string[] = [];
      for (const [rel, before] of saved) {
        const now = readBytes(join(root, rel));
        const kind = kinds.get(rel);
        const intact =
          now !== null &&
          (kind === "present" ||
            (kind === "appended"
              ? now.length >= before.length && now.subarray(0, before.length).equals(before)
              : now.equals(before)));
        if (intact) continue;
        try {
          writeAtomicSync(join(root, rel), before);
        } catch {
          // Named all the same: the run is not trusted either way.
        }
        restored.push(rel);
      }
      return restored.sort();
    },
  };
}

/** The one line a tampering run is reported with. */
export function tamperedReason(restored: readonly string[]): string {
  return `the test run removed or changed tailtest's own files (${restored.join(", ")}); they were put back and the run is not trusted`;
}
