import { copyFixture, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { loadJsLexers } from "../js-module.ts";
import { checkApi, collectExports } from "./api-check-files.ts";
import { lookupContext } from "./impact.ts";
import { inspectEdit, openProject } from "../../project/node/project.ts";

let temp: TempProject | undefined;
afterEach(() => temp?.cleanup());

async function apiNotes(root: string, path: string): Promise<string[]> {
  const project = openProject(root);
  return checkApi(project, inspectEdit(project, path));
}

/** Barrels are not queued for a test unless the project says so: these tests say so. */
function queueBarrels(project: TempProject, ...paths: string[]): void {
  project.write(".tailtest/config.json", JSON.stringify({ file_classes: { production: paths } }));
}

describe("the API line of a JS/TS barrel", () => {
  it("lists what it re-exports through export *, as the import check sees it", async () => {
    temp = copyFixture("analysis/ts-app");
    queueBarrels(temp, "src/lib/index.ts");
    expect(await apiNotes(temp.root, "src/lib/index.ts")).toEqual([
      "API: src/lib/index.ts defines formatMoney, Money, ZERO, add (static parse); tests import only what it defines",
    ]);
  });

  it("says the list is not complete when an export * cannot be followed", async () => {
    temp = copyFixture("analysis/ts-app");
    queueBarrels(temp, "src/lib/index.ts");
    temp.write(
      "src/lib/index.ts",
      'export * from "./money";\nexport * from "some-package";\nexport { format as formatMoney } from "./format.js";\n',
    );
    temp.write("src/lib/money.ts", 'export const ZERO = 0;\nexport * from "./gone";\n');
    expect(await apiNotes(temp.root, "src/lib/index.ts")).toEqual([
      'API: src/lib/index.ts defines formatMoney, ZERO (static parse); not complete: the names of export * from "some-package", "./gone" (in src/lib/money.ts) could not be followed; tests import only what it defines',
    ]);
  });

  it("follows four export * links, no more, and takes a cycle as complete", async () => {
    temp = copyFixture("analysis/ts-app");
    temp.write("src/chain/a.ts", 'export const a = 1;\nexport * from "./b";\n');
    temp.write("src/chain/b.ts", 'export const b = 1;\nexport * from "./c";\n');
    temp.write("src/chain/c.ts", 'export const c = 1;\nexport * from "./d";\n');
    temp.write("src/chain/d.ts", 'export const d = 1;\nexport * from "./e";\n');
    temp.write("src/chain/e.ts", 'export const e = 1;\nexport * from "./f";\n');
    temp.write("src/chain/f.ts", "export const f = 1;\n");
    temp.write("src/loop/x.ts", 'export const x = 1;\nexport * from "./y";\n');
    temp.write("src/loop/y.ts", 'export const y = 1;\nexport * from "./x";\n');
    await loadJsLexers();
    const project = openProject(temp.root);
    const list = (file: string) => collectExports(project, lookupContext(project, file), file);
    expect(list("src/chain/a.ts")).toEqual({
      names: ["a", "b", "c", "d", "e"],
      open: false,
      unfollowed: [{ file: "src/chain/e.ts", specifier: "./f" }],
    });
    expect(list("src/chain/b.ts")?.unfollowed).toEqual([]);
    expect(list("src/loop/x.ts")).toEqual({ names: ["x", "y"], open: false, unfollowed: [] });
  });

  it("lists a module's own exports when it has no export *", async () => {
    temp = copyFixture("analysis/ts-app");
    expect(await apiNotes(temp.root, "src/lib/money.ts")).toEqual([
      "API: src/lib/money.ts defines Money, ZERO, add (static parse); tests import only what it defines",
      "API check: test/money.test.ts imports a name subtract from src/lib/money.ts, which does not define it (it defines: Money, ZERO, add); fix the test or the source",
    ]);
  });
});

describe("the API line of a Python package", () => {
  it("lists __all__ when the package declares it", async () => {
    temp = copyFixture("analysis/python-app");
    queueBarrels(temp, "src/shop/__init__.py");
    expect(await apiNotes(temp.root, "src/shop/__init__.py")).toEqual([
      "API: src/shop/__init__.py defines charge, refund, Cart (static parse); tests import only what it defines",
    ]);
  });

  it("lists module-level defs and classes without __all__, private names left out", async () => {
    temp = copyFixture("analysis/python-app");
    expect((await apiNotes(temp.root, "src/shop/billing.py"))[0]).toBe(
      "API: src/shop/billing.py defines charge, refund (static parse); tests import only what it defines",
    );
  });
});
