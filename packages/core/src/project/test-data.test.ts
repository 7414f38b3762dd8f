import { describe, expect, it } from "vitest";
import { planRun } from "../engine/plan.ts";
import { createMemoryView } from "./project-view.ts";
import { goDataPackage, testDataLanguage } from "./test-data.ts";

const project = createMemoryView({
  "package.json": JSON.stringify({ devDependencies: { jest: "^29" }, scripts: { test: "jest" } }),
  "src/config-loader.ts": "export const x = 1;\n",
  "src/__tests__/config-loader.test.ts": "import { x } from '../config-loader';\n",
  "src/__tests__/tsconfig-named.json": "{}\n",
  "src/__tests__/data/deep/er/nested/case.json": "{}\n",
  "tests/data/expected.txt": "42\n",
  "tests/test_calc.py": "def test_x():\n    pass\n",
  "fixtures/only-data/a.yaml": "a: 1\n",
  "config/app.json": "{}\n",
  "src/settings.json": "{}\n",
});

describe("testDataLanguage", () => {
  it("takes a test folder's data file's language from the tests beside or above it", () => {
    expect(testDataLanguage(project, "src/__tests__/tsconfig-named.json")).toBe("typescript");
    expect(testDataLanguage(project, "tests/data/expected.txt")).toBe("python");
  });

  it("answers nothing outside a test folder, for a source file, or with no source near", () => {
    expect(testDataLanguage(project, "config/app.json")).toBeUndefined();
    expect(testDataLanguage(project, "src/settings.json")).toBeUndefined();
    expect(testDataLanguage(project, "src/config-loader.ts")).toBeUndefined();
    expect(testDataLanguage(project, "fixtures/only-data/a.yaml")).toBeUndefined();
    // Four folders up from the file's own, not past the test folder: none holds a source.
    expect(
      testDataLanguage(project, "src/__tests__/data/deep/er/nested/case.json"),
    ).toBeUndefined();
  });

  it("lets a run plan the related tests of a data file, and skip one none loads", () => {
    const related = new Map([
      ["src/__tests__/tsconfig-named.json", ["src/__tests__/config-loader.test.ts"]],
      ["tests/data/expected.txt", []],
    ]);
    const plan = planRun(
      project,
      [
        { kind: "file", path: "src/__tests__/tsconfig-named.json" },
        { kind: "file", path: "tests/data/expected.txt" },
      ],
      { related },
    );
    expect(plan.runs.map((run) => [run.runner.id, run.test_files])).toEqual([
      ["jest", ["src/__tests__/config-loader.test.ts"]],
    ]);
    expect(plan.skipped.map((one) => one.path)).toEqual(["tests/data/expected.txt"]);
    expect(plan.missing).toEqual([]);
  });
});

describe("goDataPackage", () => {
  const go = createMemoryView({
    "go.mod": "module example.com/m\n\ngo 1.19\n",
    "golden/golden.go": "package golden\n",
    "golden/golden_test.go": "package golden\n",
    "golden/testdata/upper.golden": "ABC\n",
    "internal/cases/cases.go": "package cases\n\n//go:embed tests/*\nvar files embed.FS\n",
    "internal/cases/tests/valid/deep/er/one.json": "{}\n",
    "notes/testdata/a.txt": "a\n",
  });

  it("names the Go package holding a data folder, and makes its data Go's", () => {
    expect(goDataPackage(go, "golden/testdata/upper.golden")).toBe("golden");
    expect(goDataPackage(go, "internal/cases/tests/valid/deep/er/one.json")).toBe("internal/cases");
    expect(testDataLanguage(go, "golden/testdata/upper.golden")).toBe("go");
    expect(testDataLanguage(go, "internal/cases/tests/valid/deep/er/one.json")).toBe("go");
  });

  it("answers nothing for a Go file, a file outside a data folder, or a folder of no package", () => {
    expect(goDataPackage(go, "golden/golden.go")).toBeUndefined();
    expect(goDataPackage(go, "go.mod")).toBeUndefined();
    expect(goDataPackage(go, "notes/testdata/a.txt")).toBeUndefined();
    expect(testDataLanguage(go, "notes/testdata/a.txt")).toBeUndefined();
  });
});
