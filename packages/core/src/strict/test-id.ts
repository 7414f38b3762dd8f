import { extensionOf } from "../filter/languages.ts";
import type { TestId } from "../engine/results.ts";
import type { RunnerId } from "../runners/project-runners.ts";
import { specOf } from "../runners/table.ts";
import type { StrictTest } from "./strict-events.ts";

/**
 * strict mode's test ids as text: `<file>::<segments>` (pytest's node ids, `::` for the runners
 * whose own ids use it, ` > ` for the JS runners), or an annotation slug from a
 * `tailtest-id: <slug>` comment above the test. Static, line-based parsing of test sources finds
 * the declarations a slug or a collection-time red (no per-test row) refers to. Pure.
 */

/** How a runner's test id joins its segments (its record's `testIdJoiner`): `::` or ` > `. */
export function joinerFor(runner: RunnerId | undefined): "::" | " > " {
  return runner === undefined ? " > " : specOf(runner).testIdJoiner;
}

export interface TestIdParts {
  file: string;
  segments: readonly string[];
  runner?: RunnerId | undefined;
}

/** `tests/test_calc.py::TestCalc::test_add`, `src/math.test.ts::math > adds`. */
export function formatTestId(test: TestIdParts): string {
  return `${test.file}::${test.segments.join(joinerFor(test.runner))}`;
}

export type ParsedTestId = { file: string; segments: string[] } | { slug: string };

const SLUG = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/**
 * Reads what an agent or a person typed as a test id: `file::a::b`, `file::a > b`, or an
 * annotation slug. A bare file path (`tests/test_calc.py`) or anything else is undefined.
 */
export function parseTestId(text: string): ParsedTestId | undefined {
  const trimmed = text.trim();
  const at = trimmed.indexOf("::");
  if (at === -1) {
    if (!SLUG.test(trimmed) || KNOWN_SOURCE_EXTENSIONS.has(extensionOf(trimmed))) return undefined;
    return { slug: trimmed };
  }
  const file = normaliseFile(trimmed.slice(0, at));
  const rest = trimmed.slice(at + 2);
  const byArrow = splitOutsideBrackets(rest, " > ");
  const segments = byArrow.length > 1 ? byArrow : splitOutsideBrackets(rest, "::");
  if (file === "" || segments.some((segment) => segment.trim() === "")) return undefined;
  return { file, segments };
}

/** Source extensions a slug may not end with: `tests/test_calc.py` is a file, not a slug. */
const KNOWN_SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([
  ".py",
  ".js",
  ".jsx",
  ".ts",
  ".tsx",
  ".mjs",
  ".cjs",
  ".mts",
  ".cts",
  ".go",
  ".rs",
  ".rb",
  ".php",
  ".java",
  ".kt",
  ".cs",
  ".swift",
]);

function normaliseFile(file: string): string {
  return file.replace(/\\/g, "/").replace(/^(?:\.\/)+/, "");
}

/**
 * Splits on a separator, except inside `[…]`: a pytest parameter (`test_cmp[1 > 0]`,
 * `test_x[a::b]`) stays one segment.
 */
function splitOutsideBrackets(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === "[") depth += 1;
    else if (char === "]" && depth > 0) depth -= 1;
    else if (depth === 0 && text.startsWith(separator, index)) {
      parts.push(text.slice(start, index));
      index += separator.length - 1;
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

// ---------------------------------------------------------------------------------------------
// Static declarations

export type TestLanguage = "python" | "js";

export interface TestDeclaration {
  /** 1-based line of the `def`/`it(`/`test(`. */
  line: number;
  /** Enclosing classes or describes, outermost first, then the test's own name. */
  segments: string[];
  /** The `tailtest-id:` slug in the 3 lines above it. */
  slug?: string;
}

/** A `# tailtest-id: slug` or `// @tailtest-id: slug` line. */
export const ANNOTATION = /^\s*(?:\/\/|#)\s*@?tailtest-id:\s*([A-Za-z0-9][A-Za-z0-9._/-]*)\s*$/;

const PYTHON_EXTENSIONS = new Set([".py"]);
const JS_EXTENSIONS = new Set([".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts"]);

/** Which static parser reads a test file, by its extension. */
export function languageOfTestFile(path: string): TestLanguage | undefined {
  const extension = extensionOf(path);
  if (PYTHON_EXTENSIONS.has(extension)) return "python";
  if (JS_EXTENSIONS.has(extension)) return "js";
  return undefined;
}

/** The tests a source declares, found line by line (prettier- or black-formatted code). */
export function findTestDeclarations(source: string, language: TestLanguage): TestDeclaration[] {
  const lines = source.split(/\r?\n/);
  return language === "python" ? pythonDeclarations(lines) : jsDeclarations(lines);
}

function indentOf(line: string): number {
  return /^\s*/.exec(line)?.[0].length ?? 0;
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

interface Scope {
  indent: number;
  /** The class or describe title; undefined: a scope whose tests have no static id. */
  title: string | undefined;
}

/** Pops the scopes a line at this indentation closes. */
function closeScopes(stack: Scope[], indent: number): void {
  while (stack.length > 0 && (stack[stack.length - 1]?.indent ?? -1) >= indent) stack.pop();
}

/** Segments under a scope stack, or undefined when one scope has no static title. */
function segmentsUnder(stack: readonly Scope[], name: string): string[] | undefined {
  const titles: string[] = [];
  for (const scope of stack) {
    if (scope.title === undefined) return undefined;
    titles.push(scope.title);
  }
  return [...titles, name];
}

function declaration(
  lines: readonly string[],
  index: number,
  segments: string[],
  language: TestLanguage,
): TestDeclaration {
  const slug = slugAbove(lines, index, language);
  return slug === undefined ? { line: index + 1, segments } : { line: index + 1, segments, slug };
}

const PY_CLASS = /^(\s*)class\s+(\w+)(.*)$/;
const PY_DEF = /^(\s*)(?:async\s+)?def\s+(\w+)\s*\(/;

function pythonDeclarations(lines: readonly string[]): TestDeclaration[] {
  const inString = pythonStringLines(lines);
  const stack: Scope[] = [];
  const found: TestDeclaration[] = [];
  lines.forEach((line, index) => {
    if (inString[index] === true || isBlank(line) || /^\s*#/.test(line)) return;
    closeScopes(stack, indentOf(line));
    const cls = PY_CLASS.exec(line);
    if (cls !== null) {
      const name = cls[2] ?? "";
      const isTestClass = name.startsWith("Test") || /\bTestCase\b/.test(cls[3] ?? "");
      stack.push({ indent: indentOf(line), title: isTestClass ? name : undefined });
      return;
    }
    const def = PY_DEF.exec(line);
    if (def === null) return;
    const name = def[2] ?? "";
    const segments = name.startsWith("test") ? segmentsUnder(stack, name) : undefined;
    if (segments !== undefined) found.push(declaration(lines, index, segments, "python"));
    // Whatever a function holds (nested functions, local classes) is not collected.
    stack.push({ indent: indentOf(line), title: undefined });
  });
  return found;
}

/** For each line, whether it starts inside a triple-quoted string (a docstring's body). */
function pythonStringLines(lines: readonly string[]): boolean[] {
  let open: string | undefined;
  return lines.map((line) => {
    const startsInside = open !== undefined;
    let position = 0;
    for (;;) {
      if (open !== undefined) {
        const end = line.indexOf(open, position);
        if (end === -1) break;
        position = end + 3;
        open = undefined;
        continue;
      }
      const next = /"""|'''/.exec(line.slice(position));
      if (next === null) break;
      open = next[0];
      position += next.index + 3;
    }
    return startsInside;
  });
}

const JS_CALL = /^(\s*)(describe|context|suite|it|test)((?:\.\w+)*)\s*\(/;
const SUITE_NAMES = new Set(["describe", "context", "suite"]);
/** Modifiers after which the call does not take a title directly (`it.each(rows)("…")`). */
const INDIRECT_MODIFIERS = new Set(["each", "for", "skipIf", "runIf", "extend"]);

function jsDeclarations(lines: readonly string[]): TestDeclaration[] {
  const inside = jsContinuationLines(lines);
  const stack: Scope[] = [];
  const found: TestDeclaration[] = [];
  lines.forEach((line, index) => {
    if (inside[index] === true || isBlank(line)) return;
    closeScopes(stack, indentOf(line));
    const call = JS_CALL.exec(line);
    if (call === null) return;
    const modifiers = (call[3] ?? "").split(".").filter((part) => part !== "");
    const direct = !modifiers.some((modifier) => INDIRECT_MODIFIERS.has(modifier));
    const title = direct ? titleAt(line, call[0].length) : undefined;
    if (SUITE_NAMES.has(call[2] ?? "")) {
      stack.push({ indent: indentOf(line), title });
      return;
    }
    const segments = title === undefined ? undefined : segmentsUnder(stack, title);
    if (segments !== undefined) found.push(declaration(lines, index, segments, "js"));
  });
  return found;
}

/**
 * The static title of a call's first argument (a string literal followed by `,` or `)`), read
 * from just after the call's `(`; undefined for anything computed.
 */
function titleAt(line: string, start: number): string | undefined {
  let index = start;
  while (line[index] === " ") index += 1;
  const quote = line[index];
  if (quote !== '"' && quote !== "'" && quote !== "`") return undefined;
  let value = "";
  for (index += 1; index < line.length; index += 1) {
    const char = line[index] ?? "";
    if (char === quote) {
      const after = line.slice(index + 1).trimStart()[0];
      return after === "," || after === ")" ? value : undefined;
    }
    if (quote === "`" && char === "$" && line[index + 1] === "{") return undefined;
    if (char === "\\") {
      index += 1;
      value += ESCAPES[line[index] ?? ""] ?? line[index] ?? "";
    } else value += char;
  }
  return undefined;
}

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "0": "\0" };

/**
 * For each line, whether it starts inside a template literal or a block comment (its text is
 * no code: a dedented multi-line string must not close a describe).
 */
function jsContinuationLines(lines: readonly string[]): boolean[] {
  let state: "code" | "template" | "comment" = "code";
  return lines.map((line) => {
    const startsInside = state !== "code";
    state = scanJsLine(line, state);
    return startsInside;
  });
}

type JsState = "code" | "template" | "comment";

function scanJsLine(line: string, initial: JsState): JsState {
  let state = initial;
  let index = 0;
  while (index < line.length) {
    if (state === "comment") {
      const end = line.indexOf("*/", index);
      if (end === -1) return state;
      state = "code";
      index = end + 2;
    } else if (state === "template") {
      const end = closingQuote(line, index, "`");
      if (end === -1) return state;
      state = "code";
      index = end + 1;
    } else {
      const char = line[index];
      if (char === "/" && line[index + 1] === "/") return state;
      if (char === "/" && line[index + 1] === "*") {
        state = "comment";
        index += 2;
      } else if (char === "`") {
        state = "template";
        index += 1;
      } else if (char === '"' || char === "'") {
        const end = closingQuote(line, index + 1, char);
        index = end === -1 ? line.length : end + 1;
      } else index += 1;
    }
  }
  return state;
}

/** Index of the next unescaped `quote` from `from`, or -1. */
function closingQuote(line: string, from: number, quote: string): number {
  for (let index = from; index < line.length; index += 1) {
    if (line[index] === "\\") index += 1;
    else if (line[index] === quote) return index;
  }
  return -1;
}

const COMMENT_LINE: Readonly<Record<TestLanguage, RegExp>> = {
  python: /^\s*#/,
  js: /^\s*(?:\/\/|\/\*|\*)/,
};

/**
 * The slug of an annotation within the 3 lines directly above a declaration. Blank lines,
 * comments and (Python) decorators may sit in between and count towards the 3; any other line
 * ends the search, so an annotation never jumps over code to the next test.
 */
function slugAbove(
  lines: readonly string[],
  index: number,
  language: TestLanguage,
): string | undefined {
  const decoratorsFrom = language === "python" ? decoratorStart(lines, index) : index;
  for (let above = index - 1; above >= Math.max(0, index - 3); above -= 1) {
    const line = lines[above] ?? "";
    const annotation = ANNOTATION.exec(line);
    if (annotation !== null) return annotation[1];
    const skippable = isBlank(line) || COMMENT_LINE[language].test(line) || above >= decoratorsFrom;
    if (!skippable) return undefined;
  }
  return undefined;
}

/** The first line of the decorators above a `def` (the def's own index when it has none). */
function decoratorStart(lines: readonly string[], index: number): number {
  const indent = indentOf(lines[index] ?? "");
  let top = index;
  for (let above = index - 1; above >= 0; above -= 1) {
    const line = lines[above] ?? "";
    if (isBlank(line) || /^\s*#/.test(line)) continue;
    const lineIndent = indentOf(line);
    if (lineIndent === indent && line.trimStart().startsWith("@")) top = above;
    else if (lineIndent <= indent && !/^\s*[)\]}]/.test(line)) break;
  }
  return top;
}

// ---------------------------------------------------------------------------------------------
// Slugs

/** The one test that carries a slug, or a one-line error (none, or several: named). */
export function resolveSlug(
  slug: string,
  files: ReadonlyArray<{ path: string; source: string }>,
): { file: string; segments: string[] } | { error: string } {
  const hits: { file: string; segments: string[]; line: number }[] = [];
  for (const file of files) {
    const language = languageOfTestFile(file.path);
    if (language === undefined) continue;
    for (const found of findTestDeclarations(file.source, language)) {
      if (found.slug === slug)
        hits.push({ file: file.path, segments: found.segments, line: found.line });
    }
  }
  const [first] = hits;
  if (first === undefined) return { error: `no test carries tailtest-id: ${slug}` };
  if (hits.length > 1) {
    const where = hits.map((hit) => `${hit.file}:${hit.line}`).join(", ");
    return { error: `tailtest-id: ${slug} is on ${hits.length} tests (${where}); make it unique` };
  }
  return { file: first.file, segments: first.segments };
}

/** A pytest parametrised name without its case: `test_add[1-2-3]` → `test_add`. */
function withoutParameters(name: string): string {
  return name.replace(/\[.*\]$/s, "");
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index]);
}

/**
 * The slug annotating the test with these segments (as the runner reported them). Python:
 * a parametrised case matches its function. JS: when no declaration has exactly these segments,
 * the one declaration with the same title (runners differ on what the describes are called).
 */
export function annotationFor(
  source: string,
  language: TestLanguage,
  segments: readonly string[],
): string | undefined {
  const declarations = findTestDeclarations(source, language);
  const wanted =
    language === "python"
      ? [...segments.slice(0, -1), withoutParameters(segments[segments.length - 1] ?? "")]
      : segments;
  const exact = declarations.filter((found) => sameSegments(found.segments, wanted));
  if (exact.length === 1) return exact[0]?.slug;
  if (exact.length > 1 || language === "python") return undefined;
  const title = wanted[wanted.length - 1];
  const byTitle = declarations.filter(
    (found) => found.segments[found.segments.length - 1] === title,
  );
  return byTitle.length === 1 ? byTitle[0]?.slug : undefined;
}

/** A runner's test id as strict mode stores it: the annotation slug when there is one. */
export function toStrictTest(id: TestId, source: string | undefined): StrictTest {
  const language = languageOfTestFile(id.file);
  const slug =
    source === undefined || language === undefined
      ? undefined
      : annotationFor(source, language, id.segments);
  const base = { file: id.file, segments: [...id.segments], runner: id.runner };
  return slug === undefined
    ? { id: formatTestId(id), ...base, source: "native" }
    : { id: slug, ...base, source: "annotation" };
}
