import { describe, expect, it } from "vitest";
import { setAsideExpected } from "./expected-red.ts";
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
