import { join } from "node:path";
import { FIXTURES_DIR } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { createFsView } from "../../project/node/fs-view.ts";
import { TestResultSchema, type ParseContext } from "../results.ts";
import { parseTrx } from "./trx.ts";

const samples = createFsView(join(FIXTURES_DIR, "runner-output"));

function readSample(path: string): string {
  const text = samples.readText(path);
  if (text === undefined) throw new Error(`missing sample ${path}`);
  return text;
}

const ROOT: ParseContext = { runner: "dotnet", packageDir: "", packageAbs: "/home/dev/calc" };

function summarize(xml: string, context: ParseContext = ROOT): unknown[] {
  return parseTrx(xml, context).tests.map((test) => [
    test.id.file,
    test.id.segments,
    test.status,
    test.failure_kind,
    test.duration_ms,
  ]);
}

function trx(results: string, definitions: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
  <Results>${results}</Results>
  <TestDefinitions>${definitions}</TestDefinitions>
</TestRun>`;
}

function definition(id: string, className: string, name: string): string {
  return `<UnitTest id="${id}" name="${className}.${name}"><TestMethod className="${className}" name="${name}" /></UnitTest>`;
}

describe("parseTrx on documented samples", () => {
  it("dotnet/pass-fail.trx", () => {
    const run = parseTrx(readSample("dotnet/pass-fail.trx"), ROOT);
    expect(summarize(readSample("dotnet/pass-fail.trx"))).toEqual([
      [
        "tests/Calc.Tests/CalculatorTests.cs",
        ["CalculatorTests", "AddsTwoNumbers"],
        "pass",
        undefined,
        1.235,
      ],
      [
        "tests/Calc.Tests/CalculatorTests.cs",
        ["CalculatorTests", "FailsOnPurpose"],
        "fail",
        "assertion",
        4.568,
      ],
    ]);
    expect(run.errors).toEqual([]);
    for (const test of run.tests) {
      expect(TestResultSchema.parse(test)).toEqual(test);
      expect(test.id.runner).toBe("dotnet");
    }
    expect(run.tests[0]?.failure).toBeUndefined();
    expect(run.tests[1]?.failure).toBe(
      [
        "Assert.Equal() Failure: Values differ",
        "Expected: 5",
        "Actual:   4",
        "   at Calc.Tests.CalculatorTests.FailsOnPurpose() in /home/dev/calc/tests/Calc.Tests/CalculatorTests.cs:line 17",
        "   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments, Signature sig, Boolean isConstructor)",
        "   at System.Reflection.MethodBaseInvoker.InvokeWithNoArgs(Object obj, BindingFlags invokeAttr)",
      ].join("\n"),
    );
  });

  it("dotnet/theory-nested-skip.trx", () => {
    expect(summarize(readSample("dotnet/theory-nested-skip.trx"))).toEqual([
      [
        "tests/Calc.Tests/CalculatorTests.cs",
        ["CalculatorTests", "Adds(a: 1, b: 2, expected: 3)"],
        "pass",
        undefined,
        0.612,
      ],
      [
        "tests/Calc.Tests/CalculatorTests.cs",
        ["CalculatorTests", "Adds(a: 2, b: 2, expected: 5)"],
        "fail",
        "assertion",
        2.1,
      ],
      [
        "tests/Calc.Tests/CalculatorTests.cs",
        ["CalculatorTests", "Negative", "SubtractsBelowZero"],
        "pass",
        undefined,
        0.4,
      ],
      [
        "tests/Calc.Tests/CalculatorTests.cs",
        ["CalculatorTests", "DividesByZero"],
        "skip",
        undefined,
        0,
      ],
      ["tests/CalculatorSmoke.cs", ["CalculatorSmoke", "Runs"], "pass", undefined, 1],
    ]);
  });

  it("covers every TRX sample and the README lists each", () => {
    const readme = readSample("README.md");
    const found = samples.list("dotnet").filter((name) => name.endsWith(".trx"));
    expect(found).toEqual(["pass-fail.trx", "theory-nested-skip.trx"]);
    for (const name of found) expect(readme).toContain(`\`dotnet/${name}\``);
  });

  it("prefixes files with a non-root package folder", () => {
    const context: ParseContext = {
      runner: "dotnet",
      packageDir: "services/billing",
      packageAbs: "/repo/services/billing",
    };
    expect(
      parseTrx(readSample("dotnet/pass-fail.trx"), context).tests.map((test) => test.id.file),
    ).toEqual([
      "services/billing/tests/Calc.Tests/CalculatorTests.cs",
      "services/billing/tests/Calc.Tests/CalculatorTests.cs",
    ]);
  });

  it("reads a file that starts with a byte order mark", () => {
    const run = parseTrx(`\uFEFF${readSample("dotnet/pass-fail.trx")}`, ROOT);
    expect(run.tests).toHaveLength(2);
    expect(run.errors).toEqual([]);
  });
});

describe("TRX shapes", () => {
  it("maps every outcome", () => {
    const outcomes = [
      "Passed",
      "Failed",
      "Error",
      "Timeout",
      "NotExecuted",
      "Inconclusive",
      "Aborted",
    ];
    const xml = trx(
      outcomes
        .map(
          (outcome, index) =>
            `<UnitTestResult testId="t${index}" testName="Ns.Tests.Cases.Case${index}" outcome="${outcome}" duration="00:00:01.5" />`,
        )
        .join(""),
      outcomes
        .map((_outcome, index) => definition(`t${index}`, "Ns.Tests.Cases", `Case${index}`))
        .join(""),
    );
    expect(parseTrx(xml, ROOT).tests.map((test) => [test.status, test.failure_kind])).toEqual([
      ["pass", undefined],
      ["fail", "assertion"],
      ["fail", "crash"],
      ["fail", "timeout"],
      ["skip", undefined],
      ["skip", undefined],
      ["not_run", undefined],
    ]);
    expect(parseTrx(xml, ROOT).tests[0]?.duration_ms).toBe(1500);
  });

  it("reads MSTest data rows as separate tests and strips an assembly-qualified class", () => {
    const xml = trx(
      `<UnitTestResult testId="d1" testName="Adds" outcome="Failed" resultType="DataDrivenTest">
         <InnerResults>
           <UnitTestResult testId="d1" testName="Adds (1,2,3)" outcome="Passed" duration="00:00:00.001" />
           <UnitTestResult testId="d1" testName="Adds (2,2,5)" outcome="Failed" duration="00:00:00.002">
             <Output><ErrorInfo><Message>Assert.AreEqual failed. Expected:&lt;5&gt;. Actual:&lt;4&gt;.</Message></ErrorInfo></Output>
           </UnitTestResult>
         </InnerResults>
       </UnitTestResult>`,
      definition("d1", "Calc.UnitTests.CalculatorTests, Calc.UnitTests, Version=1.0.0.0", "Adds"),
    );
    const run = parseTrx(xml, ROOT);
    expect(run.tests.map((test) => [test.id.file, test.id.segments, test.status])).toEqual([
      ["tests/Calc.UnitTests/CalculatorTests.cs", ["CalculatorTests", "Adds (1,2,3)"], "pass"],
      ["tests/Calc.UnitTests/CalculatorTests.cs", ["CalculatorTests", "Adds (2,2,5)"], "fail"],
    ]);
    expect(run.tests[1]?.failure).toBe("Assert.AreEqual failed. Expected:<5>. Actual:<4>.");
  });

  it("keeps namespace folders below the test project", () => {
    const xml = trx(
      '<UnitTestResult testId="n1" testName="Shop.Tests.Cart.Pricing.TotalsTests.AddsTax" outcome="Passed" />',
      definition("n1", "Shop.Tests.Cart.Pricing.TotalsTests", "AddsTax"),
    );
    expect(parseTrx(xml, ROOT).tests[0]?.id.file).toBe(
      "tests/Shop.Tests/Cart/Pricing/TotalsTests.cs",
    );
  });

  it("uses the test name alone when the definition is missing", () => {
    const xml = trx('<UnitTestResult testId="x" testName="Orphan" outcome="Passed" />', "");
    expect(parseTrx(xml, ROOT).tests[0]?.id).toEqual({
      runner: "dotnet",
      file: "",
      segments: ["Orphan"],
    });
  });

  it("reads a run with no results", () => {
    expect(parseTrx(trx("", ""), ROOT)).toEqual({ tests: [], errors: [] });
  });
});

describe("unreadable input", () => {
  it.each([
    ["truncated tag", "<not xml"],
    ["empty", ""],
    ["JSON", '{"results":[]}'],
    ["cut-off report", "<TestRun><Results><UnitTestResult"],
    ["JUnit instead of TRX", '<testsuite name="x"><testcase name="y"/></testsuite>'],
  ])("%s becomes one crash error", (_label, input) => {
    const run = parseTrx(input, ROOT);
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
    expect(run.errors[0]?.message.startsWith("unreadable TRX: ")).toBe(true);
  });
});
