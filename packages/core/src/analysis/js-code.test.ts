import { describe, expect, it } from "vitest";
import { scanJsCode } from "./js-code.ts";

describe("scanJsCode", () => {
  it("finds require calls with one literal argument, not look-alikes", () => {
    const text = [
      'const a = require("./a");',
      "const { b } = require( './b' );",
      "const c = require(`./c`);",
      "const d = require(`./${name}`);",
      "const e = require(name);",
      "const f = module.require('./f');",
      "// require('./commented')",
      "/* require('./block') */",
      "const s = \"require('./in-string')\";",
      "const t = `require('./in-template')`;",
      "const r = /require\\('x'\\)/;",
      "const g = x.map(() => require('./g'));",
    ].join("\n");
    expect(scanJsCode(text, { jsx: false }).requires).toEqual(["./a", "./b", "./c", "./g"]);
  });

  it("tells a regex from a division", () => {
    const text = "const x = a / b; const y = /'/.test(s); require('./after');";
    expect(scanJsCode(text, { jsx: false }).requires).toEqual(["./after"]);
    const division = "const z = (a) / 2; const w = c / d / e; require('./after2');";
    expect(scanJsCode(division, { jsx: false }).requires).toEqual(["./after2"]);
  });

  it("reads code inside template substitutions", () => {
    const text = "const s = `a ${require('./inner')} b ${`nested ${x}`}`; require('./outer');";
    expect(scanJsCode(text, { jsx: false }).requires).toEqual(["./inner", "./outer"]);
  });

  it("blanks JSX markup and keeps its expressions, positions and newlines", () => {
    const text = [
      "export const App = () => (",
      '  <div className="a" title=\'it"s\'>',
      "    Don't {items.map((i) => <span key={i}>{i}</span>)} / done",
      "    <></>",
      "  </div>",
      ");",
    ].join("\n");
    const { code } = scanJsCode(text, { jsx: true });
    expect(code).toHaveLength(text.length);
    expect(code.split("\n")).toHaveLength(6);
    expect(code).not.toMatch(/<|Don't|className/);
    expect(code).toContain("{items.map((i) =>");
    expect(code).toContain("{i}");
    expect(code.replace(/\s+/g, " ")).toBe(
      "export const App = () => ( {items.map((i) => {i} {i} )} );",
    );
  });

  it("does not take a generic arrow function for JSX", () => {
    const text = "const f = <T,>(x: T) => x; const g = <U extends object>(y: U) => y;";
    expect(scanJsCode(text, { jsx: true }).code).toBe(text);
  });

  it("leaves a file without JSX or requires as it was", () => {
    const text = "import { a } from './a';\nexport const b = a < 2 ? 1 : 0;\n";
    expect(scanJsCode(text, { jsx: true })).toEqual({ code: text, requires: [] });
  });
});
