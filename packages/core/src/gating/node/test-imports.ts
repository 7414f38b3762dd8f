import { createBudget } from "../../analysis/budget.ts";
import { loadJsLexers } from "../../analysis/js-module.ts";
import { isGraphSource } from "../../analysis/node/impact.ts";
import type { Project } from "../../project/node/project.ts";
import {
  importReader,
  reverseImporters,
  sourceIndex,
  type SourceIndex,
} from "../../selection/node/reverse-lookup.ts";
import { baseName, extensionOf } from "../../filter/languages.ts";
import { dirnameRel } from "../../project/project-view.ts";
import { PYTEST_SETTINGS_FILES } from "../../runners/pytest.ts";
import { normalizeRel } from "../../analysis/resolve.ts";
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
    // A bare `from helpers import mul` reaches `tests/helpers.py` under pytest alone, which puts
    // a test's folder on `sys.path`: those folders are roots here, and bare names are searched.
    const importsOf = importReader(project, index, pytestPathFolders(project, index, fresh));
    for (const file of fresh) {
      const { levels, complete } = reverseImporters(
        project,
        index,
        file,
        HOPS,
        budget,
        importsOf,
        true,
      );
      const importers = levels.flat().filter(isProd).sort();
      if (importers.length > 0) found.set(file, importers);
      if (complete) answered.set(file, importers);
    }
  } finally {
    listed.close();
  }
  return found;
}

const TEST_MODULE_RE = /^(?:test_.*|.*_test|conftest)\.py$/;

/**
 * The folders pytest puts on `sys.path` that hold one of `files` (project-relative): the
 * `pythonpath` entries of its config at the root, and, in its default import mode, the first
 * folder above a test module or `conftest.py` that is not a package (`tests/` for
 * `tests/test_calc.py` without `tests/__init__.py`), among the folders above `files`.
 */
export function pytestPathFolders(
  project: Project,
  index: Pick<SourceIndex, "has" | "files">,
  files: readonly string[],
): string[] {
  const folders = new Set<string>();
  // pytest's config files at the root, where its `pythonpath` is read.
  for (const config of PYTEST_SETTINGS_FILES)
    for (const entry of pythonpathEntries(project.view.readText(config) ?? "")) {
      const folder = normalizeRel(entry);
      if (folder !== undefined && folder !== "" && folder !== ".") folders.add(folder);
    }
  const isPackage = (dir: string) => index.has(`${dir}/__init__.py`);
  const basedir = (rel: string) => {
    let dir = dirnameRel(rel);
    while (dir !== "" && isPackage(dir)) dir = dirnameRel(dir);
    return dir;
  };
  const asked = new Set<string>();
  for (const file of files) {
    if (extensionOf(file) !== ".py") continue;
    for (let dir = dirnameRel(file); dir !== "" && !asked.has(dir); dir = dirnameRel(dir)) {
      asked.add(dir);
      if (isPackage(dir)) continue;
      const inserted = index.files
        .under(dir)
        .some((rel) => TEST_MODULE_RE.test(baseName(rel)) && basedir(rel) === dir);
      if (inserted) folders.add(dir);
    }
  }
  return [...folders];
}

/** The folders a pytest config's `pythonpath` names (ini's words, or a TOML list or string). */
export function pythonpathEntries(text: string): string[] {
  if (!text.includes("pythonpath")) return [];
  const entries: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let at = 0; at < lines.length; at += 1) {
    const match = /^\s*pythonpath\s*[=:]\s*(.*)$/.exec(lines[at] ?? "");
    if (match === null) continue;
    let value = match[1] ?? "";
    if (value.trimStart().startsWith("[")) {
      while (!value.includes("]") && at + 1 < lines.length) value += ` ${lines[(at += 1)]}`;
      for (const quoted of value.matchAll(/"([^"]*)"|'([^']*)'/g))
        entries.push(quoted[1] ?? quoted[2] ?? "");
      continue;
    }
    const quoted = /^\s*(?:"([^"]*)"|'([^']*)')\s*$/.exec(value);
    if (quoted !== null) {
      entries.push(...(quoted[1] ?? quoted[2] ?? "").split(/\s+/));
      continue;
    }
    // An ini value goes on over the indented lines after it.
    while (
      at + 1 < lines.length &&
      /^\s+\S/.test(lines[at + 1] ?? "") &&
      !(lines[at + 1] ?? "").includes("=")
    )
      value += ` ${lines[(at += 1)]}`;
    entries.push(...value.split(/\s+/));
  }
  return entries.filter((entry) => entry !== "" && !entry.startsWith("#"));
}

/** How a Stop names a file outside the production class that production code imports. */
export function importedLine(path: string, importers: readonly string[]): string {
  const shown = importers.slice(0, 3).join(", ");
  const more = importers.length > 3 ? ` and ${importers.length - 3} more` : "";
  return `${path} (imported by production code: ${shown}${more})`;
}
