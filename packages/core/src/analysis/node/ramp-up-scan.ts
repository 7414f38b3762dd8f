import { join } from "node:path";
import { runInNewContext } from "node:vm";
import type { Budget } from "../budget.ts";
import { loadJsLexers, scanJsModule } from "../js-module.ts";
import { scanPythonModule } from "../python-module.ts";
import {
  addCommits,
  createRampUpState,
  hasNothingToTest,
  pickTopOf,
  RampUpStateSchema,
  renderRampUpCut,
  renderRampUpNote,
  sizePoints,
  type RampUpProgress,
  type RampUpState,
} from "../ramp-up.ts";
import { isJsFile, UntestedSources, type Candidates } from "../untested-sources.ts";
import { baseName } from "../../filter/languages.ts";
import {
  inspectEdit,
  queueEdit,
  sessionFile,
  STATE_DIR,
  type Project,
} from "../../project/node/project.ts";
import { readSmallFile } from "./project-walk.ts";
import { gitOutputFile, type GitOutputFile } from "../../project/node/git-output.ts";
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

/** What the session start gives the scan: every file its walk found, sorted as it went. */
export interface WalkedSources {
  sources: UntestedSources;
  /** False when the walk that found them was cut short. */
  complete: boolean;
  /** git's recent commits (`startCommitLog`); none outside git. */
  log?: GitOutputFile | undefined;
}

/** The sort the walk feeds, a file at a time (`sortFile`). */
export function createSourceSort(project: Project): UntestedSources {
  return new UntestedSources(project.config.file_classes.test);
}

/** One file the walk found, into the sort; a large tree is collected as it goes. */
export function sortFile(sources: UntestedSources, path: string): void {
  sources.add(path);
  if (sources.files % LARGE_TREE === 0) collectGarbage();
}

/**
 * The files each of the last 500 non-merge commits touched, in a file the scan reads once the
 * walk is done; undefined outside git or past the box. Run before the walk: node starts git as a
 * copy of itself, and the copy's memory counts as the hook's (a whole process's peak includes its
 * children's), so it is started while the process is small (on 50,000 files, started after the
 * walk it was the hook's peak, 1.5 MiB above the process's own). The caller closes it.
 */
export function startCommitLog(project: Project, budget: Budget): GitOutputFile | undefined {
  const timeout = Math.floor(budget.remaining());
  if (timeout <= 0) return undefined;
  return gitOutputFile(
    project.root,
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
    timeout,
  );
}

/**
 * Ranks the project's untested source files and queues the best `ramp_up_limit` as "ramp-up".
 * Linear: the test stems are one set, the commits one `git log`, and files are read (for their
 * size, and whether they have code of their own) only while they can still make the top
 * (`pickTopOf`, best-first by the score known without reading).
 */
export async function runRampUp(
  project: Project,
  walk: WalkedSources,
  budget: Budget,
  now: () => Date,
): Promise<string> {
  const limit = project.config.ramp_up_limit;
  if (!walk.complete)
    return recordCut(project, budget, { stage: "listing", found: walk.sources.files });
  const candidates = walk.sources.finish();
  const reading = (done: number): RampUpProgress => ({
    stage: "reading",
    done,
    total: candidates.count,
  });
  if (budget.expired()) return recordCut(project, budget, reading(0));
  if (walk.log !== undefined) countCommits(walk.log, candidates);
  if (budget.expired()) return recordCut(project, budget, reading(0));
  // The sort's and git's lines' garbage, gone before the reading (`collectGarbage`).
  if (walk.sources.files >= LARGE_TREE) collectGarbage();
  if (candidates.js) await loadJsLexers();
  const picked = pickTopOf(
    candidates.groups(),
    limit,
    (path) => readSizePoints(project, path),
    budget,
  );
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
 * from a file a chunk at a time and only the candidates are counted (`Candidates.addCommit`), not
 * held whole, split into a string per line and counted into a map of every path (that step grew
 * a first session on 50,000 files by 6.7 MiB; a map of the candidates' paths, by 2 MiB).
 */
function countCommits(log: GitOutputFile, candidates: Candidates): void {
  const read = log.eachChunk("\n", (chunk) => addCommits(chunk.toString("utf8"), candidates));
  // git's output not read to its end counts nothing (as outside git).
  if (!read) candidates.forgetCommits();
}

function countLines(text: string): number {
  let lines = text.length > 0 && !text.endsWith("\n") ? 1 : 0;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) lines += 1;
  return lines;
}

/** A tree of at least this many files is collected as it is sorted, and once counted. */
const LARGE_TREE = 10_000;

/**
 * One full collection. Sorting a large tree's files leaves garbage in V8's old generation
 * (what outlives two young collections), which V8 collects only once that has grown by megabytes,
 * and never on its own within a hook's life: on 50,000 files, collecting every 10,000 files
 * sorted and once after git's counts kept the first session's peak 2-3 MiB lower, for 50-80 ms
 * of CPU (ADR 0014). The gc function is V8's own, exposed for the rest of the process; never
 * throws.
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
