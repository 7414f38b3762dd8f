import { baseName } from "../filter/languages.ts";
import { joinRel } from "../project/project-view.ts";
import { firstExisting, pythonCandidates, pythonCommand, requirementFiles } from "./shared.ts";
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
    // No tests/ or test/ beside the manifest: the tests live inside the package
    // (`pyflakes/test/`), which discovery from the project's folder finds, as a bare
    // `python -m unittest` does.
    const testDir = TEST_DIRS.find((candidate) => view.isDirectory(joinRel(dir, candidate))) ?? ".";
    return [...pythonCommand(view, dir, "unittest"), "discover", "-s", testDir, "-t", "."];
  },
  testDirs: TEST_DIRS,
  fallbackTestDir: "tests",
  testCandidates: (src, testDir) => pythonCandidates(src, testDir ?? "tests"),
  fileCommand: (command, files) => [...command.slice(0, command.indexOf("unittest") + 1), ...files],
  argv: ({ runner, files, ids }) => {
    const command = runner.command;
    const base = command.slice(0, command.indexOf("unittest") + 1);
    // A doctest (its dotted name as its one segment) cannot be named from its test module: that
    // module runs it.
    const doctest = (segments: readonly string[]): boolean =>
      segments.length === 1 && (segments[0] ?? "").includes(".");
    const selectors =
      ids.length > 0
        ? ids.map((id) =>
            [
              id.file.replace(/\.py$/, "").replace(/\//g, "."),
              ...(doctest(id.segments) ? [] : id.segments),
            ].join("."),
          )
        : files;
    const argv = selectors.length > 0 ? [...base, "-v", ...selectors] : [...command, "-v"];
    return { argv, format: "unittest-text", report: OUTPUT_REPORT };
  },
  suite: (_view, runner) => {
    const at = runner.command.indexOf("-s");
    const start = at === -1 ? "" : (runner.command[at + 1] ?? "");
    const root = start === "." ? "" : start;
    return {
      evidence: "unittest discover (test*.py)",
      isTest: (path) =>
        (root === "" || path.startsWith(`${root}/`)) && /^test.*\.py$/.test(baseName(path)),
    };
  },
  probe: (runner) => ({ argv: [runner.command[0] ?? runner.id, "--version"], collects: false }),
  testIdJoiner: "::",
  shellPythonModule: "unittest",
};

function detectUnittest(view: ProjectView, dir: string): Detection | undefined {
  const project = firstExisting(view, dir, ["pyproject.toml", "setup.py", "setup.cfg", "Pipfile"]);
  const manifest = project ?? requirementFiles(view, dir)[0];
  if (manifest === undefined) return undefined;
  // A sub-folder with only a requirements file (the docs' `docs/requirements.txt`) is no Python
  // package of its own unless it has tests.
  if (project === undefined && dir !== "" && !hasTests(view, dir)) return undefined;
  return { evidence: `${manifest} without pytest (unittest fallback)` };
}

function hasTests(view: ProjectView, dir: string): boolean {
  return (
    TEST_DIRS.some((candidate) => view.isDirectory(joinRel(dir, candidate))) ||
    view.list(dir).some((name) => /^test.*\.py$/.test(name))
  );
}
