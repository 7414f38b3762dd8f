import ignore, { type Ignore } from "ignore";

/*
 * The gates ask every edit's path about a few gitignore-style lists (the default e2e folders and
 * names, the protected paths). `ignore` turns each pattern into a regular expression through a
 * dozen rewriting expressions of its own, and V8 compiles each expression the first time it runs,
 * in every process: ~30 compiles per gate, though almost no path can match. A `PathRules` builds
 * its `ignore` matcher only for a path that holds, case-insensitively, one of the literals every
 * match of one of its patterns must contain; any other path matches none of them, which is the
 * answer `ignore` would give (ADR 0010).
 */

/** What `ignore`'s `test` says; `rule` only when a pattern matched. */
interface PathRuleResult {
  ignored: boolean;
  unignored: boolean;
  rule?: { pattern: string } | undefined;
}

export interface PathRules {
  test(path: string): PathRuleResult;
  ignores(path: string): boolean;
}

const NO_MATCH: PathRuleResult = { ignored: false, unignored: false };

/**
 * One literal per pattern that every path the pattern matches (or lies under what it matches)
 * holds, lower-cased; undefined when some pattern does not say, and then every path is asked.
 * A pattern says when it is plain: no negation (which could un-ignore), comment, escape or
 * character class, and a run of ASCII characters between its `*` and `?` wildcards. A `/` at
 * either end of a run is left off (`**\/` and a folder's trailing `/` can match nothing), and so
 * are spaces (gitignore drops trailing ones).
 */
export function requiredPathLiterals(patterns: readonly string[]): string[] | undefined {
  const literals: string[] = [];
  for (const pattern of patterns) {
    if (pattern.trim() === "") continue; // a blank line matches nothing
    if (pattern.startsWith("!") || pattern.startsWith("#") || !isPlain(pattern)) return undefined;
    const longest = pattern
      .split("*")
      .flatMap((run) => run.split("?"))
      .map(trimEnds)
      .reduce((best, run) => (run.length > best.length ? run : best), "");
    if (longest === "") return undefined;
    literals.push(longest.toLowerCase());
  }
  return literals;
}

/** Printable ASCII without `\`, `[` or `]` (written without a regular expression: see above). */
function isPlain(pattern: string): boolean {
  for (let at = 0; at < pattern.length; at += 1) {
    const code = pattern.charCodeAt(at);
    if (code < 0x20 || code > 0x7e || code === 0x5c || code === 0x5b || code === 0x5d) return false;
  }
  return true;
}

/** A run without the `/` and spaces at either end. */
function trimEnds(run: string): string {
  let start = 0;
  let end = run.length;
  while (start < end && (run[start] === "/" || run[start] === " ")) start += 1;
  while (end > start && (run[end - 1] === "/" || run[end - 1] === " ")) end -= 1;
  return run.slice(start, end);
}

/** `ignore(options).add(patterns)`, built when a path could match (see above). */
export function pathRules(
  patterns: readonly string[],
  options: { ignorecase?: boolean } = {},
): PathRules {
  let matcher: Ignore | undefined;
  const rules = () => (matcher ??= ignore(options).add([...patterns]));
  const literals = requiredPathLiterals(patterns);
  const mayMatch = (path: string) => {
    if (literals === undefined) return true;
    const lower = path.toLowerCase();
    return literals.some((literal) => lower.includes(literal));
  };
  return {
    test: (path) => (mayMatch(path) ? rules().test(path) : NO_MATCH),
    ignores: (path) => mayMatch(path) && rules().ignores(path),
  };
}
