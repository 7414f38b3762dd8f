import {
  toProjectFile,
  type FailureKind,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
} from "../results.ts";
import { extractJsonObject } from "./jest-json.ts";
import { crashed, isRecord } from "./_shared.ts";

/**
 * Reads mocha's JSON reporter output (`--reporter json --reporter-option output=out.json`, or
 * the same JSON on stdout with console noise around it). Mocha writes no JSON at all when a
 * spec file fails to load: it prints "Exception during run: …" to stderr and exits, so when
 * there is no report this reads that text and names the file from it.
 */
export function parseMochaJson(text: string, context: ParseContext): ParsedRun {
  try {
    const report = extractJsonObject(text);
    if (!isRecord(report) || !Array.isArray(report["tests"])) return readLoadFailure(text, context);
    return readReport(report, context);
  } catch (error) {
    return crashed(`could not read mocha's JSON report: ${String(error)}`);
  }
}

interface MochaTest {
  title: string;
  fullTitle: string;
  file: string | undefined;
  duration: number | undefined;
  err: Record<string, unknown>;
}

function readReport(report: Record<string, unknown>, context: ParseContext): ParsedRun {
  const tests = listOf(report["tests"]);
  const pending = new Set(listOf(report["pending"]).map(keyOf));
  const failed = new Set(listOf(report["failures"]).map(keyOf));
  const seen = new Set<string>();
  const results: TestResult[] = [];
  for (const test of tests) {
    const key = keyOf(test);
    seen.add(key);
    results.push(readTest(test, pending.has(key), failed.has(key), context));
  }
  const errors: FileError[] = [];
  // A failing hook has no entry in tests[]: it only shows up in failures[].
  for (const failure of listOf(report["failures"])) {
    if (seen.has(keyOf(failure))) continue;
    errors.push({
      ...(failure.file === undefined ? {} : { file: toProjectFile(failure.file, context) }),
      message: `${failure.fullTitle}: ${errorText(failure.err)}`,
      kind: /^"before (all|each)" hook/.test(failure.title) ? "collection" : "crash",
    });
  }
  return { tests: results, errors };
}

function readTest(
  test: MochaTest,
  isPending: boolean,
  isFailed: boolean,
  context: ParseContext,
): TestResult {
  // Mocha's JSON keeps only the test's own title and the space-joined full title, not the suite
  // path, so every enclosing describe becomes one parent segment (what `--grep` matches anyway).
  const parent = test.fullTitle.endsWith(` ${test.title}`)
    ? test.fullTitle.slice(0, test.fullTitle.length - test.title.length - 1)
    : "";
  const file =
    test.file === undefined ? fileOfUnnamed(test, context) : toProjectFile(test.file, context);
  const segments = parent === "" ? [test.title] : [parent, test.title];
  const hasError = Object.keys(test.err).length > 0;
  const result: TestResult = { id: { runner: context.runner, file, segments }, status: "pass" };
  if (isFailed || hasError) {
    result.status = "fail";
    const failure = errorText(test.err);
    if (failure !== "") result.failure = failure;
    result.failure_kind = failureKindOf(failure);
  } else if (isPending) {
    result.status = "skip";
  }
  if (test.duration !== undefined && result.status !== "skip") result.duration_ms = test.duration;
  return result;
}

/**
 * The spec file of a test mocha's JSON does not name (mocha before 6 had no `file` field): the
 * only file the run was given, else, for a failing test, the frame of its stack in one of the
 * run's files or, with none given, the frame mocha calls a test's function from
 * (`Context.<anonymous>`). The package itself when nothing says.
 */
function fileOfUnnamed(test: MochaTest, context: ParseContext): string {
  const given = context.files ?? [];
  if (given.length === 1) return given[0] as string;
  const stack = typeof test.err["stack"] === "string" ? test.err["stack"] : "";
  const frames = stackFrames(stack, context);
  const found =
    given.length > 0
      ? frames.find((frame) => given.includes(frame.file))
      : frames.find((frame) => frame.test);
  return found?.file ?? context.packageDir;
}

/** The project files of a stack's frames, each marked when it is mocha calling a test. */
function stackFrames(stack: string, context: ParseContext): { file: string; test: boolean }[] {
  return [...stack.matchAll(STACK_FRAME)].map((frame) => ({
    file: toProjectFile(frame[2] as string, context),
    test: frame[1] === "Context.<anonymous>",
  }));
}

/** A stack frame: `at Context.<anonymous> (/p/test/a.js:3:9)`, `at /p/test/a.js:3:9`. */
const STACK_FRAME = /^\s*at (?:(\S.*?) \()?((?:file:\/\/)?[^\s()]+?):\d+:\d+\)?$/gm;

function failureKindOf(failure: string): FailureKind {
  if (/Timeout of \d+ms exceeded/.test(failure)) return "timeout";
  if (/Cannot find module|ERR_MODULE_NOT_FOUND|SyntaxError/.test(failure)) return "collection";
  return "assertion";
}

function errorText(err: Record<string, unknown>): string {
  const stack = typeof err["stack"] === "string" ? err["stack"] : "";
  const message = typeof err["message"] === "string" ? err["message"] : "";
  if (stack === "") return message;
  return message === "" || stack.includes(message.trim()) ? stack : `${message}\n${stack}`;
}

function listOf(value: unknown): MochaTest[] {
  if (!Array.isArray(value)) return [];
  const tests: MochaTest[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item["title"] !== "string") continue;
    const fullTitle = typeof item["fullTitle"] === "string" ? item["fullTitle"] : item["title"];
    const duration = item["duration"];
    tests.push({
      title: item["title"],
      fullTitle,
      file: typeof item["file"] === "string" ? item["file"] : undefined,
      duration:
        typeof duration === "number" && Number.isFinite(duration) && duration >= 0
          ? duration
          : undefined,
      err: isRecord(item["err"]) ? item["err"] : {},
    });
  }
  return tests;
}

function keyOf(test: MochaTest): string {
  return `${test.file ?? ""}\u0000${test.fullTitle}`;
}

/** What mocha prints when a spec file cannot even be loaded, so the run has no report. */
function readLoadFailure(text: string, context: ParseContext): ParsedRun {
  const at = text.indexOf("Exception during run:");
  // mocha before 8 lets an error thrown while a spec loads end the process with node's own
  // report: a stack through one of the run's spec files says which.
  const given = context.files ?? [];
  const spec = stackFrames(text, context).find((frame) => given.includes(frame.file))?.file;
  if (
    at === -1 &&
    spec === undefined &&
    !/Cannot find module|ERR_MODULE_NOT_FOUND|SyntaxError/.test(text)
  ) {
    return crashed("no mocha JSON report (an object with tests[]) in the runner output");
  }
  const message = (at === -1 ? text : text.slice(at + "Exception during run:".length)).trim();
  const named = loadFailureFile(message);
  const required = /^Require stack:|imported from /m.test(message);
  let file = named === undefined ? undefined : toProjectFile(named, context);
  if (spec !== undefined && at === -1 && !required) file = spec;
  return {
    tests: [],
    errors: [
      {
        ...(file === undefined ? {} : { file }),
        message,
        kind: "collection",
      },
    ],
  };
}

function loadFailureFile(message: string): string | undefined {
  // CommonJS: the first entry of the require stack is the spec file that did the require.
  const required = /^Require stack:\r?\n- (.+)$/m.exec(message)?.[1];
  if (required !== undefined) return required.trim();
  // ESM: "Cannot find module '…' imported from <spec file>".
  const imported = /imported from (\S+)/.exec(message)?.[1];
  if (imported !== undefined) return imported;
  // ts-node's type errors: "<file>(<line>,<column>): error TS2339: …".
  const typed = /^(\S+?\.[cm]?tsx?)\(\d+,\d+\): error TS\d+/m.exec(message)?.[1];
  if (typed !== undefined) return typed;
  // node's require() of an ES module that another import is still loading.
  const esm = /Cannot require\(\) ES Module (\S+?\.[cm]?[jt]sx?) /.exec(message)?.[1];
  if (esm !== undefined) return esm;
  // A syntax error starts with "<file>:<line>", the line node could not parse.
  const located = /^(\S+?\.[cm]?[jt]sx?):\d+\s*$/m.exec(message)?.[1];
  if (located !== undefined) return located;
  const frame = /\((\/[^():]+?\.[cm]?[jt]sx?):\d+:\d+\)/.exec(
    message
      .split("\n")
      .filter((line) => !line.includes("node_modules") && !line.includes("node:"))
      .join("\n"),
  )?.[1];
  return frame;
}
