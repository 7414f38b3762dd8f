import { baseName, extensionOf } from "../filter/languages.ts";
import type { ProjectView } from "../project/project-view.ts";
import type { DetectedRunner } from "../runners/project-runners.ts";
import { JS_EXT } from "../runners/config-text.ts";
import { compiledSuite, compiledTests } from "../runners/compiled.ts";
import type { SuiteMatcher } from "../runners/spec.ts";
import { specOf } from "../runners/table.ts";
import { quickTest } from "../util/literal-guard.ts";

export { iniValue, jsConfigStrings, tomlStrings } from "../runners/config-text.ts";

/**
 * Which files are a project's tests, as its runner sees them: each runner's record
 * (`runners/<id>.ts`, its `suite`) reads the runner's own configuration where it can be read
 * without running anything (pytest's `testpaths` and `python_files`, vitest's `include`,
 * jest's `testMatch`/`testRegex`/`roots`, mocha's `spec`, the globs a `node --test` script
 * names), else the runner's documented defaults.
 */
export interface TestSuiteShape {
  /** Whether a project-relative path is one of this runner's test files. */
  isTest(rel: string): boolean;
  /** Whether a project-relative path is test support: conftest, helpers, fixtures, setup. */
  isSupport(rel: string): boolean;
  /** Whether the runner loads a project-relative file before every one of its tests (its config's helpers). */
  isSetup(rel: string): boolean;
  /** Where the shape came from, for `explain`: "pyproject.toml testpaths", "vitest defaults". */
  evidence: string;
}

/**
 * Folders a runner never collects from. This and SUPPORT_NAMES are tested through `quickTest`
 * (~1 M instructions each for V8 to compile, and most paths hold none of their names).
 */
export const NEVER =
  /(^|\/)(node_modules|\.git|\.venv|venv|\.tox|\.nox|dist|build|coverage|__pycache__|\.tailtest)(\/|$)/;

/**
 * What a runner said its test files are, when its config could not be read as text
 * (`node/runner-lists.ts` asks it once per config and caches the answer).
 */
/** The key a runner's asked test list is kept and looked up by: runner and package. */
export function askedKey(runner: { id: string; package_dir: string }): string {
  return `${runner.id}:${runner.package_dir}`;
}

export interface AskedTests {
  /** Package-relative test files as the runner listed them; absent: it gave no answer. */
  files?: ReadonlySet<string>;
  /** For `explain`: "vitest list --filesOnly", or why there is no answer. */
  note: string;
  /** Asked now, not an earlier answer reused: a list that worked is said once, not every turn. */
  asked?: boolean;
  /** A package-relative file created after the list: judged by the config as read. */
  isNewer?(path: string): boolean;
}

export function suiteShape(
  view: ProjectView,
  runner: DetectedRunner,
  asked?: AskedTests,
): TestSuiteShape {
  const pkg = runner.package_dir;
  const local = (rel: string): string | undefined => {
    if (pkg === "") return rel;
    return rel.startsWith(`${pkg}/`) ? rel.slice(pkg.length + 1) : undefined;
  };
  // A package whose tests run from tsc's output: its tests are the sources of that output.
  const read = specOf(runner.id).suite(view, runner);
  const layout = compiledTests(view, runner);
  const inner = withAnswer(layout === undefined ? read : compiledSuite(read, layout), asked);
  return {
    evidence: inner.evidence,
    isTest: (rel) => {
      const path = local(rel);
      return path !== undefined && !quickTest(NEVER, path) && inner.isTest(path);
    },
    isSupport: (rel) => {
      const path = local(rel);
      return (
        path !== undefined && !quickTest(NEVER, path) && !inner.isTest(path) && isSupportFile(path)
      );
    },
    isSetup: (rel) => {
      const path = local(rel);
      return path !== undefined && inner.isSetup?.(path) === true && !inner.isTest(path);
    },
  };
}

/** The runner's answer replaces what its config seemed to say; without one, a note says so. */
function withAnswer(read: SuiteMatcher, asked: AskedTests | undefined): SuiteMatcher {
  if (asked === undefined) return read;
  const { files } = asked;
  if (files === undefined) return { ...read, evidence: `${read.evidence}; ${asked.note}` };
  return {
    evidence: asked.note,
    isSetup: (path) => read.isSetup?.(path) === true,
    isTest: (path) =>
      files.has(path) ||
      (asked.isNewer?.(path) === true && read.isTest(path)) ||
      read.otherConfigs?.(path) === true,
  };
}

// ---------------------------------------------------------------- test support

export const SUPPORT_NAMES =
  /^(conftest\.py|__init__\.py|setup[-_]?tests?\.[cm]?[jt]sx?|(vitest|jest)\.setup\.[cm]?[jt]s|test[-_]?(utils|helpers?|setup)\.[cm]?[jt]sx?|helpers?\.[cm]?[jt]sx?)$/i;
const SUPPORT_DIRS = new Set([
  "fixtures",
  "__fixtures__",
  "__mocks__",
  "helpers",
  "support",
  "test-utils",
  "testutils",
  "testing",
]);
const TEST_DIRS = new Set(["test", "tests", "__tests__", "spec", "specs"]);

/** Test support: what tests load but that holds no tests itself. */
export function isSupportFile(path: string): boolean {
  const name = baseName(path);
  if (name === "conftest.py") return true;
  const dirs = path.split("/").slice(0, -1);
  const inTests = dirs.some((dir) => TEST_DIRS.has(dir));
  if (quickTest(SUPPORT_NAMES, name)) return inTests || name !== "__init__.py";
  if (dirs.some((dir) => SUPPORT_DIRS.has(dir)) && inTests) return true;
  // Any other non-test file under a test folder is a helper the tests import.
  return inTests && (extensionOf(path) === ".py" || JS_EXT.test(path));
}
