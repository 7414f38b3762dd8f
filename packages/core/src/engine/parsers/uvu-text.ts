import {
  toProjectFile,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
} from "../results.ts";
import { crashed, stripAnsi } from "./_shared.ts";

/**
 * Reads uvu's console report (uvu has no machine reporter). Per test file a line with its path
 * relative to the folder uvu was given, then one line per suite: its name, a mark per test in
 * order (`•` passed, `✘` failed) and `(passed / total)`; each failure follows its suite as a
 * block `FAIL  <suite>  "<test>"` with the assertion and stack; a `Total:` summary ends the run.
 * A header that is none of the given files (a whole-suite run) is read from the folder uvu was
 * given (`namesFrom`).
 *
 * uvu names only failing tests: a passing one is kept as its position in the suite (`#2`). A
 * file header is matched to the test files the run was given by its tail, since uvu prints it
 * relative to its folder argument. A run that stops before the summary (a test file that does not
 * load: uvu prints the stack and exits 1) is a collection error.
 */
export function parseUvuText(text: string, context: ParseContext): ParsedRun {
  try {
    return readRun(stripAnsi(text), context);
  } catch (error) {
    return crashed(`could not read uvu output: ${String(error)}`);
  }
}

const FILE_LINE = /^(\S[^\s]*\.[cm]?[jt]sx?)\s*$/;
const SUITE_LINE = /^\s*(.*?)\s*((?:[\u2022\u2718] ?)+)\s*\((\d+) \/ (\d+)\)\s*$/;
const FAIL_LINE = /^\s*FAIL\s+(?:(.*?)\s+)?"(.*)"\s*$/;
const TOTAL_LINE = /^\s*Total:\s+\d+/;

function fileOf(header: string, context: ParseContext): string {
  const given = (context.files ?? []).find(
    (file) => file === header || file.endsWith(`/${header}`),
  );
  if (given !== undefined) return given;
  const from = context.namesFrom;
  return toProjectFile(from === undefined ? header : `${from}/${header}`, context);
}

function readRun(text: string, context: ParseContext): ParsedRun {
  const lines = text.split(/\r?\n/);
  if (!lines.some((line) => TOTAL_LINE.test(line))) return notRun(text, context);
  const tests: TestResult[] = [];
  let file = (context.files ?? [])[0] ?? "";
  // The failing tests of the last suite line, waiting for their FAIL blocks in order.
  let pending: TestResult[] = [];
  let current: TestResult | undefined;
  let failure: string[] = [];
  const close = () => {
    if (current !== undefined) current.failure = failure.join("\n").trim();
    current = undefined;
    failure = [];
  };
  for (const line of lines) {
    const header = FILE_LINE.exec(line);
    const suiteLine = header === null ? SUITE_LINE.exec(line) : null;
    const fail = FAIL_LINE.exec(line);
    if (header?.[1] !== undefined) {
      close();
      file = fileOf(header[1], context);
    } else if (suiteLine !== null) {
      close();
      const suite = suiteLine[1] ?? "";
      const marks = (suiteLine[2] ?? "").replace(/\s/g, "");
      pending = [];
      [...marks].forEach((mark, index) => {
        const failed = mark === "\u2718";
        const result: TestResult = {
          id: {
            runner: context.runner,
            file,
            segments: [...(suite === "" ? [] : [suite]), `#${index + 1}`],
          },
          status: failed ? "fail" : "pass",
          ...(failed ? { failure_kind: "assertion" as const } : {}),
        };
        tests.push(result);
        if (failed) pending.push(result);
      });
    } else if (fail !== null) {
      close();
      current = pending.shift();
      if (current !== undefined) {
        const suite = fail[1] ?? "";
        current.id.segments = [...(suite === "" ? [] : [suite]), fail[2] ?? ""];
      }
    } else if (TOTAL_LINE.test(line)) {
      close();
    } else if (current !== undefined) {
      failure.push(line);
    }
  }
  close();
  return { tests, errors: [] };
}

/** uvu stopped before its summary: a test file (or a preloaded module) did not load. */
function notRun(text: string, context: ParseContext): ParsedRun {
  const message = text.trim().split("\n").slice(0, 20).join("\n");
  if (message === "") return crashed("no uvu results in the output");
  const abs = context.packageAbs.replace(/\\/g, "/").replace(/\/$/, "");
  const given = context.files ?? [];
  const named = given.find((file) => text.includes(file));
  // uvu imports every test file before it runs any, and a stack is cut at ten frames: an error
  // thrown deep in the code under test (a test calling it at its top level) may show no frame
  // of a test file. A frame of a source module is not the file that failed to load: it is taken
  // only in a whole-suite run and when under the folder uvu was given; a run of one file is that
  // file's; otherwise the error names no file (the run's files are the ones to re-run).
  const frame = [...text.matchAll(/((?:\/|file:\/\/)[^\s():]+\.[cm]?[jt]sx?):\d+/g)]
    .map((match) => match[1] ?? "")
    .filter((path) => abs !== "" && path.includes(`${abs}/`) && !path.includes("/node_modules/"))
    .map((path) => toProjectFile(path, context))
    .find((file) => given.length === 0 && underFolder(file, context));
  const file = named ?? frame ?? (given.length === 1 ? given[0] : undefined);
  const error: FileError = {
    ...(file === undefined ? {} : { file }),
    message,
    kind: "collection",
  };
  return { tests: [], errors: [error] };
}

/** Whether a project file lies in the folder uvu was given (`namesFrom`, else the package). */
function underFolder(file: string, context: ParseContext): boolean {
  const base = [context.packageDir, context.namesFrom ?? ""]
    .filter((part) => part !== "")
    .join("/");
  return base === "" || file.startsWith(`${base}/`);
}
