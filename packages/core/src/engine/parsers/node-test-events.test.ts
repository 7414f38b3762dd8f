// eslint-disable-next-line no-restricted-imports -- the test runs node for real; the parser stays pure
import { execFileSync } from "node:child_process";
// eslint-disable-next-line no-restricted-imports -- the test reads what node wrote; the parser stays pure
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { copyFixture, readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { NODE_TEST_REPORTER_SOURCE, parseNodeTestEvents } from "./node-test-events.ts";

const context: ParseContext = {
  runner: "node-test",
  packageDir: "",
  packageAbs: "/tmp/tt/nt/proj",
};

function line(event: Record<string, unknown>): string {
  return JSON.stringify({
    file: "/p/test/a.test.js",
    skip: false,
    todo: false,
    type: "test",
    ...event,
  });
}

describe("parseNodeTestEvents on real reporter output", () => {
  it("reads a pass and a fail inside a describe; the suite is not a test", () => {
    const run = parseNodeTestEvents(readRunnerOutput("node-test", "pass-fail.ndjson"), context);
    expect(testRows(run)).toEqual([
      ["test/calc.test.js", ["calc", "adds two numbers"], "pass"],
      ["test/calc.test.js", ["calc", "fails on purpose"], "fail"],
    ]);
    expect(run.tests.every((test) => test.id.runner === "node-test")).toBe(true);
    expect(run.tests[1]?.failure).toContain("4 !== 5");
    expect(run.tests[1]?.failure_kind).toBe("assertion");
    expect(run.tests[0]?.duration_ms).toBeGreaterThan(0);
    expect(run.errors).toEqual([]);
  });

  it("rebuilds nested describes, skip, todo and a test with subtests", () => {
    const run = parseNodeTestEvents(readRunnerOutput("node-test", "nested.ndjson"), context);
    expect(testRows(run)).toEqual([
      ["test/nested.test.js", ["calc", "add", "adds small numbers"], "pass"],
      ["test/nested.test.js", ["calc", "add", "adds negatives"], "fail"],
      ["test/nested.test.js", ["calc", "edge cases", "adds zero"], "pass"],
      ["test/nested.test.js", ["calc", "edge cases", "skipped one"], "skip"],
      ["test/nested.test.js", ["calc", "edge cases", "todo one"], "skip"],
      ["test/nested.test.js", ["calc", "adds at the suite level"], "pass"],
      ["test/nested.test.js", ["top level with subtests", "first subtest"], "pass"],
      ["test/nested.test.js", ["top level with subtests"], "pass"],
      ["test/nested.test.js", ["top level alone"], "pass"],
    ]);
    expect(run.errors).toEqual([]);
  });

  it("turns files that failed to load into collection errors with node's stderr", () => {
    const run = parseNodeTestEvents(readRunnerOutput("node-test", "import-error.ndjson"), context);
    expect(run.errors).toEqual([
      {
        file: "test/broken.test.js",
        message: expect.stringContaining("ERR_MODULE_NOT_FOUND") as unknown,
        kind: "collection",
      },
      {
        file: "test/syntax.test.js",
        message: expect.stringContaining("SyntaxError: missing ) after argument list") as unknown,
        kind: "collection",
      },
    ]);
    expect(testRows(run)).toEqual([
      ["test/calc.test.js", ["calc", "adds two numbers"], "pass"],
      ["test/calc.test.js", ["calc", "fails on purpose"], "fail"],
    ]);
  });

  it("prefixes files with a non-root package folder", () => {
    const run = parseNodeTestEvents(readRunnerOutput("node-test", "pass-fail.ndjson"), {
      ...context,
      packageDir: "services/api",
    });
    expect(run.tests[0]?.id.file).toBe("services/api/test/calc.test.js");
  });
});

describe("parseNodeTestEvents rebuilding the describe path", () => {
  it("handles three levels, siblings, and two files interleaved", () => {
    const other = "/p/test/b.test.js";
    const ndjson = [
      line({ event: "pass", name: "deep", nesting: 3 }),
      line({ event: "pass", name: "b1", nesting: 1, file: other }),
      line({ event: "pass", name: "level 2", nesting: 2, type: "suite" }),
      line({ event: "pass", name: "beside level 2", nesting: 2 }),
      line({ event: "pass", name: "B", nesting: 0, type: "suite", file: other }),
      line({ event: "pass", name: "level 1", nesting: 1, type: "suite" }),
      line({ event: "pass", name: "second level 1", nesting: 1, type: "suite" }),
      line({ event: "pass", name: "root", nesting: 0, type: "suite" }),
      line({ event: "pass", name: "after root", nesting: 0 }),
    ].join("\n");
    const run = parseNodeTestEvents(ndjson, { ...context, packageAbs: "/p" });
    expect(run.tests.map((test) => [test.id.file, test.id.segments])).toEqual([
      ["test/a.test.js", ["root", "level 1", "level 2", "deep"]],
      ["test/b.test.js", ["B", "b1"]],
      ["test/a.test.js", ["root", "level 1", "beside level 2"]],
      ["test/a.test.js", ["after root"]],
    ]);
  });

  it("maps node's failure types", () => {
    const failing = (name: string, failureType: string) =>
      line({ event: "fail", name, nesting: 0, error: { message: "m", failureType } });
    const ndjson = [
      failing("assert", "testCodeFailure"),
      failing("slow", "testTimeoutFailure"),
      failing("hook", "hookFailed"),
      failing("cancelled", "cancelledByParent"),
      failing("uncaught", "uncaughtException"),
    ].join("\n");
    const run = parseNodeTestEvents(ndjson, { ...context, packageAbs: "/p" });
    expect(run.tests.map((test) => [test.id.segments[0], test.status, test.failure_kind])).toEqual([
      ["assert", "fail", "assertion"],
      ["slow", "fail", "timeout"],
      ["hook", "fail", "collection"],
      ["cancelled", "not_run", undefined],
      ["uncaught", "fail", "crash"],
    ]);
  });

  it("reports a suite that failed on its own (not through its tests) as a collection error", () => {
    const ndjson = line({
      event: "fail",
      name: "setup",
      nesting: 0,
      type: "suite",
      error: {
        message: "describe body threw",
        failureType: "testCodeFailure",
        stack: "Error: describe body threw",
      },
    });
    const run = parseNodeTestEvents(ndjson, { ...context, packageAbs: "/p" });
    expect(run.errors).toEqual([
      { file: "test/a.test.js", message: "setup: Error: describe body threw", kind: "collection" },
    ]);
  });

  it.each([
    ["empty", ""],
    ["TAP instead of JSON", "TAP version 13\n# Subtest: calc\nok 1 - calc\n"],
    ["JSON of another shape", '{"type":"test:pass","data":{}}\n[1,2]\n{broken'],
  ])("%s gives one crash error and never throws", (_name, text) => {
    const run = parseNodeTestEvents(text, context);
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
  });
});

describe("NODE_TEST_REPORTER_SOURCE", () => {
  it("runs as node's reporter on the node-test fixture and parses back to its tests", () => {
    const project = copyFixture("runners/node-test");
    try {
      const reporter = project.write(".tailtest/reporter.mjs", NODE_TEST_REPORTER_SOURCE);
      const out = join(project.root, ".tailtest", "out.ndjson");
      let exitCode = 0;
      try {
        execFileSync(
          "node",
          ["--test", `--test-reporter=${reporter}`, `--test-reporter-destination=${out}`],
          {
            cwd: project.root,
            stdio: "pipe",
            timeout: 60_000,
          },
        );
      } catch (error) {
        exitCode = (error as { status?: number }).status ?? -1;
      }
      expect(exitCode).toBe(1);
      const run = parseNodeTestEvents(readFileSync(out, "utf8"), {
        runner: "node-test",
        packageDir: "fixtures/node",
        packageAbs: project.root,
      });
      expect(testRows(run)).toEqual([
        ["fixtures/node/test/calc.test.js", ["calc", "adds two numbers"], "pass"],
        ["fixtures/node/test/calc.test.js", ["calc", "fails on purpose"], "fail"],
      ]);
      expect(run.tests[1]?.failure).toContain("4 !== 5");
      expect(run.errors).toEqual([]);
    } finally {
      project.cleanup();
    }
  });
});

describe("NODE_TEST_REPORTER_SOURCE on an error node could not carry over", () => {
  it("reports the failure when the cause has no prototype (sindresorhus/p-queue)", async () => {
    // node 20 hands the reporter an assertion comparing functions as `Object.create(null)`,
    // and String() of that throws: the reporter stopped and node exited 7 with no failure.
    const url = `data:text/javascript,${encodeURIComponent(NODE_TEST_REPORTER_SOURCE)}`;
    const reporter = ((await import(url)) as { default: (s: unknown) => AsyncIterable<string> })
      .default;
    const cause: unknown = Object.create(null);
    async function* events() {
      yield {
        type: "test:fail",
        data: {
          file: "/p/test/priority-queue.ts",
          name: "filter",
          nesting: 0,
          details: {
            duration_ms: 1,
            error: { message: "failed", failureType: "testCodeFailure", cause },
          },
        },
      };
    }
    const lines: string[] = [];
    for await (const line of reporter(events())) lines.push(line);
    const run = parseNodeTestEvents(lines.join(""), { ...context, packageAbs: "/p" });
    expect(testRows(run)).toEqual([["test/priority-queue.ts", ["filter"], "fail"]]);
    expect(run.tests[0]?.failure).toContain("node could not pass on its error");
  });
});
