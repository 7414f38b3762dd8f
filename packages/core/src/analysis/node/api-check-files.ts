import { join } from "node:path";
import {
  missingNames,
  renderApiLine,
  renderMissingImports,
  type MissingImport,
  type UnfollowedStar,
} from "../api-check.ts";
import { loadJsLexers, scanJsModule, type JsModule } from "../js-module.ts";
import { scanPythonModule, type PythonModule } from "../python-module.ts";
import { resolveJsImport, resolvePythonImport, type ResolveContext } from "../resolve.ts";
import { extensionOf } from "../../filter/languages.ts";
import { lookupContext } from "./impact.ts";
import { readSmallFile } from "./project-walk.ts";
import type { EditInsight, Project } from "../../project/node/project.ts";

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
    const line = describeApi(project, insight.path);
    if (line !== undefined) notes.push(line);
    const test = insight.target;
    if (test?.kind === "file" && test.exists)
      notes.push(...renderMissingImports(findMissingImports(project, test.path, insight.path)));
  } else if (insight.verdict.kind === "test") {
    notes.push(...renderMissingImports(findMissingImports(project, insight.path)));
  }
  return notes;
}

/** The API line for a source file: Python's public names, or every name a JS/TS module exports. */
function describeApi(project: Project, path: string): string | undefined {
  const parsed = parseFile(project, path);
  if (parsed === undefined) return undefined;
  if (parsed.kind === "python")
    return renderApiLine(path, parsed.module.publicNames, { open: parsed.module.open });
  // A barrel's names are mostly re-exported: listed through the same resolution a test's
  // imports are checked against, so the line and the check never disagree.
  const exported = collectExports(project, lookupContext(project, path), path);
  if (exported === undefined) return undefined;
  return renderApiLine(path, exported.names, {
    open: exported.open,
    unfollowed: exported.unfollowed,
  });
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
    const exported = collectExports(project, context, source);
    // Only a complete list can prove a name missing.
    if (exported === undefined || exported.open || exported.unfollowed.length > 0) continue;
    const missing = missingNames(entry.names, new Set(exported.names));
    if (missing.length > 0)
      misses.push({
        test,
        source,
        missing,
        defined: exported.names.filter((name) => name !== "default"),
      });
  }
  return misses;
}

export interface ExportList {
  /** The module's own exports first, then each `export *` target's, in order, once each. */
  names: string[];
  /** The module itself (or a module it re-exports) makes names at run time: CommonJS, `export =`. */
  open: boolean;
  /** `export * from` links that could not be followed, so `names` may lack some. */
  unfollowed: UnfollowedStar[];
}

/**
 * Every name a JS/TS module exports, following `export * from` up to `STAR_DEPTH` links (each
 * module read once: a cycle adds nothing and is no gap). Undefined when the file itself cannot
 * be read as a module; a link that leaves the project, goes deeper, or reaches a file that could
 * not be parsed is listed in `unfollowed`, never taken as "exports nothing".
 */
export function collectExports(
  project: Project,
  context: ResolveContext,
  file: string,
): ExportList | undefined {
  const parsed = parseFile(project, file);
  if (parsed?.kind !== "js" || !parsed.module.parsed) return undefined;
  const list: ExportList = {
    names: [...parsed.module.exports],
    open: parsed.module.open,
    unfollowed: [],
  };
  const seen = new Set(list.names);
  const visited = new Set([file]);
  let level: { file: string; module: JsModule }[] = [{ file, module: parsed.module }];
  // Breadth first, so the names nearest the file come first and the depth is one counter.
  for (let depth = 0; level.length > 0; depth += 1) {
    const next: { file: string; module: JsModule }[] = [];
    for (const from of level) {
      for (const specifier of from.module.starFrom) {
        const target = resolveJsImport(context, from.file, specifier);
        const gap = { file: from.file, specifier };
        if (target === undefined || depth >= STAR_DEPTH) {
          list.unfollowed.push(gap);
          continue;
        }
        if (visited.has(target)) continue;
        visited.add(target);
        const more = parseFile(project, target);
        if (more?.kind !== "js" || !more.module.parsed) {
          list.unfollowed.push(gap);
          continue;
        }
        if (more.module.open) list.open = true;
        // `export *` never passes on a default export.
        for (const name of more.module.exports)
          if (name !== "default" && !seen.has(name)) {
            seen.add(name);
            list.names.push(name);
          }
        next.push({ file: target, module: more.module });
      }
    }
    level = next;
  }
  return list;
}
