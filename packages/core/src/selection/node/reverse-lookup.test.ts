import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  commitAll,
  copyFixture,
  makeProject,
  REPO_ROOT,
  type TempProject,
} from "@tailtest/test-utils";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBudget, steppingClock } from "../../analysis/budget.ts";
import { createImportGraph, findImporters, isGraphComplete } from "../../analysis/import-graph.ts";
import { loadJsLexers } from "../../analysis/js-module.ts";
import { advanceGraph } from "../../analysis/node/impact.ts";
import type { PathAliases } from "../../analysis/resolve.ts";
import { openProject, type Project } from "../../project/node/project.ts";
import {
  IMPORT_LINE,
  IMPORT_LINE_PCRE,
  importWords,
  reverseImporters,
  searchWords,
  sourceIndex,
} from "./reverse-lookup.ts";

let temp: TempProject | undefined;
afterEach(() => temp?.cleanup());
beforeAll(async () => {
  await loadJsLexers();
});

const unlimited = () => createBudget(60_000, () => performance.now());

describe("importWords: what an import of a file must spell", () => {
  // express's tests spell the package `require('../.')`: a folder's end with `/.`.
  const folder = [`"."`, `'.'`, `"./"`, `'./'`, `.."`, `..'`, `../"`, `../'`, `/."`, `/.'`];
  it.each<[string, string[]]>([
    ["src/shop/billing.py", ["billing"]],
    ["src/shop/__init__.py", ["shop", "__init__", "from ."]],
    ["src/ui/index.ts", ["ui", "index", ...folder]],
    ["index.js", ["index", ...folder]],
    ["lib/option.js", ["option"]],
    ["src/a.test.ts", ["a.test"]],
  ])("%s → %j", (file, words) => {
    expect(importWords(file)).toEqual(words);
  });
});

describe("searchWords: the folder and name everywhere, the bare name only below its folder", () => {
  const files = new Set(["src/big/p3/__init__.py", "src/big/p3/m7.py", "lib/m7.py"]);
  const context =
    (aliases: PathAliases[] = [], pythonRoots = ["", "src"]) =>
    () => ({
      files: { has: () => false },
      aliases,
      pythonRoots,
    });
  const project = { view: { exists: () => false } } as unknown as Project;
  const at = { scope: "", paths: [["@/*", ["web/*"]]] as [string, string[]][] };
  it.each<[string, PathAliases[], ReturnType<typeof searchWords>]>([
    [
      "src/big/p3/m7.py",
      [],
      { everywhere: ["p3.m7", "p3 import"], under: { dir: "src/big/p3", words: ["m7"] } },
    ],
    // Not a package: imported as `m7` from wherever its folder is on the path.
    ["lib/m7.py", [], { everywhere: ["m7"] }],
    ["src/big/p3/__init__.py", [], { everywhere: importWords("src/big/p3/__init__.py") }],
    ["web/d3/m7.ts", [at], { everywhere: ["d3/m7"], under: { dir: "web/d3", words: ["m7"] } }],
    // `@/m7` does not spell the folder; neither does a bare `m7` from a baseUrl of web/d3.
    ["web/m7.ts", [at], { everywhere: ["m7"] }],
    ["web/d3/m7.ts", [{ scope: "", base_url: "web/d3", paths: [] }], { everywhere: ["m7"] }],
    ["web/d3/m7.ts", [{ scope: "", paths: [["@lib/*", ["web/d3/*"]]] }], { everywhere: ["m7"] }],
    ["web/d3/m7.ts", [{ scope: "", paths: [["@m7", ["web/d3/m7.ts"]]] }], { everywhere: ["m7"] }],
  ])("%s (aliases %j)", (file, aliases, words) => {
    expect(searchWords(project, file, (rel) => files.has(rel), context(aliases))).toEqual(words);
  });
  it("keeps the bare name everywhere inside a workspace package", () => {
    const inPackage = { view: { exists: (rel: string) => rel === "packages/ui/package.json" } };
    expect(
      searchWords(inPackage as unknown as Project, "packages/ui/src/m7.ts", () => false, context()),
    ).toEqual({ everywhere: ["m7"] });
  });
});

/** Every source file's importers, by the whole graph and by the cold path: they must agree. */
function compare(project: Project, limit = 60): { files: number; importers: number } {
  const graph = createImportGraph();
  advanceGraph(project, graph, unlimited());
  expect(isGraphComplete(graph)).toBe(true);
  const index = sourceIndex(project, unlimited());
  expect(index).toBeDefined();
  if (index === undefined) return { files: 0, importers: 0 };
  try {
    const sources = graph.files.filter((file) => index.has(file));
    expect(index.files.all()).toEqual([...sources].sort());
    let importers = 0;
    for (const file of sources.slice(0, limit)) {
      const byGraph = findImporters(graph, file, 12);
      const cold = reverseImporters(project, index, file, 12, unlimited());
      expect(cold.complete).toBe(true);
      expect({ file, levels: cold.levels }).toEqual({ file, levels: byGraph });
      importers += byGraph.flat().length;
    }
    return { files: Math.min(limit, sources.length), importers };
  } finally {
    index.close();
  }
}

describe("the cold path finds the importers the graph holds", () => {
  it.each(["analysis/python-app", "analysis/ts-app", "analysis/workspace-app"])(
    "%s, in a git work tree (git grep) and without one (a scan)",
    async (fixture) => {
      temp = copyFixture(fixture);
      const scanned = compare(openProject(temp.root));
      await commitAll(temp.root);
      const grepped = compare(openProject(temp.root));
      expect(grepped).toEqual(scanned);
      // The fixtures' files import one another: the comparison is not of empty lists.
      expect(scanned.importers).toBeGreaterThan(3);
    },
  );

  // The corpus's Python and JS/TS projects (Go and Rust tests follow their package's layout).
  const corpus = readdirSync(join(REPO_ROOT, "fixtures/projects"))
    .filter((name) => name.endsWith(".json"))
    .map((name) => ({
      name: name.slice(0, -".json".length),
      runner: (
        JSON.parse(readFileSync(join(REPO_ROOT, "fixtures/projects", name), "utf8")) as {
          runner: string;
        }
      ).runner,
    }))
    .filter(({ runner }) => runner !== "go" && runner !== "cargo")
    .map(({ name }) => name);
  it.each(corpus)(
    "the corpus project %s (git grep)",
    async (name) => {
      temp = copyFixture(`projects/${name}`);
      await commitAll(temp.root);
      const found = compare(openProject(temp.root), 150);
      expect(found.files).toBeGreaterThan(0);
    },
    120_000,
  );

  it("finds imports spelled across lines, from other folders and below", async () => {
    temp = makeProject({
      "pyproject.toml": "[project]\nname = 'big'\n",
      "src/big/__init__.py": "",
      "src/big/p3/__init__.py": "",
      "src/big/p3/m7.py": "X = 1\n",
      "src/big/p3/m8.py": "from . import (\n    m7,\n)\n",
      "src/big/p3/sub/__init__.py": "",
      "src/big/p3/sub/deep.py": "from ..m7 import X\n",
      "src/big/p4/__init__.py": "",
      "src/big/p4/m7.py": "from big.p3 import (\n    m7,\n)\n",
      "src/big/p4/m9.py": "from big.p3.m7 \\\n    import X\n",
      "tests/test_x.py": "import big.p3.m7\n",
      "tsconfig.json": '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["web/*"] } } }\n',
      "web/d3/m7.ts": "export const x = 1;\n",
      "web/d3/a.ts": 'export { x } from "./m7";\n',
      "web/d4/b.ts": 'const m = await import(\n  "../d3/m7"\n);\nexport default m;\n',
      "web/d4/c.ts": 'import {\n  x,\n} from "@/d3/m7";\nexport const y = x;\n',
      "web/d3/inner/d.ts": 'import { x } from "../m7";\nexport const z = x;\n',
    });
    await commitAll(temp.root);
    const found = compare(openProject(temp.root));
    expect(found.importers).toBeGreaterThan(8);
  });

  it("finds a util imported only by a .vue or .svelte component, up to the component's test", async () => {
    temp = makeProject({
      "tsconfig.json": '{ "compilerOptions": { "baseUrl": "." } }\n',
      "src/utils/filters.ts": "export const date = (d: string) => d;\n",
      "src/components/Meta.vue":
        '<template><p>{{ date(at) }}</p></template>\n<script setup lang="ts">\nimport { date } from "src/utils/filters"\n</script>\n',
      "src/components/Meta.spec.ts": 'import Meta from "./Meta.vue";\n',
      "src/Card.svelte":
        "<script>\n  import { date } from './utils/filters';\n</script>\n<p>{date(x)}</p>\n",
      "src/Card.test.ts": 'import Card from "./Card.svelte";\n',
    });
    await commitAll(temp.root);
    const project = openProject(temp.root);
    const index = sourceIndex(project, unlimited());
    const found = index && reverseImporters(project, index, "src/utils/filters.ts", 3, unlimited());
    index?.close();
    expect(found?.levels).toEqual([
      ["src/Card.svelte", "src/components/Meta.vue"],
      ["src/Card.test.ts", "src/components/Meta.spec.ts"],
    ]);
    expect(compare(project).importers).toBe(6);
  });

  it("finds the tests that run a package as a program (`python -m greet`), in a subprocess", async () => {
    temp = makeProject({
      "pyproject.toml": "[project]\nname = 'greet'\n",
      "src/greet/__init__.py": "",
      "src/greet/__main__.py": "from greet.cli import main\n\nraise SystemExit(main())\n",
      "src/greet/cli.py":
        "from greet.words import greeting\n\ndef main():\n    print(greeting())\n",
      "src/greet/words.py": "def greeting():\n    return 'Hello'\n",
      "tests/test_run.py":
        'import subprocess, sys\n\ndef test_run():\n    subprocess.run(\n        [sys.executable, "-m", "greet"],\n        check=True,\n    )\n',
      "tests/test_shell.py":
        "import subprocess\n\ndef test_shell():\n    subprocess.run('python3 -m greet', shell=True, check=True)\n",
    });
    await commitAll(temp.root);
    const project = openProject(temp.root);
    const index = sourceIndex(project, unlimited());
    const found = index && reverseImporters(project, index, "src/greet/words.py", 4, unlimited());
    index?.close();
    expect(found?.levels).toEqual([
      ["src/greet/cli.py"],
      ["src/greet/__main__.py"],
      ["tests/test_run.py", "tests/test_shell.py"],
    ]);
    // The graph holds the same: words.py 4 importers, cli.py 3, __main__.py 2, __init__.py 2.
    expect(compare(project).importers).toBe(11);
  });

  it("finds the tests that start a console script by its name (`[project.scripts]`)", async () => {
    temp = makeProject({
      "pyproject.toml":
        "[project]\nname = 'greet'\n\n[project.scripts]\ngreet-tool = 'greet.cli:main'\n",
      "src/greet/__init__.py": "",
      "src/greet/cli.py":
        "from greet.words import greeting\n\ndef main():\n    print(greeting())\n",
      "src/greet/words.py": "def greeting():\n    return 'Hello'\n",
      "tests/test_cli.py":
        'import subprocess\n\ndef test_cli():\n    subprocess.run(["greet-tool", "--name", "Ann"], check=True)\n',
      "tests/test_shell.py":
        "import subprocess\n\ndef test_shell():\n    subprocess.run('echo x | greet-tool', shell=True, check=True)\n",
      "tests/test_other.py": "def test_other():\n    assert 'greet-tools' != 'greet'\n",
    });
    await commitAll(temp.root);
    const project = openProject(temp.root);
    const index = sourceIndex(project, unlimited());
    const found = index && reverseImporters(project, index, "src/greet/words.py", 4, unlimited());
    index?.close();
    expect(found?.levels).toEqual([
      ["src/greet/cli.py"],
      ["tests/test_cli.py", "tests/test_shell.py"],
    ]);
    // The graph holds the same: words.py 3 importers, cli.py 2.
    expect(compare(project).importers).toBe(5);
  });

  it("finds a package's entry required from two folders down (`require('../../')`)", async () => {
    temp = makeProject({
      "package.json": '{ "name": "pkg", "main": "index.js" }\n',
      "index.js": "module.exports = require('./lib/a.js')\n",
      "lib/a.js": "module.exports = 1\n",
      "test/deep/slash.js": "const pkg = require('../../')\n",
      "test/deep/bare.js": 'const pkg = require("../..")\n',
    });
    await commitAll(temp.root);
    const found = compare(openProject(temp.root));
    // index.js's two importers and lib/a.js's one, plus those two again one level up.
    expect(found.importers).toBe(5);
  });

  it("finds a folder's `main` that is not an index, required by the folder (`require('..')`)", async () => {
    temp = makeProject({
      "package.json": '{ "name": "pkg", "main": "lib/pkg.js" }\n',
      "lib/pkg.js": "module.exports = require('./util.js')\n",
      "lib/util.js": "module.exports = 1\n",
      "test/main.js": "const pkg = require('..')\n",
      "test/deep/main.js": "const pkg = require('../../')\n",
    });
    await commitAll(temp.root);
    const project = openProject(temp.root);
    const index = sourceIndex(project, unlimited());
    const found = index && reverseImporters(project, index, "lib/pkg.js", 3, unlimited());
    index?.close();
    expect(found?.levels).toEqual([["test/deep/main.js", "test/main.js"]]);
    expect(compare(project).importers).toBe(5);
  });

  it("the Perl and the POSIX import-line patterns pick the same lines", async () => {
    const lines = [
      'import x from "./a";',
      "  from .m7 import X",
      "const m = require(",
      '  "../d3/m7"',
      "\t'../d3/m7' ,",
      "  `./tpl`);",
      '  "a" "b"',
      '  "key": 1,',
      "export const y = 1;",
      "fromage = 2",
      "  x = 'alone'",
      "    path('catalog/', include('catalog.urls')),",
      "ROOT_URLCONF = 'site_.urls'",
      "included = 1",
      "",
    ];
    temp = makeProject({ "a.ts": lines.join("\n"), "b.py": lines.join("\r\n") });
    await commitAll(temp.root);
    const grep = (syntax: string, pattern: string): string =>
      execFileSync("git", ["grep", "-n", "-I", syntax, "-e", pattern, "--", "*.ts", "*.py"], {
        cwd: temp?.root,
        encoding: "utf8",
      });
    const perl = grep("-P", IMPORT_LINE_PCRE);
    expect(perl).toBe(grep("-E", IMPORT_LINE));
    // Both files: the import words, the three strings alone on their line and Django's URLconfs.
    expect(perl.split("\n").filter((line) => line !== "")).toHaveLength(2 * 9);
  });

  it("stops when its box runs out and says it did not finish", async () => {
    temp = copyFixture("analysis/python-app");
    await commitAll(temp.root);
    const project = openProject(temp.root);
    const index = sourceIndex(project, unlimited());
    if (index === undefined) throw new Error("no index");
    const cut = reverseImporters(
      project,
      index,
      "src/shop/tax.py",
      12,
      createBudget(2, steppingClock()),
    );
    index.close();
    expect(cut.complete).toBe(false);
  });
});
