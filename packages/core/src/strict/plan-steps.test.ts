import { describe, expect, it } from "vitest";
import { PlanStepSchema, type PlanStep } from "./strict-events.ts";
import {
  describePlanVerdict,
  describePlanWarnings,
  judgePlan,
  readPlanSteps,
  type PlanVerdict,
} from "./plan-steps.ts";

/** The fixture projects' rule of thumb: under tests/, test_*.py, or *.test.* / *.spec.*. */
function isTestFile(path: string): boolean {
  const name = path.split("/").at(-1) ?? path;
  return (
    path.startsWith("tests/") ||
    name.startsWith("test_") ||
    /\.(test|spec)\.[a-z]+$/.test(name) ||
    path.includes("__tests__/")
  );
}

function texts(plan: string): string[] {
  return readPlanSteps(plan, isTestFile).map((step) => step.text);
}

describe("readPlanSteps: what a step is", () => {
  it.each<[string, string, string[]]>([
    ["numbered with dots", "1. add a\n2. add b\n3. add c", ["add a", "add b", "add c"]],
    ["numbered with parens", "1) add a\n2) add b", ["add a", "add b"]],
    ["dash bullets", "- add a\n- add b", ["add a", "add b"]],
    ["star and plus bullets", "* add a\n+ add b", ["add a", "add b"]],
    ["checkboxes", "- [ ] add a\n- [x] add b\n- [X] add c", ["add a", "add b", "add c"]],
    ["indented list", "   1. add a\n   2. add b", ["add a", "add b"]],
    [
      "continuation lines",
      "1. add a\n   to the parser\n\n   with care\n2. add b",
      ["add a\nto the parser\nwith care", "add b"],
    ],
    ["an unindented line ends the item", "- add a\nnot a step\n- add b", ["add a", "add b"]],
    [
      "nested items are the parent's details",
      "1. add a\n   - detail one\n     more of it\n   - detail two\n2. add b",
      ["add a\n- detail one\nmore of it\n- detail two", "add b"],
    ],
    [
      "a single outermost item: its children are the steps",
      "- Implement VAT\n  1. add the test\n     carefully\n  2. make it pass",
      ["add the test\ncarefully", "make it pass"],
    ],
    ["a single item without children is one step", "- just this", ["just this"]],
    [
      "paragraphs under headings that are not steps",
      "# Plan\n\n## Context\nThe app lacks VAT.\n\n## Steps\n1. add a\n2. add b\n",
      ["add a", "add b"],
    ],
    [
      "a heading ends the list above it",
      "## Steps\n- add a\n## Notes\n  indented prose\n- add b",
      ["add a", "add b"],
    ],
    [
      "step headings, with their details",
      "# Plan\n## Context\nwhy\n### Step 1: add a\nthe test first\n- detail\n### Step 2: add b\n## Verification\n- run it",
      ["add a\nthe test first\n- detail", "add b"],
    ],
    [
      "numbered headings",
      "## 1. add a\nbody a\n## 2) add b\n## 3: add c",
      ["add a\nbody a", "add b", "add c"],
    ],
    ["a step heading with no title", "### Step 1\nadd a\n### Step 2 — add b", ["add a", "add b"]],
    [
      "a deeper subheading stays in the step",
      "## Step 1: add a\n#### Notes\nmore\n## Step 2: add b",
      ["add a\n#### Notes\nmore", "add b"],
    ],
    [
      "no list: the whole plan",
      "\n  Fix the bug in the parser.\n  Then done.\n",
      ["Fix the bug in the parser.\n  Then done."],
    ],
    ["an empty plan has no steps", "  \n\n", []],
    ["a horizontal rule is no item", "- add a\n---\n***\n- add b", ["add a", "add b"]],
    [
      "list-looking lines in a fence are not items",
      "1. add a\n```\n- not an item\n# not a heading\n```\n2. add b",
      ["add a", "add b"],
    ],
    ["CRLF line ends", "1. add a\r\n2. add b\r\n", ["add a", "add b"]],
    ["tab indentation", "- add a\n\t- detail\n- add b", ["add a\n- detail", "add b"]],
  ])("%s", (_name, plan, expected) => {
    expect(texts(plan)).toEqual(expected);
  });
});

describe("readPlanSteps: the test a step names", () => {
  it.each<[string, string, Omit<PlanStep, "text">]>([
    [
      "a pytest node id",
      "add VAT, red: tests/test_vat.py::TestVat::test_adds",
      { test_id: "tests/test_vat.py::TestVat::test_adds", test_file: "tests/test_vat.py" },
    ],
    [
      "a vitest id in backticks, with spaces",
      "add `src/math.test.ts::math > adds (1+1)` first",
      { test_id: "src/math.test.ts::math > adds (1+1)", test_file: "src/math.test.ts" },
    ],
    [
      "outside backticks it stops at white space",
      "src/math.test.ts::math > adds",
      { test_id: "src/math.test.ts::math", test_file: "src/math.test.ts" },
    ],
    [
      "punctuation around a bare id",
      "fix (see tests/test_x.py::test_y[1-2]), then stop.",
      { test_id: "tests/test_x.py::test_y[1-2]", test_file: "tests/test_x.py" },
    ],
    [
      "a bold bare id",
      "**tests/test_x.py::test_y**",
      { test_id: "tests/test_x.py::test_y", test_file: "tests/test_x.py" },
    ],
    [
      "the first of two ids",
      "tests/test_a.py::test_a then tests/test_b.py::test_b",
      { test_id: "tests/test_a.py::test_a", test_file: "tests/test_a.py" },
    ],
    [
      "an id inside a command in backticks",
      "run `pytest -q tests/test_x.py::test_y` to see it fail",
      { test_id: "tests/test_x.py::test_y", test_file: "tests/test_x.py" },
    ],
    [
      "a leading ./ is dropped from the file, not the id",
      "./tests/test_x.py::test_y",
      { test_id: "./tests/test_x.py::test_y", test_file: "tests/test_x.py" },
    ],
    [
      "an id in a nested detail",
      "add VAT\n   - red: `tests/test_vat.py::test_vat`",
      { test_id: "tests/test_vat.py::test_vat", test_file: "tests/test_vat.py" },
    ],
    ["a tailtest-id slug", "add VAT (tailtest-id: billing-vat)", { test_id: "billing-vat" }],
    ["a test id: slug", "Test ID: billing.vat_2/x", { test_id: "billing.vat_2/x" }],
    ["a test_id: slug in backticks", "test_id: `billing-vat`", { test_id: "billing-vat" }],
    [
      "a slug with its test file",
      "add VAT, test id: billing-vat in `tests/test_billing.py`",
      { test_id: "billing-vat", test_file: "tests/test_billing.py" },
    ],
    [
      "a label before a path id is not a slug",
      "test id: `tests/test_x.py::test_y`",
      { test_id: "tests/test_x.py::test_y", test_file: "tests/test_x.py" },
    ],
    [
      "a bare label before a path id is not a slug",
      "test_id: tests/test_x.py::test_y",
      { test_id: "tests/test_x.py::test_y", test_file: "tests/test_x.py" },
    ],
    [
      "the earlier of a slug and a path id",
      "tailtest-id: vat, also tests/test_x.py::test_y",
      { test_id: "vat", test_file: "tests/test_x.py" },
    ],
    [
      "no id, but a test file (first that is one)",
      "edit src/vat.py and tests/test_vat.py:12, then `src/__tests__/a.ts`",
      { test_file: "tests/test_vat.py" },
    ],
    ["no id, no test file", "edit src/vat.py and the docs", {}],
    ["a path without an extension is no id", "pkg/vat::TestVat", {}],
    ["an empty name is no id", "tests/test_x.py:: nothing", { test_file: "tests/test_x.py" }],
    ["a word ending in test id is no label", "my-test id: foo", {}],
  ])("%s", (_name, plan, expected) => {
    const steps = readPlanSteps(`1. ${plan}`, isTestFile);
    expect(steps).toHaveLength(1);
    const [step] = steps;
    expect(step).toEqual({ text: expect.any(String), ...expected });
    expect(PlanStepSchema.parse(step)).toEqual(step);
  });

  it("asks isTestFile only about path-like words", () => {
    const asked: string[] = [];
    readPlanSteps("- change `src/a.ts`, src/b, docs/c.md and README.md for x", (path) => {
      asked.push(path);
      return false;
    });
    expect(asked).toEqual(["src/a.ts", "src/b", "docs/c.md", "README.md"]);
  });

  it("reads a whole plan", () => {
    const plan = [
      "# Plan: VAT",
      "",
      "## Context",
      "Invoices lack VAT.",
      "",
      "## Steps",
      "1. Add a failing test `tests/test_vat.py::test_adds_vat`",
      "   - cover 0% too",
      "2. Implement `vat()` in `billing/vat.py` (tailtest-id: vat-rounding)",
      "3. Update the README",
    ].join("\n");
    expect(readPlanSteps(plan, isTestFile)).toEqual([
      {
        text: "Add a failing test `tests/test_vat.py::test_adds_vat`\n- cover 0% too",
        test_id: "tests/test_vat.py::test_adds_vat",
        test_file: "tests/test_vat.py",
      },
      {
        text: "Implement `vat()` in `billing/vat.py` (tailtest-id: vat-rounding)",
        test_id: "vat-rounding",
      },
      { text: "Update the README" },
    ]);
  });
});

const ID = { test_id: "tests/test_a.py::test_a", test_file: "tests/test_a.py" };

describe("judgePlan", () => {
  it.each<[string, PlanStep[], boolean, PlanVerdict]>([
    [
      "every step named",
      [{ text: "a", ...ID }],
      false,
      { accepted: true, missing: [], noFile: [] },
    ],
    [
      "a step names no test",
      [{ text: "a", ...ID }, { text: "b" }, { text: "c", ...ID }, { text: "d" }],
      false,
      { accepted: false, missing: [2, 4], noFile: [] },
    ],
    [
      "refactor mode accepts it",
      [{ text: "a" }],
      true,
      { accepted: true, missing: [1], noFile: [] },
    ],
    [
      "a slug with no file",
      [
        { text: "a", test_id: "vat" },
        { text: "b", ...ID },
      ],
      false,
      { accepted: true, missing: [], noFile: [1] },
    ],
    ["no steps", [], false, { accepted: true, missing: [], noFile: [] }],
  ])("%s", (_name, steps, refactor, verdict) => {
    expect(judgePlan(steps, refactor)).toEqual(verdict);
  });
});

describe("describePlanVerdict", () => {
  it("lists the steps that name no test and says what to do", () => {
    const steps: PlanStep[] = [
      { text: "Add the test", ...ID },
      { text: "Update\n  the   README" },
      { text: `Refactor ${"x".repeat(100)}` },
      { text: "" },
    ];
    expect(describePlanVerdict(judgePlan(steps, false), steps)).toBe(
      [
        "tailtest strict: this plan has steps that name no test.",
        "- step 2: Update the README",
        `- step 3: Refactor ${"x".repeat(71)}…`,
        "- step 4: (no text)",
        "Every step must name the failing test it advances (a test id such as " +
          "`tests/test_x.py::test_y` or `src/x.test.ts::suite > case`, and its test file). " +
          "Pure restructuring, docs, config or dependency bumps belong in refactor mode: " +
          "`tailtest refactor start` (the full test run must pass before the turn ends).",
      ].join("\n"),
    );
  });

  it("says nothing when the plan is accepted", () => {
    const steps: PlanStep[] = [{ text: "a" }];
    expect(describePlanVerdict(judgePlan(steps, true), steps)).toBe("");
  });

  it("stays within a note's cap", () => {
    const steps: PlanStep[] = Array.from({ length: 500 }, (_, i) => ({ text: `step ${i}` }));
    expect(describePlanVerdict(judgePlan(steps, false), steps).length).toBeLessThanOrEqual(8000);
  });
});

describe("describePlanWarnings", () => {
  it.each<[string, PlanStep[], string]>([
    ["none", [{ text: "a", ...ID }], ""],
    [
      "one slug",
      [
        { text: "a", ...ID },
        { text: "b", test_id: "vat" },
      ],
      "tailtest strict: plan step 2 (vat) names a test id but no test file; name the test file too so the test's red can be checked.",
    ],
    [
      "two slugs",
      [
        { text: "a", test_id: "vat" },
        { text: "b", test_id: "rounding" },
      ],
      "tailtest strict: plan steps 1 (vat), 2 (rounding) name a test id but no test file; name the test file too so the test's red can be checked.",
    ],
  ])("%s", (_name, steps, text) => {
    expect(describePlanWarnings(judgePlan(steps, false), steps)).toBe(text);
  });

  it("says nothing about a refused plan", () => {
    const steps: PlanStep[] = [{ text: "a", test_id: "vat" }, { text: "b" }];
    expect(describePlanWarnings(judgePlan(steps, false), steps)).toBe("");
  });
});
