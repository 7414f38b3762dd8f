import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { commitAll, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { openProject } from "../../project/node/project.ts";
import { importedLine, productionImported, pythonpathEntries } from "./test-imports.ts";

/**
 * Which changed test files production code imports (ADR 0012), on real committed projects: the
 * Python and JavaScript spellings of an import, through another test file, and the files that
 * stay test code (imported by tests only, or by nothing).
 */

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

async function importedIn(
  files: Record<string, string>,
  changed: readonly string[],
  config: Record<string, unknown> = { mode: "strict" },
): Promise<Record<string, string[]>> {
  project = makeProject({ ...files, ".tailtest/config.json": JSON.stringify(config) });
  await commitAll(project.root);
  const found = await productionImported(openProject(project.root), changed);
  return Object.fromEntries(found);
}

const PY_TEST = "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n";
const HELPER = "def mul(a, b):\n    return a * b\n";

describe("productionImported", () => {
  it.each([
    ["from tests.helpers import", "from tests.helpers import mul\n"],
    ["import tests.helpers", "import tests.helpers\n\nmul = tests.helpers.mul\n"],
    ["from tests import helpers", "from tests import helpers\n\nmul = helpers.mul\n"],
  ])("finds a Python production module that imports a test helper (%s)", async (_, calc) => {
    const found = await importedIn(
      {
        "calc.py": calc,
        "tests/__init__.py": "",
        "tests/helpers.py": HELPER,
        "tests/test_calc.py": PY_TEST,
      },
      ["tests/helpers.py", "tests/test_calc.py"],
    );
    expect(found).toEqual({ "tests/helpers.py": ["calc.py"] });
  });

  it("finds production code under a folder named like a test area", async () => {
    const found = await importedIn(
      {
        "src/app/calc.py": "from app.testing.real_code import mul\n",
        "src/app/__init__.py": "",
        "src/app/testing/__init__.py": "",
        "src/app/testing/real_code.py": HELPER,
        "tests/test_calc.py": PY_TEST,
      },
      ["src/app/testing/real_code.py"],
    );
    expect(found).toEqual({ "src/app/testing/real_code.py": ["src/app/calc.py"] });
  });

  it("follows a test package that re-exports the helper", async () => {
    const found = await importedIn(
      {
        "calc.py": "from tests import mul\n",
        "tests/__init__.py": "from tests.helpers import mul\n",
        "tests/helpers.py": HELPER,
      },
      ["tests/helpers.py"],
    );
    expect(found).toEqual({ "tests/helpers.py": ["calc.py"] });
  });

  it.each([
    ["an ES import", 'import { mul } from "../test/helpers.js";\nexport { mul };\n'],
    ["a require", 'const { mul } = require("../test/helpers.js");\nmodule.exports = { mul };\n'],
  ])("finds a JavaScript production module that imports a test helper (%s)", async (_, calc) => {
    const found = await importedIn(
      {
        "package.json": '{"name":"calc","type":"module"}\n',
        "src/calc.js": calc,
        "test/helpers.js": "export const mul = (a, b) => a * b;\n",
        "test/calc.test.js": 'import { mul } from "../src/calc.js";\n',
      },
      ["test/helpers.js", "test/calc.test.js"],
    );
    expect(found).toEqual({ "test/helpers.js": ["src/calc.js"] });
  });

  it.each([
    ["generated-looking", "mul_pb2.py", "from mul_pb2 import mul\n"],
    ["a script", "scripts/helper.py", "from scripts.helper import mul\n"],
    ["end-to-end", "src/playwright/driver.py", "from src.playwright.driver import mul\n"],
  ])("finds %s code that production imports (%s)", async (_, helper, calc) => {
    const found = await importedIn({ "calc.py": calc, [helper]: HELPER, "src/__init__.py": "" }, [
      helper,
    ]);
    expect(found).toEqual({ [helper]: ["calc.py"] });
  });

  it("leaves test code that only tests import, and files of no class", async () => {
    const found = await importedIn(
      {
        "calc.py": "def mul(a, b):\n    return a * b\n",
        "tests/__init__.py": "",
        "tests/helpers.py": HELPER,
        "tests/test_calc.py": `from tests.helpers import mul\n${PY_TEST}`,
        "README.md": "calc\n",
      },
      ["tests/helpers.py", "tests/test_calc.py", "README.md", "calc.py"],
    );
    expect(found).toEqual({});
  });

  it.each([
    ["a module of the same name in production", { "helpers.py": HELPER }, "import helpers\n"],
    [
      "a relative import",
      { "app/__init__.py": "", "app/helpers.py": HELPER },
      "from .helpers import mul\n",
    ],
  ])("does not take %s for the test helper", async (_, beside, calc) => {
    const at = "helpers.py" in beside ? "calc.py" : "app/calc.py";
    const found = await importedIn(
      {
        ...beside,
        [at]: calc,
        "tests/helpers.py": HELPER,
        "tests/test_calc.py": `import helpers\n${PY_TEST}`,
      },
      ["tests/helpers.py", "tests/test_calc.py"],
    );
    expect(found).toEqual({});
  });

  it("judges the classes the config gives", async () => {
    const files = {
      "calc.py": "from support.helpers import mul\n",
      "support/__init__.py": "",
      "support/helpers.py": HELPER,
    };
    expect(await importedIn(files, ["support/helpers.py"])).toEqual({});
    project?.cleanup();
    const config = { mode: "strict", tdd: { file_classes: { test: ["support/"] } } };
    expect(await importedIn(files, ["support/helpers.py"], config)).toEqual({
      "support/helpers.py": ["calc.py"],
    });
  });
});

describe("productionImported at one Stop", () => {
  it("answers a file asked again from what the Stop already found", async () => {
    const files = { "calc.py": "from tests.helpers import mul\n", "tests/helpers.py": HELPER };
    project = makeProject({ ...files, ".tailtest/config.json": '{"mode":"strict"}' });
    await commitAll(project.root);
    const answered = new Map<string, string[]>();
    const first = await productionImported(
      openProject(project.root),
      ["tests/helpers.py"],
      answered,
    );
    writeFileSync(join(project.root, "calc.py"), "def mul(a, b):\n    return a * b\n");
    const again = await productionImported(
      openProject(project.root),
      ["tests/helpers.py"],
      answered,
    );
    const afresh = await productionImported(openProject(project.root), ["tests/helpers.py"]);
    expect(Object.fromEntries(first)).toEqual({ "tests/helpers.py": ["calc.py"] });
    expect(Object.fromEntries(again)).toEqual({ "tests/helpers.py": ["calc.py"] });
    expect(Object.fromEntries(afresh)).toEqual({});
  });
});

describe("bare imports of folders pytest puts on sys.path", () => {
  const CALC = "from helpers import mul\n";
  it.each([
    ["a test folder that is not a package", "tests/helpers.py", {}],
    [
      "a conftest's folder",
      "tests/support/helpers.py",
      { "tests/__init__.py": "", "tests/support/conftest.py": "" },
    ],
    [
      "pytest.ini's pythonpath",
      "tests/helpers.py",
      { "pytest.ini": "[pytest]\npythonpath = .\n  tests\n", "tests/__init__.py": "" },
    ],
    [
      "pyproject's pythonpath",
      "tests/helpers.py",
      {
        "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = [\n  "tests",\n]\n',
        "tests/__init__.py": "",
      },
    ],
  ] as const)("%s", async (_name, helper, extra) => {
    const found = await importedIn(
      { "calc.py": CALC, "tests/test_calc.py": PY_TEST, [helper]: HELPER, ...extra },
      [helper],
    );
    expect(found).toEqual({ [helper]: ["calc.py"] });
  });

  it("leaves a package's helper that nothing puts on sys.path", async () => {
    const found = await importedIn(
      {
        "calc.py": CALC,
        "tests/__init__.py": "",
        "tests/test_calc.py": PY_TEST,
        "tests/helpers.py": HELPER,
      },
      ["tests/helpers.py"],
    );
    expect(found).toEqual({});
  });

  it("reads pythonpath from ini and TOML", () => {
    expect(pythonpathEntries("[pytest]\npythonpath = src  tests\n    lib\naddopts = -q\n")).toEqual(
      ["src", "tests", "lib"],
    );
    expect(pythonpathEntries("[tool.pytest]\npythonpath = [\"a\", 'b']\n")).toEqual(["a", "b"]);
    expect(pythonpathEntries('[pytest]\npythonpath = "a b"\n')).toEqual(["a", "b"]);
    expect(pythonpathEntries("[pytest]\ntestpaths = tests\n")).toEqual([]);
  });
});

describe("importedLine", () => {
  it("names the importers, three at most", () => {
    expect(importedLine("tests/helpers.py", ["a.py", "b.py", "c.py", "d.py", "e.py"])).toBe(
      "tests/helpers.py (imported by production code: a.py, b.py, c.py and 2 more)",
    );
  });
});
