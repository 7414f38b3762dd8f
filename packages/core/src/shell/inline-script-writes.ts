/**
 * The files an inline interpreter script writes, read from its text (see `inline-interpreter.ts` for
 * where the script comes from): regular expressions over a copy of the script whose string
 * contents and comments are blanked out, so a call named inside a string (`print("open(x, 'w')")`)
 * or a comment is not a call, and each string literal is known by where it starts.
 *
 * What counts: Python `open(…, 'w'|'a'|'x'|'+'…)` (also `io`, `codecs`, `gzip`, `tarfile`,
 * `os.open` with write flags), a Path's `write_text`/`write_bytes`/`touch`/`open('w')`/`unlink`/
 * `rename`/`replace`, `os.remove`/`unlink`/`rename`/`replace`/`symlink`, `shutil`'s copies,
 * `move` and `rmtree`; JavaScript's `fs` writes (`writeFile`, `appendFile`, `createWriteStream`,
 * `copyFile`, `cp`, `rename`, `rm`, `unlink`, `open(…, 'w')`, each also `…Sync` and under
 * `fs.promises`), `Bun.write`, `Deno.writeTextFile`/`writeFile`/`create`/`remove`; Perl `open`
 * with a `>`/`>>`/`+<` mode, `sysopen` with write flags, `unlink`, `rename`, File::Copy's `copy`
 * and `move`; Ruby `File.write`/`open(…, "w")`/`new`/`delete`/`rename`, `FileUtils`' copies,
 * moves, removals and `touch`, and a `Pathname`'s `write`/`delete`/`rename`.
 *
 * A target is known when it is a literal, a variable the script assigns literals to, or a path
 * built from those (`Path('src') / 'a.py'`, `os.path.join`, `path.join`, `File.join`). A read
 * (`open('a.py').read()`) or a printed path (`console.log('src/a.ts')`) writes nothing. When a
 * script writes but a target cannot be read (`open(sys.argv[1], 'w')`, a loop variable, a path
 * computed at run time), every path-looking string literal of the script and every path-looking
 * operand after it counts as written, reads included: the tdd gate then errs towards asking for a
 * declaration instead of letting a write through. A target built only at run time from outside
 * the script (`open(os.environ['F'], 'w')` with no literal anywhere) stays unknown: the
 * end-of-turn sweep catches it. Shell commands the script runs with literal text
 * (`os.system('sed -i … src/a.py')`) are handed back for the caller to read as bash.
 */

import type { ScriptLanguage } from "./inline-interpreter.ts";
import { shellWord } from "../util/shell-word.ts";

export interface ScriptWrites {
  written: string[];
  deleted: string[];
  /**
   * Shell command lines the script runs (`os.system('…')`, `subprocess.run([…])`,
   * `execSync('…')`, Perl and Ruby `system`), for the caller to read as bash; an argv list is
   * quoted into one line.
   */
  commands: string[];
}

interface Span {
  start: number;
  end: number;
}

interface Literal extends Span {
  /** The string's value; undefined when it interpolates (f-string, `${}`, `#{}`, Perl `$x`). */
  value: string | undefined;
  /** The text between the quotes, as written. */
  raw: string;
}

interface Script {
  language: ScriptLanguage;
  /** The script with every string's content replaced by `_` and every comment by spaces. */
  code: string;
  literals: Map<number, Literal>;
  /** Variables assigned in the script → the expressions assigned to them. */
  bindings: Map<string, Span[]>;
}

interface Found extends Omit<ScriptWrites, "commands"> {
  /** A write whose target could not be read. */
  unknown: boolean;
}

const QUOTES: Readonly<Record<ScriptLanguage, string>> = {
  python: `'"`,
  javascript: "'\"`",
  perl: `'"`,
  ruby: `'"`,
};

function commentEnd(text: string, at: number, language: ScriptLanguage): number | undefined {
  const ch = text.charAt(at);
  if (language === "javascript") {
    if (text.startsWith("//", at)) return lineEnd(text, at);
    if (text.startsWith("/*", at)) {
      const close = text.indexOf("*/", at + 2);
      return close === -1 ? text.length : close + 2;
    }
    return undefined;
  }
  if (ch !== "#") return undefined;
  // Perl's `$#array` and `s#a#b#`: a comment starts a line or follows a blank or a `;`.
  if (language === "perl" && at > 0 && !/[\s;]/.test(text.charAt(at - 1))) return undefined;
  if (language === "ruby" && at > 0 && text.charAt(at - 1) === "$") return undefined;
  return lineEnd(text, at);
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end === -1 ? text.length : end;
}

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "0": "\0" };

function unescapeString(raw: string): string {
  return raw.replace(/\\(.)/gs, (whole, ch: string) => ESCAPES[ch] ?? (/\w/.test(ch) ? whole : ch));
}

function interpolates(
  raw: string,
  quote: string,
  language: ScriptLanguage,
  prefix: string,
): boolean {
  switch (language) {
    case "python":
      return /f/i.test(prefix) && raw.replace(/\{\{|\}\}/g, "").includes("{");
    case "javascript":
      return quote === "`" && raw.includes("${");
    case "perl":
      return quote === '"' && /(?<!\\)[$@][\w{:]/.test(raw);
    case "ruby":
      return quote === '"' && raw.includes("#{");
  }
}

/** Python's string prefixes (`r''`, `f""`, `rb''`) before the quote at `at`. */
function stringPrefix(text: string, at: number, language: ScriptLanguage): string {
  if (language !== "python") return "";
  const match = /(?<![\w])[rRbBuUfF]{1,2}$/.exec(text.slice(Math.max(0, at - 3), at));
  return match?.[0] ?? "";
}

function readString(text: string, at: number, language: ScriptLanguage): Literal {
  const quote = text.charAt(at);
  const prefix = stringPrefix(text, at, language);
  const triple = language === "python" && text.startsWith(quote.repeat(3), at);
  const open = triple ? 3 : 1;
  let i = at + open;
  let close = -1;
  while (i < text.length) {
    const ch = text.charAt(i);
    if (ch === "\\") i += 2;
    else if (triple ? text.startsWith(quote.repeat(3), i) : ch === quote) {
      close = i;
      break;
    } else if (ch === "\n" && !triple && quote !== "`") break;
    else i += 1;
  }
  const contentEnd = close === -1 ? Math.min(i, text.length) : close;
  const raw = text.slice(at + open, contentEnd);
  const end = close === -1 ? contentEnd : close + open;
  let value: string | undefined;
  if (!interpolates(raw, quote, language, prefix))
    value = /r/i.test(prefix) ? raw : unescapeString(raw);
  return { start: at - prefix.length, end, value, raw };
}

/** Where a comment or a string may start, to jump between them. */
const INTERESTING: Readonly<Record<ScriptLanguage, RegExp>> = {
  python: /[#'"]/g,
  javascript: /\/[/*]|['"`]/g,
  perl: /[#'"]/g,
  ruby: /[#'"]/g,
};

function scan(text: string, language: ScriptLanguage): Pick<Script, "code" | "literals"> {
  const pieces: string[] = [];
  const literals = new Map<number, Literal>();
  const next = new RegExp(INTERESTING[language]);
  let copied = 0;
  let match = next.exec(text);
  while (match !== null) {
    const i = match.index;
    const comment = commentEnd(text, i, language);
    let resume = i + 1;
    if (comment !== undefined) {
      pieces.push(text.slice(copied, i), " ".repeat(comment - i));
      copied = resume = comment;
    } else if (QUOTES[language].includes(text.charAt(i))) {
      const literal = readString(text, i, language);
      const inner = Math.max(0, literal.end - literal.start - 2);
      pieces.push(
        text.slice(copied, literal.start),
        `"${"_".repeat(inner)}"`.slice(0, literal.end - literal.start),
      );
      literals.set(literal.start, literal);
      copied = resume = Math.max(literal.end, i + 1);
    }
    next.lastIndex = resume;
    match = next.exec(text);
  }
  pieces.push(text.slice(copied));
  return { code: pieces.join(""), literals };
}

const OPENERS = "([{";
const CLOSERS = ")]}";

/** The index of the bracket closing the one at `open`, or the code's length. */
function closingOf(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i += 1) {
    const ch = code.charAt(i);
    if (OPENERS.includes(ch)) depth += 1;
    else if (CLOSERS.includes(ch)) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return code.length;
}

/** The index of the bracket opening the one at `close`, or -1. */
function openingOf(code: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i -= 1) {
    const ch = code.charAt(i);
    if (CLOSERS.includes(ch)) depth += 1;
    else if (OPENERS.includes(ch)) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function trimSpan(code: string, span: Span): Span {
  let { start, end } = span;
  while (start < end && /\s/.test(code.charAt(start))) start += 1;
  while (end > start && /\s/.test(code.charAt(end - 1))) end -= 1;
  return { start, end };
}

/** Where an expression starting at `from` ends: a top-level `,`, `;`, newline or closing bracket. */
function expressionEnd(code: string, from: number, stop: RegExp | undefined): number {
  let depth = 0;
  for (let i = from; i < code.length; i += 1) {
    const ch = code.charAt(i);
    if (OPENERS.includes(ch)) depth += 1;
    else if (CLOSERS.includes(ch)) {
      if (depth === 0) return i;
      depth -= 1;
    } else if (depth === 0 && (ch === ";" || ch === "\n")) return i;
    else if (depth === 0 && stop !== undefined && stop.test(code.slice(i, i + 8))) return i;
  }
  return code.length;
}

function splitTopLevel(code: string, span: Span, separator: string): Span[] {
  const parts: Span[] = [];
  let depth = 0;
  let start = span.start;
  for (let i = span.start; i < span.end; i += 1) {
    const ch = code.charAt(i);
    if (OPENERS.includes(ch)) depth += 1;
    else if (CLOSERS.includes(ch)) depth -= 1;
    else if (depth === 0 && ch === separator) {
      parts.push(trimSpan(code, { start, end: i }));
      start = i + 1;
    }
  }
  parts.push(trimSpan(code, { start, end: span.end }));
  return parts.filter((part) => part.end > part.start);
}

/** Perl and Ruby calls need no parentheses: `File.write "a.rb", x`, `open F, ">a" or die`. */
const PARENLESS_END = /^(?:\s+(?:do|or|and|if|unless)\b|\|\||&&|\{)/;

/** The argument spans of the call whose name ends at `after`; undefined when it has none. */
function callArguments(script: Script, after: number): Span[] | undefined {
  const { code } = script;
  let at = after;
  while (code.charAt(at) === " " || code.charAt(at) === "\t") at += 1;
  if (code.charAt(at) === "(") {
    const close = closingOf(code, at);
    return splitTopLevel(code, { start: at + 1, end: close }, ",");
  }
  if (script.language !== "perl" && script.language !== "ruby") return undefined;
  if (at === after || /[\n;=)]/.test(code.charAt(at))) return undefined;
  let end = at;
  while (end < code.length) {
    end = expressionEnd(code, end, PARENLESS_END);
    if (code.charAt(end) !== ",") break;
    end += 1;
  }
  return splitTopLevel(code, { start: at, end }, ",");
}

/** The expression a method is called on: `Path('a')` in `Path('a').write_text(…)`. */
function receiverOf(code: string, dot: number): Span {
  let i = dot - 1;
  while (i >= 0) {
    const ch = code.charAt(i);
    if (ch === ")" || ch === "]") i = openingOf(code, i) - 1;
    else if (ch === '"') i = code.lastIndexOf('"', i - 1) - 1;
    else if (/[\w$.:]/.test(ch)) i -= 1;
    else break;
  }
  return { start: i + 1, end: dot };
}

const IDENTIFIER: Readonly<Record<ScriptLanguage, RegExp>> = {
  python: /^[A-Za-z_]\w*$/,
  javascript: /^[A-Za-z_$][\w$]*$/,
  perl: /^\$\w+$/,
  ruby: /^[a-z_]\w*$/,
};

const ASSIGNMENT: Readonly<Record<ScriptLanguage, RegExp>> = {
  python: /(?<![\w.])([A-Za-z_]\w*)\s*=(?![=>~])/g,
  javascript: /(?<![\w$.])([A-Za-z_$][\w$]*)\s*=(?![=>~])/g,
  perl: /(\$\w+)\s*=(?![=>~])/g,
  ruby: /(?<![\w.:@$])([a-z_]\w*)\s*=(?![=>~])/g,
};

function findBindings(code: string, language: ScriptLanguage): Map<string, Span[]> {
  const bindings = new Map<string, Span[]>();
  for (const match of code.matchAll(ASSIGNMENT[language])) {
    const [whole, name = ""] = match;
    const from = match.index + whole.length;
    const span = trimSpan(code, { start: from, end: expressionEnd(code, from, undefined) });
    const spans = bindings.get(name);
    if (spans === undefined) bindings.set(name, [span]);
    else spans.push(span);
  }
  return bindings;
}

/** Calls that build a path out of their arguments: `Path('src', 'a.py')`, `path.join(…)`. */
const PATH_BUILDERS = new Set(
  (
    "Path pathlib.Path PurePath PosixPath pathlib.PosixPath os.path.join posixpath.join " +
    "os.path.abspath os.path.normpath os.fspath str path.join path.posix.join path.resolve " +
    "path.normalize join resolve String Bun.file File.join File.expand_path Pathname Pathname.new"
  ).split(" "),
);

const MAX_RESOLVE_DEPTH = 4;

function joinPaths(parts: readonly string[]): string {
  return parts.join("/").replace(/\/{2,}/g, "/");
}

/** The one value of each part, joined; undefined unless every part has exactly one value. */
function joinedValue(script: Script, parts: readonly Span[], depth: number): string[] | undefined {
  const values: string[] = [];
  for (const part of parts) {
    const value = valuesOf(script, part, depth + 1);
    if (value?.length !== 1 || value[0] === undefined) return undefined;
    values.push(value[0]);
  }
  return values.length === 0 ? undefined : [joinPaths(values)];
}

function callValue(script: Script, span: Span, depth: number): string[] | undefined {
  const { code } = script;
  const match = /^([\w$.:]+)\s*\(/.exec(code.slice(span.start, span.end));
  if (match?.[1] === undefined || !PATH_BUILDERS.has(match[1])) return undefined;
  const open = span.start + match[0].length - 1;
  if (closingOf(code, open) !== span.end - 1) return undefined;
  return joinedValue(
    script,
    splitTopLevel(code, { start: open + 1, end: span.end - 1 }, ","),
    depth,
  );
}

/** The string values an expression can have, when they can be read from the script; else undefined. */
function valuesOf(script: Script, whole: Span, depth = 0): string[] | undefined {
  if (depth > MAX_RESOLVE_DEPTH) return undefined;
  const { code } = script;
  const span = trimSpan(code, whole);
  if (span.end <= span.start) return undefined;
  const literal = script.literals.get(span.start);
  if (literal !== undefined && literal.end === span.end)
    return literal.value === undefined ? undefined : [literal.value];
  const text = code.slice(span.start, span.end);
  const first = text.charAt(0);
  if ((first === "(" || first === "[") && closingOf(code, span.start) === span.end - 1) {
    const inner = { start: span.start + 1, end: span.end - 1 };
    if (first === "(") return valuesOf(script, inner, depth + 1);
    const items = splitTopLevel(code, inner, ",").map((item) => valuesOf(script, item, depth + 1));
    return items.some((item) => item === undefined) ? undefined : (items.flat() as string[]);
  }
  if (script.language === "python") {
    const parts = splitTopLevel(code, span, "/");
    if (parts.length > 1) return joinedValue(script, parts, depth);
  }
  if (IDENTIFIER[script.language].test(text)) {
    const assigned = script.bindings.get(text);
    const values = assigned?.map((expression) => valuesOf(script, expression, depth + 1));
    if (values === undefined || values.some((value) => value === undefined)) return undefined;
    return [...new Set(values.flat() as string[])];
  }
  return callValue(script, span, depth);
}

const PATH_CONSTRUCTOR =
  /^(?:pathlib\.)?(?:Pure|Posix|Windows)?Path(?:\.(?:cwd|home))?\s*\(|^Pathname(?:\.new)?\s*\(/;
/** What follows a path and is still a path: `.parent`, `.with_suffix('.bak')`, `.resolve()`. */
const PATH_CHAIN =
  /^(?:\.(?:parent|(?:with_suffix|with_name|with_stem|joinpath|resolve|absolute|expanduser)\s*\([^()]*\)))*$/;

/**
 * Whether an expression is a path object (pathlib, Pathname): built by its constructor, joined
 * from one with `/`, or a variable assigned one. `Path('a').stem` is a string, and so is its
 * `.replace(…)`.
 */
function isPathObject(script: Script, whole: Span, depth = 0): boolean {
  if (depth > MAX_RESOLVE_DEPTH) return false;
  const { code } = script;
  const span = trimSpan(code, whole);
  const text = code.slice(span.start, span.end);
  const variable = /^[A-Za-z_$][\w$]*/.exec(text)?.[0];
  if (variable !== undefined && PATH_CHAIN.test(text.slice(variable.length))) {
    const bound = script.bindings.get(variable) ?? [];
    return bound.some((expression) => isPathObject(script, expression, depth + 1));
  }
  if (text.startsWith("(") && closingOf(code, span.start) === span.end - 1)
    return isPathObject(script, { start: span.start + 1, end: span.end - 1 }, depth + 1);
  const parts = script.language === "python" ? splitTopLevel(code, span, "/") : [];
  const [head] = parts;
  if (parts.length > 1 && head !== undefined) return isPathObject(script, head, depth + 1);
  const constructor = PATH_CONSTRUCTOR.exec(text);
  if (constructor === null) return false;
  const close = closingOf(code, span.start + constructor[0].length - 1);
  return PATH_CHAIN.test(code.slice(close + 1, span.end));
}

/** A value that names a file the script writes: not a URL, not a device, not built at run time. */
function isFileTarget(value: string): boolean {
  if (value === "" || value.startsWith("-") || /[\n$`\0]/.test(value)) return false;
  return !/^[a-z][\w+.-]*:\/\//i.test(value);
}

function addTargets(
  script: Script,
  found: Found,
  span: Span | undefined,
  into: "written" | "deleted",
): void {
  const values = span === undefined ? undefined : valuesOf(script, span);
  if (values === undefined || values.length === 0) {
    found.unknown = true;
    return;
  }
  for (const value of values) {
    if (!isFileTarget(value)) found.unknown = true;
    else if (!value.startsWith("/dev/")) found[into].push(value);
  }
}

const KEYWORD_ARGUMENT: Readonly<Record<ScriptLanguage, RegExp>> = {
  python: /^(\w+)\s*=(?!=)/,
  javascript: /^$/,
  perl: /^$/,
  ruby: /^(\w+):(?!:)/,
};

/** The argument at a position (keyword arguments not counted), or the one given by keyword. */
function argumentOf(
  script: Script,
  args: readonly Span[],
  index: number,
  keyword?: string,
): Span | undefined {
  const pattern = KEYWORD_ARGUMENT[script.language];
  const positional: Span[] = [];
  for (const arg of args) {
    const match = pattern.exec(script.code.slice(arg.start, arg.end));
    if (match === null || match[0] === "") positional.push(arg);
    else if (match[1] === keyword) return { start: arg.start + match[0].length, end: arg.end };
  }
  return positional[index];
}

const OS_WRITE_FLAGS =
  /\b(?:O_WRONLY|O_RDWR|O_CREAT|O_APPEND|O_TRUNC|WRONLY|RDWR|CREAT|APPEND|TRUNC)\b|\b(?:write|append|create|truncate)\s*:\s*true\b/;

/**
 * Whether an `open` mode writes: a literal mode by its letters, flags by their names (`os.O_WRONLY`,
 * `File::WRONLY`, Deno's `{ write: true }`). No mode reads. A mode the script computes counts as a
 * write: the target is still named, and the gate errs towards asking.
 */
function modeWrites(script: Script, span: Span | undefined, letters: RegExp): boolean {
  if (span === undefined) return false;
  const values = valuesOf(script, span);
  if (values !== undefined) return values.some((value) => letters.test(value));
  const text = script.code.slice(span.start, span.end);
  if (OS_WRITE_FLAGS.test(text)) return true;
  return !/\bO_RDONLY\b|\bRDONLY\b|\{/.test(text);
}

interface Call {
  name: string;
  /** The expression before `.name`, if it is a method call. */
  receiver: Span | undefined;
  receiverText: string;
  /** JavaScript's `Sync`. */
  suffix: string | undefined;
  args: Span[];
}

function findCalls(script: Script, pattern: RegExp): Call[] {
  const calls: Call[] = [];
  for (const match of script.code.matchAll(pattern)) {
    const [whole, dot, name = "", suffix] = match;
    const args = callArguments(script, match.index + whole.length);
    if (args === undefined) continue;
    const receiver =
      dot === undefined || dot === "" ? undefined : receiverOf(script.code, match.index);
    const receiverText =
      receiver === undefined ? "" : script.code.slice(receiver.start, receiver.end).trim();
    calls.push({ name, receiver, receiverText, suffix, args });
  }
  return calls;
}

function moveTargets(
  script: Script,
  found: Found,
  from: Span | undefined,
  to: Span | undefined,
): void {
  addTargets(script, found, from, "deleted");
  addTargets(script, found, to, "written");
}

// Python -----------------------------------------------------------------------------------------

const PYTHON_CALLS =
  /(\.\s*)?(?<![\w$])(open|write_text|write_bytes|touch|unlink|remove|rmtree|rename|replace|copy|copy2|copyfile|copytree|move|symlink|link|symlink_to|hardlink_to)(?=\s*\()/g;
const PYTHON_OPENERS = new Set(["", "io", "codecs", "gzip", "bz2", "lzma", "tarfile", "builtins"]);
const PYTHON_MODE = /[wax+]/;

function pythonOpen(script: Script, call: Call, found: Found): void {
  const { args, receiverText, receiver } = call;
  if (PYTHON_OPENERS.has(receiverText)) {
    const mode = argumentOf(script, args, 1, "mode");
    if (modeWrites(script, mode, PYTHON_MODE))
      addTargets(script, found, argumentOf(script, args, 0, "file"), "written");
    return;
  }
  if (receiverText === "os") {
    if (OS_WRITE_FLAGS.test(script.code.slice(args[1]?.start ?? 0, args[1]?.end ?? 0)))
      addTargets(script, found, args[0], "written");
    return;
  }
  // `Path(…).open('w')`: the mode comes first and the file is the receiver.
  const mode = argumentOf(script, args, 0, "mode");
  const modeLike =
    mode !== undefined && valuesOf(script, mode)?.every((value) => /^[rwxabt+U]{1,4}$/.test(value));
  if ((receiver !== undefined && isPathObject(script, receiver)) || modeLike === true) {
    if (modeWrites(script, mode, PYTHON_MODE)) addTargets(script, found, receiver, "written");
  }
}

type ModuleCall = (script: Script, args: readonly Span[], found: Found) => void;

const deleteFirst: ModuleCall = (script, args, found) =>
  addTargets(script, found, args[0], "deleted");
const writeSecond: ModuleCall = (script, args, found) =>
  addTargets(script, found, args[1], "written");
const moveFirstToSecond: ModuleCall = (script, args, found) =>
  moveTargets(script, found, args[0], args[1]);

const PYTHON_MODULE_CALLS: Readonly<Record<string, ModuleCall>> = {
  "os.remove": deleteFirst,
  "os.unlink": deleteFirst,
  "shutil.rmtree": deleteFirst,
  "os.rename": moveFirstToSecond,
  "os.replace": moveFirstToSecond,
  "shutil.move": moveFirstToSecond,
  "os.symlink": writeSecond,
  "os.link": writeSecond,
  "shutil.copy": writeSecond,
  "shutil.copy2": writeSecond,
  "shutil.copyfile": writeSecond,
  "shutil.copytree": writeSecond,
};

function pythonCall(script: Script, call: Call, found: Found): void {
  const { name, args, receiver, receiverText } = call;
  if (name === "open") return pythonOpen(script, call, found);
  const moduleCall = PYTHON_MODULE_CALLS[`${receiverText}.${name}`];
  if (moduleCall !== undefined) return moduleCall(script, args, found);
  if (receiver === undefined) return;
  switch (name) {
    case "write_text":
    case "write_bytes":
    case "touch":
    case "symlink_to":
    case "hardlink_to":
      return addTargets(script, found, receiver, "written");
    case "unlink":
      return addTargets(script, found, receiver, "deleted");
    case "rename":
    case "replace":
      // `str.replace` is everywhere: only a path object's counts.
      if (isPathObject(script, receiver)) moveTargets(script, found, receiver, args[0]);
      return;
    default:
      return;
  }
}

// JavaScript -------------------------------------------------------------------------------------

const JS_CALLS =
  /(\.\s*)?(?<![\w$])(writeFile|appendFile|createWriteStream|writeTextFile|outputFile|outputJson|writeJson|writeJSON|copyFile|cp|symlink|link|rename|move|rm|rmdir|unlink|remove|truncate|open|write|create)(Sync)?(?=\s*\()/g;
/** Names no other API uses: they count without a receiver (`const { writeFileSync } = …`). */
const JS_DISTINCT = new Set([
  "writeFile",
  "appendFile",
  "createWriteStream",
  "writeTextFile",
  "outputFile",
  "outputJson",
  "writeJson",
  "writeJSON",
  "copyFile",
]);

/** What `fs` goes by: `fs`, `fsp`, `fse`, `fs.promises`, `Deno`, `require('fs')`, `(await import('fs'))`. */
const JS_FS_RECEIVER =
  /(?:^|\.)(?:fs\w*|\w*Fs|promises|Deno)$|^\(?(?:await\s+)?(?:require|import)\(/i;

function jsCall(script: Script, call: Call, found: Found): void {
  const { name, args, receiverText } = call;
  if (name === "write" || name === "create") {
    // `Bun.write(…)`, `Deno.create(…)`; `fs.writeSync(fd, …)` and `Object.create` are not.
    if (receiverText === (name === "write" ? "Bun" : "Deno"))
      addTargets(script, found, args[0], "written");
    return;
  }
  // `rm`, `open`, `rename`… are common names: they count as `fs`'s when called on it or as `…Sync`.
  const fsCall =
    JS_DISTINCT.has(name) || call.suffix !== undefined || JS_FS_RECEIVER.test(receiverText);
  if (!fsCall) return;
  switch (name) {
    case "copyFile":
    case "cp":
    case "symlink":
    case "link":
      addTargets(script, found, args[1], "written");
      return;
    case "rename":
    case "move":
      moveTargets(script, found, args[0], args[1]);
      return;
    case "rm":
    case "rmdir":
    case "unlink":
    case "remove":
      addTargets(script, found, args[0], "deleted");
      return;
    case "open":
      if (modeWrites(script, args[1], /[wa+]/)) addTargets(script, found, args[0], "written");
      return;
    default:
      addTargets(script, found, args[0], "written");
  }
}

// Perl -------------------------------------------------------------------------------------------

const PERL_CALLS =
  /(?<![\w$@%&>:])()(?:File::Copy::)?(open|sysopen|unlink|rename|copy|move|cp|mv)(?=[\s(])/g;

function literalAt(script: Script, span: Span | undefined): Literal | undefined {
  if (span === undefined) return undefined;
  const literal = script.literals.get(span.start);
  return literal?.end === span.end ? literal : undefined;
}

/** `open(F, ">a")`, `open(my $f, '>>', 'a')`, `open F, "+<a"`: a mode with `>` or `+` writes. */
function perlOpen(script: Script, args: readonly Span[], found: Found): void {
  if (args.length >= 3) {
    const literal = literalAt(script, args[1]);
    const mode = literal?.value ?? literal?.raw;
    if (mode === undefined || /^\s*(?:\+|>)/.test(mode))
      addTargets(script, found, args[2], "written");
    return;
  }
  const literal = literalAt(script, args[1]);
  if (literal === undefined) return;
  const match = /^\s*(\+?[<>]{0,2})\s*(.*)$/s.exec(literal.value ?? literal.raw);
  if (match === null || !/[>+]/.test(match[1] ?? "")) return;
  const target = match[2]?.trim() ?? "";
  if (literal.value !== undefined && isFileTarget(target)) {
    if (!target.startsWith("/dev/") && !target.startsWith("&")) found.written.push(target);
  } else found.unknown = true;
}

function perlCall(script: Script, call: Call, found: Found): void {
  const { name, args } = call;
  switch (name) {
    case "open":
      return perlOpen(script, args, found);
    case "sysopen":
      if (OS_WRITE_FLAGS.test(script.code.slice(args[2]?.start ?? 0, args[2]?.end ?? 0)))
        addTargets(script, found, args[1], "written");
      return;
    case "unlink":
      for (const arg of args) addTargets(script, found, arg, "deleted");
      return;
    case "rename":
    case "move":
    case "mv":
      moveTargets(script, found, args[0], args[1]);
      return;
    default:
      // copy, cp (File::Copy)
      addTargets(script, found, args[1], "written");
  }
}

// Ruby -------------------------------------------------------------------------------------------

const RUBY_CALLS =
  /(\.|::)(write|binwrite|open|new|delete|unlink|rename|cp|copy|copy_file|cp_r|install|mv|move|rm|rm_f|rm_r|rm_rf|remove|remove_file|rmtree|remove_dir|safe_unlink|touch|ln|ln_s|ln_sf|symlink|link)(?![\w?!=])/g;
const RUBY_MODE = /[wa+]/;

function rubyFileCall(script: Script, call: Call, found: Found): void {
  const { name, args } = call;
  switch (name) {
    case "write":
    case "binwrite":
      addTargets(script, found, args[0], "written");
      return;
    case "open":
    case "new":
      if (modeWrites(script, argumentOf(script, args, 1, "mode"), RUBY_MODE))
        addTargets(script, found, args[0], "written");
      return;
    case "delete":
    case "unlink":
      for (const arg of args) addTargets(script, found, arg, "deleted");
      return;
    case "rename":
      moveTargets(script, found, args[0], args[1]);
      return;
    case "symlink":
    case "link":
      addTargets(script, found, args[1], "written");
      return;
    default:
      return;
  }
}

function rubyUtilsCall(script: Script, call: Call, found: Found): void {
  const { name, args } = call;
  if (/^(?:cp|copy|copy_file|cp_r|install|ln|ln_s|ln_sf)$/.test(name))
    addTargets(script, found, args[1], "written");
  else if (name === "mv" || name === "move") moveTargets(script, found, args[0], args[1]);
  else if (name === "touch") addTargets(script, found, args[0], "written");
  else if (/^(?:rm|rm_f|rm_r|rm_rf|remove|remove_file|rmtree|remove_dir|safe_unlink)$/.test(name))
    addTargets(script, found, args[0], "deleted");
}

function rubyPathnameCall(script: Script, call: Call, found: Found): void {
  const { name, args, receiver } = call;
  if (name === "write" || name === "binwrite") addTargets(script, found, receiver, "written");
  else if (name === "delete" || name === "unlink") addTargets(script, found, receiver, "deleted");
  else if (name === "rename") moveTargets(script, found, receiver, args[0]);
  else if (name === "open" && modeWrites(script, argumentOf(script, args, 0, "mode"), RUBY_MODE))
    addTargets(script, found, receiver, "written");
}

function rubyCall(script: Script, call: Call, found: Found): void {
  const owner = call.receiverText.replace(/^::/, "");
  if (owner === "File" || owner === "IO") rubyFileCall(script, call, found);
  else if (owner === "FileUtils") rubyUtilsCall(script, call, found);
  else if (call.receiver !== undefined && isPathObject(script, call.receiver))
    rubyPathnameCall(script, call, found);
}

// ------------------------------------------------------------------------------------------------

/** `require('fs')`, `import x from 'y'`, `require_relative './a'`: module names, not files. */
const MODULE_CONTEXT =
  /(?:\brequire(?:_relative)?|\bimport|\bfrom|import_module|__import__)\s*\(?\s*$/;
const MEDIA_TYPE = /^(?:text|application|image|audio|video|multipart|font)\/[\w.+-]+$/;

/** A string that reads as a file path: a slash or a name with an extension; no blanks, URL or option. */
export function looksLikePath(value: string): boolean {
  if (value.length > 260 || /[\s$`*?{}<>|"'\\;,()[\]=%#]/.test(value)) return false;
  if (value.startsWith("-") || /^[a-z][\w+.-]*:/i.test(value) || MEDIA_TYPE.test(value))
    return false;
  const last = value.split("/").pop() ?? "";
  if (last === "" || last === "." || last === "..") return false;
  if (value.includes("/")) return /\w/.test(last);
  // `'.py'`, `'.bak'` are suffixes far more often than dotfiles, and no dotfile is source code.
  return /^[\w-][\w.-]*\.[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$/.test(value);
}

function pathLiterals(script: Script): string[] {
  const paths: string[] = [];
  for (const literal of script.literals.values()) {
    if (literal.value === undefined || !looksLikePath(literal.value)) continue;
    if (MODULE_CONTEXT.test(script.code.slice(Math.max(0, literal.start - 40), literal.start)))
      continue;
    paths.push(literal.value);
  }
  return paths;
}

function callsOf(script: Script, found: Found): void {
  switch (script.language) {
    case "python":
      for (const call of findCalls(script, PYTHON_CALLS)) pythonCall(script, call, found);
      return;
    case "javascript":
      for (const call of findCalls(script, JS_CALLS)) jsCall(script, call, found);
      return;
    case "perl":
      for (const call of findCalls(script, PERL_CALLS)) perlCall(script, call, found);
      return;
    case "ruby":
      for (const call of findCalls(script, RUBY_CALLS)) rubyCall(script, call, found);
      return;
  }
}

// Shell-outs -------------------------------------------------------------------------------------

const SHELL_OUT_CALLS: Readonly<Record<ScriptLanguage, RegExp>> = {
  python:
    /(\.\s*)?(?<![\w$])(system|popen|run|call|check_call|check_output|Popen|getoutput|getstatusoutput)(?=\s*\()/g,
  javascript: /(\.\s*)?(?<![\w$])(execSync|exec|execFileSync|execFile|spawnSync|spawn)(?=\s*\()/g,
  perl: /(?<![\w$@%&>:])()(system|exec)(?=[\s(])/g,
  ruby: /(\.\s*)?(?<![\w$@:])(system|exec|spawn)(?=[\s(])/g,
};

/** Who runs a command: `os.system` but not `platform.system`, `subprocess.run` but not `app.run`. */
function runsShell(script: Script, call: Call): boolean {
  const owner = call.receiverText;
  switch (script.language) {
    case "python":
      return owner === (call.name === "system" || call.name === "popen" ? "os" : "subprocess");
    case "javascript":
      // `regex.exec(…)` is everywhere: `exec` counts bare or on child_process.
      return (
        call.name !== "exec" ||
        call.receiver === undefined ||
        /child_?process|^cp$|^require\(/i.test(owner)
      );
    case "perl":
      return true;
    case "ruby":
      return owner === "" || owner === "Kernel" || owner === "Process";
  }
}

/** The command line a shell-out runs: one string as it is, an argv (a list, or several) quoted. */
function shellCommandsOf(script: Script, args: readonly Span[]): string[] {
  const words: string[][] = [];
  for (const arg of args) {
    const values = valuesOf(script, arg);
    if (values === undefined) break; // options: `shell=True`, `{ stdio: 'inherit' }`
    words.push(values);
  }
  const first = args[0];
  if (words.length === 0 || first === undefined) return [];
  const single = words.length === 1 && script.code.charAt(first.start) !== "[";
  if (single) return words[0] ?? [];
  return [words.flat().map(shellWord).join(" ")];
}

function findShellOuts(script: Script): string[] {
  return findCalls(script, SHELL_OUT_CALLS[script.language])
    .filter((call) => runsShell(script, call))
    .flatMap((call) => shellCommandsOf(script, call.args));
}

/**
 * The files a script in a language writes and deletes, read from its text. A write whose target
 * cannot be read (a variable, a computed path) makes every path-looking string literal of the
 * script count as written: see the module comment.
 */
export function findScriptWrites(
  language: ScriptLanguage,
  text: string,
  operands: readonly string[] = [],
): ScriptWrites {
  const { code, literals } = scan(text, language);
  const script: Script = { language, code, literals, bindings: findBindings(code, language) };
  const found: Found = { written: [], deleted: [], unknown: false };
  callsOf(script, found);
  const deleted = new Set(found.deleted);
  if (found.unknown) {
    const candidates = [...pathLiterals(script), ...operands.filter((word) => looksLikePath(word))];
    found.written.push(...candidates.filter((path) => !deleted.has(path)));
  }
  return {
    written: [...new Set(found.written)],
    deleted: [...deleted],
    commands: findShellOuts(script),
  };
}
