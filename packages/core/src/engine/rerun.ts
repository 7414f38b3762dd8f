import { joinRel, type ProjectView } from "../project/project-view.ts";
import type { RunPlan } from "./plan.ts";
import type { RunResult } from "./summarize.ts";
import { shellCommandForTestFiles } from "../runners/project-runners.ts";
import { runFilesOf } from "../runners/compiled.ts";
import { specOf } from "../runners/table.ts";
import { shellWord } from "../util/shell-word.ts";

/** How many red test files a summary or a re-run command names before "and N more". */
const SHOWN = 12;

/** The red test files of one run, project-relative, with how many tests each has red. */
function redFiles(result: RunResult, view?: ProjectView): Map<string, number> {
  const red = new Map<string, number>();
  const failed = result.tests.filter((test) => test.status === "fail");
  const named = goNamedFiles(failed);
  for (const test of failed) {
    const file =
      goTestFile(test) ??
      goSubtestFile(test, failed) ??
      goDeclaringFile(test, view) ??
      onlyOne(named.get(test.id.file)) ??
      test.id.file;
    red.set(file, (red.get(file) ?? 0) + 1);
  }
  for (const error of result.errors)
    if (error.kind === "collection" && error.file !== undefined && !red.has(error.file))
      red.set(error.file, 1);
  return red;
}

/**
 * The test files of a run stopped at the timeout that had not all passed: one of them hangs.
 * None for a whole-suite run (it named no files).
 */
function unfinished(run: RunPlan, result: RunResult): string[] {
  const seen = new Set(result.tests.map((test) => test.id.file));
  const open = new Set(
    result.tests
      .filter((test) => test.status !== "pass" && test.status !== "skip")
      .map((test) => test.id.file),
  );
  return run.test_files.filter((file) => !seen.has(file) || open.has(file));
}

type RunTest = RunResult["tests"][number];

/**
 * The file a red Go test is in: its id names the package's folder (the root package's is ""),
 * which a Stop's summary would show as "1 file: parser/lexer" or "1 file:  (2)"; the failure's
 * own `lexer_test.go:358:` line names the file. Undefined for other runners and when the
 * failure names none (a parent test whose subtests failed).
 */
function goTestFile(test: RunTest): string | undefined {
  const folder = test.id.file;
  if (test.id.runner !== "go" || folder.endsWith(".go")) return undefined;
  // The parser writes the line from the project's root (`parser/lexer/lexer_test.go:358:`).
  const base = /^\s*(?:[\w.-]+\/)*(\w+_test\.go):\d+:/m.exec(test.failure ?? "")?.[1];
  if (base === undefined) return undefined;
  return folder === "" ? base : `${folder}/${base}`;
}

/**
 * A red Go test whose failure names no file (a parent test whose subtests failed): the file its
 * first red subtest's failure names.
 */
function goSubtestFile(test: RunTest, failed: readonly RunTest[]): string | undefined {
  if (test.id.runner !== "go") return undefined;
  const { file, segments } = test.id;
  for (const other of failed) {
    const below = other.id.segments;
    if (other.id.file !== file || below.length <= segments.length) continue;
    if (!segments.every((segment, index) => below[index] === segment)) continue;
    const named = goTestFile(other);
    if (named !== undefined) return named;
  }
  return undefined;
}

/**
 * A red Go test no failure line places (an `Example…` whose output differed, a test that failed
 * without a message): the `_test.go` file of its package that declares its top-level function.
 */
function goDeclaringFile(test: RunTest, view: ProjectView | undefined): string | undefined {
  const folder = test.id.file;
  const top = test.id.segments[0];
  if (view === undefined || test.id.runner !== "go" || folder.endsWith(".go")) return undefined;
  if (top === undefined || !/^\w+$/.test(top)) return undefined;
  const declares = new RegExp(`^func ${top}\\(`, "m");
  const found = view
    .list(folder)
    .filter((name) => name.endsWith("_test.go"))
    .sort()
    .find((name) => declares.test(view.readText(joinRel(folder, name)) ?? ""));
  return found === undefined ? undefined : joinRel(folder, found);
}

/** Per Go package folder, the test files its red tests' failures name. */
function goNamedFiles(failed: readonly RunTest[]): Map<string, Set<string>> {
  const named = new Map<string, Set<string>>();
  for (const test of failed) {
    const file = goTestFile(test);
    if (file === undefined) continue;
    const files = named.get(test.id.file) ?? new Set<string>();
    files.add(file);
    named.set(test.id.file, files);
  }
  return named;
}

function onlyOne(files: ReadonlySet<string> | undefined): string | undefined {
  return files?.size === 1 ? [...files][0] : undefined;
}

/** A Go test id names its package's folder; `fileCommand` wants a file in it. */
function goPackageFile(id: string): string {
  if (/\.go$/.test(id)) return id;
  return id === "" ? "_test.go" : `${id}/_test.go`;
}

/**
 * Where the red tests are, for a Stop's block text: "12 red tests in 3 files: a (8), b (3), c"
 * (most first), so a long excerpt that is cut still says which files to look at. Empty when
 * fewer than two tests are red: the excerpt says it all.
 */
export function redSummary(results: readonly RunResult[], view?: ProjectView): string {
  const all = new Map<string, number>();
  for (const result of results)
    for (const [file, count] of redFiles(result, view)) all.set(file, (all.get(file) ?? 0) + count);
  const total = [...all.values()].reduce((sum, count) => sum + count, 0);
  if (total < 2) return "";
  const files = [...all].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const shown = files.slice(0, SHOWN).map(([file, count]) => `${file} (${count})`);
  const more = files.length > SHOWN ? `, and ${files.length - SHOWN} more` : "";
  const tests = total === 1 ? "test" : "tests";
  const where = files.length === 1 ? "1 file" : `${files.length} files`;
  return `${total} red ${tests} in ${where}: ${shown.join(", ")}${more}.`;
}

/**
 * The project's own command that runs only the red test files again, one per run with a red
 * test (its runner and package), as a person or the agent would type it from the project root.
 * `runs[i]` is the plan `results[i]` came from.
 */
export function rerunCommands(
  runs: readonly RunPlan[],
  results: readonly RunResult[],
  view?: ProjectView,
): string[] {
  const commands: string[] = [];
  results.forEach((result, index) => {
    const run = runs[index];
    if (run === undefined) return;
    const named = [...redFiles(result, view).keys()];
    // A run stopped at the timeout, or one that broke outside any test (a panic as a Go test
    // binary starts), names no red file: its files that had not all passed are the ones to run.
    const stuck = result.status === "timeout" || (result.status === "error" && named.length === 0);
    const red = (stuck ? unfinished(run, result) : named).sort().slice(0, SHOWN);
    if (red.length === 0) return;
    const pkg = run.runner.package_dir;
    const folders = specOf(run.runner.id).folderIds === "go";
    // Tests that run as tsc's output are named by their sources; the runner is given the output.
    const files = runFilesOf(
      run.compiled,
      red.map((file) => (pkg === "" || file.startsWith(`${pkg}/`) ? file : `${pkg}/${file}`)),
    ).map((file) => (folders ? goPackageFile(file) : file));
    const command = shellCommandForTestFiles(run.runner, files, view);
    // Tests that load the build need it first, as the run had it (`plan.build`).
    if (run.build === undefined) commands.push(command);
    else if (pkg === "") commands.push(`${run.build} && ${command}`);
    else commands.push(`(cd ${shellWord(pkg)} && ${run.build}) && ${command}`);
  });
  return commands;
}
