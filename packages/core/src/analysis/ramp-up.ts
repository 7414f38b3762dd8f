import * as z from "zod";
import { baseName, detectLanguage, stemOf } from "../filter/languages.ts";

/**
 * The first session's coverage scan (the ramp-up), linear: the test files' stems go into
 * one set once, so "has a test" is a set lookup per source file (the original walked the test
 * folders again for every source file: sources × tests). Files that already have a test are
 * skipped; the rest are ranked by recent commits, path and size.
 */

export const RAMP_UP_VERSION = 1;

export const RampUpStateSchema = z.object({
  version: z.literal(RAMP_UP_VERSION),
  /** True once a scan ran to its end; a scan cut by its time box leaves it false. */
  done: z.boolean(),
  /** Scans cut short so far (each new session tries again). */
  cut: z.number().int().min(0),
  /** What the finished scan queued. */
  queued: z.array(z.string()),
});
export type RampUpState = z.infer<typeof RampUpStateSchema>;

export function createRampUpState(): RampUpState {
  return { version: RAMP_UP_VERSION, done: false, cut: 0, queued: [] };
}

/** `test_billing.py`, `billing_test.go`, `billing.test.ts`, `BillingTest.java` → `billing`. */
export function testStemOf(path: string): string | undefined {
  const name = baseName(path);
  const stem = stemOf(name);
  const patterns: readonly RegExp[] = [
    /^test_(.+)$/,
    /^(.+)_test$/,
    /^(.+)_spec$/,
    /^(.+)\.(?:test|spec)$/,
    /^(.+?)(?:Tests?|IT|TestCase)$/,
    /^Test([A-Z].*)$/,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(stem);
    if (match?.[1] !== undefined && match[1] !== "") return normalizeStem(match[1]);
  }
  return undefined;
}

/** Stems compare without case or `_`/`-` (`user_service` and `UserService` are one). */
export function normalizeStem(stem: string): string {
  return stem.toLowerCase().replace(/[_-]/g, "");
}

/** A language family, so a Python test never covers a TypeScript file of the same name. */
function familyOf(path: string): string {
  const language = detectLanguage(path);
  return language === "typescript" ? "javascript" : (language ?? "");
}

/** Folders that hold tests for the whole package, whatever their sources' folders. */
const TEST_ROOTS = new Set(["tests", "test", "__tests__", "spec", "specs", "Tests", ""]);

function parentName(path: string): string {
  const parts = path.split("/");
  return parts.length < 2 ? "" : (parts[parts.length - 2] ?? "");
}

/**
 * Every tested stem, per language family, from the project's test files: built once. A test in
 * a test root (`tests/test_billing.py`) covers its stem anywhere; a test in a folder of its own
 * (`tests/payments/test_api.py`, `src/api.test.ts`) covers the stem in a folder of that name.
 */
export function collectTestStems(testFiles: readonly string[]): Set<string> {
  const stems = new Set<string>();
  for (const file of testFiles) addTestStem(stems, file);
  return stems;
}

/** Adds a test file's stem to `stems` (`collectTestStems`); a file with no test stem adds none. */
export function addTestStem(stems: Set<string>, file: string): void {
  const stem = testStemOf(file);
  if (stem === undefined) return;
  const parent = parentName(file);
  stems.add(
    TEST_ROOTS.has(parent) ? `${familyOf(file)}:${stem}` : `${familyOf(file)}:${stem}@${parent}`,
  );
}

export function hasTestStem(stems: ReadonlySet<string>, source: string): boolean {
  const key = `${familyOf(source)}:${normalizeStem(stemOf(source))}`;
  return stems.has(key) || stems.has(`${key}@${parentName(source)}`);
}

const STRONG_DIRS = new Set(["services", "models", "app", "lib"]);
const MEDIUM_DIRS = new Set(["src", "core", "api", "controllers", "handlers"]);
const MAX_COMMITS = 20;
/** A file's size can add at most this much: the bound that lets a scan stop reading early. */
export const MAX_SIZE_POINTS = 30;

/** Commits and path: the part of the score known without reading the file. */
export function scoreWithoutSize(path: string, commits: number): number {
  const slash = path.lastIndexOf("/");
  return scoreOfCommits(commits) + folderPoints(slash === -1 ? "" : path.slice(0, slash));
}

/** The commits' part of a score. */
export function scoreOfCommits(commits: number): number {
  return Math.min(commits, MAX_COMMITS) * 2;
}

/** The path's part of a score, by the folders a file is in (`dir`, `""` for the root). */
export function folderPoints(dir: string): number {
  const dirs = dir === "" ? [] : dir.split("/");
  if (dirs.some((name) => STRONG_DIRS.has(name))) return 30;
  if (dirs.some((name) => MEDIUM_DIRS.has(name))) return 20;
  return 0;
}

/** The size signal: tiny files score down, mid-sized ones up. */
export function sizePoints(lines: number): number {
  if (lines < 30) return -20;
  if (lines >= 80 && lines <= 800) return MAX_SIZE_POINTS;
  if (lines > 800 && lines <= 1500) return 10;
  return 0;
}

/**
 * Counts `git log --name-only --format=` output (whole lines) into `counts`, which counts only
 * the paths it ranks: git names every file a commit touched (all of a large tree's, for its first
 * commit), and only the untested sources are ranked.
 */
export function addCommits(log: string, counts: { addCommit(path: string): void }): void {
  // A line at a time, not split: a chunk's thousands of lines held at once outlived the young
  // generation's collections and filled the old one with garbage nothing collected.
  for (let start = 0; start < log.length;) {
    const newline = log.indexOf("\n", start);
    const end = newline === -1 ? log.length : newline;
    counts.addCommit(log.slice(start, end).trim());
    start = end + 1;
  }
}

export interface RampUpCandidate {
  path: string;
  score: number;
}

/** An untested source file with the part of its score known without reading it. */
export interface UnreadCandidate {
  path: string;
  /** `scoreWithoutSize`: commits and path. */
  partial: number;
}

/**
 * A candidate's size points once read, or undefined when the file has nothing of its own to test
 * (`hasNothingToTest`) and is no candidate at all.
 */
export type ReadSizePoints = (path: string) => number | undefined;

export interface PickedTop {
  /** The top `limit` candidates scoring above 0, best first, ties by path. */
  top: RampUpCandidate[];
  /** How many files were read. */
  read: number;
  /** False when the budget ran out first: `top` is then not the true top. */
  complete: boolean;
}

function ranksBefore(a: RampUpCandidate, b: RampUpCandidate): boolean {
  return a.score > b.score || (a.score === b.score && a.path < b.path);
}

/**
 * The top `limit` candidates scoring above 0, best first, ties by path: the same list as scoring
 * every file and sorting, while reading as few files as that allows. Candidates are taken
 * best-first by `partial`; a file is read only while `partial + MAX_SIZE_POINTS` could still
 * reach the top, and once one cannot, no later one can.
 */
export function pickTop(
  candidates: readonly UnreadCandidate[],
  limit: number,
  readSizePoints: ReadSizePoints,
  budget?: { expired(): boolean },
): PickedTop {
  const ordered = [...candidates].sort(
    (a, b) => b.partial - a.partial || (a.path < b.path ? -1 : 1),
  );
  const groups: CandidateGroup[] = [];
  for (let at = 0; at < ordered.length;) {
    const partial = ordered[at]?.partial ?? 0;
    let end = at;
    while (end < ordered.length && ordered[end]?.partial === partial) end += 1;
    const paths = ordered.slice(at, end).map((candidate) => candidate.path);
    groups.push({ partial, paths: () => paths });
    at = end;
  }
  return pickTopOf(groups, limit, readSizePoints, budget);
}

/** The candidates that share one `partial` score, their paths in order (made when asked for). */
export interface CandidateGroup {
  partial: number;
  paths(): Iterable<string>;
}

/**
 * `pickTop` of candidates grouped by `partial`, best first, each group's paths in order: a group
 * below the bar is never asked for its paths, so candidates the ranking never reaches need
 * never be made.
 */
export function pickTopOf(
  groups: Iterable<CandidateGroup>,
  limit: number,
  readSizePoints: ReadSizePoints,
  budget?: { expired(): boolean },
): PickedTop {
  if (limit <= 0) return { top: [], read: 0, complete: true };
  const top: RampUpCandidate[] = [];
  let read = 0;
  for (const group of groups) {
    const best = group.partial + MAX_SIZE_POINTS;
    const bar = (): RampUpCandidate | undefined =>
      top.length < limit ? undefined : top[top.length - 1];
    // A full top list's last entry is the bar; an unfilled one's bar is a score of 1.
    const below = (): boolean => {
      const floor = bar();
      return best <= 0 || (floor !== undefined && best < floor.score);
    };
    if (below()) break;
    for (const path of group.paths()) {
      if (below()) return { top, read, complete: true };
      const floor = bar();
      if (floor !== undefined && !ranksBefore({ path, score: best }, floor)) continue;
      if (budget?.expired() === true) return { top, read, complete: false };
      read += 1;
      const points = readSizePoints(path);
      if (points === undefined) continue;
      const entry = { path, score: group.partial + points };
      if (entry.score <= 0 || (floor !== undefined && !ranksBefore(entry, floor))) continue;
      const at = top.findIndex((other) => ranksBefore(entry, other));
      top.splice(at === -1 ? top.length : at, 0, entry);
      if (top.length > limit) top.pop();
    }
  }
  return { top, read, complete: true };
}

/** What a file's static parse says about the code in it, for `hasNothingToTest`. */
export type ModuleShape =
  { language: "python"; defs: readonly string[] } | { language: "javascript"; facade: boolean };

/**
 * A file with no code of its own to test: a package `__init__.py` that defines no function or
 * class (imports, `__all__`, constants), or a JS/TS module made only of imports, re-exports (a
 * barrel) and type declarations. A test of it would test only the files it gathers.
 */
export function hasNothingToTest(path: string, shape: ModuleShape): boolean {
  if (shape.language === "python")
    return baseName(path) === "__init__.py" && shape.defs.length === 0;
  return shape.facade;
}

export function renderRampUpNote(queued: readonly string[]): string {
  if (queued.length === 0)
    return "tailtest: first-session coverage scan: every source file worth a test already has one.";
  return `tailtest: first-session coverage scan: ${queued.length} untested file(s) queued (ramp-up): ${queued.join(", ")}. Write tests for them as for any queued file.`;
}

/**
 * How far a cut scan got: listing the project's files (the walk sorts each into tests and sources
 * as it finds it), or reading candidates.
 */
export type RampUpProgress =
  { stage: "listing"; found: number } | { stage: "reading"; done: number; total: number };

export function renderRampUpCut(budgetMs: number, progress: RampUpProgress): string {
  let where: string;
  if (progress.stage === "listing")
    where = `while listing the project's files (${progress.found} found so far)`;
  else where = `after reading ${progress.done} of ${progress.total} untested source files`;
  return `tailtest: first-session coverage scan stopped at its time box (${budgetMs} ms) ${where}; nothing was queued, and it runs again next session.`;
}
