// Generates a project of `total` files (Python and TypeScript, sources and tests, half each),
// plus installed dependencies the scans must never enter. Shared by bench/analysis.mjs and the
// 50,000-file test (packages/core/test/analysis-scale.test.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Modules per folder: small folders, as real projects have. */
const PER_DIR = 50;

export function generateAnalysisProject(root, total = 50_000) {
  const write = (rel, text) => {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  const perLanguage = Math.floor(total / 2);
  // Four sources for each test.
  const sources = Math.floor((perLanguage * 4) / 5);
  const tests = perLanguage - sources;
  write(
    "pyproject.toml",
    '[project]\nname = "big"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\n',
  );
  write(
    "package.json",
    JSON.stringify({
      name: "big",
      private: true,
      type: "module",
      devDependencies: { vitest: "^4.1.0" },
    }),
  );
  write(
    "tsconfig.json",
    '{\n  // aliases\n  "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["web/*"] } }\n}\n',
  );
  write(".gitignore", "node_modules/\n");
  for (let i = 0; i < sources; i += 1) {
    const dir = Math.floor(i / PER_DIR);
    const k = i % PER_DIR;
    const pkg = `src/big/p${dir}`;
    if (k === 0) write(`${pkg}/__init__.py`, `from .m0 import f0\n\n__all__ = ["f0"]\n`);
    const pyImports = [
      k > 0 ? `from .m${k - 1} import f${k - 1}` : "import os",
      dir > 0 ? `from big.p${dir - 1}.m${k} import f${k}` : "import json",
    ];
    // Every tenth module is mid-sized (100 lines): the ones a coverage scan ranks first.
    const padding = k % 10 === 0 ? "# padding\n".repeat(90) : "";
    write(
      `${pkg}/m${k}.py`,
      `"""Module ${i}."""\n${pyImports.join("\n")}\n\n\ndef f${k}(value):\n    if value > ${k}:\n        return value\n    return ${k}\n\n\nclass C${k}:\n    pass\n${padding}`,
    );
    const tsImports = [
      k > 0
        ? `import { f${k - 1} } from "./m${k - 1}";`
        : `import { readFileSync } from "node:fs";`,
      dir > 0
        ? `import { f${k} as up } from "@/d${dir - 1}/m${k}";`
        : `const up = require("./legacy.cjs");`,
    ];
    write(
      `web/d${dir}/m${k}.ts`,
      `${tsImports.join("\n")}\n\nexport function f${k}(value: number): number {\n  return value > ${k} ? value : ${k};\n}\n\nexport const name${k} = "m${k}";\n`,
    );
  }
  write("web/d0/legacy.cjs", "module.exports = { legacy: true };\n");
  for (let i = 0; i < tests; i += 1) {
    const dir = Math.floor(i / PER_DIR);
    const k = i % PER_DIR;
    write(
      `tests/p${dir}/test_m${k}.py`,
      `from big.p${dir}.m${k} import f${k}\n\n\ndef test_f${k}():\n    assert f${k}(0) == ${k}\n`,
    );
    write(
      `web/d${dir}/m${k}.test.ts`,
      `import { expect, it } from "vitest";\nimport { f${k} } from "./m${k}";\n\nit("f${k}", () => {\n  expect(f${k}(0)).toBe(${k});\n});\n`,
    );
  }
  for (let i = 0; i < 2000; i += 1)
    write(`node_modules/dep${i % 40}/lib/f${i}.js`, "module.exports = 1;\n");
  return { sources, tests, perDir: PER_DIR };
}
