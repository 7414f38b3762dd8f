import * as z from "zod/mini";
import { lazy } from "../util/lazy.ts";
import {
  detectLanguage,
  EXTENSION_LANGUAGES,
  extensionOf,
  LanguageSchema,
  type Language,
} from "../filter/languages.ts";
import { dirnameRel, joinRel, type ProjectView } from "../project/project-view.ts";
import { baseName } from "../filter/languages.ts";
import { builtTestsAt } from "./compiled.ts";
import { entryFolder, has, isCargoFuzzCrate, read, scriptEnv } from "./shared.ts";
import { shellWord } from "../util/shell-word.ts";
import type { Detection, RunnerSpec, SuiteMatcher } from "./spec.ts";
import { RUNNER_IDS, runnerSpecs, specOf } from "./table.ts";

export const RunnerIdSchema = z.enum(RUNNER_IDS);
export type RunnerId = z.infer<typeof RunnerIdSchema>;

export const DetectedRunnerSchema = lazy(() =>
  z.object({
    id: RunnerIdSchema,
    languages: z.array(LanguageSchema).check(z.minLength(1)),
    /** The package that owns the tests, relative to the project root ("" is the root). */
    package_dir: z.string(),
    /** The whole-suite command, run in package_dir. */
    command: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
    /** Where new test files go (relative to package_dir); absent means beside the source. */
    test_dir: z.optional(z.string()),
    /** Set when test_dir is a runner's default or a configured folder the project lacks. */
    test_dir_missing: z.optional(z.literal(true)),
    /**
     * With `test_dir_missing`: where the runner's config says the tests are instead (mocha's
     * `spec`, `src/**\/__tests__/**\/*-test.ts`), for notes; absent when nothing says.
     */
    tests_at: z.optional(z.string()),
    /** What the detection saw, e.g. "pyproject.toml [tool.pytest.ini_options]". */
    evidence: z.string(),
  }),
);
export type DetectedRunner = z.infer<typeof DetectedRunnerSchema>;

/** Where the test for a source file lives. */
export type TestTarget =
  | { kind: "file"; path: string; exists: boolean }
  | { kind: "inline"; path: string; exists: boolean };

/**
 * The runners of a package and the test that covers a source file. What each runner is —
 * detection, command, test paths, argv, report — is its record in `runners/` (`table.ts`
 * lists them); this module walks packages and applies the records. Pure.
 */

/** Files whose presence makes a folder a package of its own. */
const MANIFESTS = [
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "pytest.toml",
  ".pytest.toml",
  "pytest.ini",
  ".pytest.ini",
  "tox.ini",
  "Pipfile",
  "package.json",
  "deno.json",
  "deno.jsonc",
  "go.mod",
  "Cargo.toml",
  "Gemfile",
  "composer.json",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "Package.swift",
] as const;

export function runnerLabel(id: RunnerId): string {
  return specOf(id).label;
}

export function isPackageDir(view: ProjectView, dir: string): boolean {
  // One listing of the folder instead of a stat per manifest name: a project walk asks this of
  // every folder near the root (1,200 of them in a 50,000-file project), and most have none.
  const names = view.list(dir);
  const listed = new Set(names);
  const manifests = MANIFESTS.filter((name) => listed.has(name) && has(view, dir, name));
  if (manifests.length > 0) return !testPackageOfItsParent(view, dir, listed, manifests);
  if (names.some((name) => /\.(csproj|sln)$/.test(name))) return true;
  if (!names.some((name) => /^requirements[\w.-]*\.txt$/.test(name))) return false;
  // A test folder's own requirements (pypa/packaging's tests/requirements.txt) are the project's
  // above it: its tests run from there, as `pytest` from the root runs them.
  const base = baseName(dir);
  return !((base === "tests" || base === "test") && isPackageDir(view, dirnameRel(dir)));
}

/** Manifests that only package Python code (no test runner's own configuration). */
const PYTHON_PACKAGING = new Set(["setup.py", "setup.cfg", "pyproject.toml"]);

/**
 * A `tests/` package (its own `__init__.py`) under a package, whose manifest only packages it for
 * distribution (wbond/asn1crypto's `tests/setup.py` ships `asn1crypto_tests`): its modules import
 * each other relatively (`from ._unittest_compat import ...`), so they run as `tests.test_x` from
 * the folder above, never from their own; the tests are the parent's.
 */
function testPackageOfItsParent(
  view: ProjectView,
  dir: string,
  listed: ReadonlySet<string>,
  manifests: readonly string[],
): boolean {
  const base = baseName(dir);
  if (base !== "tests" && base !== "test") return false;
  if (!listed.has("__init__.py")) return false;
  if (!manifests.every((name) => PYTHON_PACKAGING.has(name))) return false;
  if (
    manifests.some(
      (name) =>
        name !== "setup.py" && /\[tool\.pytest|\[tool:pytest\]/.test(read(view, dir, name) ?? ""),
    )
  )
    return false;
  return isPackageDir(view, dirnameRel(dir));
}

type RunnerOverrides = Partial<
  Record<Language, { command?: string[] | undefined; test_dir?: string | undefined }>
>;

/**
 * The runners one package uses, at most one per language; earlier table rows win (pytest
 * before the unittest fallback, nextest before plain cargo, pest before phpunit).
 */
export function detectPackageRunners(
  view: ProjectView,
  dir: string,
  overrides: RunnerOverrides = {},
  /** The records to try, in order (every runner's unless told). */
  only?: readonly RunnerSpec[],
): DetectedRunner[] {
  // A memoized view answers a folder once per overrides table: a queued edit asks it for the
  // edit's insight and again for the tests covering it.
  if (only === undefined && view.remember !== undefined)
    return view.remember(`runners\u0000${dir}\u0000${overridesKey(overrides)}`, () =>
      detectFresh(view, dir, overrides),
    );
  return detectFresh(view, dir, overrides, only);
}

const overrideKeys = new WeakMap<RunnerOverrides, string>();
function overridesKey(overrides: RunnerOverrides): string {
  let key = overrideKeys.get(overrides);
  if (key === undefined) overrideKeys.set(overrides, (key = JSON.stringify(overrides)));
  return key;
}

function detectFresh(
  view: ProjectView,
  dir: string,
  overrides: RunnerOverrides,
  only?: readonly RunnerSpec[],
): DetectedRunner[] {
  const claimed = new Set<Language>();
  const found: DetectedRunner[] = [];
  const table = runnerSpecs();
  for (const spec of only ?? table) {
    if (spec.languages.every((language) => claimed.has(language))) continue;
    const detection = spec.detect(view, dir, table);
    if (detection === undefined) continue;
    const languages = spec.languages.filter((language) => !claimed.has(language));
    for (const language of languages) claimed.add(language);
    found.push(runnerRecord(view, dir, spec, detection, languages, overrides));
  }
  return found;
}

/** A detected runner's record, with the config's override for its language applied. */
function runnerRecord(
  view: ProjectView,
  dir: string,
  spec: RunnerSpec,
  detection: Detection,
  languages: Language[],
  overrides: RunnerOverrides,
): DetectedRunner {
  const override = overrides[languages[0] as Language];
  const command = override?.command ?? detection.command ?? spec.command(view, dir);
  const existing =
    override?.test_dir === undefined
      ? existingTestDir(view, dir, spec, languages, command)
      : undefined;
  const testDir = override?.test_dir ?? existing ?? spec.fallbackTestDir;
  // A runner's default folder is where a new test would go, not where the tests are: a note
  // must not say "tests in tests/" of a project that keeps them beside the source.
  const missing =
    testDir !== undefined && existing === undefined && !view.isDirectory(joinRel(dir, testDir));
  return {
    id: spec.id,
    languages,
    package_dir: dir,
    command,
    ...(testDir === undefined ? {} : { test_dir: testDir }),
    ...(missing ? { test_dir_missing: true as const } : {}),
    ...(testDir === undefined
      ? membersTestsAt(view, dir, spec, languages, command)
      : testsAt(view, dir, spec, missing, languages, command)),
    evidence:
      override?.command === undefined
        ? detection.evidence
        : `${detection.evidence}; command from config`,
  };
}

/**
 * Where a workspace root's runner finds the tests of its member packages (`packages/*` of
 * package.json's `workspaces`, each with its own `test/`), for notes: a root with no test
 * folder of its own does not keep its tests beside the source.
 */
function membersTestsAt(
  view: ProjectView,
  dir: string,
  spec: RunnerSpec,
  languages: Language[],
  command: string[],
): { tests_at?: string } {
  const globs = workspaceGlobs(view.readText(joinRel(dir, "package.json")));
  if (globs.length === 0) return {};
  const suite = detectedSuite(view, dir, spec, languages, command);
  for (const glob of globs.slice(0, 8)) {
    const parent = glob.endsWith("/*") ? glob.slice(0, -2) : undefined;
    const members =
      parent === undefined
        ? [glob]
        : view.list(joinRel(dir, parent)).map((name) => `${parent}/${name}`);
    for (const member of members.slice(0, 50))
      for (const testDir of spec.testDirs) {
        const folder = `${member}/${testDir}`;
        if (!view.isDirectory(joinRel(dir, folder)) || !holdsTests(view, dir, folder, suite, false))
          continue;
        return { tests_at: `${parent === undefined ? member : `${parent}/*`}/${testDir}/` };
      }
  }
  return {};
}

/** The suite of a runner being detected in `dir`, before its record is made. */
function detectedSuite(
  view: ProjectView,
  dir: string,
  spec: RunnerSpec,
  languages: Language[],
  command: string[],
): SuiteMatcher {
  return spec.suite(view, { id: spec.id, languages, package_dir: dir, command, evidence: "" });
}

/** The folders or `dir/*` globs of package.json's `workspaces` (an array or `{ packages }`). */
function workspaceGlobs(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    const { workspaces } = JSON.parse(text) as { workspaces?: unknown };
    const listed: unknown = Array.isArray(workspaces)
      ? workspaces
      : (workspaces as { packages?: unknown } | undefined)?.packages;
    return (Array.isArray(listed) ? listed : [])
      .filter((glob): glob is string => typeof glob === "string")
      .map((glob) => glob.replace(/^\.\//, "").replace(/\/$/, ""))
      .filter((glob) => /^[\w.@-]+(\/[\w.@-]+)*(\/\*)?$/.test(glob));
  } catch {
    return [];
  }
}

/**
 * Where the config puts the tests of a runner whose test folder the package lacks: for a runner
 * that runs tsc's output (`mocha lib`), the sources that output is built from.
 */
function testsAt(
  view: ProjectView,
  dir: string,
  spec: RunnerSpec,
  missing: boolean,
  languages: Language[],
  command: string[],
): { tests_at?: string } {
  const at = missing ? spec.testsAt?.(view, dir) : undefined;
  if (at === undefined || at === "") return {};
  const runner = { id: spec.id, languages, package_dir: dir, command, evidence: "" };
  return { tests_at: builtTestsAt(view, runner, at) };
}

/**
 * The runner's test folder the package has: one of its usual ones that holds its tests (or
 * nothing yet), else one inside the code. A folder of helpers only is not where the tests are:
 * a React app's `src/test/setup.ts` beside component tests in `src/components/`.
 */
function existingTestDir(
  view: ProjectView,
  dir: string,
  spec: RunnerSpec,
  languages: Language[],
  command: string[],
): string | undefined {
  const candidates = spec.testDirs.filter((candidate) => view.isDirectory(joinRel(dir, candidate)));
  if (candidates.length === 0) return spec.testDirInside?.(view, dir);
  const suite = detectedSuite(view, dir, spec, languages, command);
  const holding = candidates.find((candidate) => holdsTests(view, dir, candidate, suite));
  return holding ?? spec.testDirInside?.(view, dir);
}

/** Entries a test folder's check reads before it takes the folder as holding tests. */
const TEST_DIR_ENTRIES = 400;

/**
 * Whether a test folder holds one of the runner's tests, or no file at all (a folder made for
 * them); one too large to read within the bound, or whose tests only the runner knows, does.
 */
function holdsTests(
  view: ProjectView,
  dir: string,
  folder: string,
  suite: SuiteMatcher,
  /** Whether a folder with no file at all counts (one made for the tests to come). */
  empty = true,
): boolean {
  if (suite.opaque !== undefined) return true;
  const queue = [folder];
  let budget = TEST_DIR_ENTRIES;
  let files = 0;
  for (let rel = queue.shift(); rel !== undefined; rel = queue.shift()) {
    for (const name of view.list(joinRel(dir, rel))) {
      budget -= 1;
      if (budget < 0) return true;
      if (name === "node_modules" || name.startsWith(".")) continue;
      const path = joinRel(rel, name);
      if (view.isDirectory(joinRel(dir, path))) {
        queue.push(path);
        continue;
      }
      files += 1;
      if (suite.isTest(path)) return true;
    }
  }
  return empty && files === 0;
}

/** The nearest folder at or above `relFile`'s folder that has a manifest of its own. */
export function findOwningPackage(view: ProjectView, relFile: string): string | undefined {
  let dir = dirnameRel(relFile);
  for (;;) {
    if (isPackageDir(view, dir)) return dir;
    if (dir === "") return undefined;
    dir = dirnameRel(dir);
  }
}

export type RunnerResolution =
  { runner: DetectedRunner; reason: string } | { runner: undefined; reason: string };

/**
 * The runner that owns a source file: the nearest package (walking up from the file) that has
 * a runner for its language. Python falls back to unittest when nothing names pytest.
 */
export function resolveRunner(
  view: ProjectView,
  relFile: string,
  language: Language,
  overrides: Parameters<typeof detectPackageRunners>[2] = {},
): RunnerResolution {
  let dir = dirnameRel(relFile);
  let firstPackage: string | undefined;
  for (;;) {
    if (isPackageDir(view, dir)) {
      // A cargo-fuzz crate's targets are built by `cargo fuzz`, tested by no runner: the crate
      // they fuzz runs none of them.
      if (language === "rust" && isCargoFuzzCrate(view, dir))
        return {
          runner: undefined,
          reason: `${dir}/ is a cargo-fuzz crate: fuzz targets, no tests`,
        };
      firstPackage ??= dir;
      const runner = detectPackageRunners(view, dir, overrides).find((r) =>
        r.languages.includes(language),
      );
      if (runner !== undefined) {
        const where = dir === "" ? "the project root" : `${dir}/`;
        return { runner, reason: `${runner.evidence} in ${where}` };
      }
    }
    if (dir === "") break;
    dir = dirnameRel(dir);
  }
  if (language === "python") {
    const packageDir = firstPackage ?? "";
    // A folder no manifest marks (scripts beside a tests/ folder, a root conftest.py) whose tests
    // say pytest: pytest, as the project's author runs them; unittest would run none of a
    // module-level `def test_…`.
    const named = firstPackage === undefined ? unmarkedPython(view, packageDir, overrides) : [];
    if (named[0] !== undefined)
      return { runner: named[0], reason: `${named[0].evidence} in the project root` };
    const spec = specOf("unittest");
    return {
      runner: {
        id: "unittest",
        languages: ["python"],
        package_dir: packageDir,
        command: overrides.python?.command ?? spec.command(view, packageDir),
        test_dir:
          overrides.python?.test_dir ??
          spec.testDirs.find((d) => view.isDirectory(joinRel(packageDir, d))) ??
          "tests",
        evidence: "no pytest configuration found (unittest fallback)",
      },
      reason: "no pytest configuration found, so the standard library's unittest",
    };
  }
  return { runner: undefined, reason: `no ${language} test runner found for ${relFile}` };
}

/**
 * Every package in the project (root plus folders up to `maxDepth` deep) and its runners, with
 * the config's per-language command overrides applied.
 */
export function detectProjectRunners(
  view: ProjectView,
  maxDepth = 2,
  overrides: Parameters<typeof detectPackageRunners>[2] = {},
): DetectedRunner[] {
  // fixtures/ and Go's testdata/ hold data (a Cargo.toml a benchmark decodes), not packages.
  const skip =
    /^(node_modules|\.[^/]*|dist|build|target|vendor|venv|__pycache__|coverage|fixtures|testdata)$/;
  const dirs: string[] = [""];
  let frontier = [""];
  for (let depth = 0; depth < maxDepth; depth += 1) {
    const next: string[] = [];
    for (const dir of frontier) {
      for (const name of view.list(dir)) {
        const child = joinRel(dir, name);
        if (!skip.test(name) && view.isDirectory(child)) next.push(child);
      }
    }
    dirs.push(...next);
    frontier = next;
  }
  const found = dirs
    .filter((dir) => isPackageDir(view, dir))
    .flatMap((dir) => detectPackageRunners(view, dir, overrides));
  if (found.some((runner) => runner.languages.includes("python")) || isPackageDir(view, ""))
    return found;
  return [...unmarkedPython(view, "", overrides), ...found];
}

/**
 * pytest in a folder that no manifest makes a package, when its tests say so (a root
 * `conftest.py`, a test file that imports pytest or holds module-level test functions): only
 * pytest's own detection, since every other runner's needs its manifest.
 */
function unmarkedPython(
  view: ProjectView,
  dir: string,
  overrides: Parameters<typeof detectPackageRunners>[2],
): DetectedRunner[] {
  return detectPackageRunners(view, dir, overrides, [specOf("pytest")]);
}

/** The test file (or inline block) that covers a source file, preferring one that exists. */
export function findTestTarget(
  view: ProjectView,
  runner: DetectedRunner,
  relFile: string,
  /** Kept answers of the name search below (the post-edit note's: `runners/node/test-names.ts`). */
  names?: TestNameMemo,
): TestTarget {
  const spec = specOf(runner.id);
  const pkg = runner.package_dir;
  const src = pkg === "" ? relFile : relFile.slice(pkg.length + 1);
  if (spec.inline === true) return { kind: "inline", path: relFile, exists: true };
  // node --test before Node 22.6 loads no .ts test without a loader in its command: a tsconfig
  // there is for typings, and a JavaScript source gets a JavaScript test.
  const tsconfig =
    has(view, pkg, "tsconfig.json") && (spec.tsNeedsLoader !== true || hasTsLoader(runner.command));
  const typescript =
    runner.languages.includes("typescript") && (tsconfig || extensionOf(src).includes("ts"));
  const candidates = spec.testCandidates(src, runner.test_dir, {
    view,
    packageDir: pkg,
    typescript,
  });
  const withRoot = candidates.map((candidate) => joinRel(pkg, candidate));
  const existing =
    withRoot.find((candidate) => view.exists(candidate)) ??
    findByName(view, runner, spec, src, candidates, typescript, names);
  return { kind: "file", path: existing ?? withRoot[0] ?? relFile, exists: existing !== undefined };
}

/** Folders read and entries looked at when a test is searched for by its name. */
const NAME_SEARCH_DEPTH = 4;
const NAME_SEARCH_ENTRIES = 4000;

/**
 * What one whole name search listed, kept between calls: the search reads the same folders in
 * the same order whatever names it looks for, so the first listed file with one of the names is
 * the file a search of an unchanged tree would stop at. What keeps it, and what drops it when the
 * tree may have changed: `runners/node/test-names.ts`.
 */
export interface TestNameMemo {
  /**
   * The first kept file named one of `names` (null: none is), or undefined when no listing of
   * exactly these folders is kept.
   */
  first(roots: readonly string[], names: ReadonlySet<string>): string | null | undefined;
  /** What a whole search of `roots` listed, in its order (it found none of its names). */
  keep(roots: readonly string[], listing: readonly ListedFolder[]): void;
}

/** A folder the name search read, and its entries it did not go into, in order. */
export interface ListedFolder {
  dir: string;
  files: readonly string[];
  /** The folder as it was before its entries were read (`ProjectView.listedStamp`), if known. */
  stamp?: readonly [number, number, number, number] | undefined;
}

/**
 * A test with a conventional name that sits elsewhere in the test folders
 * (`tests/test_pkg/test_signer.py` for `src/pkg/signer.py`), or named without the source's
 * leading underscores (`test/utils.test.ts` for `src/_utils.ts`): the nearest, within a bound.
 */
function findByName(
  view: ProjectView,
  runner: DetectedRunner,
  spec: RunnerSpec,
  src: string,
  candidates: readonly string[],
  typescript: boolean,
  memo?: TestNameMemo,
): string | undefined {
  const slash = src.lastIndexOf("/");
  const bare = `${src.slice(0, slash + 1)}${src.slice(slash + 1).replace(/^_+/, "")}`;
  const pkg = runner.package_dir;
  const bareCandidates =
    bare === src || bare.endsWith("/") || bare === ""
      ? []
      : spec.testCandidates(bare, runner.test_dir, { view, packageDir: pkg, typescript });
  const bareHit = bareCandidates
    .map((candidate) => joinRel(pkg, candidate))
    .find((candidate) => view.exists(candidate));
  if (bareHit !== undefined) return bareHit;
  // A nested entry module's own name (`index.js`) says nothing anywhere else: every folder's
  // entry has it, and a helper (`tests/util/index.js`) or the root's test would be found.
  const entry = entryFolder(src) !== undefined;
  const names = new Set(
    [...candidates, ...bareCandidates]
      .map((c) => c.slice(c.lastIndexOf("/") + 1))
      .filter((name) => !entry || !/^index[.-]/.test(name)),
  );
  const roots = [runner.test_dir, ...spec.testDirs]
    .filter((dir): dir is string => dir !== undefined)
    .map((dir) => joinRel(pkg, dir))
    .filter((dir, index, all) => all.indexOf(dir) === index && view.isDirectory(dir));
  if (roots.length === 0) return undefined;
  const kept = memo?.first(roots, names);
  if (kept === null) return undefined;
  // A kept file since deleted (or a folder of that name): the search on disk answers.
  if (kept !== undefined && view.exists(kept) && !view.isDirectory(kept)) return kept;
  // Everything the search lists but the folders it goes into, for the memo.
  const listed: ListedFolder[] | undefined = memo === undefined ? undefined : [];
  const hit = searchByName(view, roots, names, listed);
  if (hit === undefined && listed !== undefined) memo?.keep(roots, listed);
  return hit;
}

/**
 * The test folders read breadth first, each folder's entries in order, to the first file named
 * one of `names`; the entries read are pushed onto `listed` (all but the folders gone into). The
 * folders read and their order do not depend on `names`, which is what lets a listing be kept.
 */
function searchByName(
  view: ProjectView,
  roots: readonly string[],
  names: ReadonlySet<string>,
  listed: ListedFolder[] | undefined,
): string | undefined {
  let budget = NAME_SEARCH_ENTRIES;
  let level = roots;
  for (let depth = 0; depth < NAME_SEARCH_DEPTH && level.length > 0 && budget > 0; depth += 1) {
    const next: string[] = [];
    for (const dir of level) {
      // Every folder here was found one by `isDirectory` just before (the roots too).
      const entries = [...view.list(dir, true)].sort();
      budget -= entries.length;
      const hit = entries.find((name) => names.has(name) && !view.isDirectory(joinRel(dir, name)));
      if (hit !== undefined) return joinRel(dir, hit);
      // A test folder's entries are mostly tests: a folder of source names alone has no folder
      // the search goes into, and costs no call per entry once the search is large enough to
      // repay compiling the regex.
      if (NAME_SEARCH_ENTRIES - budget > ONE_REGEX_FROM && allSourceNames(entries)) {
        listed?.push({ dir, files: entries, stamp: view.listedStamp?.(dir) });
        if (budget <= 0) break;
        continue;
      }
      const files: string[] = [];
      for (const name of entries) {
        // A source file's name is taken for a file: a large test tree costs no stat per test.
        if (!SKIPPED.has(name) && !name.startsWith(".") && detectLanguage(name) === undefined) {
          const path = joinRel(dir, name);
          if (view.isDirectory(path)) {
            next.push(path);
            continue;
          }
        }
        files.push(name);
      }
      listed?.push({ dir, files, stamp: view.listedStamp?.(dir) });
      if (budget <= 0) break;
    }
    level = next;
  }
  return undefined;
}

/**
 * Whether every entry is a source file's name (`detectLanguage` answers for it), by one regex over
 * the names joined, built from the extension table on first use. It matches a line that does not
 * end in a known extension after at least one character; its case folding is ASCII's alone, so it
 * can only take a source name for another (the caller then asks per entry), never the reverse.
 */
function allSourceNames(entries: readonly string[]): boolean {
  notSourceLine ??= new RegExp(
    `^(?![^\\n]+\\.(?:${Object.keys(EXTENSION_LANGUAGES)
      .map((extension) => extension.slice(1))
      .join("|")})$)`,
    "im",
  );
  return !notSourceLine.test(entries.join("\n"));
}
let notSourceLine: RegExp | undefined;
/** Entries a search lists before its folders are told apart by one regex (a small one never is). */
const ONE_REGEX_FROM = 64;

/** Folders the name search does not go into (besides dot-folders). */
const SKIPPED: ReadonlySet<string> = new Set(["node_modules", "__pycache__"]);

/** Whether a `node --test` command loads TypeScript itself (Node before 22.6 does not). */
export function hasTsLoader(command: readonly string[]): boolean {
  return command.some(
    (arg) =>
      /^--(import|loader|require|experimental-strip-types|experimental-transform-types)/.test(
        arg,
      ) || /(^|\/)tsx$/.test(arg),
  );
}

/**
 * argv that runs the given test files with a runner, from its package folder; with the project's
 * view, also the options its test script keeps for those files (`runners/<id>.ts`
 * `fileOptions`: jest's `--config=test/jest-e2e.json` for an e2e spec).
 */
export function commandForTestFiles(
  runner: DetectedRunner,
  relTestFiles: readonly string[],
  view?: ProjectView,
): string[] {
  const pkg = runner.package_dir;
  const local = relTestFiles.map((file) => (pkg === "" ? file : file.slice(pkg.length + 1)));
  const spec = specOf(runner.id);
  const options = view === undefined ? [] : (spec.fileOptions?.(view, pkg, local) ?? []);
  return spec.fileCommand([...runner.command, ...options], local);
}

/**
 * `commandForTestFiles` as one line to paste into a shell at the project's root: in a subshell
 * that enters the runner's package folder, so the shell stays where it was (an agent's shell
 * keeps its folder from one command to the next).
 */
export function shellCommandForTestFiles(
  runner: DetectedRunner,
  relTestFiles: readonly string[],
  view?: ProjectView,
): string {
  const command = commandForTestFiles(runner, relTestFiles, view);
  const pkg = runner.package_dir;
  const argv = `${scriptVariables(view, runner)}${venvPath(view, pkg, command[0])}${command.map(shellWord).join(" ")}`;
  return pkg === "" ? argv : `(cd ${shellWord(pkg)} && ${argv})`;
}

/**
 * `NODE_ENV=test ` before the command when the package's test script sets variables for the
 * runner (`cross-env NODE_ENV=test vitest`): tailtest's own run has them, and a re-run without
 * them can differ (a config read for the test environment, a timezone). Empty when it sets none.
 */
function scriptVariables(view: ProjectView | undefined, runner: DetectedRunner): string {
  const runs = specOf(runner.id).packageJson?.script;
  if (view === undefined || runs === undefined) return "";
  const vars = Object.entries(scriptEnv(view, runner.package_dir, runs));
  return vars.map(([name, value]) => `${name}=${shellWord(value)} `).join("");
}

/**
 * The Python manifests and how each declares console scripts (`analysis/python-scripts.ts`
 * reads the entries; a mention is enough here, and keeps that module off the status path).
 */
const SCRIPT_MANIFESTS: ReadonlyArray<[string, RegExp]> = [
  ["pyproject.toml", /^\[(?:project|tool\.poetry)\.scripts\]/m],
  ["setup.cfg", /^console_scripts\s*=/m],
  ["setup.py", /\bconsole_scripts\b/],
];

/**
 * `PATH="$PWD/.venv/bin:$PATH" ` before a project virtualenv's interpreter when the project
 * declares console scripts: a test that starts one by its name (`subprocess.run(["greet"])`)
 * finds it on the PATH, as in tailtest's own run, which puts the venv's `bin/` first; the
 * interpreter alone would leave the command not found. Empty for any other command.
 */
function venvPath(view: ProjectView | undefined, pkg: string, program: string | undefined): string {
  const bin = /^([\w.-]+(?:\/[\w.-]+)*)\/bin\/python[\d.]*$/.exec(program ?? "")?.[1];
  if (view === undefined || bin === undefined) return "";
  const scripts = SCRIPT_MANIFESTS.some(([name, declares]) =>
    declares.test(view.readText(joinRel(pkg, name)) ?? ""),
  );
  return scripts ? `PATH="$PWD/${bin}/bin:$PATH" ` : "";
}

export function describeTestTarget(target: TestTarget): string {
  return target.kind === "inline" ? `add #[cfg(test)] block to ${target.path}` : target.path;
}
