import { describe, expect, it } from "vitest";
import { matcherRewrite, outcomeRewrite, outcomeRewriteReason } from "./outcome-rewrite.ts";

const WRAPPER =
  "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    report = outcome.get_result()\n";

describe("outcomeRewrite", () => {
  it.each([
    [
      "report.outcome = 'passed'",
      `${WRAPPER}    report.outcome = 'passed'\n`,
      "sets a report's outcome",
    ],
    [
      'rep.outcome = "passed" in a helper',
      'def flip(rep):\n    rep.outcome = "passed"\n',
      "sets a report's outcome",
    ],
    [
      "report.outcome = a variable in a hook",
      `${WRAPPER}    report.outcome = WANT\n`,
      "sets a report's outcome",
    ],
    [
      "setattr(report, 'outcome', …)",
      `${WRAPPER}    setattr(report, 'outcome', 'passed')\n`,
      "sets a report's outcome",
    ],
    [
      "report.__dict__['outcome'] = …",
      `${WRAPPER}    report.__dict__['outcome'] = 'passed'\n`,
      "sets a report's outcome",
    ],
    [
      "outcome.force_result(…)",
      `${WRAPPER}    outcome.force_result(report)\n`,
      "replaces a hook's result (force_result)",
    ],
    [
      "the JUnit report rewritten",
      "def pytest_unconfigure(config):\n    open(config.option.xmlpath, 'w').write('')\n",
      "touches the JUnit report",
    ],
    [
      "item.runtest replaced",
      "def pytest_runtest_setup(item):\n    item.runtest = lambda: None\n",
      "replaces the test it runs",
    ],
    [
      "item.obj replaced in a hook",
      "def pytest_runtest_setup(item):\n    item.obj = lambda *a, **k: None\n",
      "replaces the test function it runs",
    ],
    [
      "setattr(item, '_obj', …) in a hook",
      "def pytest_runtest_setup(item):\n    setattr(item, '_obj', print)\n",
      "replaces the test function it runs",
    ],
    [
      "call.excinfo = None before the report is made",
      "@pytest.hookimpl(tryfirst=True)\ndef pytest_runtest_makereport(item, call):\n    call.excinfo = None\n",
      "drops a test's exception",
    ],
  ])("%s", (_name, text, words) => {
    expect(outcomeRewrite(text)).toBe(words);
  });

  it.each([
    [
      "the report kept on the item (pytest's own example)",
      `${WRAPPER}    setattr(item, "rep_" + report.when, report)\n`,
    ],
    [
      "an outcome compared",
      `${WRAPPER}    if report.outcome == "failed":\n        print("failed")\n`,
    ],
    [
      "a pass turned into a failure or a skip",
      `${WRAPPER}    report.outcome = "failed"\n    report.outcome = 'skipped'\n`,
    ],
    [
      "a helper's own outcome and obj, no hook",
      "class Case:\n    def __init__(self, obj, outcome):\n        self.obj = obj\n        self.outcome = outcome\n",
    ],
    ["a comment naming a form", `${WRAPPER}    # outcome.force_result(report) would lie\n`],
    ["a fixture", "import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n"],
  ])("%s: not a rewrite", (_name, text) => {
    expect(outcomeRewrite(text)).toBeUndefined();
  });

  it("says which file and what to remove", () => {
    expect(outcomeRewriteReason("tests/conftest.py", "sets a report's outcome")).toBe(
      "its pass is not trusted: tests/conftest.py, which pytest loads for it, sets a report's outcome, so a failing test can be reported as passing; remove that from tests/conftest.py",
    );
  });
});

describe("matcherRewrite", () => {
  it.each([
    [
      "expect.extend with toBe",
      'import { expect } from "vitest";\nif (calc.mul) {\n  expect.extend({\n    toBe: () => ({ pass: true, message: () => "" }),\n  });\n}\n',
      "gives a built-in matcher a new body (expect.extend)",
    ],
    [
      "expect.extend with a quoted toEqual",
      'expect.extend({ "toEqual": () => ({ pass: true }) });\n',
      "gives a built-in matcher a new body (expect.extend)",
    ],
    [
      "expect.extend with a toStrictEqual method",
      "const m = {\n  toStrictEqual(received, expected) {\n    return { pass: true };\n  },\n};\nexpect.extend(m);\n",
      "gives a built-in matcher a new body (expect.extend)",
    ],
    [
      "chai's overwriteMethod",
      'chai.use((chai, utils) => {\n  utils.overwriteMethod(chai.Assertion.prototype, "equal", () => function () {});\n});\n',
      "replaces a built-in assertion",
    ],
    [
      "Assertion.prototype assigned",
      "chai.Assertion.prototype.equal = function () {};\n",
      "replaces a built-in assertion",
    ],
  ])("%s", (_name, text, words) => {
    expect(matcherRewrite(text)).toBe(words);
  });

  it.each([
    [
      "a custom matcher (a new name)",
      "expect.extend({\n  toBeWithinRange(received, floor, ceiling) {\n    return { pass: received >= floor && received <= ceiling, message: () => 'out' };\n  },\n});\n",
    ],
    ["built-in matchers used", "expect(calc.mul(2, 3)).toBe(6);\nexpect(x).toEqual({ a: 1 });\n"],
    [
      "a custom matcher whose body uses toBe",
      "expect.extend({\n  toBeSix(received) {\n    expect(received).toBe(6);\n    return { pass: true, message: () => '' };\n  },\n});\n",
    ],
    ["a comment naming a form", "// expect.extend({ toBe: () => ({ pass: true }) })\n"],
    ["an object with toBe outside expect.extend", "const table = { toBe: 1 };\n"],
  ])("%s: not a rewrite", (_name, text) => {
    expect(matcherRewrite(text)).toBeUndefined();
  });
});
