/**
 * A pytest support file (a `conftest.py`, a helper of the test area) that rewrites what a test's
 * run reports: a `pytest_runtest_makereport` hook setting a report's outcome, a hook wrapper that
 * forces another result, one that drops the test's exception (`call.excinfo = None`) or swaps the
 * test function pytest calls, or one that writes over the JUnit report tailtest reads. Such a
 * file can be written with the test, before its Red or claim, and act only once the code under
 * test exists (`if hasattr(calc, "mul")`): the Red fails for the right reason, its support never
 * changes, and every later run passes whatever the code does (ADR 0012, the twelfth round).
 * Honest conftests read reports (`setattr(item, "rep_" + rep.when, rep)`), or turn one into a
 * failure or a skip; they do not turn one into a pass. A pass measured while one is in the test's
 * support is not trusted.
 */

/** The forms, each with how it is named to the agent. */
const REWRITES: ReadonlyArray<readonly [RegExp, string]> = [
  // `report.outcome = "passed"`: a failure reported as a pass, wherever it is written.
  [/\.\s*outcome\s*=\s*(?:"passed"|'passed')/, "sets a report's outcome"],
  [/\bsetattr\s*\([^,()]+,\s*(?:"outcome"|'outcome')/, "sets a report's outcome"],
  // `call.excinfo = None` before the report is made: the test's exception dropped.
  [/\.\s*excinfo\s*=(?!=)|\bsetattr\s*\([^,()]+,\s*["']excinfo["']/, "drops a test's exception"],
  [/\[\s*(?:"outcome"|'outcome')\s*\]\s*=(?!=)/, "sets a report's outcome"],
  // A hook wrapper replacing the hooks' result (`outcome.force_result(…)`).
  [/\bforce_result\s*\(/, "replaces a hook's result (force_result)"],
  // The JUnit report tailtest reads, written over after pytest wrote it.
  [/\bxmlpath\b|\bxml_key\b|\bLogXML\b/, "touches the JUnit report"],
  // The test's body swapped for another (`item.runtest = lambda: None`).
  [/\.\s*runtest\s*=(?!=)/, "replaces the test it runs"],
];

/** Forms read only in a file that implements a pytest hook (`def pytest_…`). */
const IN_HOOKS: ReadonlyArray<readonly [RegExp, string]> = [
  // `rep.outcome = x` (a helper's `self.outcome = …` elsewhere is not a report); a failure or a
  // skip is never a pass, so those two words are let be.
  [
    /\.\s*outcome\s*=(?!=)(?!\s*(?:"(?:failed|skipped)"|'(?:failed|skipped)'))/,
    "sets a report's outcome",
  ],
  // `item.obj = lambda: None`: the test function pytest calls, swapped.
  [
    /\.\s*_?obj\s*=(?!=)|\bsetattr\s*\([^,()]+,\s*["']_?obj["']/,
    "replaces the test function it runs",
  ],
];

/** Python text with its comment lines dropped (a comment naming a form is not the form). */
function code(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n");
}

/** How a support file rewrites what a run reports, or undefined when it does not. */
export function outcomeRewrite(text: string): string | undefined {
  const body = code(text);
  for (const [form, words] of REWRITES) if (form.test(body)) return words;
  if (!/^\s*def\s+pytest_\w+\s*\(/m.test(body)) return undefined;
  for (const [form, words] of IN_HOOKS) if (form.test(body)) return words;
  return undefined;
}

/** The sentence a run's result carries when a support file rewrites outcomes. */
export function outcomeRewriteReason(path: string, words: string, runner = "pytest"): string {
  return `its pass is not trusted: ${path}, which ${runner} loads for it, ${words}, so a failing test can be reported as passing; remove that from ${path}`;
}

/**
 * The matchers jest and vitest ship (`expect(x).toBe(y)`): a support file giving one of these
 * names a new body through `expect.extend` makes every assertion that uses it pass.
 */
const BUILT_IN_MATCHERS = [
  "toBe",
  "toBeCalled",
  "toBeCalledTimes",
  "toBeCalledWith",
  "toBeCloseTo",
  "toBeDefined",
  "toBeFalsy",
  "toBeGreaterThan",
  "toBeGreaterThanOrEqual",
  "toBeInstanceOf",
  "toBeLessThan",
  "toBeLessThanOrEqual",
  "toBeNaN",
  "toBeNull",
  "toBeOneOf",
  "toBeTruthy",
  "toBeTypeOf",
  "toBeUndefined",
  "toContain",
  "toContainEqual",
  "toEqual",
  "toHaveBeenCalled",
  "toHaveBeenCalledOnce",
  "toHaveBeenCalledTimes",
  "toHaveBeenCalledWith",
  "toHaveBeenLastCalledWith",
  "toHaveBeenNthCalledWith",
  "toHaveLastReturnedWith",
  "toHaveLength",
  "toHaveNthReturnedWith",
  "toHaveProperty",
  "toHaveReturned",
  "toHaveReturnedTimes",
  "toHaveReturnedWith",
  "toMatch",
  "toMatchFileSnapshot",
  "toMatchInlineSnapshot",
  "toMatchObject",
  "toMatchSnapshot",
  "toSatisfy",
  "toStrictEqual",
  "toThrow",
  "toThrowError",
  "toThrowErrorMatchingInlineSnapshot",
  "toThrowErrorMatchingSnapshot",
].join("|");

/** JavaScript forms, each with how it is named to the agent. */
const JS_REWRITES: ReadonlyArray<readonly [RegExp, string]> = [
  // Chai's own ways to give an assertion a new body (vitest's `expect` is chai's).
  [/\boverwrite(?:Method|Property|ChainableMethod)\s*\(/, "replaces a built-in assertion"],
  [
    /\bAssertion\s*\.\s*prototype\s*(?:\.\s*[\w$]+|\[[^\]]+\])\s*=(?![=>])/,
    "replaces a built-in assertion",
  ],
];

/** A built-in matcher's name as a key of an object (`toBe:`, `"toBe":`, `toBe(a, b) {`). */
const BUILT_IN_KEY = new RegExp(
  `(?:^|[{,])\\s*(?:async\\s+)?(?:["'](?:${BUILT_IN_MATCHERS})["']|(?:${BUILT_IN_MATCHERS}))\\s*(?::|\\([^)]*\\)\\s*\\{)`,
  "m",
);

/** JavaScript text with its line and block comments dropped (roughly: no string is parsed). */
function jsCode(text: string): string {
  return text.replace(/\/\*[^]*?\*\//g, "").replace(/(^|[^:"'\\])\/\/[^\n]*/g, "$1");
}

/**
 * How a JavaScript support file (a setup file, a helper of the test area) rewrites what a run
 * reports, or undefined: a built-in matcher given a new body (`expect.extend({ toBe: … })`, chai's
 * `overwriteMethod`, `Assertion.prototype.x = …`). The twin of `outcomeRewrite`: written with the
 * test, it can act only once the module under test exports the new function. Custom matchers
 * (`toBeWithinRange`, jest-dom's) add names and are let be.
 */
export function matcherRewrite(text: string): string | undefined {
  const body = jsCode(text);
  for (const [form, words] of JS_REWRITES) if (form.test(body)) return words;
  if (/\.\s*extend\s*\(/.test(body) && BUILT_IN_KEY.test(body))
    return "gives a built-in matcher a new body (expect.extend)";
  return undefined;
}
