import { stripCommentsAndStrings } from "../config/complexity.ts";
import type { Language } from "./languages.ts";

/**
 * What a module holds at its top level, read from its first bytes only:
 * - `type-only`: type declarations (interfaces, type aliases, `declare`, Protocol/TypedDict
 *   classes with no bodies) and imports, no runtime code;
 * - `re-export`: imports and re-exports only (a barrel, an `__init__.py` that only imports, an
 *   entry shim that only requires another module);
 * - `no-code`: nothing but comments, a docstring or directives;
 * - `runtime`: anything else.
 * Undefined when the text cannot say: a language without a reader here, a head that was cut
 * (more code may follow), an empty file.
 */
export type ModuleShape = "type-only" | "re-export" | "no-code" | "runtime";

const JS_EXTENSIONS = /\.[cm]?[jt]sx?$/;

/**
 * A line that starts a function, class or variable at the top level: runtime code, decided
 * without scanning the head. A match inside a comment or a string only ever says "runtime", the
 * side that queues the file.
 */
const JS_RUNTIME_LINE =
  /^(?:export\s+(?:default\s+)?)?(?:async\s+)?(?:function\b|class\s|(?:const|let|var)\s+(?!enum\b))/m;
const PY_RUNTIME_LINE =
  /^(?:async\s+)?def\s|^class\s+\w+\s*(?:\[[^\]]*\])?\s*(?::|\((?![^)]*\b(?:Protocol|TypedDict|NamedTuple)\b))/m;

export function moduleShape(
  path: string,
  language: Language,
  head: string,
  complete: boolean,
): ModuleShape | undefined {
  if (head.trim() === "") return undefined;
  if (language === "python") {
    if (!path.endsWith(".py")) return undefined;
    if (PY_RUNTIME_LINE.test(head)) return "runtime";
    const shape = pythonShape(head);
    return shape === "runtime" || complete ? shape : undefined;
  }
  if ((language === "typescript" || language === "javascript") && JS_EXTENSIONS.test(path)) {
    if (JS_RUNTIME_LINE.test(head)) return "runtime";
    const shape = jsShape(head);
    return shape === "runtime" || complete ? shape : undefined;
  }
  return undefined;
}

// ── JavaScript / TypeScript ────────────────────────────────────────────────────────────────

/** Lines that continue the statement above rather than start one. */
const CONTINUES_NEXT = /[=|&,(<{:?+\-*/.[]$|=>$/;
const CONTINUES_PREVIOUS = /^[|&)\]}>?:.=,+*/-]/;

type JsStatement = "import" | "re-export" | "type" | "runtime";

const JS_RE_EXPORT =
  /^export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?\s+from\b|\{[^}]*\}\s*(?:from\b|;?$))/;
const JS_TYPE =
  /^(?:export\s+)?(?:declare\s|(?:default\s+)?interface\s|type\s+[\w$]+\s*(?:<|=)|const\s+enum\s)/;
const JS_IMPORT =
  /^import\s+(?:type\s+)?(?:[\w${},*\s]+from\s*)?""|^import\s+[\w$]+\s*=\s*require\(/;
const JS_REQUIRE_ONLY =
  /^(?:(?:module\.)?exports(?:\.[\w$]+)?\s*=\s*)?(?:require\(""\)(?:\.[\w$]+|\(\))*|await\s+import\(""\))\s*;?$/;
const JS_DEFAULT_REEXPORT =
  /^export\s+default\s+(?!(?:true|false|null|undefined)\b)[A-Za-z_$][\w$]*\s*;?$/;
const JS_DIRECTIVE = /^(?:""|#!.*)\s*;?$/;

function jsStatementKind(statement: string): JsStatement {
  if (JS_DIRECTIVE.test(statement) || /^export\s*\{\s*\}\s*;?$/.test(statement)) return "import";
  if (JS_IMPORT.test(statement)) return "import";
  if (JS_RE_EXPORT.test(statement)) return "re-export";
  if (JS_REQUIRE_ONLY.test(statement)) return "re-export";
  if (JS_DEFAULT_REEXPORT.test(statement)) return "re-export";
  if (JS_TYPE.test(statement)) return "type";
  return "runtime";
}

/** Top-level statements of stripped JS/TS code: brackets balanced, continuation lines joined. */
function jsStatements(code: string): string[] {
  const statements: string[] = [];
  let current = "";
  let depth = 0;
  const push = (): void => {
    const text = current.trim();
    if (text !== "") statements.push(text);
    current = "";
  };
  for (const rawLine of code.split("\n")) {
    const line = rawLine.trim();
    if (line === "") continue;
    if (depth === 0 && current !== "") {
      const open = CONTINUES_NEXT.test(current.trimEnd()) || CONTINUES_PREVIOUS.test(line);
      if (!open) push();
    }
    for (const part of line.split(/(?<=;)/)) {
      current += (current === "" ? "" : " ") + part;
      for (const c of part) {
        if (c === "{" || c === "(" || c === "[") depth += 1;
        else if (c === "}" || c === ")" || c === "]") depth = Math.max(0, depth - 1);
      }
      if (depth === 0 && part.trimEnd().endsWith(";")) push();
    }
  }
  push();
  return statements;
}

function jsShape(head: string): ModuleShape {
  const { code } = stripCommentsAndStrings(head, "typescript");
  let types = 0;
  let reExports = 0;
  let imports = 0;
  for (const statement of jsStatements(code)) {
    const kind = jsStatementKind(statement);
    if (kind === "runtime") return "runtime";
    if (kind === "type") types += 1;
    if (kind === "re-export") reExports += 1;
    if (kind === "import" && statement.startsWith("import")) imports += 1;
  }
  // Only imports: an entry shim (`import './dist/cli.mjs'`) or polyfill loader.
  if (reExports > 0 || (types === 0 && imports > 0)) return "re-export";
  if (types > 0) return "type-only";
  return "no-code";
}

// ── Python ─────────────────────────────────────────────────────────────────────────────────

const PY_IMPORT = /^(?:from\s+\S+\s+import\b|import\s)/;
const PY_DUNDER = /^__(?:all|version|author|email|license|copyright|docformat)__\s*(?:\+?=|:)/;
const PY_DOCSTRING = /^""$/;
const PY_DECORATOR = /^@[\w.]+/;
const PY_TYPE_CLASS =
  /^class\s+\w+\s*(?:\[[^\]]*\])?\s*\((?:[\w.]*\.)?(?:Protocol|TypedDict|NamedTuple)\b[^)]*\)\s*:/;
const PY_TYPE_ALIAS =
  /^(?:type\s+\w+.*=|\w+\s*:\s*(?:typing\.)?TypeAlias\s*=|\w+\s*=\s*(?:typing\.)?(?:TypeVar|ParamSpec|TypeVarTuple|NewType)\()/;
const PY_GUARD = /^(?:if\s+(?:typing\.)?TYPE_CHECKING\s*:|try\s*:|except\b.*:|else\s*:|pass$)/;
const PY_DEL = /^del\s/;
const PY_STUB_BODY =
  /^(?:\.\.\.|pass|""|\w+\s*:.+|(?:async\s+)?def\s.+:(?:\s*(?:\.\.\.|""))?|@[\w.]+(?:\(.*\))?)$/;

/**
 * Python's logical lines, from code whose comments and strings are already blanked: brackets
 * and trailing backslashes join physical lines. (The analyses' full reader stays out of the
 * hook's bundle.)
 */
function pythonLogicalLines(head: string): { indent: number; code: string }[] {
  const { code } = stripCommentsAndStrings(head, "python");
  const lines: { indent: number; code: string }[] = [];
  let current: { indent: number; code: string } | undefined;
  let depth = 0;
  for (const raw of code.split("\n")) {
    const text = raw.trimEnd();
    if (current === undefined) {
      if (text.trim() === "") continue;
      current = { indent: text.length - text.trimStart().length, code: "" };
    }
    const joined = text.endsWith("\\") ? text.slice(0, -1) : text;
    current.code += (current.code === "" ? "" : " ") + joined.trim();
    for (const c of joined) {
      if (c === "(" || c === "[" || c === "{") depth += 1;
      else if (c === ")" || c === "]" || c === "}") depth = Math.max(0, depth - 1);
    }
    if (depth === 0 && !text.endsWith("\\")) {
      lines.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) lines.push(current);
  return lines;
}

function pythonShape(head: string): ModuleShape {
  const lines = pythonLogicalLines(head);
  let types = 0;
  let imports = 0;
  let inTypeClass = false;
  for (const line of lines) {
    const code = line.code;
    if (line.indent > 0) {
      if (inTypeClass && PY_STUB_BODY.test(code)) continue;
      // Inside `if TYPE_CHECKING:` / `try:` only imports are allowed.
      if (!inTypeClass && (PY_IMPORT.test(code) || code === "pass")) continue;
      return "runtime";
    }
    inTypeClass = false;
    if (PY_DOCSTRING.test(code) || PY_GUARD.test(code) || PY_DEL.test(code)) continue;
    if (PY_DECORATOR.test(code)) continue;
    if (PY_IMPORT.test(code)) {
      imports += 1;
      continue;
    }
    if (PY_DUNDER.test(code)) continue;
    if (PY_TYPE_CLASS.test(code)) {
      types += 1;
      inTypeClass = true;
      continue;
    }
    if (PY_TYPE_ALIAS.test(code)) {
      types += 1;
      continue;
    }
    return "runtime";
  }
  if (types > 0) return "type-only";
  if (imports > 0) return "re-export";
  return "no-code";
}
