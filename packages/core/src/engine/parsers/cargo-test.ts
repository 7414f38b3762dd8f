import {
  toProjectFile,
  type FailureKind,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
  type TestStatus,
} from "../results.ts";
import { crashed, stripAnsi } from "./_shared.ts";

/**
 * Reads plain `cargo test` output (stdout and stderr together; stable Rust has no JSON). Each
 * `Running unittests src/lib.rs (…)` / `Running tests/api.rs (…)` header names the file its
 * tests belong to; doc tests name their file themselves (`src/lib.rs - add (line 3)`). A
 * compile error stops cargo before any test runs: each `error[E…]` becomes a collection error
 * on the file its `-->` points at.
 */
export function parseLibtestText(text: string, context: ParseContext): ParsedRun {
  try {
    return readLibtest(stripAnsi(text), context);
  } catch (error) {
    return crashed(`could not read cargo test output: ${String(error)}`);
  }
}

const RUNNING = /^\s*Running (?:unittests )?(\S+) \(/;
const DOC_TESTS = /^\s*Doc-tests \S+/;
const TEST_LINE = /^test (.+?) \.\.\. (ok|FAILED|ignored\b.*|bench:.*)$/;
const FAILURE_HEADER = /^---- (.+?) stdout ----$/;
const SUMMARY = /^test result: /;
const PANICKED = /^thread '([^']+)'(?: \(\d+\))? panicked at /;
const KILLED = /process didn't exit successfully: .*\(signal: \d+, (SIG\w+)/;

function readLibtest(text: string, context: ParseContext): ParsedRun {
  const tests: TestResult[] = [];
  let file: string | undefined;
  let recognised = false;
  let byName = new Map<string, TestResult>();
  let failureOf: TestResult | undefined;
  let failureLines: string[] = [];
  const panics = new PanicWatch();
  const flush = (): void => {
    if (failureOf !== undefined) {
      const failure = failureLines.join("\n").trim();
      if (failure !== "") failureOf.failure = failure;
    }
    failureOf = undefined;
    failureLines = [];
  };
  for (const line of text.split(/\r?\n/)) {
    const running = RUNNING.exec(line);
    if (running?.[1] !== undefined || DOC_TESTS.test(line)) {
      flush();
      recognised = true;
      file = running?.[1] === undefined ? undefined : toProjectFile(running[1], context);
      byName = new Map();
      panics.clear();
      continue;
    }
    const killed = (signal: string, found: PanicMap) =>
      tests.push(...aborted(found, byName, signal, file, context));
    if (panics.read(line, failureOf === undefined, killed)) continue;
    const testLine = TEST_LINE.exec(line);
    if (testLine?.[1] !== undefined && testLine[2] !== undefined) {
      recognised = true;
      const result = libtestResult(testLine[1], testLine[2], file, context);
      tests.push(result);
      byName.set(testLine[1], result);
      continue;
    }
    const header = FAILURE_HEADER.exec(line);
    if (header?.[1] !== undefined) {
      flush();
      failureOf = byName.get(header[1]) ?? byName.get(`${header[1]} - should panic`);
      continue;
    }
    if (failureOf !== undefined && (line === "failures:" || SUMMARY.test(line))) flush();
    else if (failureOf !== undefined) failureLines.push(line);
  }
  flush();
  const errors = compileErrors(text, context);
  if (!recognised && errors.length === 0)
    return crashed("no cargo test results or compile errors in the output");
  return { tests, errors };
}

const PANIC_LINES = 8;

type PanicMap = ReadonlyMap<string, readonly string[]>;

/** The panics a test binary printed outside any failure report, each with its first lines. */
class PanicWatch {
  private panics = new Map<string, string[]>();
  private open: string[] | undefined;

  /**
   * Whether the line was the watch's (a panic opened outside a failure report, or the binary
   * killed by a signal, when `killed` gets the panics seen since its header).
   */
  read(line: string, outside: boolean, killed: (signal: string, found: PanicMap) => void): boolean {
    const signal = KILLED.exec(line)?.[1];
    if (signal !== undefined) {
      killed(signal, this.panics);
      this.clear();
      return true;
    }
    const panicked = outside ? PANICKED.exec(line) : null;
    if (panicked?.[1] !== undefined) {
      this.open = [line];
      this.panics.set(panicked[1], this.open);
      return true;
    }
    if (this.open === undefined) return false;
    if (line.trim() === "" || /^(stack backtrace:|note: |thread |test |\s+\d+: )/.test(line))
      this.open = undefined;
    else if (this.open.length < PANIC_LINES) this.open.push(line);
    return false;
  }

  clear(): void {
    this.panics = new Map();
    this.open = undefined;
  }
}

/**
 * The tests of a test binary killed by a signal before it reported them: a panic that cannot
 * unwind (a failed `unsafe` precondition check, a panic in a drop during a panic) aborts the
 * whole binary, so libtest prints no verdict at all. itoa's `get_unchecked` past the buffer,
 * after a wrong remainder, ended the Stop as "cargo exited 101 without running a test" instead
 * of red. Each thread that panicked there without a verdict is a failed test, with its message.
 */
function aborted(
  panics: PanicMap,
  byName: ReadonlyMap<string, TestResult>,
  signal: string,
  file: string | undefined,
  context: ParseContext,
): TestResult[] {
  return [...panics]
    .filter(([name]) => !byName.has(name) && name !== "main" && name !== "<unnamed>")
    .map(([name, lines]) => {
      const result = libtestResult(name, "FAILED", file, context);
      result.failure = `${lines.join("\n")}\n(the test binary was killed by ${signal}: this panic could not unwind)`;
      return result;
    });
}

function libtestResult(
  rawName: string,
  outcome: string,
  file: string | undefined,
  context: ParseContext,
): TestResult {
  const name = rawName.replace(/ - should panic$/, "");
  let testFile = file ?? context.packageDir;
  let path = name;
  // Doc tests: "<file> - <item path> (line N)", and they run under no "Running" header.
  const doc = /^(\S+\.rs) - (.+)$/.exec(name);
  if (doc?.[1] !== undefined && doc[2] !== undefined) {
    testFile = toProjectFile(doc[1], context);
    path = doc[2];
  }
  const status = libtestStatus(outcome);
  const result: TestResult = {
    id: { runner: context.runner, file: testFile, segments: path.split("::") },
    status,
  };
  if (status === "fail") result.failure_kind = "assertion";
  return result;
}

function libtestStatus(outcome: string): TestStatus {
  if (outcome === "FAILED") return "fail";
  return outcome.startsWith("ignored") ? "skip" : "pass";
}

/**
 * Compiler diagnostics: `error[E0308]: …` or `error: …` followed by ` --> file:line:col`.
 * Cargo's own `error: test failed, to rerun pass …` lines point at no source, so they are not
 * compile errors.
 */
export function compileErrors(text: string, context: ParseContext): FileError[] {
  const errors: FileError[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (!/^error(\[E\d+\])?: /.test(line)) continue;
    const block = [line];
    for (let next = index + 1; next < lines.length; next += 1) {
      const follow = lines[next] ?? "";
      if (follow.trim() === "" || /^(error|warning)(\[\w+\])?: /.test(follow)) break;
      block.push(follow);
    }
    const located = /^\s*--> (.+?):\d+:\d+\s*$/m.exec(block.join("\n"))?.[1];
    if (located === undefined && !line.startsWith("error[")) continue;
    errors.push({
      ...(located === undefined ? {} : { file: toProjectFile(located, context) }),
      message: block.join("\n"),
      kind: "collection",
    });
  }
  if (errors.length === 0) {
    const couldNot = lines.find((line) => /^error: could not compile /.test(line));
    if (couldNot !== undefined) errors.push({ message: couldNot, kind: "collection" });
  }
  return errors;
}

/**
 * Reads `cargo nextest run --no-fail-fast` human output: one status line per test
 * (`PASS [ 0.002s] calc tests::adds_two_numbers`), the captured output of failing tests (either
 * `--- STDOUT: <binary-id> <test> ---` blocks, or the newer indented `stdout ───` blocks under
 * the status line), and a summary that repeats the failures, which is not read twice.
 */
export function parseNextestText(text: string, context: ParseContext): ParsedRun {
  try {
    return readNextest(stripAnsi(text), context);
  } catch (error) {
    return crashed(`could not read cargo nextest output: ${String(error)}`);
  }
}

const STATUS_LINE =
  /^\s*(?:TRY \d+ )?([A-Z][A-Z-]*(?: \+ [A-Z-]+)?(?: \d+\/\d+)?) \[\s*>?\s*([\d.]+)s\]\s+(?:\([^)]*\)\s+)?(\S+)\s+(\S.*?)\s*$/;
const CLASSIC_BLOCK = /^--- (?:TRY \d+ )?(STDOUT|STDERR):\s+(\S+)\s+(.+?) ---$/;
// ─ written as \u2500: the hook bundles stay pure ASCII, which node reads without decoding.
const INDENTED_BLOCK = /^\s{2}(stdout|stderr) \u2500+$/;
const SEPARATOR = /^(\u2500{4,}|-{12,})$/;

interface NextestState {
  results: Map<string, TestResult>;
  order: string[];
  last: string | undefined;
  block: { key: string; stream: string; lines: string[]; indented: boolean } | undefined;
}

function readNextest(text: string, context: ParseContext): ParsedRun {
  const state: NextestState = { results: new Map(), order: [], last: undefined, block: undefined };
  for (const line of text.split(/\r?\n/)) {
    // The summary repeats the failures' status lines; they are not new verdicts.
    if (/^\s*Summary \[/.test(line)) break;
    readNextestLine(state, line, context);
  }
  closeBlock(state);
  const tests = state.order
    .map((key) => state.results.get(key))
    .filter((test): test is TestResult => test !== undefined);
  const errors = compileErrors(text, context);
  if (tests.length === 0 && errors.length === 0 && !/^\s*Starting \d+ tests?/m.test(text)) {
    return crashed("no cargo nextest results or compile errors in the output");
  }
  return { tests, errors };
}

function readNextestLine(state: NextestState, line: string, context: ParseContext): void {
  const status = STATUS_LINE.exec(line);
  if (status !== null) {
    closeBlock(state);
    readStatus(state, status, context);
    return;
  }
  const classic = CLASSIC_BLOCK.exec(line);
  if (classic?.[1] !== undefined && classic[2] !== undefined && classic[3] !== undefined) {
    closeBlock(state);
    const key = `${classic[2]} ${classic[3]}`;
    state.block = { key, stream: classic[1].toLowerCase(), lines: [], indented: false };
    return;
  }
  const indented = INDENTED_BLOCK.exec(line);
  if (indented?.[1] !== undefined && state.last !== undefined) {
    closeBlock(state);
    state.block = { key: state.last, stream: indented[1], lines: [], indented: true };
    return;
  }
  if (SEPARATOR.test(line.trim()) || /^\s*(Starting|Cancelling|Nextest run ID) /.test(line)) {
    closeBlock(state);
    return;
  }
  state.block?.lines.push(state.block.indented ? line.replace(/^ {4}/, "") : line);
}

function readStatus(state: NextestState, match: RegExpExecArray, context: ParseContext): void {
  const [, word = "", seconds = "", binaryId = "", name = ""] = match;
  const status = nextestStatus(word);
  if (status === undefined) return;
  const key = `${binaryId} ${name}`;
  const result: TestResult = {
    id: { runner: context.runner, file: binaryFile(binaryId, context), segments: name.split("::") },
    status,
  };
  const duration = Number(seconds);
  if (Number.isFinite(duration) && status !== "skip")
    result.duration_ms = Math.round(duration * 1000);
  if (status === "fail") result.failure_kind = nextestKind(word);
  // A retried test reports each try; its last verdict stands, the earlier output stays.
  const earlier = state.results.get(key);
  if (earlier?.failure !== undefined && status === "fail") result.failure = earlier.failure;
  if (earlier === undefined) state.order.push(key);
  state.results.set(key, result);
  state.last = key;
}

function nextestKind(word: string): FailureKind {
  if (word === "TIMEOUT") return "timeout";
  return word.startsWith("FAIL") ? "assertion" : "crash";
}

/** Progress words (SLOW, TERMINATING, RETRY, START) are not verdicts. */
function nextestStatus(word: string): TestStatus | undefined {
  if (word === "PASS" || word === "LEAK" || word.startsWith("FLAKY")) return "pass";
  if (word === "SKIP" || word === "IGNORED") return "skip";
  if (/^(FAIL|TIMEOUT|LEAK-FAIL|SIG[A-Z]+|ABORT|EXC-FAIL)/.test(word)) return "fail";
  return undefined;
}

function closeBlock(state: NextestState): void {
  const block = state.block;
  state.block = undefined;
  if (block === undefined) return;
  const result = state.results.get(block.key);
  const content = block.lines.join("\n").trim();
  if (result === undefined || result.status !== "fail" || content === "") return;
  if (result.failure === undefined) result.failure = content;
  // The panic message is on stderr; stdout is mostly libtest's own report, so it goes last.
  else if (block.stream === "stderr") result.failure = `${content}\n\n${result.failure}`;
  else result.failure = `${result.failure}\n\n${content}`;
}

/**
 * Nextest's binary id says which target a test is in: `calc` is the library (`src/lib.rs`),
 * `calc::api` the integration test `tests/api.rs`, `calc::bin/calc` a binary, and
 * `calc::bench/x` / `calc::example/x` benches and examples. Paths are relative to the package
 * nextest ran in; in a workspace the member's folder is not in the id.
 */
export function binaryFile(binaryId: string, context: ParseContext): string {
  const [crate = "", target] = binaryId.split("::", 2);
  if (target === undefined) return toProjectFile("src/lib.rs", context);
  const kinded = /^(bin|bench|example|test)\/(.+)$/.exec(target);
  if (kinded?.[1] === "bin") {
    return toProjectFile(
      kinded[2] === crate ? "src/main.rs" : `src/bin/${kinded[2] ?? ""}.rs`,
      context,
    );
  }
  if (kinded?.[1] === "bench") return toProjectFile(`benches/${kinded[2] ?? ""}.rs`, context);
  if (kinded?.[1] === "example") return toProjectFile(`examples/${kinded[2] ?? ""}.rs`, context);
  return toProjectFile(`tests/${kinded?.[2] ?? target}.rs`, context);
}
