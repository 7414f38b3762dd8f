import {
  toProjectFile,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
} from "../results.ts";
import { crashed, stripAnsi } from "./_shared.ts";

/**
 * Reads tape's TAP (version 13, flat): a test opens with a `# <name>` comment, its assertions
 * are the `ok`/`not ok` points after it, a failed one is followed by its YAML block (`at:` names
 * the test file's line), and `1..N` with `# tests`/`# pass`/`# fail` ends the run.
 *
 * Under tailtest's preload (`tape-preload.ts`) a test's name is
 * `tailtest:["<file>","<outer>",…,"<name>"]`, so each test has its file and its subtest path,
 * and any other `# …` line inside a test is a comment (`t.comment`). Without the preload every
 * comment is read as a test, owned by the run's one file or by where its failure points.
 * `# SKIP` and `# TODO` tests are skips (a failing TODO is not a failure, per TAP). A run that
 * ends without its plan line crashed inside its last test; one with no TAP at all crashed before
 * any test ran, which is the file its stack names failing to load.
 */
export function parseTapeTap(text: string, context: ParseContext): ParsedRun {
  try {
    return readTape(stripAnsi(text).split(/\r?\n/), context);
  } catch (error) {
    return crashed(`could not read tape's TAP output: ${String(error)}`);
  }
}

const NAMES = String.raw`\["(?:[^"\\]|\\.)*"(?:,"(?:[^"\\]|\\.)*")*\]`;
const MARKED = new RegExp(String.raw`^tailtest:(${NAMES})(.*)$`);
const MARKED_ANYWHERE = new RegExp(String.raw`tailtest:(${NAMES})`, "g");
const HEADER = /^# (?:(SKIP|TODO) )?(.*)$/;
const POINT = /^(not )?ok\b(?: +\d+)?(?: +-)? *(.*)$/;
const DIRECTIVE = /\s+#\s*(SKIP|TODO)\b.*$/i;
const PLAN = /^1\.\.\d+/;
const AT = /^\s*at:\s.*?\(?((?:file:\/\/)?\/[^():]+|[A-Za-z]:[\\/][^():]+):\d+:\d+\)?\s*$/;

interface OpenTest {
  file: string;
  segments: string[];
  marked: boolean;
  directive: "SKIP" | "TODO" | undefined;
  failures: string[];
  /** The files the failed assertions' `at:` lines name, first first. */
  at: string[];
  /** Lines that were no TAP, since the header: a crash's stack when the run stops here. */
  stray: string[];
}

/** What a run's TAP has given so far. */
interface Reading {
  tests: TestResult[];
  errors: FileError[];
  open: OpenTest | undefined;
  sawTap: boolean;
  planned: boolean;
}

function readTape(lines: readonly string[], context: ParseContext): ParsedRun {
  const reading: Reading = {
    tests: [],
    errors: [],
    open: undefined,
    sawTap: false,
    planned: false,
  };
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (/^TAP version \d+/.test(line)) reading.sawTap = true;
    else if (PLAN.test(line)) {
      reading.sawTap = true;
      reading.planned = true;
      close(reading, context, false);
    } else if (reading.planned) continue;
    else if (HEADER.test(line)) takeHeader(reading, line, context);
    else if (POINT.test(line)) index = takePoint(reading, lines, index, context);
    else reading.open?.stray.push(line);
  }
  close(reading, context, !reading.planned && reading.open !== undefined);
  if (!reading.sawTap) return notStarted(lines, context);
  return { tests: reading.tests, errors: reading.errors };
}

function close(reading: Reading, context: ParseContext, crashedHere: boolean): void {
  if (reading.open !== undefined) reading.tests.push(resultOf(reading.open, context, crashedHere));
  reading.open = undefined;
}

/** A `# …` line: a test's start, or a comment inside a test the preload named. */
function takeHeader(reading: Reading, line: string, context: ParseContext): void {
  const header = HEADER.exec(line);
  const name = header?.[2] ?? "";
  const marked = MARKED.exec(name);
  if (marked === null && reading.open?.marked === true) return;
  reading.sawTap = true;
  close(reading, context, false);
  reading.open = opened(marked, name, header?.[1] as "SKIP" | "TODO" | undefined, context);
}

/** An assertion and its YAML block; returns the index of the block's last line. */
function takePoint(
  reading: Reading,
  lines: readonly string[],
  index: number,
  context: ParseContext,
): number {
  const point = POINT.exec(lines[index] ?? "");
  reading.sawTap = true;
  const [yaml, next] = readYaml(lines, index + 1);
  const title = point?.[2] ?? "";
  const directive = DIRECTIVE.exec(title)?.[1];
  if (point?.[1] === undefined || directive !== undefined) return next - 1;
  const failure = unmark([`not ok - ${title}`, ...yaml].join("\n"));
  const open = reading.open;
  if (open === undefined) {
    reading.errors.push({ message: failure, kind: "crash" });
    return next - 1;
  }
  open.failures.push(failure);
  open.stray = [];
  for (const entry of yaml) {
    const at = AT.exec(entry)?.[1];
    if (at !== undefined) open.at.push(toProjectFile(at, context));
  }
  return next - 1;
}

function opened(
  marked: RegExpExecArray | null,
  name: string,
  directive: "SKIP" | "TODO" | undefined,
  context: ParseContext,
): OpenTest {
  const base = { directive, failures: [], at: [], stray: [] };
  if (marked === null) return { ...base, file: "", segments: [name.trim()], marked: false };
  const [file = "", ...segments] = JSON.parse(marked[1] ?? "[]") as string[];
  return {
    ...base,
    file: file === "" ? "" : toProjectFile(file, context),
    segments: segments.length > 0 ? segments : ["(anonymous)"],
    marked: true,
  };
}

/** The YAML block after a failed point: from `---` to `...`, both indented. */
function readYaml(lines: readonly string[], from: number): [string[], number] {
  const first = lines[from] ?? "";
  if (first.trim() !== "---" || !/^\s/.test(first)) return [[], from];
  const body: string[] = [];
  for (let index = from + 1; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (line.trim() === "..." && /^\s/.test(line)) return [body, index + 1];
    if (!/^\s/.test(line) && line !== "") return [body, index];
    body.push(line.replace(/^ {4}/, ""));
  }
  return [body, lines.length];
}

function resultOf(open: OpenTest, context: ParseContext, crashedHere: boolean): TestResult {
  const given = context.files ?? [];
  const file =
    open.file !== ""
      ? open.file
      : (open.at.find((at) => given.includes(at)) ??
        open.at[0] ??
        (given.length === 1 ? (given[0] ?? "") : ""));
  const id = { runner: context.runner, file, segments: open.segments };
  if (open.directive !== undefined) return { id, status: "skip" };
  if (crashedHere) {
    const stack = open.stray.join("\n").trim();
    return {
      id,
      status: "fail",
      failure: [...open.failures, stack || "the run stopped inside this test"].join("\n"),
      failure_kind: "crash",
    };
  }
  if (open.failures.length === 0) return { id, status: "pass" };
  return { id, status: "fail", failure: open.failures.join("\n"), failure_kind: "assertion" };
}

/** Output with no TAP: tape stopped before its first test, most often a file that threw. */
function notStarted(lines: readonly string[], context: ParseContext): ParsedRun {
  const text = lines.join("\n").trim();
  if (text === "") return crashed("tape wrote nothing");
  const given = context.files ?? [];
  let file: string | undefined;
  for (const line of lines) {
    const path = /\(?((?:file:\/\/)?\/[^():\s]+):\d+(?::\d+)?\)?/.exec(line)?.[1];
    if (path === undefined || /[\\/]node_modules[\\/]|^node:/.test(path)) continue;
    const candidate = toProjectFile(path, context);
    if (given.includes(candidate)) {
      file = candidate;
      break;
    }
    file ??= candidate;
  }
  return {
    tests: [],
    errors: [
      file === undefined
        ? { message: text, kind: "crash" }
        : { file, message: text, kind: "collection" },
    ],
  };
}

/** A failure message with tailtest's test names put back as the names the tests were given. */
function unmark(text: string): string {
  return text.replace(MARKED_ANYWHERE, (whole: string, names: string) => {
    try {
      return (JSON.parse(names) as string[]).slice(1).join(" > ") || whole;
    } catch {
      return whole;
    }
  });
}
