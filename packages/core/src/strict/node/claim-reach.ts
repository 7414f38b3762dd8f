import { loadJsLexers } from "../../analysis/js-module.ts";
import type { Project } from "../../project/node/project.ts";
import { importReader } from "../../selection/node/reverse-lookup.ts";

/**
 * Which claimed JavaScript/TypeScript files a claimed test reaches through its imports (ADR 0012,
 * the fourteenth round). No runner says which files' code ran without a coverage package, so a
 * JavaScript claim is judged by its test's import graph, as selection reads it: a changed claimed
 * file the test's imports do not reach, beside one they do, covers nothing the test runs.
 */

/** A file a JavaScript runner loads through imports. */
export const JS_SOURCE = /\.(?:[cm]?[jt]sx?)$/;

/** How far the walk goes from the test, and how many files it reads at most. */
const HOPS = 12;
const MAX_FILES = 5_000;

/**
 * The files among `files` (project-relative) that `testFile`'s imports reach, directly or through
 * other project files (up to 12 hops, 5,000 files); undefined when the walk stopped at its bound
 * (nothing is judged then).
 */
export async function reachedByImports(
  project: Project,
  testFile: string,
  files: readonly string[],
): Promise<string[] | undefined> {
  await loadJsLexers();
  const importsOf = importReader(project);
  const seen = new Set([testFile]);
  let level = [testFile];
  for (let hop = 0; hop < HOPS && level.length > 0; hop++) {
    const next: string[] = [];
    for (const file of level)
      for (const target of importsOf(file)) {
        if (seen.has(target)) continue;
        seen.add(target);
        next.push(target);
        if (seen.size > MAX_FILES) return undefined;
      }
    level = next;
  }
  if (level.length > 0 && files.some((file) => !seen.has(file))) return undefined;
  return files.filter((file) => seen.has(file));
}
