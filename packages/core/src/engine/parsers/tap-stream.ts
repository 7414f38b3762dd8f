import {
  toProjectFile,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
} from "../results.ts";
import { crashed, stripAnsi } from "./_shared.ts";

/**
 * Reads TAP: version 13 as ava prints it (`--tap`: one flat line per test, titled
 * `file › test` when several files ran) and version 14 as node-tap prints it (`--reporter=tap`:
 * `# Subtest: <file>` holding indented subtests, whose own `ok` lines are assertions).
 *
 * A test is a point that closes a subtest with no subtests inside it, or, in flat TAP, any
 * point. Its failure is its YAML block and those of its failed assertions. A top-level subtest
 * named after a file that reports no point at all and fails is a file that could not load.
 * Directives: `# SKIP` and `# TODO` are skips (a TODO that fails is not a failure, per TAP).
 *
 * Files: node-tap names the file in the top subtest. ava names it in the title only when
 * several files ran, relative to their common folder without the extension (`utils › parse ›
 * a test` for `test/utils/parse.js`); `context.files` (the files the run was given) resolves
 * that prefix, and a run of one file owns every title.
 */
export function parseTap(text: string, context: ParseContext): ParsedRun {
  try {
    return readTap(stripAnsi(text).split(/\r?\n/), context);
  } catch (error) {
    return crashed(`could not read TAP output: ${String(error)}`);
  }
}

const POINT = /^( *)(not )?ok\b(?: +\d+)?(?: +-)? *(.*)$/;
const SUBTEST = /^( *)# Subtest: (.*)$/;
const DIRECTIVE = /\s+#\s*(SKIP|TODO)\b.*$/i;
const TIME = /\s+#\s*time=(\d+(?:\.\d+)?)(ms|s)\s*$/;
const BAIL = /^\s*Bail out!\s*(.*)$/;
const AVA_FILE_FAILED = /^(\S+\.[cm]?[jt]sx?) exited with a non-zero exit code\b/;
const AVA_NO_TESTS = /^No tests found in (\S+?),/;
const AVA_UNCAUGHT = /^(?:(?:[A-Z]\w*)?Error\b|Uncaught exception|Unhandled rejection)/;

interface Frame {
  name: string;
  indent: number;
  /** Subtests closed inside this one. */
  children: number;
  /** Failed assertions seen directly inside, with their YAML. */
  failures: string[];
  points: number;
}

interface Point {
  indent: number;
  ok: boolean;
  name: string;
  directive: "SKIP" | "TODO" | undefined;
  durationMs: number | undefined;
  yaml: string[];
}

function readPoint(line: string): Point | undefined {
  const match = POINT.exec(line);
  if (match === null) return undefined;
  let name = match[3] ?? "";
  let durationMs: number | undefined;
  const time = TIME.exec(name);
  if (time !== null) {
    durationMs = Number(time[1]) * (time[2] === "s" ? 1000 : 1);
    name = name.slice(0, time.index);
  }
  const directive = DIRECTIVE.exec(name);
  if (directive !== null) name = name.slice(0, directive.index);
  return {
    indent: (match[1] ?? "").length,
    ok: match[2] === undefined,
    name: name.trim(),
    directive: directive === null ? undefined : (directive[1]?.toUpperCase() as "SKIP" | "TODO"),
    durationMs,
    yaml: [],
  };
}

/** The YAML block after a point: from `---` to `...`, indented under it. */
function readYaml(lines: readonly string[], from: number, indent: number): [string[], number] {
  const open = lines[from];
  if (open === undefined || open.trim() !== "---" || indentOf(open) < indent) return [[], from];
  const body: string[] = [];
  let index = from + 1;
  for (; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (line.trim() === "..." && indentOf(line) <= indentOf(open)) return [body, index + 1];
    body.push(line.slice(Math.min(indentOf(open), indentOf(line))));
  }
  return [body, index];
}

/** The YAML keys that say what was expected and what came, first in a failure's excerpt. */
const TELLING_KEYS = ["diff", "found", "wanted", "pattern", "doesNotWant", "expected", "actual"];

/**
 * A failed point's YAML as an excerpt reads it: node-tap writes `compare`, a multi-line `at`
 * and the stack before its `diff` (or `found`/`wanted`), so the first lines of a failure named
 * the operator and the line number and never the values. The telling keys come first, a diff
 * without its `---`/`+++`/`@@` headers, `at` on one line, `compare` dropped; the rest (stack,
 * source) follows in order.
 */
function diagnostic(yaml: readonly string[]): string[] {
  const blocks: string[][] = [];
  for (const line of yaml) {
    const last = blocks.at(-1);
    if (last === undefined || /^[\w$-]+:/.test(line)) blocks.push([line]);
    else last.push(line);
  }
  const keyOf = (block: readonly string[]): string => /^([\w$-]+):/.exec(block[0] ?? "")?.[1] ?? "";
  const telling = TELLING_KEYS.flatMap((key) => blocks.filter((block) => keyOf(block) === key));
  const rest = blocks.filter((block) => !TELLING_KEYS.includes(keyOf(block)));
  return [
    ...telling.map(tellingBlock),
    ...rest.filter((b) => keyOf(b) !== "compare").map(atLine),
  ].flat();
}

/** A `diff: |` block as `diff (- expected, + actual):` and its changed lines. */
function tellingBlock(block: readonly string[]): string[] {
  if (!/^diff: [|>]/.test(block[0] ?? "")) return [...block];
  const body = block.slice(1).filter((line) => !/^\s*(@@ .* @@|--- \S|\+\+\+ \S)/.test(line));
  const minus =
    /^\s*--- (\S+)/.exec(block.find((l) => /^\s*--- /.test(l)) ?? "")?.[1] ?? "expected";
  const plus =
    /^\s*\+\+\+ (\S+)/.exec(block.find((l) => /^\s*\+\+\+ /.test(l)) ?? "")?.[1] ?? "actual";
  return [`diff (- ${minus}, + ${plus}):`, ...body];
}

/** node-tap's `at:` mapping (`file`/`line`/`column`, or tap 18's `fileName`/…) as `at: f:l:c`. */
function atLine(block: readonly string[]): string[] {
  if ((block[0] ?? "").trim() !== "at:") return [...block];
  const field = (...names: string[]): string | undefined =>
    block
      .map((line) => /^\s+(\w+): (.+)$/.exec(line))
      .find((match) => match !== null && names.includes(match[1] ?? ""))?.[2];
  const file = field("file", "fileName");
  const line = field("line", "lineNumber");
  if (file === undefined || line === undefined) return [...block];
  const column = field("column", "columnNumber");
  return [`at: ${file}:${line}${column === undefined ? "" : `:${column}`}`];
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** What a run's TAP has given so far. */
interface Reading {
  tests: TestResult[];
  errors: FileError[];
  stack: Frame[];
  /** ava's uncaught errors, said before the line naming their file. */
  pending: string[];
}

function readTap(lines: readonly string[], context: ParseContext): ParsedRun {
  const reading: Reading = { tests: [], errors: [], stack: [], pending: [] };
  let sawTap = false;
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? "";
    index += 1;
    if (/^\s*(TAP version \d+|1\.\.\d+)/.test(line)) sawTap = true;
    const bail = BAIL.exec(line);
    const subtest = SUBTEST.exec(line);
    const point = bail === null && subtest === null ? readPoint(line) : undefined;
    if (bail !== null)
      reading.errors.push({ message: `bailed out: ${bail[1] ?? ""}`.trim(), kind: "crash" });
    else if (subtest !== null)
      reading.stack.push({
        name: (subtest[2] ?? "").trim(),
        indent: (subtest[1] ?? "").length,
        children: 0,
        failures: [],
        points: 0,
      });
    else if (point === undefined) continue;
    else {
      [point.yaml, index] = readYaml(lines, index, point.indent);
      takePoint(reading, point, context);
    }
    sawTap = true;
  }
  for (const message of reading.pending) reading.errors.push({ message, kind: "crash" });
  if (!sawTap) return crashed("no TAP in the output");
  return { tests: reading.tests, errors: reading.errors };
}

/**
 * Subtests whose end never came (the output was cut in the middle, or a file was killed inside
 * one): a point less indented than them, or beside them under another name, closes them. One
 * with failed assertions is still a red test; the others are dropped.
 */
function closeUnended(reading: Reading, point: Point, context: ParseContext): void {
  const { stack } = reading;
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const beside = top.indent === point.indent && top.name !== point.name;
    if (top.indent <= point.indent && !beside) return;
    stack.pop();
    const parent = stack.at(-1);
    if (parent !== undefined) parent.children += 1;
    if (top.children === 0 && top.failures.length > 0) {
      const unended: Point = { ...point, ok: false, directive: undefined, yaml: [] };
      const names = [...stack.map((frame) => frame.name), top.name];
      reading.tests.push(nestedTest(names, unended, context, top.failures));
    }
  }
}

/** One `ok`/`not ok` line: a subtest's end, a skipped subtest, an assertion, or a flat test. */
function takePoint(reading: Reading, point: Point, context: ParseContext): void {
  const { stack, tests } = reading;
  const before = stack.length;
  closeUnended(reading, point, context);
  const top = stack[stack.length - 1];
  if (top === undefined && stack.length < before && looksLikeFile(point.name)) {
    // A file's end whose `# Subtest:` line was cut: its tests were read (or cut) already.
    if (!point.ok) tests.push(nestedTest([point.name], point, context));
  } else if (top !== undefined && point.indent > top.indent && stack.length < before) {
    // The point closes a subtest whose `# Subtest:` line was cut: a test of its own.
    top.children += 1;
    tests.push(nestedTest([...stack.map((frame) => frame.name), point.name], point, context));
  } else if (top !== undefined && top.indent === point.indent && top.name === point.name) {
    stack.pop();
    closeSubtest(top, point, stack, tests, reading.errors, context);
  } else if (top !== undefined && point.indent > top.indent && point.directive !== undefined) {
    // A skipped or todo subtest has no `# Subtest:` header of its own: it is a test.
    top.children += 1;
    tests.push(nestedTest([...stack.map((frame) => frame.name), point.name], point, context));
  } else if (top !== undefined && point.indent > top.indent) {
    // An assertion inside a subtest: it says why the subtest failed.
    top.points += 1;
    if (!point.ok && point.directive === undefined)
      top.failures.push([`not ok - ${point.name}`, ...diagnostic(point.yaml)].join("\n"));
  } else takeFlatPoint(reading, point, context);
}

/** Flat TAP (ava): every point is a test, but for ava's own reports of a file that broke. */
function takeFlatPoint(reading: Reading, point: Point, context: ParseContext): void {
  const broken = AVA_FILE_FAILED.exec(point.name) ?? AVA_NO_TESTS.exec(point.name);
  if (broken !== null) {
    reading.errors.push({
      file: toProjectFile(broken[1] ?? "", context),
      message: [...reading.pending, point.name].join("\n"),
      kind: "collection",
    });
    reading.pending = [];
  } else if (!point.ok && AVA_UNCAUGHT.test(point.name)) {
    reading.pending.push([point.name, ...diagnostic(point.yaml)].join("\n"));
  } else reading.tests.push(flatTest(point, context));
}

function closeSubtest(
  frame: Frame,
  point: Point,
  stack: readonly Frame[],
  tests: TestResult[],
  errors: FileError[],
  context: ParseContext,
): void {
  const parent = stack[stack.length - 1];
  if (parent !== undefined) parent.children += 1;
  if (frame.children > 0) return;
  const names = [...stack.map((f) => f.name), frame.name];
  const fileLike = looksLikeFile(names[0] ?? "");
  if (fileLike && names.length === 1) {
    // A file with no subtest: it could not load, or it asserts at its top level only.
    if (frame.points === 0 && !point.ok && point.directive === undefined) {
      errors.push({
        file: toProjectFile(frame.name, context),
        message: fileFailure(frame, point),
        kind: "collection",
      });
      return;
    }
    if (frame.points === 0) return;
  }
  tests.push(nestedTest(names, point, context, frame.failures));
}

/** A test from its subtest names, outermost first: a file's name leads under node-tap. */
function nestedTest(
  names: readonly string[],
  point: Point,
  context: ParseContext,
  failures: readonly string[] = [],
): TestResult {
  const fileLike = looksLikeFile(names[0] ?? "");
  const file = fileLike ? toProjectFile(names[0] ?? "", context) : soleFile(context);
  const segments = fileLike && names.length > 1 ? names.slice(1) : [...names];
  return result(context, file, segments, point, failures);
}

/** Why a file reported no test: its failed assertions, else how its process ended. */
function fileFailure(frame: Frame, point: Point): string {
  if (frame.failures.length > 0) return frame.failures.join("\n");
  const exit = point.yaml.map((line) => /^exitCode: (\d+)/.exec(line.trim())?.[1]).find(Boolean);
  const signal = point.yaml.map((line) => /^signal: ([A-Z]+)/.exec(line.trim())?.[1]).find(Boolean);
  let how = "failed";
  if (signal !== undefined) how = `was killed by ${signal}`;
  else if (exit !== undefined) how = `exited ${exit}`;
  return `${frame.name} ${how} before running a test (its own output says why)`;
}

function flatTest(point: Point, context: ParseContext): TestResult {
  const parts = point.name.split(" \u203a ").map((part) => part.trim());
  const [file, segments] = fileOfTitle(parts, context);
  return result(context, file, segments.length > 0 ? segments : [point.name], point, []);
}

function result(
  context: ParseContext,
  file: string,
  segments: string[],
  point: Point,
  failures: readonly string[],
): TestResult {
  let status: TestResult["status"] = point.ok ? "pass" : "fail";
  if (point.directive !== undefined) status = "skip";
  const test: TestResult = { id: { runner: context.runner, file, segments }, status };
  if (point.durationMs !== undefined) test.duration_ms = Math.round(point.durationMs);
  if (status === "fail") {
    test.failure =
      [...failures, ...diagnostic(point.yaml)].join("\n").trim() || `${point.name} failed`;
    test.failure_kind = "assertion";
  }
  return test;
}

function looksLikeFile(name: string): boolean {
  return /\.[cm]?[jt]sx?$/.test(name) && !/\s/.test(name);
}

/** The one file a run was given, which owns titles that name none. */
function soleFile(context: ParseContext): string {
  const files = context.files ?? [];
  return files.length === 1 ? (files[0] ?? "") : "";
}

/** ava's `a › b › title`: the longest leading parts that name one of the run's files. */
function fileOfTitle(parts: readonly string[], context: ParseContext): [string, string[]] {
  const files = context.files ?? [];
  if (files.length <= 1) return [soleFile(context), [...parts]];
  const stems = files.map(avaStem);
  for (let take = parts.length - 1; take >= 1; take -= 1) {
    const prefix = parts.slice(0, take);
    const owners = files.filter((_, i) => endsWith(stems[i] ?? [], prefix));
    if (owners.length === 1) return [owners[0] ?? "", parts.slice(take)];
  }
  return ["", [...parts]];
}

/**
 * A file's parts as ava prefixes its titles: without `.spec`, `.test`, `test-` and the
 * extension, `__tests__` left out (`tests/parse/duration.test.ts` is `parse › duration`).
 */
function avaStem(file: string): string[] {
  return file
    .replace(/\.spec/, "")
    .replace(/\.test/, "")
    .replace(/test-/g, "")
    .replace(/\.[^./]+$/, "")
    .split("/")
    .filter((part) => part !== "__tests__");
}

function endsWith(stem: readonly string[], tail: readonly string[]): boolean {
  if (tail.length > stem.length) return false;
  return tail.every((part, i) => stem[stem.length - tail.length + i] === part);
}
