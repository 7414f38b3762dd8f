import {
  toProjectFile,
  type FailureKind,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
  type TestStatus,
} from "../results.ts";
import { crashed, parseJsonLine } from "./_shared.ts";

export { NODE_TEST_REPORTER_SOURCE } from "./node-test-reporter.ts";

interface NodeEvent {
  event: "pass" | "fail";
  type: "suite" | "test";
  file: string | undefined;
  name: string;
  nesting: number;
  duration_ms: number | undefined;
  skip: boolean;
  todo: boolean;
  error: NodeError | undefined;
}

interface NodeError {
  message?: string;
  cause?: string;
  code?: string;
  failureType?: string;
  stack?: string;
}

/** A finished node that still waits for its parent: itself (if a test) and its descendant tests. */
interface OpenNode {
  nesting: number;
  members: TestResult[];
}

/**
 * Turns the lines `NODE_TEST_REPORTER_SOURCE` wrote into results. Node reports a test when it
 * finishes, so children arrive before their parent: each suite or test claims the nodes reported
 * just before it one level deeper, and prefixes its name to their segments. Suites are not
 * tests; a test with subtests is (node can select it by name).
 */
export function parseNodeTestEvents(ndjson: string, context: ParseContext): ParsedRun {
  try {
    return readEvents(ndjson, context);
  } catch (error) {
    return crashed(`could not read the node test events: ${String(error)}`);
  }
}

function readEvents(ndjson: string, context: ParseContext): ParsedRun {
  const tests: TestResult[] = [];
  const errors: FileError[] = [];
  const stderr = new Map<string, string[]>();
  const open = new Map<string, OpenNode[]>();
  const fileFailures: NodeEvent[] = [];
  let recognised = 0;
  for (const line of ndjson.split("\n")) {
    const value = parseJsonLine(line);
    if (value === undefined) continue;
    if (value["event"] === "stderr") {
      recognised += 1;
      const key = typeof value["file"] === "string" ? value["file"] : "";
      const lines = stderr.get(key) ?? [];
      lines.push(typeof value["message"] === "string" ? value["message"] : "");
      stderr.set(key, lines);
      continue;
    }
    const event = toEvent(value);
    if (event === undefined) continue;
    recognised += 1;
    if (isFileFailure(event)) {
      fileFailures.push(event);
      continue;
    }
    const fileKey = event.file ?? "";
    const pending = open.get(fileKey) ?? [];
    const claimed = pending.filter((node) => node.nesting > event.nesting);
    const members = claimed.flatMap((node) => node.members);
    for (const member of members) member.id.segments.unshift(event.name);
    if (event.type === "suite") {
      const own = suiteError(event, context);
      if (own !== undefined) errors.push(own);
    } else {
      const result = toResult(event, context);
      tests.push(result);
      members.push(result);
    }
    open.set(fileKey, [
      ...pending.filter((node) => node.nesting <= event.nesting),
      { nesting: event.nesting, members },
    ]);
  }
  for (const event of fileFailures) errors.push(fileError(event, stderr, tests, context));
  if (recognised === 0)
    return crashed("no node test events (JSON lines from tailtest's reporter) in the output");
  return { tests, errors };
}

/** Node reports a test file that could not run as a failed top-level test named after the file. */
function isFileFailure(event: NodeEvent): boolean {
  return (
    event.event === "fail" &&
    event.nesting === 0 &&
    event.type === "test" &&
    event.name === event.file
  );
}

function toResult(event: NodeEvent, context: ParseContext): TestResult {
  const file = event.file === undefined ? context.packageDir : toProjectFile(event.file, context);
  const result: TestResult = {
    id: { runner: context.runner, file, segments: [event.name] },
    status: statusOf(event),
  };
  if (event.duration_ms !== undefined) result.duration_ms = event.duration_ms;
  if (result.status === "fail") {
    const failure = errorText(event.error);
    if (failure !== "") result.failure = failure;
    result.failure_kind = KIND_BY_FAILURE_TYPE[event.error?.failureType ?? ""] ?? "crash";
  }
  return result;
}

function statusOf(event: NodeEvent): TestStatus {
  // A todo test that fails does not fail the run: node treats it as not done yet.
  if (event.skip || event.todo) return "skip";
  if (event.event === "pass") return "pass";
  return event.error?.failureType === "cancelledByParent" ? "not_run" : "fail";
}

const KIND_BY_FAILURE_TYPE: Readonly<Record<string, FailureKind>> = {
  testCodeFailure: "assertion",
  subtestsFailed: "assertion",
  testTimeoutFailure: "timeout",
  hookFailed: "collection",
};

/** A suite that failed for a reason of its own (its body or a hook threw), not its tests'. */
function suiteError(event: NodeEvent, context: ParseContext): FileError | undefined {
  if (
    event.event !== "fail" ||
    event.error === undefined ||
    event.error.failureType === "subtestsFailed"
  ) {
    return undefined;
  }
  return {
    ...(event.file === undefined ? {} : { file: toProjectFile(event.file, context) }),
    message: `${event.name}: ${errorText(event.error)}`,
    kind: "collection",
  };
}

function fileError(
  event: NodeEvent,
  stderr: ReadonlyMap<string, readonly string[]>,
  tests: readonly TestResult[],
  context: ParseContext,
): FileError {
  const file = toProjectFile(event.name, context);
  const written = (stderr.get(event.name) ?? []).join("").trim();
  const message = written === "" ? errorText(event.error) : written;
  // A file that ran some tests and then exited badly did load; one that ran none did not.
  const ranTests = tests.some((test) => test.id.file === file);
  return {
    file,
    message: message === "" ? "the test file failed" : message,
    kind: ranTests ? "crash" : "collection",
  };
}

function errorText(error: NodeError | undefined): string {
  if (error === undefined) return "";
  return error.stack ?? error.cause ?? error.message ?? "";
}

function toEvent(value: Record<string, unknown>): NodeEvent | undefined {
  const kind = value["event"];
  const name = value["name"];
  const nesting = value["nesting"];
  if (
    (kind !== "pass" && kind !== "fail") ||
    typeof name !== "string" ||
    typeof nesting !== "number"
  ) {
    return undefined;
  }
  const duration = value["duration_ms"];
  const error = value["error"];
  return {
    event: kind,
    type: value["type"] === "suite" ? "suite" : "test",
    file: typeof value["file"] === "string" ? value["file"] : undefined,
    name,
    nesting,
    duration_ms:
      typeof duration === "number" && Number.isFinite(duration) && duration >= 0
        ? duration
        : undefined,
    skip: value["skip"] === true,
    todo: value["todo"] === true,
    error:
      typeof error === "object" && error !== null
        ? toError(error as Record<string, unknown>)
        : undefined,
  };
}

function toError(error: Record<string, unknown>): NodeError {
  const result: NodeError = {};
  for (const key of ["message", "cause", "code", "failureType", "stack"] as const) {
    const value = error[key];
    if (typeof value === "string") result[key] = value;
  }
  return result;
}
