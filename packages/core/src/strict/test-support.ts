import { isTestFile } from "../filter/filter.ts";
import type { ProjectView } from "../project/project-view.ts";
import { classifyTddFile, normaliseTddPath, type TddFilePatterns } from "../tdd/file-classes.ts";

/**
 * What a test's verdict depends on besides its own file, all of it editable without a claim
 * (ADR 0012, "What strict's verdict depends on"). The rule: everything the runner reads for the
 * test that is neither production code nor another test —
 * - the runner's configuration in every folder from the test's up to the root (the `conftest.py`
 *   chain; for a JavaScript test every variant of its runner's config names: a `.mocharc.jsonc`
 *   is read before `.mocharc.json`, a `vite.config.cjs` when there is no `vitest.config.*`), and
 *   above the root too (runners look upward: `outsideRunnerConfigs` in `node/`);
 * - the files those configs, `package.json`'s test scripts and runner keys, and the test's own
 *   text name (`setupFiles`, mocha's `require`, `node --require ./x.js`, a `moduleNameMapper`
 *   target, a snapshot resolver, a fixture path, `toMatchFileSnapshot`'s file), wherever they
 *   are: inside the project or outside it (`../x.js`, an absolute path);
 * - every file of the test areas it sits in, whatever its type (a helper, `expected.txt`,
 *   `cases.yaml`), and of the `fixtures/`, `helpers/`, `support/`… folders there, whole;
 * - its snapshots: `__snapshots__/` beside it, and, when a config names a snapshot resolver
 *   (which computes where they are), every project file named after the test (`calc.test.js.*`).
 * Other tests are not support: writing the next failing test leaves a claim standing.
 */

/**
 * What an agent may not touch while a claim on `testFile` stands (a change voids its red): the
 * support files above, in the words of the test's language, for the gate's denial and the
 * verification's failure.
 */
export function supportDescription(testFile: string): string {
  const shared =
    "the files beside it that are not tests, its fixtures/, helpers/ and support/ folders, the files the config or the test names (inside the project or outside it)";
  if (testFile.endsWith(".py"))
    return `conftest.py and pytest's config (pytest.ini, pytest.toml, pyproject.toml, setup.cfg, tox.ini) in its folder and every folder above it, ${shared}, Python's start-up files (*.pth, sitecustomize.py, usercustomize.py) and the installed pytest and its plugins`;
  if (testFile.endsWith("_test.go"))
    return `go.mod, ${shared}, and the go command's settings (the file \`go env -w\` writes: GOFLAGS, an -overlay)`;
  return `its runner's config (vitest.config.*, vite.config.*, jest.config.*, .mocharc.*, babel config, package.json's test scripts and "jest"/"mocha" keys) in its folder and every folder above it, the setup files, required modules and snapshot resolver it names, ${shared}, its snapshots (__snapshots__/, or any file named after the test), and the runner's installed files in node_modules, with the installed packages the test imports itself`;
}

/** A bare specifier the text imports or requires (`supertest`, `@scope/pkg/sub`, not `./x`). */
const BARE_IMPORT =
  /\b(?:require|import)\s*\(\s*["'`]([^"'`./][^"'`]*)["'`]\s*\)|\bfrom\s*["']([^"'./][^"']*)["']|^\s*import\s*["']([^"'./][^"']*)["']/gm;

/**
 * The installed packages a JavaScript test file imports by name (the thirty-fourth round): its
 * assertion helpers (`supertest`'s `.expect`, `sinon`'s `assert`, `chai-as-promised`) decide
 * whether it passes as the runner's own files do, and a `return` put in supertest's header check
 * verified a claim with the code unchanged. `node:` modules are left out; a name Node has built
 * in is the caller's to leave out.
 */
export function importedPackages(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(BARE_IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? "";
    if (specifier.startsWith("node:") || /\s/.test(specifier)) continue;
    const parts = specifier.split("/");
    const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? "");
    if (name !== "" && name !== "@") names.add(name);
  }
  return [...names].sort();
}

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

/**
 * A file name a runner reads its configuration from (`RUNNER_CONFIG_FILES`, every JavaScript
 * variant, `package.json`): what the chain above the project root is made of, since runners look
 * upward from where they start (mocha's `.mocharc.*`, vitest's and jest's config, pytest's ini).
 */
export const isRunnerConfigName = (name: string): boolean =>
  name === "package.json" || JS_RUNNER_CONFIG.test(name) || RUNNER_CONFIG_FILES.includes(name);

/** What of a `package.json` runs the tests: its test scripts and the runners' own keys. */
const PACKAGE_RUNNER_KEYS = ["jest", "mocha", "ava", "tap", "babel", "c8", "nyc"];

/** A word in a config that may be a file: a path with an extension, no glob or URL. */
const PATH_WORD = /^(?:<rootDir>\/)?[\w@.-][\w@.\-/]*\.[A-Za-z]\w*$/;

/** The same, absolute (a setup file named by its full path). */
const ABSOLUTE_WORD = /^\/[\w@.-][\w@.\-/]*\.[A-Za-z]\w*$/;

/** A config that names a snapshot resolver: where a snapshot is, only running it would tell. */
const SNAPSHOT_RESOLVER = /\b(?:snapshotResolver|resolveSnapshotPath)\b/;

/** How many entries the search for a resolved snapshot looks at, at most. */
const RESOLVED_SNAPSHOT_SEARCH = 20_000;

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

/**
 * The support files of a test file, sorted (the test file not included): project-relative, or,
 * for a file outside the project that a config or the test names, `../…` from the project root
 * or absolute (whether it exists is the hasher's to see: the view reads only the project).
 */
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
      else found.add(path);
    }
  };
  const configs: string[] = [];
  const testDir = ancestors(testFile)[0] ?? "";
  /** One entry of a folder from the test's up to the root. */
  const visit = (dir: string, name: string, testArea: boolean) => {
    const path = join(dir, name);
    if (path === testFile) return;
    if (view.isDirectory(path)) {
      // The test's snapshots: what `toMatchSnapshot()` compares with is the test's own.
      if (name === SNAPSHOT_DIR && dir === testDir) walk(path);
      else if (SUPPORT_DIRS.has(name) && (dirInTestArea(path) || testArea)) walk(path);
      return;
    }
    if (JS_RUNNER_CONFIG.test(name) || name === "package.json") {
      found.add(path);
      configs.push(path);
    }
    // A file of a test area that is not a test: a helper, or data the test reads, of any type.
    if ((testArea || inTestArea(path)) && !isTestFile(name) && !isProduction(path, patterns))
      found.add(path);
  };
  for (const dir of ancestors(testFile)) {
    for (const name of RUNNER_CONFIG_FILES) {
      const path = join(dir, name);
      if (view.exists(path) && !view.isDirectory(path)) found.add(path);
    }
    const testArea = dirInTestArea(dir);
    for (const name of view.list(dir)) {
      if (found.size >= SUPPORT_CAP) break;
      visit(dir, name, testArea);
    }
  }
  // What the configs and the test itself name (a test's own text names its data files).
  for (const path of namedSupport(view, configs, testFile, patterns)) found.add(path);
  found.delete(testFile);
  return [...found].sort().slice(0, SUPPORT_CAP);
}

/**
 * What the configs and the test name that is neither production code nor (named by the test)
 * another test, and, when a config names a snapshot resolver, the files named after the test.
 */
function namedSupport(
  view: ProjectView,
  configs: readonly string[],
  testFile: string,
  patterns: TddFilePatterns,
): string[] {
  const named = new Set<string>();
  let resolver = false;
  for (const file of [...configs, testFile]) {
    if (named.size >= SUPPORT_CAP) break;
    const text = file.endsWith("package.json")
      ? packageRunnerText(view.readText(file))
      : view.readText(file);
    if (text === undefined) continue;
    if (file !== testFile && SNAPSHOT_RESOLVER.test(text)) resolver = true;
    for (const path of namedFiles(view, file, text))
      if (!isProduction(path, patterns) && !(file === testFile && isTestFile(path)))
        named.add(path);
  }
  if (resolver) for (const path of namedAfter(view, testFile)) named.add(path);
  return [...named];
}

/** Production code (an outside path is not the project's code). */
const isProduction = (path: string, patterns: TddFilePatterns) =>
  !path.startsWith("../") && !path.startsWith("/") && classifyTddFile(path, patterns) === "prod";

/**
 * The files a runner config (or a test) names — a setup file, a `--require`d module, a
 * transform, the target of a module mapping, a fixture — resolved from its folder or
 * `<rootDir>`, and from the project's root, where the runner starts: every word of its text that is a path to a file, existing when in the project,
 * any when outside it (`../…` or absolute: the view cannot see there). A config that computes a
 * path is not read. Of a `package.json`, only the test scripts and the runners' keys: its `main`
 * is the code itself.
 */
function namedFiles(view: ProjectView, file: string, text: string): string[] {
  const dir = file.split("/").slice(0, -1).join("/");
  const named = new Set<string>();
  for (const word of text.split(/[\s"'`,;:=()[\]{}]+/)) {
    if (named.size >= SUPPORT_CAP) break;
    if (ABSOLUTE_WORD.test(word)) {
      named.add(word);
      continue;
    }
    if (!PATH_WORD.test(word)) continue;
    const relative = join(dir, word.replace(/^<rootDir>\//, ""));
    const path = normaliseTddPath(relative);
    if (path === undefined) {
      const outside = outsidePath(relative);
      if (outside !== undefined) named.add(outside);
    } else if (path !== file && view.exists(path) && !view.isDirectory(path)) named.add(path);
    // A test runs from the project's root, where `open("expected.txt")` is read from.
    const fromRoot = dir === "" || word.startsWith("../") ? undefined : normaliseTddPath(word);
    if (fromRoot !== undefined && fromRoot !== file && isFileIn(view, fromRoot))
      named.add(fromRoot);
  }
  return [...named];
}

const isFileIn = (view: ProjectView, path: string) => view.exists(path) && !view.isDirectory(path);

/** A relative path that leaves the project, normalised (`../x.js`), or undefined if it stays. */
function outsidePath(relative: string): string | undefined {
  const parts: string[] = [];
  let up = 0;
  for (const part of relative.split("/")) {
    if (part === "" || part === ".") continue;
    if (part !== "..") parts.push(part);
    else if (parts.length > 0) parts.pop();
    else up += 1;
  }
  return up === 0 || parts.length === 0
    ? undefined
    : [...Array<string>(up).fill(".."), ...parts].join("/");
}

/**
 * Project files named after the test (`calc.test.js.snap`, `calc.test.js.txt`), wherever they
 * are: where a snapshot resolver puts the test's snapshots. Installed packages and dot-folders
 * are not searched; the search stops after `RESOLVED_SNAPSHOT_SEARCH` entries.
 */
function namedAfter(view: ProjectView, testFile: string): string[] {
  const prefix = `${testFile.split("/").pop() ?? testFile}.`;
  const named: string[] = [];
  let seen = 0;
  const search = (dir: string) => {
    for (const name of view.list(dir)) {
      seen += 1;
      if (seen > RESOLVED_SNAPSHOT_SEARCH || named.length >= SUPPORT_CAP) return;
      if (name === "node_modules" || name.startsWith(".")) continue;
      const path = join(dir, name);
      if (view.isDirectory(path)) search(path);
      else if (name.startsWith(prefix)) named.push(path);
    }
  };
  search("");
  return named;
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
