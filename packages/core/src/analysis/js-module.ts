import type { parse as parseCjs } from "cjs-module-lexer";
import type { parse as parseEsm } from "es-module-lexer";
import { extensionOf } from "../filter/languages.ts";
import { scanJsCode } from "./js-code.ts";

/**
 * What a JavaScript/TypeScript file imports and exports, read by es-module-lexer (ESM and the
 * type-only TypeScript forms), cjs-module-lexer (CommonJS exports) and `scanJsCode` (`require`
 * calls, JSX). The file is never run.
 */

export interface JsImport {
  specifier: string;
  /** Names taken from the module (`default` for a default import), `*` for all, undefined unknown. */
  names: readonly string[] | "*" | undefined;
  typeOnly: boolean;
}

export interface JsModule {
  imports: JsImport[];
  /** Names the module exports (type-only ones included: a test may import a type). */
  exports: string[];
  /** Specifiers of `export * from "…"`: their names are exported too. */
  starFrom: string[];
  /** CommonJS, `export =`, or a file that would not lex: its names cannot be listed for sure. */
  open: boolean;
  /** False when the file could not be lexed at all (only its `require` calls were read). */
  parsed: boolean;
  /**
   * No code of its own: only imports, re-exports (a barrel: `export * from`, `export { a } from`)
   * and type declarations, by es-module-lexer's facade flag; false for a file that would not lex.
   */
  facade: boolean;
}

let ready: Promise<void> | undefined;
let lexers: { esm: typeof parseEsm; cjs: typeof parseCjs } | undefined;

/**
 * Loads the two lexers and their WebAssembly; call (and await) once before `scanJsModule`.
 * Imported here, not at the top: a bundle that evaluates this module (`explain`, `run`) on a
 * Python project then evaluates neither lexer nor decodes its WebAssembly.
 */
export function loadJsLexers(): Promise<void> {
  ready ??= Promise.all([import("es-module-lexer"), import("cjs-module-lexer")]).then(
    async ([esm, cjs]) => {
      await esm.init();
      cjs.initSync();
      lexers = { esm: esm.parse, cjs: cjs.parse };
    },
  );
  return ready;
}

function loaded(): NonNullable<typeof lexers> {
  if (lexers === undefined) throw new Error("scanJsModule before loadJsLexers was awaited");
  return lexers;
}

const JSX_EXTENSIONS = new Set([".jsx", ".tsx"]);

export function scanJsModule(text: string, path: string): JsModule {
  const jsxFile = JSX_EXTENSIONS.has(extensionOf(path));
  const needsScan = jsxFile || text.includes("require");
  let scanned = needsScan ? scanJsCode(text, { jsx: jsxFile }) : { code: text, requires: [] };
  let lexed = tryLex(scanned.code);
  if (lexed === undefined && !jsxFile) {
    // JSX in a .js file: lex again with the markup blanked.
    scanned = scanJsCode(text, { jsx: true });
    lexed = tryLex(scanned.code);
  }
  const requires: JsImport[] = scanned.requires.map((specifier) => ({
    specifier,
    names: undefined,
    typeOnly: false,
  }));
  if (lexed === undefined)
    return {
      imports: requires,
      exports: [],
      starFrom: [],
      open: true,
      parsed: false,
      facade: false,
    };
  const [imports, exports, facade, hasModuleSyntax] = lexed;
  const found: JsImport[] = [];
  for (const entry of imports) {
    if (entry.type === "import-meta" || entry.specifier === undefined) continue;
    if (entry.type === "dynamic") {
      if (!entry.glob && !entry.probablyTypeOnly)
        found.push({ specifier: entry.specifier, names: undefined, typeOnly: false });
      continue;
    }
    if (entry.type !== "static" && entry.type !== "reexport-star") continue;
    const statement = text.slice(entry.importStart, entry.importEnd);
    found.push({
      specifier: entry.specifier,
      names: entry.type === "reexport-star" ? "*" : importedNames(statement),
      typeOnly: entry.typeOnly,
    });
  }
  const names: string[] = [];
  const starFrom: string[] = [];
  for (const entry of exports) {
    if (entry.type === "reexport-all") starFrom.push(entry.from);
    else names.push(entry.name);
  }
  let open = /(^|[\s;])export\s*=/.test(scanned.code);
  if (!hasModuleSyntax) {
    open = true;
    const cjs = tryCjs(scanned.code);
    if (cjs !== undefined) {
      names.push(...cjs.exports);
      starFrom.push(...cjs.reexports);
    }
  }
  return {
    imports: [...found, ...requires],
    exports: [...new Set(names)],
    starFrom: [...new Set(starFrom)],
    open,
    parsed: true,
    // A file with no module syntax (CommonJS, a script) is a facade to the lexer, not a barrel.
    facade: facade && hasModuleSyntax,
  };
}

type Lexed = ReturnType<typeof parseEsm>;

function tryLex(code: string): Lexed | undefined {
  try {
    return loaded().esm(code);
  } catch {
    return undefined;
  }
}

function tryCjs(code: string): { exports: string[]; reexports: string[] } | undefined {
  try {
    return loaded().cjs(code);
  } catch {
    return undefined;
  }
}

const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;
const IDENT = /^[A-Za-z_$][\w$]*$/;

/**
 * The names an import statement takes: `import D, { a, b as c, type T } from "m"` takes
 * default, a, b and T; `import * as ns from "m"` takes `*`; `import "m"` nothing; `export { a
 * as b } from "m"` takes a; `import x = require("m")` is unknown.
 */
export function importedNames(statement: string): readonly string[] | "*" | undefined {
  const clean = statement.replace(COMMENTS, " ").replace(/\s+/g, " ").trim();
  const exported = /^export (?:type )?\{([^}]*)\}/.exec(clean);
  if (exported !== null) return braceNames(exported[1] ?? "");
  if (/^export \*/.test(clean)) return "*";
  const clause = /^import (?:type )?(.*?) ?from ?["'`]/.exec(clean)?.[1];
  if (clause === undefined) return /^import ["'`]/.test(clean) ? [] : undefined;
  if (clause.includes("*")) return "*";
  const names: string[] = [];
  const brace = clause.indexOf("{");
  const head = (brace === -1 ? clause : clause.slice(0, brace)).replace(/,\s*$/, "").trim();
  if (head !== "" && IDENT.test(head)) names.push("default");
  if (brace !== -1) names.push(...braceNames(clause.slice(brace + 1, clause.lastIndexOf("}"))));
  return names;
}

function braceNames(inside: string): string[] {
  const names: string[] = [];
  for (const part of inside.split(",")) {
    const words = part
      .trim()
      .replace(/^type\s+/, "")
      .split(/\s+as\s+/);
    const name = (words[0] ?? "").trim();
    if (IDENT.test(name)) names.push(name);
  }
  return names;
}
