import { describe, expect, it } from "vitest";
import { createMemoryView } from "../project/project-view.ts";
import { testSupportFiles } from "./test-support.ts";

describe("testSupportFiles", () => {
  it("takes the conftest chain, runner config, helpers and fixtures, never other tests or code", () => {
    const view = createMemoryView({
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      "pytest.ini": "[pytest]\n",
      "conftest.py": "",
      "calc.py": "x = 1\n",
      "src/app/core.py": "x = 1\n",
      "tests/conftest.py": "",
      "tests/helpers.py": "def make():\n    pass\n",
      "tests/test_other.py": "def test_x():\n    pass\n",
      "tests/fixtures/users.json": "[]\n",
      "tests/fixtures/factory.py": "x = 1\n",
      "tests/unit/conftest.py": "",
      "tests/unit/test_calc.py": "def test_add():\n    pass\n",
      "tests/unit/test_more.py": "def test_more():\n    pass\n",
      "tests/unit/builders.py": "x = 1\n",
      "tests/e2e/conftest.py": "",
      "README.md": "# x\n",
    });
    expect(testSupportFiles(view, "tests/unit/test_calc.py")).toEqual([
      "conftest.py",
      "pyproject.toml",
      "pytest.ini",
      "tests/conftest.py",
      "tests/fixtures/factory.py",
      "tests/fixtures/users.json",
      "tests/helpers.py",
      "tests/unit/builders.py",
      "tests/unit/conftest.py",
    ]);
  });

  it("a JS test's config and setup files up to the package and the root", () => {
    const view = createMemoryView({
      "package.json": "{}\n",
      "packages/web/package.json": "{}\n",
      "packages/web/vitest.config.ts": "export default {}\n",
      "packages/web/src/__tests__/setup.ts": "",
      "packages/web/src/__tests__/page.test.ts": "",
      "packages/web/src/__tests__/other.test.ts": "",
      "packages/web/src/page.ts": "",
    });
    expect(testSupportFiles(view, "packages/web/src/__tests__/page.test.ts")).toEqual([
      "package.json",
      "packages/web/package.json",
      "packages/web/src/__tests__/setup.ts",
      "packages/web/vitest.config.ts",
    ]);
  });
});
