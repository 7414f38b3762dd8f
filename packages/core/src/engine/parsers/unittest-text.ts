import {
  toProjectFile,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestResult,
  type TestStatus,
} from "../results.ts";
import { crashed, stripAnsi } from "./_shared.ts";

/**
 * Reads `python -m unittest -v` output (unittest writes it to stderr). Each test is one line,
 * `test_x (tests.test_calc.TestCalc.test_x) ... ok` (Python 3.11+) or
 * `test_x (tests.test_calc.TestCalc) ... ok` (older); a class a function builds is
 * `tests.test_calc.make.<locals>.TestCalc`. A docstring puts the verdict on the next line. The `FAIL:` / `ERROR:` blocks after the run hold the tracebacks. The file is the dotted
 * module as a path (`tests.test_calc` → `tests/test_calc.py`), relative to where unittest ran. A
 * module that failed to import shows up as a `unittest.loader._FailedTest`: a collection error.
 * A doctest a test module adds through `load_tests` (`DocTestSuite`) is `name (package.module)`
 * with a `Doctest: package.module.name` line: its dotted name is the source module holding the
 * example, so it is counted against the test file whose suite ran it (the one whose tests come
 * before it, else after it, else the only file the run was given).
 */
export function parseUnittestText(text: string, context: ParseContext): ParsedRun {
  try {
    return readRun(stripAnsi(text), context);
  } catch (error) {
    return crashed(`could not read unittest output: ${String(error)}`);
  }
}

/** `name (qualified.name)`, then an optional subtest's params `(a=1)`, then what follows. */
const HEADER = /^(\s*)(\S+) \(([\w.<>]+)\)((?: \(.*\))?)(.*)$/;
const VERDICT = /^(ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)$/;
const BLOCK_START = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (\S+) \(([\w.<>]+)\)/;
const LATE_VERDICT =
  /(?:^| \.\.\. )(ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)$/;
const RULE = /^(={20,}|-{20,})$/;
const RAN = /^Ran \d+ tests? in /;
const FIXTURES = new Set(["setUpClass", "tearDownClass", "setUpModule", "tearDownModule"]);

interface Ident {
  key: string;
  module: string;
  className: string;
  name: string;
  /** A doctest's full dotted name (`package.module.Class.name`). */
  doctest?: string;
  /** The key a copy of a namesake test shares with its namesakes (`copyOf`). */
  shared?: string;
}

const DOCTEST = /^Doctest: ([\w.]+)/;

interface RunState {
  tests: Map<string, TestResult>;
  loadFailures: Map<string, string>;
  /** The test whose verdict is still to come (after its docstring, output or subtests). */
  waiting: Ident | undefined;
  context: ParseContext;
  /** The test file of the last ordinary test read: the suite a doctest after it belongs to. */
  lastFile: string | undefined;
  /** Doctests read before any ordinary test: they belong to the next test file. */
  orphans: TestResult[];
  /**
   * The keys of each run of a test a function's class holds (`make.<locals>.TestX.test_y`, one
   * class per table of cases, every one named alike), by its shared key, in the order they ran.
   */
  copies: Map<string, string[]>;
  /**
   * The copy behind each `FAIL`, `ERROR` and `unexpected success` verdict of such a test (a
   * subtest's too), by its shared key and the verdict, in the order they came.
   */
  verdicts: Map<string, string[]>;
}

function readRun(text: string, context: ParseContext): ParsedRun {
  const lines = text.split(/\r?\n/);
  const state: RunState = {
    tests: new Map(),
    loadFailures: new Map(),
    waiting: undefined,
    context,
    lastFile: undefined,
    orphans: [],
    copies: new Map(),
    verdicts: new Map(),
  };
  let index = 0;
  for (; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (/^={20,}$/.test(line) || RAN.test(line)) break;
    readResultLine(state, line, lines[index + 1] ?? "");
  }
  // Doctests no ordinary test came before (or none came at all): the only file given, else
  // the source module holding the example.
  const only = context.files?.length === 1 ? context.files[0] : undefined;
  for (const test of state.orphans) if (only !== undefined) test.id.file = only;
  readBlocks(lines.slice(index), state, context);
  numberCopies(state);
  const tests = [...state.tests.values()];
  const errors = [...state.loadFailures.entries()].map(([key, message]) =>
    loadError(key, message, context),
  );
  if (tests.length === 0 && errors.length === 0 && !lines.some((line) => RAN.test(line))) {
    return crashed("no unittest results in the output");
  }
  return { tests, errors };
}

function readResultLine(state: RunState, line: string, next: string): void {
  const header = HEADER.exec(line);
  const named =
    header?.[2] !== undefined && header[3] !== undefined
      ? identify(header[2], header[3], next)
      : undefined;
  const ident = named === undefined ? undefined : copyOf(state, named, (header?.[4] ?? "") !== "");
  if (header === null || ident === undefined) {
    // A docstring line or the test's own printing pushes the verdict to a later line.
    const late = LATE_VERDICT.exec(line.trim())?.[1];
    if (state.waiting !== undefined && late !== undefined) {
      settle(state, state.waiting, late, false);
      state.waiting = undefined;
    }
    return;
  }
  const subtest = (header[4] ?? "") !== "";
  const verdict = /^ \.\.\. ?(.*)$/.exec(header[5] ?? "")?.[1]?.trim() ?? "";
  if (!subtest) {
    placeTest(state, ident, registerTest(state.tests, ident, state.context));
    state.waiting = ident;
  }
  if (VERDICT.test(verdict)) {
    settle(state, ident, verdict, subtest);
    if (!subtest) state.waiting = undefined;
  }
}

/** A doctest goes to the test file around it; an ordinary test is the file the next ones join. */
function placeTest(state: RunState, ident: Ident, test: TestResult | undefined): void {
  if (test === undefined) return;
  if (ident.doctest !== undefined) {
    // The dotted name is the source module: the suite that ran it is the test file around it.
    if (state.lastFile !== undefined) test.id.file = state.lastFile;
    else state.orphans.push(test);
    return;
  }
  state.lastFile = test.id.file;
  for (const orphan of state.orphans.splice(0)) orphan.id.file = test.id.file;
}

/** Whether a test is in a class a function builds: every class it builds is named alike. */
function isLocal(ident: Ident): boolean {
  return ident.className.includes("<locals>");
}

/**
 * A run of a test in a class a function builds, told from the runs of its namesakes: each test
 * line is a copy of its own (a subtest's line is the latest copy's), so 52 tables of cases
 * built by one function count as 52 tests, not one.
 */
function copyOf(state: RunState, ident: Ident, subtest: boolean): Ident {
  if (!isLocal(ident) || FIXTURES.has(ident.name)) return ident;
  const copies = state.copies.get(ident.key) ?? [];
  if (subtest) {
    const last = copies.at(-1);
    return last === undefined ? ident : { ...ident, key: last, shared: ident.key };
  }
  const key = `${ident.key}\u0000${copies.length + 1}`;
  copies.push(key);
  state.copies.set(ident.key, copies);
  return { ...ident, key, shared: ident.key };
}

/**
 * The copy a `FAIL:` or `ERROR:` block after the run is about: unittest lists its errors, then
 * its failures, each in the order they happened (a failing subtest's among them), so the n-th
 * block of a kind is the n-th verdict of that kind.
 */
function blockCopy(state: RunState, ident: Ident, kind: string, taken: Map<string, number>): Ident {
  if (!isLocal(ident)) return ident;
  const at = `${ident.key}\u0000${kind}`;
  const seen = taken.get(at) ?? 0;
  taken.set(at, seen + 1);
  const key = state.verdicts.get(at)?.[seen];
  return key === undefined ? ident : { ...ident, key };
}

/** The block title unittest gives a verdict (`FAIL`, `ERROR`, `UNEXPECTED SUCCESS`), if any. */
function blockKind(verdict: string): string | undefined {
  if (verdict === "FAIL" || verdict === "ERROR") return verdict;
  return verdict === "unexpected success" ? "UNEXPECTED SUCCESS" : undefined;
}

/** Notes which copy of a namesake test a verdict with a block after the run belongs to. */
function noteVerdict(state: RunState, ident: Ident, verdict: string): void {
  const kind = blockKind(verdict);
  if (kind === undefined || ident.shared === undefined) return;
  const at = `${ident.shared}\u0000${kind}`;
  state.verdicts.set(at, [...(state.verdicts.get(at) ?? []), ident.key]);
}

/** Copies of a namesake test numbered in the order they ran (`test_parse[2]`). */
function numberCopies(state: RunState): void {
  for (const copies of state.copies.values()) {
    if (copies.length < 2) continue;
    for (const [at, key] of copies.entries()) {
      const test = state.tests.get(key);
      const last = test?.id.segments.length ?? 0;
      if (test === undefined || last === 0) continue;
      test.id.segments = [
        ...test.id.segments.slice(0, -1),
        `${test.id.segments[last - 1]}[${at + 1}]`,
      ];
    }
  }
}

function settle(state: RunState, ident: Ident, verdict: string, subtest: boolean): void {
  if (FIXTURES.has(ident.name) || isFailedImport(ident)) {
    state.loadFailures.set(ident.key, "");
    return;
  }
  noteVerdict(state, ident, verdict);
  const test = testFor(state.tests, ident, state.context);
  const status = statusOf(verdict);
  // A failing subtest fails its test; a passing one says nothing about the others.
  if (subtest && status !== "fail") return;
  if (test.status === "fail" && !subtest) return;
  test.status = status;
  if (status === "fail") test.failure_kind = verdict === "ERROR" ? "crash" : "assertion";
}

function registerTest(
  tests: Map<string, TestResult>,
  ident: Ident,
  context: ParseContext,
): TestResult | undefined {
  if (FIXTURES.has(ident.name) || isFailedImport(ident)) return undefined;
  return testFor(tests, ident, context);
}

function testFor(tests: Map<string, TestResult>, ident: Ident, context: ParseContext): TestResult {
  let test = tests.get(ident.key);
  if (test === undefined) {
    const file = moduleFile(ident.module, context);
    // A doctest keeps its dotted name whole: `[Class, name]` would not select it again.
    const segments = ident.doctest === undefined ? [ident.className, ident.name] : [ident.doctest];
    test = { id: { runner: context.runner, file, segments }, status: "not_run" };
    tests.set(ident.key, test);
  }
  return test;
}

/**
 * `tests.test_calc.TestCalc.test_x` (3.11+) or `tests.test_calc.TestCalc` (older) for test
 * `test_x`; a doctest, `add (calc)` followed by `Doctest: calc.add`, by its dotted name.
 */
function identify(name: string, qualified: string, next = ""): Ident | undefined {
  const doctest = DOCTEST.exec(next)?.[1];
  if (doctest === `${qualified}.${name}`)
    return { key: `${qualified}\u0000${name}`, module: qualified, className: "", name, doctest };
  const owner = qualified.endsWith(`.${name}`)
    ? qualified.slice(0, qualified.length - name.length - 1)
    : qualified;
  // A class built by a function (`make_case.<locals>.TestDate`, one per table of cases): its
  // module is what comes before the function, its class the rest.
  const local = owner.indexOf(".<locals>.");
  const dot = local === -1 ? owner.lastIndexOf(".") : owner.lastIndexOf(".", local - 1);
  if (FIXTURES.has(name) && name.endsWith("Module"))
    return { key: `${owner}\u0000${name}`, module: owner, className: "", name };
  if (dot === -1) return undefined;
  return {
    key: `${owner}\u0000${name}`,
    module: owner.slice(0, dot),
    className: owner.slice(dot + 1),
    name,
  };
}

function isFailedImport(ident: Ident): boolean {
  return /^unittest\.loader\.(_FailedTest|ModuleImportFailure)/.test(
    `${ident.module}.${ident.className}`,
  );
}

function statusOf(verdict: string): TestStatus {
  if (verdict === "ok" || verdict === "expected failure") return "pass";
  if (verdict.startsWith("skipped")) return "skip";
  return "fail";
}

function readBlocks(lines: readonly string[], state: RunState, context: ParseContext): void {
  const { tests, loadFailures } = state;
  const taken = new Map<string, number>();
  let target: { ident: Ident; lines: string[] } | undefined;
  let inBody = false;
  const flush = (): void => {
    if (target === undefined) return;
    const { ident } = target;
    let body = target.lines
      .join("\n")
      .replace(/(\s*-{20,})+\s*$/, "")
      .trim();
    // A doctest's traceback is doctest's own machinery: its report (the example, what was
    // expected, what came) says what broke, so it comes first and where it is comes last.
    if (ident.doctest !== undefined) body = doctestReport(body);
    if (FIXTURES.has(ident.name) || isFailedImport(ident)) loadFailures.set(ident.key, body);
    else {
      const test = testFor(tests, ident, context);
      test.status = "fail";
      test.failure = test.failure === undefined ? body : `${test.failure}\n\n${body}`;
      test.failure_kind ??= "assertion";
    }
    target = undefined;
  };
  for (const [at, line] of lines.entries()) {
    const start = BLOCK_START.exec(line);
    const ident =
      start?.[2] !== undefined && start[3] !== undefined
        ? identify(start[2], start[3], lines[at + 1] ?? "")
        : undefined;
    if (ident !== undefined && start?.[1] !== undefined) {
      flush();
      target = { ident: blockCopy(state, ident, start[1], taken), lines: [] };
      inBody = false;
      continue;
    }
    if (RAN.test(line)) break;
    if (RULE.test(line)) {
      // The dashes under a block's title open its body and the next `=` rule closes it; dashes
      // inside a body are its own (a doctest's report has them), the last ones end the run.
      if (target !== undefined && !inBody && line.startsWith("-")) inBody = true;
      else if (target !== undefined && inBody && line.startsWith("-")) target.lines.push(line);
      else flush();
      continue;
    }
    if (target !== undefined && inBody) target.lines.push(line);
  }
  flush();
}

/**
 * A dotted module as a project file: its path from the folder unittest imported it from (the
 * package, or the top-level folder a discovery named, `-t src`).
 */
function moduleFile(module: string, context: ParseContext): string {
  const relative = `${module.replace(/\./g, "/")}.py`;
  const from = context.namesFrom;
  return toProjectFile(from === undefined ? relative : `${from}/${relative}`, context);
}

/** The module that failed to import: from "Failed to import test module: X", else from the test's name. */
function loadError(key: string, body: string, context: ParseContext): FileError {
  const [owner = "", name = ""] = key.split("\u0000");
  const named = /Failed to import test module: ([\w.]+)/.exec(body)?.[1];
  let module = named;
  if (module === undefined)
    module = owner.startsWith("unittest.loader") ? name : owner.replace(/\.[^.]+$/, "");
  if (FIXTURES.has(name) && name.endsWith("Module")) module = owner;
  const relative = `${module.replace(/\./g, "/")}.py`;
  // The traceback names the real file when unittest ran from another folder than the module root.
  const traced = [...body.matchAll(/File "([^"]+)", line \d+/g)]
    .map((match) => match[1] ?? "")
    .find((path) => path.replace(/\\/g, "/").endsWith(`/${relative}`));
  return {
    file: traced === undefined ? moduleFile(module, context) : toProjectFile(traced, context),
    message: body === "" ? `${name} (${owner}) failed` : body,
    kind: name.startsWith("tearDown") ? "crash" : "collection",
  };
}

/**
 * A failed doctest's report without doctest's traceback: `Failed example: … Expected: … Got: …`
 * (or `Exception raised: …`) per example, then each example's `File "calc.py", line 4, in …`.
 */
function doctestReport(body: string): string {
  const lines = body
    .replace(/^Traceback \(most recent call last\):\n[\s\S]*?\nAssertionError: /, "")
    .split("\n")
    .filter((line) => !RULE.test(line));
  if (lines[0]?.startsWith("Failed doctest test for "))
    lines.splice(0, /^\s+File "/.test(lines[1] ?? "") ? 2 : 1);
  const where = (line: string): boolean => /^File ".*", line \d+, in /.test(line);
  return [...lines.filter((line) => !where(line)), ...lines.filter(where)].join("\n").trim();
}
