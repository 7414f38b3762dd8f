import { extensionOf } from "../filter/languages.ts";
import { stripAnsi } from "../engine/parsers/_shared.ts";
import { isSyntaxFailure } from "../tdd/guide.ts";

/**
 * What makes a failing run a valid red in strict mode: a real assertion, or a collection failure
 * whose missing module (or symbol) is the very file the claim edits. Reads the runners' own
 * load-error messages (Python's import errors; vitest/vite, node, jest, bun and deno's module
 * resolution errors). Pure.
 */

/** One thing a collection failure says is missing, as the message wrote it. */
export interface MissingName {
  /** `billing`, `pkg.sub`, `../src/math`, `/abs/src/math.ts`: the spec as written. */
  module: string;
  /** The export or attribute that is missing from `module`. */
  symbol?: string;
  /** The importing file, as the message gives it (may be absolute). */
  from?: string;
}

export interface FailureReading {
  syntax_error: boolean;
  missing: MissingName[];
}

/** `module` or `module:symbol`. */
export function formatMissing(missing: MissingName): string {
  return missing.symbol === undefined ? missing.module : `${missing.module}:${missing.symbol}`;
}

/**
 * Messages that are SyntaxErrors by class but name a missing export, not broken code: node's
 * and deno's `does not provide an export named`, bun's `Export named … not found`.
 */
const MISSING_EXPORT_LINE =
  /^.*(?:does not provide an export named|SyntaxError: Export named '[^']*' not found in module).*$/gm;
/** vitest 4 (rolldown/oxc) reports a parse error as `[PARSE_ERROR]`, which isSyntaxFailure misses. */
const PARSE_ERROR = /\bPARSE_ERROR\b/;

interface Pattern {
  regex: RegExp;
  read: (match: RegExpMatchArray, text: string) => MissingName | undefined;
}

const PATTERNS: readonly Pattern[] = [
  // Python: ModuleNotFoundError / the junit parser's short form.
  { regex: /No module named '([^']+)'/g, read: (m) => named(m[1]) },
  // Python: ImportError: cannot import name 'charge' from 'billing' (/abs/billing.py)
  {
    regex: /cannot import name '(\w+)' from '([\w.]+)'/g,
    read: (m) => named(m[2], m[1]),
  },
  // Python: AttributeError: module 'billing' has no attribute 'charge' (not a circular import's
  // "partially initialized module").
  {
    regex: /(?<!partially initialized )module '([\w.]+)' has no attribute '(\w+)'/g,
    read: (m) => named(m[1], m[2]),
  },
  // vite: Failed to resolve import "../src/math" from "src/math.test.ts". Does the file exist?
  {
    regex: /Failed to resolve import "([^"]+)" from "([^"]+)"/g,
    read: (m) => named(m[1], undefined, m[2]),
  },
  // node ESM and vitest: Cannot find module '…' imported from /abs/a.test.ts; node's Cannot
  // find package; jest: … from 'test/a.test.js'; bun: … from '/abs/a.test.ts'; node CJS with a
  // Require stack; tsc: Cannot find module './math' or its corresponding type declarations.
  {
    regex:
      /Cannot find (?:module|package) (['"])(.+?)\1(?:\s+(?:imported\s+)?from\s+(['"]?)([^\s'"]+)\3)?/g,
    read: (m, text) => named(m[2], undefined, m[4] ?? requireStackHead(text)),
  },
  // node ESM and deno: SyntaxError: The requested module './math.ts' does not provide an
  // export named 'add'
  {
    regex: /The requested module '([^']+)' does not provide an export named '([^']+)'/g,
    read: (m) => named(m[1], m[2]),
  },
  // bun: SyntaxError: Export named 'sub' not found in module '/abs/src/calc.ts'.
  {
    regex: /Export named '([^']+)' not found in module '([^']+)'/g,
    read: (m) => named(m[2], m[1]),
  },
  // deno: Module not found "file:///abs/nowhere.ts".\n    at file:///abs/a_test.ts:1:21
  {
    regex: /Module not found "([^"]+)"\.?(?:\s+at\s+(file:\/\/[^\s:]+))?/g,
    read: (m) => named(m[1], undefined, m[2]),
  },
  // tsc and deno's type check: Module '"./calc"' has no exported member 'sub'.
  {
    regex: /Module '"([^"]+)"' has no exported member '([^']+)'/g,
    read: (m) => named(m[1], m[2]),
  },
];

function named(
  module: string | undefined,
  symbol?: string,
  from?: string,
): MissingName | undefined {
  if (module === undefined || module === "") return undefined;
  const name: MissingName = { module };
  if (symbol !== undefined) name.symbol = symbol;
  if (from !== undefined) name.from = from;
  return name;
}

/** node CJS: the first file of `Require stack:` is the one that required the missing module. */
function requireStackHead(text: string): string | undefined {
  return /Require stack:\s*\n\s*-\s*(\S+)/.exec(text)?.[1];
}

/** What a failure message says: is it a syntax error, and what is missing. */
export function readFailure(message: string): FailureReading {
  const text = stripAnsi(message);
  const withoutExports = text.replace(MISSING_EXPORT_LINE, "");
  const syntax = isSyntaxFailure(withoutExports) || PARSE_ERROR.test(withoutExports);
  const missing = new Map<string, MissingName>();
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern.regex)) {
      const name = pattern.read(match, text);
      if (name === undefined) continue;
      const key = formatMissing(name);
      const known = missing.get(key);
      // The same name told twice (tsc's and the runner's line): keep the one that says where.
      if (known === undefined) missing.set(key, name);
      else if (known.from === undefined && name.from !== undefined) known.from = name.from;
    }
  }
  return { syntax_error: syntax, missing: [...missing.values()] };
}

// ---------------------------------------------------------------------------------------------
// Paths

function toPosix(path: string): string {
  const unixy = path.replace(/\\/g, "/");
  return unixy.startsWith("file://") ? decodeURI(unixy.slice("file://".length)) : unixy;
}

function isAbsolute(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:\//.test(path);
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/** `a/b` + `../c/./d` → `a/c/d`; `..` above the root is kept. */
function joinPath(dir: string, relative: string): string {
  const parts: string[] = [];
  for (const part of `${dir}/${relative}`.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/");
}

/** Source extensions a module spec may be written with (`./math.ts`, `./math.js`). */
const MODULE_EXTENSIONS = new Set([
  ".js",
  ".jsx",
  ".ts",
  ".tsx",
  ".mjs",
  ".cjs",
  ".mts",
  ".cts",
  ".py",
  ".json",
]);

function withoutExtension(path: string): string {
  const extension = extensionOf(path);
  return MODULE_EXTENSIONS.has(extension) ? path.slice(0, -extension.length) : path;
}

/**
 * The project root, in the machine's own path form, given an absolute path of a project file
 * the message names and the test file's project-relative path: the importing file is the test
 * (its path ends with it), or sits under the test's top folder.
 */
function rootFrom(absolute: string, testFile: string): string | undefined {
  if (absolute.endsWith(`/${testFile}`)) return absolute.slice(0, -(testFile.length + 1));
  const top = testFile.includes("/") ? testFile.slice(0, testFile.indexOf("/")) : undefined;
  if (top === undefined) return undefined;
  const at = absolute.lastIndexOf(`/${top}/`);
  return at === -1 ? undefined : absolute.slice(0, at);
}

/** The importing file as a project path: the test itself unless the message names another. */
function importerOf(from: string | undefined, testFile: string): { file: string; root?: string } {
  if (from === undefined) return { file: testFile };
  const path = toPosix(from).replace(/^(?:\.\/)+/, "");
  if (path === testFile || testFile.endsWith(`/${path}`)) return { file: testFile };
  if (!isAbsolute(path)) return { file: path };
  const root = rootFrom(path, testFile);
  return root === undefined ? { file: testFile } : { file: path.slice(root.length + 1), root };
}

function resolvedModule(missing: MissingName, testFile: string): string {
  const module = toPosix(missing.module);
  const importer = importerOf(missing.from, testFile);
  if (module.startsWith("./") || module.startsWith("../"))
    return withoutExtension(joinPath(dirOf(importer.file), module));
  if (!isAbsolute(module)) return module;
  const root = importer.root ?? rootFrom(module, testFile);
  if (root !== undefined && module.startsWith(`${root}/`))
    return withoutExtension(module.slice(root.length + 1));
  return module;
}

/**
 * The string a test_run event stores for a missing name: relative (and absolute, inside the
 * project) JS specs become project paths without extension, resolved from the importing file
 * (`src/math.test.ts` + `../lib/math` → `lib/math`); Python's dotted modules and bare package
 * names stay as written; a symbol is appended as `:symbol`.
 */
export function resolveMissing(missing: MissingName, testFile: string): string {
  const module = resolvedModule(missing, testFile.replace(/\\/g, "/").replace(/^(?:\.\/)+/, ""));
  return missing.symbol === undefined ? module : `${module}:${missing.symbol}`;
}

/** Does a stored missing entry (`lib/math`, `billing:charge`, `pkg.sub`) name this project file? */
export function missingNamesFile(missing: readonly string[], relPath: string): boolean {
  const path = relPath.replace(/\\/g, "/").replace(/^(?:\.\/)+/, "");
  const stem = withoutExtension(path);
  const jsForms = new Set([stem]);
  if (stem.endsWith("/index")) jsForms.add(stem.slice(0, -"/index".length));
  return missing.some((entry) => {
    const colon = entry.indexOf(":");
    const module = colon === -1 ? entry : entry.slice(0, colon);
    if (module === "") return false;
    return jsForms.has(module) || pythonModuleIs(module, path);
  });
}

/** `a.b` is `a/b.py`, `a/b/__init__.py`, or either under any prefix (src layouts). */
function pythonModuleIs(module: string, path: string): boolean {
  if (!path.endsWith(".py") || module.includes("/") || module.startsWith(".")) return false;
  const asPath = module.split(".").join("/");
  return [`${asPath}.py`, `${asPath}/__init__.py`].some(
    (candidate) => path === candidate || path.endsWith(`/${candidate}`),
  );
}

// ---------------------------------------------------------------------------------------------
// Valid reds

export interface RedRun {
  status: string;
  fail_reason?: string | undefined;
  syntax_error?: boolean | undefined;
  missing?: readonly string[] | undefined;
}

export type RedVerdict = { valid: true } | { valid: false; why: string };

/**
 * A run is a valid red for a claim on `claimedFile` when it failed on an assertion, or failed
 * to load because what it imports from `claimedFile` does not exist yet. A syntax error, a
 * timeout, a crash, or a load failure about another module proves nothing about the claim.
 */
export function isValidRed(run: RedRun, claimedFile: string): RedVerdict {
  if (run.status === "pass") return { valid: false, why: "it passes" };
  if (run.status !== "fail") return { valid: false, why: "it did not run" };
  if (run.syntax_error === true) return { valid: false, why: "a syntax error is not a red" };
  switch (run.fail_reason) {
    case "assertion":
      return { valid: true };
    case "timeout":
      return { valid: false, why: "a timeout is not a red" };
    case "crash":
      return { valid: false, why: "a crash is not a red" };
    case "collection":
      return collectionRed(run.missing ?? [], claimedFile);
    default:
      return { valid: false, why: "a failure of unknown kind is not a red" };
  }
}

function collectionRed(missing: readonly string[], claimedFile: string): RedVerdict {
  if (missing.length === 0)
    return { valid: false, why: "a collection failure that names no missing module is not a red" };
  if (missingNamesFile(missing, claimedFile)) return { valid: true };
  return { valid: false, why: `the missing module is ${missing.join(", ")}, not ${claimedFile}` };
}
