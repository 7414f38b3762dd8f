import {
  toProjectFile,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
} from "../results.ts";
import { crashed, stripAnsi } from "./_shared.ts";

/**
 * Reads minitest's verbose output (`-v`): `CalcTest#test_adds = 0.00 s = .` per test (`.` pass,
 * `F` failure, `E` error, `S` skip), then numbered `Failure:` / `Error:` / `Skipped:` blocks.
 *
 * Minitest names classes, not files. A class's file comes from a block about one of its tests
 * (`[test/calc_test.rb:11]`, or the backtrace of an error), applied to all its tests in the run;
 * a class with no block gets the conventional path guessed from its name (`CalcTest` →
 * `test/calc_test.rb`, `Calc::EdgeCaseTest` → `test/calc/edge_case_test.rb`). A file that fails to
 * load (LoadError, SyntaxError) stops ruby before any test runs: a collection error.
 */
export function parseMinitestText(text: string, context: ParseContext): ParsedRun {
  try {
    return readRun(stripAnsi(text), context);
  } catch (error) {
    return crashed(`could not read minitest output: ${String(error)}`);
  }
}

const RESULT_LINE = /^(.+)#([^#]+) = (\d+(?:\.\d+)?) s = ([.FES])$/;
const BLOCK_HEADER = /^\s*\d+\) (Failure|Error|Skipped):$/;
const BLOCK_TEST = /^(.+)#([^#]+?)(?: \[(.+?):\d+\])?:$/;
const RUNS_LINE = /^\d+ runs, \d+ assertions, /;

interface Block {
  kind: "Failure" | "Error" | "Skipped";
  className: string;
  method: string;
  file: string | undefined;
  lines: string[];
}

/** What each progress mark means; a block's kind maps to the same marks. */
const MARKS: Readonly<Record<string, Pick<TestResult, "status" | "failure_kind">>> = {
  ".": { status: "pass" },
  S: { status: "skip" },
  F: { status: "fail", failure_kind: "assertion" },
  E: { status: "fail", failure_kind: "crash" },
};
const BLOCK_MARKS: Readonly<Record<Block["kind"], string>> = {
  Failure: "F",
  Error: "E",
  Skipped: "S",
};

function readRun(text: string, context: ParseContext): ParsedRun {
  const lines = text.split(/\r?\n/);
  const results = readResultLines(lines, context);
  const fileOfClass = new Map<string, string>();
  for (const block of readBlocks(lines, context)) {
    if (block.file !== undefined && !fileOfClass.has(block.className)) {
      fileOfClass.set(block.className, block.file);
    }
    const key = `${block.className}#${block.method}`;
    // Without -v there are no result lines; the blocks still tell what failed or was skipped.
    const result = results.get(key) ?? {
      id: { runner: context.runner, file: "", segments: [block.className, block.method] },
      ...(MARKS[BLOCK_MARKS[block.kind]] ?? { status: "fail" }),
    };
    if (block.kind !== "Skipped") result.failure = block.lines.join("\n").trim();
    results.set(key, result);
  }
  const tests = [...results.values()];
  for (const test of tests) {
    const className = test.id.segments[0] ?? "";
    test.id.file = fileOfClass.get(className) ?? toProjectFile(guessFile(className), context);
  }
  const errors = tests.length === 0 ? loadErrors(text, context) : [];
  if (tests.length === 0 && errors.length === 0 && !lines.some((line) => RUNS_LINE.test(line))) {
    return crashed("no minitest results in the output");
  }
  return { tests, errors };
}

function readResultLines(lines: readonly string[], context: ParseContext): Map<string, TestResult> {
  const results = new Map<string, TestResult>();
  for (const line of lines) {
    const match = RESULT_LINE.exec(line);
    const mark = MARKS[match?.[4] ?? ""];
    if (match?.[1] === undefined || match[2] === undefined || mark === undefined) continue;
    results.set(`${match[1]}#${match[2]}`, {
      id: { runner: context.runner, file: "", segments: [match[1], match[2]] },
      ...mark,
      duration_ms: Math.round(Number(match[3]) * 1000),
    });
  }
  return results;
}

function readBlocks(lines: readonly string[], context: ParseContext): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    const header = BLOCK_HEADER.exec(line);
    const test = header === null ? null : BLOCK_TEST.exec(lines[index + 1] ?? "");
    if (header?.[1] !== undefined && test?.[1] !== undefined && test[2] !== undefined) {
      current = {
        kind: header[1] as Block["kind"],
        className: test[1],
        method: test[2],
        file: test[3] === undefined ? undefined : toProjectFile(test[3], context),
        lines: [],
      };
      blocks.push(current);
      index += 1;
      continue;
    }
    if (RUNS_LINE.test(line)) current = undefined;
    current?.lines.push(line);
  }
  for (const block of blocks) {
    if (block.file !== undefined) continue;
    const frame = block.lines.map(testFileFrame).find((path) => path !== undefined);
    if (frame !== undefined) block.file = toProjectFile(frame, context);
  }
  return blocks;
}

/** A backtrace line in a test file (`/abs/test/more_test.rb:7:in 'test_x'`). */
function testFileFrame(line: string): string | undefined {
  const path = /^\s*(?:from )?([^\s<>:]+\.rb):\d+:in /.exec(line)?.[1];
  return path !== undefined && /(^|\/)test\/|_test\.rb$|\/test_[^/]*\.rb$/.test(path)
    ? path
    : undefined;
}

/** `Calc::EdgeCaseTest` → `test/calc/edge_case_test.rb`, the conventional place for it. */
export function guessFile(className: string): string {
  const parts = className.split("::").map((part) =>
    part
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
      .replace(/([a-z\d])([A-Z])/g, "$1_$2")
      .toLowerCase(),
  );
  return `test/${parts.join("/")}.rb`;
}

/** Ruby stopped before minitest ran: the first project file in the message is the culprit. */
function loadErrors(text: string, context: ParseContext): FileError[] {
  if (
    !/LoadError|cannot load such file|SyntaxError|syntax error|NameError|NoMethodError/.test(text)
  )
    return [];
  const candidates = [...text.matchAll(/(?:^|[\s'`(])((?:\/|\.\/)?[\w./-]+\.rb):\d+/gm)]
    .map((match) => match[1] ?? "")
    .filter((path) => !/\/(gems|vendor_ruby|rubygems|lib\/ruby)\//.test(path));
  const abs = context.packageAbs.replace(/\\/g, "/").replace(/\/$/, "");
  const file = candidates.find((path) => abs !== "" && path.startsWith(`${abs}/`)) ?? candidates[0];
  const message = text.trim().split("\n").slice(0, 20).join("\n");
  return [
    {
      ...(file === undefined ? {} : { file: toProjectFile(file, context) }),
      message,
      kind: "collection",
    },
  ];
}
