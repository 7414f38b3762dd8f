import { compareDepth } from "./depth.ts";
import { quickTest } from "../util/literal-guard.ts";
import type { Depth } from "./depth.ts";
import { LanguageSchema, stemOf } from "../filter/languages.ts";
import type { Language } from "../filter/languages.ts";

export type ComplexitySignalKind = "path" | "http" | "db" | "branches" | "functions";

export interface ComplexitySignal {
  kind: ComplexitySignalKind;
  points: number;
  label: string;
}

export interface ComplexityScore {
  score: number;
  signals: ComplexitySignal[];
  inputs?: Omit<ScoreInputs, "runtimeCode">;
}

/** What the score was computed from, for `tailtest explain`. */
export interface ScoreInputs {
  /** Risk words found in the project-relative path. */
  pathTerms: string[];
  http: boolean;
  db: boolean;
  /** Branches counted, before the cap of 4 points. */
  branches: number;
  /** Public functions counted, before the cap of 5 points. */
  publicFunctions: number;
  /** Characters of the file read (the hook reads the first 8 KB) and of code scanned (at most 8,000). */
  contentChars: number;
  codeChars: number;
  /** False when the file holds only types or re-exports: no scenarios are asked for. */
  runtimeCode: boolean;
}

export interface DepthDecision {
  depth: Depth;
  score: number;
  signals: ComplexitySignal[];
  scenarios: number;
  override: boolean;
  note: string | undefined;
  inputs: ScoreInputs;
}

export interface StrippedSource {
  code: string;
  strings: string[];
}

const CONTENT_LIMIT = 8000;
const HIGH_RISK_TERMS = [
  "auth",
  "permission",
  "billing",
  "payment",
  "checkout",
  "invoice",
  "subscription",
] as const;
const DESTRUCTIVE_TERMS = ["admin", "upload", "delete", "remove", "purge", "migrate"] as const;
const HIGH_RISK_POINTS = 4;
const DESTRUCTIVE_POINTS = 3;
const HTTP_POINTS = 3;
const DB_POINTS = 3;
const MAX_BRANCH_POINTS = 4;
const MAX_FUNCTION_POINTS = 5;

interface Syntax {
  lineComments: readonly string[];
  blockComments: boolean;
  /** Rust, Kotlin and Swift block comments nest: an inner opener needs its own closer. */
  nestedBlockComments: boolean;
  quotes: string;
  /** `"""…"""` (and `'''…'''` for Python) span lines. */
  tripleQuotes: string;
  /** Ordinary quoted strings cannot span lines, so a stray quote only swallows its own line. */
  newlineEndsString: boolean;
  /** Backticks are escape-free in Go raw strings but honour `\`` in JS template literals. */
  backtickEscapes: boolean;
}

const C_FAMILY: Syntax = {
  lineComments: ["//"],
  blockComments: true,
  nestedBlockComments: false,
  quotes: `"'`,
  tripleQuotes: "",
  newlineEndsString: true,
  backtickEscapes: false,
};

const SYNTAX: Readonly<Record<Language, Syntax>> = {
  python: {
    lineComments: ["#"],
    blockComments: false,
    nestedBlockComments: false,
    quotes: `"'`,
    tripleQuotes: `"'`,
    newlineEndsString: true,
    backtickEscapes: false,
  },
  ruby: {
    lineComments: ["#"],
    blockComments: false,
    nestedBlockComments: false,
    quotes: `"'`,
    tripleQuotes: "",
    newlineEndsString: false,
    backtickEscapes: false,
  },
  php: { ...C_FAMILY, lineComments: ["//", "#"], newlineEndsString: false },
  javascript: { ...C_FAMILY, quotes: "\"'`", backtickEscapes: true },
  typescript: { ...C_FAMILY, quotes: "\"'`", backtickEscapes: true },
  go: { ...C_FAMILY, quotes: "\"'`" },
  java: { ...C_FAMILY, tripleQuotes: `"` },
  csharp: { ...C_FAMILY, tripleQuotes: `"` },
  // Kotlin and Swift use backticks for identifiers (`fun \`a test\`()`), not strings.
  kotlin: { ...C_FAMILY, tripleQuotes: `"`, nestedBlockComments: true },
  swift: { ...C_FAMILY, tripleQuotes: `"`, nestedBlockComments: true },
  rust: { ...C_FAMILY, newlineEndsString: false, nestedBlockComments: true },
};

const STRING_PREFIX_STARTERS: Readonly<Partial<Record<Language, string>>> = {
  python: "rRbBfFuU",
  rust: "rb",
};

/** Characters that can open a comment or a string; every other character is plain code. */
function startersOf(language: Language): ReadonlySet<string> {
  const syntax = SYNTAX[language];
  const comments = syntax.lineComments.map((marker) => marker.charAt(0)).join("");
  const block = syntax.blockComments ? "/" : "";
  return new Set(syntax.quotes + comments + block + (STRING_PREFIX_STARTERS[language] ?? ""));
}

const STARTERS = Object.fromEntries(
  LanguageSchema.options.map((language) => [language, startersOf(language)]),
) as Readonly<Record<Language, ReadonlySet<string>>>;

const PYTHON_PREFIX = /[rRbBfFuU]{1,2}(?=["'])/y;
const RUST_RAW_STRING = /b?r(#*)"/y;
// A `'` not forming a char literal is a lifetime (`&'a str`) and stays code.
const RUST_CHAR = /'(?:\\(?:u\{[0-9a-fA-F]*\}|x[0-9a-fA-F]{2}|.)|[^'\\\n])'/y;
const WORD_CHAR = /\w/;

interface Literal {
  /** Index just past the literal. */
  end: number;
  body: string;
}

interface Comment {
  end: number;
  replacement: string;
}

interface StringOpening {
  bodyStart: number;
  closer: string;
  escapes: boolean;
  newlineEnds: boolean;
}

function matchSticky(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

function followsWordChar(text: string, at: number): boolean {
  return at > 0 && WORD_CHAR.test(text.charAt(at - 1));
}

function findStringEnd(text: string, opening: StringOpening): Literal {
  const { bodyStart, closer, escapes, newlineEnds } = opening;
  let j = bodyStart;
  while (j < text.length) {
    const c = text.charAt(j);
    if (escapes && c === "\\") {
      j += 2;
    } else if (text.startsWith(closer, j)) {
      return { end: j + closer.length, body: text.slice(bodyStart, j) };
    } else if (newlineEnds && c === "\n") {
      return { end: j, body: text.slice(bodyStart, j) };
    } else {
      j += 1;
    }
  }
  return { end: text.length, body: text.slice(bodyStart) };
}

function openPrefixedString(
  text: string,
  at: number,
  language: Language,
): StringOpening | undefined {
  if (followsWordChar(text, at)) return undefined;
  if (language === "python") {
    const prefix = matchSticky(PYTHON_PREFIX, text, at);
    return prefix ? openQuotedString(text, at + prefix[0].length, SYNTAX.python) : undefined;
  }
  if (language === "rust") {
    const raw = matchSticky(RUST_RAW_STRING, text, at);
    if (!raw) return undefined;
    return {
      bodyStart: at + raw[0].length,
      closer: `"${raw[1] ?? ""}`,
      escapes: false,
      newlineEnds: false,
    };
  }
  return undefined;
}

function openQuotedString(text: string, at: number, syntax: Syntax): StringOpening | undefined {
  const quote = text.charAt(at);
  if (quote === "" || !syntax.quotes.includes(quote)) return undefined;
  const triple = quote.repeat(3);
  if (syntax.tripleQuotes.includes(quote) && text.startsWith(triple, at)) {
    return { bodyStart: at + 3, closer: triple, escapes: true, newlineEnds: false };
  }
  if (quote === "`") {
    return { bodyStart: at + 1, closer: "`", escapes: syntax.backtickEscapes, newlineEnds: false };
  }
  return { bodyStart: at + 1, closer: quote, escapes: true, newlineEnds: syntax.newlineEndsString };
}

function readString(text: string, at: number, language: Language): Literal | undefined {
  if (language === "rust" && text.charAt(at) === "'") {
    const char = matchSticky(RUST_CHAR, text, at);
    return char ? { end: at + char[0].length, body: char[0].slice(1, -1) } : undefined;
  }
  const opening =
    openPrefixedString(text, at, language) ?? openQuotedString(text, at, SYNTAX[language]);
  return opening ? findStringEnd(text, opening) : undefined;
}

function endOfBlockComment(text: string, at: number, nested: boolean): number {
  let depth = 1;
  let j = at + 2;
  while (j < text.length) {
    if (text.startsWith("*/", j)) {
      depth -= 1;
      j += 2;
      if (depth === 0) return j;
    } else if (nested && text.startsWith("/*", j)) {
      depth += 1;
      j += 2;
    } else {
      j += 1;
    }
  }
  return text.length;
}

function isLineCommentStart(text: string, at: number, language: Language, syntax: Syntax): boolean {
  // PHP 8 attributes (`#[Route(...)]`) are code, not comments.
  if (language === "php" && text.startsWith("#[", at)) return false;
  return syntax.lineComments.some((marker) => text.startsWith(marker, at));
}

function newlinesIn(text: string): string {
  return text.replace(/[^\n]/g, "");
}

function readComment(text: string, at: number, language: Language): Comment | undefined {
  const syntax = SYNTAX[language];
  if (isLineCommentStart(text, at, language, syntax)) {
    const newline = text.indexOf("\n", at);
    return { end: newline === -1 ? text.length : newline, replacement: "" };
  }
  if (syntax.blockComments && text.startsWith("/*", at)) {
    const end = endOfBlockComment(text, at, syntax.nestedBlockComments);
    // A space keeps `a/**/b` from gluing into one token; newlines keep line-anchored regexes aligned.
    return { end, replacement: newlinesIn(text.slice(at, end)) || " " };
  }
  return undefined;
}

function scanSource(content: string, language: Language, maxCode: number): StrippedSource {
  const chunks: string[] = [];
  const strings: string[] = [];
  let emitted = 0;
  let runStart = 0;
  let i = 0;
  const emit = (chunk: string): void => {
    chunks.push(chunk);
    emitted += chunk.length;
  };
  const starters = STARTERS[language];
  while (i < content.length && emitted + (i - runStart) < maxCode) {
    if (!starters.has(content.charAt(i))) {
      i += 1;
      continue;
    }
    const comment = readComment(content, i, language);
    const literal = comment ? undefined : readString(content, i, language);
    if (!comment && !literal) {
      i += 1;
      continue;
    }
    emit(content.slice(runStart, i));
    if (comment) {
      emit(comment.replacement);
      i = comment.end;
    } else if (literal) {
      strings.push(literal.body);
      emit(`""${newlinesIn(literal.body)}`);
      i = literal.end;
    }
    runStart = i;
  }
  emit(content.slice(runStart, i));
  const code = chunks.join("");
  return { code: Number.isFinite(maxCode) ? code.slice(0, maxCode) : code, strings };
}

/**
 * Removes comments and replaces each string literal with `""`, in one pass. Newlines inside
 * comments and strings are kept, so the code has as many lines as the content. `strings` holds
 * each literal's source text between its delimiters, escapes undecoded.
 */
export function stripCommentsAndStrings(content: string, language: Language): StrippedSource {
  return scanSource(content, language, Number.POSITIVE_INFINITY);
}

/**
 * An HTTP client call. Tested through `quickTest`: V8 compiles a regex on its first test (~2–3 M
 * instructions for each of these, in every process that scores a file), and most files name no
 * HTTP client or database call; every alternative starts with a literal word, so the guard read
 * off the source skips the regex for code holding none of them (complexity.test.ts holds each
 * alternative to its word).
 */
export const HTTP_CALL =
  /\brequests\.(?:get|post|put|patch|delete|head|request)\(|\bfetch\(|\baxios\b|\bhttp\.client\b|\burllib|\baiohttp\b|\bhttpx\b|HttpClient|\bhttp\.(?:Get|Post|NewRequest)\(|\breqwest\b|\bNet::HTTP\b|\bFaraday\b|\bGuzzle|\bcurl_exec\(|WebClient\b|\bRestTemplate\b|\bURLSession\b|\bgot\(|\bky\.|\bsuperagent\b/i;

/** A database call, guarded the same way. */
export const DB_CALL =
  /\.execute\(|\.query\(|\.objects\.|\.save\(|\.commit\(|\.session\.|\bcursor\.|\.find(?:One|Many|Unique)\(|\bprisma\.|\bknex\(|\bsequelize\b|\.where\(|\bActiveRecord\b|\bdb\.(?:Query|Exec)\(|\bPDO\b|\bsqlx::|\bdiesel::|\bJdbcTemplate\b|\bEntityManager\b|\bDbContext\b/i;

// In JS/TS `.filter(` is Array.prototype.filter; only an ORM query in Python.
const PYTHON_DB_PATTERN = /\.filter\(/i;
const SQL_STRING =
  /^\s*(?:SELECT\s[\s\S]*\sFROM\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|CREATE\s+TABLE\s)/i;

const COMMON_BRANCHES = [/\bif(?=[\s(])/g, /\belse\b(?!\s+if\b)/g];
const C_FAMILY_BRANCHES = [...COMMON_BRANCHES, /\bswitch(?=\s*\(|\s+[\w{])/g];

const BRANCH_PATTERNS: Readonly<Record<Language, readonly RegExp[]>> = {
  python: [...COMMON_BRANCHES, /\belif\b/g, /^[ \t]*match[ \t].+:[ \t]*$/gm],
  ruby: [...COMMON_BRANCHES, /\bcase\b/g, /\belsif\b/g, /\bunless\b/g],
  rust: [...C_FAMILY_BRANCHES, /\bmatch\s[^{]+\{/g],
  php: C_FAMILY_BRANCHES,
  javascript: C_FAMILY_BRANCHES,
  typescript: C_FAMILY_BRANCHES,
  java: C_FAMILY_BRANCHES,
  csharp: C_FAMILY_BRANCHES,
  go: C_FAMILY_BRANCHES,
  swift: C_FAMILY_BRANCHES,
  kotlin: C_FAMILY_BRANCHES,
};

const JS_FUNCTIONS = [
  /^export[ \t]+(?:default[ \t]+)?(?:async[ \t]+)?function\b/gm,
  /^export[ \t]+const[ \t]+\w+[ \t]*(?::[^=\n]+)?=[ \t]*(?:async[ \t]+)?(?:\([^)]*\)|\w+)[ \t]*(?::[^=\n]+?)?=>/gm,
];
// The lookahead keeps `public class Foo(…)` (Kotlin constructors, C# records) from counting.
const PUBLIC_MEMBER =
  /^[ \t]*public[ \t]+(?![ \t])(?![\w<>[\],.? \t]*?\b(?:class|interface|enum|record|struct|object|protocol|extension|actor)[ \t]+\w)[\w<>[\],.? \t]*\w[ \t]*(?:<[\w<>[\],.? \t]*>[ \t]*)?\(/gm;

const FUNCTION_PATTERNS: Readonly<Record<Language, readonly RegExp[]>> = {
  python: [/^(?:async[ \t]+)?def[ \t]+[A-Za-z]\w*[ \t]*\(/gm],
  javascript: JS_FUNCTIONS,
  typescript: JS_FUNCTIONS,
  java: [PUBLIC_MEMBER],
  csharp: [PUBLIC_MEMBER],
  php: [PUBLIC_MEMBER],
  kotlin: [PUBLIC_MEMBER, /^[ \t]*(?:public[ \t]+)?fun[ \t]+(?:<[^>\n]*>[ \t]*)?\w+/gm],
  swift: [PUBLIC_MEMBER, /^[ \t]*public[ \t]+func[ \t]+\w+/gm],
  go: [/^func[ \t]+(?:\([^)]*\)[ \t]*)?[A-Z]\w*[ \t]*(?:\[[^\]\n]*\][ \t]*)?\(/gm],
  rust: [/^[ \t]*pub(?:\([^)]*\))?[ \t]+(?:(?:const|async|unsafe)[ \t]+)*fn[ \t]+/gm],
  ruby: [/^[ \t]*def[ \t]+(?:self\.)?[a-z]\w*[?!]?/gm],
};

function countMatches(code: string, patterns: readonly RegExp[]): number {
  return patterns.reduce((total, pattern) => total + [...code.matchAll(pattern)].length, 0);
}

/** Counts lines, not matches: Kotlin's `public fun` and Swift's `public func` fit two patterns. */
function countPublicFunctions(code: string, language: Language): number {
  const starts = new Set<number>();
  for (const pattern of FUNCTION_PATTERNS[language]) {
    for (const match of code.matchAll(pattern)) starts.add(match.index);
  }
  return starts.size;
}

function scorePath(relPath: string): ComplexitySignal[] {
  const path = relPath.toLowerCase();
  const signals: ComplexitySignal[] = [];
  const highRisk = HIGH_RISK_TERMS.find((term) => path.includes(term));
  if (highRisk) signals.push({ kind: "path", points: HIGH_RISK_POINTS, label: highRisk });
  const destructive = DESTRUCTIVE_TERMS.find((term) => path.includes(term));
  if (destructive) signals.push({ kind: "path", points: DESTRUCTIVE_POINTS, label: destructive });
  return signals;
}

function touchesDatabase(
  code: string,
  lower: string,
  strings: readonly string[],
  language: Language,
): boolean {
  if (quickTest(DB_CALL, code, lower)) return true;
  if (language === "python" && quickTest(PYTHON_DB_PATTERN, code)) return true;
  return strings.some((literal) => quickTest(SQL_STRING, literal));
}

/**
 * Scores how much testing an edited file deserves. `relPath` must be relative to the project
 * root: a root folder named like `author-tools` would otherwise add +4 to every file.
 */
export function scoreComplexity(
  relPath: string,
  content: string,
  language: Language,
): ComplexityScore {
  const { code, strings } = scanSource(content, language, CONTENT_LIMIT);
  const branchCount = countMatches(code, BRANCH_PATTERNS[language]);
  const functionCount = countPublicFunctions(code, language);
  const lower = code.toLowerCase();
  const http = quickTest(HTTP_CALL, code, lower);
  const db = touchesDatabase(code, lower, strings, language);
  const pathSignals = scorePath(relPath);
  const candidates: ComplexitySignal[] = [
    ...pathSignals,
    { kind: "http", points: http ? HTTP_POINTS : 0, label: "HTTP" },
    { kind: "db", points: db ? DB_POINTS : 0, label: "DB" },
    { kind: "branches", points: Math.min(branchCount, MAX_BRANCH_POINTS), label: "branches" },
    {
      kind: "functions",
      points: Math.min(functionCount, MAX_FUNCTION_POINTS),
      label: "functions",
    },
  ];
  const signals = candidates.filter((signal) => signal.points > 0);
  const inputs = {
    pathTerms: pathSignals.map((signal) => signal.label),
    http,
    db,
    branches: branchCount,
    publicFunctions: functionCount,
    contentChars: content.length,
    codeChars: code.length,
  };
  return { score: signals.reduce((total, signal) => total + signal.points, 0), signals, inputs };
}

export function depthForScore(score: number): Exclude<Depth, "adversarial"> {
  if (score >= 10) return "thorough";
  if (score >= 6) return "standard";
  return "simple";
}

const SCENARIO_RANGE: Readonly<Record<Depth, readonly [number, number]>> = {
  simple: [2, 4],
  standard: [5, 8],
  thorough: [10, 15],
  adversarial: [8, 12],
};

export function scenarioCount(depth: Depth, score: number): number {
  const [min, max] = SCENARIO_RANGE[depth];
  return Math.min(Math.max(score, min), max);
}

function formatNote(
  depth: Depth,
  relPath: string,
  complexity: ComplexityScore,
  scenarios: number,
): string {
  const stem = stemOf(relPath.replaceAll("\\", "/"));
  const parts = complexity.signals.map((signal) => `+${signal.points} ${signal.label}`).join(" ");
  const total =
    complexity.score === scenarios
      ? `${complexity.score} scenarios`
      : `${complexity.score} points, capped at ${scenarios} scenarios`;
  return `Complexity: ${depth} (${stem}: ${parts} = ${total}). Generate ~${scenarios} scenarios.`;
}

/**
 * The configured depth, raised (never lowered) when the file scores into a deeper band. A file
 * with no runtime code (`runtimeCode: false`: only types or re-exports, which the filter skips
 * unless the project's rules queue it) is asked for no scenarios at all.
 */
export function decideDepth(
  configured: Depth,
  relPath: string,
  content: string,
  language: Language,
  options: { runtimeCode?: boolean } = {},
): DepthDecision {
  const complexity = scoreComplexity(relPath, content, language);
  const runtimeCode = options.runtimeCode ?? true;
  const inputs: ScoreInputs = {
    pathTerms: [],
    http: false,
    db: false,
    branches: 0,
    publicFunctions: 0,
    contentChars: content.length,
    codeChars: 0,
    ...complexity.inputs,
    runtimeCode,
  };
  if (!runtimeCode) {
    const stem = stemOf(relPath.replaceAll("\\", "/"));
    return {
      depth: configured,
      score: complexity.score,
      signals: complexity.signals,
      scenarios: 0,
      override: false,
      note: `Complexity: ${stem} has no runtime code (types or re-exports only): no scenarios to generate; a test that imports it is enough.`,
      inputs,
    };
  }
  const computed = depthForScore(complexity.score);
  const override = compareDepth(computed, configured) > 0;
  const depth = override ? computed : configured;
  const scenarios = scenarioCount(depth, complexity.score);
  return {
    depth,
    score: complexity.score,
    signals: complexity.signals,
    scenarios,
    override,
    note: override ? formatNote(depth, relPath, complexity, scenarios) : undefined,
    inputs,
  };
}
