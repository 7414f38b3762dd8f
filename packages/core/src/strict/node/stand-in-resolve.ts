import { lookupContext } from "../../analysis/node/impact.ts";
import { resolveJsImport, workspaceAliases } from "../../analysis/resolve.ts";
import { parseJsonc } from "../../util/jsonc.ts";
import type { Project } from "../../project/node/project.ts";
import { dirnameRel } from "../../project/project-view.ts";
import type { SpecifierResolver } from "../stand-in.ts";

/**
 * How a test's JavaScript specifier that is not a path from it reaches a project file, for the
 * stand-in check (`stand-in.ts`, ADR 0012, the twenty-fourth round): the nearest tsconfig's
 * `paths`, the nearest package.json's `imports` map, a runner config's aliases (as selection's
 * resolver reads them), and the package's own name when its package.json has `exports` (Node
 * lets a package import itself by name then). Loaded only after a pass, not by the gates.
 */
export function specifierResolver(project: Project): SpecifierResolver {
  return (fromFile, specifier) => {
    const context = lookupContext(project, fromFile);
    const own = ownPackage(project, fromFile);
    return resolveJsImport(
      own === undefined ? context : { ...context, aliases: [...context.aliases, own] },
      fromFile,
      specifier,
    );
  };
}

/** The alias entries of the package a file is in, by its nearest package.json. */
function ownPackage(project: Project, file: string) {
  for (let dir = dirnameRel(file); ; dir = dirnameRel(dir)) {
    const manifest = dir === "" ? "package.json" : `${dir}/package.json`;
    const text = project.view.readText(manifest);
    if (text !== undefined) return workspaceAliases(dir, parseJsonc(text));
    if (dir === "") return undefined;
  }
}
