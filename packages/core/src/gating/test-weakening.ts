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
    /@pytest\.mark\.(skip|skipif|xfail)\b|\bpytest\.(skip|xfail|importorskip)\s*\(|@unittest\.(skip|skipIf|skipUnless|expectedFailure)\b|\.skipTest\s*\(/g,
  js: /\b(it|test|describe|suite|context|specify|bench)\s*\.\s*(skip|todo|skipIf|runIf|fails|failing|only)\b|\b(xit|xtest|xdescribe|xcontext|xspecify|fit|fdescribe)\s*\(|\bthis\.skip\s*\(|\bctx\.skip\s*\(|\bt\.(skip|todo)\s*\(/g,
};

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

/** An assertion line as a sequence of tokens, names it does not judge replaced by `_`. */
function shapeOf(line: string): string {
  const tokens =
    line
      .trim()
      .match(
        /"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`|\d[\w.]*|[A-Za-z_$][\w$]*|\S/g,
      ) ?? [];
  return tokens
    .map((token) => (/^[A-Za-z_$]/.test(token) && !KEPT_WORD.test(token) ? "_" : token))
    .join(" ");
}

interface Counted {
  skips: number;
  assertions: Map<string, number>;
  vacuous: number;
}

function count(text: string, family: Family): Counted {
  const assertions = new Map<string, number>();
  let vacuous = 0;
  let skips = 0;
  for (const line of text.split("\n")) {
    if (COMMENT[family].test(line)) continue;
    skips += line.match(SKIP[family])?.length ?? 0;
    if (!ASSERTION[family].test(line)) continue;
    if (VACUOUS[family].test(line)) vacuous += 1;
    const shape = shapeOf(line);
    assertions.set(shape, (assertions.get(shape) ?? 0) + 1);
  }
  return { skips, assertions, vacuous };
}

/** `a skip`, `an assertion`, `2 assertions`. */
const plural = (n: number, one: string) =>
  n === 1 ? `${/^[aeiou]/.test(one) ? "an" : "a"} ${one}` : `${n} ${one}s`;

/**
 * How a change of an existing test file weakened it (empty: it did not, or its language is not
 * read). `after` undefined: the file was deleted.
 */
export function weakeningForms(path: string, before: string, after: string | undefined): string[] {
  const family = familyOf(path);
  if (family === undefined) return [];
  const then = count(before, family);
  if (after === undefined) {
    const total = [...then.assertions.values()].reduce((sum, n) => sum + n, 0);
    return total === 0 && then.skips === 0 ? [] : ["deleted"];
  }
  const now = count(after, family);
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
  return forms;
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
      /--deselect\b|(?<![\w-])(?<!(?:python[\d.]*|run)\s+)-[km](?=[\s="'])|--ignore(-glob)?\b|\bnorecursedirs\b|\bpython_(files|functions|classes)\b|--(lf|last-failed|co|collect-only)\b|(?<![\w-])-p\s*no:/g,
  },
  {
    file: /^conftest\.py$/,
    words:
      /\bcollect_ignore(_glob)?\b|\bpytest_collection_modifyitems\b|\bpytest_ignore_collect\b|\bpytest_deselected\b|\bpytest\.mark\.(skip|skipif|xfail)\b|\bpytest\.(skip|xfail)\s*\(/g,
  },
  {
    file: JS_CONFIG,
    words:
      /(?<![\w$.@/-])(exclude|passWithNoTests|testPathIgnorePatterns|modulePathIgnorePatterns|testNamePattern|allowOnly|retry|dangerouslyIgnoreUnhandledErrors)(?![\w$.@/-])|--(passWithNoTests|testPathIgnorePatterns|testNamePattern|exclude|retry)\b|(?<![\w-])-t(?=[\s="'])/g,
  },
];

const CLOSE: Record<string, string> = { "[": "]", "{": "}", "(": ")" };

/** The word and its value: up to the bracket that closes it, else the end of the line. */
function valueAt(text: string, start: number, word: string): string {
  let at = start + word.length;
  while (at < text.length && /[\s:="']/.test(text[at] ?? "") && text[at] !== "\n") at += 1;
  const open = text[at] ?? "";
  const close = CLOSE[open];
  if (close === undefined) {
    const end = text.indexOf("\n", at);
    return text.slice(start, end === -1 ? text.length : end).replace(/\s+/g, "");
  }
  let depth = 0;
  for (let index = at; index < text.length && index < at + 20_000; index += 1) {
    const char = text[index];
    if (char === open) depth += 1;
    else if (char === close && --depth === 0)
      return text.slice(start, index + 1).replace(/\s+/g, "");
  }
  return text.slice(start, at + 200).replace(/\s+/g, "");
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
 * How a change of a runner config or a conftest.py leaves tests out of a run (empty: it does
 * not, or the file is no such config): each word of `LEAVES_OUT` whose value was added or
 * changed. `before` undefined: the file is new.
 */
export function leavesTestsOut(path: string, before: string | undefined, after: string): string[] {
  const name = path.split("/").pop() ?? path;
  const kind = LEAVES_OUT.find((one) => one.file.test(name));
  if (kind === undefined) return [];
  const then = valuesOf(before ?? "", kind.words);
  const now = valuesOf(after, kind.words);
  const forms: string[] = [];
  for (const [word, values] of now) {
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
