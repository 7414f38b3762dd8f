import * as z from "zod/mini";
import { baseName, extensionOf, stemOf } from "../filter/languages.ts";
import { dirnameRel } from "../project/project-view.ts";
import { EvidenceSchema, type Evidence } from "./test-evidence.ts";
import { lazy } from "../util/lazy.ts";

/**
 * Which of a project's tests are related to one changed file, and why. The evidence, strongest
 * first:
 * - `self`: the changed file is a test;
 * - `name`: a test named after it by the project's convention (`_cached.py` ↔ `test_cached.py`,
 *   `pkg/__init__.py` ↔ `test_pkg.py`, `utils.ts` ↔ `utils.test.ts`, mirrored trees);
 * - `family`: tests of a family or a per-module folder (`option.js` ↔ `option.parse.test.js`,
 *   `options.test.js`; `datetime.js` ↔ `test/datetime/*.test.js`);
 * - `imports`: tests that import it directly;
 * - `imports-via`: tests that import it through the project's own modules (barrels,
 *   `__init__.py` re-exports), nearest first;
 * - `support`: tests that run with a changed support file (a `conftest.py` reaches the tests in
 *   its folder, a helper the tests that import it);
 * - `mentions`: for a file nothing else relates to, tests that name it in their text (a Django
 *   template tag library loaded by `{% load solo_tags %}`, a module loaded by a string path) or
 *   list a folder holding it by name (`readdirSync(join(__dirname, 'issues'))`).
 */
export { EvidenceSchema };

export const RelatedTestSchema = lazy(() =>
  z.object({
    path: z.string(),
    evidence: EvidenceSchema,
    /** How the evidence was found: "imports it through src/pkg/__init__.py (2 hops)". */
    detail: z.string(),
    /** Import hops (0 for name, family and self). */
    hops: z.number(),
  }),
);
export type RelatedTest = z.infer<typeof RelatedTestSchema>;

const RANK: Readonly<Record<Evidence, number>> = {
  self: 0,
  name: 1,
  family: 2,
  imports: 3,
  "imports-via": 4,
  support: 5,
  mentions: 6,
  config: 7,
};

export interface RelatedInput {
  /** The changed file, project-relative. */
  file: string;
  /**
   * The test files of the project that could match it by name (same language family): every
   * test, or only those whose path spells its name (the others cannot match by convention).
   */
  tests: readonly string[];
  /** Every test file of the project that could cover it; `tests` when not given. */
  allTests?: () => readonly string[];
  /** Whether a file is one of the project's tests that could cover it; membership in `tests` when not given. */
  isListedTest?: (rel: string) => boolean;
  isTest(rel: string): boolean;
  isSupport(rel: string): boolean;
  /**
   * The tests a file reaches because their runner loads it before each of them (a jasmine
   * helper named by its config), or none: what such a file imports reaches them all.
   */
  setupScope?: (rel: string) => readonly string[];
  /**
   * The tests that load a file by listing its folder (`readdirSync(join(__dirname, 'issues'))`
   * requiring each file it finds), or none: what such a file imports reaches them.
   */
  folderScope?: (rel: string) => readonly string[];
  /**
   * The project files that import `file`, nearest first (`[direct, one hop further, …]`), or
   * undefined when no import graph is known.
   */
  importers?: (file: string) => readonly (readonly string[])[] | undefined;
}

/** Related tests, most specific first, each once with its strongest evidence. */
export function relatedTests(input: RelatedInput): RelatedTest[] {
  const found = new Map<string, RelatedTest>();
  const add = (test: RelatedTest): void => {
    const known = found.get(test.path);
    if (known === undefined || compareRelated(test, known) < 0) found.set(test.path, test);
  };
  // The tests a file is loaded before: a conftest.py's folder, or a runner's setup helper's.
  const loadedBefore = (file: string): string[] => [
    ...supportScope(file, input.allTests?.() ?? input.tests),
    ...(input.setupScope?.(file) ?? []),
    ...(input.folderScope?.(file) ?? []),
  ];
  if (input.isTest(input.file)) {
    add({ path: input.file, evidence: "self", detail: "the changed file is a test", hops: 0 });
  }
  const known = input.importers?.(input.file);
  // A test's support module is named like the module a test is named after (pyjwt's
  // `tests/utils.py` beside `tests/test_utils.py`, which tests `jwt/utils.py`): where the
  // imports are known, its tests are the ones that import it, not those its name matches.
  const byName = known === undefined || !input.isSupport(input.file);
  for (const test of nearestByPlace(
    input.file,
    byName ? input.tests.filter((test) => conventionMatch(input.file, test) !== undefined) : [],
  )) {
    const match = conventionMatch(input.file, test);
    if (match !== undefined) add({ path: test, ...match, hops: 0 });
  }
  const levels = known ?? [];
  const testSet = input.isListedTest === undefined ? new Set(input.tests) : undefined;
  const listed = input.isListedTest ?? ((rel: string) => testSet?.has(rel) === true);
  levels.forEach((level, index) => {
    for (const importer of level) {
      // A conftest.py that imports it hands it to tests as fixtures: the tests in its folder and
      // below may use it without importing anything (`def test_x(version): …`).
      // A runner's helper (jasmine's config `helpers`) loads before every test the same way.
      if (!listed(importer))
        for (const test of loadedBefore(importer))
          add({
            path: test,
            evidence: "imports-via",
            detail: `runs with ${importer}, which imports it`,
            hops: index + 2,
          });
      if (!listed(importer)) continue;
      add({
        path: importer,
        evidence: index === 0 ? "imports" : "imports-via",
        detail:
          index === 0
            ? "imports it"
            : `imports it through the project's modules (${index + 1} hops)`,
        hops: index + 1,
      });
    }
  });
  // A file the runner loads before every test (a Django project's settings) is support by place
  // whatever its name.
  const setup = input.isSupport(input.file) ? [] : (input.setupScope?.(input.file) ?? []);
  if (input.isSupport(input.file) || setup.length > 0) {
    for (const test of setup.length > 0 ? setup : loadedBefore(input.file)) {
      add({
        path: test,
        evidence: "support",
        detail: `runs with ${baseName(input.file)}`,
        hops: 0,
      });
    }
  }
  // Among tests with the same evidence and distance, those whose name shares a word with the
  // file's come first (statement_splitter.py → test_split.py, suggestSimilar.js →
  // help.suggestion.test.js): a note shows the first five of a hundred transitive importers.
  const rank = nameRanks(input.file, [...found.keys()]);
  return [...found.values()].sort((a, b) =>
    compareRelated(a, b, rank.get(a.path), rank.get(b.path)),
  );
}

/**
 * Each test's name rank against one file: 0 when the test's name shares a word with the file's,
 * 1 otherwise. Worked out once per test, not once per comparison of a sort.
 */
export function nameRanks(file: string, tests: Iterable<string>): Map<string, number> {
  const near = nameWords(file, 4);
  const ranks = new Map<string, number>();
  for (const test of tests)
    ranks.set(
      test,
      nameWords(test, 3).some((word) => near.some((mine) => sameWord(word, mine))) ? 0 : 1,
    );
  return ranks;
}

/** The words of a file's name (camelCase, `_`, `-`, `.` split; test affixes dropped), ≥ `least` letters. */
function nameWords(path: string, least: number): string[] {
  return baseName(path)
    .replace(/\.[^.]+$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter(
      (word) => word.length >= least && word !== "test" && word !== "spec" && word !== "tests",
    );
}

/**
 * A test's word and a file's of one root: equal, sharing their first five letters (split,
 * splitter), or the test's a short form the file's starts with (express's `req.query.js` for
 * `request.js`, `res.send.js` for `response.js`, `app.render.js` for `application.js`).
 */
function sameWord(test: string, file: string): boolean {
  if (test === file) return true;
  let at = 0;
  while (at < test.length && at < file.length && test[at] === file[at]) at += 1;
  return at >= 5 || (at === test.length && at >= 3);
}

/**
 * Strongest evidence first, then nearest, then the test whose name shares a word with the file's
 * (its rank from `nameRanks`, when given), then by path: the order tests are chosen in.
 */
export function compareRelated(a: RelatedTest, b: RelatedTest, aName = 0, bName = 0): number {
  return (
    RANK[a.evidence] - RANK[b.evidence] ||
    a.hops - b.hops ||
    aName - bName ||
    comparePaths(a.path, b.path)
  );
}

/** The characters of plain paths, in the order the default collation puts them. */
const PLAIN_ORDER = " _-.@/+0123456789abcdefghijklmnopqrstuvwxyz";
const PLAIN_RANK = new Int8Array(128).fill(-1);
for (let at = 0; at < PLAIN_ORDER.length; at += 1) PLAIN_RANK[PLAIN_ORDER.charCodeAt(at)] = at;

/**
 * `a.localeCompare(b)`'s order without loading the collation (its first use costs a process 7 ms
 * idle, 40 ms on a busy machine): for paths of lower-case ASCII letters, digits and ` _-.@/+`
 * the default collation compares character by character in `PLAIN_ORDER`, a prefix first; any
 * other path is compared by `localeCompare` itself.
 */
export function comparePaths(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let at = 0; at < length; at += 1) {
    const x = a.charCodeAt(at);
    const y = b.charCodeAt(at);
    const rx = x < 128 ? (PLAIN_RANK[x] ?? -1) : -1;
    const ry = y < 128 ? (PLAIN_RANK[y] ?? -1) : -1;
    if (rx === -1 || ry === -1) return a.localeCompare(b);
    if (rx !== ry) return rx - ry;
  }
  for (let at = length; at < Math.max(a.length, b.length); at += 1) {
    const code = (a.length > b.length ? a : b).charCodeAt(at);
    if (code >= 128 || PLAIN_RANK[code] === -1) return a.localeCompare(b);
  }
  return a.length - b.length;
}

/** The tests a support file reaches by place: a conftest.py's folder and below. */
function supportScope(file: string, tests: readonly string[]): string[] {
  if (baseName(file) !== "conftest.py") return [];
  const dir = dirnameRel(file);
  return tests.filter((test) => dir === "" || test.startsWith(`${dir}/`));
}

// ---------------------------------------------------------------- conventions

/** Names too common to pair a source with a test by name alone across folders. */
const GENERIC = new Set([
  "index",
  "main",
  "mod",
  "lib",
  // `src/index.ts` stands for `src`, the sources' root, not a module with tests of its folder.
  "src",
  "init",
  "app",
  "types",
  "utils",
  "util",
  "helpers",
  "constants",
  "core",
  "base",
  "common",
  "__main__",
]);

/** The stems of a folder's entry module, which is named (and imported) by its folder. */
export const ENTRY_STEMS = new Set(["__init__", "index", "mod"]);

/** A source file's name as tests name it: `_cached` → `cached`, `pkg/__init__.py` → `pkg`. */
export function subjectName(file: string): string {
  const stem = stemOf(file);
  const name = ENTRY_STEMS.has(stem) ? baseName(dirnameRel(file)) : stem;
  return normalizeName(name);
}

/**
 * What a test named after `file` is named for, as the agent reads it: the file, or the folder of a
 * package's `__init__.py` (`index.ts`, `mod.rs`), whose name the test takes (pyparsing's
 * `tests/test_diagram.py` is named after `diagram/`, not after `__init__.py`).
 */
function namedFor(file: string): string {
  return ENTRY_STEMS.has(stemOf(file)) && dirnameRel(file) !== ""
    ? `${baseName(dirnameRel(file))}/`
    : baseName(file);
}

function normalizeName(name: string): string {
  return name.replace(/^_+/, "").replace(/_+$/, "").toLowerCase();
}

/** What a test file is named for: `test_cached.py` → `cached`, `option.parse.test.js` → `option.parse`. */
export function testSubject(test: string): string {
  let name = baseName(test);
  const ext = extensionOf(name);
  name = name.slice(0, name.length - ext.length);
  name = withoutTestSuffix(name.replace(/^tests?[_-]/i, ""))
    .replace(/Tests?$/, "")
    .replace(/^test(?=[A-Z])/, "");
  return normalizeName(name);
}

const TEST_SUFFIXES = ["test", "tests", "spec", "specs"];

/**
 * `name.replace(/([._-]|\b)(test|tests|spec|specs)$/i, "")`, without the regex (~0.7 M
 * instructions for V8 to compile, on every `explain`): the suffix in any ASCII case, with the
 * `.`, `_` or `-` before it, or at a word's start.
 */
export function withoutTestSuffix(name: string): string {
  for (const suffix of TEST_SUFFIXES) {
    const at = name.length - suffix.length;
    if (at < 0 || !sameAsciiLetters(name, at, suffix)) continue;
    const before = name.charCodeAt(at - 1);
    // `_` is a word character too: `\b` never holds between it and the suffix.
    if (before === 46 || before === 95 || before === 45) return name.slice(0, at - 1);
    if (at === 0 || !isWordCode(before)) return name.slice(0, at);
  }
  return name;
}

/** `text` at `at` spells `lower` (ASCII letters), in any ASCII case, as `/i` without `u` reads it. */
function sameAsciiLetters(text: string, at: number, lower: string): boolean {
  for (let i = 0; i < lower.length; i += 1) {
    const code = text.charCodeAt(at + i);
    if (code !== lower.charCodeAt(i) && code + 32 !== lower.charCodeAt(i)) return false;
  }
  return true;
}

function isWordCode(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95
  );
}

/**
 * What a test's path must spell to match `file` by name or family (`relatedTests`' conventions:
 * the name, a family's prefix, a plural, a folder), as a pattern; undefined when the name is not
 * plain ASCII (then every test is looked at).
 */
export function nameWord(file: string): RegExp | undefined {
  const subject = subjectName(file);
  if (subject === "") return /(?!)/;
  const core = subject.length > 1 && subject.endsWith("s") ? subject.slice(0, -1) : subject;
  if (!/^[\x20-\x7e]+$/.test(core)) return undefined;
  return new RegExp(core.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), "i");
}

const SEPARATORS = /^[._-]/;

function conventionMatch(
  file: string,
  test: string,
): Omit<RelatedTest, "path" | "hops"> | undefined {
  if (file === test) return undefined;
  const subject = subjectName(file);
  if (subject === "") return undefined;
  const named = testSubject(test);
  const generic = GENERIC.has(subject);
  const near = generic ? sharesPlace(file, test) : true;
  if (!near) return undefined;
  if (named === subject) return { evidence: "name", detail: `named after ${namedFor(file)}` };
  // A family: option.js ↔ option.parse.test.js, options.test.js; test_option_parse.py.
  if (
    !generic &&
    ((named.startsWith(subject) && SEPARATORS.test(named.slice(subject.length))) ||
      named === `${subject}s` ||
      subject === `${named}s`)
  )
    return { evidence: "family", detail: `in the ${subject}* family of tests` };
  // A per-module folder: datetime.js ↔ test/datetime/format.test.js.
  const folders = dirnameRel(test).split("/").map(normalizeName);
  if (!generic && folders.includes(subject))
    return { evidence: "family", detail: `in the tests' ${subject}/ folder` };
  return undefined;
}

/**
 * Of the tests a name matches, those nearest the file: when some share folder names with it
 * (`polls/models.py` ↔ `polls/tests/test_models.py`, `src/a/p0/m1.py` ↔ `tests/p0/test_m1.py`),
 * only the ones sharing the most; a flat test folder keeps them all. Apps of one project often
 * repeat module names (every Django app has `models.py`).
 */
function nearestByPlace(file: string, tests: readonly string[]): string[] {
  const own = new Set(
    dirnameRel(file)
      .split("/")
      .filter((part) => part !== "" && !ROOT_FOLDERS.has(part)),
  );
  const score = (test: string): number =>
    dirnameRel(test)
      .split("/")
      .filter((part) => own.has(part)).length;
  const best = Math.max(0, ...tests.map(score));
  return best === 0 ? [...tests] : tests.filter((test) => score(test) === best);
}

const ROOT_FOLDERS = new Set(["src", "lib", "test", "tests", "__tests__", "spec", "app"]);

/**
 * Whether a test sits where a test of this file would: beside it, in a `__tests__` folder next to
 * it, or in a test tree that mirrors its folder.
 */
function sharesPlace(file: string, test: string): boolean {
  const dir = dirnameRel(file);
  const testDir = dirnameRel(test);
  if (testDir === dir || testDir === `${dir}/__tests__`) return true;
  const tail = dir.split("/").slice(-1)[0] ?? "";
  return tail !== "" && testDir.split("/").slice(-1)[0] === tail;
}

/**
 * The words a test would use to load a file by name rather than by import: its path tail
 * (`locale/fr`) and, when distinctive, its stem (`solo_tags`). Generic or short stems are left out.
 */
export function mentionTokens(file: string): string[] {
  const stem = stemOf(file);
  const dir = baseName(dirnameRel(file));
  const tokens: string[] = [];
  if (dir !== "" && stem !== "__init__" && stem !== "index") tokens.push(`${dir}/${stem}`);
  const subject = subjectName(file);
  if (subject.length >= 5 && !GENERIC.has(subject) && /^[a-z][\w-]*$/.test(subject))
    tokens.push(subject);
  // A fixture loaded by its folder (`join(__dirname, "fixtures/multi")` for a command file deep
  // inside it, oclif/test): the folder right below `fixtures/`.
  const parts = dirnameRel(file).split("/");
  const at = parts.findIndex((part) => FIXTURE_DIRS.has(part));
  const folder = at === -1 ? undefined : parts[at + 1];
  if (folder !== undefined && `${parts[at]}/${folder}` !== `${dir}/${stem}`)
    tokens.push(`${parts[at]}/${folder}`);
  return tokens;
}

const FIXTURE_DIRS = new Set(["fixtures", "__fixtures__", "fixture"]);

/**
 * A call that lists a folder's files: a test making one loads the files of the folder it names;
 * so does a fastify app registering `@fastify/autoload` with a `dir`.
 */
const LISTS_FOLDER =
  /\b(?:readdirSync|readdir|opendirSync|opendir|globSync|glob|walkSync|listdir|scandir|iterdir|iglob|rglob|walk)\s*\(|['"]@fastify\/autoload['"]/;

/**
 * The folder, below a test's own, whose files the test loads by listing it: `sub` is a file's
 * folder relative to the test's (`issues`, `samples-common`, `fixtures/multi`), and the test both
 * lists a folder and names `sub`, or a folder above it, as a whole string (`'issues'`,
 * `"./fixtures"`), as js-yaml's `test/30-issues.js` requires every file of `test/issues/`, or by
 * its path from the project's root (`base`, the test's own folder, before it:
 * `os.listdir('tests/test_fixtures')`, a Python test run from the root). Undefined when it does not.
 */
export function listedFolder(text: string, sub: string, base = ""): string | undefined {
  if (sub === "" || sub.startsWith("..") || !LISTS_FOLDER.test(text)) return undefined;
  const parts = sub.split("/");
  for (let end = parts.length; end > 0; end -= 1) {
    const folder = parts.slice(0, end).join("/");
    for (const spelled of base === "" ? [folder] : [folder, `${base}/${folder}`]) {
      const escaped = spelled.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      if (new RegExp(`(['"\`])(?:\\./)?${escaped}/?\\1`).test(text)) return folder;
    }
  }
  return undefined;
}

/**
 * The test a jest or vitest snapshot file belongs to: `__tests__/__snapshots__/a.test.js.snap`
 * is written and read by `__tests__/a.test.js`. Undefined for any other file.
 */
export function snapshotOwner(file: string): string | undefined {
  const match = /^(?:(.*)\/)?__snapshots__\/([^/]+)\.snap$/.exec(file);
  if (match === null || match[2] === undefined) return undefined;
  return match[1] === undefined ? match[2] : `${match[1]}/${match[2]}`;
}

/** Whether a test's text names a file by one of its tokens, as a whole word. */
export function mentions(text: string, tokens: readonly string[]): string | undefined {
  return tokens.find((token) =>
    new RegExp(`(^|[^\\w.-])${token.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}($|[^\\w-])`).test(
      text,
    ),
  );
}
