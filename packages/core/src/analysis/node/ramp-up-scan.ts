import { join } from "node:path";
import { runInNewContext } from "node:vm";
import type { Budget } from "../budget.ts";
import { loadJsLexers, scanJsModule } from "../js-module.ts";
import { scanPythonModule } from "../python-module.ts";
import {
  collectTestStems,
  addCommits,
  createRampUpState,
  hasNothingToTest,
  hasTestStem,
  pickTop,
  RampUpStateSchema,
  renderRampUpCut,
  renderRampUpNote,
  scoreWithoutSize,
  sizePoints,
  type RampUpProgress,
  type RampUpState,
  type UnreadCandidate,
} from "../ramp-up.ts";
import { classifyFile, isTestFile } from "../../filter/filter.ts";
import { baseName, extensionOf } from "../../filter/languages.ts";
import {
  inspectEdit,
  queueEdit,
  sessionFile,
  STATE_DIR,
  type Project,
} from "../../project/node/project.ts";
import { readSmallFile } from "./project-walk.ts";
import { eachGitChunk } from "../../project/node/git-output.ts";
import { readState, updateState, type StateFile } from "../../state/node/store.ts";
import { addV8Flags } from "../../hook/node/code-cache.ts";

/** The first session's coverage scan: the edge (git log, file sizes, the queue). */

export const RAMP_UP_PATH = `${STATE_DIR}/ramp-up.json`;

export function rampUpFile(project: Project): StateFile<RampUpState> {
  return {
    path: join(project.root, RAMP_UP_PATH),
    schema: RampUpStateSchema,
    create: createRampUpState,
  };
}

/** Due until a scan has run to its end (a scan cut by its time box does not count). */
export async function isRampUpDue(project: Project): Promise<boolean> {
  const { value } = await readState(rampUpFile(project));
  return !value.done;
}

/** Files up to this size have their lines counted; a larger one is past every size band. */
const SIZE_CAP = 256 * 1024;
const GIT_LOG_MAX = 500;

export interface WalkedFiles {
  files: readonly string[];
  /** False when the walk that found them was cut short. */
  complete: boolean;
  /**
   * True when nothing after the scan reads `files`: the scan lets go of the list (`files` becomes
   * empty) once it has sorted it, so the commits and the reading reuse its memory.
   */
  last?: boolean;
}

/**
 * Ranks the project's untested source files and queues the best `ramp_up_limit` as "ramp-up".
 * Linear: the test stems are one set, the commits one `git log`, and files are read (for their
 * size, and whether they have code of their own) only while they can still make the top
 * (`pickTop`, best-first by the score known without reading).
 */
export async function runRampUp(
  project: Project,
  walk: WalkedFiles,
  budget: Budget,
  now: () => Date,
): Promise<string> {
  const limit = project.config.ramp_up_limit;
  const total = walk.files.length;
  if (!walk.complete) return recordCut(project, budget, { stage: "listing", found: total });
  const sorted = untestedSources(walk.files, project.config.file_classes.test, budget);
  if (sorted.untested === undefined)
    return recordCut(project, budget, { stage: "sorting", done: sorted.done, total });
  if (walk.last === true) {
    walk.files = [];
    if (total >= LARGE_TREE) collectGarbage();
  }
  const reading = (done: number): RampUpProgress => ({
    stage: "reading",
    done,
    total: sorted.count,
  });
  if (budget.expired()) return recordCut(project, budget, reading(0));
  const candidates = rankedWithoutSize(project.root, sorted.untested, budget);
  sorted.untested = undefined;
  if (budget.expired()) return recordCut(project, budget, reading(0));
  if (sorted.js) await loadJsLexers();
  const picked = pickTop(candidates, limit, (path) => readSizePoints(project, path), budget);
  if (!picked.complete) return recordCut(project, budget, reading(picked.read));
  const queued = picked.top.map((entry) => entry.path);
  const file = sessionFile(project, now);
  for (const path of queued)
    await queueEdit(project, inspectEdit(project, path, { status: "ramp-up" }), file);
  await updateState(rampUpFile(project), (state) => ({
    value: { ...state, done: true, queued },
    result: undefined,
  }));
  return renderRampUpNote(queued);
}

/** A walk of at least this many files is collected once sorted (`collectGarbage`). */
const LARGE_TREE = 10_000;

/**
 * One full collection, once the walk's list is let go: the paths of every file (50,000 on a
 * large tree), the test files' among them, and the sort's garbage are then dead, and a collection
 * here gives their pages back before git's counts and the reading allocate more (without it a
 * first session on 50,000 files grew 4-5 MiB past the sort; V8 collects the old generation only
 * once it has grown). The gc function is V8's own, exposed for the rest of the process; never throws.
 */
function collectGarbage(): void {
  try {
    addV8Flags(["--expose-gc"]);
    const gc: unknown = runInNewContext("gc");
    if (typeof gc === "function") (gc as () => void)();
  } catch {
    // Only memory: the scan goes on as it would have.
  }
}

/**
 * The project's source files no test file names (by stem), sorted from the walk's list; or how
 * many files were sorted when the box ran out. Only the untested paths outlive it: the test
 * files' paths and the sorted-out ones are garbage once it returns.
 */
function untestedSources(
  files: readonly string[],
  extra: readonly string[],
  budget: Budget,
): { untested?: string[] | undefined; count: number; js: boolean; done: number } {
  const tests: string[] = [];
  const sources: string[] = [];
  let done = 0;
  for (const file of files) {
    // The walk already left out ignored files: the filter's name rules are all that is left.
    if (isTestFile(file, extra)) tests.push(file);
    else if (classifyFile(file, { extraTestPatterns: extra }).queue) sources.push(file);
    done += 1;
    if (done % 512 === 0 && done < files.length && budget.expired())
      return { count: 0, js: false, done };
  }
  const stems = collectTestStems(tests);
  const untested = sources.filter((source) => !hasTestStem(stems, source));
  return { untested, count: untested.length, js: untested.some(isJsFile), done };
}

/**
 * The candidates with the part of their score known without reading them (commits and path);
 * git's counts are dropped once scored.
 */
function rankedWithoutSize(
  root: string,
  untested: readonly string[],
  budget: Budget,
): UnreadCandidate[] {
  const commits = recentCommits(root, untested, budget);
  return untested.map((path) => ({
    path,
    partial: scoreWithoutSize(path, commits.get(path) ?? 0),
  }));
}

const JS_EXTENSIONS = new Set([".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"]);

function isJsFile(path: string): boolean {
  return JS_EXTENSIONS.has(extensionOf(path));
}

/**
 * A candidate's size points, or undefined when it has no code of its own to test: a package
 * `__init__.py` without a def or class, a JS/TS barrel. Only `__init__.py` and JS/TS files are
 * parsed, and only the ones the ranking reads.
 */
function readSizePoints(project: Project, path: string): number | undefined {
  const text = readSmallFile(join(project.root, path), SIZE_CAP);
  // A file too large to read here is longer than every size band.
  if (text === undefined) return sizePoints(Number.POSITIVE_INFINITY);
  if (baseName(path) === "__init__.py") {
    if (hasNothingToTest(path, { language: "python", defs: scanPythonModule(text).defs }))
      return undefined;
  } else if (isJsFile(path)) {
    if (hasNothingToTest(path, { language: "javascript", facade: scanJsModule(text, path).facade }))
      return undefined;
  }
  return sizePoints(countLines(text));
}

async function recordCut(
  project: Project,
  budget: Budget,
  progress: RampUpProgress,
): Promise<string> {
  await updateState(rampUpFile(project), (state) => ({
    value: { ...state, done: false, cut: state.cut + 1 },
    result: undefined,
  }));
  return renderRampUpCut(budget.ms, progress);
}

/**
 * Commits per untested source over the last 500 non-merge commits; none outside git. git's list
 * names every file each commit touched (50,000 lines for a large tree's first commit): it is read
 * from a file a chunk at a time and only the candidates are counted, not held whole, split into
 * a string per line and counted into a map of every path (that step grew a first session on
 * 50,000 files by 6.7 MiB; by 2.1-2.5 MiB now, mostly the candidates' map).
 */
function recentCommits(
  root: string,
  candidates: readonly string[],
  budget: Budget,
): Map<string, number> {
  const timeout = Math.floor(budget.remaining());
  if (timeout <= 0) return new Map();
  const counts = new Map<string, number>();
  for (const path of candidates) counts.set(path, 0);
  const read = eachGitChunk(
    root,
    [
      "log",
      "--relative",
      "--name-only",
      "--no-merges",
      `--max-count=${GIT_LOG_MAX}`,
      "--format=",
      "--",
      ".",
    ],
    "\n",
    (text) => addCommits(text, counts),
    timeout,
  );
  return read ? counts : new Map<string, number>();
}

function countLines(text: string): number {
  let lines = text.length > 0 && !text.endsWith("\n") ? 1 : 0;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) lines += 1;
  return lines;
}
