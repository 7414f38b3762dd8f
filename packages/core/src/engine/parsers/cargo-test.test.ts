import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { binaryFile, parseLibtestText, parseNextestText } from "./cargo-test.ts";

const cargo: ParseContext = { runner: "cargo", packageDir: "", packageAbs: "/tmp/tt/cargo" };
const nextest: ParseContext = {
  runner: "nextest",
  packageDir: "",
  packageAbs: "/tmp/tailtest-nextest/calc",
};

describe("parseLibtestText", () => {
  it("reads a pass and a fail under the unittests header of src/lib.rs", () => {
    const run = parseLibtestText(readRunnerOutput("cargo", "pass-fail.txt"), cargo);
    expect(testRows(run)).toEqual([
      ["src/lib.rs", ["tests", "adds_two_numbers"], "pass"],
      ["src/lib.rs", ["tests", "fails_on_purpose"], "fail"],
    ]);
    expect(run.tests.every((test) => test.id.runner === "cargo")).toBe(true);
    const failure = run.tests[1]?.failure ?? "";
    expect(failure).toContain("assertion `left == right` failed\n  left: 4\n right: 5");
    expect(failure).not.toContain("failures:");
    expect(run.tests[1]?.failure_kind).toBe("assertion");
    expect(run.errors).toEqual([]);
  });

  it("tells lib, integration and doc tests apart by file", () => {
    const run = parseLibtestText(readRunnerOutput("cargo", "integration.txt"), cargo);
    expect(testRows(run)).toEqual([
      ["src/lib.rs", ["tests", "adds_two_numbers"], "pass"],
      ["src/lib.rs", ["tests", "fails_on_purpose"], "fail"],
      ["tests/api.rs", ["adds_through_the_public_api"], "pass"],
      ["tests/api.rs", ["fails_through_the_public_api"], "fail"],
      ["tests/api.rs", ["nested", "adds_in_a_module"], "pass"],
      ["tests/api.rs", ["slow_case"], "skip"],
      ["src/lib.rs", ["add (line 3)"], "pass"],
    ]);
    const api = run.tests.find((test) => test.id.segments[0] === "fails_through_the_public_api");
    expect(api?.failure).toContain("add(1, 1) should be 3 on purpose");
    expect(run.errors).toEqual([]);
  });

  it("turns a compile error into a collection error on the file rustc points at", () => {
    const run = parseLibtestText(readRunnerOutput("cargo", "compile-error.txt"), cargo);
    expect(run.tests).toEqual([]);
    expect(run.errors).toEqual([
      {
        file: "src/lib.rs",
        message: expect.stringMatching(
          /^error\[E0308\]: mismatched types\n {2}--> src\/lib\.rs:11:21/,
        ) as unknown,
        kind: "collection",
      },
    ]);
  });

  it("prefixes files with a non-root package folder", () => {
    const run = parseLibtestText(readRunnerOutput("cargo", "pass-fail.txt"), {
      ...cargo,
      packageDir: "crates/calc",
    });
    expect(run.tests[0]?.id.file).toBe("crates/calc/src/lib.rs");
    const compile = parseLibtestText(readRunnerOutput("cargo", "compile-error.txt"), {
      ...cargo,
      packageDir: "crates/calc",
    });
    expect(compile.errors[0]?.file).toBe("crates/calc/src/lib.rs");
  });

  it("keeps a could-not-compile line when no diagnostic has a location", () => {
    const run = parseLibtestText(
      "error: linker `cc` not found\nerror: could not compile `calc` (lib test)\n",
      cargo,
    );
    expect(run.errors).toEqual([
      { message: "error: could not compile `calc` (lib test)", kind: "collection" },
    ]);
  });

  it("reads should-panic names and ignored reasons", () => {
    const text = [
      "     Running unittests src/lib.rs (target/debug/deps/calc-1)",
      "",
      "running 2 tests",
      "test tests::panics - should panic ... ok",
      "test tests::later ... ignored, not yet",
      "",
      "test result: ok. 1 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    ].join("\n");
    expect(testRows(parseLibtestText(text, cargo))).toEqual([
      ["src/lib.rs", ["tests", "panics"], "pass"],
      ["src/lib.rs", ["tests", "later"], "skip"],
    ]);
  });

  it.each([
    ["empty", ""],
    ["unrelated text", "hello\nworld\n"],
    ["a cargo error that is not a compile error", "error: test failed, to rerun pass `--lib`\n"],
  ])("%s gives one crash error and never throws", (_name, text) => {
    const run = parseLibtestText(text, cargo);
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
  });
});

describe("parseNextestText", () => {
  it("reads the classic format; the summary's repeated FAIL line is not a second test", () => {
    const run = parseNextestText(readRunnerOutput("nextest", "pass-fail.txt"), nextest);
    expect(testRows(run)).toEqual([
      ["src/lib.rs", ["tests", "adds_two_numbers"], "pass"],
      ["src/lib.rs", ["tests", "fails_on_purpose"], "fail"],
    ]);
    expect(run.tests.every((test) => test.id.runner === "nextest")).toBe(true);
    expect(run.tests[0]?.duration_ms).toBe(2);
    const failure = run.tests[1]?.failure ?? "";
    expect(failure).toMatch(
      /^thread 'tests::fails_on_purpose' panicked at src\/lib\.rs:17:9:\nassertion `left == right` failed/,
    );
    expect(failure).toContain("test result: FAILED.");
    expect(failure).not.toContain("Summary");
    expect(run.tests[1]?.failure_kind).toBe("assertion");
    expect(run.errors).toEqual([]);
  });

  it("reads the indented format with counters, and maps binary ids to files", () => {
    const run = parseNextestText(readRunnerOutput("nextest", "pass-fail-indented.txt"), nextest);
    expect(testRows(run)).toEqual([
      ["src/lib.rs", ["tests", "adds_two_numbers"], "pass"],
      ["src/lib.rs", ["tests", "fails_on_purpose"], "fail"],
      ["tests/api.rs", ["adds_through_the_public_api"], "pass"],
      ["tests/api.rs", ["fails_through_the_public_api"], "fail"],
    ]);
    expect(run.tests[1]?.failure).toMatch(
      /^thread 'tests::fails_on_purpose' \(4242\) panicked at src\/lib\.rs:17:9:\nassertion `left == right` failed\n {2}left: 4/,
    );
    expect(run.tests[1]?.failure).not.toContain("add(1, 1) should be 3");
    expect(run.tests[3]?.failure).toContain("add(1, 1) should be 3 on purpose");
    expect(run.errors).toEqual([]);
  });

  it("keeps the last try of a retried test and marks timeouts", () => {
    const text = [
      "    Starting 2 tests across 1 binary",
      "  TRY 1 FAIL [   0.003s] calc tests::flaky",
      "  TRY 2 PASS [   0.002s] calc tests::flaky",
      "        SLOW [>  1.000s] calc tests::stuck",
      " TERMINATING [>  2.000s] calc tests::stuck",
      "     TIMEOUT [   2.001s] calc tests::stuck",
      "------------",
      "     Summary [   2.002s] 2 tests run: 1 passed (1 flaky), 1 timed out, 0 skipped",
      "   FLAKY 2/2 [   0.002s] calc tests::flaky",
      "     TIMEOUT [   2.001s] calc tests::stuck",
    ].join("\n");
    const run = parseNextestText(text, nextest);
    expect(run.tests.map((test) => [test.id.segments, test.status, test.failure_kind])).toEqual([
      [["tests", "flaky"], "pass", undefined],
      [["tests", "stuck"], "fail", "timeout"],
    ]);
  });

  it("turns a compile error before the run into a collection error", () => {
    const run = parseNextestText(readRunnerOutput("cargo", "compile-error.txt"), nextest);
    expect(run.errors.map((error) => [error.file, error.kind])).toEqual([
      ["src/lib.rs", "collection"],
    ]);
  });

  it.each([
    ["empty", ""],
    ["cargo test output", "running 1 test\ntest a ... ok\n"],
  ])("%s gives one crash error and never throws", (_name, text) => {
    const run = parseNextestText(text, nextest);
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
  });
});

describe("binaryFile", () => {
  it.each([
    ["calc", "src/lib.rs"],
    ["calc::api", "tests/api.rs"],
    ["calc::bin/calc", "src/main.rs"],
    ["calc::bin/tool", "src/bin/tool.rs"],
    ["calc::bench/speed", "benches/speed.rs"],
    ["calc::example/demo", "examples/demo.rs"],
  ])("%s → %s", (id, file) => {
    expect(binaryFile(id, nextest)).toBe(file);
  });
});

describe("a test binary aborted by a panic that cannot unwind", () => {
  const ABORTED = [
    "     Running tests/test.rs (target/debug/deps/test-3fe6a1a582f7fe8e)",
    "",
    "running 11 tests",
    "thread 'test_i128_min' (11029) panicked at src/lib.rs:424:41:",
    "unsafe precondition(s) violated: slice::get_unchecked requires that the index is within the slice",
    "This indicates a bug in the program. This Undefined Behavior check is optional, and cannot be relied on for safety.",
    "stack backtrace:",
    "   0: __rustc::rust_begin_unwind",
    "thread caused non-unwinding panic. aborting.",
    "error: test failed, to rerun pass `--test test`",
    "",
    "Caused by:",
    "  process didn't exit successfully: `target/debug/deps/test-3fe6a1a582f7fe8e` (signal: 6, SIGABRT: process abort signal)",
    "error: 1 target failed:",
    "    `--test test`",
  ].join("\n");

  it("fails the test whose thread panicked, with the panic and the signal", () => {
    const run = parseLibtestText(ABORTED, cargo);
    expect(testRows(run)).toEqual([["tests/test.rs", ["test_i128_min"], "fail"]]);
    expect(run.tests[0]?.failure).toBe(
      "thread 'test_i128_min' (11029) panicked at src/lib.rs:424:41:\nunsafe precondition(s) violated: slice::get_unchecked requires that the index is within the slice\nThis indicates a bug in the program. This Undefined Behavior check is optional, and cannot be relied on for safety.\n(the test binary was killed by SIGABRT: this panic could not unwind)",
    );
  });

  it("a panic that unwound keeps its own verdict", () => {
    const run = parseLibtestText(readRunnerOutput("cargo", "pass-fail.txt"), cargo);
    expect(run.tests.filter((test) => test.status === "fail")).toHaveLength(1);
  });
});
