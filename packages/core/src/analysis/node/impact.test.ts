import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyFixture, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBudget, steppingClock } from "../budget.ts";
import {
  createImportGraph,
  findImporters,
  isGraphComplete,
  type ImportGraph,
} from "../import-graph.ts";
import { loadJsLexers } from "../js-module.ts";
import {
  advanceGraph,
  loadGraph,
  lookupContext,
  readFileImports,
  startImportGraph,
  traceImpact,
} from "./impact.ts";
import { openProject, type Project } from "../../project/node/project.ts";
import { GRAPH_VERSION } from "../../selection/graph-shards.ts";

let temp: TempProject | undefined;
afterEach(() => temp?.cleanup());
beforeAll(async () => {
  await loadJsLexers();
});

const unlimited = () => createBudget(60_000, () => performance.now());

function build(project: Project): ImportGraph {
  const graph = createImportGraph();
  advanceGraph(project, graph, unlimited());
  expect(isGraphComplete(graph)).toBe(true);
  return graph;
}

function edgesOf(graph: ImportGraph): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  graph.files.forEach((file, id) => {
    const edge = graph.imports[id] ?? "";
    out[file] =
      edge === ""
        ? []
        : edge
            .split(",")
            .map((to) => graph.files[Number(to)] ?? "?")
            .sort();
  });
  return out;
}

describe("the import graph of a Python project", () => {
  it("resolves relative, absolute (src layout), package and submodule imports", () => {
    temp = copyFixture("analysis/python-app");
    const graph = build(openProject(temp.root));
    expect(edgesOf(graph)).toEqual({
      "scripts/report.py": ["src/shop/tax.py"],
      "src/shop/__init__.py": ["src/shop/billing.py", "src/shop/cart.py"],
      "src/shop/api/__init__.py": [],
      // `from .. import billing` names a submodule: the edge goes to it, not to the package.
      "src/shop/api/routes.py": ["src/shop/billing.py", "src/shop/cart.py"],
      "src/shop/billing.py": ["src/shop/tax.py"],
      "src/shop/cart.py": ["src/shop/billing.py"],
      "src/shop/tax.py": [],
      "tests/__init__.py": [],
      "tests/conftest.py": ["tests/factories.py"],
      "tests/factories.py": ["src/shop/cart.py"],
      "tests/test_billing.py": ["src/shop/billing.py"],
    });
  });

  it("finds importers hop by hop, each at its shortest distance", () => {
    temp = copyFixture("analysis/python-app");
    const graph = build(openProject(temp.root));
    expect(findImporters(graph, "src/shop/tax.py", 2)).toEqual([
      ["scripts/report.py", "src/shop/billing.py"],
      [
        "src/shop/__init__.py",
        "src/shop/api/routes.py",
        "src/shop/cart.py",
        "tests/test_billing.py",
      ],
    ]);
    expect(findImporters(graph, "src/shop/tax.py", 1)).toHaveLength(1);
  });
});

describe("the import graph of a TypeScript project", () => {
  it("resolves tsconfig paths (through extends), index files, re-exports, .js → .ts, require", () => {
    temp = copyFixture("analysis/ts-app");
    const graph = build(openProject(temp.root));
    expect(edgesOf(graph)).toEqual({
      "src/app.ts": ["src/components/Price.tsx", "src/legacy/util.cjs", "src/lib/index.ts"],
      "src/components/Price.tsx": ["src/lib/index.ts"],
      "src/legacy/helper.cjs": [],
      "src/legacy/util.cjs": ["src/legacy/helper.cjs"],
      "src/lib/format.ts": ["src/lib/money.ts"],
      "src/lib/index.ts": ["src/lib/format.ts", "src/lib/money.ts"],
      "src/lib/money.ts": [],
      "test/money.test.ts": ["src/lib/money.ts"],
    });
  });
});

describe("the time box", () => {
  it("cuts a build short and a later call carries it on to the same graph", () => {
    temp = copyFixture("analysis/python-app");
    const project = openProject(temp.root);
    const whole = build(project);
    const graph = createImportGraph();
    let calls = 0;
    while (!isGraphComplete(graph)) {
      // Three clock readings per call: one to set the deadline, two checks before it is up.
      advanceGraph(project, graph, createBudget(3, steppingClock()));
      calls += 1;
      expect(calls).toBeLessThan(100);
    }
    expect(calls).toBeGreaterThan(3);
    expect(edgesOf(graph)).toEqual(edgesOf(whole));
  });

  it("says at session start when the build was cut, and the next edit carries it on", async () => {
    temp = copyFixture("analysis/python-app");
    const project = openProject(temp.root);
    const note = await startImportGraph(project, createBudget(2, steppingClock()));
    expect(note).toMatch(
      /^tailtest: impact tracing: building the import graph was cut short by its time box \(2 ms\): the project walk found \d+ source files so far; the next edits carry it on\.$/,
    );
    const line = await traceImpact(project, "src/shop/tax.py", unlimited());
    expect(line).toBe(
      "Impact: src/shop/tax.py is imported by scripts/report.py, src/shop/billing.py; 4 more files import those (up to 2 hops)",
    );
    expect(await startImportGraph(project, unlimited())).toBeUndefined();
  });

  it("says how far an unfinished graph got in the impact line", async () => {
    temp = copyFixture("analysis/ts-app");
    const project = openProject(temp.root);
    await startImportGraph(project, createBudget(4, steppingClock()));
    const line = await traceImpact(project, "src/lib/money.ts", createBudget(1, steppingClock()));
    expect(line).toMatch(
      /\(import graph incomplete: \d+ of \d+ files read so far, the rest during the next edits\)$/,
    );
  });
});

describe("the import graph of single-file components", () => {
  it("reads the imports of every <script> block of .vue and .svelte files", () => {
    temp = makeProject({
      "tsconfig.json": '{"compilerOptions":{"baseUrl":".","paths":{"@/*":["./src/*"]}}}\n',
      "src/utils/filters.ts": "export const date = (d: string) => d;\n",
      "src/composable/useTags.ts": "export const useTags = () => [];\n",
      "src/store/user.ts": "export const user = {};\n",
      "src/components/Row.vue": "<template><li /></template>\n",
      "src/components/Meta.vue": [
        '<script lang="ts">',
        "export default { name: 'Meta' }",
        "</script>",
        '<script setup lang="ts">',
        "import { date } from 'src/utils/filters'",
        "import { useTags } from '@/composable/useTags'",
        "import Row from './Row.vue'",
        "</script>",
        '<template><Row :title="date(at)" /></template>',
      ].join("\n"),
      "src/components/Meta.spec.ts": "import Meta from './Meta.vue';\n",
      "src/Card.svelte": [
        '<script context="module" lang="ts">import { user } from "./store/user";</script>',
        "<script>import { date } from './utils/filters';</script>",
        "<p>{date(user.at)}</p>",
      ].join("\n"),
    });
    const edges = edgesOf(build(openProject(temp.root)));
    expect(edges["src/components/Meta.vue"]).toEqual([
      "src/components/Row.vue",
      "src/composable/useTags.ts",
      "src/utils/filters.ts",
    ]);
    expect(edges["src/Card.svelte"]).toEqual(["src/store/user.ts", "src/utils/filters.ts"]);
    expect(edges["src/components/Row.vue"]).toEqual([]);
  });
});

describe("traceImpact", () => {
  it("reads the edited file again, so a new import counts at once", async () => {
    temp = copyFixture("analysis/ts-app");
    const project = openProject(temp.root);
    await startImportGraph(project, unlimited());
    writeFileSync(join(temp.root, "src/lib/extra.ts"), "export const x = 1;\n");
    expect(await traceImpact(project, "src/lib/extra.ts", unlimited())).toBe(
      "Impact: no project file imports src/lib/extra.ts",
    );
    writeFileSync(
      join(temp.root, "src/lib/format.ts"),
      'import { x } from "./extra";\nexport const f = x;\n',
    );
    await traceImpact(project, "src/lib/format.ts", unlimited());
    expect(await traceImpact(project, "src/lib/extra.ts", unlimited())).toBe(
      "Impact: src/lib/extra.ts is imported by src/lib/format.ts; 1 more file imports those (up to 2 hops)",
    );
  });

  it.each(["index.json", "shard-0.json"])(
    "moves a corrupt graph file (%s) aside and builds a new one",
    async (name) => {
      temp = copyFixture("analysis/python-app");
      const project = openProject(temp.root);
      await startImportGraph(project, unlimited());
      writeFileSync(join(temp.root, ".tailtest/graph", name), "{ not json");
      const line = await traceImpact(project, "src/shop/billing.py", unlimited());
      expect(line).toMatch(
        /^Impact: src\/shop\/billing\.py is imported by src\/shop\/__init__\.py/,
      );
      const names = readdirSync(join(temp.root, ".tailtest/graph"));
      expect(names.filter((found) => found.startsWith(`${name}.corrupt-`))).toHaveLength(1);
      expect(
        JSON.parse(readFileSync(join(temp.root, ".tailtest/graph", name), "utf8")),
      ).toMatchObject({ version: GRAPH_VERSION });
    },
  );

  it("drops an earlier version's single graph file and builds the sharded one", async () => {
    temp = copyFixture("analysis/python-app");
    const project = openProject(temp.root);
    const old = join(temp.root, ".tailtest/import-graph.json");
    mkdirSync(join(temp.root, ".tailtest"), { recursive: true });
    writeFileSync(old, JSON.stringify({ version: 2, files: "a.py", imports: "", importers: "" }));
    const line = await traceImpact(project, "src/shop/billing.py", unlimited());
    expect(line).toMatch(/^Impact: src\/shop\/billing\.py is imported by src\/shop\/__init__\.py/);
    expect(existsSync(old)).toBe(false);
    expect(readdirSync(join(temp.root, ".tailtest")).some((n) => n.includes(".corrupt-"))).toBe(
      false,
    );
    expect(loadGraph(project, false).graph.files).toContain("src/shop/billing.py");
  });
});

describe("imports the lexer cannot read as statements", () => {
  const files = {
    "package.json": '{"name":"app","imports":{"#multiply":"./test/helpers.js"}}\n',
    "tsconfig.json": '{"compilerOptions":{"paths":{"@/*":["./src/*"]}}}\n',
    "src/calc.js": 'const { mul } = require("#multiply");\nconst util = require("@/util");\n',
    "src/util.js": "exports.x = 1;\n",
    "test/helpers.js": "exports.mul = (a, b) => a * b;\n",
    "calc.py": 'import sys\nsys.path.insert(0, "tests")\nimport helpers\nimport nowhere\n',
    "loader.py": 'import importlib\nh = importlib.import_module("tests.helpers")\n',
    "tests/helpers.py": "def mul(a, b):\n    return a * b\n",
  };

  it("resolves a package.json imports map beside the nearest tsconfig's paths", () => {
    temp = makeProject(files);
    const project = openProject(temp.root);
    expect(readFileImports(project, "src/calc.js", lookupContext(project, "src/calc.js"))).toEqual([
      "test/helpers.js",
      "src/util.js",
    ]);
    expect(edgesOf(build(project))["src/calc.js"]).toEqual(["src/util.js", "test/helpers.js"]);
  });

  it("reads a Python file past the size cap by its head (idna's 1.4 MB test of vectors)", () => {
    const cases = `    (${JSON.stringify("x".repeat(70))}, 1),\n`.repeat(5000);
    temp = makeProject({
      ...files,
      "tests/test_vectors.py": `import unittest\n\nimport helpers\n\nCASES = [\n${cases}]\n`,
    });
    const project = openProject(temp.root);
    const rel = "tests/test_vectors.py";
    expect(readFileImports(project, rel, lookupContext(project, rel))).toEqual([
      "tests/helpers.py",
    ]);
  });

  it("resolves a literal sys.path folder and import_module's literal name", () => {
    temp = makeProject(files);
    const project = openProject(temp.root);
    for (const rel of ["calc.py", "loader.py"])
      expect(readFileImports(project, rel, lookupContext(project, rel))).toEqual([
        "tests/helpers.py",
      ]);
  });

  it("resolves bare imports after a working-directory folder is put on sys.path (autojump)", () => {
    temp = makeProject({
      "bin/app_utils.py": "def last(xs):\n    return xs[-1]\n",
      "bin/app_match.py": "from app_utils import last\n",
      "tests/__init__.py": "",
      "tests/unit/__init__.py": "",
      "tests/unit/app_match_test.py": [
        "import os",
        "import sys",
        "",
        "sys.path.append(os.path.join(os.getcwd(), 'bin'))  # noqa",
        "from app_match import last",
        "",
      ].join("\n"),
    });
    const project = openProject(temp.root);
    const rel = "tests/unit/app_match_test.py";
    expect(readFileImports(project, rel, lookupContext(project, rel))).toEqual([
      "bin/app_match.py",
    ]);
    expect(edgesOf(build(project))["bin/app_match.py"]).toEqual(["bin/app_utils.py"]);
  });

  it("resolves the dotted paths a module loads by a computed name (mistune's plugin table)", () => {
    temp = makeProject({
      "src/md/__init__.py": "from .plugins import load\n",
      "src/md/plugins/__init__.py": [
        "from importlib import import_module",
        "_plugins = {",
        '    "table": "md.plugins.table.table",',
        '    "strike": "md.plugins.formatting.strikethrough",',
        '    "entry": "md.plugins.math:math",',
        '    "gone": "md.plugins.missing.x",',
        '    "other": "os.path.join",',
        "}",
        "def load(name):",
        '    path, attr = _plugins[name].rsplit(".", 1)',
        "    return getattr(import_module(path), attr)",
        "",
      ].join("\n"),
      "src/md/plugins/table.py": "def table(md):\n    pass\n",
      "src/md/plugins/formatting.py": "def strikethrough(md):\n    pass\n",
      "src/md/plugins/math.py": "def math(md):\n    pass\n",
      "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
    });
    const project = openProject(temp.root);
    const rel = "src/md/plugins/__init__.py";
    expect(readFileImports(project, rel, lookupContext(project, rel))).toEqual([
      "src/md/plugins/table.py",
      "src/md/plugins/formatting.py",
      "src/md/plugins/math.py",
    ]);
  });
});
