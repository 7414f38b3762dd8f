import { describe, expect, it } from "vitest";
import { countSetAside, flakyTests, setAsideExpected, worthRerunning } from "./expected-red.ts";
import type { RunResult } from "./summarize.ts";

const test = (file: string, name: string, status: "pass" | "fail" | "skip" | "not_run") => ({
  id: { runner: "pytest" as const, file, segments: [name] },
  status,
});

function run(over: Partial<RunResult>): RunResult {
  return {
    runner: "pytest",
    cwd: ".",
    command: ["pytest"],
    status: "failed",
    exit_code: 1,
    duration_ms: 10,
    tests: [],
    errors: [],
    reason: "1 of 2 tests failed",
    output_tail: "",
    ...over,
  };
}

describe("setAsideExpected", () => {
  it("reads a run whose only failure is the expected test as passed", () => {
    const result = run({
      tests: [
        test("tests/test_a.py", "test_new", "fail"),
        test("tests/test_a.py", "test_old", "pass"),
      ],
    });
    const judged = setAsideExpected(result, [{ file: "tests/test_a.py", name: "test_new" }]);
    expect(judged.status).toBe("passed");
    expect(judged.tests.map((row) => row.id.segments[0])).toEqual(["test_old"]);
  });

  it("keeps any other failure red, in the same file or another", () => {
    const result = run({
      tests: [
        test("tests/test_a.py", "test_new", "fail"),
        test("tests/test_a.py", "test_old", "fail"),
        test("tests/test_b.py", "test_b", "pass"),
      ],
    });
    const judged = setAsideExpected(result, [{ file: "tests/test_a.py", name: "test_new" }]);
    expect(judged.status).toBe("failed");
    expect(judged.tests.filter((row) => row.status === "fail")).toHaveLength(1);
  });

  it("sets aside a whole file's tests and its load error when the expectation names a file", () => {
    const result = run({
      status: "error",
      errors: [{ file: "tests/test_new.py", message: "ImportError: mul", kind: "collection" }],
      tests: [test("tests/test_calc.py", "test_add", "pass")],
    });
    expect(setAsideExpected(result, [{ file: "tests/test_new.py" }]).status).toBe("passed");
    // A load error of another file is not explained by it.
    expect(setAsideExpected(result, [{ file: "tests/test_calc.py" }]).status).toBe("error");
  });

  it("leaves a run alone when nothing matched, and never turns a timeout or a crash green", () => {
    const result = run({ tests: [test("tests/test_a.py", "test_old", "fail")] });
    expect(setAsideExpected(result, [{ file: "tests/test_a.py", name: "test_new" }])).toBe(result);
    const timeout = run({
      status: "timeout",
      tests: [test("tests/test_a.py", "test_new", "fail")],
    });
    expect(setAsideExpected(timeout, [{ file: "tests/test_a.py" }])).toBe(timeout);
    // Killed after the expected failure: the kill is not explained by it.
    const killed = run({
      status: "error",
      reason: "pytest was killed by SIGKILL",
      tests: [test("tests/test_a.py", "test_new", "pass")],
    });
    expect(setAsideExpected(killed, [{ file: "tests/test_a.py" }])).toBe(killed);
    const killedAfter = run({
      status: "error",
      exit_code: null,
      reason: "pytest was killed by SIGKILL",
      tests: [test("tests/test_a.py", "test_new", "fail"), test("tests/test_a.py", "x", "pass")],
    });
    expect(
      setAsideExpected(killedAfter, [{ file: "tests/test_a.py", name: "test_new" }]).status,
    ).toBe("error");
  });

  it("says no test ran when the expected one was all there was", () => {
    const result = run({ tests: [test("tests/test_a.py", "test_new", "fail")] });
    expect(setAsideExpected(result, [{ file: "tests/test_a.py" }]).status).toBe("no_tests");
  });
});

describe("flakyTests", () => {
  it("never calls a failure flaky when a test of the same name failed again", () => {
    // change-case's keys.spec.ts: five tests named `[object Object] -> [object Object]`.
    const same = "[object Object] -> [object Object]";
    const first = run({
      tests: [test("src/keys.spec.ts", same, "pass"), test("src/keys.spec.ts", same, "fail")],
    });
    const again = run({
      tests: [test("src/keys.spec.ts", same, "pass"), test("src/keys.spec.ts", same, "fail")],
    });
    expect(flakyTests(first, again)).toEqual([]);
    expect(setAsideExpected(first, flakyTests(first, again)).status).toBe("failed");
    // Every test of the name passed the second time: flaky, named once.
    const green = run({
      tests: [test("src/keys.spec.ts", same, "pass"), test("src/keys.spec.ts", same, "pass")],
    });
    expect(flakyTests(first, green)).toEqual([
      { file: "src/keys.spec.ts", name: same, exact: true },
    ]);
  });

  it("names the tests that failed, then passed when the same run was made again", () => {
    const first = run({
      tests: [
        test("tests/test_a.py", "test_slow", "fail"),
        test("tests/test_a.py", "test_bug", "fail"),
      ],
    });
    const second = run({
      tests: [
        test("tests/test_a.py", "test_slow", "pass"),
        test("tests/test_a.py", "test_bug", "fail"),
      ],
    });
    const flaky = flakyTests(first, second);
    expect(flaky).toEqual([{ file: "tests/test_a.py", name: "test_slow", exact: true }]);
    // Set aside by its whole name only: test_slow_path, red, stays red.
    const beside = run({
      tests: [
        test("tests/test_a.py", "test_slow", "fail"),
        test("tests/test_a.py", "test_slow_path", "fail"),
      ],
    });
    expect(setAsideExpected(beside, flaky).tests.map((row) => row.id.segments[0])).toEqual([
      "test_slow_path",
    ]);
  });

  it("runs again only a run red with a few failed tests and nothing else wrong", () => {
    expect(worthRerunning(run({ tests: [test("t.py", "a", "fail")] }))).toBe(true);
    expect(
      worthRerunning(
        run({
          tests: [test("t.py", "a", "fail")],
          errors: [{ file: "t.py", message: "ImportError", kind: "collection" }],
        }),
      ),
    ).toBe(false);
    expect(worthRerunning(run({ status: "timeout", tests: [test("t.py", "a", "fail")] }))).toBe(
      false,
    );
    const many = Array.from({ length: 11 }, (_, index) => test("t.py", `t${index}`, "fail"));
    expect(worthRerunning(run({ tests: many }))).toBe(false);
  });
});

describe("countSetAside", () => {
  it("counts the failed tests and load errors each run lost, and nothing for a run kept whole", () => {
    const loadError = {
      file: "tests/test_new.py",
      message: "ImportError: cannot import name 'mul'",
      kind: "collection" as const,
    };
    const runs = [
      run({
        status: "error",
        tests: [test("tests/test_a.py", "test_old", "pass")],
        errors: [loadError],
      }),
      run({
        tests: [
          test("tests/test_b.py", "test_new", "fail"),
          test("tests/test_b.py", "test_other", "fail"),
        ],
      }),
      run({ status: "passed", tests: [test("tests/test_c.py", "test_c", "pass")] }),
    ];
    const expected = [{ file: "tests/test_new.py" }, { file: "tests/test_b.py", name: "test_new" }];
    const judged = runs.map((result) => setAsideExpected(result, expected));
    expect(countSetAside(runs, judged)).toBe(2);
    expect(countSetAside(runs, runs)).toBe(0);
  });
});
