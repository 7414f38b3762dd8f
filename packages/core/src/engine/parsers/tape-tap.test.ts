import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { parseTapeTap } from "./tape-tap.ts";

const context = (files: string[], packageDir = ""): ParseContext => ({
  runner: "tape",
  packageDir,
  packageAbs: "/tmp/tt/tape",
  files,
});

describe("parseTapeTap", () => {
  it("reads each test's file and subtest path from the names tailtest's preload gave them", () => {
    const files = ["test/calc.js", "test/nested.js", "test/sub/esm.mjs"];
    const run = parseTapeTap(readRunnerOutput("tape", "files.txt"), context(files));
    expect(testRows(run)).toEqual([
      ["test/calc.js", ["adds two numbers"], "pass"],
      ["test/calc.js", ["fails on purpose"], "fail"],
      ["test/nested.js", ["sums"], "pass"],
      ["test/nested.js", ["sums", "of negatives"], "fail"],
      ["test/nested.js", ["later"], "skip"],
      ["test/sub/esm.mjs", ["esm test"], "pass"],
    ]);
    expect(run.errors).toEqual([]);
    const [failed, nested] = [run.tests[1], run.tests[3]];
    expect(failed?.failure).toMatch(
      /^not ok - two and two\noperator: equal\nexpected: 5\nactual: {3}4/,
    );
    expect(failed?.failure_kind).toBe("assertion");
    expect(nested?.failure).toContain("minus two");
    // A comment inside a test is neither a test nor part of a failure.
    expect(run.tests.map((test) => test.id.segments.join(" "))).not.toContain(
      "a comment inside the test",
    );
  });

  it("names the files relative to the project when the runner ran in a package", () => {
    const run = parseTapeTap(
      readRunnerOutput("tape", "files.txt"),
      context(["pkg/test/calc.js", "pkg/test/nested.js", "pkg/test/sub/esm.mjs"], "pkg"),
    );
    expect(new Set(run.tests.map((test) => test.id.file))).toEqual(
      new Set(["pkg/test/calc.js", "pkg/test/nested.js", "pkg/test/sub/esm.mjs"]),
    );
  });

  it("fails the test a crash stopped in, with node's stack, and keeps the tests before it", () => {
    const run = parseTapeTap(
      readRunnerOutput("tape", "crash.txt"),
      context(["test/calc.js", "test/crash.js"]),
    );
    expect(testRows(run)).toEqual([
      ["test/calc.js", ["adds two numbers"], "pass"],
      ["test/calc.js", ["fails on purpose"], "fail"],
      ["test/crash.js", ["before"], "pass"],
      ["test/crash.js", ["throws later"], "fail"],
    ]);
    expect(run.tests[3]?.failure_kind).toBe("crash");
    expect(run.tests[3]?.failure).toContain("RangeError: too many keys");
  });

  it("reads a run with no TAP as the file its stack names failing to load", () => {
    const run = parseTapeTap(
      readRunnerOutput("tape", "load-error.txt"),
      context(["test/calc.js", "test/broken.js"]),
    );
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]).toMatchObject({ file: "test/broken.js", kind: "collection" });
    expect(run.errors[0]?.message).toContain("Cannot find module './missing-helper.js'");
  });

  it("without the preload, reads plain names as tests of the run's one file", () => {
    const run = parseTapeTap(readRunnerOutput("tape", "plain.txt"), context(["test/calc.js"]));
    expect(testRows(run)).toEqual([
      ["test/calc.js", ["adds two numbers"], "pass"],
      ["test/calc.js", ["fails on purpose"], "fail"],
    ]);
  });

  it("without the preload and with several files, a failure is owned by the file its `at:` names", () => {
    const text = readRunnerOutput("tape", "plain.txt").replaceAll("test/calc.js", "test/b.js");
    const run = parseTapeTap(text, context(["test/a.js", "test/b.js"]));
    expect(testRows(run)).toEqual([
      ["", ["adds two numbers"], "pass"],
      ["test/b.js", ["fails on purpose"], "fail"],
    ]);
  });

  it("puts the given names back in a failure that quotes a test's name", () => {
    const text = [
      "TAP version 13",
      '# tailtest:["test/a.js","waits"]',
      'not ok 1 test exited without ending: tailtest:["test/a.js","waits"]',
      "  ---",
      "    operator: fail",
      "  ...",
      "",
      "1..1",
    ].join("\n");
    const run = parseTapeTap(text, context(["test/a.js"]));
    expect(run.tests[0]?.failure).toBe(
      "not ok - test exited without ending: waits\noperator: fail",
    );
  });

  it("takes SKIP headers and TODO failures as skips, and names with quotes and brackets", () => {
    const text = [
      "TAP version 13",
      '# SKIP tailtest:["test/a.js","not \\"yet\\" [x]"] needs a database',
      '# TODO tailtest:["test/a.js","later"]',
      "not ok 1 unfinished # TODO",
      '# tailtest:["test/a.js","weird ] name"]',
      "ok 2 fine",
      "",
      "1..2",
      "# tests 2",
    ].join("\n");
    expect(testRows(parseTapeTap(text, context(["test/a.js"])))).toEqual([
      ["test/a.js", ['not "yet" [x]'], "skip"],
      ["test/a.js", ["later"], "skip"],
      ["test/a.js", ["weird ] name"], "pass"],
    ]);
  });

  it("says so when tape wrote nothing, or only text", () => {
    expect(parseTapeTap("", context([])).errors[0]?.kind).toBe("crash");
    expect(parseTapeTap("Segmentation fault\n", context([])).errors[0]).toMatchObject({
      kind: "crash",
    });
  });
});
