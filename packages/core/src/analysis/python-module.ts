/**
 * What a Python file imports and defines, from its text alone (never imported or run). A careful
 * line scan: strings (triple-quoted, prefixed, escaped), comments, bracketed and backslash
 * continuations are folded into logical lines first, so a docstring that says `import os` or a
 * `from x import (a,\n b)` spread over lines reads as what it is.
 */

import { namedScripts, STARTS_PROCESSES_RE } from "./python-scripts.ts";

export interface PythonImport {
  /** The dotted module after `from`/`import`, without its leading dots (`""` for `from . import x`). */
  module: string;
  /** Leading dots of a relative import (0: absolute). */
  level: number;
  /** Names after `from … import`: a list, `*`, or undefined for `import a.b`. */
  names: readonly string[] | "*" | undefined;
  /** 1-based line of the statement. */
  line: number;
}

export interface PythonModule {
  imports: PythonImport[];
  /** Every name bound at module level: def, class, assignment, import (what `from m import x` can find). */
  defined: string[];
  /** What the module offers: `__all__` when it has one, else public top-level def/class names. */
  publicNames: string[];
  /** Module-level `def` and `class` names, private ones too: the code of its own it has. */
  defs: string[];
  /** `__all__` when it is a literal list (or literal additions to one). */
  all?: string[];
  /**
   * Folders a literal `sys.path.insert(i, "tests")`, `sys.path.append("tests")` or
   * `sys.path[0:0] = ["tests"]` puts on the module search path, as written (relative to where
   * the process starts): an `import helpers` after it can be `tests/helpers.py`.
   */
  pathInserts: string[];
  /**
   * Folders named from the module's own place in a module that changes `sys.path`, relative to
   * its folder: `os.path.join(os.path.dirname(__file__), "tests")`, `Path(__file__).parent /
   * "tests"` (abspath, realpath and resolve too). What the computed folder is put on the path
   * with is not followed: a module that changes `sys.path` at all and names such a folder counts.
   */
  ownInserts: string[];
  /**
   * Folders named from the working directory in a module that changes `sys.path`, relative to
   * where the process starts (as `pathInserts` are): `os.path.join(os.getcwd(), "bin")`,
   * `Path.cwd() / "bin"`, `os.path.abspath("bin")`. A test that puts its application's folder on
   * the path so reaches the modules it then imports by bare name.
   */
  cwdInserts: string[];
  /**
   * True when the names cannot be known statically: a module-level `__getattr__`, a computed
   * `__all__`, or a `from x import *`. A validator then checks nothing against this module.
   */
  open: boolean;
  /**
   * In a module that loads modules by a computed name (`import_module(path)`), the dotted paths
   * its string literals spell (`"pkg.plugins.table.table"`, `"pkg.mod:attr"`), as a `from`
   * import of their last part: what it can load. Empty in any other module.
   */
  loadable: PythonImport[];
  /**
   * The project's console scripts (given to the scan, name → module) that a string literal of
   * this module names as a command word (`subprocess.run(["tool", …])`, `"tool --flag"`), as an
   * import of the entry point's module: running the command runs it. Absent when none is given.
   */
  scriptRuns?: PythonImport[];
}

interface LogicalLine {
  indent: number;
  /** The line's code with every string literal replaced by `"<n>"` (n indexes `strings`). */
  code: string;
  strings: string[];
  line: number;
}

const PREFIX_CHARS = new Set(["r", "R", "b", "B", "f", "F", "u", "U"]);

/** Splits Python source into logical lines (brackets and backslashes join physical lines). */
export function splitLogicalLines(text: string): LogicalLine[] {
  const lines: LogicalLine[] = [];
  let code = "";
  let strings: string[] = [];
  let depth = 0;
  let indent = -1;
  let startLine = 1;
  let line = 1;
  let i = 0;
  const flush = (): void => {
    if (code.trim() !== "") lines.push({ indent, code: code.trim(), strings, line: startLine });
    code = "";
    strings = [];
    indent = -1;
  };
  while (i < text.length) {
    if (indent === -1) {
      const start = readIndent(text, i);
      if (start.blankUntil !== undefined) {
        if (start.blankUntil === -1) break;
        i = start.blankUntil + 1;
        line += 1;
        continue;
      }
      indent = start.width;
      startLine = line;
      i = start.at;
      continue;
    }
    const plain = plainRunEnd(text, i);
    if (plain > i) {
      code += text.slice(i, plain);
      i = plain;
      continue;
    }
    const c = text.charAt(i);
    const continuation = continuationLength(text, i);
    if (c === "#") {
      i = endOfLine(text, i);
    } else if (continuation > 0) {
      i += continuation;
      line += 1;
      code += " ";
    } else if (c === "\n") {
      line += 1;
      i += 1;
      if (depth > 0) code += " ";
      else flush();
    } else {
      const literal = readStringAt(text, i);
      if (literal !== undefined) {
        code += `"${strings.length}"`;
        strings.push(literal.body);
        line += countNewlines(text, i, literal.end);
        i = literal.end;
        continue;
      }
      if (c === "(" || c === "[" || c === "{") depth += 1;
      else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth -= 1;
      code += c;
      i += 1;
    }
  }
  flush();
  return lines;
}

function endOfLine(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end === -1 ? text.length : end;
}

/** A backslash at the end of a line joins the next one: how many characters that takes, else 0. */
/** Characters that start something the loop above reads one at a time. */
const PLAIN_RUN = /[^#\\\n'"()[\]{}]+/y;
const WORD_CHAR = /\w/;

/**
 * Where a run of code that holds nothing to read one character at a time ends (`at` when there is
 * none): no comment, continuation, newline, quote or bracket, and, before a quote, not the word
 * that may be the string's prefix. `splitLogicalLines` copies such a run whole.
 */
function plainRunEnd(text: string, at: number): number {
  PLAIN_RUN.lastIndex = at;
  if (!PLAIN_RUN.test(text)) return at;
  let end = PLAIN_RUN.lastIndex;
  const next = text.charAt(end);
  if (next === '"' || next === "'")
    while (end > at && WORD_CHAR.test(text.charAt(end - 1))) end -= 1;
  return end;
}

function continuationLength(text: string, at: number): number {
  if (text.charAt(at) !== "\\") return 0;
  if (text.charAt(at + 1) === "\n") return 2;
  return text.startsWith("\r\n", at + 1) ? 3 : 0;
}

/**
 * The indentation at the start of a physical line (tabs to the next multiple of 8), or, for a
 * blank or comment-only line, where it ends (`blankUntil`, -1 at the end of the text).
 */
function readIndent(
  text: string,
  from: number,
): { width: number; at: number; blankUntil?: number } {
  let j = from;
  let width = 0;
  while (text.charAt(j) === " " || text.charAt(j) === "\t") {
    width += text.charAt(j) === "\t" ? 8 - (width % 8) : 1;
    j += 1;
  }
  const next = text.charAt(j);
  if (next === "\n" || next === "\r" || next === "#" || next === "")
    return { width, at: j, blankUntil: text.indexOf("\n", j) };
  return { width, at: j };
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i += 1) if (text.charCodeAt(i) === 10) count += 1;
  return count;
}

/** A string literal starting at `at` (with an optional r/b/f/u prefix), or undefined. */
function readStringAt(text: string, at: number): { end: number; body: string } | undefined {
  let j = at;
  // A prefix is one or two letters right before the quote, not the tail of a longer name.
  if (PREFIX_CHARS.has(text.charAt(j))) {
    if (at > 0 && /\w/.test(text.charAt(at - 1))) return undefined;
    j += 1;
    if (PREFIX_CHARS.has(text.charAt(j))) j += 1;
  }
  const quote = text.charAt(j);
  if (quote !== '"' && quote !== "'") return undefined;
  const triple = text.startsWith(quote.repeat(3), j);
  const closer = triple ? quote.repeat(3) : quote;
  let k = j + closer.length;
  const bodyStart = k;
  while (k < text.length) {
    const c = text.charAt(k);
    if (c === "\\") {
      k += 2;
      continue;
    }
    if (text.startsWith(closer, k))
      return { end: k + closer.length, body: text.slice(bodyStart, k) };
    // An unclosed one-line string ends at its line, so it cannot swallow the file.
    if (!triple && c === "\n") return { end: k, body: text.slice(bodyStart, k) };
    k += 1;
  }
  return { end: text.length, body: text.slice(bodyStart) };
}

const NAME = "[A-Za-z_][A-Za-z0-9_]*";
const DOTTED = `${NAME}(?:\\s*\\.\\s*${NAME})*`;
const IMPORT_RE = new RegExp(`^import\\s+(.+)$`);
const FROM_RE = new RegExp(`^from\\s+(\\.*)\\s*(${DOTTED})?\\s+import\\s+(.+)$`);
const DEF_RE = new RegExp(`^(?:async\\s+)?def\\s+(${NAME})\\s*\\(`);
const CLASS_RE = new RegExp(`^class\\s+(${NAME})\\s*[(:]`);
const ASSIGN_TARGETS_RE = new RegExp(
  `^\\(?\\s*(${NAME}(?:\\s*,\\s*${NAME})*)\\s*,?\\s*\\)?\\s*(?::[^=]+)?=(?!=)`,
);
const ALL_ASSIGN_RE = /^__all__\s*(?::[^=]+)?(\+?=)\s*(.*)$/;
const ALL_CALL_RE = /^__all__\s*\.\s*(extend|append)\s*\((.*)\)\s*$/;
const NAME_AS_RE = new RegExp(`^(${NAME})(?:\\s+as\\s+(${NAME}))?$`);
const DOTTED_AS_RE = new RegExp(`^(${DOTTED})(?:\\s+as\\s+(${NAME}))?$`);
const BLOCK_OPENERS =
  /^(if|elif|else|try|except|finally|with|for|while|async\s+with|async\s+for)\b/;

interface ModuleScan {
  imports: PythonImport[];
  pathInserts: string[];
  ownFolders: string[];
  cwdFolders: string[];
  changesPath: boolean;
  defined: Set<string>;
  defsAndClasses: string[];
  all: string[] | undefined;
  open: boolean;
}

/** The computed folders a module puts on `sys.path`: none when it never changes it. */
function computedInserts(scan: ModuleScan): { ownInserts: string[]; cwdInserts: string[] } {
  if (!scan.changesPath) return { ownInserts: [], cwdInserts: [] };
  return { ownInserts: [...new Set(scan.ownFolders)], cwdInserts: [...new Set(scan.cwdFolders)] };
}

/** Reads a Python module's imports and module-level names. */
export function scanPythonModule(
  text: string,
  scripts?: Readonly<Record<string, string>>,
): PythonModule {
  const scan: ModuleScan = {
    imports: [],
    pathInserts: [],
    ownFolders: [],
    cwdFolders: [],
    changesPath: false,
    defined: new Set(),
    defsAndClasses: [],
    all: undefined,
    open: false,
  };
  // Indentation of the def/class whose body we are in; module-level names stop there.
  const bodies: number[] = [];
  const loadable = loadableByName();
  const runs =
    scripts === undefined || Object.keys(scripts).length === 0 || !STARTS_PROCESSES_RE.test(text)
      ? undefined
      : new Map<string, number>();
  for (const logical of splitLogicalLines(text)) {
    loadable.read(logical);
    if (runs !== undefined && scripts !== undefined && logical.strings.length > 0)
      for (const name of namedScripts(logical.strings, scripts))
        if (!runs.has(name)) runs.set(name, logical.line);
    while (bodies.length > 0 && logical.indent <= (bodies[bodies.length - 1] ?? -1)) bodies.pop();
    const inBody = bodies.length > 0;
    for (const statement of splitStatements(logical.code)) {
      readDynamicImports(scan, statement, logical);
      if (readStatement(scan, statement, logical, inBody)) {
        bodies.push(logical.indent);
        // `def f(): return 1` has its body on the same line: nothing more to read there.
        break;
      }
    }
  }
  const publicNames =
    scan.all ??
    scan.defsAndClasses.filter(
      (name, index, list) => !name.startsWith("_") && list.indexOf(name) === index,
    );
  const result: PythonModule = {
    imports: scan.imports,
    defined: [...scan.defined],
    publicNames,
    defs: [...new Set(scan.defsAndClasses)],
    pathInserts: scan.pathInserts,
    ...computedInserts(scan),
    open: scan.open,
    loadable: loadable.found(),
  };
  if (scan.all !== undefined) result.all = scan.all;
  if (runs !== undefined && scripts !== undefined)
    result.scriptRuns = [...runs].map(([name, line]) => ({
      module: scripts[name] ?? "",
      level: 0,
      names: undefined,
      line,
    }));
  return result;
}

/** Reads one statement into the scan; true when it opens a def or class body. */
function readStatement(
  scan: ModuleScan,
  statement: string,
  logical: LogicalLine,
  inBody: boolean,
): boolean {
  const imported = readImport(statement, logical.line);
  if (imported !== undefined) {
    scan.imports.push(...imported.imports);
    if (!inBody) {
      for (const name of imported.bound) scan.defined.add(name);
      if (imported.imports.some((entry) => entry.names === "*")) scan.open = true;
    }
    return false;
  }
  const def = DEF_RE.exec(statement);
  const header = def ?? CLASS_RE.exec(statement);
  if (header !== null) {
    const name = header[1] ?? "";
    if (!inBody) {
      scan.defined.add(name);
      scan.defsAndClasses.push(name);
      // A module-level __getattr__ answers any name: nothing can be flagged as missing.
      if (def !== null && name === "__getattr__") scan.open = true;
    }
    return true;
  }
  if (inBody || BLOCK_OPENERS.test(statement)) return false;
  const allChange = readAllChange(statement, logical.strings);
  if (allChange !== undefined) {
    scan.defined.add("__all__");
    if (allChange.names === undefined) scan.open = true;
    else
      scan.all = allChange.replace
        ? [...allChange.names]
        : [...(scan.all ?? []), ...allChange.names];
    return false;
  }
  for (const name of readAssignedNames(statement)) scan.defined.add(name);
  return false;
}

/** `importlib.import_module("x.y")`, `import_module(".y", …)`, `__import__("x.y", …)`. */
const DYNAMIC_IMPORT_RE =
  /(?<![\w.])(?:importlib\s*\.\s*)?(?:import_module|__import__)\s*\(\s*"(\d+)"/g;
/**
 * A Django URLconf named by a string: `include("shop.urls")` in a URLconf and `ROOT_URLCONF =
 * "site.urls"` in settings. Django imports them when a test's client or `reverse()` resolves a
 * URL, so they are the only way a view module is reached from the settings it runs with.
 */
const URLCONF_RE = /(?<![\w.])(?:include\s*\(\s*(?:\(\s*)?|^ROOT_URLCONF\s*=\s*)"(\d+)"/g;
/** `sys.path.insert(0, "x")`, `sys.path.append("x")`, `sys.path[0:0] = ["x"]`, `+= ["x"]`. */
const PATH_INSERT_RE =
  /\bsys\s*\.\s*path\s*(?:\.\s*(?:insert\s*\(\s*[^,()]+,|append\s*\(|extend\s*\(\s*[[(])|\[[^\]]*\]\s*=\s*[[(]|\+=\s*[[(])\s*((?:"\d+"\s*,?\s*)+)/g;
/** The module's own folder: `os.path.dirname(__file__)` (through abspath/realpath), `Path(__file__).parent`. */
const OWN_DIR = String.raw`(?:os\s*\.\s*path\s*\.\s*dirname\s*\(\s*(?:os\s*\.\s*path\s*\.\s*(?:abspath|realpath)\s*\(\s*__file__\s*\)|__file__)\s*\)|(?:pathlib\s*\.\s*)?Path\s*\(\s*__file__\s*\)(?:\s*\.\s*(?:resolve|absolute)\s*\(\s*\))?\s*\.\s*parent)`;
/** A folder named from it: `os.path.join(<own>, "a", "b")`, `<own> / "a" / "b"`. */
const OWN_FOLDER_RE = new RegExp(
  String.raw`os\s*\.\s*path\s*\.\s*join\s*\(\s*${OWN_DIR}\s*,\s*((?:"\d+"\s*,?\s*)+)\)|${OWN_DIR}((?:\s*/\s*"\d+")+)`,
  "g",
);
/** The working directory: `os.getcwd()` (`getcwdu` of Python 2), `Path.cwd()`. */
const CWD_DIR = String.raw`(?:os\s*\.\s*getcwdu?\s*\(\s*\)|(?:pathlib\s*\.\s*)?Path\s*\.\s*cwd\s*\(\s*\))`;
/** A folder named from it: `os.path.join(<cwd>, "a")`, `<cwd> / "a"`, `os.path.abspath("a")`. */
const CWD_FOLDER_RE = new RegExp(
  String.raw`os\s*\.\s*path\s*\.\s*join\s*\(\s*${CWD_DIR}\s*,\s*((?:"\d+"\s*,?\s*)+)\)|${CWD_DIR}((?:\s*/\s*"\d+")+)|os\s*\.\s*path\s*\.\s*(?:abspath|realpath)\s*\(\s*("\d+")\s*\)`,
  "g",
);
/** A statement that is only string literals (implicitly concatenated or in parentheses). */
const BARE_STRINGS_RE = /^\(?\s*(?:"\d+"\s*)+\)?$/;
const DOTTED_MODULE_RE = /^(\.*)([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)?$/;

/**
 * Imports a call makes with a literal name, and folders a literal `sys.path` change adds, anywhere
 * in the module (a function's body too): production code can reach a test helper through
 * `importlib.import_module("tests.helpers")` as surely as through `from tests.helpers import`.
 * A computed name is not followed.
 */
function readDynamicImports(scan: ModuleScan, statement: string, logical: LogicalLine): void {
  readComputedFolders(scan, statement, logical);
  if (statement.includes("include") || statement.startsWith("ROOT_URLCONF"))
    readUrlconfs(scan, statement, logical);
  // A statement of strings alone is a docstring or a string used as a comment: a usage line it
  // shows (`$ echo '{}' | python -m pkg.tool`) documents the command, it runs nothing.
  if (!BARE_STRINGS_RE.test(statement) && logical.strings.some((literal) => literal.includes("-m")))
    readModuleRuns(scan, statement, logical);
  if (!statement.includes("import") && !statement.includes("path")) return;
  if (/\bsys\s*\.\s*path\b/.test(statement)) scan.changesPath = true;
  for (const match of statement.matchAll(DYNAMIC_IMPORT_RE)) {
    const literal = DOTTED_MODULE_RE.exec(logical.strings[Number(match[1])] ?? "");
    if (literal === null) continue;
    const level = (literal[1] ?? "").length;
    const module = literal[2] ?? "";
    if (level === 0 && module === "") continue;
    scan.imports.push({ module, level, names: undefined, line: logical.line });
  }
  for (const match of statement.matchAll(PATH_INSERT_RE))
    for (const index of (match[1] ?? "").matchAll(/"(\d+)"/g)) {
      const folder = logical.strings[Number(index[1])];
      if (folder !== undefined) scan.pathInserts.push(folder);
    }
}

/** The URLconfs a statement names by a literal absolute module path (`URLCONF_RE`). */
function readUrlconfs(scan: ModuleScan, statement: string, logical: LogicalLine): void {
  for (const match of statement.matchAll(URLCONF_RE)) {
    const literal = DOTTED_MODULE_RE.exec(logical.strings[Number(match[1])] ?? "");
    const module = literal?.[2];
    if (literal?.[1] === "" && module !== undefined)
      scan.imports.push({ module, level: 0, names: undefined, line: logical.line });
  }
}

/**
 * `"-m", "pkg"` after the interpreter: `[sys.executable, "-m", "pkg", "arg"]`, `["python3", "-m",
 * "pkg"]` (group 1 the interpreter's literal, if one; 2 and 3 the two after it).
 */
const MODULE_RUN_ARGS_RE = /(?:\bexecutable|"(\d+)")\s*,\s*"(\d+)"\s*,\s*"(\d+)"/g;
/** One command line that runs Python: `"python -m pkg arg"`, `f"{sys.executable} -m pkg"`. */
const MODULE_RUN_LINE_RE = /(?:python[\d.]*|executable\}?)\s+-m\s+([A-Za-z_][\w.]*)/g;

/**
 * The modules a statement runs as a program (`python -m pkg`, by `subprocess` or a shell
 * string): such a test imports nothing of its package, yet runs `pkg/__main__.py` and all it
 * imports. Each is read as an import of the module and of its `__main__` (one of the two exists:
 * `-m pkg` runs a package's `__main__.py`, `-m pkg.cli` a module).
 */
function readModuleRuns(scan: ModuleScan, statement: string, logical: LogicalLine): void {
  const names: string[] = [];
  for (const match of statement.matchAll(MODULE_RUN_ARGS_RE)) {
    const python = match[1] === undefined || /python/.test(logical.strings[Number(match[1])] ?? "");
    if (python && logical.strings[Number(match[2])] === "-m")
      names.push(logical.strings[Number(match[3])] ?? "");
  }
  for (const index of statement.matchAll(/"(\d+)"/g))
    for (const match of (logical.strings[Number(index[1])] ?? "").matchAll(MODULE_RUN_LINE_RE))
      names.push(match[1] ?? "");
  for (const name of names) {
    const literal = DOTTED_MODULE_RE.exec(name);
    const module = literal?.[2];
    if (literal?.[1] !== "" || module === undefined) continue;
    for (const run of [module, `${module}.__main__`])
      scan.imports.push({ module: run, level: 0, names: undefined, line: logical.line });
  }
}

/**
 * Folders named from the module's own place (`ownInserts`, relative to its folder) and from the
 * working directory (`cwdInserts`, relative to where the process starts).
 */
function readComputedFolders(scan: ModuleScan, statement: string, logical: LogicalLine): void {
  if (statement.includes("__file__"))
    readFolders(scan.ownFolders, OWN_FOLDER_RE, statement, logical);
  if (/cwd|abspath|realpath/.test(statement))
    readFolders(scan.cwdFolders, CWD_FOLDER_RE, statement, logical);
}

/** The relative folders a statement names by `pattern` (its groups hold the literals' parts). */
function readFolders(
  into: string[],
  pattern: RegExp,
  statement: string,
  logical: LogicalLine,
): void {
  for (const match of statement.matchAll(pattern)) {
    const parts = [...(match[1] ?? match[2] ?? match[3] ?? "").matchAll(/"(\d+)"/g)].map(
      (index) => logical.strings[Number(index[1])] ?? "",
    );
    if (parts.length > 0 && parts.every((part) => part !== "" && !part.startsWith("/")))
      into.push(parts.join("/"));
  }
}

/** A call that loads a module by a name computed at run time (not one literal string). */
const COMPUTED_IMPORT_RE =
  /(?<![\w.])(?<!\bdef\s+)(?:importlib\s*\.\s*)?(?:import_module|__import__|import_string|resolve_name)\s*\(\s*(?!\s*"\d+"\s*[,)])/;
/** A whole string that is a dotted module path and attribute: `a.b.c` or `a.b:c`. */
const LOADABLE_RE = /^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)[.:]([A-Za-z_]\w*)$/;

/**
 * The dotted paths a module's strings spell, kept when the module also loads a module by a
 * computed name: mistune's plugins are `"mistune.plugins.table.table"` in a table that
 * `import_module(module_path)` reads, and no import statement names `plugins/table.py`.
 */
function loadableByName(): { read(logical: LogicalLine): void; found(): PythonImport[] } {
  let computed = false;
  const seen = new Set<string>();
  const candidates: PythonImport[] = [];
  return {
    read(logical) {
      if (!computed && COMPUTED_IMPORT_RE.test(logical.code)) computed = true;
      for (const literal of logical.strings) {
        const match = LOADABLE_RE.exec(literal);
        if (match === null || seen.has(literal)) continue;
        seen.add(literal);
        candidates.push({
          module: match[1] ?? "",
          level: 0,
          names: [match[2] ?? ""],
          line: logical.line,
        });
      }
    },
    found: () => (computed ? candidates : []),
  };
}

/** `a = 1; b = 2` is two statements; strings are already masked, so `;` inside them is gone. */
function splitStatements(code: string): string[] {
  return code
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

function readImport(
  statement: string,
  line: number,
): { imports: PythonImport[]; bound: string[] } | undefined {
  return readFromImport(statement, line) ?? readPlainImport(statement, line);
}

/** `from .x import a, b as c` / `from x import (a, b)` / `from x import *`. */
function readFromImport(
  statement: string,
  line: number,
): { imports: PythonImport[]; bound: string[] } | undefined {
  const from = FROM_RE.exec(statement);
  if (from === null) return undefined;
  const level = (from[1] ?? "").length;
  const module = squash(from[2] ?? "");
  if (level === 0 && module === "") return undefined;
  const clause = (from[3] ?? "").replace(/^\(|\)$/g, "").trim();
  if (clause === "*") return { imports: [{ module, level, names: "*", line }], bound: [] };
  const names: string[] = [];
  const bound: string[] = [];
  for (const part of clause.replace(/[()]/g, "").split(",")) {
    const match = NAME_AS_RE.exec(part.trim());
    if (match === null) continue;
    names.push(match[1] ?? "");
    bound.push(match[2] ?? match[1] ?? "");
  }
  return { imports: [{ module, level, names, line }], bound };
}

/** `import a.b.c as d, e`. */
function readPlainImport(
  statement: string,
  line: number,
): { imports: PythonImport[]; bound: string[] } | undefined {
  const plain = IMPORT_RE.exec(statement);
  if (plain === null) return undefined;
  const imports: PythonImport[] = [];
  const bound: string[] = [];
  for (const part of (plain[1] ?? "").split(",")) {
    const match = DOTTED_AS_RE.exec(part.trim());
    if (match === null) continue;
    const module = squash(match[1] ?? "");
    imports.push({ module, level: 0, names: undefined, line });
    bound.push(match[2] ?? module.split(".")[0] ?? module);
  }
  return imports.length === 0 ? undefined : { imports, bound };
}

function squash(dotted: string): string {
  return dotted.replace(/\s+/g, "");
}

/** `__all__ = [...]`, `__all__ += (...)`, `__all__.extend([...])`, `__all__.append("x")`. */
function readAllChange(
  statement: string,
  strings: readonly string[],
): { replace: boolean; names: string[] | undefined } | undefined {
  const assign = ALL_ASSIGN_RE.exec(statement);
  if (assign !== null) {
    return { replace: assign[1] === "=", names: literalStrings(assign[2] ?? "", strings) };
  }
  const call = ALL_CALL_RE.exec(statement);
  if (call === null) return undefined;
  const argument = call[2] ?? "";
  const names =
    call[1] === "append"
      ? literalStrings(`[${argument}]`, strings)
      : literalStrings(argument, strings);
  return { replace: false, names };
}

/** The strings of a literal list/tuple of strings (`["a", "b"]`), or undefined for anything else. */
function literalStrings(expression: string, strings: readonly string[]): string[] | undefined {
  const inner = /^[[(]\s*((?:"\d+"\s*,\s*)*(?:"\d+")?)\s*,?\s*[\])]$/.exec(expression.trim());
  if (inner === null) return undefined;
  return [...(inner[1] ?? "").matchAll(/"(\d+)"/g)].map((m) => strings[Number(m[1])] ?? "");
}

function readAssignedNames(statement: string): string[] {
  const names: string[] = [];
  // `a = b = 1` binds both: read every `targets =` prefix in turn.
  let rest = statement;
  for (;;) {
    const match = ASSIGN_TARGETS_RE.exec(rest);
    if (match === null) break;
    for (const name of (match[1] ?? "").split(",")) names.push(name.trim());
    rest = rest.slice(match[0].length).trim();
  }
  return names;
}
