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

/** An `export * from` link the listing could not follow: its names are unknown. */
export interface UnfollowedStar {
  /** The project file the `export *` is in. */
  file: string;
  specifier: string;
}

export interface ApiLineOptions {
  /** The file makes names at run time (CommonJS, `export =`, `__getattr__`, a computed `__all__`). */
  open?: boolean;
  /** Re-exports whose names could not be listed: the line says the list is incomplete. */
  unfollowed?: readonly UnfollowedStar[];
}

const SHOWN_UNFOLLOWED = 2;

function describeUnfollowed(path: string, gaps: readonly UnfollowedStar[]): string {
  const shown = gaps
    .slice(0, SHOWN_UNFOLLOWED)
    .map((gap) =>
      gap.file === path ? `"${gap.specifier}"` : `"${gap.specifier}" (in ${gap.file})`,
    );
  const more = gaps.length > SHOWN_UNFOLLOWED ? ` (+${gaps.length - SHOWN_UNFOLLOWED} more)` : "";
  return `export * from ${shown.join(", ")}${more}`;
}

/**
 * The queued note's API part: "API: src/billing.py defines charge, refund, Invoice; a test
 * imports only these". Names re-exported through `export *` count as the file's own; when such a
 * link could not be followed (a package, a missing file, past the link limit) the line says its
 * names are not listed rather than passing the list off as complete. Nothing when the file has
 * no name to list and no such link.
 */
export function renderApiLine(
  path: string,
  names: readonly string[],
  options: ApiLineOptions = {},
): string | undefined {
  const gaps = options.unfollowed ?? [];
  if (names.length === 0 && gaps.length === 0) return undefined;
  const runtime = options.open === true ? "; it also makes names at run time" : "";
  if (gaps.length === 0)
    return `API: ${path} defines ${listNames(names)} (static parse)${runtime}; tests import only what it defines`;
  const unknown = `the names of ${describeUnfollowed(path, gaps)} could not be followed`;
  if (names.length === 0)
    return `API: ${path}: no names listed (static parse)${runtime}; ${unknown}, so what it defines is not known`;
  return `API: ${path} defines ${listNames(names)} (static parse)${runtime}; not complete: ${unknown}; tests import only what it defines`;
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
