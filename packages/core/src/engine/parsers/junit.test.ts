import { join } from "node:path";
import { FIXTURES_DIR } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { createFsView } from "../../project/node/fs-view.ts";
import {
  TestResultSchema,
  type FailureKind,
  type ParseContext,
  type TestStatus,
} from "../results.ts";
import type { RunnerId } from "../../runners/project-runners.ts";
import { attributeOf, childElements, parseJunitXml, readXml, textOf } from "./junit.ts";

const samples = createFsView(join(FIXTURES_DIR, "runner-output"));

function readSample(path: string): string {
  const text = samples.readText(path);
  if (text === undefined) throw new Error(`missing sample ${path}`);
  return text;
}

function contextFor(runner: RunnerId, packageAbs = "/nowhere", packageDir = ""): ParseContext {
  return { runner, packageDir, packageAbs };
}

type Expected = [file: string, segments: string[], status: TestStatus, kind?: FailureKind];

interface SampleCase {
  sample: string;
  runner: RunnerId;
  packageAbs?: string;
  tests: Expected[];
  /** Text the failing tests' failure must contain. */
  failure?: string;
  errors?: { kind: FailureKind; file?: string; message: string }[];
}

const PYTEST_CALC: Expected[] = [
  ["tests/test_calc.py", ["test_adds_two_numbers"], "pass"],
  ["tests/test_calc.py", ["test_fails_on_purpose"], "fail", "assertion"],
];
const PYTEST_CLASS: Expected[] = [
  ["tests/test_calc.py", ["TestCalc", "test_add[1-2-3]"], "pass"],
  ["tests/test_calc.py", ["TestCalc", "test_add[2-2-5]"], "fail", "assertion"],
  ["tests/test_calc.py", ["TestCalc", "test_skipped"], "skip"],
];
// TestChild (tests/pkg/test_child.py) inherits test_value from TestBase (tests/pkg/test_base.py),
// which test_child.py also imports: every case's `file` is test_base.py, where it is written.
const PYTEST_INHERITED: Expected[] = [
  ["tests/pkg/test_base.py", ["TestBase", "test_value"], "pass"],
  ["tests/pkg/test_child.py", ["TestBase", "test_value"], "pass"],
  ["tests/pkg/test_child.py", ["TestChild", "test_value"], "fail", "assertion"],
];
const PYTEST_COLLECTION = [
  {
    kind: "collection" as const,
    file: "tests/test_broken.py",
    message: "No module named 'nowhere'",
  },
];
const PHP_CALC: Expected[] = [
  ["tests/CalcTest.php", ["CalcTest", "testAddsTwoNumbers"], "pass"],
  ["tests/CalcTest.php", ["CalcTest", "testFailsOnPurpose"], "fail", "assertion"],
];
const PEST_CALC: Expected[] = [
  ["tests/Unit/CalcTest.php", ["CalcTest", "adds two numbers"], "pass"],
  ["tests/Unit/CalcTest.php", ["CalcTest", "fails on purpose"], "fail", "assertion"],
];
const JVM_CALC: Expected[] = [
  ["src/test/java/com/example/CalcTest.java", ["CalcTest", "addsTwoNumbers"], "pass"],
  ["src/test/java/com/example/CalcTest.java", ["CalcTest", "failsOnPurpose"], "fail", "assertion"],
];
const BUN_CALC: Expected[] = [
  ["src/calc.test.ts", ["calc", "adds two numbers"], "pass"],
  ["src/calc.test.ts", ["calc", "fails on purpose"], "fail", "assertion"],
];
const DENO_CALC: Expected[] = [
  ["calc_test.ts", ["adds two numbers"], "pass"],
  ["calc_test.ts", ["fails on purpose"], "fail", "assertion"],
];

const CASES: SampleCase[] = [
  {
    sample: "pytest/xunit1-pass-fail.xml",
    runner: "pytest",
    tests: PYTEST_CALC,
    failure: "assert 4 == 5",
  },
  {
    sample: "pytest/xunit2-pass-fail.xml",
    runner: "pytest",
    tests: PYTEST_CALC,
    failure: "assert 4 == 5",
  },
  {
    sample: "pytest/class-param.xml",
    runner: "pytest",
    tests: PYTEST_CLASS,
    failure: "assert 4 == 5",
  },
  {
    sample: "pytest/class-param-xunit2.xml",
    runner: "pytest",
    tests: PYTEST_CLASS,
    failure: "assert 4 == 5",
  },
  {
    sample: "pytest/inherited.xml",
    runner: "pytest",
    tests: PYTEST_INHERITED,
    failure: "assert 2 == 1",
  },
  { sample: "pytest/collection-error.xml", runner: "pytest", tests: [], errors: PYTEST_COLLECTION },
  {
    sample: "pytest/collection-error-xunit2.xml",
    runner: "pytest",
    tests: [],
    errors: PYTEST_COLLECTION,
  },
  { sample: "pytest/no-tests.xml", runner: "pytest", tests: [] },
  {
    sample: "phpunit/pass-fail.xml",
    runner: "phpunit",
    packageAbs: "/tmp/tt-php.a8HR/calc",
    tests: PHP_CALC,
    failure: "Failed asserting that 4 is identical to 5.",
  },
  {
    sample: "phpunit/error.xml",
    runner: "phpunit",
    packageAbs: "/tmp/tt-php.a8HR/calc-err",
    tests: [...PHP_CALC, ["tests/CalcTest.php", ["CalcTest", "testThrows"], "fail", "crash"]],
    failure: "Failed asserting that 4 is identical to 5.",
  },
  {
    sample: "pest/pass-fail.xml",
    runner: "pest",
    tests: PEST_CALC,
    failure: "Failed asserting that 4 is identical to 5.",
  },
  {
    sample: "pest/phpunit-logger-evaluable.xml",
    runner: "pest",
    packageAbs: "/home/dev/calc-pest",
    tests: [
      ...PEST_CALC,
      ["tests/Unit/CalcTest.php", ["CalcTest", "keeps snake_case words"], "pass"],
    ],
    failure: "Failed asserting that 4 is identical to 5.",
  },
  {
    sample: "maven/TEST-com.example.CalcTest.xml",
    runner: "maven",
    tests: JVM_CALC,
    failure: "expected: <5> but was: <4>",
  },
  {
    sample: "gradle/TEST-com.example.CalcTest.xml",
    runner: "gradle",
    tests: JVM_CALC,
    failure: "expected: <5> but was: <4>",
  },
  {
    sample: "bun/pass-fail.xml",
    runner: "bun",
    tests: BUN_CALC,
    failure: "Expected: 5\nReceived: 4",
  },
  {
    sample: "bun/nested-describe.xml",
    runner: "bun",
    tests: [
      ["src/calc.test.ts", ["top level"], "pass"],
      ["src/calc.test.ts", ["calc", "fails on purpose"], "fail", "assertion"],
      ["src/calc.test.ts", ["calc", "add", "adds two numbers"], "pass"],
      ["src/calc.test.ts", ["calc", "add", "skips on purpose"], "skip"],
    ],
    failure: "Expected: 5\nReceived: 4",
  },
  {
    sample: "bun/filter-no-match.xml",
    runner: "bun",
    tests: [
      ["src/calc.test.ts", ["calc", "adds two numbers"], "skip"],
      ["src/calc.test.ts", ["calc", "fails on purpose"], "skip"],
    ],
  },
  // Bun leaves a file that fails to import out of the report: nothing here can say so.
  { sample: "bun/import-error-not-reported.xml", runner: "bun", tests: BUN_CALC },
  {
    sample: "deno/pass-fail.xml",
    runner: "deno",
    tests: DENO_CALC,
    failure: "expected 5, got 4",
  },
  {
    sample: "deno/steps.xml",
    runner: "deno",
    tests: [
      ["calc_test.ts", ["calc"], "fail", "assertion"],
      ["calc_test.ts", ["ignored on purpose"], "skip"],
      ["calc_test.ts", ["calc", "adds two numbers"], "pass"],
      ["calc_test.ts", ["calc", "fails on purpose"], "fail", "assertion"],
    ],
    failure: "step failed",
  },
  { sample: "deno/no-tests.xml", runner: "deno", tests: [] },
  { sample: "deno/import-throws-not-reported.xml", runner: "deno", tests: DENO_CALC },
  {
    sample: "swift/xunit-pass-fail.xml",
    runner: "swift",
    tests: [
      ["Tests/CalcTests/CalcTests.swift", ["CalcTests", "testAddsTwoNumbers"], "pass"],
      ["Tests/CalcTests/CalcTests.swift", ["CalcTests", "testFailsOnPurpose"], "fail", "assertion"],
    ],
    // SwiftPM's xUnit file carries no assertion text at all.
    failure: "failed",
  },
  {
    sample: "nextest/junit.xml",
    runner: "nextest",
    tests: [
      ["src/lib.rs", ["tests", "adds_two_numbers"], "pass"],
      ["src/lib.rs", ["tests", "fails_on_purpose"], "fail", "assertion"],
    ],
    failure: "assertion `left == right` failed\n  left: 4\n right: 5",
  },
  {
    sample: "nextest/integration-binary.xml",
    runner: "nextest",
    tests: [
      ["src/lib.rs", ["tests", "adds_two_numbers"], "pass"],
      ["tests/api.rs", ["adds_through_the_public_api"], "pass"],
      ["src/main.rs", ["tests", "parses_arguments"], "pass"],
    ],
  },
];

describe("parseJunitXml on real and documented samples", () => {
  it.each(CASES.map((entry) => [entry.sample, entry] as const))("%s", (_sample, entry) => {
    const run = parseJunitXml(readSample(entry.sample), contextFor(entry.runner, entry.packageAbs));

    expect(
      run.tests.map((test) => [
        test.id.runner,
        test.id.file,
        test.id.segments,
        test.status,
        test.failure_kind,
      ]),
    ).toEqual(
      entry.tests.map(([file, segments, status, kind]) => [
        entry.runner,
        file,
        segments,
        status,
        kind,
      ]),
    );
    for (const test of run.tests) {
      expect(TestResultSchema.parse(test)).toEqual(test);
      expect(test.duration_ms).toBeTypeOf("number");
      expect(Number.isFinite(test.duration_ms)).toBe(true);
    }
    const failing = run.tests.filter((test) => test.status === "fail");
    if (entry.failure !== undefined) {
      expect(failing.length).toBeGreaterThan(0);
      expect(failing.some((test) => test.failure?.includes(entry.failure ?? "") === true)).toBe(
        true,
      );
    }
    for (const test of failing) expect(test.failure?.length ?? 0).toBeGreaterThan(0);

    const errors = entry.errors ?? [];
    expect(run.errors.map((error) => ({ kind: error.kind, file: error.file }))).toEqual(
      errors.map((error) => ({ kind: error.kind, file: error.file })),
    );
    errors.forEach((error, index) => {
      expect(run.errors[index]?.message).toContain(error.message);
    });
  });

  it("covers every XML sample in its runner folders and the README lists each", () => {
    const readme = readSample("README.md");
    const tested = new Set(CASES.map((entry) => entry.sample));
    const folders = [
      "pytest",
      "phpunit",
      "pest",
      "maven",
      "gradle",
      "bun",
      "deno",
      "swift",
      "nextest",
    ];
    const found = folders.flatMap((folder) =>
      samples
        .list(folder)
        .filter((name) => name.endsWith(".xml"))
        .map((name) => `${folder}/${name}`),
    );
    expect(found.length).toBe(CASES.length);
    for (const path of found) {
      expect(tested.has(path), path).toBe(true);
      expect(readme, path).toContain(`\`${path}\``);
    }
  });

  it("reads pytest durations as milliseconds", () => {
    const run = parseJunitXml(readSample("pytest/xunit1-pass-fail.xml"), contextFor("pytest"));
    expect(run.tests.map((test) => test.duration_ms)).toEqual([1, 5]);
  });

  it("joins the failure message and the element text", () => {
    const run = parseJunitXml(readSample("pytest/xunit1-pass-fail.xml"), contextFor("pytest"));
    const failure = run.tests[1]?.failure ?? "";
    expect(
      failure.startsWith("assert 4 == 5\n +  where 4 = add(2, 2)\ndef test_fails_on_purpose():"),
    ).toBe(true);
    expect(failure.endsWith("tests/test_calc.py:10: AssertionError")).toBe(true);
  });

  it("puts an exception's message first when pytest says it only at the bottom", () => {
    const source = Array.from({ length: 30 }, (_, i) => `    line_${i} = ${i}`).join("\n");
    const xml =
      '<testsuite name="pytest"><testcase classname="tests.test_api_jwt" name="test_exp" time="0.1">' +
      '<failure message="jwt.exceptions.ExpiredSignatureError: Signature has expired">' +
      `self = &lt;tests.test_api_jwt.TestJWT object&gt;\n\n    def test_exp(self):\n${source}\n` +
      ">       jwt.decode(token)\n\nE       jwt.exceptions.ExpiredSignatureError: Signature has expired\n\n" +
      "jwt/api_jwt.py:508: ExpiredSignatureError</failure></testcase></testsuite>";
    const failure = parseJunitXml(xml, contextFor("pytest")).tests[0]?.failure ?? "";
    expect(failure.split("\n")[0]).toBe(
      "jwt.exceptions.ExpiredSignatureError: Signature has expired",
    );
    expect(failure).toContain("self = <tests.test_api_jwt.TestJWT object>");
  });

  it("keeps the failure text once when it already repeats the message", () => {
    const run = parseJunitXml(readSample("bun/pass-fail.xml"), contextFor("bun"));
    expect(run.tests[1]?.failure).toBe(
      "AssertionError: expect(received).toBe(expected)\n\nExpected: 5\nReceived: 4\n\n      at src/calc.test.ts:11:23",
    );
  });
});

describe("paths", () => {
  it("prefixes files with a non-root package folder", () => {
    const pytest = parseJunitXml(
      readSample("pytest/xunit1-pass-fail.xml"),
      contextFor("pytest", "/repo/services/billing", "services/billing"),
    );
    expect(pytest.tests.map((test) => test.id.file)).toEqual([
      "services/billing/tests/test_calc.py",
      "services/billing/tests/test_calc.py",
    ]);
    const broken = parseJunitXml(
      readSample("pytest/collection-error-xunit2.xml"),
      contextFor("pytest", "/repo/services/billing", "services/billing"),
    );
    expect(broken.errors.map((error) => error.file)).toEqual([
      "services/billing/tests/test_broken.py",
    ]);
    const maven = parseJunitXml(
      readSample("maven/TEST-com.example.CalcTest.xml"),
      contextFor("maven", "/repo/services/billing", "services/billing"),
    );
    expect(maven.tests[0]?.id.file).toBe(
      "services/billing/src/test/java/com/example/CalcTest.java",
    );
  });

  it("strips the package's absolute path before prefixing", () => {
    const run = parseJunitXml(
      readSample("phpunit/pass-fail.xml"),
      contextFor("phpunit", "/tmp/tt-php.a8HR/calc", "services/billing"),
    );
    expect(run.tests.map((test) => test.id.file)).toEqual([
      "services/billing/tests/CalcTest.php",
      "services/billing/tests/CalcTest.php",
    ]);
  });

  it("keeps an absolute path outside the package as it is", () => {
    const run = parseJunitXml(
      readSample("phpunit/pass-fail.xml"),
      contextFor("phpunit", "/elsewhere"),
    );
    expect(run.tests[0]?.id.file).toBe("/tmp/tt-php.a8HR/calc/tests/CalcTest.php");
  });

  it("reads a deno suite named by file:// URL", () => {
    const xml = readSample("deno/pass-fail.xml").replaceAll(
      "./calc_test.ts",
      "file:///home/dev/calc/calc_test.ts",
    );
    const run = parseJunitXml(xml, contextFor("deno", "/home/dev/calc", "apps/calc"));
    expect(run.tests.map((test) => test.id.file)).toEqual([
      "apps/calc/calc_test.ts",
      "apps/calc/calc_test.ts",
    ]);
  });
});

describe("report shapes", () => {
  it("reads several surefire files wrapped in one <testsuites>", () => {
    const strip = (xml: string): string => xml.replace(/^<\?xml[^>]*\?>\s*/, "");
    const other = readSample("maven/TEST-com.example.CalcTest.xml").replaceAll(
      "CalcTest",
      "OtherTest",
    );
    const xml = `<testsuites>${strip(readSample("maven/TEST-com.example.CalcTest.xml"))}\n${strip(other)}</testsuites>`;
    const run = parseJunitXml(xml, contextFor("maven"));
    expect(run.tests.map((test) => `${test.id.file}#${test.id.segments.join(".")}`)).toEqual([
      "src/test/java/com/example/CalcTest.java#CalcTest.addsTwoNumbers",
      "src/test/java/com/example/CalcTest.java#CalcTest.failsOnPurpose",
      "src/test/java/com/example/OtherTest.java#OtherTest.addsTwoNumbers",
      "src/test/java/com/example/OtherTest.java#OtherTest.failsOnPurpose",
    ]);
  });

  it("names JUnit 5 nested classes after the outer file", () => {
    const xml =
      '<testsuite name="com.example.CalcTest$Negative"><testcase name="subtracts()" classname="com.example.CalcTest$Negative" time="0.001"/></testsuite>';
    const run = parseJunitXml(xml, contextFor("gradle"));
    expect(run.tests[0]?.id).toEqual({
      runner: "gradle",
      file: "src/test/java/com/example/CalcTest.java",
      segments: ["CalcTest", "Negative", "subtracts"],
    });
  });

  it("calls an <error> that could not load the class a collection failure", () => {
    const xml =
      '<testsuite name="com.example.CalcTest"><testcase name="initializationError" classname="com.example.CalcTest" time="0">' +
      '<error message="Could not initialize class com.example.Calc" type="java.lang.NoClassDefFoundError">stack</error>' +
      "</testcase></testsuite>";
    const run = parseJunitXml(xml, contextFor("maven"));
    expect(run.tests[0]?.failure_kind).toBe("collection");
    expect(run.tests[0]?.failure).toBe("Could not initialize class com.example.Calc\nstack");
  });

  it("turns a testsuite-level <error> into a collection error for that file", () => {
    const xml =
      '<testsuites><testsuite name="src/broken.test.ts" file="src/broken.test.ts">' +
      '<error message="Cannot find module ./nowhere">at src/broken.test.ts:1</error></testsuite></testsuites>';
    const run = parseJunitXml(xml, contextFor("bun", "/nowhere", "web"));
    expect(run).toEqual({
      tests: [],
      errors: [
        {
          kind: "collection",
          file: "web/src/broken.test.ts",
          message: "Cannot find module ./nowhere\nat src/broken.test.ts:1",
        },
      ],
    });
  });

  it("turns a failed nextest setup script into a run error, not a test", () => {
    const xml =
      '<testsuites name="nextest-run"><testsuite name="@setup-script:db"><testcase name="db" classname="@setup-script:db">' +
      '<failure message="script failed with exit code 1" type="setup script failure with exit code 1">could not start db</failure>' +
      "</testcase></testsuite></testsuites>";
    const run = parseJunitXml(xml, contextFor("nextest"));
    expect(run).toEqual({
      tests: [],
      errors: [{ kind: "crash", message: "script failed with exit code 1\ncould not start db" }],
    });
  });

  it("leaves entities a DOCTYPE declares unexpanded", () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;&a;">]>' +
      '<testsuite name="s"><testcase classname="tests.test_x" name="t&amp;&#65;&b;" time="1"/></testsuite>';
    const run = parseJunitXml(xml, contextFor("pytest"));
    expect(run.tests[0]?.id.segments).toEqual(["t&A&b;"]);
  });

  it("reads a bare <testsuite> with one <testcase>", () => {
    const run = parseJunitXml(
      '<testsuite name="pytest"><testcase classname="tests.test_x" name="test_one" time="0.25"/></testsuite>',
      contextFor("pytest"),
    );
    expect(run).toEqual({
      tests: [
        {
          id: { runner: "pytest", file: "tests/test_x.py", segments: ["test_one"] },
          status: "pass",
          duration_ms: 250,
        },
      ],
      errors: [],
    });
  });
});

describe("unreadable input", () => {
  it.each([
    ["truncated tag", "<not xml"],
    ["empty", ""],
    ["whitespace", "  \n"],
    ["JSON", '{"tests":[{"name":"adds two numbers"}]}'],
    ["plain text", "2 passed, 1 failed"],
    ["cut-off report", '<testsuites><testsuite name="a"><testcase name="b">'],
    ["wrong root", "<html><body>502 Bad Gateway</body></html>"],
    ["mismatched tags", "<testsuites><testsuite></testcase></testsuites>"],
    ["closing tag first", "</testsuite>"],
    ["attribute without quotes", "<testsuite name=x/>"],
    ["attribute without value", "<testsuite disabled/>"],
    ["attribute twice", '<testsuite name="a" name="b"/>'],
    ["a bare ampersand", "<testsuite><testcase>a & b</testcase></testsuite>"],
    ["a bare ampersand in an attribute", '<testsuite name="a & b"/>'],
    ["text before the root", "collected 3 items <testsuite/>"],
    ["a tag name that is not one", "<1testsuite/>"],
  ])("%s becomes one crash error", (_label, input) => {
    const run = parseJunitXml(input, contextFor("pytest"));
    expect(run.tests).toEqual([]);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.kind).toBe("crash");
    expect(run.errors[0]?.message.startsWith("unreadable JUnit XML: ")).toBe(true);
  });
});

describe("readXml", () => {
  const read = (xml: string) => {
    const result = readXml(xml);
    if (!result.ok) throw new Error(result.message);
    return result.document;
  };

  it("keeps attributes, children by name, and the text and CDATA inside an element", () => {
    const document = read(
      '<?xml version="1.0"?><!-- a report --><r a="1" b=\'&lt;2&gt;\'>one<c x="y"/>two<c/><![CDATA[<raw> & ]]><d>&#65;&amp;&#x42;</d></r>\n',
    );
    const [root] = childElements(document, "r");
    expect(attributeOf(root, "a")).toBe("1");
    expect(attributeOf(root, "b")).toBe("<2>");
    expect(textOf(root)).toBe("onetwo<raw> & ");
    expect(childElements(root, "c").map((c) => attributeOf(c, "x"))).toEqual(["y", undefined]);
    expect(textOf(childElements(root, "d")[0])).toBe("A&B");
  });

  it("drops namespace prefixes and declarations", () => {
    const document = read(
      '<t:run xmlns="u" xmlns:t="v" t:id="7"><t:result t:outcome="ok"/></t:run>',
    );
    const [run] = childElements(document, "run");
    expect(attributeOf(run, "id")).toBe("7");
    expect(attributeOf(run, "xmlns")).toBeUndefined();
    expect(attributeOf(childElements(run, "result")[0], "outcome")).toBe("ok");
  });

  it("tolerates text after the root and a BOM before it", () => {
    expect(childElements(read("\uFEFF<r/>\ntrailing"), "r")).toHaveLength(1);
  });

  it("gives no element an inherited key", () => {
    const document = read("<r><__proto__ a='1'/><constructor/></r>");
    const [root] = childElements(document, "r");
    expect(childElements(root, "__proto__").map((e) => attributeOf(e, "a"))).toEqual(["1"]);
    expect(childElements(root, "constructor")).toHaveLength(1);
    expect(childElements(root, "toString")).toEqual([]);
  });

  it("reads a long report in one pass, with line numbers for what it cannot read", () => {
    const cases = Array.from({ length: 5000 }, (_, i) => `<testcase name="t${i}"/>`).join("\n");
    const [suite] = childElements(read(`<testsuite>${cases}</testsuite>`), "testsuite");
    expect(childElements(suite, "testcase")).toHaveLength(5000);
    expect(readXml(`<testsuite>\n\n<testcase></testsuite>`)).toEqual({
      ok: false,
      message: "closing tag 'testsuite' does not match at line 3",
    });
  });
});
