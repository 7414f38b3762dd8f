import { createBudget } from "../../analysis/budget.ts";
import { loadJsLexers } from "../../analysis/js-module.ts";
import { isGraphSource } from "../../analysis/node/impact.ts";
import type { Project } from "../../project/node/project.ts";
import { reverseImporters, sourceIndex } from "../../selection/node/reverse-lookup.ts";
import { classifyTddFile, tddPatternsFromConfig } from "../../tdd/file-classes.ts";

/**
 * Code outside the production class that production code imports (ADR 0012): a test file is
 * always editable in strict and during a Red in tdd, and a file of no class (generated-looking
 * `mul_pb2.py` or `src/mul.generated.ts`, `scripts/`, `tools/`) or an end-to-end one
 * (`src/playwright/driver.py`) is never gated, so a helper there that a production file imports
 * was a way to change what production does with no failing test first. Refusing every production
 * import of a test area would refuse `numpy/testing` and `django/test`; instead, at the end of a
 * turn, each such source file that changed is asked who imports it, and one that production code
 * reaches is judged as production code (`productionImported`). Only the changed files are asked,
 * so a turn that wrote no code outside production pays nothing.
 */

/** Hops from the test file up its importers: production through another test file counts. */
const HOPS = 4;
/** The search's time box; past it what was found is kept (the Stop says nothing more). */
const BUDGET_MS = 5_000;

/**
 * The changed Python and JavaScript/TypeScript files outside the production class that production
 * code imports, each with the production files that reach it within `HOPS` imports (sorted). A
 * file deleted in the turn is still found: an import of it is what makes its deletion a
 * production change.
 */
export async function productionImported(
  project: Project,
  changed: readonly string[],
  /**
   * Answers already found at this Stop (strict looks before the claims' tests run and after
   * them): a file asked again is not searched again.
   */
  answered: Map<string, string[]> = new Map(),
  clock: () => number = Date.now,
): Promise<Map<string, string[]>> {
  const patterns = tddPatternsFromConfig(project.config);
  const isProd = (rel: string) => classifyTddFile(rel, patterns) === "prod";
  const candidates = changed.filter(
    (rel) => isGraphSource(rel) && classifyTddFile(rel, patterns) !== "prod",
  );
  const found = new Map<string, string[]>();
  const fresh = candidates.filter((rel) => !answered.has(rel));
  for (const rel of candidates) {
    const known = answered.get(rel);
    if (known !== undefined && known.length > 0) found.set(rel, known);
  }
  if (fresh.length === 0) return found;
  await loadJsLexers();
  const budget = createBudget(BUDGET_MS, clock);
  const listed = sourceIndex(project, budget);
  if (listed === undefined) return found;
  // A helper git ignores, or one deleted, is still a file an import resolves to.
  const asked = new Set(fresh);
  const index = { ...listed, has: (rel: string) => asked.has(rel) || listed.has(rel) };
  try {
    for (const file of fresh) {
      const { levels, complete } = reverseImporters(project, index, file, HOPS, budget);
      const importers = levels.flat().filter(isProd).sort();
      if (importers.length > 0) found.set(file, importers);
      if (complete) answered.set(file, importers);
    }
  } finally {
    listed.close();
  }
  return found;
}

/** How a Stop names a file outside the production class that production code imports. */
export function importedLine(path: string, importers: readonly string[]): string {
  const shown = importers.slice(0, 3).join(", ");
  const more = importers.length > 3 ? ` and ${importers.length - 3} more` : "";
  return `${path} (imported by production code: ${shown}${more})`;
}
