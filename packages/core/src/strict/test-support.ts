import { isTestFile } from "../filter/filter.ts";
import { detectLanguage } from "../filter/languages.ts";
import type { ProjectView } from "../project/project-view.ts";
import { classifyTddFile, type TddFilePatterns } from "../tdd/file-classes.ts";

/**
 * What a test's verdict depends on besides its own file, all of it editable without a claim: the
 * `conftest.py` chain, the runner's configuration in every folder from the test's up to the
 * project root, and the helpers and fixtures beside the test (files in the test folders that are
 * not tests themselves, and `fixtures/`, `helpers/`, `support/`… folders there). strict hashes
 * them with the test file: a change to any of them voids the test's red, as a change to the test
 * does. Other tests are not support: writing the next failing test leaves a claim standing.
 */

/** Runner configuration files, looked for in every folder from the test's up to the root. */
export const RUNNER_CONFIG_FILES = [
  "conftest.py",
  // pytest 9 reads pytest.toml and .pytest.toml before pytest.ini: a new one replaces its options.
  "pytest.toml",
  ".pytest.toml",
  "pytest.ini",
  ".pytest.ini",
  "pyproject.toml",
  "setup.cfg",
  "tox.ini",
  "package.json",
  "tsconfig.json",
  "vitest.config.ts",
  "vitest.config.mts",
  "vitest.config.js",
  "vitest.config.mjs",
  "vitest.config.cjs",
  "vitest.config.cts",
  "vitest.workspace.ts",
  "vitest.workspace.js",
  "vitest.workspace.json",
  "vite.config.ts",
  "vite.config.mts",
  "vite.config.js",
  "vite.config.mjs",
  "jest.config.ts",
  "jest.config.js",
  "jest.config.mjs",
  "jest.config.cjs",
  "jest.config.json",
  "jest.config.mts",
  "jest.config.cts",
  "jest.setup.js",
  "jest.setup.ts",
  "vitest.setup.ts",
  "vitest.setup.js",
  ".mocharc.json",
  ".mocharc.js",
  ".mocharc.cjs",
  ".mocharc.yml",
  ".mocharc.yaml",
  "babel.config.js",
  "babel.config.cjs",
  "babel.config.mjs",
  "babel.config.json",
  ".babelrc",
  ".babelrc.js",
  ".swcrc",
  "bunfig.toml",
  "deno.json",
  "deno.jsonc",
  "go.mod",
  "Cargo.toml",
  ".rspec",
  "phpunit.xml",
  "phpunit.xml.dist",
];

/** Folders of shared test code, taken whole when they sit in a test folder. */
const SUPPORT_DIRS = new Set([
  "fixtures",
  "__fixtures__",
  "__mocks__",
  "helpers",
  "support",
  "utils",
  "testutils",
  "testing",
  "testdata",
  "data",
]);

/** At most this many support files: a test folder is not a project. */
export const SUPPORT_CAP = 300;

function ancestors(file: string): string[] {
  const parts = file.split("/").slice(0, -1);
  const dirs: string[] = [];
  for (let depth = parts.length; depth >= 0; depth -= 1) dirs.push(parts.slice(0, depth).join("/"));
  return dirs;
}

const join = (dir: string, name: string) => (dir === "" ? name : `${dir}/${name}`);

/** The support files of a test file, project-relative and sorted (the test file not included). */
export function testSupportFiles(
  view: ProjectView,
  testFile: string,
  patterns: TddFilePatterns = {},
): string[] {
  const found = new Set<string>();
  const inTestArea = (path: string) => classifyTddFile(path, patterns) === "test";
  // A folder is in a test area when code in it would be test code.
  const dirInTestArea = (dir: string) =>
    dir !== "" && (inTestArea(`${dir}/probe.py`) || inTestArea(`${dir}/probe.ts`));
  const walk = (dir: string) => {
    for (const name of view.list(dir)) {
      if (found.size >= SUPPORT_CAP) return;
      const path = join(dir, name);
      if (view.isDirectory(path)) walk(path);
      else if (detectLanguage(path) !== undefined || name.endsWith(".json")) found.add(path);
    }
  };
  for (const dir of ancestors(testFile)) {
    for (const name of RUNNER_CONFIG_FILES) {
      const path = join(dir, name);
      if (view.exists(path) && !view.isDirectory(path)) found.add(path);
    }
    for (const name of view.list(dir)) {
      if (found.size >= SUPPORT_CAP) break;
      const path = join(dir, name);
      if (path === testFile) continue;
      if (view.isDirectory(path)) {
        if (SUPPORT_DIRS.has(name) && (dirInTestArea(path) || dirInTestArea(dir))) walk(path);
        continue;
      }
      if (!inTestArea(path)) continue;
      // A helper beside the test: source in a test folder whose own name is not a test's.
      if (detectLanguage(path) !== undefined && !isTestFile(name)) found.add(path);
    }
  }
  found.delete(testFile);
  return [...found].sort().slice(0, SUPPORT_CAP);
}
