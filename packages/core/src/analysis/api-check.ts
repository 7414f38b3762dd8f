/**
 * API validation from a static parse: the names a source file offers, and the names a test
 * imports from project files that those files do not define. Nothing is imported or run (the
 * original imported the user's module inside the hook).
 */

const SHOWN_NAMES = 8;
const SHOWN_MISSES = 3;

function listNames(names: readonly string[]): string {
  const shown = names.slice(0, SHOWN_NAMES).join(", ");
  return names.length > SHOWN_NAMES ? `${shown} (+${names.length - SHOWN_NAMES} more)` : shown;
}

/**
 * The queued note's API part: "API: src/billing.py defines charge, refund, Invoice; a test
 * imports only these". Nothing when the file declares no public name it can list.
 */
export function renderApiLine(
  path: string,
  names: readonly string[],
  open: boolean,
): string | undefined {
  if (names.length === 0) return undefined;
  const runtime = open ? "; it also makes names at run time" : "";
  return `API: ${path} defines ${listNames(names)} (static parse)${runtime}; tests import only what it defines`;
}

export interface MissingImport {
  test: string;
  source: string;
  missing: readonly string[];
  /** What the source does define, to show next to the miss. */
  defined: readonly string[];
}

/** One line per test/source pair whose import names something the source does not define. */
export function renderMissingImports(misses: readonly MissingImport[]): string[] {
  const lines = misses.slice(0, SHOWN_MISSES).map((miss) => {
    const what = miss.missing.length === 1 ? "a name" : "names";
    return `API check: ${miss.test} imports ${what} ${listNames(miss.missing)} from ${miss.source}, which does not define ${miss.missing.length === 1 ? "it" : "them"} (it defines: ${listNames(miss.defined) || "nothing public"}); fix the test or the source`;
  });
  if (misses.length > SHOWN_MISSES)
    lines.push(`API check: ${misses.length - SHOWN_MISSES} more test imports name missing things`);
  return lines;
}

/** The names in `wanted` that `defined` lacks, in order, once each. */
export function missingNames(wanted: readonly string[], defined: ReadonlySet<string>): string[] {
  return [...new Set(wanted.filter((name) => !defined.has(name)))];
}
