import {
  toProjectFile,
  type FailureKind,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
  type TestStatus,
} from "../results.ts";
import { crashed, isRecord } from "./_shared.ts";

/**
 * Reads the Jest-format JSON report that both vitest (`--reporter=json --outputFile=…`) and
 * jest (`--json --outputFile=… --testLocationInResults`) write. A file that failed without a
 * single failing test (a missing import, a syntax error, a crashing `beforeAll`) has no
 * per-test row, so it becomes a file-level "collection" error. A file vitest loaded that declares
 * no test at all is listed in `empty` instead: no error of its own.
 */
export function parseJestJson(text: string, context: ParseContext): ParsedRun {
  try {
    const report = extractJsonObject(text);
    if (!isRecord(report) || !Array.isArray(report["testResults"])) {
      return crashed(
        "no Jest-format JSON report (an object with testResults[]) in the runner output",
      );
    }
    const tests: TestResult[] = [];
    const errors: FileError[] = [];
    const empty: string[] = [];
    for (const fileResult of report["testResults"]) {
      if (!isRecord(fileResult)) continue;
      readFileResult(fileResult, context, tests, errors, empty);
    }
    const runError = report["runExecError"];
    if (isRecord(runError) && typeof runError["message"] === "string") {
      errors.push({ message: runError["message"], kind: "crash" });
    }
    return empty.length > 0 ? { tests, errors, empty } : { tests, errors };
  } catch (error) {
    return crashed(`could not read the Jest-format JSON report: ${String(error)}`);
  }
}

function readFileResult(
  fileResult: Record<string, unknown>,
  context: ParseContext,
  tests: TestResult[],
  errors: FileError[],
  empty: string[],
): void {
  const name = fileResult["name"];
  const file = typeof name === "string" ? toProjectFile(name, context) : undefined;
  const assertions = Array.isArray(fileResult["assertionResults"])
    ? fileResult["assertionResults"]
    : [];
  let anyFailed = false;
  for (const assertion of assertions) {
    if (!isRecord(assertion) || file === undefined) continue;
    const result = readAssertion(assertion, file, context);
    if (result === undefined) continue;
    if (result.status === "fail") anyFailed = true;
    tests.push(result);
  }
  if (fileResult["status"] === "failed" && !anyFailed) {
    const message = typeof fileResult["message"] === "string" ? fileResult["message"].trim() : "";
    // vitest loaded the file and it declared no test: a table of cases other specs import.
    if (file !== undefined && assertions.length === 0 && NO_SUITE.test(message)) {
      empty.push(file);
      return;
    }
    errors.push({
      ...(file === undefined ? {} : { file }),
      message: message === "" ? "the test file failed without a failing test" : message,
      kind: "collection",
    });
  }
}

/** vitest's file-level message for a test file that registered no test (jest says otherwise). */
const NO_SUITE = /^No test suite found in file /;

function readAssertion(
  assertion: Record<string, unknown>,
  file: string,
  context: ParseContext,
): TestResult | undefined {
  const title = assertion["title"];
  if (typeof title !== "string") return undefined;
  const ancestors = Array.isArray(assertion["ancestorTitles"])
    ? assertion["ancestorTitles"].filter((part): part is string => typeof part === "string")
    : [];
  const status = STATUS[String(assertion["status"])] ?? "not_run";
  const result: TestResult = {
    id: { runner: context.runner, file, segments: [...ancestors, title] },
    status,
  };
  const duration = assertion["duration"];
  if (typeof duration === "number" && Number.isFinite(duration) && duration >= 0)
    result.duration_ms = duration;
  if (status === "fail") {
    const messages = Array.isArray(assertion["failureMessages"])
      ? assertion["failureMessages"].filter((part): part is string => typeof part === "string")
      : [];
    const failure = messages.join("\n\n");
    if (failure !== "") result.failure = failure;
    result.failure_kind = failureKindOf(failure);
  }
  return result;
}

const STATUS: Readonly<Record<string, TestStatus>> = {
  passed: "pass",
  failed: "fail",
  skipped: "skip",
  pending: "skip",
  todo: "skip",
  disabled: "skip",
};

function failureKindOf(failure: string): FailureKind {
  return /Exceeded timeout of \d+ ?ms|Test timed out in \d+ ?ms/.test(failure)
    ? "timeout"
    : "assertion";
}

/**
 * Finds the JSON object in runner output that may carry other text around it (console output
 * printed to the same stream before or after the report). Returns undefined when there is none.
 */
export function extractJsonObject(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const whole = tryParse(trimmed);
  if (whole !== undefined) return whole;
  const end = text.lastIndexOf("}");
  if (end === -1) return undefined;
  // A report is pretty-printed or on one line; either way its first brace starts a line. The
  // attempts are capped so that a huge log full of braces cannot make this quadratic.
  const starts = [...text.matchAll(/^[ \t]*\{/gm)].map(
    (match) => match.index + match[0].length - 1,
  );
  for (const start of starts.slice(0, MAX_STARTS)) {
    let stop = end;
    for (let tries = 0; stop > start && tries < MAX_ENDS; tries += 1) {
      const parsed = tryParse(text.slice(start, stop + 1));
      if (parsed !== undefined) return parsed;
      stop = text.lastIndexOf("}", stop - 1);
    }
  }
  return undefined;
}

const MAX_STARTS = 200;
const MAX_ENDS = 20;

function tryParse(text: string): unknown {
  if (!text.startsWith("{")) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
