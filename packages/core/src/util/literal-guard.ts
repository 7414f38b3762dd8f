/**
 * A regular expression is compiled by V8 the first time it runs, in every process, and a code
 * cache does not keep it: a hook that ran the filter's and the depth score's ~85 patterns spent
 * ~17 M instructions (a tenth of the call) compiling them, though almost none can match the file
 * at hand. `quickTest` runs a pattern only when the text holds one of the literals every match of
 * it must contain (read off the pattern's own source, so the two cannot drift apart): the answer
 * is the pattern's, and a pattern that cannot match is never compiled (ADR 0010).
 */

/** Literals one of which every match contains, or undefined when the source does not say. */
type Required = readonly string[] | undefined;

/** Reads `source` from `at` up to the `)` that closes a group, or its end. */
interface Cursor {
  source: string;
  at: number;
}

/**
 * The literals a pattern's every match contains one of: for each top-level alternative, its
 * longest run of plain characters, or a group all of whose alternatives have such literals.
 * Undefined when some alternative has none, or for a pattern this reader does not take apart
 * (Unicode flags, whose case folding maps non-ASCII letters to ASCII ones, and sticky or global
 * patterns, whose `lastIndex` a skipped run would not update).
 */
export function requiredLiterals(pattern: RegExp): Required {
  if ([..."guvy"].some((flag) => pattern.flags.includes(flag))) return undefined;
  const cursor: Cursor = { source: pattern.source, at: 0 };
  let literals: Required;
  try {
    literals = readAlternatives(cursor);
  } catch (error) {
    if (error instanceof Unread) return undefined;
    throw error;
  }
  if (cursor.at !== cursor.source.length || literals === undefined) return undefined;
  const folded = pattern.flags.includes("i") ? literals.map((one) => one.toLowerCase()) : literals;
  // Non-ASCII literals are left to the pattern: their case folding is not toLowerCase's.
  return folded.every((one) => one !== "" && isAscii(one)) ? folded : undefined;
}

/** Thrown for what this reader does not take apart (`\u0041`, `\x41`, `\p{L}`, `\1`, `\k<a>`). */
class Unread extends Error {}

/** `a|b|c` up to a closing `)` (not consumed): the union of each alternative's literals. */
function readAlternatives(cursor: Cursor): Required {
  const all: string[] = [];
  let complete = true;
  for (;;) {
    const one = readSequence(cursor);
    if (one === undefined) complete = false;
    else all.push(...one);
    if (cursor.source[cursor.at] !== "|") break;
    cursor.at += 1;
  }
  return complete ? all : undefined;
}

/** What one alternative has offered so far, and the run of plain characters being read. */
interface Sequence {
  best: Required;
  run: string;
}

function offer(state: Sequence, candidate: Required): void {
  if (candidate === undefined || candidate.length === 0) return;
  if (state.best === undefined || shortest(candidate) > shortest(state.best))
    state.best = candidate;
}

function endRun(state: Sequence): void {
  if (state.run !== "") offer(state, [state.run]);
  state.run = "";
}

/**
 * One alternative: the best of its plain runs and its groups' literals (the one whose shortest
 * literal is longest). A quantified character or group, a class, `.`, an escape standing for a
 * class, an assertion and a lookaround end a run and offer nothing.
 */
function readSequence(cursor: Cursor): Required {
  const state: Sequence = { best: undefined, run: "" };
  while (cursor.at < cursor.source.length) {
    const char = cursor.source[cursor.at] ?? "";
    if (char === "|" || char === ")") break;
    if (readPlain(cursor, state)) continue;
    endRunUnlessAssertion(cursor, state, char);
    if (char === "(") {
      if (!readGroup(cursor, state)) return undefined;
    } else if (char === "[") {
      skipClass(cursor);
      if (quantifierAt(cursor.source, cursor.at)) skipQuantifier(cursor);
    } else {
      readAtom(cursor, state, char);
    }
  }
  endRun(state);
  return state.best;
}

/** Plain characters, a slice at a time: this reader runs in every hook, uncompiled. */
function readPlain(cursor: Cursor, state: Sequence): boolean {
  PLAIN.lastIndex = cursor.at;
  const plain = PLAIN.exec(cursor.source)?.[0];
  if (plain === undefined) return false;
  cursor.at += plain.length;
  if (quantifierAt(cursor.source, cursor.at)) {
    state.run += plain.slice(0, -1);
    endRun(state);
    skipQuantifier(cursor);
  } else {
    state.run += plain;
  }
  return true;
}

/** `\b`, `\B`, `^` and `$` match no character: the run goes on across them. */
function endRunUnlessAssertion(cursor: Cursor, state: Sequence, char: string): void {
  const next = cursor.source[cursor.at + 1] ?? "";
  const assertion =
    char === "^" || char === "$" || (char === "\\" && (next === "b" || next === "B"));
  if (!assertion && !(char === "\\" && next !== "" && !isAlphanumeric(next))) endRun(state);
}

/** A group: its literals when it is not quantified, nothing for a lookaround or a named group. */
function readGroup(cursor: Cursor, state: Sequence): boolean {
  const { source } = cursor;
  const lookaround =
    source.startsWith("(?=", cursor.at) ||
    source.startsWith("(?!", cursor.at) ||
    source.startsWith("(?<=", cursor.at) ||
    source.startsWith("(?<!", cursor.at);
  if (lookaround || source.startsWith("(?<", cursor.at)) {
    skipGroup(cursor);
    return true;
  }
  cursor.at += source.startsWith("(?:", cursor.at) ? 3 : 1;
  const inner = readAlternatives(cursor);
  if (source[cursor.at] !== ")") return false;
  cursor.at += 1;
  if (quantifierAt(source, cursor.at)) skipQuantifier(cursor);
  else offer(state, inner);
  return true;
}

/** An escape, `.`, an anchor or a quantifier's stray character: a literal only for `\.` and the like. */
function readAtom(cursor: Cursor, state: Sequence, char: string): void {
  let literal: string | undefined;
  let width = 1;
  if (char === "\\") {
    const next = cursor.source[cursor.at + 1] ?? "";
    width = 2;
    // `\.`, `\(`, `\/`: the character itself; `\b`, `\w`, `\d`, `\s`: not a literal.
    if (next !== "" && !isAlphanumeric(next)) literal = next;
    else if (next === "" || !"bBwWdDsS".includes(next)) throw new Unread();
  }
  cursor.at += width;
  if (quantifierAt(cursor.source, cursor.at)) {
    endRun(state);
    skipQuantifier(cursor);
  } else if (literal !== undefined) {
    state.run += literal;
  }
}

/** Characters that stand for themselves in a pattern (`{` and `}` left to the slow path). */
const PLAIN = /[^\\()[\]|.^$*+?{}]+/y;

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function isAlphanumeric(char: string): boolean {
  const code = char.charCodeAt(0);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** `{2}`, `{2,}`, `{2,5}` at `at` (a `{` that is not one is a literal `{`). */
function isBraceQuantifier(source: string, at: number): boolean {
  let i = at + 1;
  const digits = (): boolean => {
    const start = i;
    while (i < source.length && source.charCodeAt(i) >= 48 && source.charCodeAt(i) <= 57) i += 1;
    return i > start;
  };
  if (!digits()) return false;
  if (source[i] === ",") {
    i += 1;
    digits();
  }
  return source[i] === "}";
}

function shortest(literals: readonly string[]): number {
  return Math.min(...literals.map((one) => one.length));
}

function quantifierAt(source: string, at: number): boolean {
  const char = source[at];
  return (
    char === "?" || char === "*" || char === "+" || (char === "{" && isBraceQuantifier(source, at))
  );
}

function skipQuantifier(cursor: Cursor): void {
  const { source } = cursor;
  if (source[cursor.at] === "{") cursor.at = source.indexOf("}", cursor.at) + 1;
  else cursor.at += 1;
  // A lazy quantifier's `?`.
  if (source[cursor.at] === "?") cursor.at += 1;
}

function skipClass(cursor: Cursor): void {
  const { source } = cursor;
  cursor.at += 1;
  if (source[cursor.at] === "]") cursor.at += 1;
  while (cursor.at < source.length && source[cursor.at] !== "]")
    cursor.at += source[cursor.at] === "\\" ? 2 : 1;
  cursor.at += 1;
}

function skipGroup(cursor: Cursor): void {
  const { source } = cursor;
  let depth = 0;
  while (cursor.at < source.length) {
    const char = source[cursor.at];
    if (char === "\\") cursor.at += 2;
    else if (char === "[") skipClass(cursor);
    else {
      cursor.at += 1;
      if (char === "(") depth += 1;
      else if (char === ")" && (depth -= 1) === 0) return;
    }
  }
}

const GUARDS = new WeakMap<RegExp, Required | null>();

/**
 * Guards read at build time off a module's own regex literals, by `flags/source`: the command's
 * and the hooks' bundles call `primeGuards` as each module that uses `quickTest` loads
 * (tsup.config.base.ts, `primedGuards`), so a call reads no pattern source it was built with.
 */
const PRIMED = new Map<string, readonly string[] | null>();

/** Takes `[flags/source, requiredLiterals(pattern) ?? null]` pairs read at build time. */
export function primeGuards(
  entries: readonly (readonly [string, readonly string[] | null])[],
): void {
  for (const [key, literals] of entries) PRIMED.set(key, literals);
}

/**
 * `pattern.test(text)`, without running (or compiling) the pattern when `text` holds none of the
 * literals every match of it contains. Same answer as `pattern.test(text)`. `lower` is
 * `text.toLowerCase()` when the caller has it already (a case-insensitive pattern reads it).
 * The one way tailtest skips a regex that cannot match: a pattern is guarded by its own source.
 */
export function quickTest(pattern: RegExp, text: string, lower?: string): boolean {
  const literals = guardOf(pattern);
  if (literals !== undefined) {
    const haystack = pattern.ignoreCase ? (lower ?? text.toLowerCase()) : text;
    if (!literals.some((literal) => haystack.includes(literal))) return false;
  }
  return pattern.test(text);
}

/** `requiredLiterals(pattern)`, read once per pattern. */
export function guardOf(pattern: RegExp): Required {
  let literals = GUARDS.get(pattern);
  if (literals === undefined) {
    literals = PRIMED.get(`${pattern.flags}/${pattern.source}`);
    if (literals === undefined) literals = requiredLiterals(pattern) ?? null;
    GUARDS.set(pattern, literals);
  }
  return literals ?? undefined;
}
