/**
 * One pass over JavaScript/TypeScript text that knows comments, strings, template literals,
 * regular expressions and JSX: it finds `require("x")` calls (which es-module-lexer does not
 * report) and, for JSX files, blanks the JSX markup (keeping its `{…}` expressions) so a module
 * lexer that knows no JSX can read the file. Positions are kept: the output has the input's
 * length and its newlines.
 */

export interface JsCode {
  /** The text, with JSX markup (not its `{…}` expressions) turned into spaces when `jsx` is on. */
  code: string;
  /** Specifiers of `require("…")` calls with one literal argument, in order. */
  requires: string[];
}

/** After these words a `/` starts a regular expression and a `<` may start JSX. */
const EXPRESSION_KEYWORDS = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

interface Scanner {
  text: string;
  i: number;
  jsx: boolean;
  /** True where an expression may start: a `/` there is a regex, a `<` may be JSX. */
  expression: boolean;
  /** The last significant character before the current token. */
  previous: string;
  blanks: [number, number][];
  /** Where the JSX markup being blanked began, while inside it. */
  markupFrom?: number | undefined;
  requires: string[];
}

const IDENT_START = /[A-Za-z_$\u00a0-\uffff]/;
const IDENT_PART = /[\w$\u00a0-\uffff]/;
/** Deeper than this, the text is not code anyone wrote by hand; scanning stops there. */
const MAX_NESTING = 200;

export function scanJsCode(text: string, options: { jsx: boolean }): JsCode {
  const scanner: Scanner = {
    text,
    i: text.startsWith("#!") ? lineEnd(text, 0) : 0,
    jsx: options.jsx,
    expression: true,
    previous: "",
    blanks: [],
    requires: [],
  };
  scanCode(scanner, false, 0);
  if (scanner.blanks.length === 0) return { code: text, requires: scanner.requires };
  const chars = text.split("");
  for (const [from, to] of scanner.blanks) {
    for (let k = from; k < to && k < chars.length; k += 1) {
      if (chars[k] !== "\n" && chars[k] !== "\r") chars[k] = " ";
    }
  }
  return { code: chars.join(""), requires: scanner.requires };
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end === -1 ? text.length : end;
}

/** Scans code up to the end, or (inside `${…}` or a JSX `{…}`) past the brace that closes it. */
function scanCode(s: Scanner, untilBrace: boolean, nesting: number): void {
  const { text } = s;
  let depth = 0;
  while (s.i < text.length) {
    if (skipTrivia(s) || scanLiteral(s, nesting)) continue;
    const c = text.charAt(s.i);
    if (c === "{" || c === "}") {
      s.i += 1;
      if (c === "}" && depth === 0 && untilBrace) return;
      depth = c === "{" ? depth + 1 : Math.max(0, depth - 1);
      settle(s, c, true);
    } else if (c === "<" && opensJsx(s, nesting)) {
      scanJsxElement(s, nesting + 1);
      settle(s, ">", false);
    } else if (IDENT_START.test(c)) {
      scanWord(s);
    } else if (c >= "0" && c <= "9") {
      while (s.i < text.length && /[\w.]/.test(text.charAt(s.i))) s.i += 1;
      settle(s, "0", false);
    } else {
      s.i += 1;
      // `)` and `]` end an operand; every other punctuator leaves room for an expression.
      settle(s, c, c !== ")" && c !== "]");
    }
  }
}

function opensJsx(s: Scanner, nesting: number): boolean {
  return s.jsx && s.expression && nesting < MAX_NESTING && startsJsx(s.text, s.i);
}

/** Skips white space and comments; true when it moved. */
function skipTrivia(s: Scanner): boolean {
  const { text } = s;
  const c = text.charAt(s.i);
  const next = text.charAt(s.i + 1);
  if (c === " " || c === "\t" || c === "\n" || c === "\r") s.i += 1;
  else if (c === "/" && next === "/") s.i = lineEnd(text, s.i);
  else if (c === "/" && next === "*") {
    const end = text.indexOf("*/", s.i + 2);
    s.i = end === -1 ? text.length : end + 2;
  } else return false;
  return true;
}

/** Skips a string, template, regular expression or division sign; true when it moved. */
function scanLiteral(s: Scanner, nesting: number): boolean {
  const { text } = s;
  const c = text.charAt(s.i);
  if (c === "'" || c === '"') {
    s.i = endOfString(text, s.i);
    settle(s, '"', false);
  } else if (c === "`") {
    scanTemplate(s, nesting);
    settle(s, "`", false);
  } else if (c === "/") {
    const regex = s.expression;
    if (regex) s.i = endOfRegex(text, s.i);
    else s.i += text.charAt(s.i + 1) === "=" ? 2 : 1;
    settle(s, "/", !regex);
  } else return false;
  return true;
}

function settle(s: Scanner, previous: string, expression: boolean): void {
  s.previous = previous;
  s.expression = expression;
}

function scanWord(s: Scanner): void {
  const { text } = s;
  const start = s.i;
  while (s.i < text.length && IDENT_PART.test(text.charAt(s.i))) s.i += 1;
  const word = text.slice(start, s.i);
  if (word === "require" && s.previous !== ".") {
    const specifier = literalArgument(text, s.i);
    if (specifier !== undefined) s.requires.push(specifier);
  }
  settle(s, "a", EXPRESSION_KEYWORDS.has(word));
}

/** The string of `("x")` right after a name (spaces allowed), or undefined. */
function literalArgument(text: string, at: number): string | undefined {
  let k = skipSpaces(text, at);
  if (text.charAt(k) !== "(") return undefined;
  k = skipSpaces(text, k + 1);
  const quote = text.charAt(k);
  if (quote !== "'" && quote !== '"' && quote !== "`") return undefined;
  const end = endOfString(text, k);
  const body = text.slice(k + 1, end - 1);
  if (/[\\\n]/.test(body) || (quote === "`" && body.includes("${"))) return undefined;
  return text.charAt(skipSpaces(text, end)) === ")" ? body : undefined;
}

function skipSpaces(text: string, at: number): number {
  let k = at;
  while (/\s/.test(text.charAt(k))) k += 1;
  return k;
}

/** Index just past a quoted string (a `'`/`"` one ends at its line if unclosed). */
function endOfString(text: string, at: number): number {
  const quote = text.charAt(at);
  let k = at + 1;
  while (k < text.length) {
    const c = text.charAt(k);
    if (c === "\\") k += 2;
    else if (c === quote) return k + 1;
    else if (c === "\n" && quote !== "`") return k;
    else k += 1;
  }
  return text.length;
}

function endOfRegex(text: string, at: number): number {
  let k = at + 1;
  let inClass = false;
  while (k < text.length) {
    const c = text.charAt(k);
    if (c === "\\") k += 2;
    else if (c === "\n") return k;
    else if (c === "[") {
      inClass = true;
      k += 1;
    } else if (c === "]") {
      inClass = false;
      k += 1;
    } else if (c === "/" && !inClass) {
      k += 1;
      while (k < text.length && /\w/.test(text.charAt(k))) k += 1;
      return k;
    } else k += 1;
  }
  return text.length;
}

function scanTemplate(s: Scanner, nesting: number): void {
  const { text } = s;
  s.i += 1;
  while (s.i < text.length) {
    const c = text.charAt(s.i);
    if (c === "\\") s.i += 2;
    else if (c === "`") {
      s.i += 1;
      return;
    } else if (c === "$" && text.charAt(s.i + 1) === "{" && nesting < MAX_NESTING) {
      s.i += 2;
      settle(s, "{", true);
      scanCode(s, true, nesting + 1);
    } else s.i += 1;
  }
}

/**
 * `<` where an expression may start opens JSX when a tag name or `>` follows; `<T,>(…) =>` and
 * `<T extends U>(…) =>` are a generic arrow function's type parameters, not JSX.
 */
function startsJsx(text: string, at: number): boolean {
  const after = text.charAt(at + 1);
  if (after === ">") return true;
  if (!IDENT_START.test(after)) return false;
  let k = at + 1;
  while (k < text.length && /[\w$.:-]/.test(text.charAt(k))) k += 1;
  const rest = text.slice(skipSpaces(text, k), skipSpaces(text, k) + 8);
  return !(rest.startsWith(",") || /^extends\s/.test(rest));
}

/** Blanks one JSX element (from its `<`), keeping the code of its `{…}` expressions. */
function scanJsxElement(s: Scanner, nesting: number): void {
  const { text } = s;
  beginMarkup(s);
  s.i += 1;
  if (text.charAt(s.i) === ">") {
    s.i += 1;
    scanJsxChildren(s, nesting);
    endMarkup(s);
    return;
  }
  while (s.i < text.length && /[\w$.:-]/.test(text.charAt(s.i))) s.i += 1;
  while (s.i < text.length) {
    const c = text.charAt(s.i);
    if (c === "/" && text.charAt(s.i + 1) === ">") {
      s.i += 2;
      break;
    }
    if (c === ">") {
      s.i += 1;
      scanJsxChildren(s, nesting);
      break;
    }
    if (c === "{") keepExpression(s, nesting);
    else if (c === '"' || c === "'") s.i = endOfJsxString(text, s.i);
    else if (c === "<" && nesting < MAX_NESTING) {
      scanJsxElement(s, nesting + 1);
      beginMarkup(s);
    } else s.i += 1;
  }
  endMarkup(s);
}

function beginMarkup(s: Scanner): void {
  s.markupFrom ??= s.i;
}

function endMarkup(s: Scanner): void {
  if (s.markupFrom !== undefined && s.markupFrom < s.i) s.blanks.push([s.markupFrom, s.i]);
  s.markupFrom = undefined;
}

/** A JSX `{…}` is code: its braces stay, so the lexer sees them balanced. */
function keepExpression(s: Scanner, nesting: number): void {
  endMarkup(s);
  s.i += 1;
  settle(s, "{", true);
  scanCode(s, true, nesting);
  beginMarkup(s);
}

/** JSX attribute strings have no escapes and may span lines. */
function endOfJsxString(text: string, at: number): number {
  const end = text.indexOf(text.charAt(at), at + 1);
  return end === -1 ? text.length : end + 1;
}

/** Children up to and past the closing tag; text is markup, `{…}` is code, `<…>` nests. */
function scanJsxChildren(s: Scanner, nesting: number): void {
  const { text } = s;
  while (s.i < text.length) {
    const c = text.charAt(s.i);
    if (c === "<" && text.charAt(s.i + 1) === "/") {
      const close = text.indexOf(">", s.i);
      s.i = close === -1 ? text.length : close + 1;
      return;
    }
    if (c === "<" && nesting < MAX_NESTING) {
      scanJsxElement(s, nesting + 1);
      beginMarkup(s);
    } else if (c === "{") keepExpression(s, nesting);
    else s.i += 1;
  }
}
