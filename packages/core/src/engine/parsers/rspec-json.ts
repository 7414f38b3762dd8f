import {
  toProjectFile,
  type FailureKind,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
  type TestStatus,
} from "../results.ts";
import { extractJsonObject } from "./jest-json.ts";
import { crashed, isRecord } from "./_shared.ts";

/**
 * Reads `rspec --format json --out out.json`. An example's id is its group (the full description
 * minus its own description, so nested groups stay one segment, as `-e` matches them) and its
 * description. A spec file that fails to load runs no example at all; rspec says so in
 * `messages[]` ("An error occurred while loading ./spec/x_spec.rb"), which becomes a collection
 * error on that file.
 */
export function parseRspecJson(text: string, context: ParseContext): ParsedRun {
  try {
    const report = extractJsonObject(text);
    if (!isRecord(report) || !Array.isArray(report["examples"])) {
      return crashed("no RSpec JSON report (an object with examples[]) in the runner output");
    }
    const tests: TestResult[] = [];
    for (const example of report["examples"]) {
      if (!isRecord(example)) continue;
      const result = readExample(example, context);
      if (result !== undefined) tests.push(result);
    }
    return { tests, errors: readMessages(report, context) };
  } catch (error) {
    return crashed(`could not read RSpec's JSON report: ${String(error)}`);
  }
}

const STATUS: Readonly<Record<string, TestStatus>> = {
  passed: "pass",
  failed: "fail",
  pending: "skip",
};

function readExample(
  example: Record<string, unknown>,
  context: ParseContext,
): TestResult | undefined {
  const full =
    typeof example["full_description"] === "string" ? example["full_description"] : undefined;
  const own = typeof example["description"] === "string" ? example["description"] : undefined;
  const path = typeof example["file_path"] === "string" ? example["file_path"] : undefined;
  if (full === undefined || path === undefined) return undefined;
  const description = own === undefined || own === "" ? full : own;
  // RSpec joins "Calc" and ".add" without a space, so the group is whatever precedes the description.
  const group = full.endsWith(description)
    ? full.slice(0, full.length - description.length).trim()
    : "";
  const result: TestResult = {
    id: {
      runner: context.runner,
      file: toProjectFile(path, context),
      segments: group === "" ? [description] : [group, description],
    },
    status: STATUS[String(example["status"])] ?? "not_run",
  };
  const runTime = example["run_time"];
  if (
    typeof runTime === "number" &&
    Number.isFinite(runTime) &&
    runTime >= 0 &&
    result.status !== "skip"
  ) {
    result.duration_ms = Math.round(runTime * 1_000_000) / 1000;
  }
  if (result.status === "fail") {
    const exception = isRecord(example["exception"]) ? example["exception"] : {};
    const failure = exceptionText(exception);
    if (failure !== "") result.failure = failure;
    result.failure_kind = kindOf(exception);
  }
  return result;
}

/** RSpec's matcher failures are assertions; any other exception is the code under test raising. */
function kindOf(exception: Record<string, unknown>): FailureKind {
  const name = typeof exception["class"] === "string" ? exception["class"] : "";
  return name === "" ||
    /ExpectationNotMetError|Pending::PendingExampleFixedError|Mocks::MockExpectationError/.test(
      name,
    )
    ? "assertion"
    : "crash";
}

function exceptionText(exception: Record<string, unknown>): string {
  const name = typeof exception["class"] === "string" ? exception["class"] : "";
  const message = typeof exception["message"] === "string" ? exception["message"].trim() : "";
  const backtrace = Array.isArray(exception["backtrace"])
    ? exception["backtrace"].filter((line): line is string => typeof line === "string")
    : [];
  const head = name === "" ? message : `${name}: ${message}`;
  return [head, ...backtrace].join("\n").trim();
}

function readMessages(report: Record<string, unknown>, context: ParseContext): FileError[] {
  const errors: FileError[] = [];
  const messages = Array.isArray(report["messages"]) ? report["messages"] : [];
  for (const message of messages) {
    if (typeof message !== "string" || !message.includes("An error occurred")) continue;
    const loading = /An error occurred while loading (.+?\.rb)\b/.exec(message)?.[1];
    const afterSuite = /An error occurred in an? `after\(:(suite|context|all)\)` hook/.test(
      message,
    );
    errors.push({
      ...(loading === undefined ? {} : { file: toProjectFile(loading, context) }),
      message: message.trim(),
      kind: afterSuite ? "crash" : "collection",
    });
  }
  const summary = isRecord(report["summary"]) ? report["summary"] : {};
  const outside = summary["errors_outside_of_examples_count"];
  if (errors.length === 0 && typeof outside === "number" && outside > 0) {
    errors.push({
      message: `${outside} error(s) occurred outside of examples`,
      kind: "collection",
    });
  }
  return errors;
}
