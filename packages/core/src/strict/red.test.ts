import { readRunnerOutput } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import {
  formatMissing,
  isValidRed,
  missingNamesFile,
  readFailure,
  resolveMissing,
  type FailureReading,
  type MissingName,
  type RedRun,
} from "./red.ts";

/** A recorded JSON report's file-level message for the file whose path ends with `suffix`. */
function reportMessage(runner: string, sample: string, suffix: string): string {
  const report = JSON.parse(readRunnerOutput(runner, sample)) as {
    testResults: { name: string; message: string }[];
  };
  const file = report.testResults.find((result) => result.name.endsWith(suffix));
  if (file === undefined) throw new Error(`${sample} has no ${suffix}`);
  return file.message;
}

/** A stderr line of node:test's recorded NDJSON run that contains `text`. */
function nodeTestStderr(text: string): string {
  const line = readRunnerOutput("node-test", "import-error.ndjson")
    .split("\n")
    .find((raw) => raw.includes('"event":"stderr"') && raw.includes(text));
  if (line === undefined) throw new Error(`no stderr line with ${text}`);
  return (JSON.parse(line) as { message: string }).message;
}

const ESC = "\u001b";

/** Messages from real runs (Python 3.11.7, pytest 9.0.3, vitest 4.1.12, node 20.20.2, bun 1.4.5, deno 2.9.6). */
const PYTEST_IMPORT_ERROR = [
  "ImportError while importing test module '/tmp/ttx/pyc/tests/test_imp.py'.",
  "Hint: make sure your test modules/packages have valid Python names.",
  "Traceback:",
  "tests/test_imp.py:1: in <module>",
  "    from billing import refund",
  "E   ImportError: cannot import name 'refund' from 'billing' (/tmp/ttx/pyc/billing.py)",
].join("\n");

const PYTEST_SYNTAX_ERROR = [
  "/home/user/.pyenv/versions/3.11.7/lib/python3.11/ast.py:50: in parse",
  "    return compile(source, filename, mode, flags,",
  'E     File "/tmp/ttx/pyc/tests/test_syntax.py", line 1',
  "E       def test_a(:",
  "E                  ^",
  "E   SyntaxError: invalid syntax",
].join("\n");

const VITEST_PARSE_ERROR = [
  "Transform failed with 1 error:",
  "",
  `${ESC}[31m[PARSE_ERROR] ${ESC}[0mExpected \`,\` or \`)\` but found \`;\``,
  `   ${ESC}[38;5;246m╭${ESC}[0m${ESC}[38;5;246m─[${ESC}[0m src/syntax.test.ts:3:19 ${ESC}[38;5;246m]${ESC}[0m`,
  " 3 │   expect(1).toBe(1;",
].join("\n");

const MOCHA_CJS = readRunnerOutput("mocha", "import-error.stderr.txt");

const DENO_NOT_FOUND = [
  `${ESC}[0m${ESC}[1m${ESC}[31merror${ESC}[0m: Module not found "file:///tmp/ttx/denop/nowhere.ts".`,
  `    at ${ESC}[0m${ESC}[36mfile:///tmp/ttx/denop/broken_test.ts${ESC}[0m:${ESC}[0m${ESC}[33m1${ESC}[0m:${ESC}[0m${ESC}[33m21${ESC}[0m`,
].join("\n");

const none: FailureReading = { syntax_error: false, missing: [] };
const missing = (...names: MissingName[]): FailureReading => ({
  syntax_error: false,
  missing: names,
});

describe("readFailure", () => {
  it.each<[string, string, FailureReading]>([
    // Python
    [
      "pytest's recorded collection error (junit)",
      "ImportError while importing test module '/tmp/tt-pytest.ZGcZ/calc-broken/tests/test_broken.py'.\nTraceback:\ntests/test_broken.py:1: in <module>\n    from nowhere import thing\nE   ModuleNotFoundError: No module named 'nowhere'",
      missing({ module: "nowhere" }),
    ],
    ["pytest junit's short form", "No module named 'nowhere'", missing({ module: "nowhere" })],
    [
      "a missing module",
      "ModuleNotFoundError: No module named 'billing'",
      missing({ module: "billing" }),
    ],
    [
      "a missing submodule",
      "ModuleNotFoundError: No module named 'pkg.sub'",
      missing({ module: "pkg.sub" }),
    ],
    [
      "a submodule of a module that is no package",
      "ModuleNotFoundError: No module named 'billing.sub'; 'billing' is not a package",
      missing({ module: "billing.sub" }),
    ],
    [
      "a missing name (pytest)",
      PYTEST_IMPORT_ERROR,
      missing({ module: "billing", symbol: "refund" }),
    ],
    [
      "a missing name from a package",
      "ImportError: cannot import name 'sub' from 'pkg' (/tmp/ttx/py/pkg/__init__.py)",
      missing({ module: "pkg", symbol: "sub" }),
    ],
    [
      "a missing attribute",
      "AttributeError: module 'billing' has no attribute 'charge'",
      missing({ module: "billing", symbol: "charge" }),
    ],
    [
      "unittest's recorded import error",
      readRunnerOutput("unittest", "import-error.txt"),
      missing({ module: "calc", symbol: "subtract" }),
    ],
    [
      "a circular import (cannot import name)",
      "ImportError: cannot import name 'a' from partially initialized module 'pkg' (most likely due to a circular import) (/x/pkg/__init__.py)",
      none,
    ],
    [
      "a circular import (attribute)",
      "AttributeError: partially initialized module 'pkg' has no attribute 'a' (most likely due to a circular import)",
      none,
    ],
    ["a Python syntax error", PYTEST_SYNTAX_ERROR, { syntax_error: true, missing: [] }],
    [
      "an indentation error",
      "E     IndentationError: unexpected indent",
      { syntax_error: true, missing: [] },
    ],
    ["an assertion", "AssertionError: assert 4 == 5", none],
    // vitest / vite
    [
      "vitest's recorded import error",
      reportMessage("vitest", "import-error.json", "broken.test.ts"),
      missing({ module: "./missing-module", from: "/tmp/tt/vitest/src/broken.test.ts" }),
    ],
    [
      "vitest: a missing module up a folder",
      "Cannot find module '../lib/math' imported from /tmp/ttx/vitest/src/missing.test.ts",
      missing({ module: "../lib/math", from: "/tmp/ttx/vitest/src/missing.test.ts" }),
    ],
    [
      "vitest: a missing module with its extension",
      "Cannot find module './divide.ts' imported from /tmp/ttx/vitest/src/missing2.test.ts",
      missing({ module: "./divide.ts", from: "/tmp/ttx/vitest/src/missing2.test.ts" }),
    ],
    [
      "a quoted importer",
      "Cannot find module '../src/math' imported from '/abs/src/math.test.ts'",
      missing({ module: "../src/math", from: "/abs/src/math.test.ts" }),
    ],
    [
      "vite's import analysis",
      'Failed to resolve import "../src/math" from "src/math.test.ts". Does the file exist?',
      missing({ module: "../src/math", from: "src/math.test.ts" }),
    ],
    ["vitest 4's parse error", VITEST_PARSE_ERROR, { syntax_error: true, missing: [] }],
    [
      "a TypeError from a missing export is no collection failure",
      "TypeError: (0 , __vite_ssr_import_1__.sub) is not a function",
      none,
    ],
    // node
    [
      "node ESM: an absolute module",
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/tmp/ttx/node/src/nowhere.mjs' imported from /tmp/ttx/node/test/b.test.mjs",
      missing({ module: "/tmp/ttx/node/src/nowhere.mjs", from: "/tmp/ttx/node/test/b.test.mjs" }),
    ],
    [
      "node:test's recorded stderr",
      nodeTestStderr("Cannot find module"),
      missing({
        module: "/tmp/tt/nt/proj/src/missing-module.js",
        from: "/tmp/tt/nt/proj/test/broken.test.js",
      }),
    ],
    [
      "node:test's recorded syntax error",
      nodeTestStderr("SyntaxError"),
      { syntax_error: true, missing: [] },
    ],
    [
      "node ESM: a missing package",
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'lodash-nope' imported from /tmp/ttx/node/test/d.test.mjs",
      missing({ module: "lodash-nope", from: "/tmp/ttx/node/test/d.test.mjs" }),
    ],
    [
      "node CJS without a require stack",
      "Error: Cannot find module './math'",
      missing({ module: "./math" }),
    ],
    [
      "mocha's recorded CJS error (the require stack names the importer)",
      MOCHA_CJS,
      missing({ module: "../src/missing-module", from: "/tmp/tt/mocha/test/broken.test.js" }),
    ],
    [
      "node ESM: a missing export is no syntax error",
      "SyntaxError: The requested module './math.ts' does not provide an export named 'add'",
      missing({ module: "./math.ts", symbol: "add" }),
    ],
    [
      "a missing export next to a real syntax error",
      "SyntaxError: The requested module './math.ts' does not provide an export named 'add'\nSyntaxError: missing ) after argument list",
      { syntax_error: true, missing: [{ module: "./math.ts", symbol: "add" }] },
    ],
    // jest
    [
      "jest's recorded missing module",
      reportMessage("jest", "import-error.json", "broken.test.js"),
      missing({ module: "./missing-module", from: "src/broken.test.js" }),
    ],
    [
      "jest: a module up a folder",
      "Cannot find module '../src/math' from 'test/math.test.js'",
      missing({ module: "../src/math", from: "test/math.test.js" }),
    ],
    [
      "jest's recorded syntax error",
      reportMessage("jest", "import-error.json", "syntax.test.js"),
      { syntax_error: true, missing: [] },
    ],
    // bun, deno, tsc
    [
      "bun: a missing module",
      "error: Cannot find module './nowhere' from '/tmp/ttx/bunp/src/broken.test.ts'",
      missing({ module: "./nowhere", from: "/tmp/ttx/bunp/src/broken.test.ts" }),
    ],
    [
      "bun: a missing export is no syntax error",
      "SyntaxError: Export named 'sub' not found in module '/tmp/ttx/bunp/src/calc.ts'.",
      missing({ module: "/tmp/ttx/bunp/src/calc.ts", symbol: "sub" }),
    ],
    [
      "deno: a missing module",
      DENO_NOT_FOUND,
      missing({
        module: "file:///tmp/ttx/denop/nowhere.ts",
        from: "file:///tmp/ttx/denop/broken_test.ts",
      }),
    ],
    [
      "deno's type check: a missing export",
      `TS2305 [ERROR]: Module '"file:///tmp/ttx/denop/calc.ts"' has no exported member 'sub'.`,
      missing({ module: "file:///tmp/ttx/denop/calc.ts", symbol: "sub" }),
    ],
    [
      "tsc: a missing module",
      "src/a.test.ts(2,21): error TS2307: Cannot find module './math' or its corresponding type declarations.",
      missing({ module: "./math" }),
    ],
    [
      "the same module twice: the importer is kept",
      "error TS2307: Cannot find module './math' or its corresponding type declarations.\nCannot find module './math' imported from /abs/src/a.test.ts",
      missing({ module: "./math", from: "/abs/src/a.test.ts" }),
    ],
    [
      "two missing modules",
      "No module named 'billing'\nNo module named 'invoices'",
      missing({ module: "billing" }, { module: "invoices" }),
    ],
    ["nothing", "", none],
  ])("%s", (_name, message, expected) => {
    expect(readFailure(message)).toEqual(expected);
  });
});

describe("formatMissing", () => {
  it.each<[MissingName, string]>([
    [{ module: "billing" }, "billing"],
    [{ module: "billing", symbol: "charge" }, "billing:charge"],
    [{ module: "../src/math", from: "/abs/src/math.test.ts" }, "../src/math"],
  ])("%j → %s", (name, text) => {
    expect(formatMissing(name)).toBe(text);
  });
});

describe("resolveMissing", () => {
  it.each<[MissingName, string, string]>([
    [{ module: "../lib/math" }, "src/math.test.ts", "lib/math"],
    [{ module: "./math.ts", symbol: "add" }, "src/math.test.ts", "src/math:add"],
    [{ module: "./math.js" }, "src/math.test.ts", "src/math"],
    [{ module: "./math.test-helpers" }, "src/math.test.ts", "src/math.test-helpers"],
    [{ module: "./styles.css" }, "src/a.test.ts", "src/styles.css"],
    [{ module: "./calc" }, "calc.test.js", "calc"],
    [{ module: "../lib" }, "src/a.test.ts", "lib"],
    [{ module: "./a/../b/./c" }, "src/x.test.ts", "src/b/c"],
    [{ module: "../../outside" }, "src/a.test.ts", "../outside"],
    [{ module: "../lib/math" }, "./src\\math.test.ts", "lib/math"],
    // The importer named by the message: the test itself, however it is written.
    [
      { module: "../lib/math", from: "/tmp/ttx/vitest/src/missing.test.ts" },
      "src/missing.test.ts",
      "lib/math",
    ],
    [{ module: "../src/math", from: "src/math.test.ts" }, "src/math.test.ts", "src/math"],
    [
      { module: "../lib/math", from: "src/a.test.js" },
      "packages/web/src/a.test.js",
      "packages/web/lib/math",
    ],
    // … or a helper the test loads.
    [{ module: "./db", from: "/abs/proj/src/helpers/setup.ts" }, "src/a.test.ts", "src/helpers/db"],
    [{ module: "./db", from: "src/helpers/setup.js" }, "src/a.test.js", "src/helpers/db"],
    [{ module: "./db", from: "/elsewhere/setup.ts" }, "src/a.test.ts", "src/db"],
    // Absolute paths inside the project.
    [
      { module: "/tmp/ttx/node/src/nowhere.mjs", from: "/tmp/ttx/node/test/b.test.mjs" },
      "test/b.test.mjs",
      "src/nowhere",
    ],
    [{ module: "/tmp/ttx/bunp/src/calc.ts", symbol: "sub" }, "src/noexp.test.ts", "src/calc:sub"],
    [
      {
        module: "file:///tmp/ttx/denop/nowhere.ts",
        from: "file:///tmp/ttx/denop/broken_test.ts",
      },
      "broken_test.ts",
      "nowhere",
    ],
    [{ module: "/usr/lib/node/x.js" }, "src/a.test.ts", "/usr/lib/node/x.js"],
    // Python modules and packages stay as written.
    [{ module: "pkg.sub" }, "tests/test_sub.py", "pkg.sub"],
    [{ module: "billing", symbol: "charge" }, "tests/test_billing.py", "billing:charge"],
    [
      { module: "lodash-nope", from: "/tmp/ttx/node/test/d.test.mjs" },
      "test/d.test.mjs",
      "lodash-nope",
    ],
  ])("%j in %s → %s", (name, testFile, stored) => {
    expect(resolveMissing(name, testFile)).toBe(stored);
  });
});

describe("missingNamesFile", () => {
  it.each<[string[], string, boolean]>([
    [["lib/math"], "lib/math.ts", true],
    [["lib/math"], "lib/math.js", true],
    [["lib/math"], "lib/math.mjs", true],
    [["lib/math"], "./lib/math.ts", true],
    [["lib/math"], "lib/math/index.ts", true],
    [["lib"], "lib/index.ts", true],
    [["lib/math"], "lib/mathx.ts", false],
    [["lib/math"], "src/lib/math.ts", false],
    [["lib/math"], "lib/math.test.ts", false],
    [["Lib/math"], "lib/math.ts", false],
    [["src/math:add"], "src/math.ts", true],
    [["src/math:add"], "src/add.ts", false],
    [["other", "lib/math"], "lib/math.ts", true],
    [["billing"], "billing.py", true],
    [["billing"], "src/billing.py", true],
    [["billing"], "billing/__init__.py", true],
    [["billing"], "src/billing/__init__.py", true],
    [["billing"], "Billing.py", false],
    [["billing"], "mybilling.py", false],
    [["billing"], "billing_utils.py", false],
    [["billing"], "tests/test_billing.py", false],
    [["billing:charge"], "billing.py", true],
    [["pkg.sub"], "pkg/sub.py", true],
    [["pkg.sub"], "src/pkg/sub.py", true],
    [["pkg.sub"], "pkg/sub/__init__.py", true],
    [["pkg.sub:f"], "lib/python/pkg/sub.py", true],
    [["pkg.sub"], "pkg.py", false],
    [["pkg.sub"], "sub.py", false],
    [["pkg.sub"], "pkg/sub.ts", false],
    [["pkg"], "pkg/sub.py", false],
    [[], "billing.py", false],
    [[":charge"], "billing.py", false],
  ])("%j names %s: %s", (entries, relPath, expected) => {
    expect(missingNamesFile(entries, relPath)).toBe(expected);
  });
});

describe("isValidRed", () => {
  const collection = (missingNames: string[]): RedRun => ({
    status: "fail",
    fail_reason: "collection",
    missing: missingNames,
  });

  it.each<[string, RedRun, string, ReturnType<typeof isValidRed>]>([
    ["an assertion", { status: "fail", fail_reason: "assertion" }, "src/math.ts", { valid: true }],
    [
      "a collection failure naming the claimed file",
      collection(["src/math"]),
      "src/math.ts",
      { valid: true },
    ],
    [
      "a missing symbol of the claimed file",
      collection(["billing:charge"]),
      "src/billing.py",
      { valid: true },
    ],
    ["a pass", { status: "pass" }, "src/math.ts", { valid: false, why: "it passes" }],
    ["not run", { status: "not_run" }, "src/math.ts", { valid: false, why: "it did not run" }],
    ["skipped", { status: "skip" }, "src/math.ts", { valid: false, why: "it did not run" }],
    [
      "an assertion that is a syntax error",
      { status: "fail", fail_reason: "assertion", syntax_error: true },
      "src/math.ts",
      { valid: false, why: "a syntax error is not a red" },
    ],
    [
      "a collection failure that is a syntax error",
      { ...collection(["src/math"]), syntax_error: true },
      "src/math.ts",
      { valid: false, why: "a syntax error is not a red" },
    ],
    [
      "a timeout",
      { status: "fail", fail_reason: "timeout" },
      "src/math.ts",
      { valid: false, why: "a timeout is not a red" },
    ],
    [
      "a crash",
      { status: "fail", fail_reason: "crash" },
      "src/math.ts",
      { valid: false, why: "a crash is not a red" },
    ],
    [
      "another missing module",
      collection(["stripe"]),
      "src/billing.py",
      { valid: false, why: "the missing module is stripe, not src/billing.py" },
    ],
    [
      "several other missing modules",
      collection(["lib/a", "lib/b:f"]),
      "lib/c.ts",
      { valid: false, why: "the missing module is lib/a, lib/b:f, not lib/c.ts" },
    ],
    [
      "a collection failure naming nothing",
      collection([]),
      "src/math.ts",
      { valid: false, why: "a collection failure that names no missing module is not a red" },
    ],
    [
      "a collection failure without the field",
      { status: "fail", fail_reason: "collection" },
      "src/math.ts",
      { valid: false, why: "a collection failure that names no missing module is not a red" },
    ],
    [
      "a failure of no known kind",
      { status: "fail" },
      "src/math.ts",
      { valid: false, why: "a failure of unknown kind is not a red" },
    ],
  ])("%s", (_name, run, claimed, verdict) => {
    expect(isValidRed(run, claimed)).toEqual(verdict);
  });
});

describe("a collection red end to end", () => {
  /** readFailure → resolveMissing (what the event stores) → isValidRed for a claim. */
  function verdict(message: string, testFile: string, claimed: string) {
    const reading = readFailure(message);
    const stored = reading.missing.map((name) => resolveMissing(name, testFile));
    return isValidRed(
      {
        status: "fail",
        fail_reason: "collection",
        syntax_error: reading.syntax_error,
        missing: stored,
      },
      claimed,
    );
  }

  it.each<[string, string, string, string, ReturnType<typeof isValidRed>]>([
    [
      "vitest, the module the claim creates",
      reportMessage("vitest", "import-error.json", "broken.test.ts"),
      "src/broken.test.ts",
      "src/missing-module.ts",
      { valid: true },
    ],
    [
      "vitest, another file",
      reportMessage("vitest", "import-error.json", "broken.test.ts"),
      "src/broken.test.ts",
      "src/calc.ts",
      { valid: false, why: "the missing module is src/missing-module, not src/calc.ts" },
    ],
    [
      "jest",
      reportMessage("jest", "import-error.json", "broken.test.js"),
      "src/broken.test.js",
      "src/missing-module.js",
      { valid: true },
    ],
    [
      "jest, a syntax error",
      reportMessage("jest", "import-error.json", "syntax.test.js"),
      "src/syntax.test.js",
      "src/calc.js",
      { valid: false, why: "a syntax error is not a red" },
    ],
    ["mocha", MOCHA_CJS, "test/broken.test.js", "src/missing-module/index.js", { valid: true }],
    [
      "node:test",
      nodeTestStderr("Cannot find module"),
      "test/broken.test.js",
      "src/missing-module.js",
      { valid: true },
    ],
    [
      "pytest, a missing name of the claimed module",
      PYTEST_IMPORT_ERROR,
      "tests/test_imp.py",
      "src/billing.py",
      { valid: true },
    ],
    [
      "unittest",
      readRunnerOutput("unittest", "import-error.txt"),
      "tests/test_broken.py",
      "calc.py",
      { valid: true },
    ],
    ["deno", DENO_NOT_FOUND, "broken_test.ts", "nowhere.ts", { valid: true }],
  ])("%s", (_name, message, testFile, claimed, expected) => {
    expect(verdict(message, testFile, claimed)).toEqual(expected);
  });
});
