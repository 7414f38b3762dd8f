import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./index.ts";

/**
 * Every source path the docs name must be a file that exists, so a move cannot leave a doc
 * pointing at nothing. A path is read from where it starts: the repository (`packages/…`,
 * `adapters/…`, `scripts/…`, `bench/…`), a package (`core/…`, `cli/…`, `claude-code/…`) or a
 * feature folder of core (`hook/node/launcher.ts`). A bare file name must be a file somewhere in
 * the packages or adapters, unless it names a file of a user's project in an example.
 */
const DOCS = [
  "AGENTS.md",
  "README.md",
  ...["docs", "docs/adr", "docs/platforms"].flatMap((dir) =>
    readdirSync(join(REPO_ROOT, dir))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `${dir}/${name}`),
  ),
];

/** Files of a user's project (or another repository) the docs name as examples. */
const EXAMPLE_FILES = new Set([
  "foo.ts",
  "foo.test.ts",
  "x.test.ts",
  "money.ts",
  "money.test.ts",
  "billing.ts",
  "setupTests.ts",
  "middleware.ts",
  "AUDIT.ts",
  "packages/tools/src/YarnTool.ts",
  "packages/get-packages/src/index.test.ts",
  "packages/pkg/src/index.ts",
  "parse.ts",
  "url.ts",
  "index.test.ts",
  "index.ts",
  "x.ts",
]);

const CORE_FOLDERS = readdirSync(join(REPO_ROOT, "packages/core/src"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const SOURCE_NAMES = new Set([
  ...readdirSync(REPO_ROOT),
  ...["packages", "adapters", "scripts", "bench"].flatMap((top) =>
    readdirSync(join(REPO_ROOT, top), { recursive: true, encoding: "utf8" })
      .filter((path) => !/(^|\/)(node_modules|dist)\//.test(path))
      .map((path) => basename(path)),
  ),
]);

/** Where a named path is looked for, or undefined when it is an example (not checked). */
export function candidates(path: string): string[] | undefined {
  if (EXAMPLE_FILES.has(path)) return undefined;
  const [first] = path.split("/");
  if (path.includes("/") && first !== undefined) {
    if (["packages", "adapters", "scripts", "bench", "fixtures"].includes(first)) return [path];
    if (["core", "cli", "e2e", "test-utils"].includes(first)) return [`packages/${path}`];
    if (["claude-code", "codex", "cursor"].includes(first)) return [`adapters/${path}`];
    if (CORE_FOLDERS.includes(first)) return [`packages/core/src/${path}`];
    // `src/money.ts`, `tests/…`: a user's project in an example.
    if (["src", "source", "tests", "test", "lib", "path"].includes(first)) return undefined;
    // Anything else (`node/quiet.ts`) says neither package nor feature folder: it is not found.
    return [];
  }
  return SOURCE_NAMES.has(path) ? [path] : [];
}

function namedPaths(text: string): string[] {
  const paths = text.match(/[\w./-]*\w\.(?:c|m)?ts\b/g) ?? [];
  // A `<placeholder>` or a glob before the name (`runners/<id>.ts`) is a pattern, not a path.
  return [...new Set(paths)].filter((path) => {
    const at = text.indexOf(path);
    return !/[<>*]$/.test(text.slice(Math.max(0, at - 1), at)) && !path.startsWith(".");
  });
}

describe("paths the docs name", () => {
  it.each(DOCS)("every source path in %s exists", (doc) => {
    const text = readFileSync(join(REPO_ROOT, doc), "utf8");
    const missing = namedPaths(text).filter((path) => {
      const where = candidates(path);
      if (where === undefined) return false;
      return !where.some((file) => SOURCE_NAMES.has(file) || existsSync(join(REPO_ROOT, file)));
    });
    expect(missing).toEqual([]);
  });

  it("reads a path from the package or feature folder it starts with", () => {
    expect(candidates("hook/node/launcher.ts")).toEqual([
      "packages/core/src/hook/node/launcher.ts",
    ]);
    expect(candidates("core/src/hook/node/launcher.ts")).toEqual([
      "packages/core/src/hook/node/launcher.ts",
    ]);
    expect(candidates("codex/src/setup.ts")).toEqual(["adapters/codex/src/setup.ts"]);
    expect(candidates("node/quiet.ts")).toEqual([]);
    expect(candidates("quiet.ts")).toEqual([]);
    expect(candidates("money.ts")).toBeUndefined();
  });
});
