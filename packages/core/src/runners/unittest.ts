import picomatch from "picomatch";
import { joinRel } from "../project/project-view.ts";
import {
  djangoSettingsMatcher,
  firstExisting,
  pythonCandidates,
  pythonCommand,
  pythonTestDirInside,
  requirementFiles,
} from "./shared.ts";
import { OUTPUT_REPORT, type Detection, type RunnerSpec } from "./spec.ts";
import type { ProjectView } from "../project/project-view.ts";

const TEST_DIRS = ["tests", "test"];

/** The standard library's unittest: the Python fallback when nothing names pytest; `-v` text output. */
export const unittest: RunnerSpec = {
  id: "unittest",
  languages: ["python"],
  label: "unittest",
  detect: detectUnittest,
  command: (view, dir) => {
    // A Django project's tests need its settings and a test database: Django's own runner,
    // which is unittest's underneath.
    const django = djangoRunner(view, dir);
    if (django !== undefined)
      return [...pythonCommand(view, dir, "unittest").slice(0, -2), ...django, "--noinput"];
    // The project's own discovery (`python -m unittest discover -p "*_test.py"` in its Makefile)
    // first. Else no tests/ or test/ beside the manifest: the tests live inside the package
    // (`pyflakes/test/`), which discovery from the project's folder finds, as a bare
    // `python -m unittest` does; unless the package is in a src layout
    // (`src/isodate/tests/`): discovery from the project's folder stops at `src/`, which is
    // no package, and finds nothing; from `src/` as the top it finds them under their
    // installed names (`isodate.tests.test_date`).
    const own = projectDiscovery(view, dir);
    const inside = srcPackageTests(view, dir);
    const testDir =
      own?.start ??
      TEST_DIRS.find((candidate) => view.isDirectory(joinRel(dir, candidate))) ??
      inside ??
      ".";
    const pattern = own?.pattern === undefined ? [] : ["-p", own.pattern];
    const top =
      own?.top ??
      (own?.start === undefined && testDir === inside ? inside : discoveryTop(view, dir, testDir));
    return [
      ...pythonCommand(view, dir, "unittest"),
      "discover",
      "-s",
      testDir,
      ...pattern,
      "-t",
      top,
    ];
  },
  testDirs: TEST_DIRS,
  fallbackTestDir: "tests",
  testDirInside: pythonTestDirInside,
  testCandidates: (src, testDir) => pythonCandidates(src, testDir ?? "tests"),
  fileCommand: (command, files) =>
    isDjangoCommand(command)
      ? [...command, ...files.map(djangoLabel)]
      : [...command.slice(0, command.indexOf("unittest") + 1), ...files],
  argv: ({ runner, files, ids }) => {
    const command = runner.command;
    const django = isDjangoCommand(command);
    const base = django ? command : command.slice(0, command.indexOf("unittest") + 1);
    // Django's `-v` takes a level; 2 prints a line per test, as unittest's `-v` does. An app's
    // `runtests.py` may split its arguments into options and labels by a leading `-`.
    let verbose = django ? ["-v", "2"] : ["-v"];
    if (command.includes(RUNTESTS)) verbose = ["--verbosity=2"];
    // A doctest (its dotted name as its one segment) cannot be named from its test module: that
    // module runs it.
    const doctest = (segments: readonly string[]): boolean =>
      segments.length === 1 && (segments[0] ?? "").includes(".");
    // Nor can a test of a class a function builds (`make.<locals>.TestX`): its module runs it.
    const local = (segments: readonly string[]): boolean =>
      segments.some((segment) => segment.includes("<locals>"));
    const named = ids
      .map((id) =>
        [
          id.file.replace(/\.py$/, "").replace(/\//g, "."),
          ...(doctest(id.segments) || local(id.segments) ? [] : id.segments),
        ].join("."),
      )
      // Once per module that runs such tests.
      .filter((name, at, all) => !local(ids[at]?.segments ?? []) || all.indexOf(name) === at);
    const chosen = django ? files.map(djangoLabel) : files;
    const selectors = ids.length > 0 ? named : chosen;
    const argv =
      selectors.length > 0 ? [...base, ...verbose, ...selectors] : [...command, ...verbose];
    // A whole discovery run names modules from its top-level folder (`-t src`).
    const top = selectors.length > 0 ? undefined : option(command, "-t", "--top-level-directory");
    const from = top?.replace(/^\.(\/|$)/, "").replace(/\/$/, "") ?? "";
    return {
      argv,
      format: "unittest-text",
      report: OUTPUT_REPORT,
      ...(from === "" ? {} : { namesFrom: from }),
    };
  },
  suite: (view, runner) => {
    const start = option(runner.command, "-s") ?? "";
    const root = start === "." ? "" : start.replace(/^\.\//, "").replace(/\/$/, "");
    const pattern = option(runner.command, "-p") ?? DEFAULT_PATTERN;
    // unittest matches the pattern against a file's name (fnmatch), never its folders.
    const named = picomatch(pattern, { basename: true, dot: true });
    // Django's runner loads the settings before every test: what they name reaches them all.
    const settings = isDjangoCommand(runner.command)
      ? djangoSettingsMatcher(
          view,
          runner.package_dir,
          runner.command.find((word) => word.startsWith("--settings="))?.slice(11),
        )
      : undefined;
    return {
      evidence: `unittest discover (${pattern})`,
      isTest: (path) =>
        (root === "" || path.startsWith(`${root}/`)) && path.endsWith(".py") && named(path),
      ...(settings === undefined ? {} : { isSetup: settings }),
    };
  },
  probe: (runner) => ({ argv: [runner.command[0] ?? runner.id, "--version"], collects: false }),
  testIdJoiner: "::",
  shellPythonModule: "unittest",
};

/**
 * The top-level folder discovery imports a start folder's tests from when nothing names one: the
 * project's folder when the start folder is a package (its tests are `tests.test_x`), else the
 * start folder itself, unittest's own default. Python 3.11 and later refuse `-s tests -t .` for a
 * tests/ with no `__init__.py` ("Start directory is not importable"), as polib's is.
 */
function discoveryTop(view: ProjectView, dir: string, start: string): string {
  if (start === "." || view.exists(joinRel(dir, joinRel(start, "__init__.py")))) return ".";
  return start;
}

/** The value after a command's option (`-t src`), by any of its names. */
function option(command: readonly string[], ...flags: string[]): string | undefined {
  const at = command.findIndex((word) => flags.includes(word));
  return at === -1 ? undefined : command[at + 1];
}

/**
 * How a Django project runs its tests, after the python: `manage.py test` when its `manage.py`
 * sets `DJANGO_SETTINGS_MODULE`, else `-m django test --settings=<module>` when its make, tox,
 * nox or just file runs Django's runner (`python -m django test`, `django-admin test`) with a
 * settings module it names (`--settings`, or tox's `DJANGO_SETTINGS_MODULE` in the same file).
 * Bare unittest cannot import Django's models unconfigured.
 */
function djangoRunner(view: ProjectView, dir: string): string[] | undefined {
  if (view.readText(joinRel(dir, "manage.py"))?.includes("DJANGO_SETTINGS_MODULE") === true)
    return ["manage.py", "test"];
  // A reusable app's own `runtests.py` that sets Django up and hands its arguments to the `test`
  // command (`execute_from_command_line(sys.argv[:1] + ["test"] + sys.argv[1:])`).
  const script = view.readText(joinRel(dir, RUNTESTS));
  if (
    script?.includes("execute_from_command_line") === true &&
    script.includes("sys.argv") &&
    /["']test["']/.test(script)
  )
    return [RUNTESTS];
  for (const name of COMMAND_FILES) {
    const text = view.readText(joinRel(dir, name));
    if (text === undefined || !text.includes("django")) continue;
    const line = text
      .split("\n")
      .find((one) => !/^\s*#/.test(one) && /(-m\s+django|django-admin)\s+test\b/.test(one));
    if (line === undefined) continue;
    const settings =
      /--settings[=\s]+["']?([\w.]+)/.exec(line)?.[1] ??
      /^\s*DJANGO_SETTINGS_MODULE\s*[=:]\s*["']?([\w.]+)/m.exec(text)?.[1];
    if (settings !== undefined) return ["-m", "django", "test", `--settings=${settings}`];
  }
  return undefined;
}

const RUNTESTS = "runtests.py";

/**
 * Whether a unittest command is Django's runner (`manage.py test`, `-m django test`, an app's
 * `runtests.py`).
 */
function isDjangoCommand(command: readonly string[]): boolean {
  const manage = command.indexOf("manage.py");
  const module = command.indexOf("django");
  return (
    (manage !== -1 && command[manage + 1] === "test") ||
    command.includes(RUNTESTS) ||
    (module > 0 && command[module - 1] === "-m" && command[module + 1] === "test")
  );
}

/** A test file as Django's runner names it: its dotted module (`shop/tests.py` → `shop.tests`). */
function djangoLabel(file: string): string {
  return file
    .replace(/^\.\//, "")
    .replace(/(\/__init__)?\.py$/, "")
    .replace(/\//g, ".");
}

function detectUnittest(view: ProjectView, dir: string): Detection | undefined {
  const project = firstExisting(view, dir, ["pyproject.toml", "setup.py", "setup.cfg", "Pipfile"]);
  const manifest = project ?? requirementFiles(view, dir)[0];
  if (manifest === undefined) return undefined;
  // A sub-folder with only a requirements file (the docs' `docs/requirements.txt`) is no Python
  // package of its own unless it has tests.
  if (project === undefined && dir !== "" && !hasTests(view, dir)) return undefined;
  return { evidence: `${manifest} without pytest (unittest fallback)` };
}

/**
 * `src` when the project's `src/` is no package itself and holds one with a tests/ or test/
 * folder inside (a src layout whose tests ship with the package), else undefined.
 */
function srcPackageTests(view: ProjectView, dir: string): string | undefined {
  const src = joinRel(dir, "src");
  if (!view.isDirectory(src) || view.exists(joinRel(src, "__init__.py"))) return undefined;
  const found = view
    .list(src, true)
    .some((name) =>
      TEST_DIRS.some((tests) => view.exists(joinRel(src, name, tests, "__init__.py"))),
    );
  return found ? "src" : undefined;
}

function hasTests(view: ProjectView, dir: string): boolean {
  return (
    TEST_DIRS.some((candidate) => view.isDirectory(joinRel(dir, candidate))) ||
    view.list(dir).some((name) => /^test.*\.py$/.test(name))
  );
}

/** unittest's own discovery pattern. */
const DEFAULT_PATTERN = "test*.py";

/** Where a project spells its test command: make, tox, nox and just files. */
const COMMAND_FILES = ["Makefile", "makefile", "GNUmakefile", "tox.ini", "noxfile.py", "justfile"];

/** What a project's own `python -m unittest discover` names (`-s`, `-p`, `-t` or positionally). */
export interface Discovery {
  start?: string;
  pattern?: string;
  top?: string;
}

/**
 * The first `-m unittest discover` command of the project's make, tox, nox or just file, its
 * start folder, pattern and top folder as unittest reads them: options (`-s`, `-p`, `-t` and
 * their long names) or positionally in that order. Quotes and a nox file's commas are dropped
 * (`session.run("python", "-m", "unittest", "discover", "-p", "*_test.py")`); a make variable
 * (`$(TESTS)`) is not a value.
 */
export function projectDiscovery(view: ProjectView, dir: string): Discovery | undefined {
  for (const name of COMMAND_FILES) {
    const text = view.readText(joinRel(dir, name));
    if (text === undefined) continue;
    for (const line of text.split("\n")) {
      if (/^\s*#/.test(line)) continue;
      const words = (line.match(/\$[({][^)}]*[)}]|"[^"]*"|'[^']*'|[^\s,()[\]]+/g) ?? []).map(
        (word) => word.replace(/^(["'])(.*)\1$/, "$2"),
      );
      const at = words.findIndex(
        (word, i) => word === "discover" && words[i - 1] === "unittest" && words[i - 2] === "-m",
      );
      if (at === -1) continue;
      return discoveryArgs(words.slice(at + 1));
    }
  }
  return undefined;
}

const DISCOVERY_OPTIONS: Record<string, keyof Discovery> = {
  "-s": "start",
  "--start-directory": "start",
  "-p": "pattern",
  "--pattern": "pattern",
  "-t": "top",
  "--top-level-directory": "top",
};

function discoveryArgs(words: readonly string[]): Discovery {
  const found: Discovery = {};
  const positional: (keyof Discovery)[] = ["start", "pattern", "top"];
  const usable = (value: string | undefined): value is string =>
    value !== undefined && value !== "" && !value.includes("$") && !value.includes("{");
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? "";
    if (/^(&&|\|\||;|\||>)/.test(word)) break;
    const [flag, inline] = word.startsWith("--") ? word.split("=", 2) : [word, undefined];
    const key = DISCOVERY_OPTIONS[flag ?? ""];
    if (key !== undefined) {
      const value = inline ?? words[(i += 1)];
      if (usable(value)) found[key] = value;
    } else if (word === "-k") i += 1;
    else if (!word.startsWith("-")) {
      const key = positional.find((name) => found[name] === undefined);
      if (key !== undefined && usable(word)) found[key] = word;
    }
  }
  return found;
}
