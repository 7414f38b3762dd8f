import { cpSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES_DIR, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { openProject } from "../../project/node/project.ts";
import { chooseTests } from "./choose-tests.ts";
import { withCovering, packageTests } from "./covering.ts";
import { goImports, goModulePath } from "./go-importers.ts";

let temp: TempProject | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

const related = (root: string, file: string, importers?: "untested") =>
  (packageTests(openProject(root), file, "go", importers) ?? []).map((t) => [
    t.path,
    t.evidence,
    t.hops,
  ]);

// A module whose `internal/mathx` has no tests: `calc` calls it, `cmd/tool` calls `calc`.
const module = {
  "go.mod": "module example.com/m\n\ngo 1.19\n",
  "internal/mathx/mathx.go": "package mathx\n\nfunc Add(a, b int) int { return a + b }\n",
  "calc/calc.go":
    'package calc\n\nimport (\n\t"fmt"\n\n\tmx "example.com/m/internal/mathx"\n)\n\nfunc Sum(a, b int) int { return mx.Add(a, b) }\nfunc Show(x int) string { return fmt.Sprint(x) }\n',
  "calc/calc_test.go": 'package calc\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {}\n',
  "cmd/tool/main.go":
    'package main\n\nimport "example.com/m/calc"\n\nfunc main() { calc.Sum(1, 2) }\n',
  "cmd/tool/main_test.go": 'package main\n\nimport "testing"\n\nfunc TestMain2(t *testing.T) {}\n',
  // An external test package elsewhere importing mathx itself.
  "tests/e2e/e2e_test.go":
    'package e2e_test\n\nimport (\n\t"testing"\n\t"example.com/m/internal/mathx"\n)\n\nfunc TestE2E(t *testing.T) { mathx.Add(1, 2) }\n',
  // Not read: another module, vendored code, testdata.
  "tools/go.mod": "module example.com/tools\n",
  "tools/t_test.go": 'package tools\n\nimport "example.com/m/internal/mathx"\n',
  "vendor/x/x_test.go": 'package x\n\nimport "example.com/m/internal/mathx"\n',
  "testdata/y_test.go": 'package y\n\nimport "example.com/m/internal/mathx"\n',
  "util/util.go": "package util\n\nfunc Twice(x int) int { return x * 2 }\n",
  "util/util_test.go": 'package util\n\nimport "testing"\n\nfunc TestTwice(t *testing.T) {}\n',
};

describe("Go: the tests of the packages importing a file's package (ADR 0013)", () => {
  it("a package with no tests: the importers' tests, nearest first", () => {
    temp = makeProject(module);
    expect(related(temp.root, "internal/mathx/mathx.go")).toEqual(
      [
        ["calc/calc_test.go", "imports-via", 2],
        ["tests/e2e/e2e_test.go", "imports", 1],
        ["cmd/tool/main_test.go", "imports-via", 3],
      ].sort((a, b) => Number(a[2]) - Number(b[2]) || String(a[0]).localeCompare(String(b[0]))),
    );
    // Its note too: the package has no test, so the importers are read for it.
    expect(related(temp.root, "internal/mathx/mathx.go", "untested")).toHaveLength(3);
  });

  it("BurntSushi/toml (the corpus snapshot): internal packages with no tests reach the root's", () => {
    temp = makeProject({});
    cpSync(join(FIXTURES_DIR, "projects/burntsushi-toml"), temp.root, { recursive: true });
    // internal/tag is imported by toml_test.go alone (the commands importing it have no tests).
    expect(related(temp.root, "internal/tag/add.go")).toEqual([["toml_test.go", "imports", 1]]);
    // internal is imported by the root package's code (parse.go, encode.go) and decode_test.go,
    // and by internal/tag: every root test, decode_test.go first by its own import line.
    const zone = related(temp.root, "internal/tz.go");
    expect(zone[0]).toEqual(["decode_test.go", "imports", 1]);
    expect(zone.map(([path]) => path)).toEqual(
      expect.arrayContaining(["toml_test.go", "encode_test.go", "error_test.go"]),
    );
  });

  it("a package with tests: its own first, then its importers'; the note reads only its own", () => {
    temp = makeProject(module);
    expect(related(temp.root, "calc/calc.go")).toEqual([
      ["calc/calc_test.go", "name", 0],
      ["cmd/tool/main_test.go", "imports-via", 2],
    ]);
    expect(related(temp.root, "calc/calc.go", "untested")).toEqual([
      ["calc/calc_test.go", "name", 0],
    ]);
    // Nothing imports util: its own tests alone.
    expect(related(temp.root, "util/util.go")).toEqual([["util/util_test.go", "name", 0]]);
  });

  it("a package's data file: its tests; an embedded one's also through the importers", async () => {
    temp = makeProject({
      ...module,
      "util/testdata/twice.golden": "4\n",
      "internal/mathx/mathx.go":
        'package mathx\n\nimport "embed"\n\n//go:embed tests/*\nvar cases embed.FS\n\nfunc Add(a, b int) int { return a + b }\n',
      "internal/mathx/tests/valid/add.json": "{}\n",
    });
    // Read by util's own tests (`os.ReadFile("testdata/twice.golden")`): those, no importer's.
    expect(related(temp.root, "util/testdata/twice.golden")).toEqual([
      ["util/util_test.go", "family", 0],
    ]);
    // Embedded by mathx, which has no tests: the tests of the packages importing it read it.
    expect(related(temp.root, "internal/mathx/tests/valid/add.json")).toEqual(
      related(temp.root, "internal/mathx/mathx.go"),
    );
    // And the end of a turn runs them: the data file is no source, yet it has Go's runner.
    const chosen = await chooseTests(openProject(temp.root), ["util/testdata/twice.golden"], {
      write: false,
    });
    expect(chosen.plan.runs.map((run) => [run.runner.id, run.test_files])).toEqual([
      ["go", ["util/util_test.go"]],
    ]);
  });

  it("BurntSushi/toml (the corpus snapshot): an edit to an embedded golden file", () => {
    temp = makeProject({});
    cpSync(join(FIXTURES_DIR, "projects/burntsushi-toml"), temp.root, { recursive: true });
    // internal/toml-test embeds its tests/ and has no test: the root tests importing it run.
    expect(related(temp.root, "internal/toml-test/tests/valid/bool/bool.json")).toEqual([
      ["bench_test.go", "imports", 1],
      ["error_test.go", "imports", 1],
      ["toml_test.go", "imports", 1],
    ]);
  });

  it("an edit's note names an importer's test for a package with none", () => {
    temp = makeProject(module);
    const project = openProject(temp.root);
    const insight = withCovering(
      project,
      {
        path: "internal/mathx/mathx.go",
        verdict: { queue: true, reason: "go source" },
        target: { kind: "file", path: "internal/mathx/mathx_test.go" },
      } as Parameters<typeof withCovering>[1],
      undefined,
    );
    expect(insight.covering?.tests.map((test) => test.path)).toContain("calc/calc_test.go");
  });

  it("a program no test reaches: the end of a turn still builds its package", async () => {
    // xz's cmd/gxz: `go test ./...` compiles it, so an edit that breaks its build fails there.
    temp = makeProject({
      ...module,
      "cmd/gen/main.go": 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(1) }\n',
    });
    const chosen = await chooseTests(openProject(temp.root), ["cmd/gen/main.go"], {
      write: false,
    });
    expect(chosen.plan.runs.map((run) => [run.runner.id, run.test_files])).toEqual([
      ["go", ["cmd/gen/main.go"]],
    ]);
    // The edit's note still asks for a first test: nothing covers the program.
    const insight = withCovering(
      openProject(temp.root),
      {
        path: "cmd/gen/main.go",
        verdict: { queue: true, reason: "go source" },
        target: { kind: "file", path: "cmd/gen/main_test.go" },
      } as Parameters<typeof withCovering>[1],
      undefined,
    );
    expect(insight.covering?.tests).toEqual([]);
  });

  it("reads the module's files once for every file of a turn", () => {
    temp = makeProject(module);
    const project = openProject(temp.root);
    let reads = 0;
    const view = {
      ...project.view,
      readText: (rel: string) => {
        if (rel.endsWith(".go")) reads += 1;
        return project.view.readText(rel);
      },
    };
    const counted = { ...project, view };
    packageTests(counted, "internal/mathx/mathx.go", "go");
    const once = reads;
    packageTests(counted, "util/util.go", "go");
    packageTests(counted, "calc/calc.go", "go");
    // Only each file's own text again (its declarations, its package's tests): no module walk.
    expect(reads - once).toBeLessThan(6);
    expect(once).toBeGreaterThanOrEqual(9);
  });

  it("reads import lines the ways Go writes them", () => {
    expect(
      goImports(
        'package a\n\nimport "fmt"\nimport m "example.com/m/x"\nimport (\n\t_ "embed"\n\t. "example.com/m/y" // dot\n\t// "example.com/m/commented"\n\tz `example.com/m/z`\n)\n/* import "example.com/m/no" */\n',
      ),
    ).toEqual(["embed", "example.com/m/y", "example.com/m/z", "fmt", "example.com/m/x"]);
    expect(goModulePath("// c\nmodule github.com/a/b/v2\n\ngo 1.21\n")).toBe("github.com/a/b/v2");
    expect(goModulePath('module "example.com/q"\n')).toBe("example.com/q");
  });
});
