import picomatch from "picomatch";
import { baseName } from "../filter/languages.ts";
import { joinRel, type ProjectView, walkFiles } from "../project/project-view.ts";
import { packageRelative, pytestSettings } from "./config-text.ts";
import { hasPythonDoctests, underPath } from "./doctests.ts";
import {
  djangoSettingsMatcher,
  has,
  notAnOption,
  pythonCandidates,
  pythonTestDirInside,
  pythonCommand,
  read,
  requirementFiles,
} from "./shared.ts";
import {
  FILE_REPORT,
  HANG_SECONDS_TOKEN,
  REPORT_TOKEN,
  type Detection,
  type RunnerSpec,
  type SuiteMatcher,
} from "./spec.ts";

/** pytest: JUnit XML (xunit1, so `file` attributes name the test files), node ids with `::`. */
export const pytest: RunnerSpec = {
  id: "pytest",
  languages: ["python"],
  label: "pytest",
  detect: detectPytest,
  command: (view, dir) => pythonCommand(view, dir, "pytest"),
  testDirs: ["tests", "test", "src/tests", "src/test", "testing"],
  fallbackTestDir: "tests",
  testDirInside: pythonTestDirInside,
  testCandidates: (src, testDir) => pythonCandidates(src, testDir ?? "tests"),
  fileCommand: (command, files) => [...command, ...files],
  argv: ({ view, runner, files, ids }) => {
    const selectors =
      ids.length > 0 ? ids.map((id) => [notAnOption(id.file), ...id.segments].join("::")) : files;
    return {
      argv: [
        ...runner.command,
        "-o",
        "junit_family=xunit1",
        `--junitxml=${REPORT_TOKEN}`,
        // One test module that cannot import (a missing package, a broken conftest import) must
        // not stop the others: pytest otherwise runs nothing and a real red test goes unseen.
        "--continue-on-collection-errors",
        ...coverageOff(view, runner.package_dir),
        ...(ids.length === 0 ? doctestOptions(view, runner.package_dir, files) : []),
        ...(ids.length === 0 ? pytestRunFiles(view, runner.package_dir, files) : selectors),
      ],
      format: "junit",
      report: FILE_REPORT,
      ...hangDump(view, runner.package_dir),
    };
  },
  suite: (view, runner) => pytestShape(view, runner.package_dir),
  probe: (runner) => ({
    argv: [...runner.command, "--collect-only", "-q"],
    collects: true,
    okExits: [5],
  }),
  testIdJoiner: "::",
  junit: "pytest",
  shellPrograms: { pytest: "pytest", "py.test": "py.test" },
  listTests: {
    // No .pytest_cache written into the project for a question.
    argv: (runner) => [...runner.command, "--collect-only", "-q", "-p", "no:cacheprovider"],
    parse: (stdout, packageAbs) => {
      const ids = stdout
        .split("\n")
        .flatMap((line) => /^(\S[^:\s]*\.py)::/.exec(line.trim())?.[1] ?? []);
      if (ids.length === 0 && !/\bno tests (collected|ran)|\b\d+ tests? collected/.test(stdout))
        return undefined;
      return ids.flatMap((file) => packageRelative(file, packageAbs) ?? []);
    },
    configFiles: (view, dir) => [
      ...PYTEST_SETTINGS_FILES.filter((name) => has(view, dir, name)),
      ...conftestFiles(view, dir),
    ],
  },
  shellPythonModule: "pytest",
  // 5: nothing collected; 4 with "ERROR: not found": a requested node id does not exist.
  noTestsRan: (exitCode, output) =>
    exitCode === 5 || (exitCode === 4 && /ERROR: not found:/.test(output)),
  missingPlugin: pytestMissingPlugin,
};

/** Command-line options of well-known pytest plugins, by the distribution that adds them. */
const PLUGIN_OPTIONS: readonly (readonly [RegExp, string])[] = [
  [/^--(no-)?cov(-|$)/, "pytest-cov"],
  [/^(-n|--numprocesses|--maxprocesses|--dist|--looponfail|--max-worker-restart)$/, "pytest-xdist"],
  [/^--timeout(-method)?$/, "pytest-timeout"],
  [/^--benchmark-/, "pytest-benchmark"],
  [/^(--reruns|--reruns-delay|--only-rerun)$/, "pytest-rerunfailures"],
  [/^--randomly-/, "pytest-randomly"],
  [/^--asyncio-mode$/, "pytest-asyncio"],
  [
    /^(--ds|--dc|--reuse-db|--create-db|--nomigrations|--no-migrations|--migrations)$/,
    "pytest-django",
  ],
  [/^--mypy/, "pytest-mypy"],
  [/^(--doctest-plus|--doctest-rst|--text-file-format)$/, "pytest-doctestplus"],
  [/^(--html|--self-contained-html)$/, "pytest-html"],
  [/^--snapshot-(update|warn-unused|details)$/, "syrupy"],
  [/^--hypothesis-/, "hypothesis"],
  [/^(--disable-socket|--allow-hosts|--allow-unix-socket)$/, "pytest-socket"],
  [/^--flake8$/, "pytest-flake8"],
  [/^--black$/, "pytest-black"],
  [/^--isort$/, "pytest-isort"],
  [/^--forked$/, "pytest-forked"],
  [/^--instafail$/, "pytest-instafail"],
  [/^--testmon/, "pytest-testmon"],
  [/^--mpl/, "pytest-mpl"],
  [/^--ruff(-format)?$/, "pytest-ruff"],
];

/** pytest 7 names its config file by its absolute path: from the root it reports, else its name. */
function configShown(file: string, output: string): string {
  const root = /^\s*rootdir: (\S+)/m.exec(output)?.[1];
  if (root !== undefined && file.startsWith(`${root}/`)) return file.slice(root.length + 1);
  return file.slice(file.lastIndexOf("/") + 1);
}

/**
 * pytest's usage error for an option a plugin adds (`unrecognized arguments: --cov=pkg` when
 * pytest-cov is not installed where the tests run): which plugin, and where the option comes
 * from. An option no known plugin adds stays the run's own error (a typo in `addopts` is the
 * code's, and a turn that wrote it must not end as if the environment broke).
 */
export function pytestMissingPlugin(output: string): string | undefined {
  const line = /^.*error: unrecognized arguments: (.+)$/m.exec(output);
  if (line === null) return undefined;
  // The config's own options first: `--no-cov` is the one tailtest adds (`coverageOff`).
  const options = (line[1] ?? "")
    .trim()
    .split(/\s+/)
    .sort((a, b) => Number(a === "--no-cov") - Number(b === "--no-cov"));
  for (const option of options) {
    const name = option.replace(/=.*$/, "");
    const plugin = PLUGIN_OPTIONS.find(([pattern]) => pattern.test(name))?.[1];
    if (plugin === undefined) continue;
    const from = /^\s*(?:inifile|configfile): (\S+)/m.exec(output)?.[1];
    const where = from === undefined ? "the options" : configShown(from, output);
    return `\`${option}\` (from ${where}) needs the ${plugin} plugin, which the Python running the tests does not have: install ${plugin} there (or take the option out)`;
  }
  return undefined;
}

/**
 * `--no-cov` when the project's pytest config turns pytest-cov on (`--cov…` in `addopts`): its
 * `--cov-fail-under` judges the coverage of the whole package, so a run of a few test files
 * fails with every test green ("Required test coverage of 90% not reached", exit 1), which
 * would end a turn as a runner error; tailtest never reads coverage, and measuring it slows
 * every run. Only then: without pytest-cov installed the option is pytest's usage error, which
 * the config's own `--cov` already is (`pytestMissingPlugin` names the plugin).
 */
export function coverageOff(view: ProjectView, dir: string): string[] {
  const addopts = pytestSettings(view, dir)("addopts") ?? [];
  const words = addopts.flatMap((one) => one.split(/\s+/));
  return words.some((word) => /^--cov(-[\w-]+)?(=|$)/.test(word) && word !== "--no-cov")
    ? ["--no-cov"]
    : [];
}

/**
 * faulthandler (built into pytest) dumps every thread's stack once a test runs past
 * `faulthandler_timeout`. Not where the project's addopts take the plugin out (`-p
 * no:faulthandler`): the option is then unknown, and with `-W error` an unknown option stops
 * pytest before any test runs.
 */
function hangDump(view: ProjectView, dir: string): { hangArgs?: string[] } {
  const addopts = pytestSettings(view, dir)("addopts") ?? [];
  if (addopts.some((one) => one.includes("no:faulthandler"))) return {};
  return { hangArgs: ["-o", `faulthandler_timeout=${HANG_SECONDS_TOKEN}`] };
}

/**
 * The options a run of `files` needs for the source modules among them (no test by the project's
 * pytest config) that hold doctests: selection names one only when the project runs its doctests,
 * and pytest collects them only with `--doctest-modules` (the project may pass it in tox.ini rather
 * than in its config). pytest rewrites the asserts of every module named on its command line,
 * which the whole suite never does to a source module: a doctest that shows the bare
 * `AssertionError` of such an assert (jaraco.functools' `chainable`) then sees pytest's message
 * (`AssertionError: assert 1 is None`) and fails. When a named module holds an assert, the run
 * keeps asserts as Python raises them (`--assert=plain`), as the suite sees that module's.
 */
export function doctestOptions(view: ProjectView, dir: string, files: readonly string[]): string[] {
  const shape = pytestShape(view, dir);
  const modules = files.flatMap((file) => {
    // A doctest page (`docs/usage.rst`) is collected by the project's own `--doctest-glob`; only a
    // Python module needs `--doctest-modules`, and a page's `assert` must not turn rewriting off.
    if (!file.endsWith(".py") || shape.isTest(file.replace(/^\.\//, ""))) return [];
    const text = view.readText(joinRel(dir, file)) ?? "";
    return hasPythonDoctests(text) ? [text] : [];
  });
  if (modules.length === 0) return [];
  return modules.some((text) => ASSERT_STATEMENT.test(text))
    ? ["--doctest-modules", "--assert=plain"]
    : ["--doctest-modules"];
}

/**
 * The files of a run in the order the project's own pytest run meets them, and with what that run
 * gives them. pytest runs its `testpaths` in the order written (`testpaths = tests docs`), and a
 * conftest.py there may fill pytest's session-wide `doctest_namespace` from an autouse fixture
 * that only that folder's tests use: python-semver's `docs/usage/*.rst` examples call `semver`
 * and `Version` without importing them, and pass only once a `tests/` test has run. So the files
 * go by the order of their `testpaths` (sorted, the pages would run first and fail), and a run of
 * doctests outside such a folder, with none of that folder's tests, gets its smallest test file
 * first: the run a page or module cannot pass without.
 */
export function pytestRunFiles(view: ProjectView, dir: string, files: readonly string[]): string[] {
  const roots = (pytestSettings(view, dir)("testpaths") ?? [])
    .map((root) => root.replace(/^\.\//, "").replace(/\/+$/, ""))
    .filter((root) => root !== "" && root !== ".");
  if (roots.length < 2) return [...files];
  const shape = pytestShape(view, dir);
  const clean = files.map((file) => file.replace(/^\.\//, ""));
  const primers = roots.flatMap((root) => {
    const conftest = view.readText(joinRel(dir, root, "conftest.py")) ?? "";
    if (!FILLS_NAMESPACE.test(conftest) || !/\bautouse\s*=\s*True\b/.test(conftest)) return [];
    if (clean.some((file) => underPath(file, root))) return [];
    if (!clean.some((file) => !shape.isTest(file))) return [];
    const tests = walkFiles(view, dir, root, {
      depth: 0,
      files: 50,
      keep: (path) => shape.isTest(path),
    });
    const size = (file: string) => view.readText(joinRel(dir, file))?.length ?? Infinity;
    const smallest = tests.sort((a, b) => size(a) - size(b) || a.localeCompare(b))[0];
    return smallest === undefined ? [] : [smallest];
  });
  const rank = (file: string) => {
    const at = roots.findIndex((root) => underPath(file.replace(/^\.\//, ""), root));
    return at === -1 ? roots.length : at;
  };
  return [...primers, ...files]
    .map((file, at) => ({ file, at, rank: rank(file) }))
    .sort((a, b) => a.rank - b.rank || a.at - b.at)
    .map(({ file }) => file);
}

/** A conftest.py fixture that takes pytest's `doctest_namespace` (to put names in it). */
const FILLS_NAMESPACE = /^[ \t]*(?:async[ \t]+)?def[ \t]+\w+[ \t]*\([^)]*\bdoctest_namespace\b/m;

/** A line opening with an assert statement (`>>> assert` in an example is doctest's to run). */
const ASSERT_STATEMENT = /^[ \t]*assert\b/m;

/** pytest's own config files, each its config even when it holds no table. */
const PYTEST_OWN_CONFIGS = ["pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini"];

function detectPytest(view: ProjectView, dir: string): Detection | undefined {
  const pyproject = read(view, dir, "pyproject.toml");
  if (pyproject !== undefined && /^\[tool\.pytest/m.test(pyproject)) {
    return { evidence: "pyproject.toml [tool.pytest]" };
  }
  if (pyproject !== undefined && /["'\s]pytest\b/.test(pyproject)) {
    return { evidence: "pyproject.toml lists pytest" };
  }
  const own = PYTEST_OWN_CONFIGS.find((name) => has(view, dir, name));
  if (own !== undefined) return { evidence: own };
  const setupCfg = read(view, dir, "setup.cfg");
  if (setupCfg !== undefined && /^\[tool:pytest\]/m.test(setupCfg))
    return { evidence: "setup.cfg [tool:pytest]" };
  const tox = read(view, dir, "tox.ini");
  if (tox !== undefined && /^\[pytest\]|\bpytest\b/m.test(tox))
    return { evidence: "tox.ini mentions pytest" };
  for (const name of requirementFiles(view, dir)) {
    if (/^\s*pytest\b/m.test(read(view, dir, name) ?? ""))
      return { evidence: `${name} lists pytest` };
  }
  if (/\bpytest\b/.test(read(view, dir, "Pipfile") ?? ""))
    return { evidence: "Pipfile lists pytest" };
  if (/\bpytest\b/.test(read(view, dir, "setup.py") ?? ""))
    return { evidence: "setup.py lists pytest" };
  if (has(view, dir, "conftest.py")) return { evidence: "conftest.py" };
  if (/\bpytest\b/.test(read(view, dir, "noxfile.py") ?? ""))
    return { evidence: "noxfile.py runs pytest" };
  return testsNamePytest(view, dir);
}

/** How many test files are read for an `import pytest` before giving up. */
const TEST_FILES_READ = 12;

/**
 * pytest named by the tests themselves (pypa/packaging names it in no config, only in
 * `tests/requirements.txt` and its noxfile, and its tests `import pytest`): a requirements file
 * in `tests/` or `requirements/`, or one of the first test files of `tests/`, `test/` or the
 * folder itself (its import, or a module-level `def test_…`, which unittest never runs).
 */
function testsNamePytest(view: ProjectView, dir: string): Detection | undefined {
  for (const folder of ["tests", "test", "requirements", ""]) {
    const at = joinRel(dir, folder);
    if (!view.isDirectory(at)) continue;
    const names = view.list(at);
    for (const name of names.filter((one) =>
      /^[\w.-]*requirements[\w.-]*\.(txt|in)$|^(test|tests|dev)\.txt$/.test(one),
    ))
      if (/^\s*pytest\b/m.test(read(view, at, name) ?? ""))
        return { evidence: `${folder}/${name} lists pytest` };
    if (folder === "requirements") continue;
    const tests = names.filter(isDefaultTestFileName);
    for (const name of tests.slice(0, TEST_FILES_READ)) {
      const text = read(view, at, name) ?? "";
      const shown = joinRel(folder, name);
      if (/^\s*(import pytest\b|from pytest import\b)|^\s*@pytest\./m.test(text))
        return { evidence: `${shown} imports pytest` };
      // unittest runs TestCase methods only: a module-level test function is pytest's.
      if (/^(async )?def test\w*\(/m.test(text))
        return { evidence: `${shown} has test functions (pytest's style)` };
    }
  }
  return undefined;
}

/** Every file pytest may take its settings from in a folder (`pytestConfig` says which it does). */
export const PYTEST_SETTINGS_FILES: readonly string[] = [
  ...PYTEST_OWN_CONFIGS,
  "pyproject.toml",
  "tox.ini",
  "setup.cfg",
];

/** The usual test folders, whose conftest.py is read when no `testpaths` names the folders. */
const USUAL_TEST_FOLDERS = ["tests", "test", "testing"];

/**
 * The conftest.py files read for what they do to collection: the root's, and that of each folder
 * `testpaths` names (or of the usual test folders). A `tests/conftest.py` whose `collect_ignore`
 * leaves a file out (attrs: a Python 3.14 test, on older Pythons) is honoured by pytest's own run
 * of the folder but not for a file named on the command line, so the Stop would run it.
 */
function conftestFiles(view: ProjectView, dir: string): string[] {
  const testpaths = pytestSettings(view, dir)("testpaths");
  const folders = (testpaths ?? USUAL_TEST_FOLDERS)
    .map((path) => path.replace(/^\.\//, "").replace(/\/+$/, ""))
    .filter((path) => path !== "" && path !== "." && !/[*?[\]]|^\/|(^|\/)\.\.(\/|$)/.test(path));
  return ["conftest.py", ...folders.map((folder) => `${folder}/conftest.py`)].filter((file) =>
    has(view, dir, file),
  );
}

/** A conftest.py that changes what pytest collects: only pytest knows its tests then. */
function customCollection(view: ProjectView, dir: string): string | undefined {
  for (const file of conftestFiles(view, dir)) {
    const conftest = read(view, dir, file) ?? "";
    if (
      /^\s*(def\s+pytest_(collect_file|ignore_collect|pycollect_makemodule|collection_modifyitems)\b|collect_ignore(_glob)?\s*[+]?=)/m.test(
        conftest,
      )
    )
      return `${file} changes what pytest collects`;
  }
  return undefined;
}

/**
 * pytest's default `python_files` (`test_*.py`, `*_test.py`) for a file name, as picomatch
 * answers them (a leading `*` matches no leading dot): building picomatch's matcher for the
 * defaults cost an `explain` ~1.4 M instructions (its parser and the regexes it compiles).
 */
export function isDefaultTestFileName(name: string): boolean {
  if (name.startsWith("test_") && name.endsWith(".py") && name.length >= 8) return true;
  return name.endsWith("_test.py") && !name.startsWith(".");
}

function pytestShape(view: ProjectView, dir: string): SuiteMatcher {
  const setting = pytestSettings(view, dir);
  const testpaths = setting("testpaths")?.map((p) => p.replace(/^\.\//, "").replace(/\/$/, ""));
  const configured = setting("python_files");
  const django = view.exists(joinRel(dir, "manage.py"));
  // pytest-django loads the settings its config or manage.py names before every test.
  const settings = djangoSettingsMatcher(view, dir, setting("DJANGO_SETTINGS_MODULE")?.[0]);
  const patterns = configured ?? ["test_*.py", "*_test.py"];
  const names =
    configured === undefined ? isDefaultTestFileName : picomatch(patterns, { basename: true });
  const roots = testpaths?.filter((p) => p !== "." && p !== "");
  const opaque = customCollection(view, dir);
  const ignored = ignoredByAddopts(setting("addopts") ?? []);
  const unrecursed = notRecursedInto(setting("norecursedirs"));
  const parts: string[] = [];
  if (testpaths !== undefined) parts.push("testpaths");
  if (configured !== undefined) parts.push("python_files");
  if (ignored !== undefined) parts.push("addopts --ignore");
  if (unrecursed !== undefined) parts.push("norecursedirs");
  return {
    evidence:
      parts.length === 0
        ? "pytest defaults (test_*.py, *_test.py)"
        : `pytest ${parts.join(" and ")} from the config`,
    isTest: (path) => {
      if (!path.endsWith(".py")) return false;
      if (roots !== undefined && roots.length > 0) {
        const under = roots.some(
          (root) => path === root || path.startsWith(`${root}/`) || picomatch.isMatch(path, root),
        );
        if (!under) return false;
      }
      if (ignored?.(path) === true || unrecursed?.(path) === true) return false;
      // A file `testpaths` names is collected whatever its name (python-slugify's `test.py`).
      if (names(baseName(path)) || roots?.includes(path) === true) return true;
      // Django keeps an app's tests in tests.py or a tests/ package, collected with pytest-django's
      // python_files; without a config saying so, pytest itself does not collect tests.py.
      return django && configured === undefined && /(^|\/)tests\/test_?[^/]*\.py$/.test(path);
    },
    ...(opaque === undefined ? {} : { opaque }),
    ...(settings === undefined ? {} : { isSetup: settings }),
  };
}

/**
 * What pytest's `addopts` tell it never to collect, as a test of a package-relative path:
 * `--ignore` (a file, or a folder and all below it) and `--ignore-glob` (fnmatch, whose `*`
 * crosses folders; pytest anchors a relative pattern at the directory it runs in). A file the
 * project's own run never collects is no test of its: run by name it may not even import (a
 * fuzz test whose package is not installed), and one such file turns every Stop red.
 */
export function ignoredByAddopts(
  addopts: readonly string[],
): ((path: string) => boolean) | undefined {
  const words = addopts.flatMap((one) => one.split(/\s+/)).filter((word) => word !== "");
  const paths: string[] = [];
  const globs: RegExp[] = [];
  const clean = (value: string) =>
    value
      .replace(/^["']|["']$/g, "")
      .replace(/^\.\//, "")
      .replace(/\/+$/, "");
  for (let i = 0; i < words.length; i += 1) {
    const option = /^(--ignore(?:-glob)?)(?:=(.*))?$/.exec(words[i] ?? "");
    if (option === null) continue;
    let value = option[2];
    if (value === undefined) {
      i += 1;
      value = words[i];
    }
    if (value === undefined) continue;
    const rel = clean(value);
    if (rel === "" || rel.startsWith("/")) continue;
    if (option[1] === "--ignore") paths.push(rel);
    else globs.push(fnmatchRegex(rel));
  }
  if (paths.length === 0 && globs.length === 0) return undefined;
  return (path) =>
    paths.some((one) => path === one || path.startsWith(`${one}/`)) ||
    globs.some((glob) => glob.test(path));
}

/**
 * The folders pytest's `norecursedirs` keep it out of, as a test of a package-relative file path
 * (undefined when the config sets none). pytest matches a pattern without a `/` against each
 * folder's name on the way down, and one with a `/` against the folder's whole path, a relative
 * pattern as its tail (`fnmatch_ex`): marshmallow's `tests/mypy_test_cases` holds files named
 * like tests that only mypy reads. Named on the command line, pytest collects such a file anyway
 * (and marshmallow's fails at import), so a run of the tests of a change must leave it out.
 */
export function notRecursedInto(
  patterns: readonly string[] | undefined,
): ((path: string) => boolean) | undefined {
  const globs = (patterns ?? [])
    .map((one) =>
      one
        .replace(/^["']|["']$/g, "")
        .replace(/^\.\//, "")
        .replace(/\/+$/, ""),
    )
    .filter((one) => one !== "" && !one.startsWith("/"))
    .map((one) => ({ path: one.includes("/"), regex: fnmatchRegex(one) }));
  if (globs.length === 0) return undefined;
  return (path) => {
    const dirs = path.split("/").slice(0, -1);
    for (let i = 0; i < dirs.length; i += 1) {
      const name = dirs[i] ?? "";
      const whole = dirs.slice(0, i + 1).join("/");
      for (const glob of globs) {
        if (!glob.path) {
          if (glob.regex.test(name)) return true;
          continue;
        }
        // The folder's absolute path ends with the pattern: any tail of its relative one.
        const tails = dirs.slice(0, i + 1).map((_, j) => dirs.slice(j, i + 1).join("/"));
        if (tails.some((tail) => glob.regex.test(tail)) || glob.regex.test(`/${whole}`))
          return true;
      }
    }
    return false;
  };
}

/** Python's fnmatch as a regex: `*` any run of characters (`/` too), `?` one, `[!…]` negated. */
function fnmatchRegex(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i] ?? "";
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else if (char === "[" && pattern.indexOf("]", i + 2) !== -1) {
      const end = pattern.indexOf("]", i + 2);
      const body = pattern.slice(i + 1, end).replace(/\\/g, "\\\\");
      source += body.startsWith("!") ? `[^${body.slice(1)}]` : `[${body}]`;
      i = end;
    } else source += char.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}
