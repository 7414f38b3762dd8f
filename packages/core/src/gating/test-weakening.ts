/**
 * A test made to stop testing (ADR 0012, the twenty-second round): an existing test file the
 * turn changed so that less of it can fail — a skip or an expected failure added, an assertion
 * removed or commented out, an assertion's expected value or operator changed, an assertion
 * that cannot fail added, the file deleted. tdd refuses a test edit outside a Red, and a
 * claimed or Red test is held by its hash; any other test was the agent's to edit, and a failing
 * one edited to match the bug ended its turn green. Read from the text, before and after; said at
 * the Stop, never refused (deleting an obsolete test is honest work, and the agent is asked why).
 */

type Family = "python" | "js";

const PYTHON = /\.pyi?$/;
const JS = /\.[cm]?[jt]sx?$/;

function familyOf(path: string): Family | undefined {
  if (PYTHON.test(path)) return "python";
  if (JS.test(path)) return "js";
  return undefined;
}

/** A line that is only a comment: commenting an assertion out removes it. */
const COMMENT: Record<Family, RegExp> = { python: /^\s*#/, js: /^\s*(\/\/|\/\*|\*)/ };

/** A skip, an expected failure or a focus that leaves other tests out. */
const SKIP: Record<Family, RegExp> = {
  python:
    /\b(?:pytest\.)?mark\.(skip|skipif|xfail)\b|\bpytest\.(skip|xfail|importorskip)\s*\(|\bunittest\.(skip|skipIf|skipUnless|expectedFailure)\b|@(skip|skipIf|skipUnless|expectedFailure)\b|\.skipTest\s*\(|\bSkipTest\b|\bpytest\.skip\.Exception\b|\b__test__\s*=\s*(False|0|None)\b|^\s*def\s+load_tests\s*\(|\bparametrize\s*\(\s*[^,()]+,\s*(?:\[\s*\]|\(\s*\)|\{\s*\}|set\s*\(\s*\))\s*[,)]/g,
  js: /\b(it|test|describe|suite|context|specify|bench)(\s*\.\s*(concurrent|sequential|shuffle))*\s*\.\s*(skip|todo|skipIf|runIf|fails|failing|only)\b|\b(xit|xtest|xdescribe|xcontext|xspecify|fit|fdescribe)\s*\(|\bthis\.skip\s*\(|\bctx\.skip\s*\(|\bt\.(skip|todo)\s*\(|\.\s*(each|for)\s*\(\s*\[\s*\]\s*\)/g,
};

/*
 * Python's SKIP holds `def load_tests(` too (the thirty-fourth round): unittest runs what a
 * module's `load_tests` returns instead of its tests, so one that leaves the failing test out
 * ran the others green.
 */

/**
 * A way out of a test that leaves its assertions in place: an early return, a branch that never
 * runs (a constant condition, two literals compared, a loop over nothing), a failure caught and
 * dropped, the process ended.
 */
const ESCAPE: Record<Family, RegExp> = {
  python:
    /^\s*((if|elif|else|while)\b[^#\n]*:\s*)?return\s*(None\s*)?(#.*)?$|^\s*(if|elif|while)\s+(False|None|0|not\s+True|not\s+1)\s*:|^\s*(if|elif|while)\s+(-?\d+|'[^']*'|"[^"]*")\s*(==|!=|<=?|>=?)\s*(-?\d+|'[^']*'|"[^"]*")\s*:|^\s*(async\s+)?for\s+[^:]+?\s+in\s+(\[\s*\]|\(\s*\)|\{\s*\}|""|''|range\s*\(\s*0\s*\))\s*:|^\s*except\s*(\(?\s*(AssertionError|Exception|BaseException)\b[^:]*)?:|\bsuppress\s*\([^)]*\b(AssertionError|Exception|BaseException)\b|\b(os\._exit|sys\.exit|pytest\.exit)\s*\(/,
  js: /^\s*return\s*;?\s*$|\b(if|while)\s*\(\s*(false|0|null|undefined|!\s*true|!\s*1)\s*\)|\b(if|while)\s*\(\s*(-?\d+|'[^']*'|"[^"]*")\s*(===?|!==?|<=?|>=?)\s*(-?\d+|'[^']*'|"[^"]*")\s*\)|\bfor\s*\(\s*(const|let|var)\s+[^;)]+?\s+of\s+(\[\s*\]|""|'')\s*\)|\bprocess\s*\.\s*exit\s*\(/,
};

/** A failure caught and dropped over several lines (`catch (e) {}`, `.catch(() => {})`). */
const JS_SWALLOW =
  /\bcatch\s*(\([^)]*\))?\s*\{(?:\s|\/\/[^\n]*|\/\*(?:[^*]|\*(?!\/))*\*\/)*\}|\.catch\s*\(\s*\(?\s*\w*\s*\)?\s*=>\s*(\{\s*\}|undefined|null)\s*\)/g;

/**
 * The failures caught and dropped: a `.catch(() => {})`, and an empty `catch` (or one holding
 * only a comment) whose `try` holds an assertion. A `try` that only runs code expected to throw
 * (`try { program.parse() } catch { /* expected *\/ }`, then the assertion) drops no failure.
 */
function swallowed(text: string): number {
  let found = 0;
  for (const match of text.matchAll(JS_SWALLOW)) {
    if (!match[0].startsWith("catch")) {
      found += 1;
      continue;
    }
    let opened = -1;
    for (const one of text.slice(0, match.index).matchAll(/\btry\s*\{/g)) opened = one.index;
    if (opened !== -1 && ASSERTION.js.test(text.slice(opened, match.index))) found += 1;
  }
  return found;
}

/** A matcher vitest's and jest's `expect` has built in. */
const BUILT_IN_MATCHER =
  /(?:^|[{,\s])["']?(toBe|toEqual|toStrictEqual|toMatchObject|toThrow|toThrowError|toBeTruthy|toBeFalsy|toBeNull|toBeUndefined|toBeDefined|toBeNaN|toContain|toContainEqual|toHaveLength|toHaveProperty|toMatch|toBeCloseTo|toBeGreaterThan|toBeGreaterThanOrEqual|toBeLessThan|toBeLessThanOrEqual|toBeInstanceOf|toBeTypeOf|toSatisfy|toBeOneOf|toMatchSnapshot|toMatchInlineSnapshot|toMatchFileSnapshot|toThrowErrorMatchingSnapshot|toThrowErrorMatchingInlineSnapshot|toHaveBeenCalled\w*|toHaveBeenLastCalledWith|toHaveBeenNthCalledWith|toHaveReturned\w*|toHaveLastReturnedWith|toHaveNthReturnedWith|toHaveResolved\w*)["']?\s*[:(]/;

/**
 * A built-in matcher replaced in `expect.extend({ toStrictEqual: () => ({ pass: true }) })` (the
 * thirty-third round): every assertion that uses it passes, and none of their lines changed. A
 * matcher of the project's own (`toBeWithinRange`) is honest work and not counted.
 */
function matchersReplaced(text: string): number {
  let found = 0;
  for (const match of text.matchAll(/\bexpect\s*\.\s*extend\s*\(/g)) {
    let depth = 0;
    let end = match.index + match[0].length - 1;
    for (; end < text.length; end += 1) {
      const char = text[end];
      if (char === "(" || char === "{" || char === "[") depth += 1;
      else if (char === ")" || char === "}" || char === "]") depth -= 1;
      if (depth === 0) break;
    }
    if (BUILT_IN_MATCHER.test(text.slice(match.index + match[0].length, end))) found += 1;
  }
  return found;
}

/** A return on the line of the condition that guards it (`if (a !== 2) return;`). */
const JS_GUARDED_RETURN = /\b(?:if\s*\(.*\)|else)\s*\{?\s*return\s*;?\s*\}?\s*;?\s*$/;
const JS_TEST_CALL = /^\s*(?:it|test|specify|bench)(?:\s*\.\s*[\w$]+)*\s*\(\s*["'`]/;

/**
 * JavaScript's early returns guarded on their own line (the twenty-ninth round): one in a test's
 * own body, or one followed at its level by an assertion (a helper's `if (e === 5) return;`
 * before its `expect`). One in a callback that asserts nothing after it (a visitor's
 * `if (!node.parent) return`, a loop that makes no test for one method) is the code's own.
 */
function guardedReturns(text: string): number {
  const lines = codeLines(text, "js");
  let found = 0;
  lines.forEach((line, index) => {
    if (COMMENT.js.test(line) || !JS_GUARDED_RETURN.test(line)) return;
    const indent = indentOf(line);
    let opener = index - 1;
    while (
      opener >= 0 &&
      ((lines[opener] ?? "").trim() === "" || indentOf(lines[opener] ?? "") >= indent)
    )
      opener -= 1;
    if (opener < 0) return;
    if (JS_TEST_CALL.test(lines[opener] ?? "")) {
      found += 1;
      return;
    }
    const rest = blockAt(lines, opener, "js").slice(index - opener + 1);
    if (
      rest.some(
        (one) => indentOf(one) === indent && !COMMENT.js.test(one) && ASSERTION.js.test(one),
      )
    )
      found += 1;
  });
  return found;
}

const indentOf = (line: string) => /^(\s*)/.exec(line)?.[1]?.length ?? 0;

/**
 * A file's lines, in Python with the lines inside a triple-quoted string blanked: an expected
 * text at the start of a line does not end the block it sits in.
 */
function codeLines(text: string, family: Family): string[] {
  const lines = text.split("\n");
  if (family !== "python") return lines;
  let open: string | undefined;
  return lines.map((line) => {
    const inside = open !== undefined;
    for (const [quote] of line.matchAll(/"""|'''/g))
      if (open === undefined) open = quote;
      else if (open === quote) open = undefined;
    // A line that opens a string keeps its code; one inside it, or closing it, is text.
    return inside ? "" : line;
  });
}

/**
 * The lines of the block a line opens: it, and what is indented under it (in JavaScript, the
 * closing lines as far out too).
 */
function blockAt(lines: readonly string[], index: number, family: Family): string[] {
  const indent = indentOf(lines[index] ?? "");
  let end = index + 1;
  for (; end < lines.length; end += 1) {
    const next = lines[end] ?? "";
    if (next.trim() === "" || indentOf(next) > indent) continue;
    if (family === "js" && /^\s*[)\]}]/.test(next)) continue;
    break;
  }
  return lines.slice(index, end);
}

/** A function that holds an assertion by a name, or none (a bare arrow statement). */
const FUNCTION: Record<Family, RegExp> = {
  python: /^(\s*)(?:async\s+)?def\s+(\w+)\s*\(/,
  js: /^(\s*)(?:(?:async\s+)?function\s*\*?\s*([\w$]+)\s*\(|(?:const|let|var)\s+([\w$]+)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>))|^(\s*)(?:async\s*)?(?:\([^)]*\)|[\w$]+)\s*=>\s*\{\s*$/,
};

/**
 * Whether the `def` at `index` may be called by the runner or a framework without its name
 * being said: a test at the top (pytest collects it), or a method of a class (a test method,
 * `setUp`, a handler a base class calls) unless the class has no base that may call it.
 */
function calledByOthers(lines: readonly string[], index: number, testFile: boolean): boolean {
  let limit = indentOf(lines[index] ?? "");
  for (let up = index - 1; up >= 0 && limit > 0; up -= 1) {
    const above = lines[up] ?? "";
    if (above.trim() === "" || indentOf(above) >= limit) continue;
    // A branch or a block around the definition (`if PY3:`) leaves it where it was.
    if (/^\s*(if|elif|else|try|except|finally|with|for|while)\b/.test(above)) {
      limit = indentOf(above);
      continue;
    }
    if (!/^\s*class\s/.test(above)) return false;
    // In a test file, a class of no base but unittest's own calls no method by its name but
    // its tests and hooks (the thirtieth round); a base of the project's may call any, and so
    // may a subclass elsewhere of a class in a helper module (pyflakes' `harness.py`).
    const bases = /^\s*class\s+\w+\s*(?:\(([^()]*)\))?\s*:/.exec(above);
    if (bases === null || !testFile) return true;
    const own = (bases[1] ?? "").split(",").every((base) => PLAIN_BASE.test(base.trim()));
    const name = /def\s+(\w+)/.exec(lines[index] ?? "")?.[1] ?? "";
    return !own || CALLED_BY_NAME.test(name);
  }
  return /^\s*(?:async\s+)?def\s+test/.test(lines[index] ?? "");
}

/** Bases of a test class that call none of its methods by a name of the project's. */
const PLAIN_BASE = /^(?:|object|(?:unittest\.)?(?:TestCase|IsolatedAsyncioTestCase))$/;

/**
 * The methods a runner or unittest's `TestCase` calls by their names: tests, set-up and
 * tear-down (unittest's, pytest's and nose's), private and special ones, and those `TestCase`
 * has itself (an override).
 */
const CALLED_BY_NAME =
  /^(?:test|setUp|tearDown|asyncSetUp|asyncTearDown|setup|teardown|_|assert|fail)|^(?:run|debug|runTest|id|shortDescription|countTestCases|defaultTestResult|doCleanups|addCleanup|subTest|skipTest)$/;

/**
 * Assertions moved into a function nothing calls (the twenty-seventh round): a nested or
 * module-level helper holding an assertion whose name the file never says again, or, in
 * JavaScript, an arrow function left as a statement of its own. Not counted: a decorated
 * function (the decorator may call it), a test pytest collects at the top, a method of a class
 * (a base class may call it).
 */
function uncalled(text: string, family: Family, testFile: boolean): number {
  const lines = codeLines(text, family);
  let found = 0;
  let counted: Map<string, number> | undefined;
  // How often each word occurs, counted once, when a named function is first met.
  const words = (): Map<string, number> => {
    if (counted !== undefined) return counted;
    counted = new Map();
    for (const [word] of text.matchAll(/[A-Za-z_$][\w$]*/g))
      counted.set(word, (counted.get(word) ?? 0) + 1);
    return counted;
  };
  lines.forEach((line, index) => {
    const match = FUNCTION[family].exec(line);
    if (match === null) return;
    let above = index - 1;
    while (above >= 0 && (lines[above] ?? "").trim() === "") above -= 1;
    const previous = lines[above];
    const name = match[2] ?? match[3];
    if (family === "python" && /^\s*@/.test(previous ?? "")) return;
    if (name === undefined) {
      // A bare arrow as a statement: the line before ends one (`;`, `{`, `}`), not an argument.
      if (previous === undefined || !/[;{}]\s*$/.test(previous)) return;
    } else {
      if (family === "python" && calledByOthers(lines, index, testFile)) return;
      if ((words().get(name) ?? 0) > 1) return;
    }
    const body = blockAt(lines, index, family).slice(1);
    if (body.some((one) => !COMMENT[family].test(one) && ASSERTION[family].test(one))) found += 1;
  });
  return found;
}

/**
 * Code put in the place of what a test checks: a mock, a patch, a module's entry replaced; and
 * (the thirty-third round) the runner's own functions defined over (`const expect = …` beside
 * `import { expect as e }`, `globalThis.it = …`), a test's result rewritten in a hook
 * (`ctx.task.result.state = "pass"`, mocha's `this.currentTest.state = "passed"`); and (the
 * thirty-fourth round) a module put in Node's require cache (`require.cache[…] = { exports }`)
 * or a required module's member set (`require("assert").strictEqual = …`).
 */
const STAND_IN: Record<Family, RegExp> = {
  python:
    /\bmonkeypatch\.(setattr|setitem|delattr|delitem)\s*\(|\b(?:mock\.)?patch(?:\.object|\.dict|\.multiple)?\s*\(|\bsys\.modules\s*(\[|\.\s*(update|setdefault|pop)\s*\()|\b(setattr|delattr)\s*\(|\b(globals|vars|locals)\s*\(\s*\)\s*(\[[^\]]*\]\s*=(?!=)|\.\s*(update|setdefault|pop|__setitem__|__delitem__)\s*\()|^\s*del\s+(globals|vars|locals)\s*\(/g,
  js: /\b(vi|jest)\s*\.\s*(mock|doMock|unstable_mockModule|spyOn|stubGlobal|replaceProperty|setMock)\s*\(|\bmock\s*\.\s*(module|method|getter|setter|property)\s*\(|\bObject\s*\.\s*defineProperty\s*\(|^\s*(?:export\s+)?(?:const|let|var)\s+(expect|assert)\s*(?::[^=]*)?=(?!\s*(?:await\s+)?(?:require|import)\s*\(|\s*chai\s*\.)|^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*(expect|assert|it|test|describe)\s*\(|^\s*(?:(?:globalThis|global|window)\s*\.\s*)?(expect|assert|it|test|describe)\s*=(?!=)|\btask\s*\.\s*result\s*!?\s*(?:\.\s*(?:state|errors)\s*=(?!=)|=(?!=)[^\n]*\bstate\b)|\b(?:currentTest|test|task)\s*\.\s*state\s*=\s*["'`](pass|passed)["'`]|\brequire\s*\.\s*cache\s*\[[^\]\n]*\]\s*(?:\.\s*exports\s*)?=(?!=)|\brequire\s*\(\s*["'`][^"'`\n]+["'`]\s*\)\s*(?:\.\s*[\w$]+)+\s*=(?!=)|\b(?:Object\s*\.\s*assign|Reflect\s*\.\s*set)\s*\(\s*require\s*\(/g,
};

/** The names a file imports: a module, or what it takes from one. */
function importedNames(text: string, family: Family): Set<string> {
  const names = new Set<string>();
  const add = (list: string) => {
    for (const part of list.split(",")) {
      const name = /(?:\bas\s+|:\s*)?([A-Za-z_$][\w$]*)\s*$/.exec(part.replace(/[(){}*]/g, " "));
      if (name?.[1] !== undefined && name[1] !== "as") names.add(name[1]);
    }
  };
  if (family === "python") {
    for (const match of text.matchAll(/^[ \t]*import[ \t]+([^\n#]+)/gm))
      for (const part of (match[1] ?? "").split(","))
        add(/\bas\b/.test(part) ? part : (part.trim().split(".")[0] ?? ""));
    for (const match of text.matchAll(
      /^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]*(\([^)]*\)|[^\n#]+)/gm,
    ))
      add(match[1] ?? "");
  } else {
    for (const match of text.matchAll(
      /\bimport\s+(?:([\w$]+)\s*,?\s*)?(?:\*\s*as\s+([\w$]+)|\{([^}]*)\})?\s*from\b/g,
    )) {
      if (match[1] !== undefined) names.add(match[1]);
      if (match[2] !== undefined) names.add(match[2]);
      if (match[3] !== undefined) add(match[3]);
    }
    for (const match of text.matchAll(
      /\b(?:const|let|var)\s+(?:([\w$]+)|\{([^}]*)\})\s*=\s*(?:await\s+)?(?:require|import)\s*\(/g,
    )) {
      if (match[1] !== undefined) names.add(match[1]);
      if (match[2] !== undefined) add(match[2]);
    }
  }
  return names;
}

/**
 * An imported object's members written by a function (the thirty-fourth round):
 * `Object.assign(assert, { strictEqual() {} })`, `Reflect.set(assert, "equal", …)`; every
 * assertion through it passes and none of their lines changes.
 */
const MEMBERS_WRITTEN =
  /\b(?:Object\s*\.\s*(?:assign|defineProperties|setPrototypeOf)|Reflect\s*\.\s*(?:set|defineProperty|deleteProperty|setPrototypeOf))\s*\(\s*([A-Za-z_$][\w$]*)\s*[,)]/;

/** A line that rebinds an imported name, defines one over it, or sets something on it. */
function rebinds(line: string, names: ReadonlySet<string>): boolean {
  const defined = /^\s*(?:(?:async\s+)?def|class|function)\s+([A-Za-z_$][\w$]*)/.exec(line);
  if (defined !== null) return names.has(defined[1] ?? "");
  const written = MEMBERS_WRITTEN.exec(line);
  if (written !== null && names.has(written[1] ?? "")) return true;
  const assigned = /^\s*([A-Za-z_$][\w$]*)(?:\s*\.\s*[\w$]+)*\s*(?::[^=\n]*)?=(?!=)/.exec(line);
  return assigned !== null && names.has(assigned[1] ?? "");
}

/** A line that asserts something. */
const ASSERTION: Record<Family, RegExp> = {
  python:
    /^\s*assert\b|\.assert[A-Z]\w*\s*\(|\.fail\s*\(|\bpytest\.(raises|warns|approx|fail)\b|\bassert_\w+\s*\(/,
  js: /\bexpect\s*[.(]|\bassert\s*[.(]|\.should\b|\bt\.(is|not|deepEqual|notDeepEqual|true|false|truthy|falsy|equal|strictEqual|deepStrictEqual|throws|throwsAsync|notThrows|match|regex|like|ok|notOk|same|fail)\s*\(/,
};

/** An assertion that cannot fail. */
const VACUOUS: Record<Family, RegExp> = {
  python: /^\s*assert\s+(True|1|not\s+(False|None|0))\s*(,.*)?$|^\s*assert\s+(\d+)\s*==\s*\4\s*$/,
  js: /\bexpect\s*\(\s*(true|1|!0|!false)\s*\)\s*\.\s*(toBe\s*\(\s*(true|1)\s*\)|toBeTruthy\s*\(\s*\))|\bexpect\s*\(\s*(\d+)\s*\)\s*\.\s*to(Be|Equal)\s*\(\s*\5\s*\)|\bassert\s*\(\s*(true|1)\s*\)|\bassert\.ok\s*\(\s*(true|1)\s*\)/,
};

/**
 * Words of an assertion that keep their name in its shape: the matchers and assertion methods
 * (`toBe` → `toBeGreaterThan` weakens), and the constants and operators a weakened condition
 * gains (`or True`). Every other name is `_`, so a function renamed in a refactor (`add(2, 3)` →
 * `plus(2, 3)`) leaves the shape as it was, while an expected value changed does not.
 */
const KEPT_WORD =
  /^(to\w*|not|and|or|is|in|be|been|have|has|equal\w*|eql|deep\w*|strict\w*|should|assert\w*|ok|approx|raises|warns|throws?\w*|rejects|resolves|True|False|None|true|false|null|undefined|NaN|Infinity|skip\w*|fail\w*|lambda|any|all|abs|len|pass)$/;

/**
 * An assertion line as a sequence of tokens, names it does not judge replaced by `_`, but for
 * `kept`: the names the change left in place (the thirty-first round, below).
 */
function shapeOf(line: string, kept: ReadonlySet<string> = NO_NAMES): string {
  const tokens =
    line
      .trim()
      .match(
        /"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`|\d[\w.]*|[A-Za-z_$][\w$]*|\S/g,
      ) ?? [];
  return tokens
    .map((token) =>
      /^[A-Za-z_$]/.test(token) && !KEPT_WORD.test(token) && !kept.has(token) ? "_" : token,
    )
    .join(" ");
}

const PY_CLASS = /^(\s*)class\s+(\w+)/;
const PY_TEST = /^(\s*)(?:async\s+)?def\s+(test\w*)\s*\(/;

interface Scope {
  name: string;
  indent: number;
  /** The indent of the class body's statements, once its first one is read. */
  body?: number;
  /** A class unittest or pytest collects tests from (`testCaseClass`). */
  cases?: boolean;
}

/** A test's name bound at a module's or a test class's level, not by a `def`. */
const PY_TEST_BOUND = /^(\s*)(test\w*)\s*(?::[^=\n]*)?=(?!=)/;
/** A test's name deleted, or set on, at that level (`del test_x`, `test_x.__code__ = …`). */
const PY_TEST_DELETED = /^\s*del\s+(test\w*)\s*(?:#.*)?$/;
const PY_TEST_SET_ON = /^\s*(test\w*)(?:\s*\.\s*\w+)+\s*=(?!=)/;

/**
 * unittest's own assertions, and the methods every test's failure goes through (the thirty-fourth
 * round): `def assertEqual(self, *a): pass` in a test class, `assertEqual = lambda *a: None` in
 * its body or `self.assertEqual = …` in its `setUp` turns each of its assertions into one that
 * cannot fail, and no assertion's line changes: the twin of a built-in matcher replaced by
 * `expect.extend`. A project's own helper (`assertJsonEqual`) is honest and not among them.
 */
const PY_CASE_ASSERTION =
  "assert(?:Equals?|NotEquals?|True|False|Is|IsNot|IsNone|IsNotNone|In|NotIn|IsInstance|NotIsInstance|Raises|RaisesRegexp?|Warns|WarnsRegex|Logs|NoLogs|AlmostEquals?|NotAlmostEquals?|Greater|GreaterEqual|Less|LessEqual|Regexp?|NotRegex|RegexpMatches|NotRegexpMatches|CountEqual|ItemsEqual|MultiLineEqual|SequenceEqual|ListEqual|TupleEqual|SetEqual|DictEqual|DictContainsSubset|_)|fail(?:Unless\\w*|If\\w*)?|failureException|_baseAssertEqual|_getAssertEqualityFunc|_formatMessage";
/** A test case's own run (`def run(self, result=None): pass` runs none of its tests). */
const PY_CASE_RUN =
  "run|debug|__call__|_callTestMethod|_callSetUp|_callTearDown|_feedErrorsToResult";
/** One of them defined in a class's body (`def assertEqual(…)`, `assertEqual = …`). */
const PY_CASE_DEFINED = new RegExp(
  `^\\s*(?:(?:async\\s+)?def\\s+(${PY_CASE_ASSERTION}|${PY_CASE_RUN})\\s*\\(|(${PY_CASE_ASSERTION}|${PY_CASE_RUN})\\s*(?::[^=\\n]*)?=(?!=))`,
);
/** An assertion set on a test case (`self.assertEqual = …`, `TestCase.assertEqual = …`). */
const PY_CASE_SET = new RegExp(
  `\\b(?:self|cls|\\w*Test\\w*|[A-Z]\\w*Case)\\s*\\.\\s*(?:${PY_CASE_ASSERTION})\\s*=(?!=)`,
);
/**
 * Code run from text at a test's level (`exec("def test_add(): pass")`): the tests it defines are
 * not in the file's text.
 */
const PY_TEST_EXEC = /^\s*(?:exec|eval)\s*\(/;
/** A test set on a class of the file after its body (`TestCalc.test_add = lambda self: None`). */
const PY_CLASS_TEST_SET = /^\s*([A-Za-z_]\w*)\s*\.\s*(test\w*)\s*(?::[^=\n]*)?=(?!=)/;

/** Whether a class is one unittest or pytest collects tests from (`TestCalc`, `CalcTests(TestCase)`). */
function testCaseClass(line: string): boolean {
  const klass = /^\s*class\s+(\w+)\s*(?:\(([^)]*)\)?)?/.exec(line);
  const name = klass?.[1] ?? "";
  return /^Test|(?:Tests|TestCase)$/.test(name) || /Test/.test(klass?.[2] ?? "");
}

/**
 * Python: counts the test a line defines into `tests` (pytest's default names: a module's
 * `test…`, a `Test…` class's `test…`; and since the thirty-fourth round a unittest case's whose
 * name or bases say so, `CalcTests(TestCase)`), keyed by its class; returns the class the next
 * line is in.
 * The thirty-third round: only a `def` was read, so a failing test replaced by what asserts
 * nothing (`test_add = lambda: None` at its level), deleted there (`del test_add`) or given an
 * attribute there (`test_add.__code__ = …`) said nothing. A name bound there is kept in `bound`
 * (it is a test defined again when a `def` defines it too), one deleted in `removed`, and an
 * attribute set on one is a stand-in.
 */
function collectPython(
  line: string,
  scope: Scope | undefined,
  counted: Pick<Counted, "tests" | "removed" | "standIns" | "bound" | "classes">,
  /** Whether the line is an assertion's honest wrapper (`passThroughWrappers`). */
  wrapper = false,
): Scope | undefined {
  const indent = /^(\s*)\S/.exec(line)?.[1]?.length;
  if (indent === undefined) return scope;
  const inside = within(scope, indent, line);
  const klass = PY_CLASS.exec(line);
  if (klass !== null) {
    const name = klass[2] ?? "";
    counted.classes.add(name);
    return { name, indent, cases: testCaseClass(line) };
  }
  const owner = inside?.name ?? "";
  const collected = owner === "" ? indent === 0 : inside?.cases === true;
  const test = PY_TEST.exec(line);
  if (test !== null && collected) {
    const key = `${owner}::${test[2] ?? ""}`;
    counted.tests.set(key, (counted.tests.get(key) ?? 0) + 1);
  } else if (collected && (owner === "" || indent === inside?.body))
    collectBound(line, owner, counted);
  collectCaseForms(line, indent, inside, counted, wrapper);
  return inside;
}

/**
 * The thirty-fourth round's forms (collectPython): a test set on a class of the file, code run
 * from text at a test's level, unittest's own assertion or run defined over or set.
 */
function collectCaseForms(
  line: string,
  indent: number,
  inside: Scope | undefined,
  counted: Pick<Counted, "standIns" | "bound" | "classes">,
  wrapper: boolean,
): void {
  const setOnClass = PY_CLASS_TEST_SET.exec(line);
  if (setOnClass !== null && counted.classes.has(setOnClass[1] ?? ""))
    counted.bound.push(`${setOnClass[1] ?? ""}::${setOnClass[2] ?? ""}`);
  const level =
    inside === undefined ? indent === 0 : inside.cases === true && indent === inside.body;
  if (level && PY_TEST_EXEC.test(line)) counted.standIns += 1;
  if (inside !== undefined && indent === inside.body && !wrapper)
    collectCaseMethod(line, inside, counted);
  if (PY_CASE_SET.test(line)) counted.standIns += 1;
}

/**
 * A class body's `def` or binding of unittest's own assertion or run (the thirty-fourth round):
 * an `assert…` in any class (a mixin's `assertEqual` is the test's), a `run` or a `fail` only in
 * a test case (a helper class's `run` or `fail` is its own).
 */
function collectCaseMethod(line: string, scope: Scope, counted: Pick<Counted, "standIns">): void {
  const defined = PY_CASE_DEFINED.exec(line);
  if (defined === null) return;
  const name = defined[1] ?? defined[2] ?? "";
  if (!name.startsWith("assert") && scope.cases !== true) return;
  counted.standIns += 1;
}

/**
 * unittest's `addTypeEqualityFunc(type, fn)` registering a comparison that cannot fail (the
 * thirty-sixth round): `assertEqual` on two values of that type then calls `fn`, which fails only
 * by raising. A lambda that calls no assertion (`lambda a, b, msg=None: a == b`: its value is
 * dropped), or a function of the file whose body neither asserts, raises nor fails, counts as a
 * stand-in; one that asserts (a method comparing fields) is honest, and so is a name the file does
 * not define (`"assertMultiLineEqual"`).
 */
function lenientEqualityFuncs(lines: readonly string[], family: Family): number {
  if (family !== "python") return 0;
  let found = 0;
  for (const line of lines) {
    const fn = /\baddTypeEqualityFunc\s*\([^,]*,\s*(.*)$/.exec(line)?.[1];
    if (fn === undefined) continue;
    if (/^lambda\b/.test(fn)) {
      if (!/\b(?:assert\w*|fail\w*)\s*\(/.test(fn)) found += 1;
      continue;
    }
    const name = /^(?:self\.|cls\.)?(\w+)/.exec(fn)?.[1];
    if (name !== undefined && !failsSomehow(lines, name)) found += 1;
  }
  return found;
}

/** Whether the file's `def name` (if any) can fail: its body asserts, raises or calls a fail. */
function failsSomehow(lines: readonly string[], name: string): boolean {
  const at = lines.findIndex((line) => new RegExp(`^\\s*def\\s+${name}\\s*\\(`).test(line));
  if (at < 0) return true;
  const indent = /^(\s*)/.exec(lines[at] ?? "")?.[1]?.length ?? 0;
  for (let index = at + 1; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (line.trim() === "") continue;
    if ((/^(\s*)/.exec(line)?.[1]?.length ?? 0) <= indent) break;
    if (/\b(?:assert\w*|raise|fail\w*)\b/.test(line)) return true;
  }
  return false;
}

/** A body's lines without its docstring (a first statement that is a string). */
function withoutDocstring(body: readonly string[]): string[] {
  const first = body[0]?.trim() ?? "";
  const quote = /^[rbuRBU]?("""|''')/.exec(first)?.[1];
  if (quote === undefined) return [...body];
  if (first.slice(first.indexOf(quote) + 3).includes(quote)) return body.slice(1);
  const end = body.findIndex((line, at) => at > 0 && line.includes(quote));
  return end < 0 ? [] : body.slice(end + 1);
}

/**
 * The `def` lines of unittest assertions defined over as honest wrappers (the thirty-sixth round,
 * pyparsing's test base class: `def assertRaises(self, exc, msg=None)` printing what
 * `super().assertRaises(exc, msg=msg)` caught): the body calls the base class's assertion of the
 * same name with every parameter passed through unchanged, as its first statement or first in a
 * `with` or `try`, and holds no `except`, no early exit before the call and no `return` after a
 * `finally`, so every failure of the base assertion still fails the test. Anything else
 * (`super().assertEqual(a, a)`, a call under an `if`, an `except AssertionError`) stays a stand-in.
 */
function passThroughWrappers(lines: readonly string[], family: Family): ReadonlySet<number> {
  const found = new Set<number>();
  if (family !== "python") return found;
  for (const [index, line] of lines.entries()) {
    const def = /^(\s*)def\s+(assert\w*)\s*\(/.exec(line);
    if (def === null) continue;
    const indent = def[1]?.length ?? 0;
    // The signature, up to the line that ends it with `):` (a few lines at most).
    let end = index;
    let signature = line;
    while (!/\)\s*(?:->[^:]*)?:\s*(?:#.*)?$/.test(lines[end] ?? "") && end < index + 8) {
      end += 1;
      signature += ` ${lines[end] ?? ""}`;
    }
    const params = signature
      .slice(signature.indexOf("(") + 1, signature.lastIndexOf(")"))
      .split(",")
      .map((part) => part.trim().split(/[:=]/)[0]?.trim() ?? "")
      .filter((name) => name !== "" && name !== "self" && name !== "/" && name !== "*");
    const body: string[] = [];
    for (let at = end + 1; at < lines.length; at += 1) {
      const text = lines[at] ?? "";
      if (text.trim() === "" || COMMENT.python.test(text)) continue;
      if ((/^(\s*)/.exec(text)?.[1]?.length ?? 0) <= indent) break;
      body.push(text);
    }
    if (honestWrapper(def[2] ?? "", params, body)) found.add(index);
  }
  return found;
}

function honestWrapper(name: string, params: readonly string[], body: readonly string[]): boolean {
  const code = withoutDocstring(body);
  const at = code.findIndex((line) => line.includes(`super().${name}(`));
  if (at < 0) return false;
  const before = code.slice(0, at);
  // Only a `try:` may come first (a `with suppress(AssertionError):` would swallow the failure).
  if (!before.every((line) => /^\s*try\s*:\s*$/.test(line))) return false;
  const call = code[at] ?? "";
  if (!/^\s*(?:with\s+)?super\(\)\./.test(call)) return false;
  if (code.some((line) => /^\s*except\b/.test(line))) return false;
  const finallyAt = code.findIndex((line) => /^\s*finally\s*:/.test(line));
  if (finallyAt >= 0 && code.slice(finallyAt).some((line) => /^\s*return\b/.test(line)))
    return false;
  const args = call.slice(call.indexOf(`${name}(`) + name.length + 1);
  const passed = args
    .slice(0, args.lastIndexOf(")"))
    .split(",")
    .map((arg) => arg.trim());
  if (passed.length !== params.length) return false;
  return passed.every((arg, i) => {
    const param = (params[i] ?? "").replace(/^\*+/, "");
    const keyword = /^(\w+)\s*=\s*(\w+)$/.exec(arg);
    if (keyword !== null) return keyword[1] === keyword[2] && params.includes(keyword[1] ?? "");
    return (
      arg.replace(/^\*+/, "") === param && arg.startsWith("*") === (params[i] ?? "").startsWith("*")
    );
  });
}

/** The class a line at `indent` is in, if any; its body's indent is taken from its first line. */
function within(scope: Scope | undefined, indent: number, line: string): Scope | undefined {
  if (scope === undefined || indent <= scope.indent) return undefined;
  if (scope.body === undefined && !COMMENT.python.test(line)) scope.body = indent;
  return scope;
}

/** A test's name bound, deleted or given an attribute at a test's level (collectPython). */
function collectBound(
  line: string,
  owner: string,
  counted: Pick<Counted, "removed" | "standIns" | "bound">,
): void {
  const bound = PY_TEST_BOUND.exec(line);
  if (bound !== null) counted.bound.push(`${owner}::${bound[2] ?? ""}`);
  const deleted = PY_TEST_DELETED.exec(line);
  if (deleted !== null) counted.removed.add(`${owner}::${deleted[1] ?? ""}`);
  if (PY_TEST_SET_ON.test(line)) counted.standIns += 1;
}

interface Counted {
  skips: number;
  assertions: Map<string, number>;
  vacuous: number;
  escapes: number;
  standIns: number;
  /** Python: each test the runner collects by its name, and how often it is defined. */
  tests: Map<string, number>;
  /** Python: the tests deleted by name after their definition (`del test_add`). */
  removed: Set<string>;
  /**
   * Python: the test names bound by an assignment at a test's level; one that a `def` of the file
   * defines too is a test defined again (a module's `test_cases = […]` list is not collected).
   */
  bound: string[];
  /** Python: the classes the file defines. */
  classes: Set<string>;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The names a change left in place: each said as often after as before. A name renamed (`add` →
 * `plus`) is said less, its new one more, so both stay `_` in an assertion's shape; two names
 * swapped inside an assertion (`[item1, item2]` → `[item2, item1]`, an expected order turned
 * into the bug's) keep their counts, and the shape keeps them, so the swap reads as a change.
 */
function namesKept(before: string, after: string): Set<string> {
  const words = (text: string) => {
    const counted = new Map<string, number>();
    for (const [word] of text.matchAll(/[A-Za-z_$][\w$]*/g))
      counted.set(word, (counted.get(word) ?? 0) + 1);
    return counted;
  };
  const then = words(before);
  const now = words(after);
  return new Set([...then].filter(([word, n]) => now.get(word) === n).map(([word]) => word));
}

function count(
  text: string,
  family: Family,
  testFile = false,
  kept: ReadonlySet<string> = NO_NAMES,
): Counted {
  const counted: Counted = {
    skips: 0,
    assertions: new Map(),
    vacuous: 0,
    escapes:
      (family === "js" ? swallowed(text) + guardedReturns(text) : 0) +
      uncalled(text, family, testFile),
    standIns: family === "js" ? matchersReplaced(text) : 0,
    tests: new Map(),
    removed: new Set(),
    bound: [],
    classes: new Set(),
  };
  const names = importedNames(text, family);
  let scope: Scope | undefined;
  const lines = text.split("\n");
  const wrappers = passThroughWrappers(lines, family);
  counted.standIns += lenientEqualityFuncs(lines, family);
  for (const [index, line] of lines.entries()) {
    if (family === "python") scope = collectPython(line, scope, counted, wrappers.has(index));
    if (COMMENT[family].test(line)) continue;
    counted.skips += line.match(SKIP[family])?.length ?? 0;
    counted.standIns +=
      (line.match(STAND_IN[family])?.length ?? 0) + (rebinds(line, names) ? 1 : 0);
    if (ESCAPE[family].test(line)) counted.escapes += 1;
    if (!ASSERTION[family].test(line)) continue;
    if (VACUOUS[family].test(line)) counted.vacuous += 1;
    const shape = shapeOf(statementAt(lines, index, family), kept);
    counted.assertions.set(shape, (counted.assertions.get(shape) ?? 0) + 1);
  }
  for (const key of counted.bound) {
    const defined = counted.tests.get(key);
    if (defined !== undefined) counted.tests.set(key, defined + 1);
  }
  for (const key of counted.removed) counted.tests.delete(key);
  return counted;
}

/** At most this many lines are read as one assertion. */
const MAX_STATEMENT_LINES = 40;

/**
 * An assertion and the lines it goes on over (the thirty-first round): its brackets left open, a
 * string or template left open (`toMatchInlineSnapshot(\`` and the snapshot under it), and in
 * JavaScript a chained call on the next line (`.toBe(5)`). An expected value on a line of its
 * own (`expect(r).toEqual({` / `  array: ["a", "b"],` / `});`, prettier's form) was not read, so
 * a failing test's expected value changed to the bug's output there said nothing.
 */
function statementAt(lines: readonly string[], index: number, family: Family): string {
  const state: ScanState = { depth: 0, open: undefined };
  const indent = indentOf(lines[index] ?? "");
  const taken: string[] = [];
  for (let at = index; at < lines.length && at - index < MAX_STATEMENT_LINES; at += 1) {
    const line = lines[at] ?? "";
    if (at > index && statementEnded(line, indent, state, family)) break;
    taken.push(line);
    scanLine(line, family, state);
  }
  return taken.join("\n");
}

interface ScanState {
  /** Brackets open. */
  depth: number;
  /** The quote of a string open across lines (a template, a triple quote). */
  open: string | undefined;
}

/**
 * Whether a line no longer belongs to the assertion before it: one further out than the
 * assertion's own has left its block (a bracket read wrongly, one in a regular expression, is
 * not followed out of it); otherwise one after every bracket and string closed, unless it goes on
 * with a chained call (`.toBe(5)`).
 */
function statementEnded(line: string, indent: number, state: ScanState, family: Family): boolean {
  if (state.open !== undefined) return false;
  if (line.trim() !== "" && indentOf(line) < indent) return true;
  return state.depth <= 0 && !(family === "js" && /^\s*\??\.[A-Za-z_$]/.test(line));
}

/** Counts a line's brackets outside strings and comments into `state`. */
function scanLine(line: string, family: Family, state: ScanState): void {
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i] ?? "";
    if (state.open !== undefined) {
      if (char === "\\") i += 1;
      else if (line.startsWith(state.open, i)) {
        i += state.open.length - 1;
        state.open = undefined;
      }
      continue;
    }
    if (line.startsWith(family === "python" ? "#" : "//", i)) break;
    const triple = family === "python" ? /^("""|''')/.exec(line.slice(i, i + 3)) : null;
    if (triple !== null) {
      state.open = triple[1];
      i += 2;
    } else if (char === '"' || char === "'" || char === "`") state.open = char;
    else if ("([{".includes(char)) state.depth += 1;
    else if (")]}".includes(char)) state.depth -= 1;
  }
  // A quote left open at a line's end closes there, but for a template or a triple quote.
  if (state.open === '"' || state.open === "'") state.open = undefined;
}

/** `a skip`, `an assertion`, `2 assertions`. */
const plural = (n: number, one: string) =>
  n === 1 ? `${/^[aeiou]/.test(one) ? "an" : "a"} ${one}` : `${n} ${one}s`;

/**
 * How a change of an existing test file weakened it (empty: it did not, or its language is not
 * read). `after` undefined: the file was deleted.
 */
/**
 * Rust's and Go's tests (the thirty-third round): read for nothing before, so a failing test given
 * `#[ignore]`, `#[should_panic]` (on a test that was there) or `#[cfg(any())]`, or a `t.Skip()`, or a Go test file given a
 * build constraint that leaves it out (`//go:build ignore`), ended the turn green with nothing
 * said. Their skips and assertions are counted; a line that is only a comment is not read, but
 * a Go build constraint is (it is one).
 */
const COMPILED: Record<
  "rust" | "go",
  { skip: RegExp; assertion: RegExp; comment: RegExp; panics?: RegExp; test?: RegExp }
> = {
  rust: {
    skip: /#!?\[\s*ignore\b|#!?\[\s*cfg\s*\(\s*(?:any\s*\(\s*\)|not\s*\(\s*(?:test|all\s*\(\s*\))\s*\))\s*\)|#!?\[\s*cfg_attr\s*\([^\]]*\bignore\b/g,
    assertion: /\b(?:debug_)?assert(?:_eq|_ne|_matches)?!\s*\(|\bpanic!\s*\(|\bunreachable!\s*\(/g,
    comment: /^\s*\/\//,
    panics: /#!?\[\s*should_panic\b/g,
    test: /#!?\[\s*(?:\w+::)*test\b/g,
  },
  go: {
    skip: /\bt\s*\.\s*(?:Skip|SkipNow|Skipf)\s*\(|^\s*\/\/\s*(?:go:build|\+build)\b.*$/gm,
    assertion:
      /\bt\s*\.\s*(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(|\b(?:assert|require)\s*\.\s*[A-Z]\w*\s*\(/g,
    comment: /^\s*\/\/(?!\s*(?:go:build|\+build)\b)/,
  },
};

function compiledForms(path: string, before: string, after: string | undefined): string[] {
  let family: keyof typeof COMPILED;
  if (path.endsWith(".rs")) family = "rust";
  else if (path.endsWith("_test.go")) family = "go";
  else return [];
  const rules = COMPILED[family];
  const tally = (text: string) => {
    let skips = 0;
    let assertions = 0;
    let panics = 0;
    let tests = 0;
    for (const line of text.split("\n")) {
      if (rules.comment.test(line)) continue;
      skips += line.match(rules.skip)?.length ?? 0;
      assertions += line.match(rules.assertion)?.length ?? 0;
      if (rules.panics !== undefined) panics += line.match(rules.panics)?.length ?? 0;
      if (rules.test !== undefined) tests += line.match(rules.test)?.length ?? 0;
    }
    return { skips, assertions, panics, tests };
  };
  const then = tally(before);
  if (after === undefined) return then.assertions + then.skips === 0 ? [] : ["deleted"];
  const now = tally(after);
  const forms: string[] = [];
  // `#[should_panic]` on a test the turn added checks a panic (honest); on a test that was there,
  // a failing assertion's panic becomes its pass.
  const panicked = Math.max(0, now.panics - then.panics - Math.max(0, now.tests - then.tests));
  const added = now.skips - then.skips + panicked;
  if (added > 0) forms.push(`${plural(added, "skip")} (or expected failure) added`);
  if (now.assertions < then.assertions)
    forms.push(`${plural(then.assertions - now.assertions, "assertion")} removed`);
  return forms;
}

export function weakeningForms(path: string, before: string, after: string | undefined): string[] {
  const family = familyOf(path);
  if (family === undefined) return compiledForms(path, before, after);
  const testFile = TEST_NAME.test(path);
  const kept = after === undefined ? NO_NAMES : namesKept(before, after);
  const then = count(before, family, testFile, kept);
  if (after === undefined) {
    const total = [...then.assertions.values()].reduce((sum, n) => sum + n, 0);
    return total === 0 && then.skips === 0 ? [] : ["deleted"];
  }
  const now = count(after, family, testFile, kept);
  const forms: string[] = [];
  if (now.skips > then.skips)
    forms.push(`${plural(now.skips - then.skips, "skip")} (or expected failure) added`);
  let gone = 0;
  for (const [shape, n] of then.assertions)
    gone += Math.max(0, n - (now.assertions.get(shape) ?? 0));
  let added = 0;
  for (const [shape, n] of now.assertions)
    added += Math.max(0, n - (then.assertions.get(shape) ?? 0));
  const changed = Math.min(gone, added);
  if (changed > 0) forms.push(`${plural(changed, "assertion")} changed`);
  if (gone > changed) forms.push(`${plural(gone - changed, "assertion")} removed`);
  if (now.vacuous > then.vacuous)
    forms.push(`${plural(now.vacuous - then.vacuous, "assertion")} that cannot fail added`);
  if (now.escapes > then.escapes)
    forms.push(
      `${plural(now.escapes - then.escapes, "way out")} added (an early return, a branch that never runs, a failure caught and dropped)`,
    );
  return [...forms, ...standInForms(then, now), ...collectionForms(then, now)];
}

function standInForms(then: Pick<Counted, "standIns">, now: Counted): string[] {
  return now.standIns > then.standIns
    ? [
        `${plural(now.standIns - then.standIns, "stand-in")} for tested code added (a mock, a patch, an imported name rebound)`,
      ]
    : [];
}

function collectionForms(then: Counted, now: Counted): string[] {
  const forms: string[] = [];
  const lost = [...then.tests.keys()].filter((key) => !now.tests.has(key)).length;
  const gained = [...now.tests.keys()].filter((key) => !then.tests.has(key)).length;
  if (lost > gained)
    forms.push(
      `${plural(lost - gained, "test")} no longer collected (renamed out of the runner's pattern, or removed)`,
    );
  const shadowed = (counted: Counted) =>
    [...counted.tests.values()].reduce((sum, n) => sum + n - 1, 0);
  if (shadowed(now) > shadowed(then))
    forms.push(
      `${plural(shadowed(now) - shadowed(then), "test")} defined again under a name already used (only the last one runs)`,
    );
  return forms;
}

/** A test file by its name, not by its folder (`test_x.py`, `x_test.py`, `x.test.ts`). */
const TEST_NAME = /(^|\/)(test_[^/]*\.py|[^/]*_test\.py|[^/]*\.(test|spec)\.[cm]?[jt]sx?)$/;

/**
 * A new file of a test area that is not a test itself (a `conftest.py`, a package's
 * `__init__.py`, a helper, a setup file): what it adds runs for other tests, so a skip or a
 * stand-in there weakens them as it would in their own file.
 */
export function newSupportForms(path: string, after: string): string[] {
  const family = familyOf(path);
  if (family === undefined || TEST_NAME.test(path)) return [];
  const now = count(after, family);
  return [
    ...(now.skips > 0 ? [`${plural(now.skips, "skip")} (or expected failure) added`] : []),
    ...standInForms({ standIns: 0 }, now),
  ];
}

/** A Python module name that is a test's (`test_float`, `float_test`). */
const PY_TEST_MODULE = /^(?:test_\w*|\w+_test)$/;

/**
 * The names a Python file binds to a test module: `from pkg.tests import test_float as tf`,
 * `import pkg.tests.test_float as tf`, `tf = importlib.import_module("…test…")`; and, without an
 * alias, the dotted path itself (`pkg.tests.test_float`).
 */
function testModuleNames(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(
    /^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]*(\([^)]*\)|[^\n#]+)/gm,
  ))
    for (const part of (match[1] ?? "").replace(/[()]/g, " ").split(",")) {
      const [name, alias] = part.trim().split(/\s+as\s+/);
      if (name !== undefined && PY_TEST_MODULE.test(name)) names.push(alias ?? name);
    }
  for (const match of text.matchAll(/^[ \t]*import[ \t]+([^\n#]+)/gm))
    for (const part of (match[1] ?? "").split(",")) {
      const [path, alias] = part.trim().split(/\s+as\s+/);
      if (path !== undefined && PY_TEST_MODULE.test(path.split(".").pop() ?? ""))
        names.push(alias ?? path);
    }
  for (const match of text.matchAll(
    /^[ \t]*(\w+)\s*=\s*(?:importlib\s*\.\s*)?(?:import_module|__import__)\s*\(([^\n]*)/gm,
  ))
    if (/test/i.test(match[2] ?? "")) names.push(match[1] ?? "");
  return names.filter((name) => name !== "");
}

/**
 * The lines of a new Python test file that write into another test module it imports (the
 * thirty-fourth round): `tf.TestFloat.test_degenerates_allow = lambda self: None`, a `setattr`
 * or `del` through it. When both files run, the other file's failing test is the new one's stand-in,
 * and neither file's own text shows a change of that test.
 */
function testModuleWrites(text: string): number {
  const names = testModuleNames(text);
  if (names.length === 0) return 0;
  const escaped = names.map((name) => name.replace(/\./g, "\\s*\\.\\s*"));
  const through = `(?:${escaped.join("|")})`;
  const write = new RegExp(
    `^\\s*del\\s+${through}\\s*\\.[\\w.\\s]+$|^\\s*${through}\\s*\\.\\s*[\\w.]+\\s*(?::[^=\\n]*)?=(?!=)|\\b(?:setattr|delattr)\\s*\\(\\s*(?:getattr\\s*\\(\\s*|vars\\s*\\(\\s*)?${through}\\b|\\bvars\\s*\\(\\s*${through}\\s*\\)\\s*\\[`,
  );
  return text.split("\n").filter((line) => !COMMENT.python.test(line) && write.test(line)).length;
}

/**
 * A new test file (the thirty-fourth round): its own tests are new work and not judged, but a
 * write into another test module it imports replaces that module's tests.
 */
export function newTestForms(path: string, after: string): string[] {
  if (!PYTHON.test(path) || !TEST_NAME.test(path)) return [];
  const writes = testModuleWrites(after);
  return writes > 0
    ? [`${plural(writes, "write")} into another test module it imports (its tests replaced)`]
    : [];
}

/** Whether a test file's text holds a test: an assertion, or a test pytest collects by name. */
export function holdsTests(path: string, text: string): boolean {
  const family = familyOf(path);
  if (family === undefined) return false;
  const counted = count(text, family);
  return counted.assertions.size > 0 || counted.tests.size > 0;
}

/**
 * The Stop's line for test files that held tests at the turn's start, were changed, and ran no
 * test at its end (the twenty-sixth round): every test skipped or none collected, by whatever
 * spelling (`getattr(pytest, "skip")`, an empty parameter list in a variable, `it["skip"]`,
 * vitest's `context.skip()`). The text reading names the forms it knows; the run names the rest.
 */
export function ranNoTestLine(mode: "tdd" | "strict", files: readonly string[]): string {
  return weakenedLine(
    mode,
    files.map((path) => ({
      path,
      forms: [
        "held tests at the turn's start and runs none now: every test skipped, or none collected",
      ],
    })),
  );
}

export interface WeakenedTest {
  path: string;
  forms: string[];
}

/** The Stop's line for the tests and runner configs a turn weakened (tdd and strict). */
export function weakenedLine(mode: "tdd" | "strict", found: readonly WeakenedTest[]): string {
  const list = found.map((one) => `${one.path} (${one.forms.join(", ")})`).join("; ");
  const many = found.length > 1;
  return `tailtest ${mode}: ${many ? `${found.length} tests or runner configs` : "a test or runner config"} changed this turn so that fewer tests run or can fail, with no failing test declared for ${many ? "them" : "it"}: ${list}. A test is not changed to match what the code does, nor left out of the run: put it back (git checkout -- <file>) and fix the code through ${mode === "tdd" ? "a Red (tailtest red …)" : "a claim (tailtest claim …)"}; if the person asked for this change, say so and why in your answer.`;
}

const PYTEST_CONFIG = /^(pytest\.ini|\.?pytest\.toml|pyproject\.toml|setup\.cfg|tox\.ini)$/;
const JS_CONFIG =
  /^((vite|vitest|jest)\.config\.([cm]?[jt]s|json)|vitest\.workspace\.[cm]?[jt]s|package\.json)$/;

/**
 * What leaves tests out of a run, or lets a run with none of them pass: per config kind, the
 * words whose values are compared (a value added or changed is said).
 */
const LEAVES_OUT: readonly { file: RegExp; words: RegExp }[] = [
  {
    file: PYTEST_CONFIG,
    words:
      /--deselect\b|--keyword\b|--markexpr\b|(?<![\w-])(?<!(?:python[\d.]*|run)\s+)-[km](?=[\s="'\w(!])|--ignore(-glob)?\b|\bnorecursedirs\b|\bpython_(files|functions|classes)\b|--(lf|last-failed|co|collect-only)\b|(?<![\w-])-p(?=[\s=]|\w)|\busefixtures\b|\btestpaths\b|(?<![\w-])-c(?=[\s=])|--(config-file|rootdir)\b/g,
  },
  {
    file: /^conftest\.py$/,
    words:
      /\bcollect_ignore(_glob)?\b|\bpytest_collection_modifyitems\b|\bpytest_ignore_collect\b|\bpytest_deselected\b|\bpytest\.mark\.(skip|skipif|xfail)\b|\bpytest\.(skip|xfail)\s*\(|\bpytest_plugins\b|\bpytest_(pyfunc_call|runtest_\w+|report_teststatus|pycollect_makeitem|collect_file|make_collect_report|itemcollected)\b|\busefixtures\b|\bconfig\s*\.\s*option\s*\.\s*\w+\s*=(?!=)|\bexitstatus\s*=(?!=)/g,
  },
  {
    // `root`, `rootDir`: the folder a run looks for its tests in (the thirtieth round). What
    // rewrites or redirects the code a test loads, or runs or orders its tests (the thirty-fifth
    // round: jest's `transform` in package.json, whose config is no file of its own, or a
    // `babel` section babel-jest reads), jest's runner, environment and sequencer, and
    // `automock`, which loads a `__mocks__/` file beside a module in its place.
    file: JS_CONFIG,
    words:
      /(?<![\w$.@/-])(exclude|include|testMatch|testRegex|roots|root|rootDir|dir|projects|passWithNoTests|testPathIgnorePatterns|modulePathIgnorePatterns|testNamePattern|allowOnly|retry|dangerouslyIgnoreUnhandledErrors|setupFiles|setupFilesAfterEnv|globalSetup|alias|moduleNameMapper|imports|transform|preset|resolver|moduleDirectories|modulePaths|moduleFileExtensions|testRunner|runner|testEnvironment|testSequencer|snapshotResolver|automock|unmockedModulePathPatterns)(?![\w$.@/-])|"babel"(?=\s*:)|--(passWithNoTests|testPathIgnorePatterns|testNamePattern|exclude|retry|root|rootDir|dir)\b|(?<![\w-])-t(?=[\s="'])/g,
  },
  {
    // The twenty-fifth round: mocha's own config file, the files and tests it runs.
    file: /^\.mocharc\.(c?js|ya?ml|jsonc?)$/,
    words: /(?<![\w$.@/-])(spec|grep|fgrep|invert|ignore|exclude|require|file)(?![\w$.@/-])/g,
  },
  {
    // A tested import redirected to another file (`paths`, read by vite's and jest's resolvers).
    file: /^[jt]sconfig(\.[\w.-]+)?\.json$/,
    words: /"(paths|baseUrl|rootDirs)"/g,
  },
];

const CLOSE: Record<string, string> = { "[": "]", "{": "}", "(": ")" };

/** The word and its value: up to the bracket that closes it, else the end of the line. */
function valueAt(text: string, start: number, word: string, spaces = ""): string {
  let at = start + word.length;
  while (at < text.length && /[\s:="']/.test(text[at] ?? "") && text[at] !== "\n") at += 1;
  const open = text[at] ?? "";
  const close = CLOSE[open];
  if (close === undefined) {
    const end = text.indexOf("\n", at);
    return text.slice(start, end === -1 ? text.length : end).replace(/\s+/g, spaces);
  }
  let depth = 0;
  for (let index = at; index < text.length && index < at + 20_000; index += 1) {
    const char = text[index];
    if (char === open) depth += 1;
    else if (char === close && --depth === 0)
      return text.slice(start, index + 1).replace(/\s+/g, spaces);
  }
  return text.slice(start, at + 200).replace(/\s+/g, spaces);
}

/** A value without its spacing and trailing commas: reformatting changes nothing. */
const squeeze = (value: string) => value.replace(/\s+/g, "").replace(/,(?=[\]})])/g, "");

function valuesOf(text: string, words: RegExp): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const match of text.matchAll(words)) {
    const word = match[0].replace(/\s+/g, " ");
    const values = found.get(word) ?? [];
    values.push(squeeze(valueAt(text, match.index, match[0])));
    found.set(word, values);
  }
  return found;
}

/**
 * The words that say where a run looks for tests (the twenty-fifth round): a value that gained
 * a place is honest (`testpaths = tests src`); one that lost a place leaves tests out.
 */
const SCOPE = /^(testpaths|include|testMatch|testRegex|roots|dir|projects|spec)$/;

/** Whether a place one of the values named is named by none of the new ones. */
function narrowed(before: readonly string[], after: readonly string[]): boolean {
  const places = (value: string) =>
    value
      .replace(/^[\w$-]+/, "")
      .split(/[\s,[\](){}'"=:`]+/)
      .filter((place) => place !== "");
  const kept = new Set(after.flatMap(places));
  return before.flatMap(places).some((place) => !kept.has(place));
}

/**
 * The words that name which files or functions are tests, whose default (once their config is
 * deleted) may not name a test the config named: `python_files = check_*.py` or vitest's
 * `include: ["test/**\/*.js"]` gone, and the failing test is no longer collected (the
 * twenty-sixth round). The words that leave tests out (`exclude`, `-k`) widen the run when
 * deleted, and the words of where a run looks (`testpaths`, `roots`, `dir`) fall back to the
 * whole project.
 */
const NAMES_TESTS =
  /^(python_(files|functions|classes)|include|testMatch|testRegex|spec|projects)$/;

/** A runner config deleted: the words it held that named which tests run. */
function deletedConfigForms(before: string, words: RegExp): string[] {
  const named = new Set<string>();
  for (const match of before.matchAll(words)) if (NAMES_TESTS.test(match[0])) named.add(match[0]);
  return named.size === 0
    ? []
    : [
        `deleted, with ${[...named].map((word) => `\`${word}\``).join(", ")}, which named which tests run`,
      ];
}

/**
 * How a change of a runner config or a conftest.py leaves tests out of a run (empty: it does
 * not, or the file is no such config): each word of `LEAVES_OUT` whose value was added or
 * changed. `before` undefined: the file is new; `after` undefined: it was deleted.
 */
export function leavesTestsOut(
  path: string,
  before: string | undefined,
  after: string | undefined,
): string[] {
  const name = path.split("/").pop() ?? path;
  const kind = LEAVES_OUT.find((one) => one.file.test(name));
  if (kind === undefined) return [];
  if (after === undefined)
    return before === undefined ? [] : deletedConfigForms(before, kind.words);
  const then = valuesOf(before ?? "", kind.words);
  const now = valuesOf(after, kind.words);
  const forms: string[] = [];
  const places = (text: string) => {
    const found = new Map<string, string[]>();
    for (const match of text.matchAll(kind.words))
      if (SCOPE.test(match[0]))
        found.set(match[0], [
          ...(found.get(match[0]) ?? []),
          valueAt(text, match.index, match[0], " "),
        ]);
    return found;
  };
  const placesNow = places(after);
  for (const [word, values] of places(before ?? ""))
    if (narrowed(values, placesNow.get(word) ?? [])) forms.push(`\`${word}\` narrowed`);
  for (const [word, values] of now) {
    // Which tests a run looks for: widened is honest, narrowed is said (above).
    if (SCOPE.test(word.trim()) && then.has(word)) continue;
    const old = [...(then.get(word) ?? [])];
    const fresh = values.filter((value) => {
      const index = old.indexOf(value);
      if (index === -1) return true;
      old.splice(index, 1);
      return false;
    });
    if (fresh.length > 0) forms.push(`\`${word.trim()}\` added or changed`);
  }
  return forms;
}

/** A file `leavesTestsOut` reads: a runner config or a conftest.py. */
export function isRunnerConfig(path: string): boolean {
  const name = path.split("/").pop() ?? path;
  return LEAVES_OUT.some((one) => one.file.test(name));
}

/** A file's lines, and each block's span by the line that opens it, kept once read. */
class Blocks {
  readonly lines: string[];
  private readonly spans = new Map<number, string>();
  constructor(
    text: string,
    readonly family: Family,
  ) {
    this.lines = codeLines(text, family);
  }
  /** The block the line at `index` opens, with its decorators (Python). */
  span(index: number): string {
    let span = this.spans.get(index);
    if (span === undefined) {
      let start = index;
      while (this.family === "python" && start > 0 && /^\s*@/.test(this.lines[start - 1] ?? ""))
        start -= 1;
      span = [...this.lines.slice(start, index), ...blockAt(this.lines, index, this.family)].join(
        "\n",
      );
      span = span.trimEnd();
      this.spans.set(index, span);
    }
    return span;
  }
  /** The lines that open the blocks around the line at `index`, innermost first. */
  around(index: number): number[] {
    const found: number[] = [];
    let limit = indentOf(this.lines[index] ?? "");
    for (let up = index - 1; up >= 0 && limit > 0; up -= 1) {
      const above = this.lines[up] ?? "";
      if (above.trim() === "" || indentOf(above) >= limit) continue;
      limit = indentOf(above);
      found.push(up);
    }
    return found;
  }
}

/**
 * Each test's definitions by its name, as the lines that open them: a Python `def` (any
 * depth), or in JavaScript a call whose first argument is the title. Its span is its
 * decorators, its line and what is indented under it (in JavaScript, the closing lines too).
 */
function definitions(blocks: Blocks): Map<string, number[]> {
  const found = new Map<string, number[]>();
  blocks.lines.forEach((line, index) => {
    const name =
      blocks.family === "python"
        ? /^\s*(?:async\s+)?def\s+(\w+)\s*\(/.exec(line)?.[1]
        : /\(\s*(["'`])((?:\\.|(?!\1)[^\\])+)\1/.exec(line)?.[2];
    if (name !== undefined) found.set(name, [...(found.get(name) ?? []), index]);
  });
  return found;
}

/**
 * pytest's fixtures that never skip a test: a test that asks for another one may be skipped by
 * it (a database the machine lacks), and its skip is no sign of an edit.
 */
const PLAIN_FIXTURES = new Set([
  "self",
  "cls",
  "tmp_path",
  "tmpdir",
  "tmp_path_factory",
  "tmpdir_factory",
  "monkeypatch",
  "capsys",
  "capsysbinary",
  "capfd",
  "capfdbinary",
  "caplog",
  "recwarn",
  "request",
  "pytestconfig",
]);

/** A word of a skip, an expected failure, or a hook that may skip every test of a file. */
const MAY_SKIP = /skip|xfail|todo|runIf|pytestmark|setup_module|setUpModule|autouse/i;

/** Whether a test's definition at the turn's start could already skip it where it runs. */
function mightSkipAlready(blocks: Blocks, index: number, fileWide: boolean): boolean {
  if (fileWide) return true;
  const span = blocks.span(index);
  const around = blocks.around(index).map((line) => blocks.span(line));
  if (MAY_SKIP.test(span) || around.some((one) => MAY_SKIP.test(one))) return true;
  if (blocks.family === "js") {
    // A title under a call that is not the runner's own (`itIfNode("adds", …)`) may skip.
    const callee = /([\w$.[\]"']+)\s*\(\s*["'`]/.exec(span)?.[1] ?? "";
    return !/^(it|test|specify|describe|context|suite)((\.\w+)*)$/.test(callee);
  }
  const decorated = [span, ...around]
    .flatMap((one) => one.split("\n"))
    .filter((line) => /^\s*@/.test(line))
    .some((line) => !/^\s*@(pytest\.)?mark\.(parametrize|usefixtures|asyncio|anyio)\b/.test(line));
  if (decorated) return true;
  const params = /def\s+\w+\s*\(([^)]*)\)/.exec(span)?.[1] ?? "";
  // The names the test's own `parametrize` gives values to are no fixtures (the twenty-eighth
  // round: one case of a parametrised test skipped while another ran), spelt as one string
  // (`"a,b"`) or as a tuple or list of strings (`("a", "b")`, the twenty-ninth round).
  const given = new Set(
    [
      ...span.matchAll(
        /\bparametrize\(\s*(?:argnames\s*=\s*)?(?:(["'])([\w\s,]+)\1|[([]((?:\s*(["'])\w+\4\s*,?)+)\s*[)\]])/g,
      ),
    ].flatMap((match) =>
      (match[2] ?? match[3] ?? "").split(",").map((name) => name.replace(/["'\s]/g, "")),
    ),
  );
  const own = plainFixtures(blocks);
  return paramsOf(params).some(
    (param) => !PLAIN_FIXTURES.has(param) && !given.has(param) && !own.has(param),
  );
}

const paramsOf = (params: string): string[] =>
  params.split(",").flatMap((param) => /^\s*\*{0,2}(\w+)/.exec(param)?.[1] ?? []);

const ownFixtures = new WeakMap<Blocks, ReadonlySet<string>>();

/**
 * The fixtures a Python test file defines itself that cannot skip a test (the thirty-second
 * round: a helper handed to the failing test by a fixture of its file): a `@pytest.fixture` with
 * no word of a skip, asking only for pytest's plain fixtures or others of these. One defined in
 * the file is the one its tests get, whatever a conftest.py defines under the same name.
 */
function plainFixtures(blocks: Blocks): ReadonlySet<string> {
  const known = ownFixtures.get(blocks);
  if (known !== undefined) return known;
  const found = new Map<string, string[]>();
  for (const [name, lines] of definitions(blocks)) {
    if (lines.length !== 1) continue;
    const span = blocks.span(lines[0] ?? 0);
    if (!/^\s*@(?:pytest\.)?fixture\b/m.test(span) || MAY_SKIP.test(span)) continue;
    if (blocks.around(lines[0] ?? 0).length > 0) continue;
    found.set(name, paramsOf(/def\s+\w+\s*\(([^)]*)\)/.exec(span)?.[1] ?? ""));
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, params] of found)
      if (params.some((param) => !PLAIN_FIXTURES.has(param) && !found.has(param))) {
        found.delete(name);
        changed = true;
      }
  }
  const plain = new Set(found.keys());
  ownFixtures.set(blocks, plain);
  return plain;
}

/** What acts on every test of a Python file: a module-wide mark, an autouse fixture, a setup. */
const FILE_WIDE = /^(\s*pytestmark\b|\S.*\b(importorskip|setup_module|autouse)\b)/m;

/** At most this many changed tests of a file are judged (a reformatted file changes all). */
const MAX_EDITED = 200;

/**
 * The tests of a changed file a skip reported by the run can only have come from this turn (the
 * twenty-seventh round): defined at the turn's start, their definition changed (or a
 * module-wide mark or autouse fixture added to the file), and nothing in
 * it or the blocks around it then could skip them (a skip marker or a word of one, a decorator
 * of the project's, a fixture that may skip, a module-wide `pytestmark` or autouse fixture, a
 * title under a wrapper of the runner). Their names, as the runner reports them without
 * parameters.
 */
export function editedTests(path: string, before: string, after: string): string[] {
  const family = familyOf(path);
  if (family === undefined) return [];
  const then = new Blocks(before, family);
  const now = new Blocks(after, family);
  const nowDefined = definitions(now);
  const fileWide = family === "python" && FILE_WIDE.test(before);
  // A module-wide mark or autouse fixture the turn added acts on every test, edited or not.
  const addedFileWide = family === "python" && !fileWide && FILE_WIDE.test(after);
  const thenDefined = definitions(then);
  const changed = new Set<string>();
  for (const [name, lines] of thenDefined) {
    const spans = lines.map((line) => then.span(line));
    const nowSpans = (nowDefined.get(name) ?? []).map((line) => now.span(line));
    const same = spans.length === nowSpans.length && spans.every((span, i) => span === nowSpans[i]);
    if (!same || addedFileWide) changed.add(name);
  }
  if (family === "python") calledChanged(then, thenDefined, changed);
  const edited: string[] = [];
  for (const [name, lines] of thenDefined) {
    if (edited.length >= MAX_EDITED) break;
    if (!changed.has(name)) continue;
    if (!lines.some((line) => mightSkipAlready(then, line, fileWide))) edited.push(name);
  }
  return edited;
}

/**
 * A function of the file whose definition changed changes the tests that call it (the
 * twenty-eighth round: a skip put in a helper the failing test already called), and the
 * functions that call those, as the file read at the turn's start: added to `changed`. A helper
 * that could skip already then (a word of a skip in it) passes nothing on.
 */
function calledChanged(
  then: Blocks,
  defined: ReadonlyMap<string, number[]>,
  changed: Set<string>,
): void {
  const callers = [...changed].filter((name) =>
    (defined.get(name) ?? []).every((line) => !MAY_SKIP.test(then.span(line))),
  );
  for (let round = 0; callers.length > 0 && round < 8; round += 1) {
    // A name said, not only called (the thirty-second round): passed on as a value
    // (`run(check, …)`), returned by a fixture the test asks for by a parameter, or spelt in a
    // string (`getattr(helpers, "check")`) reaches the function as a call does.
    const says = new RegExp(`(?<![\\w])(?:${callers.map(escaped).join("|")})(?![\\w])`);
    callers.length = 0;
    for (const [name, lines] of defined) {
      if (changed.has(name)) continue;
      // The parameters and the body: a definition's own name is no use of itself.
      const bodies = lines.map((line) => {
        const spanLines = then.span(line).split("\n");
        const own = spanLines.findIndex((one) => /^\s*(?:async\s+)?def\s/.test(one));
        return spanLines
          .slice(own)
          .join("\n")
          .replace(/^(\s*(?:async\s+)?def\s+)\w+/, "$1");
      });
      if (!bodies.some((body) => says.test(body))) continue;
      changed.add(name);
      if (bodies.every((body) => !MAY_SKIP.test(body))) callers.push(name);
    }
  }
}

/**
 * The functions of a Python helper module of a test area (`tests/helpers.py`) whose definition
 * the turn changed, and the functions of the module that call them (the twenty-ninth round: a
 * skip put in a helper a failing test imports and calls). A function that could skip at the
 * turn's start (a word of a skip in it) is left out: its callers may be skipped already.
 */
export function changedHelpers(path: string, before: string, after: string): string[] {
  const family = familyOf(path);
  if (family === "js" && !TEST_NAME.test(path)) return changedJsHelpers(before, after);
  if (family !== "python" || TEST_NAME.test(path)) return [];
  const then = new Blocks(before, "python");
  const now = new Blocks(after, "python");
  const thenDefined = definitions(then);
  const nowDefined = definitions(now);
  const changed = new Set<string>();
  for (const [name, lines] of thenDefined) {
    const spans = lines.map((line) => then.span(line));
    const nowSpans = (nowDefined.get(name) ?? []).map((line) => now.span(line));
    if (spans.length !== nowSpans.length || spans.some((span, i) => span !== nowSpans[i]))
      changed.add(name);
  }
  calledChanged(then, thenDefined, changed);
  return [...changed].filter((name) =>
    (thenDefined.get(name) ?? []).every((line) => !MAY_SKIP.test(then.span(line))),
  );
}

/**
 * The tests of a Python test file that call one of `helpers` (by name, or through the functions
 * of the file that do) and that nothing in the file could skip (see `editedTests`): a change of
 * those helpers in a module the file imports (`module`, its last name) is the only thing that
 * can have skipped one.
 */
export function testsCallingHelpers(
  path: string,
  text: string,
  module: string,
  helpers: readonly string[],
): string[] {
  if (familyOf(path) === "js" && helpers.length > 0)
    return testsCallingJsHelpers(text, module, helpers);
  if (familyOf(path) !== "python" || helpers.length === 0 || FILE_WIDE.test(text)) return [];
  const imports = new RegExp(`^[ \\t]*(?:from|import)\\b[^\\n]*\\b${escaped(module)}\\b`, "m");
  if (!imports.test(text)) return [];
  const blocks = new Blocks(text, "python");
  const defined = definitions(blocks);
  const changed = new Set(helpers.filter((name) => !defined.has(name)));
  for (const alias of aliasesOf(text, module, changed)) changed.add(alias);
  const seeds = new Set(changed);
  calledChanged(blocks, defined, changed);
  const found: string[] = [];
  for (const [name, lines] of defined) {
    if (found.length >= MAX_EDITED) break;
    if (seeds.has(name) || !changed.has(name) || !name.startsWith("test")) continue;
    if (!lines.some((line) => mightSkipAlready(blocks, line, false))) found.push(name);
  }
  return found;
}

/** A named JavaScript function of a module, exported or not (`export function check(`). */
const JS_FUNCTION =
  /^\s*(?:export\s+(?:default\s+)?)?(?:(?:async\s+)?function\s*\*?\s*([\w$]+)\s*\(|(?:const|let|var)\s+([\w$]+)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>))/;

/** The named functions of a JavaScript module, by the lines that open them. */
function jsFunctions(blocks: Blocks): Map<string, number[]> {
  const found = new Map<string, number[]>();
  blocks.lines.forEach((line, index) => {
    const match = JS_FUNCTION.exec(line);
    const name = match?.[1] ?? match?.[2];
    if (name !== undefined) found.set(name, [...(found.get(name) ?? []), index]);
  });
  return found;
}

/**
 * The functions of a JavaScript helper module of a test area (`test/helpers.js`) whose
 * definition the turn changed (the thirtieth round: vitest's `getCurrentTest()` hands a helper
 * the running test, so it can skip one by its name), less those that could skip at the turn's
 * start.
 */
function changedJsHelpers(before: string, after: string): string[] {
  const then = new Blocks(before, "js");
  const now = new Blocks(after, "js");
  const thenDefined = jsFunctions(then);
  const nowDefined = jsFunctions(now);
  const changed: string[] = [];
  for (const [name, lines] of thenDefined) {
    const spans = lines.map((line) => then.span(line));
    const nowSpans = (nowDefined.get(name) ?? []).map((line) => now.span(line));
    const same = spans.length === nowSpans.length && spans.every((span, i) => span === nowSpans[i]);
    if (!same && spans.every((span) => !MAY_SKIP.test(span))) changed.push(name);
  }
  return changed;
}

/**
 * The tests of a JavaScript test file that import `module` (a specifier ending in its name) and
 * call one of `helpers` in their own body, by its name or the name the import gives it, and that
 * nothing in their definition could skip: their titles.
 */
function testsCallingJsHelpers(text: string, module: string, helpers: readonly string[]): string[] {
  const specifier = `["'][^"'\\n]*\\b${escaped(module)}(?:\\.[cm]?[jt]sx?)?["']`;
  if (
    !new RegExp(`\\bfrom\\s*${specifier}|\\b(?:require|import)\\s*\\(\\s*${specifier}`).test(text)
  )
    return [];
  const names = new Set(helpers);
  for (const match of text.matchAll(/\bimport\s*\{([^}]*)\}\s*from\b/g))
    for (const part of (match[1] ?? "").split(",")) {
      const pair = /^\s*([\w$]+)\s+as\s+([\w$]+)\s*$/.exec(part);
      if (pair?.[1] !== undefined && pair[2] !== undefined && names.has(pair[1]))
        names.add(pair[2]);
    }
  const blocks = new Blocks(text, "js");
  // A function of the test file that says one reaches it too (the thirty-second round:
  // `function go() { check(2, 3, 5) }`, then `it("adds", () => go())`), a few times over.
  const functions = jsFunctions(blocks);
  for (let round = 0; round < 4; round += 1) {
    const size = names.size;
    const says = saying(names);
    for (const [name, lines] of functions)
      if (
        !names.has(name) &&
        lines.some((line) => says.test(blocks.span(line).replace(JS_FUNCTION, "")))
      )
        names.add(name);
    if (names.size === size) break;
  }
  const calls = saying(names);
  // A hook of the file that may skip (`beforeEach((c) => { if (…) c.skip() })`) leaves a skip
  // unexplained by the helper, as a module-wide mark does in Python.
  const hooks = blocks.lines.flatMap((line, index) =>
    /^\s*(?:beforeEach|beforeAll|before|setup)\s*\(/.test(line) ? [blocks.span(index)] : [],
  );
  if (hooks.some((hook) => MAY_SKIP.test(hook))) return [];
  const found: string[] = [];
  for (const [title, lines] of definitions(blocks)) {
    if (found.length >= MAX_EDITED) break;
    const own = lines.filter(
      (line) => !/^\s*(?:describe|context|suite)\b/.test(blocks.lines[line] ?? ""),
    );
    if (
      own.length === 0 ||
      !own.some((line) =>
        calls.test(blocks.span(line).replace(/^[^\n]*\(\s*(["'`])(?:\\.|(?!\1)[^\\])+\1/, "")),
      )
    )
      continue;
    if (!own.some((line) => mightSkipAlready(blocks, line, false))) found.push(title);
  }
  return found;
}

/**
 * The other names a Python test file gives `helpers` of `module` (the thirtieth round): an
 * import under another name (`from tests.helpers import check as c`) and a name bound to one
 * (`c = check`, `c = helpers.check`), so that a call by that name reaches the helper too.
 */
function aliasesOf(text: string, module: string, helpers: ReadonlySet<string>): string[] {
  const names = new Set(helpers);
  const from = new RegExp(
    `^[ \\t]*from[ \\t]+[\\w.]*\\b${escaped(module)}[ \\t]+import[ \\t]*(\\([^)]*\\)|[^\\n#]+)`,
    "gm",
  );
  for (const match of text.matchAll(from))
    for (const part of (match[1] ?? "").replace(/[()]/g, " ").split(",")) {
      const pair = /^\s*(\w+)\s+as\s+(\w+)\s*$/.exec(part.replace(/#[^\n]*/g, ""));
      if (pair?.[1] !== undefined && pair[2] !== undefined && names.has(pair[1]))
        names.add(pair[2]);
    }
  // A name bound to a helper, followed a few times (`c = check`, then `d = c`).
  for (let round = 0; round < 4; round += 1) {
    const size = names.size;
    for (const match of text.matchAll(
      /^[ \t]*(\w+)[ \t]*=[ \t]*(?:[\w.]+\.)?(\w+)[ \t]*(?:#.*)?$/gm,
    ))
      if (match[1] !== undefined && names.has(match[2] ?? "")) names.add(match[1]);
    if (names.size === size) break;
  }
  return [...names].filter((name) => !helpers.has(name));
}

/** A JavaScript name said in code: called, passed on, or read off a namespace (`h.check`). */
const saying = (names: ReadonlySet<string>) =>
  new RegExp(`(?<![\\w$])(?:${[...names].map(escaped).join("|")})(?![\\w$])`);

/** A name as a regular expression matching it alone. */
const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * What in a conftest.py may skip the tests under it: a skip word, or a hook of pytest's that
 * acts on each test (its setup or call, collection).
 */
const CONFTEST_MAY_SKIP = /skip|xfail|def\s+pytest_(runtest|collection|ignore|itemcollected)/i;

/** Whether a conftest.py's text (at the turn's start) could skip a test under it already. */
export function conftestMaySkip(text: string): boolean {
  return CONFTEST_MAY_SKIP.test(text);
}

/**
 * The tests of a Python test file that nothing in the file could skip (see `editedTests`): a
 * conftest.py above it that the turn changed, and that could skip nothing at the turn's start,
 * is the only thing that can have skipped one (the twenty-eighth round: an autouse fixture there
 * skipping `test_add` by its name).
 */
export function testsNothingSkips(path: string, text: string): string[] {
  if (familyOf(path) !== "python") return [];
  const blocks = new Blocks(text, "python");
  if (FILE_WIDE.test(text)) return [];
  const found: string[] = [];
  for (const [name, lines] of definitions(blocks)) {
    if (found.length >= MAX_EDITED) break;
    if (!name.startsWith("test")) continue;
    if (!lines.some((line) => mightSkipAlready(blocks, line, false))) found.push(name);
  }
  return found;
}

/** The Stop's line for tests of a changed file the run reports skipped (see `editedTests`). */
export function skippedTestsLine(
  mode: "tdd" | "strict",
  skipped: readonly { path: string; names: readonly string[]; via?: string }[],
): string {
  return weakenedLine(
    mode,
    skipped.map(({ path, names, via }) => {
      const one = names.length === 1;
      const could = `though nothing in ${one ? "its definition" : "their definitions"} could skip ${one ? "it" : "them"} at the turn's start`;
      // A helper module they call changed (the twenty-ninth round): it is the file to put back.
      return via === undefined
        ? { path, forms: [`${names.join(", ")} skipped now, ${could}`] }
        : {
            path: via,
            forms: [
              `${names.join(", ")} of ${path}, which call${one ? "s" : ""} it, skipped now, ${could}`,
            ],
          };
    }),
  );
}
