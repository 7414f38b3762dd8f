import { readRunnerOutput, testRows } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../results.ts";
import { parseMochaJson } from "./mocha-json.ts";

const context: ParseContext = { runner: "mocha", packageDir: "", packageAbs: "/tmp/tt/mocha" };

describe("parseMochaJson", () => {
  it("reads a pass and a fail, the suite path as one parent segment", () => {
    const run = parseMochaJson(readRunnerOutput("mocha", "pass-fail.json"), context);
    expect(testRows(run)).toEqual([
      ["test/calc.test.js", ["calc", "adds two numbers"], "pass"],
      ["test/calc.test.js", ["calc", "fails on purpose"], "fail"],
    ]);
    expect(run.tests.every((test) => test.id.runner === "mocha")).toBe(true);
    expect(run.tests[1]?.failure).toContain("4 !== 5");
    expect(run.tests[1]?.failure_kind).toBe("assertion");
    expect(run.tests[1]?.duration_ms).toBe(7);
    expect(run.errors).toEqual([]);
  });

  it("reads JSON printed to stdout after console noise; a failing before-all hook is a collection error", () => {
    const run = parseMochaJson(readRunnerOutput("mocha", "hooks-noise.stdout.txt"), context);
    expect(testRows(run)).toEqual([
      ["test/calc.test.js", ["calc", "adds two numbers"], "pass"],
      ["test/calc.test.js", ["calc", "fails on purpose"], "fail"],
      ["test/hooks.test.js", ["outer inner", "adds in a nested suite"], "pass"],
      ["test/hooks.test.js", ["outer inner", "is pending"], "skip"],
    ]);
    expect(run.errors).toEqual([
      {
        file: "test/hooks.test.js",
        message: expect.stringContaining("database unavailable") as unknown,
        kind: "collection",
      },
    ]);
  });

  it("names a test's file from its stack when mocha's JSON has none (mocha 5)", () => {
    const output = readRunnerOutput("mocha", "mocha5-no-file.json");
    const files = ["test/calc.test.js", "test/util.test.js"];
    const rows = (run: ReturnType<typeof parseMochaJson>) =>
      testRows(run).map(([file, segments, status]) => [file, segments.join(" > "), status]);
    // The failing tests by their stack's frame in a file the run was given.
    expect(rows(parseMochaJson(output, { ...context, files }))).toEqual([
      ["", "calc > adds two numbers", "pass"],
      ["test/calc.test.js", "calc > fails on purpose", "fail"],
      ["", "util > trims", "pass"],
      ["test/util.test.js", "util > fails too", "fail"],
    ]);
    // The whole suite: the frame mocha calls a test from; one file given: every test is in it.
    const suite = parseMochaJson(output, { ...context, packageDir: "pkg" });
    expect(
      suite.tests.filter((test) => test.status === "fail").map((test) => test.id.file),
    ).toEqual(["pkg/test/calc.test.js", "pkg/test/util.test.js"]);
    const one = parseMochaJson(output, { ...context, files: ["test/calc.test.js"] });
    expect(new Set(one.tests.map((test) => test.id.file))).toEqual(new Set(["test/calc.test.js"]));
  });

  it("names the spec file a mocha 5 run died loading, from node's report of the throw", () => {
    const output = readRunnerOutput("mocha", "mocha5-load-throw.stderr.txt");
    const proj = { ...context, packageAbs: "/home/dev/proj" };
    const files = ["test/calc.test.js", "test/sign.test.js"];
    const run = parseMochaJson(output, { ...proj, files });
    expect(run.tests).toEqual([]);
    expect(run.errors).toEqual([
      {
        file: "test/sign.test.js",
        message: expect.stringContaining('the key must be "secret"') as unknown,
        kind: "collection",
      },
    ]);
    // Without the run's files nothing says which spec: a crash, as before.
    expect(parseMochaJson(output, proj).errors[0]?.kind).toBe("crash");
  });

  it("names the spec file when a require fails and mocha writes no report", () => {
    const run = parseMochaJson(readRunnerOutput("mocha", "import-error.stderr.txt"), context);
    expect(run.tests).toEqual([]);
    expect(run.errors).toEqual([
      {
        file: "test/broken.test.js",
        message: expect.stringContaining("Cannot find module '../src/missing-module'") as unknown,
        kind: "collection",
      },
    ]);
  });

  it("names the spec file of a syntax error", () => {
    const run = parseMochaJson(readRunnerOutput("mocha", "syntax-error.stderr.txt"), context);
    expect(run.errors).toEqual([
      {
        file: "test/syntax.test.js",
        message: expect.stringContaining("SyntaxError: missing ) after argument list") as unknown,
        kind: "collection",
      },
    ]);
  });

  it("names the importing file of an ESM load failure", () => {
    const text =
      "\n Exception during run: Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/tmp/tt/mocha/src/gone.mjs' imported from /tmp/tt/mocha/test/esm.test.mjs\n";
    expect(parseMochaJson(text, context).errors[0]?.file).toBe("test/esm.test.mjs");
  });

  it.each([
    [
      "ts-node's type error",
      "\n Exception during run: test/helpers/format.ts(5,28): error TS2339: Property 'should' does not exist on type 'string'.\ntest/helpers/format.ts(9,27): error TS2339: Property 'should' does not exist on type 'string'.\n",
      "test/helpers/format.ts",
    ],
    [
      "node's require() of a module that is not yet loaded",
      "\n Exception during run: Error [ERR_INTERNAL_ASSERTION]: Cannot require() ES Module /tmp/tt/mocha/test/box/box.ts because it is not yet fully loaded.\n    at Function.fail (node:internal/assert:20:9)\n",
      "test/box/box.ts",
    ],
  ])("names the file of %s", (_, text, file) => {
    expect(parseMochaJson(text, context).errors[0]?.file).toBe(file);
  });

  it("prefixes files with a non-root package folder", () => {
    const run = parseMochaJson(readRunnerOutput("mocha", "pass-fail.json"), {
      ...context,
      packageDir: "packages/api",
    });
    expect(run.tests[0]?.id.file).toBe("packages/api/test/calc.test.js");
  });

  it("tells timeouts and load errors inside a test from assertions", () => {
    const report = {
      tests: [
        {
          title: "waits",
          fullTitle: "waits",
          file: "/tmp/tt/mocha/test/a.test.js",
          duration: 2001,
          err: { message: "Timeout of 2000ms exceeded. For async tests…" },
        },
        {
          title: "loads",
          fullTitle: "lazy loads",
          file: "/tmp/tt/mocha/test/a.test.js",
          duration: 1,
          err: { message: "Cannot find module './x'" },
        },
      ],
      pending: [],
      failures: [],
      passes: [],
    };
    const run = parseMochaJson(JSON.stringify(report), context);
    expect(run.tests.map((test) => [test.id.segments, test.failure_kind])).toEqual([
      [["waits"], "timeout"],
      [["lazy", "loads"], "collection"],
    ]);
  });

  it.each([
    ["empty", ""],
    ["noise", "  1 passing\n  1 failing\n"],
    ["JSON of another shape", '{"stats": {}}'],
    ["truncated", readRunnerOutput("mocha", "pass-fail.json").slice(0, 400)],
  ])("%s gives one crash error and never throws", (_name, text) => {
    const run = parseMochaJson(text, context);
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
  });
});
