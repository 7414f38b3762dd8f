import { existsSync } from "node:fs";
import { join } from "node:path";
import { commitAll, copyFixture, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { openProject } from "../../project/node/project.ts";
import { selectRelated } from "./graph-selection.ts";

/**
 * Selection before the import graph is whole (the cold path, `reverse-lookup.ts`): the same tests
 * with the same evidence as the whole graph gives, and `explain` (write: false) neither builds
 * nor writes a graph.
 */

let temp: TempProject | undefined;
afterEach(() => temp?.cleanup());

const FILES = [
  "src/shop/tax.py",
  "src/shop/billing.py",
  "src/shop/cart.py",
  "src/shop/__init__.py",
  "tests/factories.py",
];

describe.each([false, true])("the cold path (git work tree: %s)", (git) => {
  it("selects what the whole graph selects, and explain writes no graph", async () => {
    temp = copyFixture("analysis/python-app");
    if (git) await commitAll(temp.root);
    const project = openProject(temp.root);
    const graphFile = join(temp.root, ".tailtest/graph/index.json");

    const cold = await selectRelated(project, FILES, { write: false });
    expect(existsSync(graphFile)).toBe(false);
    expect(cold.complete).toBe(true);
    expect(cold.notes).toEqual([]);

    const built = await selectRelated(project, FILES, { write: true, graphMs: 60_000 });
    expect(existsSync(graphFile)).toBe(true);
    expect(built.complete).toBe(true);
    expect(cold.related).toEqual(built.related);
    expect(cold.suggested).toEqual(built.suggested);
    // tax.py is reached only through billing.py and the package: the walk went up the hops.
    expect(cold.related.get("src/shop/tax.py")).toContainEqual(
      expect.objectContaining({ path: "tests/test_billing.py", evidence: "imports-via" }),
    );
  });

  it("a search cut short by its box says so", async () => {
    temp = copyFixture("analysis/python-app");
    if (git) await commitAll(temp.root);
    const project = openProject(temp.root);
    const cut = await selectRelated(project, ["src/shop/tax.py"], { write: false, coldMs: 0 });
    expect(cut.complete).toBe(false);
    // With git the files are listed and the search is cut; without it the walk itself is.
    expect(cut.notes.join("\n")).toMatch(
      git
        ? /search .* was cut short by its time box \(0 ms\)/
        : /import graph is still being built/,
    );
  });
});

describe.each([false, true])("a workspace before its graph exists (git work tree: %s)", (git) => {
  it("finds the tests that import a sibling package by its name", async () => {
    temp = copyFixture("analysis/workspace-app");
    if (git) await commitAll(temp.root);
    const project = openProject(temp.root);
    const files = ["packages/core/src/math.ts", "packages/core/src/format.ts"];
    const cold = await selectRelated(project, files, { write: false });
    expect(cold.complete).toBe(true);
    // `import { total } from "@acme/core"` reaches math.ts through the package's entry;
    // `import { invoice } from "app"` through app's, which imports `@acme/core/format`.
    expect(cold.related.get("packages/core/src/math.ts")?.map((test) => test.path)).toEqual([
      "packages/core/test/math.test.ts",
      "packages/app/test/sum.test.ts",
      "packages/app/test/invoice.test.ts",
    ]);
    expect(cold.related.get("packages/core/src/format.ts")).toEqual([
      expect.objectContaining({
        path: "packages/app/test/invoice.test.ts",
        evidence: "imports-via",
      }),
    ]);
    const built = await selectRelated(project, files, { write: true, graphMs: 60_000 });
    expect(built.complete).toBe(true);
    expect(cold.related).toEqual(built.related);
  });
});
