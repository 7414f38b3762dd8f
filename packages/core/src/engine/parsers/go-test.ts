import {
  toProjectFile,
  type FailureKind,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
} from "../results.ts";
import { crashed, parseJsonLine } from "./_shared.ts";

/**
 * Reads `go test -json ./...` (NDJSON test2json events, optionally mixed with the plain lines
 * older Go prints for build failures when stderr is captured with stdout).
 *
 * Go's events name packages, never files. A test's `file` is its package folder: the package
 * import path minus the module path. The module path is not in the output; pass it as
 * `modulePath` (from go.mod) when known. Without it, the longest common prefix of every package
 * in the run stands in for it, which is exact whenever the run includes the module's root
 * package (`./...` on a module with a root package) and otherwise drops the common folders.
 * Output lines like `calc_test.go:14:` would name a file, but only for tests that log, so the
 * folder keeps a test's id the same whether it passes or fails.
 */
export function parseGoTestJson(
  text: string,
  context: ParseContext,
  modulePath?: string,
): ParsedRun {
  try {
    return readRun(text, context, modulePath);
  } catch (error) {
    return crashed(`could not read go test -json output: ${String(error)}`);
  }
}

interface GoTest {
  pkg: string;
  name: string;
  /** `paused`: a parallel test waiting for its parent to finish (`t.Parallel()`), not run yet. */
  status: "pass" | "fail" | "skip" | "running" | "paused";
  elapsed: number | undefined;
  output: string[];
}

interface GoPackage {
  status: "pass" | "fail" | "skip" | "running";
  output: string[];
  buildFailed: boolean;
  buildOutput: string[];
}

interface RunState {
  tests: Map<string, GoTest>;
  packages: Map<string, GoPackage>;
  recognised: number;
  /** The package a plain `# pkg` build header opened, for the compiler lines that follow it. */
  rawBuildPackage: string | undefined;
}

function readRun(text: string, context: ParseContext, modulePath: string | undefined): ParsedRun {
  const state: RunState = {
    tests: new Map(),
    packages: new Map(),
    recognised: 0,
    rawBuildPackage: undefined,
  };
  for (const line of text.split("\n")) {
    const event = parseJsonLine(line);
    if (event === undefined) readRawLine(line, state);
    else {
      state.rawBuildPackage = undefined;
      readEvent(event, state);
    }
  }
  if (state.recognised === 0) return crashed("no go test -json events in the runner output");
  const dirOf = packageDirs([...state.packages.keys()], context, modulePath);
  const tests: TestResult[] = [];
  for (const test of state.tests.values()) {
    const result = toResult(test, state.packages.get(test.pkg), dirOf(test.pkg), context);
    if (result !== undefined) tests.push(result);
  }
  return { tests, errors: packageErrors(state, dirOf, context) };
}

function readEvent(event: Record<string, unknown>, state: RunState): void {
  const action = typeof event["Action"] === "string" ? event["Action"] : "";
  const importPath =
    typeof event["ImportPath"] === "string" ? packageOf(event["ImportPath"]) : undefined;
  const pkgName = typeof event["Package"] === "string" ? event["Package"] : importPath;
  if (pkgName === undefined || action === "") return;
  state.recognised += 1;
  const pkg = packageState(state, pkgName);
  const output = typeof event["Output"] === "string" ? event["Output"] : "";
  if (action === "build-output") {
    pkg.buildOutput.push(output);
    return;
  }
  if (action === "build-fail" || typeof event["FailedBuild"] === "string") pkg.buildFailed = true;
  if (action === "build-fail") return;
  const testName = typeof event["Test"] === "string" ? event["Test"] : undefined;
  if (testName === undefined) {
    readPackageEvent(pkg, action, output);
    return;
  }
  readTestEvent(state, pkgName, testName, action, event);
}

function readTestEvent(
  state: RunState,
  pkgName: string,
  testName: string,
  action: string,
  event: Record<string, unknown>,
): void {
  const key = `${pkgName}\u0000${testName}`;
  let test = state.tests.get(key);
  if (test === undefined) {
    test = { pkg: pkgName, name: testName, status: "running", elapsed: undefined, output: [] };
    state.tests.set(key, test);
  }
  if (action === "run" || action === "cont") test.status = "running";
  else if (action === "pause") test.status = "paused";
  else if (action === "output")
    test.output.push(typeof event["Output"] === "string" ? event["Output"] : "");
  else if (action === "pass" || action === "fail" || action === "skip") {
    test.status = action;
    const elapsed = event["Elapsed"];
    if (typeof elapsed === "number" && Number.isFinite(elapsed) && elapsed >= 0)
      test.elapsed = elapsed;
  }
}

function readPackageEvent(pkg: GoPackage, action: string, output: string): void {
  if (action === "output") {
    pkg.output.push(output);
    if (/\[(build|setup) failed\]/.test(output)) pkg.buildFailed = true;
  } else if (action === "pass" || action === "fail" || action === "skip") {
    pkg.status = action;
  }
}

/** Plain lines: older Go prints build failures outside the JSON stream. */
function readRawLine(line: string, state: RunState): void {
  const trimmed = line.replace(/\r$/, "");
  const failed = /^FAIL\s+(\S+) \[(build|setup) failed\]/.exec(trimmed);
  if (failed?.[1] !== undefined) {
    state.recognised += 1;
    packageState(state, failed[1]).buildFailed = true;
    state.rawBuildPackage = undefined;
    return;
  }
  const header = /^# (\S+)(?: \[.*\])?$/.exec(trimmed);
  if (header?.[1] !== undefined) {
    state.rawBuildPackage = header[1];
    packageState(state, header[1]).buildOutput.push(`${trimmed}\n`);
    return;
  }
  if (state.rawBuildPackage !== undefined && trimmed !== "") {
    packageState(state, state.rawBuildPackage).buildOutput.push(`${trimmed}\n`);
  }
}

function packageState(state: RunState, name: string): GoPackage {
  let pkg = state.packages.get(name);
  if (pkg === undefined) {
    pkg = { status: "running", output: [], buildFailed: false, buildOutput: [] };
    state.packages.set(name, pkg);
  }
  return pkg;
}

/** `example.com/calc [example.com/calc.test]` names the test build of package example.com/calc. */
function packageOf(importPath: string): string {
  return importPath.replace(/ \[.*\]$/, "");
}

const BOILERPLATE = /^\s*(=== (RUN|PAUSE|CONT|NAME)\s|--- (PASS|FAIL|SKIP): )/;

function toResult(
  test: GoTest,
  pkg: GoPackage | undefined,
  file: string,
  context: ParseContext,
): TestResult | undefined {
  const segments = test.name.split("/");
  const result: TestResult = { id: { runner: context.runner, file, segments }, status: "pass" };
  if (test.elapsed !== undefined) result.duration_ms = Math.round(test.elapsed * 1000);
  if (test.status === "pass" || test.status === "skip") {
    result.status = test.status;
    return result;
  }
  // A parallel test still waiting when the binary ended (a panic elsewhere, a timeout) never
  // ran a line: go-cmp's TestDiff left 248 paused cases beside the one that panicked, and each
  // read as a failure with nothing of its own to say.
  if (test.status === "paused") return undefined;
  // A test with no verdict was cut short: a panic or timeout ended the whole test binary.
  if (test.status === "running" && pkg?.status !== "fail") return undefined;
  result.status = "fail";
  const own = test.output.filter((line) => !BOILERPLATE.test(line)).join("");
  const failure = inFolder(
    (test.status === "running" ? `${own}${pkg?.output.join("") ?? ""}` : own).trimEnd(),
    file,
  );
  if (failure !== "") result.failure = failure;
  result.failure_kind = failureKindOf(failure);
  return result;
}

/**
 * Go writes a test's log lines as `sort_test.go:17: …`, a file of the package's folder: written
 * from the project's root (`cmp/internal/value/sort_test.go:17: …`) they name a file the agent
 * can open, as a FAIL line's `cmp/internal/value::TestSortKeys` alone does not.
 */
function inFolder(failure: string, folder: string): string {
  if (folder === "" || folder === ".") return failure;
  return failure.replace(/^(\s*)([\w.-]+\.go:\d+:)/gm, `$1${folder}/$2`);
}

function failureKindOf(failure: string): FailureKind {
  if (/panic: test timed out/.test(failure)) return "timeout";
  if (/^panic: /m.test(failure)) return "crash";
  return "assertion";
}

function packageErrors(
  state: RunState,
  dirOf: (pkg: string) => string,
  context: ParseContext,
): FileError[] {
  const errors: FileError[] = [];
  for (const [name, pkg] of state.packages) {
    if (pkg.buildFailed) {
      const said = pkg.output.filter((line) => /\[(build|setup) failed\]/.test(line));
      const message = (pkg.buildOutput.length > 0 ? pkg.buildOutput : said).join("").trim();
      const located = /^(?:\.\/)?([^\s:#][^\s:]*\.go):\d+(?::\d+)?: /m.exec(message)?.[1];
      errors.push({
        file: located === undefined ? dirOf(name) : toProjectFile(located, context),
        message: message === "" ? `FAIL ${name} [build failed]` : message,
        kind: "collection",
      });
      continue;
    }
    const failedTests = [...state.tests.values()].some(
      (test) => test.pkg === name && test.status !== "pass",
    );
    if (pkg.status === "fail" && !failedTests) {
      // The binary failed with no failing test: TestMain exited, or an init() panicked.
      errors.push({
        file: dirOf(name),
        message: pkg.output.join("").trim() || `FAIL ${name}`,
        kind: "crash",
      });
    }
  }
  return errors;
}

function packageDirs(
  packages: readonly string[],
  context: ParseContext,
  modulePath: string | undefined,
): (pkg: string) => string {
  const root = modulePath ?? commonPrefix(packages.filter((pkg) => !pkg.startsWith(".")));
  return (pkg) => {
    let rel = pkg;
    if (pkg === root) rel = "";
    else if (root !== "" && pkg.startsWith(`${root}/`)) rel = pkg.slice(root.length + 1);
    else if (pkg.startsWith("./")) rel = pkg.slice(2);
    return rel === "" ? context.packageDir : toProjectFile(rel, context);
  };
}

/** The longest path prefix (whole `/` segments) shared by all import paths. */
function commonPrefix(paths: readonly string[]): string {
  const [first, ...rest] = paths.map((path) => path.split("/"));
  if (first === undefined) return "";
  let length = first.length;
  for (const parts of rest) {
    let same = 0;
    while (same < length && same < parts.length && parts[same] === first[same]) same += 1;
    length = same;
  }
  return first.slice(0, length).join("/");
}
