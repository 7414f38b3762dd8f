import { describe, expect, it } from "vitest";
import type { RunPlan } from "./plan.ts";
import type { ParsedRun, TestResult } from "./results.ts";
import {
  answersRequest,
  causeLines,
  environmentProblem,
  overallStatus,
  renderFailureExcerpt,
  rootPaths,
  summarizeRun,
  type ProcessOutcome,
  type RunResult,
} from "./summarize.ts";

const plan = (runner: RunPlan["runner"]["id"], requested: RunPlan["requested"] = []): RunPlan => ({
  runner: { id: runner, languages: ["python"], package_dir: "", command: ["x"], evidence: "" },
  cwd: "",
  argv: ["x"],
  env: {},
  format: "junit",
  report: { kind: "file" },
  test_files: [],
  requested,
  sources: {},
});
const test = (name: string, status: TestResult["status"], failure?: string): TestResult => ({
  id: { runner: "pytest", file: "tests/test_a.py", segments: [name] },
  status,
  ...(failure === undefined ? {} : { failure }),
});
const exit = (exitCode: number | null, extra: Partial<ProcessOutcome> = {}): ProcessOutcome => ({
  exitCode,
  timedOut: false,
  durationMs: 12.4,
  output: "",
  ...extra,
});
const parsed = (tests: TestResult[], errors: ParsedRun["errors"] = []): ParsedRun => ({
  tests,
  errors,
});
const withEmpty = (run: ParsedRun, ...empty: string[]): ParsedRun => ({ ...run, empty });

describe("summarizeRun", () => {
  it.each([
    ["all passed", plan("pytest"), parsed([test("a", "pass")]), exit(0), "passed"],
    [
      "one failed",
      plan("pytest"),
      parsed([test("a", "pass"), test("b", "fail")]),
      exit(1),
      "failed",
    ],
    [
      "import error",
      plan("pytest"),
      parsed([], [{ file: "tests/test_a.py", message: "No module", kind: "collection" }]),
      exit(2),
      "error",
    ],
    [
      "load error beside a failure",
      plan("pytest"),
      parsed([test("b", "fail")], [{ file: "x", message: "m", kind: "collection" }]),
      exit(1),
      "error",
    ],
    ["pytest exit 5", plan("pytest"), parsed([]), exit(5), "no_tests"],
    [
      "pytest unknown node id",
      plan("pytest"),
      parsed([]),
      exit(4, { output: "ERROR: not found: tests/x.py::t" }),
      "no_tests",
    ],
    [
      "pytest usage error",
      plan("pytest"),
      parsed([]),
      exit(4, { output: "usage: pytest" }),
      "error",
    ],
    [
      "vitest all skipped, exit 0",
      plan("vitest"),
      parsed([test("a", "skip")]),
      exit(0),
      "no_tests",
    ],
    ["nothing ran but exit 1", plan("vitest"), parsed([]), exit(1), "error"],
    [
      "vitest exit 1 from a spec file with no test (test tables)",
      plan("vitest"),
      withEmpty(parsed([test("a", "pass")]), "src/cases.spec.ts"),
      exit(1),
      "passed",
    ],
    [
      "a spec file with no test beside a failure",
      plan("vitest"),
      withEmpty(parsed([test("a", "pass"), test("b", "fail")]), "src/cases.spec.ts"),
      exit(1),
      "failed",
    ],
    [
      "a spec file with no test beside an unhandled error",
      plan("vitest"),
      withEmpty(parsed([test("a", "pass")]), "src/cases.spec.ts"),
      exit(1, { output: "⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯\nTypeError: boom" }),
      "error",
    ],
    [
      "only a spec file with no test",
      plan("vitest"),
      withEmpty(parsed([]), "src/cases.spec.ts"),
      exit(1),
      "no_tests",
    ],
    [
      "green report, red exit (bun/deno hide load errors)",
      plan("bun"),
      parsed([test("a", "pass")]),
      exit(1),
      "error",
    ],
    [
      "timeout",
      plan("pytest"),
      parsed([test("a", "pass")]),
      exit(null, { timedOut: true }),
      "timeout",
    ],
    [
      "not installed",
      plan("pytest"),
      parsed([]),
      exit(null, { spawnError: "ENOENT" }),
      "env_error",
    ],
    [
      "killed mid-way",
      plan("pytest"),
      parsed([test("a", "pass")]),
      exit(null, { signal: "SIGKILL" }),
      "error",
    ],
  ] as const)("%s → %s", (_name, p, run, outcome, status) => {
    expect(summarizeRun(p, run, outcome).status).toBe(status);
  });

  it("a runner killed by a signal is named as such, not as one that could not start", () => {
    const result = summarizeRun(plan("pytest"), parsed([]), exit(null, { signal: "SIGKILL" }));
    expect(result.reason).toBe(
      "pytest was killed by SIGKILL before it finished (a test, or the system, ended it)",
    );
  });

  it("requested ids absent or only skipped are not_run; unrequested results are dropped", () => {
    const wanted = [
      { runner: "vitest" as const, file: "tests/test_a.py", segments: ["a"] },
      { runner: "vitest" as const, file: "tests/test_a.py", segments: ["gone"] },
    ];
    const result = summarizeRun(
      plan("vitest", wanted),
      parsed([test("a", "skip"), test("other", "pass")]),
      exit(0),
    );
    expect(result.status).toBe("no_tests");
    expect(result.tests.map((t) => [t.id.segments[0], t.status])).toEqual([
      ["a", "not_run"],
      ["gone", "not_run"],
    ]);
  });

  it("says why in one line", () => {
    expect(
      summarizeRun(plan("pytest"), parsed([]), exit(null, { spawnError: "ENOENT" })).reason,
    ).toBe("x could not start (ENOENT); is pytest installed?");
    expect(
      summarizeRun(plan("pytest"), parsed([test("a", "pass"), test("b", "fail")]), exit(1)).reason,
    ).toBe("1 of 2 tests failed");
  });
});

describe("overallStatus", () => {
  const r = (status: RunResult["status"]) => ({ status }) as RunResult;
  it.each([
    [[r("passed")], [], "passed"],
    [[r("passed"), r("failed")], [], "failed"],
    [[r("failed"), r("timeout")], [], "error"],
    [
      [r("passed")],
      [{ source: "a.py", expected_test: "tests/test_a.py", runner: "pytest" as const }],
      "failed",
    ],
    [[r("no_tests")], [], "no_tests"],
    [[], [], "no_tests"],
  ] as const)("%#", (results, missing, expected) => {
    expect(overallStatus(results as unknown as RunResult[], missing)).toBe(expected);
  });
});

describe("renderFailureExcerpt", () => {
  it("a run stopped at the timeout says which setting stopped it and what may hang", () => {
    const stopped = summarizeRun(plan("pytest"), parsed([]), {
      ...exit(null),
      timedOut: true,
      durationMs: 300_135,
    });
    const text = renderFailureExcerpt([stopped], []);
    expect(text).toBe(
      "TIMEOUT pytest in .: stopped at the test timeout (test_timeout_seconds) before it finished. A test may hang: an endless loop, an unclosed handle or server, a wait on a service.",
    );
  });

  it("a run stopped after pytest's faulthandler dump says where the test hung", () => {
    const output = [
      "collected 1 item",
      "",
      "tests/test_billing.py Timeout (0:00:55)!",
      "Thread 0x00007f075e471b80 (most recent call first):",
      '  File "/home/me/project/billing.py", line 2 in charge',
      '  File "/home/me/project/tests/test_billing.py", line 5 in test_charge',
      '  File "/usr/lib/python3/site-packages/_pytest/python.py", line 157 in pytest_pyfunc_call',
      '  File "<frozen runpy>", line 88 in _run_code',
    ].join("\n");
    const stopped = summarizeRun(plan("pytest"), parsed([]), {
      ...exit(null),
      timedOut: true,
      stoppedBy: "after 60 s, over 10× what its test files took in earlier runs (0.5 s)",
      output,
    });
    expect(stopped.reason).toBe(
      "pytest was stopped after 60 s, over 10× what its test files took in earlier runs (0.5 s)",
    );
    expect(
      renderFailureExcerpt([stopped], [], { replacePaths: rootPaths("/home/me/project") }),
    ).toBe(
      [
        "TIMEOUT pytest in .: stopped after 60 s, over 10× what its test files took in earlier runs (0.5 s) before it finished. A test hung; it was here (innermost first):",
        '  File "billing.py", line 2 in charge',
        '  File "tests/test_billing.py", line 5 in test_charge',
      ].join("\n"),
    );
  });

  it("a unittest traceback three frames deep keeps the test's frame, the innermost and the exception", () => {
    // jsonschema's suite tests fail inside its `_suite.py` helper and the validator.
    const traceback = [
      "Traceback (most recent call last):",
      '  File "/home/me/project/jsonschema/tests/_suite.py", line 234, in fn',
      "    self.validate(**kwargs)",
      '  File "/home/me/project/jsonschema/tests/_suite.py", line 265, in validate',
      "    validator.validate(instance=self.data)",
      '  File "/home/me/project/jsonschema/validators.py", line 450, in validate',
      "    raise error",
      "jsonschema.exceptions.ValidationError: 'a@b' is not a 'email'",
      "",
      "Failed validating 'format' in schema:",
      "    {'format': 'email'}",
    ].join("\n");
    const chained = [
      "Traceback (most recent call last):",
      '  File "/home/me/project/calc.py", line 3, in parse',
      "    return int(text)",
      "ValueError: invalid literal for int() with base 10: 'x'",
      "",
      "During handling of the above exception, another exception occurred:",
      "",
      "Traceback (most recent call last):",
      '  File "/home/me/project/tests/test_calc.py", line 9, in test_parse',
      "    self.assertEqual(calc.total(['x']), 0)",
      '  File "/home/me/project/calc.py", line 8, in total',
      "    return sum(parse(item) for item in items)",
      '  File "/home/me/project/calc.py", line 8, in <genexpr>',
      "    return sum(parse(item) for item in items)",
      '  File "/home/me/project/calc.py", line 5, in parse',
      "    raise CalcError(text)",
      "calc.CalcError: x",
    ].join("\n");
    const short = [
      "Traceback (most recent call last):",
      '  File "/home/me/project/tests/test_calc.py", line 5, in test_add',
      "    self.assertEqual(add(1, 2), 4)",
      "AssertionError: 3 != 4",
    ].join("\n");
    const red = summarizeRun(
      plan("unittest"),
      parsed(
        [traceback, chained, short].map((failure, index) => ({
          id: { runner: "unittest", file: "tests/test_x.py", segments: [`T`, `test_${index}`] },
          status: "fail" as const,
          failure,
        })),
      ),
      exit(1),
    );
    expect(renderFailureExcerpt([red], [], { replacePaths: rootPaths("/home/me/project") })).toBe(
      [
        "FAIL tests/test_x.py::T::test_0",
        '    File "jsonschema/tests/_suite.py", line 234, in fn',
        "      self.validate(**kwargs)",
        '    File "jsonschema/validators.py", line 450, in validate',
        "      raise error",
        "  jsonschema.exceptions.ValidationError: 'a@b' is not a 'email'",
        "  Failed validating 'format' in schema:",
        "FAIL tests/test_x.py::T::test_1",
        '    File "tests/test_calc.py", line 9, in test_parse',
        "      self.assertEqual(calc.total(['x']), 0)",
        '    File "calc.py", line 5, in parse',
        "      raise CalcError(text)",
        "  calc.CalcError: x",
        "FAIL tests/test_x.py::T::test_2",
        "  Traceback (most recent call last):",
        '    File "tests/test_calc.py", line 5, in test_add',
        "      self.assertEqual(add(1, 2), 4)",
        "  AssertionError: 3 != 4",
      ].join("\n"),
    );
  });

  it("pytest's report shows the line that failed, its E lines and where, not the test's first lines", () => {
    // junit.ts puts the exception's message first when the report says it only at the bottom.
    const assertion = [
      "assert 1.5 == 2",
      "def test_avg():",
      '        items = ["1", "2", "3"]',
      "        first = calc.parse(items[0])",
      "        assert first == 1",
      "        second = calc.parse(items[1])",
      "        assert second == 2",
      "        mean = calc.avg(items)",
      ">       assert mean == 2",
      "E       assert 1.5 == 2",
      "",
      "tests/test_calc.py:13: AssertionError",
    ].join("\n");
    const deep = [
      "ValueError: invalid literal for int() with base 10: 'x'",
      "def test_total_bad():",
      '        items = ["1", "2", "x"]',
      "        values = [1, 2]",
      "        assert values",
      ">       assert calc.total(items) == 3",
      "               ^^^^^^^^^^^^^^^^^",
      "",
      "tests/test_calc.py:22: ",
      "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ",
      "calc.py:6: in total",
      "    return sum(parse(item) for item in items)",
      "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ",
      "",
      "text = 'x'",
      "",
      "    def parse(text):",
      ">       return int(text)",
      "               ^^^^^^^^^",
      "E       ValueError: invalid literal for int() with base 10: 'x'",
      "",
      "calc.py:2: ValueError",
    ].join("\n");
    // A method's report opens with `self = <…>` (pyjwt's, the message put first).
    const method = [
      "jwt.exceptions.ExpiredSignatureError: Signature has expired",
      "self = <tests.test_api_jwt.TestJWT object>",
      "",
      "    def test_exp(self):",
      "        token = make()",
      ">       jwt.decode(token)",
      "",
      "E       jwt.exceptions.ExpiredSignatureError: Signature has expired",
      "",
      "jwt/api_jwt.py:508: ExpiredSignatureError",
    ].join("\n");
    const red = summarizeRun(
      plan("pytest"),
      parsed(
        [assertion, deep, method].map((failure, index) => ({
          id: { runner: "pytest", file: "tests/test_calc.py", segments: [`test_${index}`] },
          status: "fail" as const,
          failure,
        })),
      ),
      exit(1),
    );
    expect(renderFailureExcerpt([red], [])).toBe(
      [
        "FAIL tests/test_calc.py::test_0",
        "  >       assert mean == 2",
        "  E       assert 1.5 == 2",
        "  tests/test_calc.py:13: AssertionError",
        "FAIL tests/test_calc.py::test_1",
        "  >       assert calc.total(items) == 3",
        "  tests/test_calc.py:22:",
        "  >       return int(text)",
        "  E       ValueError: invalid literal for int() with base 10: 'x'",
        "  calc.py:2: ValueError",
        "FAIL tests/test_calc.py::test_2",
        "  >       jwt.decode(token)",
        "  E       jwt.exceptions.ExpiredSignatureError: Signature has expired",
        "  jwt/api_jwt.py:508: ExpiredSignatureError",
      ].join("\n"),
    );
  });

  it("a jest diff keeps its changed lines, so the frame that says where still fits", () => {
    const failure = [
      "Error: expect(received).toEqual(expected) // deep equality",
      "",
      "- Expected  - 1",
      "+ Received  + 1",
      "",
      "  Object {",
      '    "n": 2,',
      '-   "sum": 3,',
      '+   "sum": 4,',
      "  }",
      "    at Object.toEqual (/home/me/project/__tests__/calc.test.js:11:46)",
      "    at Promise.then.completed (/home/me/project/node_modules/jest-circus/build/utils.js:298:28)",
    ].join("\n");
    const red = summarizeRun(
      plan("jest"),
      parsed([
        {
          id: { runner: "jest", file: "__tests__/calc.test.js", segments: ["calc", "total"] },
          status: "fail",
          failure,
        },
      ]),
      exit(1),
    );
    expect(renderFailureExcerpt([red], [], { replacePaths: rootPaths("/home/me/project") })).toBe(
      [
        "FAIL __tests__/calc.test.js::calc::total",
        "  Error: expect(received).toEqual(expected) // deep equality",
        "  - Expected  - 1",
        "  + Received  + 1",
        '  -   "sum": 3,',
        '  +   "sum": 4,',
        "      at Object.toEqual (__tests__/calc.test.js:11:46)",
      ].join("\n"),
    );
  });

  it("names a Go test of the module's root package without an empty folder", () => {
    const red = summarizeRun(
      plan("go"),
      parsed([
        {
          id: { runner: "go", file: "", segments: ["TestMethods", "put"] },
          status: "fail",
          failure: "    mux_test.go:2580: wrong handler",
        },
      ]),
      exit(1),
    );
    const text = renderFailureExcerpt([red], []);
    expect(text).toContain("FAIL TestMethods::put");
    expect(text).not.toContain("::TestMethods");
  });

  it("shows two cases of a parametrised pytest test and counts the rest on one line", () => {
    // python-dotenv's test_list table: ten cases red for one bug filled the capped excerpt and
    // cut the failures of the other files out of it.
    const cases = ["None-a", "simple-a", "json-a", "shell-a", "export-a"].map((params) =>
      test(`test_list[${params}]`, "fail", `AssertionError: assert 'x=' == '${params}'`),
    );
    const red = summarizeRun(
      plan("pytest"),
      parsed([...cases, test("test_get", "fail", "assert None == 'b'"), test("test_ok", "pass")]),
      exit(1),
    );
    expect(renderFailureExcerpt([red], [])).toBe(
      [
        "FAIL tests/test_a.py::test_list[None-a]",
        "  AssertionError: assert 'x=' == 'None-a'",
        "FAIL tests/test_a.py::test_list[simple-a]",
        "  AssertionError: assert 'x=' == 'simple-a'",
        "FAIL tests/test_a.py::test_list[…]: 3 more of its cases fail, not shown",
        "FAIL tests/test_a.py::test_get",
        "  assert None == 'b'",
      ].join("\n"),
    );
  });

  it("a load error that names no file, in a run at the root, reads without a blank name", () => {
    const run = summarizeRun(
      plan("mocha"),
      parsed([], [{ message: "TypeError: boom", kind: "collection" }]),
      exit(1),
    );
    expect(renderFailureExcerpt([run], []).split("\n")[0]).toBe("ERROR (could not load)");
  });

  it("a crash's reason is its first line, and its trace is shown once", () => {
    // gorilla/mux with a seeded bug: an init() in a test file panicked, and the whole goroutine
    // trace (with the machine's paths) went into the one-line reason and again below it.
    const trace = [
      "panic: runtime error: slice bounds out of range [21:0]",
      "",
      "goroutine 1 [running]:",
      "github.com/gorilla/mux.newRouteRegexp(...)",
      "\t/proj/regexp.go:79 +0x1331",
    ].join("\n");
    const crashed = summarizeRun(
      plan("go"),
      parsed([], [{ kind: "crash", message: trace }]),
      exit(1),
    );
    expect(crashed.reason).toBe(
      "go exited 1: panic: runtime error: slice bounds out of range [21:0]",
    );
    const text = renderFailureExcerpt([crashed], [], { replacePaths: [["/proj/", ""]] });
    expect(text.split("regexp.go:79").length).toBe(2);
    expect(text).not.toContain("/proj/");
  });

  it("a Go panic's excerpt shows the project's frames, not the runtime's", () => {
    // go-cmp with a nil map written in cmp/internal/value: six lines of panic lines and
    // testing.go frames, and the frames naming the project's files were cut.
    const failure = [
      "panic: assignment to entry in nil map [recovered]",
      "\tpanic: assignment to entry in nil map",
      "",
      "goroutine 22 [running]:",
      "testing.tRunner.func1.2({0x508f00, 0x551ec0})",
      "\t/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e",
      "testing.tRunner.func1()",
      "\t/usr/lib/go-1.19/src/testing/testing.go:1399 +0x39f",
      "panic({0x508f00, 0x551ec0})",
      "\t/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212",
      "example.com/calc/sub.Lookup(...)",
      "\t/proj/sub/sub.go:5",
      "example.com/calc/sub.TestLookup.func2(0xc000083380?)",
      "\t/proj/sub/sub_test.go:16 +0x2e",
      "testing.tRunner(0xc0000836c0, 0x52f470)",
      "\t/usr/lib/go-1.19/src/testing/testing.go:1446 +0x10b",
      "created by testing.(*T).Run",
      "\t/usr/lib/go-1.19/src/testing/testing.go:1493 +0x35f",
    ].join("\n");
    const red = summarizeRun(
      plan("go"),
      parsed([
        {
          id: { runner: "go", file: "sub", segments: ["TestLookup", "nil_table"] },
          status: "fail",
          failure,
          failure_kind: "crash",
        },
      ]),
      exit(1),
    );
    expect(renderFailureExcerpt([red], [], { replacePaths: [["/proj/", ""]] })).toBe(
      [
        "FAIL sub::TestLookup::nil_table",
        "  panic: assignment to entry in nil map",
        "  example.com/calc/sub.Lookup(...)",
        "  \tsub/sub.go:5",
        "  example.com/calc/sub.TestLookup.func2(0xc000083380?)",
        "  \tsub/sub_test.go:16",
      ].join("\n"),
    );
  });

  it("a run that died outside any test says so, with what it said last", () => {
    const killed = summarizeRun(
      plan("pytest"),
      parsed([], [{ kind: "crash", message: "pytest wrote no report" }]),
      { ...exit(null, { signal: "SIGKILL" }), output: "collected 1 item\ntests/test_a.py " },
    );
    const text = renderFailureExcerpt([killed], []);
    expect(text).toContain("ERROR pytest: pytest was killed by SIGKILL");
    expect(text).toContain("pytest wrote no report");
    expect(text).toContain("collected 1 item");
  });

  it("a run that wrote no report says so, and the error that ended it, not its first lines", () => {
    // jest ran the tests, then a project reporter threw in onRunComplete before the report.
    const output = [
      "PASS Unit Tests __tests__/a.test.js",
      "  ✓ adds (3 ms)",
      "Test Suites: 1 passed, 1 total",
      "Tests:       1 passed, 1 total",
      'Ran all test suites within paths "__tests__/a.test.js".',
      "Error: EISDIR: illegal operation on a directory, open '/proj/junit.xml'",
      "    at Object.writeFileSync (node:fs:2380:20)",
      "    at processor (/proj/index.js:38:6)",
    ].join("\n");
    const broken = summarizeRun(
      plan("jest"),
      parsed([], [{ kind: "crash", message: "jest wrote no report" }]),
      { ...exit(1), output },
    );
    expect(broken.reason).toBe("jest exited 1: jest wrote no report");
    const text = renderFailureExcerpt([broken], [], { replacePaths: [["/proj/", ""]] });
    expect(text).toBe(
      "ERROR jest: jest exited 1: jest wrote no report\n  Error: EISDIR: illegal operation on a directory, open 'junit.xml'\n      at processor (index.js:38:6)",
    );
  });

  const failure = [
    "\u001b[31mAssertionError: expected 4 to be 5\u001b[0m",
    "    at /home/me/project/src/a.test.ts:3:7",
    "    at node:internal/process/task_queues:95:5",
    "    at /home/me/project/node_modules/vitest/dist/x.js:1:1",
    "    at new Promise (<anonymous>)",
    "took 12ms",
    "line 6",
    "line 7",
    "line 8",
    "line 9",
  ].join("\n");
  const result = summarizeRun(plan("vitest"), parsed([test("b", "fail", failure)]), exit(1));

  it("names a vitest 1 test without the file suite's empty name", () => {
    const vitest1: TestResult = {
      id: { runner: "vitest", file: "src/a.test.ts", segments: ["", "users", "GET /users/:id"] },
      status: "fail",
      failure: "expected 2 to deeply equal 1",
    };
    const run = summarizeRun(plan("vitest"), parsed([vitest1]), exit(1));
    expect(renderFailureExcerpt([run], [])).toBe(
      "FAIL src/a.test.ts::users::GET /users/:id\n  expected 2 to deeply equal 1",
    );
  });

  it("is short, deterministic and free of machine paths, colours and durations", () => {
    const text = renderFailureExcerpt(
      [result],
      [{ source: "billing.py", expected_test: "tests/test_billing.py", runner: "pytest" }],
      {
        replacePaths: [["/home/me/project/", ""]],
      },
    );
    expect(text).toBe(
      [
        "FAIL tests/test_a.py::b",
        "  AssertionError: expected 4 to be 5",
        "      at src/a.test.ts:3:7",
        "  took <time>",
        "  line 6",
        "  line 7",
        "  line 8",
        "MISSING billing.py: no test at tests/test_billing.py",
      ].join("\n"),
    );
  });

  it("keeps only the file name of absolute paths outside the project", () => {
    const outside = summarizeRun(
      plan("pytest"),
      parsed([
        test(
          "c",
          "fail",
          'File "/opt/python/3.11.7/lib/python3.11/unittest/case.py", line 3\nsee https://x.example/a/b',
        ),
      ]),
      exit(1),
    );
    expect(renderFailureExcerpt([outside], [])).toBe(
      ["FAIL tests/test_a.py::c", '  File "…/case.py", line 3', "  see https://x.example/a/b"].join(
        "\n",
      ),
    );
  });

  it("drops a dependency's frames even when node_modules lies outside the project", () => {
    // A hoisted or linked node_modules (a workspace root, a shared store) is outside the
    // project: its frames must go, not read as `…/test.js:268`, a project test's name.
    const supertest = summarizeRun(
      plan("mocha"),
      parsed([
        test(
          "d",
          "fail",
          [
            'Error: expected 200 "OK", got 404 "Not Found"',
            "    at Test._assertStatus (/srv/store/node_modules/supertest/lib/test.js:268:12)",
            "    at /srv/store/node_modules/.pnpm/supertest@3.4.2/node_modules/supertest/lib/test.js:128:5",
            "    at Context.<anonymous> (/home/me/project/blog/test.js:14:8)",
          ].join("\n"),
        ),
      ]),
      exit(1),
    );
    expect(
      renderFailureExcerpt([supertest], [], { replacePaths: [["/home/me/project/", ""]] }),
    ).toBe(
      [
        "FAIL tests/test_a.py::d",
        '  Error: expected 200 "OK", got 404 "Not Found"',
        "      at Context.<anonymous> (blog/test.js:14:8)",
      ].join("\n"),
    );
  });

  it("writes an ES module frame's file URL as the project's path", () => {
    const failed = summarizeRun(
      plan("node-test"),
      parsed([
        test(
          "fmt",
          "fail",
          [
            "AssertionError [ERR_ASSERTION]: '$1.0' == '$1.00'",
            "    at TestContext.<anonymous> (file:///home/me/project/frontend/test/fmt.test.js:4:28)",
            "    at /home/me/project/frontend/src/fmt.js:1:1",
          ].join("\n"),
        ),
      ]),
      exit(1),
    );
    const text = renderFailureExcerpt([failed], [], {
      replacePaths: rootPaths("/home/me/project"),
    });
    expect(text).toContain("at TestContext.<anonymous> (frontend/test/fmt.test.js:4:28)");
    expect(text).toContain("at frontend/src/fmt.js:1:1");
    expect(text).not.toMatch(/file:|home/);
  });

  it("shows a failed doctest from the example that failed, with what it expected and got", () => {
    // pytest's report of jaraco.classes' LeafClassesMeta: ten lines of the docstring first.
    const report = [
      "017     A metaclass for classes that keeps track of all of them that",
      "018     aren't base classes.",
      "019 ",
      "020     >>> Parent = LeafClassesMeta('MyParentClass', (), {})",
      "021     >>> Parent in Parent._leaf_classes",
      "022     True",
      "023     >>> Child = LeafClassesMeta('MyChildClass', (Parent,), {})",
      "024     >>> Child in Parent._leaf_classes",
      "025     True",
      "026     >>> Parent in Parent._leaf_classes",
      "Expected:",
      "    False",
      "Got:",
      "    True",
      "",
      "/proj/jaraco/classes/meta.py:26: DocTestFailure",
    ].join("\n");
    const doctest = summarizeRun(plan("pytest"), parsed([test("d", "fail", report)]), exit(1));
    expect(renderFailureExcerpt([doctest], [], { replacePaths: [["/proj/", ""]] })).toBe(
      [
        "FAIL tests/test_a.py::d",
        "  026     >>> Parent in Parent._leaf_classes",
        "  Expected:",
        "      False",
        "  Got:",
        "      True",
        "  jaraco/classes/meta.py:26: DocTestFailure",
      ].join("\n"),
    );
    // An example spread over continuation lines is kept whole.
    const multi = [
      "011     >>> class X:",
      "012     ...     pass",
      "013     >>> len(X.mro())",
      "014     ...",
      "UNEXPECTED EXCEPTION: NameError('len')",
    ].join("\n");
    const failed = summarizeRun(plan("pytest"), parsed([test("m", "fail", multi)]), exit(1));
    expect(renderFailureExcerpt([failed], [])).toBe(
      [
        "FAIL tests/test_a.py::m",
        "  013     >>> len(X.mro())",
        "  014     ...",
        "  UNEXPECTED EXCEPTION: NameError('len')",
      ].join("\n"),
    );
  });

  it("shows a doctest's unified diff by its changed lines, not the unchanged ones", () => {
    // python-tabulate's README run by --doctest-glob=README.md (REPORT_UDIFF): one row changed.
    const report = [
      "068 >>> table = [['Sun',696000],['Earth',6371]]",
      "069 >>> print(tabulate(table))",
      "Differences (unified diff with -expected +actual):",
      "    @@ -1,5 +1,5 @@",
      "     -----  ------",
      "     Sun    696000",
      "    -Earth    6371  5973.60",
      "    +Earth    6371  5973.6",
      "     Moon     1737",
      "     -----  ------",
      "",
      "/proj/README.md:69: DocTestFailure",
    ].join("\n");
    const doctest = summarizeRun(plan("pytest"), parsed([test("d", "fail", report)]), exit(1));
    expect(renderFailureExcerpt([doctest], [], { replacePaths: [["/proj/", ""]] })).toBe(
      [
        "FAIL tests/test_a.py::d",
        "  069 >>> print(tabulate(table))",
        "  Differences (unified diff with -expected +actual):",
        "      @@ -1,5 +1,5 @@",
        "      -Earth    6371  5973.60",
        "      +Earth    6371  5973.6",
        "  README.md:69: DocTestFailure",
      ].join("\n"),
    );
  });

  it("shows a failed doctest unittest ran from its failed example, past doctest's traceback", () => {
    const report = [
      "Traceback (most recent call last):",
      '  File "/usr/lib/python3.11/doctest.py", line 2241, in runTest',
      "    raise self.failureException(self.format_failure(new.getvalue()))",
      "AssertionError: Failed doctest test for calc.add",
      '  File "/proj/calc.py", line 1, in add',
      "",
      "----------------------------------------------------------------------",
      'File "/proj/calc.py", line 5, in calc.add',
      "Failed example:",
      "    add(1, 2)",
      "Expected:",
      "    4",
      "Got:",
      "    3",
    ].join("\n");
    const doctest = summarizeRun(plan("unittest"), parsed([test("add", "fail", report)]), exit(1));
    expect(renderFailureExcerpt([doctest], [], { replacePaths: [["/proj/", ""]] })).toBe(
      [
        "FAIL tests/test_a.py::add",
        "  Failed example:",
        "      add(1, 2)",
        "  Expected:",
        "      4",
        "  Got:",
        "      3",
      ].join("\n"),
    );
  });

  it("is capped", () => {
    const many = summarizeRun(
      plan("vitest"),
      parsed(Array.from({ length: 500 }, (_, i) => test(`t${i}`, "fail", "x".repeat(200)))),
      exit(1),
    );
    expect(renderFailureExcerpt([many], [], { maxChars: 2000 }).length).toBeLessThanOrEqual(2000);
  });
});

describe("causeLines: a load error keeps the line that says why", () => {
  // pytest's collection error for a syntax error two imports away (a real report's text).
  const collection = [
    "/opt/py/site-packages/_pytest/python.py:507: in importtestmodule",
    "    mod = import_path(",
    "/opt/py/site-packages/_pytest/pathlib.py:587: in import_path",
    "    importlib.import_module(module_name)",
    "<frozen importlib._bootstrap>:1204: in _gcd_import",
    "    ???",
    "tests/test_url.py:1: in <module>",
    "    from pkg.url import user",
    "src/pkg/__init__.py:2: in <module>",
    "    from .parse import parse_auth",
    'E     File "/proj/src/pkg/parse.py", line 1',
    "E       def parse_auth(s)",
    "E                        ^",
    "E   SyntaxError: expected ':'",
  ].join("\n");

  it("pytest: the E lines and the project's last frames, not pytest's internals", () => {
    const lines = causeLines(collection, 6, { replacePaths: [["/proj/", ""]] });
    expect(lines).toContain("E   SyntaxError: expected ':'");
    expect(lines).toContain('E     File "src/pkg/parse.py", line 1');
    expect(lines).toContain("src/pkg/__init__.py:2: in <module>");
    expect(lines).not.toContain("importtestmodule");
  });

  it("a missing module is named", () => {
    const text = [
      "…/__init__.py:126: in import_module",
      "    return _bootstrap._gcd_import(name[level:], package, level)",
      "tests/test_url.py:1: in <module>",
      "    from pkg.url import user",
      "E   ModuleNotFoundError: No module named 'missing_dep_xyz'",
    ].join("\n");
    expect(causeLines(text, 6, {})).toMatch(/No module named 'missing_dep_xyz'/);
  });

  it("node and rustc: Cannot find module, error[E…]", () => {
    expect(
      causeLines("node:internal/x\nError: Cannot find module './gone.js'\n  at a (b.js:1)", 3, {}),
    ).toContain("Cannot find module './gone.js'");
    expect(
      causeLines(
        "   Compiling x v0.1.0\nerror[E0308]: mismatched types\n --> src/lib.rs:3:5",
        3,
        {},
      ),
    ).toContain("error[E0308]: mismatched types");
  });

  it("a JavaScript stack: the project frame where it threw, not the runtime's", () => {
    // uvu's load error from a test calling the package at its top level (browserslist).
    const text = [
      "TypeError: Cannot read properties of null (reading 'split')",
      "    at parseLatest (/proj/index.js:104:25)",
      "    at /proj/index.js:91:14",
      "    at Array.filter (<anonymous>)",
      "    at Function.select (/proj/index.js:1134:10)",
    ].join("\n");
    expect(causeLines(text, 6, { replacePaths: [["/proj/", ""]] })).toBe(
      "  TypeError: Cannot read properties of null (reading 'split')\n      at parseLatest (index.js:104:25)",
    );
    expect(causeLines(text, 6, {})).not.toContain("at ");
  });

  it("with no cause line, the first lines as before", () => {
    expect(causeLines("first\nsecond\nthird", 2, {})).toBe("  first\n  second");
  });
});

describe("environmentProblem: the runner itself could not start", () => {
  const outcome = (output: string, exitCode = 1) => ({
    exitCode,
    output,
    durationMs: 1,
    timedOut: false,
  });
  it.each([
    ["/usr/bin/python3: No module named pytest", 1],
    ["sh: 1: vitest: command not found", 127],
    ["npm error could not determine executable to run", 1],
    ["anything at all", 127],
    [
      "ERROR: usage error\nUsageError: /p/tox.ini: 'minversion' requires pytest-8.0, actual pytest-7.2.1'",
      4,
    ],
  ])("%s (exit %i)", (output, code) => {
    expect(environmentProblem(outcome(output, code))).toBeDefined();
  });
  it("pytest's other usage errors are not the environment's", () => {
    expect(
      environmentProblem(
        outcome("ERROR: usage: pytest [options]\npytest: error: unrecognized arguments: --frob", 4),
      ),
    ).toBe(undefined);
  });
  it("a pytest option only a missing plugin adds is the environment's, with the plugin named", () => {
    const run = summarizeRun(
      plan("pytest"),
      { tests: [], errors: [] },
      exit(4, {
        output:
          "ERROR: usage: __main__.py [options]\n__main__.py: error: unrecognized arguments: --cov=x\n  inifile: pytest.ini\n",
      }),
    );
    expect(run.status).toBe("env_error");
    expect(run.reason).toBe(
      "pytest could not start: `--cov=x` (from pytest.ini) needs the pytest-cov plugin, which the Python running the tests does not have: install pytest-cov there (or take the option out)",
    );
  });
  it("a test's own ImportError is not the environment's", () => {
    expect(environmentProblem(outcome("E   ModuleNotFoundError: No module named 'pkg'", 2))).toBe(
      undefined,
    );
  });
});

describe("answersRequest", () => {
  const mocha = (segments: string[]) => ({
    runner: "mocha" as const,
    file: "test/test.js",
    segments,
  });
  const vitest = (segments: string[]) => ({ ...mocha(segments), runner: "vitest" as const });
  it.each([
    // The thirty-fourth round: mocha reports nested describes as one space-joined parent.
    [
      "mocha, describes named one by one",
      mocha(["vary", "when no Vary", "sets"]),
      mocha(["vary when no Vary", "sets"]),
      true,
    ],
    [
      "mocha, as reported",
      mocha(["vary when no Vary", "sets"]),
      mocha(["vary when no Vary", "sets"]),
      true,
    ],
    [
      "mocha, another test",
      mocha(["vary", "when Vary", "sets"]),
      mocha(["vary when no Vary", "sets"]),
      false,
    ],
    [
      "mocha, another title",
      mocha(["vary", "when no Vary", "keeps"]),
      mocha(["vary when no Vary", "sets"]),
      false,
    ],
    [
      "vitest keeps its segments",
      vitest(["vary", "when no Vary", "sets"]),
      vitest(["vary when no Vary", "sets"]),
      false,
    ],
  ])("%s", (_name, requested, result, answers) => {
    expect(answersRequest(requested, result)).toBe(answers);
  });
});
