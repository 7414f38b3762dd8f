import { join } from "node:path";
import { FIXTURES_DIR } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { createFsView } from "../project/node/fs-view.ts";
import type { TestId } from "../engine/results.ts";
import type { RunnerId } from "../runners/project-runners.ts";
import { StrictTestSchema } from "./strict-events.ts";
import {
  annotationFor,
  findTestDeclarations,
  formatTestId,
  joinerFor,
  languageOfTestFile,
  parseTestId,
  resolveSlug,
  toStrictTest,
  type TestDeclaration,
} from "./test-id.ts";

const runners = createFsView(join(FIXTURES_DIR, "runners"));

/**
 * A pytest file whose collection was checked with pytest 9.0.3 (`pytest --collect-only -q`):
 * test_charge, test_charge_many[1|2], test_charge_more[3|4], test_charge_most[5],
 * TestRefunds::test_full, ::test_partial, ::TestNested::test_deep, ::test_after_comment,
 * test_last, test_glued. Nothing else (not the docstring's defs, not helper's test_inner, not
 * Helpers.test_not_collected).
 */
const PYTHON_SOURCE = [
  '"""Billing tests.', //  1
  "",
  "def test_in_docstring():",
  "class TestNotReal:",
  '"""', //  5
  "import pytest",
  "",
  "from billing import charge",
  "",
  "", // 10
  "# tailtest-id: charge-basic",
  "def test_charge():",
  "    assert charge(1) == 1",
  "",
  "", // 15
  "# tailtest-id: charge-params",
  '@pytest.mark.parametrize("amount", [1, 2])',
  "def test_charge_many(amount):",
  "    assert charge(amount) == amount",
  "", // 20
  "",
  "# tailtest-id: too-far-up",
  "@pytest.mark.parametrize(",
  '    "amount",',
  "    [3, 4],", // 25
  ")",
  "def test_charge_more(amount):",
  "    assert charge(amount) == amount",
  "",
  "", // 30
  "@pytest.mark.parametrize(",
  '    "amount",',
  "    [5],",
  ")",
  "# tailtest-id: below-the-decorator", // 35
  "def test_charge_most(amount):",
  "    assert charge(amount) == amount",
  "",
  "",
  "def helper():", // 40
  "    def test_inner():",
  "        pass",
  "",
  "",
  "class TestRefunds:", // 45
  "    # @tailtest-id: refund-full",
  "    def test_full(self):",
  '        text = """',
  "def test_fake():",
  '"""', // 50
  "        assert text",
  "",
  "    @pytest.mark.slow",
  "    async def test_partial(self):",
  "        pass", // 55
  "",
  "    def not_a_test(self):",
  "        pass",
  "",
  "    class TestNested:", // 60
  "        def test_deep(self):",
  "            pass",
  "",
  "# a comment at column 0 inside the class",
  "    def test_after_comment(self):", // 65
  "        pass",
  "",
  "",
  "class Helpers:",
  "    def test_not_collected(self):", // 70
  "        pass",
  "",
  "",
  "def test_last():",
  "    # tailtest-id: not-for-the-next", // 75
  "    x = 1",
  "    assert x",
  "def test_glued():",
  "    pass",
  "",
].join("\n");

const PYTHON_DECLARATIONS: TestDeclaration[] = [
  { line: 12, segments: ["test_charge"], slug: "charge-basic" },
  { line: 18, segments: ["test_charge_many"], slug: "charge-params" },
  // Decorator lines count towards the 3: a 4-line decorator pushes the comment out of reach.
  { line: 27, segments: ["test_charge_more"] },
  { line: 36, segments: ["test_charge_most"], slug: "below-the-decorator" },
  { line: 47, segments: ["TestRefunds", "test_full"], slug: "refund-full" },
  { line: 54, segments: ["TestRefunds", "test_partial"] },
  { line: 61, segments: ["TestRefunds", "TestNested", "test_deep"] },
  { line: 65, segments: ["TestRefunds", "test_after_comment"] },
  { line: 74, segments: ["test_last"] },
  // The comment inside test_last's body is code's neighbour, not test_glued's annotation.
  { line: 78, segments: ["test_glued"] },
];

/**
 * A vitest file whose names were checked with vitest 4.1.12 (`--reporter=json`): ancestorTitles
 * + title as in JS_DECLARATIONS, plus `each 1`/`each 2` (it.each), `dynamic a|b > is skipped…`
 * (describe.each), `computed`, `concatenated computed`, `templated computed`.
 */
const JS_SOURCE = [
  'import { describe, expect, it, test } from "vitest";', //  1
  "",
  "const add = (a: number, b: number) => a + b;",
  "",
  "// tailtest-id: top-level", //  5
  'test("adds at the top level", () => {',
  "  expect(add(1, 1)).toBe(2);",
  "});",
  "",
  'describe("math", () => {', // 10
  "  // @tailtest-id: math-adds",
  '  it("adds (1+1)", () => {',
  "    expect(add(1, 1)).toBe(2);",
  "  });",
  "", // 15
  "  it('keeps \"quotes\" and \\'escapes\\'', () => {",
  "    const text = `",
  'describe("not a describe", () => {',
  'it("not a test", () => {});',
  "`;", // 20
  '    expect(text).toContain("not");',
  "  });",
  "",
  '  describe.skip("nested (deep)", () => {',
  "    /* tailtest-id: block-comment-is-not-an-annotation */", // 25
  "    test.only(`inc 2 -> 3`, () => {",
  "      expect(add(2, 1)).toBe(3);",
  "    });",
  "",
  '    it.each([1, 2])("each %i", (n) => {', // 30
  "      expect(n).toBeGreaterThan(0);",
  "    });",
  "  });",
  "",
  '  it("comes after the nested block", () => {', // 35
  "    expect(add(0, 0)).toBe(0);",
  "  });",
  "});",
  "",
  'describe.each(["a", "b"])("dynamic %s", (name) => {', // 40
  '  it("is skipped by the static parser", () => {',
  "    expect(name).toBeTruthy();",
  "  });",
  "});",
  "", // 45
  'const title = "computed";',
  "it(title, () => {});",
  'it("concatenated " + title, () => {});',
  "it(`templated ${title}`, () => {});",
  "",
].join("\n");

const JS_DECLARATIONS: TestDeclaration[] = [
  { line: 6, segments: ["adds at the top level"], slug: "top-level" },
  { line: 12, segments: ["math", "adds (1+1)"], slug: "math-adds" },
  { line: 16, segments: ["math", `keeps "quotes" and 'escapes'`] },
  { line: 26, segments: ["math", "nested (deep)", "inc 2 -> 3"] },
  { line: 35, segments: ["math", "comes after the nested block"] },
];

describe("joinerFor", () => {
  it.each<[RunnerId | undefined, string]>([
    ["pytest", "::"],
    ["unittest", "::"],
    ["cargo", "::"],
    ["nextest", "::"],
    ["go", "::"],
    ["vitest", " > "],
    ["jest", " > "],
    ["mocha", " > "],
    ["node-test", " > "],
    ["bun", " > "],
    ["deno", " > "],
    ["rspec", " > "],
    [undefined, " > "],
  ])("%s → %j", (runner, joiner) => {
    expect(joinerFor(runner)).toBe(joiner);
  });
});

describe("formatTestId", () => {
  it.each<[Parameters<typeof formatTestId>[0], string]>([
    [
      { file: "tests/test_calc.py", segments: ["TestCalc", "test_add"], runner: "pytest" },
      "tests/test_calc.py::TestCalc::test_add",
    ],
    [
      { file: "src/math.test.ts", segments: ["math", "adds"], runner: "vitest" },
      "src/math.test.ts::math > adds",
    ],
    [{ file: "src/math.test.ts", segments: ["math", "adds"] }, "src/math.test.ts::math > adds"],
    [{ file: "calc_test.ts", segments: ["adds"], runner: "deno" }, "calc_test.ts::adds"],
    [
      { file: "calc_test.go", segments: ["TestAdd", "negative"], runner: "go" },
      "calc_test.go::TestAdd::negative",
    ],
  ])("%j → %s", (test, text) => {
    expect(formatTestId(test)).toBe(text);
  });
});

describe("parseTestId", () => {
  it.each<[string, ReturnType<typeof parseTestId>]>([
    [
      "tests/test_calc.py::TestCalc::test_add",
      { file: "tests/test_calc.py", segments: ["TestCalc", "test_add"] },
    ],
    ["src/math.test.ts::math > adds", { file: "src/math.test.ts", segments: ["math", "adds"] }],
    [
      "  ./src/math.test.ts::math > adds\n",
      { file: "src/math.test.ts", segments: ["math", "adds"] },
    ],
    [
      "tests\\unit\\test_calc.py::test_add",
      { file: "tests/unit/test_calc.py", segments: ["test_add"] },
    ],
    [".\\tests\\test_calc.py::test_add", { file: "tests/test_calc.py", segments: ["test_add"] }],
    // A vitest title may hold `::` when the describes are joined by ` > `.
    ["src/a.test.ts::a > b::c", { file: "src/a.test.ts", segments: ["a", "b::c"] }],
    // pytest parameters are one segment whatever they hold.
    [
      "tests/test_cmp.py::TestCmp::test_gt[1 > 0]",
      { file: "tests/test_cmp.py", segments: ["TestCmp", "test_gt[1 > 0]"] },
    ],
    ["tests/test_x.py::test_x[a::b]", { file: "tests/test_x.py", segments: ["test_x[a::b]"] }],
    ["charge-basic", { slug: "charge-basic" }],
    ["Refund_full2", { slug: "Refund_full2" }],
    ["auth/login.ok", { slug: "auth/login.ok" }],
    ["tests/test_calc.py", undefined],
    ["src/math.test.ts", undefined],
    ["calc_test.go", undefined],
    ["tests/test_calc.py::", undefined],
    ["::test_add", undefined],
    ["tests/test_calc.py::TestCalc::::test_add", undefined],
    ["src/a.test.ts::math >  > adds", undefined],
    ["-flag", undefined],
    ["has space", undefined],
    ["", undefined],
    ["src/a.test.ts:12", undefined],
  ])("%j", (text, expected) => {
    expect(parseTestId(text)).toEqual(expected);
  });

  it.each<[string, string[], RunnerId]>([
    ["tests/test_calc.py", ["TestCalc", "test_add[1-2-3]"], "pytest"],
    ["tests/test_calc.py", ["test_add[2-2-5]"], "pytest"],
    ["tests/test_cmp.py", ["test_cmp[1 > 0]"], "pytest"],
    ["tests/test_x.py", ["TestOuter", "TestInner", "test_x[a::b-c]"], "pytest"],
    ["tests/test_more.py", ["TestMore", "test_subtests"], "unittest"],
    ["src/math.test.ts", ["math", "adds (1+1)"], "vitest"],
    ["src/math.test.ts", ["math", "nested", "inc 2 -> 3"], "vitest"],
    ["src/math.test.ts", ["handles spaces, commas and (parentheses)"], "vitest"],
    ["src/math.test.ts", ["math", `keeps "quotes" and 'escapes'`], "vitest"],
    ["src/calc.test.js", ["calc", "add", "adds [1, 2]"], "jest"],
    ["test/calc.test.js", ["calc", "adds two numbers"], "mocha"],
    ["calc_test.go", ["TestAdd", "negative_numbers"], "go"],
  ])("round-trips %s %j (%s)", (file, segments, runner) => {
    expect(parseTestId(formatTestId({ file, segments, runner }))).toEqual({ file, segments });
  });
});

describe("languageOfTestFile", () => {
  it.each<[string, ReturnType<typeof languageOfTestFile>]>([
    ["tests/test_a.py", "python"],
    ["a.js", "js"],
    ["a.jsx", "js"],
    ["src/a.test.ts", "js"],
    ["src/A.test.TSX", "js"],
    ["a.mjs", "js"],
    ["a.cjs", "js"],
    ["a.mts", "js"],
    ["a.cts", "js"],
    ["calc_test.go", undefined],
    ["tests/test_a.pyc", undefined],
    ["Makefile", undefined],
  ])("%s → %s", (path, language) => {
    expect(languageOfTestFile(path)).toBe(language);
  });
});

describe("findTestDeclarations", () => {
  it("finds pytest's tests, their classes and their annotations", () => {
    expect(findTestDeclarations(PYTHON_SOURCE, "python")).toEqual(PYTHON_DECLARATIONS);
  });

  it("finds vitest's tests, their describes and their annotations", () => {
    expect(findTestDeclarations(JS_SOURCE, "js")).toEqual(JS_DECLARATIONS);
  });

  it("reads the fixture projects' own tests", () => {
    expect(findTestDeclarations(runners.readText("vitest/src/calc.test.ts") ?? "", "js")).toEqual([
      { line: 5, segments: ["calc", "adds two numbers"] },
      { line: 10, segments: ["calc", "fails on purpose"] },
    ]);
    const pytest = runners.readText("pytest-pyproject/tests/test_calc.py") ?? "";
    expect(findTestDeclarations(pytest, "python")).toEqual([
      { line: 4, segments: ["test_adds_two_numbers"] },
      { line: 9, segments: ["test_fails_on_purpose"] },
    ]);
    const unittest = runners.readText("unittest/tests/test_calc.py") ?? "";
    expect(findTestDeclarations(unittest, "python").map((found) => found.segments)).toEqual([
      ["TestCalc", "test_adds_two_numbers"],
      ["TestCalc", "test_fails_on_purpose"],
    ]);
  });

  it.each<[string, string, TestDeclaration[]]>([
    [
      "a unittest.TestCase subclass not named Test*",
      "import unittest\nclass CalcTests(unittest.TestCase):\n    def test_add(self):\n        pass\n",
      [{ line: 3, segments: ["CalcTests", "test_add"] }],
    ],
    [
      "CRLF line ends",
      "# tailtest-id: crlf\r\ndef test_a():\r\n    pass\r\n",
      [{ line: 2, segments: ["test_a"], slug: "crlf" }],
    ],
    [
      "an annotation 3 lines up, across a blank and a comment",
      "# tailtest-id: three-up\n\n# why\ndef test_a():\n    pass\n",
      [{ line: 4, segments: ["test_a"], slug: "three-up" }],
    ],
    [
      "an annotation 4 lines up",
      "# tailtest-id: four-up\n\n\n# why\ndef test_a():\n    pass\n",
      [{ line: 5, segments: ["test_a"] }],
    ],
    [
      "the nearest of two annotations",
      "# tailtest-id: outer\n# tailtest-id: inner\ndef test_a():\n    pass\n",
      [{ line: 3, segments: ["test_a"], slug: "inner" }],
    ],
    [
      "a malformed annotation",
      "# tailtest-id: -bad\ndef test_a():\n    pass\n# tailtest-id: two words\ndef test_b():\n",
      [
        { line: 2, segments: ["test_a"] },
        { line: 5, segments: ["test_b"] },
      ],
    ],
    [
      "an annotation above a decorator, with a comment between the decorator and the def",
      "# tailtest-id: over-the-comment\n@pytest.mark.slow\n# why\ndef test_a():\n    pass\n",
      [{ line: 4, segments: ["test_a"], slug: "over-the-comment" }],
    ],
    [
      "an annotation written as a JS comment",
      "// tailtest-id: slashes\ndef test_a():\n    pass\n",
      [{ line: 2, segments: ["test_a"], slug: "slashes" }],
    ],
  ])("python: %s", (_name, source, expected) => {
    expect(findTestDeclarations(source, "python")).toEqual(expected);
  });

  it.each<[string, string, TestDeclaration[]]>([
    [
      "mocha's context and node:test's suite",
      'context("calc", () => {\n  suite("add", () => {\n    it("adds", () => {});\n  });\n});\n',
      [{ line: 3, segments: ["calc", "add", "adds"] }],
    ],
    [
      "modifiers chained on it and describe",
      'describe.concurrent.only("a", () => {\n  it.skip.fails("b", () => {});\n  test.todo("c");\n});\n',
      [
        { line: 2, segments: ["a", "b"] },
        { line: 3, segments: ["a", "c"] },
      ],
    ],
    [
      "a test after a describe closed (same indentation)",
      'describe("a", () => {\n  it("b", () => {});\n});\nit("c", () => {});\n',
      [
        { line: 2, segments: ["a", "b"] },
        { line: 4, segments: ["c"] },
      ],
    ],
    [
      "a block comment spanning lines that holds a test call",
      '/*\nit("commented out", () => {});\n*/\nit("real", () => {});\n',
      [{ line: 4, segments: ["real"] }],
    ],
    [
      "an annotation above a describe does not reach its tests",
      '// tailtest-id: suite-level\ndescribe("a", () => {\n  it("b", () => {});\n});\n',
      [{ line: 3, segments: ["a", "b"] }],
    ],
    [
      "an annotation does not jump over another test",
      '// tailtest-id: first\nit("a", () => {});\nit("b", () => {});\n',
      [
        { line: 2, segments: ["a"], slug: "first" },
        { line: 3, segments: ["b"] },
      ],
    ],
    [
      "an annotation above a JSDoc block",
      '// tailtest-id: documented\n/**\n * Why.\n */\nit("a", () => {});\n',
      [{ line: 5, segments: ["a"] }],
    ],
    [
      "an annotation with a JSDoc line between",
      '// tailtest-id: documented\n/** Why. */\nit("a", () => {});\n',
      [{ line: 3, segments: ["a"], slug: "documented" }],
    ],
    [
      "an annotation written with #",
      '# tailtest-id: hash\nit("a", () => {});\n',
      [{ line: 2, segments: ["a"], slug: "hash" }],
    ],
    [
      "escapes in titles",
      "it(\"tab\\there\", () => {});\nit('it\\'s', () => {});\nit(`back\\`tick`, () => {});\n",
      [
        { line: 1, segments: ["tab\there"] },
        { line: 2, segments: ["it's"] },
        { line: 3, segments: ["back`tick"] },
      ],
    ],
    [
      "a title that does not close on its line",
      'it("never closed, () => {});\nit("b", () => {});\n',
      [{ line: 2, segments: ["b"] }],
    ],
    [
      "calls that only look like tests",
      'items("a", () => {});\ntesting("b");\nit.skipIf(cond)("c", () => {});\nthis.it("d");\nit.each("xy")("e %s", () => {});\n',
      [],
    ],
  ])("js: %s", (_name, source, expected) => {
    expect(findTestDeclarations(source, "js")).toEqual(expected);
  });
});

describe("resolveSlug", () => {
  const files = [
    { path: "tests/test_billing.py", source: PYTHON_SOURCE },
    { path: "src/ids.test.ts", source: JS_SOURCE },
    { path: "README.md", source: "# tailtest-id: charge-basic\ndef test_not_code():\n" },
    {
      path: "tests/test_dupes.py",
      source:
        "# tailtest-id: twice\ndef test_a():\n    pass\n# tailtest-id: twice\ndef test_b():\n",
    },
    { path: "src/dupe.test.ts", source: '// tailtest-id: math-adds\nit("again", () => {});\n' },
  ];

  it.each<[string, ReturnType<typeof resolveSlug>]>([
    ["charge-basic", { file: "tests/test_billing.py", segments: ["test_charge"] }],
    ["refund-full", { file: "tests/test_billing.py", segments: ["TestRefunds", "test_full"] }],
    ["top-level", { file: "src/ids.test.ts", segments: ["adds at the top level"] }],
    ["too-far-up", { error: "no test carries tailtest-id: too-far-up" }],
    ["nowhere", { error: "no test carries tailtest-id: nowhere" }],
    [
      "twice",
      {
        error:
          "tailtest-id: twice is on 2 tests (tests/test_dupes.py:2, tests/test_dupes.py:5); make it unique",
      },
    ],
    [
      "math-adds",
      {
        error:
          "tailtest-id: math-adds is on 2 tests (src/ids.test.ts:12, src/dupe.test.ts:2); make it unique",
      },
    ],
  ])("%s", (slug, expected) => {
    expect(resolveSlug(slug, files)).toEqual(expected);
  });
});

describe("annotationFor", () => {
  it.each<[string, "python" | "js", string[], string | undefined]>([
    ["python exact", "python", ["test_charge"], "charge-basic"],
    ["a pytest parameter case", "python", ["test_charge_many[2]"], "charge-params"],
    ["a class method", "python", ["TestRefunds", "test_full"], "refund-full"],
    ["python without annotation", "python", ["TestRefunds", "test_partial"], undefined],
    ["python never by title alone", "python", ["test_full"], undefined],
    ["python: unknown test", "python", ["test_nothing"], undefined],
    ["js exact", "js", ["math", "adds (1+1)"], "math-adds"],
    ["js top level", "js", ["adds at the top level"], "top-level"],
    ["js by its unique title", "js", ["math adds (1+1)"], undefined],
    ["js: describes named otherwise", "js", ["other", "adds (1+1)"], "math-adds"],
    ["js: brackets are no parameters", "js", ["math", "adds (1+1)[1]"], undefined],
    ["js: unknown test", "js", ["math", "subtracts"], undefined],
  ])("%s", (_name, language, segments, slug) => {
    const source = language === "python" ? PYTHON_SOURCE : JS_SOURCE;
    expect(annotationFor(source, language, segments)).toBe(slug);
  });

  it("refuses a title that several declarations share", () => {
    const source = [
      'describe("a", () => {',
      "  // tailtest-id: first",
      '  it("same", () => {});',
      "});",
      'describe("b", () => {',
      "  // tailtest-id: second",
      '  it("same", () => {});',
      "});",
    ].join("\n");
    expect(annotationFor(source, "js", ["b", "same"])).toBe("second");
    expect(annotationFor(source, "js", ["c", "same"])).toBeUndefined();
  });
});

describe("toStrictTest", () => {
  it.each<[string, TestId, string | undefined, ReturnType<typeof toStrictTest>]>([
    [
      "an annotated pytest case",
      { runner: "pytest", file: "tests/test_billing.py", segments: ["test_charge_many[1]"] },
      PYTHON_SOURCE,
      {
        id: "charge-params",
        file: "tests/test_billing.py",
        segments: ["test_charge_many[1]"],
        runner: "pytest",
        source: "annotation",
      },
    ],
    [
      "a pytest test without annotation",
      {
        runner: "pytest",
        file: "tests/test_billing.py",
        segments: ["TestRefunds", "test_partial"],
      },
      PYTHON_SOURCE,
      {
        id: "tests/test_billing.py::TestRefunds::test_partial",
        file: "tests/test_billing.py",
        segments: ["TestRefunds", "test_partial"],
        runner: "pytest",
        source: "native",
      },
    ],
    [
      "an annotated vitest test",
      { runner: "vitest", file: "src/ids.test.ts", segments: ["math", "adds (1+1)"] },
      JS_SOURCE,
      {
        id: "math-adds",
        file: "src/ids.test.ts",
        segments: ["math", "adds (1+1)"],
        runner: "vitest",
        source: "annotation",
      },
    ],
    [
      "no source at hand",
      { runner: "vitest", file: "src/ids.test.ts", segments: ["math", "adds (1+1)"] },
      undefined,
      {
        id: "src/ids.test.ts::math > adds (1+1)",
        file: "src/ids.test.ts",
        segments: ["math", "adds (1+1)"],
        runner: "vitest",
        source: "native",
      },
    ],
    [
      "a language without a static parser",
      { runner: "go", file: "calc_test.go", segments: ["TestAdd"] },
      "// tailtest-id: go-add\nfunc TestAdd(t *testing.T) {}\n",
      {
        id: "calc_test.go::TestAdd",
        file: "calc_test.go",
        segments: ["TestAdd"],
        runner: "go",
        source: "native",
      },
    ],
  ])("%s", (_name, id, source, expected) => {
    const test = toStrictTest(id, source);
    expect(test).toEqual(expected);
    expect(StrictTestSchema.parse(test)).toEqual(test);
  });

  it("copies the segments, never shares them", () => {
    const id: TestId = { runner: "pytest", file: "tests/test_a.py", segments: ["test_a"] };
    const test = toStrictTest(id, undefined);
    test.segments.push("changed");
    expect(id.segments).toEqual(["test_a"]);
  });
});
