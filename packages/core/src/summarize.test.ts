import { describe, expect, it } from "vitest";
import type { RunPlan } from "./plan.ts";
import type { ParsedRun, TestResult } from "./results.ts";
import {
  overallStatus,
  renderFailureExcerpt,
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
    ["not installed", plan("pytest"), parsed([]), exit(null, { spawnError: "ENOENT" }), "error"],
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

  const failure = [
    "\u001b[31mAssertionError: expected 4 to be 5\u001b[0m",
    "    at /home/me/project/src/a.test.ts:3:7",
    "    at node:internal/process/task_queues:95:5",
    "    at /home/me/project/node_modules/vitest/dist/x.js:1:1",
    "took 12ms",
    "line 6",
    "line 7",
    "line 8",
    "line 9",
  ].join("\n");
  const result = summarizeRun(plan("vitest"), parsed([test("b", "fail", failure)]), exit(1));

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

  it("is capped", () => {
    const many = summarizeRun(
      plan("vitest"),
      parsed(Array.from({ length: 500 }, (_, i) => test(`t${i}`, "fail", "x".repeat(200)))),
      exit(1),
    );
    expect(renderFailureExcerpt([many], [], { maxChars: 2000 }).length).toBeLessThanOrEqual(2000);
  });
});
