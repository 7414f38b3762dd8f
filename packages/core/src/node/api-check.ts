import { join } from "node:path";
import {
  missingNames,
  renderApiLine,
  renderMissingImports,
  type MissingImport,
} from "../analysis/api-check.ts";
import { loadJsLexers, scanJsModule, type JsModule } from "../analysis/js-module.ts";
import { scanPythonModule, type PythonModule } from "../analysis/python-module.ts";
import { resolveJsImport, resolvePythonImport, type ResolveContext } from "../analysis/resolve.ts";
import { extensionOf } from "../languages.ts";
import { lookupContext } from "./impact.ts";
import { readSmallFile } from "./project-walk.ts";
import type { EditInsight, Project } from "./project.ts";

/** API validation's edge: reads the files, never imports them. */

const READ_CAP = 256 * 1024;
const JS_EXTENSIONS = new Set([".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"]);
/** How many `export * from` links are followed to find a name. */
const STAR_DEPTH = 4;

type Parsed = { kind: "python"; module: PythonModule } | { kind: "js"; module: JsModule };

function parseFile(project: Project, rel: string): Parsed | undefined {
  const ext = extensionOf(rel);
  if (ext !== ".py" && !JS_EXTENSIONS.has(ext)) return undefined;
  const text = readSmallFile(join(project.root, rel), READ_CAP);
  if (text === undefined) return undefined;
  return ext === ".py"
    ? { kind: "python", module: scanPythonModule(text) }
    : { kind: "js", module: scanJsModule(text, rel) };
}

/**
 * The API notes for one edit: for a queued source file, the names it defines and any existing
 * test of it that imports a name it lacks; for a test file, each of its imports from a project
 * file that names something missing there.
 */
export async function checkApi(project: Project, insight: EditInsight): Promise<string[]> {
  await loadJsLexers();
  const notes: string[] = [];
  if (insight.verdict.queue) {
    const parsed = parseFile(project, insight.path);
    if (parsed !== undefined) {
      const names =
        parsed.kind === "python" ? parsed.module.publicNames : publicJsNames(parsed.module);
      const line = renderApiLine(insight.path, names, parsed.module.open);
      if (line !== undefined) notes.push(line);
    }
    const test = insight.target;
    if (test?.kind === "file" && test.exists)
      notes.push(...renderMissingImports(findMissingImports(project, test.path, insight.path)));
  } else if (insight.verdict.kind === "test") {
    notes.push(...renderMissingImports(findMissingImports(project, insight.path)));
  }
  return notes;
}

function publicJsNames(module: JsModule): string[] {
  return module.exports;
}

/** A test's imports from project files that name what those files do not define. */
export function findMissingImports(
  project: Project,
  test: string,
  onlySource?: string,
): MissingImport[] {
  const parsed = parseFile(project, test);
  if (parsed === undefined) return [];
  const context = lookupContext(project, test);
  return parsed.kind === "python"
    ? pythonMisses(project, context, test, parsed.module, onlySource)
    : jsMisses(project, context, test, parsed.module, onlySource);
}

function pythonMisses(
  project: Project,
  context: ResolveContext,
  test: string,
  module: PythonModule,
  onlySource: string | undefined,
): MissingImport[] {
  const misses: MissingImport[] = [];
  for (const entry of module.imports) {
    if (!Array.isArray(entry.names) || entry.names.length === 0) continue;
    const [source] = resolvePythonImport(context, test, { ...entry, names: undefined });
    if (source === undefined || (onlySource !== undefined && source !== onlySource)) continue;
    const target = parseFile(project, source);
    if (target?.kind !== "python" || target.module.open) continue;
    // A name that is a submodule file (`from pkg import mod`) is defined too.
    const wanted = entry.names.filter(
      (name) =>
        !resolvePythonImport(context, test, { ...entry, names: [name] }).some(
          (file) => file !== source,
        ),
    );
    const missing = missingNames(wanted, new Set(target.module.defined));
    if (missing.length > 0)
      misses.push({ test, source, missing, defined: target.module.publicNames });
  }
  return misses;
}

function jsMisses(
  project: Project,
  context: ResolveContext,
  test: string,
  module: JsModule,
  onlySource: string | undefined,
): MissingImport[] {
  const misses: MissingImport[] = [];
  for (const entry of module.imports) {
    if (!Array.isArray(entry.names) || entry.names.length === 0) continue;
    const source = resolveJsImport(context, test, entry.specifier);
    if (source === undefined || (onlySource !== undefined && source !== onlySource)) continue;
    const exported = exportedNames(project, context, source, STAR_DEPTH);
    if (exported === undefined) continue;
    const missing = missingNames(entry.names, exported);
    if (missing.length > 0)
      misses.push({
        test,
        source,
        missing,
        defined: [...exported].filter((name) => name !== "default"),
      });
  }
  return misses;
}

/** Every name a JS/TS module exports, through `export *`; undefined when that cannot be known. */
function exportedNames(
  project: Project,
  context: ResolveContext,
  file: string,
  depth: number,
): Set<string> | undefined {
  const parsed = parseFile(project, file);
  if (parsed?.kind !== "js" || parsed.module.open || !parsed.module.parsed) return undefined;
  const names = new Set(parsed.module.exports);
  for (const specifier of parsed.module.starFrom) {
    const target = resolveJsImport(context, file, specifier);
    if (target === undefined || depth === 0) return undefined;
    const more = exportedNames(project, context, target, depth - 1);
    if (more === undefined) return undefined;
    for (const name of more) if (name !== "default") names.add(name);
  }
  return names;
}
