import { namesTest } from "../tdd/guide.ts";
import type { RunResult } from "./summarize.ts";

/**
 * A test a gating mode expects to fail at the end of a turn: tdd's declared Red before its Green,
 * strict's open claims. A file alone means every test of that file.
 */
export interface ExpectedRed {
  file: string;
  name?: string | undefined;
  /** The name is the test's whole name (a flaky test), not a part of it to look for. */
  exact?: boolean;
}

function isExpected(
  id: { file: string; segments: readonly string[] },
  expected: readonly ExpectedRed[],
) {
  return expected.some(
    (red) =>
      red.file === id.file &&
      (red.name === undefined ||
        (red.exact === true
          ? id.segments.join(" > ") === red.name
          : namesTest([id.file, ...id.segments].join(" > "), red.name))),
  );
}

/**
 * A run with the failures the mode expects set aside: those tests' rows and their files' load
 * errors dropped, and the status read again from what is left. Anything else that failed, a
 * timeout, an environment error or a crash stays as it was; so does a run nothing was set aside
 * from (the same object).
 */
export function setAsideExpected(result: RunResult, expected: readonly ExpectedRed[]): RunResult {
  if (expected.length === 0 || (result.status !== "failed" && result.status !== "error"))
    return result;
  const tests = result.tests.filter(
    (test) => test.status === "pass" || test.status === "skip" || !isExpected(test.id, expected),
  );
  const errors = result.errors.filter(
    (error) =>
      error.file === undefined ||
      !expected.some((red) => red.exact !== true && red.file === error.file),
  );
  if (tests.length === result.tests.length && errors.length === result.errors.length) return result;
  const stillRed =
    tests.some((test) => test.status === "fail") ||
    errors.length > 0 ||
    // Killed by a signal (no exit code), or a non-zero exit with nothing red: not explained by
    // what was set aside.
    result.exit_code === null ||
    (result.status === "error" &&
      result.tests.every((test) => test.status !== "fail") &&
      result.errors.length === 0);
  if (stillRed) return { ...result, tests, errors };
  const ran = tests.filter((test) => test.status === "pass").length;
  return {
    ...result,
    tests,
    errors,
    status: ran === 0 ? "no_tests" : "passed",
    reason:
      ran === 0
        ? "only the test expected to fail ran"
        : `${ran} tests passed, besides the test expected to fail`,
  };
}

/**
 * How many failures `judged` set aside from `results` (the same runs, in order, through
 * `setAsideExpected`): failed tests and files that would not load, counted one each.
 */
export function countSetAside(results: readonly RunResult[], judged: readonly RunResult[]): number {
  const failures = (result: RunResult) =>
    result.tests.filter((test) => test.status === "fail").length + result.errors.length;
  return results.reduce(
    (sum, result, index) => sum + failures(result) - failures(judged[index] ?? result),
    0,
  );
}

/** How many failing tests of one run are run again to tell a flaky test from a red one. */
export const FLAKY_RERUN_MAX_FAILURES = 10;

/** Whether a run's red is only failed tests (no load error, timeout or crash) few enough to run again. */
export function worthRerunning(result: RunResult): boolean {
  const failed = result.tests.filter((test) => test.status === "fail").length;
  return (
    result.status === "failed" &&
    result.errors.length === 0 &&
    failed > 0 &&
    failed <= FLAKY_RERUN_MAX_FAILURES
  );
}

const key = (id: { file: string; segments: readonly string[] }) =>
  `${id.file}\0${id.segments.join("\0")}`;

/** Whether every test that failed in `first` failed in `second` too (none passed or went missing). */
export function failedAgain(first: RunResult, second: RunResult): boolean {
  const failed = new Set(
    second.tests.filter((test) => test.status === "fail").map((test) => key(test.id)),
  );
  return first.tests.every((test) => test.status !== "fail" || failed.has(key(test.id)));
}

/**
 * The tests that failed in `first` and passed when the same run was made again (`second`): flaky,
 * each named by its file and its full name. A test red in both, or absent from the second, is not;
 * nor is a name any test of the second run failed under: tests can share a name (an `it.each`
 * over objects names five tests `[object Object] -> [object Object]`), and one of them passing
 * says nothing of the one that failed.
 */
export function flakyTests(first: RunResult, second: RunResult): ExpectedRed[] {
  const keys = (status: string) =>
    new Set(second.tests.filter((test) => test.status === status).map((test) => key(test.id)));
  const passed = keys("pass");
  const failed = keys("fail");
  const flaky = new Map<string, ExpectedRed>();
  for (const test of first.tests) {
    const name = key(test.id);
    if (test.status !== "fail" || !passed.has(name) || failed.has(name)) continue;
    flaky.set(name, { file: test.id.file, name: test.id.segments.join(" > "), exact: true });
  }
  return [...flaky.values()];
}
