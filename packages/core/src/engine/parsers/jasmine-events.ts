import * as z from "zod/mini";
import {
  toProjectFile,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
} from "../results.ts";
import { crashed, parseJsonLine } from "./_shared.ts";

const MARK = "tailtest-jasmine ";

const Failure = z.object({
  message: z.optional(z.string()),
  stack: z.optional(z.string()),
  filename: z.optional(z.string()),
});
const EventSchema = z.union([
  z.object({
    event: z.literal("spec"),
    file: z.optional(z.string()),
    path: z.array(z.string()),
    status: z.string(),
    duration: z.optional(z.nullable(z.number())),
    failures: z.array(Failure),
  }),
  z.object({
    event: z.literal("suite"),
    file: z.optional(z.string()),
    path: z.array(z.string()),
    failures: z.array(Failure),
  }),
  z.object({
    event: z.literal("done"),
    status: z.optional(z.string()),
    incomplete: z.optional(z.nullable(z.string())),
    failures: z.array(Failure),
  }),
]);

const STATUS: Readonly<Record<string, TestResult["status"]>> = {
  passed: "pass",
  failed: "fail",
  pending: "skip",
  excluded: "skip",
};

/**
 * Reads the lines `JASMINE_REPORTER_SOURCE` wrote among the run's standard output: a spec per
 * line, keyed by its file and describe path; a suite's `beforeAll`/`afterAll` failure and the
 * run's own errors (a spec file that did not load, `fdescribe` left in) become file errors.
 * A run with none of those lines (jasmine stopped before its reporter loaded) is a crash.
 */
export function parseJasmineEvents(text: string, context: ParseContext): ParsedRun {
  const tests: TestResult[] = [];
  const errors: FileError[] = [];
  let done = false;
  let marked = false;
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith(MARK)) continue;
    marked = true;
    const parsed = EventSchema.safeParse(parseJsonLine(line.slice(MARK.length)));
    if (!parsed.success) continue;
    const event = parsed.data;
    if (event.event === "spec") tests.push(specResult(event, context));
    else if (event.event === "suite")
      errors.push({
        ...(event.file === undefined ? {} : { file: toProjectFile(event.file, context) }),
        message: `${event.path.join(" > ")}: ${failureText(event.failures)}`,
        kind: "crash",
      });
    else {
      done = true;
      errors.push(...event.failures.map((failure) => runError(failure, context)));
    }
  }
  if (!marked) return notReported(text, context);
  if (!done && tests.length === 0 && errors.length === 0)
    return crashed("jasmine's report ended before any spec");
  return { tests, errors };
}

type Event = z.infer<typeof EventSchema>;
type FailureItem = z.infer<typeof Failure>;

function failureText(failures: readonly FailureItem[]): string {
  return failures
    .map((failure) => [failure.message, failure.stack].filter(Boolean).join("\n"))
    .join("\n\n")
    .trim();
}

function specResult(event: Extract<Event, { event: "spec" }>, context: ParseContext): TestResult {
  const status = STATUS[event.status] ?? "skip";
  return {
    id: {
      runner: context.runner,
      file: event.file === undefined ? "" : toProjectFile(event.file, context),
      segments: event.path,
    },
    status,
    ...(event.duration == null ? {} : { duration_ms: Math.round(event.duration) }),
    ...(status === "fail"
      ? { failure: failureText(event.failures), failure_kind: "assertion" as const }
      : {}),
  };
}

/** An error of the whole run (a spec file that did not load, an unhandled rejection). */
function runError(failure: FailureItem, context: ParseContext): FileError {
  const file = failure.filename ?? loadedFile(failure.stack ?? failure.message ?? "", context);
  return {
    ...(file === undefined ? {} : { file: toProjectFile(file, context) }),
    message: failureText([failure]),
    kind: /load|import|require|Cannot find|SyntaxError/i.test(failure.message ?? "")
      ? "collection"
      : "crash",
  };
}

/**
 * jasmine stopped before its reporter wrote anything: a spec file (or a helper) that does not
 * load ends the run with its stack. The file is the run's own test file the text names, else
 * the first file of the package in it.
 */
function notReported(text: string, context: ParseContext): ParsedRun {
  const message = text.trim().split("\n").slice(0, 20).join("\n");
  if (message === "") return crashed("jasmine wrote no report");
  const named = (context.files ?? []).find((file) => text.includes(file));
  const file = named ?? loadedFile(text, context);
  return {
    tests: [],
    errors: [
      {
        ...(file === undefined ? {} : { file: named ?? toProjectFile(file, context) }),
        message,
        kind: "collection",
      },
    ],
  };
}

/** The first file of the package a load error's text names (`…/spec/broken.spec.js:3`). */
function loadedFile(text: string, context: ParseContext): string | undefined {
  const abs = context.packageAbs.replace(/\\/g, "/").replace(/\/$/, "");
  return [...text.matchAll(/(?:file:\/\/)?(\/[^\s():'"]+\.[cm]?[jt]sx?)/g)]
    .map((match) => match[1] ?? "")
    .find((path) => abs !== "" && path.startsWith(`${abs}/`) && !path.includes("/node_modules/"));
}
