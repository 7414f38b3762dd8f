import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { parseTap } from "./tap-stream.ts";

const ava = (files?: string[]): ParseContext => ({
  runner: "ava",
  packageDir: "",
  packageAbs: "/home/dev/calc",
  files,
});
const tap: ParseContext = { runner: "tap", packageDir: "", packageAbs: "/home/dev/calc" };

describe("parseTap: ava's flat TAP 13", () => {
  it("owns each `file › title` by the run's files; SKIP and TODO are skips", () => {
    const run = parseTap(
      readRunnerOutput("ava", "mixed.tap"),
      ava(["test/other.js", "test/calc.js"]),
    );
    expect(testRows(run)).toEqual([
      ["test/other.js", ["other passes"], "pass"],
      ["test/calc.js", ["skipped one"], "skip"],
      ["test/calc.js", ["later"], "skip"],
      ["test/calc.js", ["adds"], "pass"],
      ["test/calc.js", ["subtracts"], "fail"],
    ]);
    const failed = run.tests.find((test) => test.status === "fail");
    expect(failed?.failure).toContain("Difference (- actual, + expected)");
    expect(failed?.failure_kind).toBe("assertion");
    expect(run.errors).toEqual([]);
  });

  it("owns titles of files named `*.test.ts`, which ava prefixes without `.test`", () => {
    const run = parseTap(
      readRunnerOutput("ava", "test-suffix.tap"),
      ava(["tests/parse/duration.test.ts", "tests/roundtrip.test.ts"]),
    );
    expect(testRows(run)).toEqual([
      ["tests/parse/duration.test.ts", ["parses seconds"], "fail"],
      ["tests/parse/duration.test.ts", ["rejects junk"], "pass"],
      ["tests/roundtrip.test.ts", ["round trips minutes and hours"], "fail"],
    ]);
  });

  it("a file without a test is a collection error for that file", () => {
    const run = parseTap(
      readRunnerOutput("ava", "no-tests.tap"),
      ava(["test/empty.js", "test/other.js"]),
    );
    expect(testRows(run)).toEqual([["test/other.js", ["other passes"], "pass"]]);
    expect(run.errors).toEqual([
      {
        file: "test/empty.js",
        message: expect.stringContaining("No tests found") as unknown,
        kind: "collection",
      },
    ]);
  });

  it("gives every title to the one file a run was given", () => {
    const run = parseTap(readRunnerOutput("ava", "one-file.tap"), ava(["test/other.js"]));
    expect(testRows(run)).toEqual([["test/other.js", ["other passes"], "pass"]]);
  });

  it("keeps the title whole when no file owns its prefix", () => {
    const run = parseTap(readRunnerOutput("ava", "mixed.tap"), ava());
    expect(testRows(run)[0]).toEqual(["", ["other", "other passes"], "pass"]);
  });

  it("a test file that cannot import is a collection error with the cause, not a test", () => {
    const run = parseTap(readRunnerOutput("ava", "broken.tap"), ava(["test/broken.js"]));
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.file).toBe("test/broken.js");
    expect(run.errors[0]?.kind).toBe("collection");
    expect(run.errors[0]?.message).toContain("Cannot find module");
  });
});

describe("parseTap: node-tap's nested TAP 14", () => {
  it("reads subtests as tests under their file, assertions as their failure", () => {
    const run = parseTap(readRunnerOutput("tap", "mixed.tap"), tap);
    expect(testRows(run)).toEqual([
      ["ttest/calc.test.js", ["adds"], "pass"],
      ["ttest/calc.test.js", ["subtracts"], "fail"],
      ["ttest/calc.test.js", ["skipped"], "skip"],
      ["ttest/ok.test.js", ["fine"], "pass"],
    ]);
    const failed = run.tests[1];
    expect(failed?.failure).toContain("not ok - should be equal");
    expect(failed?.failure).toContain("+2");
    expect(run.tests[0]?.duration_ms).toBe(8);
    expect(run.errors).toEqual([]);
  });

  it("puts the diff first in a failure, so the excerpt's first lines show the values", () => {
    const run = parseTap(readRunnerOutput("tap", "mixed.tap"), tap);
    expect(run.tests[1]?.failure?.split("\n").slice(0, 5)).toEqual([
      "not ok - should be equal",
      "diff (- expected, + actual):",
      "  -1",
      "  +2",
      "at: ttest/calc.test.js:4:38",
    ]);
  });

  it("tap 16's `found`/`wanted` and `at: {file, line, column}` read the same way", () => {
    const output = [
      "TAP version 13",
      "# Subtest: test/greet.test.js",
      "    # Subtest: greets",
      "        not ok 1 - should be equal",
      "          ---",
      "          compare: ===",
      "          at:",
      "            line: 7",
      "            column: 5",
      "            file: test/greet.test.js",
      "            type: Test",
      "          stack: |",
      "            Test.<anonymous> (test/greet.test.js:7:5)",
      "          found: hi",
      "          wanted: hello",
      "          ...",
      "        1..1",
      "    not ok 1 - greets # time=3ms",
      "    1..1",
      "not ok 1 - test/greet.test.js # time=9ms",
      "1..1",
    ].join("\n");
    const run = parseTap(output, tap);
    expect(run.tests[0]?.failure?.split("\n").slice(0, 4)).toEqual([
      "not ok - should be equal",
      "found: hi",
      "wanted: hello",
      "at: test/greet.test.js:7:5",
    ]);
  });

  it("a file with no test that failed could not load; top-level assertions make the file a test", () => {
    const run = parseTap(readRunnerOutput("tap", "broken.tap"), tap);
    expect(run.errors).toEqual([
      {
        file: "ttest/broken.test.js",
        message: "ttest/broken.test.js exited 1 before running a test (its own output says why)",
        kind: "collection",
      },
    ]);
    expect(testRows(run)).toEqual([["ttest/top.test.js", ["ttest/top.test.js"], "fail"]]);
    expect(run.tests[0]?.failure).toContain("not ok - top level");
  });

  it("a subtest whose end was cut out of the output closes at the next point around it", () => {
    // What a capped output keeps of a long run: the start, a cut, the end (here from inside the
    // failing subtest of calc.test.js to inside ok.test.js's test).
    const lines = readRunnerOutput("tap", "mixed.tap").split("\n");
    const cutFrom = lines.findIndex((line) => line === "          ...") + 1;
    const cutTo = lines.findIndex((line) => line.startsWith("    ok 1 - fine"));
    const cut = [...lines.slice(0, cutFrom), "… (2048 characters cut) …", ...lines.slice(cutTo)];
    const run = parseTap(cut.join("\n"), tap);
    expect(testRows(run)).toEqual([
      ["ttest/calc.test.js", ["adds"], "pass"],
      // Its failed assertion was read before the cut: still red.
      ["ttest/calc.test.js", ["subtracts"], "fail"],
      // Its file's `# Subtest:` line was cut: it stays with the file open before the cut.
      ["ttest/calc.test.js", ["fine"], "pass"],
    ]);
    expect(run.tests[1]?.failure).toContain("not ok - should be equal");
    expect(run.errors).toEqual([]);
  });

  it("says it found no TAP rather than reporting an empty pass", () => {
    const run = parseTap("some crash\nat somewhere\n", tap);
    expect(run.tests).toEqual([]);
    expect(run.errors[0]?.kind).toBe("crash");
  });

  it("a bail out is a crash", () => {
    const run = parseTap("TAP version 14\nok 1 - a\nBail out! database down\n", tap);
    expect(run.errors).toEqual([{ message: "bailed out: database down", kind: "crash" }]);
  });
});
