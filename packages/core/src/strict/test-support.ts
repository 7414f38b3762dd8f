import { isTestFile } from "../filter/filter.ts";
import { detectLanguage } from "../filter/languages.ts";
import type { ProjectView } from "../project/project-view.ts";
import { classifyTddFile, normaliseTddPath, type TddFilePatterns } from "../tdd/file-classes.ts";

/**
 * What a test's verdict depends on besides its own file, all of it editable without a claim: the
 * `conftest.py` chain, the runner's configuration in every folder from the test's up to the
 * project root, and the helpers and fixtures beside the test (files in the test folders that are
 * not tests themselves, and `fixtures/`, `helpers/`, `support/`… folders there). strict hashes
 * them with the test file: a change to any of them voids the test's red, as a change to the test
 * does. For a JavaScript test also every variant of its runner's config file names (a
 * `.mocharc.jsonc` is read before `.mocharc.json`, a `vite.config.cjs` when there is no
 * `vitest.config.*`), the files those configs and `package.json` name (`setupFiles`, mocha's
 * `require`, `node --require ./x.js`, a `moduleNameMapper` target) when they are not production
 * code, and the test's snapshots (`__snapshots__/` beside it). Other tests are not support:
 * writing the next failing test leaves a claim standing.
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

/**
 * Every name a JavaScript runner (or the transform it runs the test through) reads its config
 * from, whatever the extension: the runner picks the first it finds in its own order, so a new
 * variant can replace the one that was there.
 */
const JS_RUNNER_CONFIG =
  /^(?:(?:vite|vitest)\.(?:config|workspace|projects|setup)\.[cm]?[jt]sx?|vitest\.workspace\.jsonc?|jest\.(?:config|setup)\.(?:[cm]?[jt]sx?|json)|\.mocharc\.(?:jsonc?|ya?ml|[cm]?js)|(?:babel\.config|\.babelrc)(?:\.(?:[cm]?[jt]s|json))?|ava\.config\.[cm]?js|\.taprc|\.swcrc)$/;

/** What of a `package.json` runs the tests: its test scripts and the runners' own keys. */
const PACKAGE_RUNNER_KEYS = ["jest", "mocha", "ava", "tap", "babel", "c8", "nyc"];

/** A word in a config that may be a file: a path with an extension, no glob or URL. */
const PATH_WORD = /^(?:<rootDir>\/)?[\w@.-][\w@.\-/]*\.[A-Za-z]\w*$/;

/** Snapshot folders beside a test: taken whole (`.snap` files, file snapshots). */
const SNAPSHOT_DIR = "__snapshots__";

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
  const walk = (dir: string, every = false) => {
    for (const name of view.list(dir)) {
      if (found.size >= SUPPORT_CAP) return;
      const path = join(dir, name);
      if (view.isDirectory(path)) walk(path, every);
      else if (every || detectLanguage(path) !== undefined || name.endsWith(".json"))
        found.add(path);
    }
  };
  const configs: string[] = [];
  const testDir = ancestors(testFile)[0] ?? "";
  /** One entry of a folder from the test's up to the root. */
  const visit = (dir: string, name: string) => {
    const path = join(dir, name);
    if (path === testFile) return;
    if (view.isDirectory(path)) {
      // The test's snapshots: what `toMatchSnapshot()` compares with is the test's own.
      if (name === SNAPSHOT_DIR && dir === testDir) walk(path, true);
      else if (SUPPORT_DIRS.has(name) && (dirInTestArea(path) || dirInTestArea(dir))) walk(path);
      return;
    }
    if (JS_RUNNER_CONFIG.test(name) || name === "package.json") {
      found.add(path);
      configs.push(path);
    }
    // A helper beside the test: source in a test folder whose own name is not a test's.
    if (inTestArea(path) && detectLanguage(path) !== undefined && !isTestFile(name))
      found.add(path);
  };
  for (const dir of ancestors(testFile)) {
    for (const name of RUNNER_CONFIG_FILES) {
      const path = join(dir, name);
      if (view.exists(path) && !view.isDirectory(path)) found.add(path);
    }
    for (const name of view.list(dir)) {
      if (found.size >= SUPPORT_CAP) break;
      visit(dir, name);
    }
  }
  for (const config of configs) {
    if (found.size >= SUPPORT_CAP) break;
    for (const path of namedFiles(view, config))
      if (classifyTddFile(path, patterns) !== "prod") found.add(path);
  }
  found.delete(testFile);
  return [...found].sort().slice(0, SUPPORT_CAP);
}

/**
 * The project files a runner config names (a setup file, a `--require`d module, a transform, the
 * target of a module mapping), resolved from the config's folder or `<rootDir>`: every word of
 * its text that is a path to a file that exists. A config that computes a path is not read. Of
 * a `package.json`, only the test scripts and the runners' keys: its `main` is the code itself.
 */
function namedFiles(view: ProjectView, config: string): string[] {
  const text = config.endsWith("package.json")
    ? packageRunnerText(view.readText(config))
    : view.readText(config);
  if (text === undefined) return [];
  const dir = config.split("/").slice(0, -1).join("/");
  const named = new Set<string>();
  for (const word of text.split(/[\s"'`,;:=()[\]{}]+/)) {
    if (named.size >= SUPPORT_CAP) break;
    if (!PATH_WORD.test(word)) continue;
    const path = normaliseTddPath(join(dir, word.replace(/^<rootDir>\//, "")));
    if (path !== undefined && path !== config && view.exists(path) && !view.isDirectory(path))
      named.add(path);
  }
  return [...named];
}

function packageRunnerText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const pkg = JSON.parse(text) as Record<string, unknown>;
    const scripts = pkg["scripts"];
    const tests =
      typeof scripts === "object" && scripts !== null
        ? Object.entries(scripts).filter(([name]) => /^(?:pre|post)?test(?::|$)/.test(name))
        : [];
    return JSON.stringify([tests, PACKAGE_RUNNER_KEYS.map((key) => pkg[key])]);
  } catch {
    return undefined;
  }
}
