import type { ParseContext, ParsedRun, TestResult } from "../results.ts";
import { toProjectFile } from "../results.ts";
import { attributeOf, childElements, crashRun, readXml, textOf, type XmlElement } from "./junit.ts";

interface Definition {
  /** Fully qualified, `+` between nested classes: `Calc.Tests.CalculatorTests+Inner`. */
  className: string;
  methodName: string;
}

/** Project folder names that mark a test project, as in the runner table's candidates. */
const TEST_PROJECT = /^(Tests|Test|UnitTests)$/;

/**
 * A guess, since TRX has no source paths (only failing tests' stack traces do, and the id must
 * not change with the outcome): `Calc.Tests.Sub.CalculatorTests` → `tests/Calc.Tests/Sub/CalculatorTests.cs`
 * when a namespace prefix ends in `.Tests`, otherwise `tests/CalculatorTests.cs`.
 */
function guessTestFile(className: string): string {
  const [outer = className] = className.split("+");
  const parts = outer.split(".");
  const shortClass = parts[parts.length - 1] ?? outer;
  const namespace = parts.slice(0, -1);
  const marker = namespace.findIndex((part, index) => index > 0 && TEST_PROJECT.test(part));
  if (marker === -1) return `tests/${shortClass}.cs`;
  const project = namespace.slice(0, marker + 1).join(".");
  return ["tests", project, ...namespace.slice(marker + 1), `${shortClass}.cs`].join("/");
}

/** `[d.]hh:mm:ss[.fffffff]` (a .NET TimeSpan) in milliseconds. */
function parseTimeSpan(value: string | undefined): number | undefined {
  const match = /^(?:(\d+)\.)?(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(value?.trim() ?? "");
  if (match === null) return undefined;
  const [, days = "0", hours = "0", minutes = "0", seconds = "0"] = match;
  const total = ((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60 + Number(seconds);
  return Math.round(total * 1e6) / 1e3;
}

type Outcome = Pick<TestResult, "status" | "failure_kind">;

function outcomeOf(outcome: string | undefined): Outcome {
  switch (outcome) {
    case "Passed":
    case "PassedButRunAborted":
    case "Completed":
    case "Warning":
      return { status: "pass" };
    // TRX does not tell an assertion from an unexpected exception: both are "Failed".
    case "Failed":
      return { status: "fail", failure_kind: "assertion" };
    case "Error":
      return { status: "fail", failure_kind: "crash" };
    case "Timeout":
      return { status: "fail", failure_kind: "timeout" };
    case "NotExecuted":
    case "Inconclusive":
      return { status: "skip" };
    default:
      return { status: "not_run" };
  }
}

function failureOf(result: XmlElement): string | undefined {
  const parts: string[] = [];
  for (const output of childElements(result, "Output")) {
    for (const info of childElements(output, "ErrorInfo")) {
      for (const tag of ["Message", "StackTrace"]) {
        // trimEnd only: stack frames are indented, the first one too.
        for (const element of childElements(info, tag)) parts.push(textOf(element).trimEnd());
      }
    }
  }
  const failure = parts
    .map((part) => part.replace(/\r\n/g, "\n").replace(/^(\s*\n)+/, ""))
    .filter((part) => part.trim() !== "")
    .join("\n");
  return failure === "" ? undefined : failure;
}

function readDefinitions(run: XmlElement): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  for (const group of childElements(run, "TestDefinitions")) {
    for (const unitTest of childElements(group, "UnitTest")) {
      const id = attributeOf(unitTest, "id");
      const [method] = childElements(unitTest, "TestMethod");
      if (id === undefined || method === undefined) continue;
      definitions.set(id, {
        // Old MSTest writes an assembly-qualified name: `Ns.Class, Assembly, Version=…`.
        className: (attributeOf(method, "className") ?? "").split(",")[0]?.trim() ?? "",
        methodName: attributeOf(method, "name") ?? "",
      });
    }
  }
  return definitions;
}

/** Data-driven MSTest results carry one inner result per row; those are the tests. */
function leafResults(result: XmlElement): XmlElement[] {
  const inner = childElements(result, "InnerResults").flatMap((group) =>
    childElements(group, "UnitTestResult"),
  );
  return inner.length === 0 ? [result] : inner.flatMap(leafResults);
}

function toResult(
  result: XmlElement,
  definitions: ReadonlyMap<string, Definition>,
  context: ParseContext,
): TestResult {
  const testName = attributeOf(result, "testName") ?? "";
  const definition = definitions.get(attributeOf(result, "testId") ?? "");
  const className = definition?.className ?? "";
  // The display name, not TestMethod's name: xunit theories share one method and differ only
  // in the arguments shown after it (`Adds(a: 1, b: 2)`).
  let testLabel = testName.startsWith(`${className}.`)
    ? testName.slice(className.length + 1)
    : testName;
  if (testLabel === "") testLabel = definition?.methodName ?? "";
  const outerClass = className.split("+")[0] ?? className;
  const classes = [
    outerClass.split(".").pop() ?? outerClass,
    ...className.split("+").slice(1),
  ].filter((name) => name !== "");
  const outcome = outcomeOf(attributeOf(result, "outcome"));
  const duration = parseTimeSpan(attributeOf(result, "duration"));
  const failure = outcome.status === "fail" ? failureOf(result) : undefined;
  return {
    id: {
      runner: context.runner,
      file: className === "" ? "" : toProjectFile(guessTestFile(className), context),
      segments: [...classes, testLabel],
    },
    status: outcome.status,
    ...(duration === undefined ? {} : { duration_ms: duration }),
    ...(failure === undefined ? {} : { failure }),
    ...(outcome.failure_kind === undefined ? {} : { failure_kind: outcome.failure_kind }),
  };
}

/**
 * Per-test results from a Visual Studio TRX file (`dotnet test --logger "trx;LogFileName=…"`).
 * Never throws: unreadable input becomes one crash error.
 */
export function parseTrx(xml: string, context: ParseContext): ParsedRun {
  const read = readXml(xml);
  if (!read.ok) return crashRun(`unreadable TRX: ${read.message}`);
  const [run] = childElements(read.document, "TestRun");
  if (run === undefined) return crashRun("unreadable TRX: no <TestRun> element");
  const definitions = readDefinitions(run);
  const tests = childElements(run, "Results")
    .flatMap((group) => childElements(group, "UnitTestResult"))
    .flatMap(leafResults)
    .map((result) => toResult(result, definitions, context));
  return { tests, errors: [] };
}
