import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { REPO_ROOT } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";

/*
 * A command's module is evaluated when the command is chosen, and with it everything it imports
 * statically: core's indexes would bring every mode's modules (strict's checkpoint, the tdd log,
 * the test engine) into `status` and `explain` (ADR 0010). Read off the sources, as the bundler
 * follows them.
 */

/** Workspace package subpaths, through the `@tailtest/source` condition the bundler uses. */
function workspaceEntry(specifier: string): string | undefined {
  const match = /^@tailtest\/([^/]+)(\/.*)?$/.exec(specifier);
  if (match === null) return undefined;
  const [, name = "", sub = ""] = match;
  const dir = existsSync(join(REPO_ROOT, "packages", name))
    ? join(REPO_ROOT, "packages", name)
    : join(REPO_ROOT, "adapters", name);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    exports: Record<string, { "@tailtest/source"?: string } | string>;
  };
  const entry = manifest.exports[`.${sub}`];
  const source = typeof entry === "object" ? entry["@tailtest/source"] : undefined;
  if (source === undefined) throw new Error(`${specifier} has no @tailtest/source export`);
  return join(dir, source);
}

/** Every workspace module reached from `entry` by static imports, relative to the repository. */
function staticGraph(entry: string): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() ?? "";
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    for (const [, specifier = ""] of source.matchAll(
      /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+"([^"]+)";/gms,
    )) {
      const target = specifier.startsWith(".")
        ? resolve(dirname(file), specifier)
        : workspaceEntry(specifier);
      if (target !== undefined) queue.push(target);
    }
  }
  return [...seen].map((file) => file.slice(REPO_ROOT.length + 1));
}

const BARRELS = [
  /packages\/core\/src\/index\.ts$/,
  /packages\/core\/src\/entries\/node\/core-node\.ts$/,
];
/** What reading a project's state never needs: modes, the test engine, the selection. */
const NOT_FOR_STATUS = [
  ...BARRELS,
  /packages\/core\/src\/(tdd|strict)\/node\/(strict-|tdd-hooks)/,
  /packages\/core\/src\/shell\/node\//,
  /packages\/core\/src\/engine\/(plan\.ts|node\/|parsers\/(?!_shared))/,
  // test-evidence.ts is the selection's vocabulary, which the run log records.
  /packages\/core\/src\/(selection\/(?!test-evidence\.ts$)|analysis\/)/,
];

const command = (name: string) => join(REPO_ROOT, "packages/cli/src/commands", `${name}.ts`);

describe("a command imports what it uses", () => {
  it.each([
    ["status", NOT_FOR_STATUS],
    ["explain", BARRELS],
    ["run", BARRELS],
  ] as const)("%s: none of core's indexes, nothing it does not run", (name, cold) => {
    const graph = staticGraph(command(name));
    expect(graph.filter((file) => cold.some((pattern) => pattern.test(file)))).toEqual([]);
    // The graph is read for real: the module that opens a project is in every one.
    expect(graph).toContain("packages/core/src/project/node/project.ts");
  });
});
