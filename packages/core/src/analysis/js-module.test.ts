import { beforeAll, describe, expect, it } from "vitest";
import { importedNames, loadJsLexers, scanJsModule } from "./js-module.ts";

beforeAll(async () => {
  await loadJsLexers();
});

describe("importedNames", () => {
  it.each([
    ["import D, { a, b as c, type T } from './m'", ["default", "a", "b", "T"]],
    ["import type { A } from './m'", ["A"]],
    ["import * as ns from './m'", "*"],
    ["import D from './m'", ["default"]],
    ["import './side-effect'", []],
    ["import {\n  a, // one\n  /* two */ b,\n} from './m'", ["a", "b"]],
    ["export { a as b, c } from './m'", ["a", "c"]],
    ["export * from './m'", "*"],
    ['import x = require("./m")', undefined],
  ])("%s", (statement, names) => {
    expect(importedNames(statement)).toEqual(names);
  });
});

describe("scanJsModule", () => {
  it("reads ESM imports, TypeScript type-only forms, re-exports and exports", () => {
    const module = scanJsModule(
      [
        "import type { A } from './a';",
        "import { b, type C } from './b';",
        "export type { D } from './d';",
        "export * from './e';",
        "export { g as h } from './g';",
        "export interface I { x: number }",
        "export type T = string;",
        "export const k = 1;",
        "export function f(): void {}",
        "export default class Z {}",
        "export enum E { A }",
        "const lazy = await import('./lazy');",
        "const req = require('./req');",
        "type Later = typeof import('./types-only');",
      ].join("\n"),
      "src/index.ts",
    );
    expect(module.imports).toEqual([
      { specifier: "./a", names: ["A"], typeOnly: true },
      { specifier: "./b", names: ["b", "C"], typeOnly: false },
      { specifier: "./d", names: ["D"], typeOnly: true },
      { specifier: "./e", names: "*", typeOnly: false },
      { specifier: "./g", names: ["g"], typeOnly: false },
      { specifier: "./lazy", names: undefined, typeOnly: false },
      { specifier: "./req", names: undefined, typeOnly: false },
    ]);
    expect(module.exports).toEqual(["D", "h", "I", "T", "k", "f", "default", "E"]);
    expect(module.starFrom).toEqual(["./e"]);
    expect(module).toMatchObject({ open: false, parsed: true });
  });

  it("reads a .tsx file with JSX", () => {
    const module = scanJsModule(
      [
        "import React from 'react';",
        "import { Button } from '@/components/button';",
        "export function App() { return <div className='x'>{items.map(i => <Button>{i}</Button>)} / it's</div>; }",
        "export const Other = () => <p>a</p>;",
      ].join("\n"),
      "src/app.tsx",
    );
    expect(module.imports.map((entry) => entry.specifier)).toEqual([
      "react",
      "@/components/button",
    ]);
    expect(module.exports).toEqual(["App", "Other"]);
    expect(module.parsed).toBe(true);
  });

  it("reads JSX in a .js file on a second try", () => {
    const module = scanJsModule(
      "import x from './x';\nexport const A = () => <a href='/'>it's</a>;\n",
      "src/a.js",
    );
    expect(module).toMatchObject({ exports: ["A"], parsed: true });
  });

  it("reads CommonJS exports and requires, and calls the module open", () => {
    const module = scanJsModule(
      "const a = require('./a');\nexports.foo = 1;\nmodule.exports.bar = () => a;\n",
      "lib/x.cjs",
    );
    expect(module.imports).toEqual([{ specifier: "./a", names: undefined, typeOnly: false }]);
    expect(module.exports).toEqual(["foo", "bar"]);
    expect(module.open).toBe(true);
    const facade = scanJsModule("module.exports = require('./impl');\n", "index.js");
    expect(facade.starFrom).toEqual(["./impl"]);
  });

  it("never mistakes strings or comments for imports", () => {
    const module = scanJsModule(
      "// import a from './no'\nconst s = \"import b from './no'\";\n/* export const c = 1 */\nexport const d = `import e from './no'`;\n",
      "x.ts",
    );
    expect(module.imports).toEqual([]);
    expect(module.exports).toEqual(["d"]);
  });
});
