import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { Budget } from "../analysis/budget.ts";
import {
  collectTestStems,
  countCommits,
  createRampUpState,
  hasTestStem,
  MAX_SIZE_POINTS,
  RampUpStateSchema,
  renderRampUpCut,
  renderRampUpNote,
  scoreWithoutSize,
  sizePoints,
  type RampUpCandidate,
  type RampUpState,
} from "../analysis/ramp-up.ts";
import { classifyFile, isTestFile } from "../filter.ts";
import { inspectEdit, queueEdit, sessionFile, STATE_DIR, type Project } from "./project.ts";
import { readSmallFile } from "./project-walk.ts";
import { readState, updateState, type StateFile } from "./store.ts";

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
}

/**
 * Ranks the project's untested source files and queues the best `ramp_up_limit` as "ramp-up".
 * Linear: the test stems are one set, the commits one `git log`, and files are read for their
 * size only while they can still make the top (best-first by the score known without reading).
 */
export async function runRampUp(
  project: Project,
  walk: WalkedFiles,
  budget: Budget,
  now: () => Date,
): Promise<string> {
  const limit = project.config.ramp_up_limit;
  const extra = project.config.file_classes.test;
  if (!walk.complete) return recordCut(project, budget, 0, walk.files.length);
  const tests: string[] = [];
  const sources: string[] = [];
  let sorted = 0;
  for (const file of walk.files) {
    // The walk already left out ignored files: the filter's name rules are all that is left.
    if (isTestFile(file, extra)) tests.push(file);
    else if (classifyFile(file, { extraTestPatterns: extra }).queue) sources.push(file);
    sorted += 1;
    if (sorted % 512 === 0 && budget.expired())
      return recordCut(project, budget, 0, walk.files.length);
  }
  if (budget.expired()) return recordCut(project, budget, 0, walk.files.length);
  const stems = collectTestStems(tests);
  const commits = recentCommits(project.root, budget);
  if (budget.expired()) return recordCut(project, budget, 0, sources.length);
  const ranked = sources
    .filter((source) => !hasTestStem(stems, source))
    .map((path) => ({ path, partial: scoreWithoutSize(path, commits.get(path) ?? 0) }))
    .sort((a, b) => b.partial - a.partial || (a.path < b.path ? -1 : 1));
  const top: RampUpCandidate[] = [];
  let looked = 0;
  for (const candidate of ranked) {
    const floor = top.length < limit ? 0 : (top[top.length - 1]?.score ?? 0);
    // Sorted best-first: once the best a file could reach cannot beat the floor, none can.
    if (candidate.partial + MAX_SIZE_POINTS <= floor) break;
    if (budget.expired()) return recordCut(project, budget, looked, ranked.length);
    looked += 1;
    const score = candidate.partial + sizePoints(countLines(join(project.root, candidate.path)));
    if (score <= floor) continue;
    insertRanked(top, { path: candidate.path, score }, limit);
  }
  const queued = top.map((entry) => entry.path);
  const file = sessionFile(project, now);
  for (const path of queued)
    await queueEdit(project, inspectEdit(project, path, { status: "ramp-up" }), file);
  await updateState(rampUpFile(project), (state) => ({
    value: { ...state, done: true, queued },
    result: undefined,
  }));
  return renderRampUpNote(queued);
}

function insertRanked(top: RampUpCandidate[], entry: RampUpCandidate, limit: number): void {
  let at = top.findIndex(
    (other) =>
      entry.score > other.score || (entry.score === other.score && entry.path < other.path),
  );
  if (at === -1) at = top.length;
  top.splice(at, 0, entry);
  if (top.length > limit) top.pop();
}

async function recordCut(
  project: Project,
  budget: Budget,
  looked: number,
  total: number,
): Promise<string> {
  await updateState(rampUpFile(project), (state) => ({
    value: { ...state, done: false, cut: state.cut + 1 },
    result: undefined,
  }));
  return renderRampUpCut(budget.ms, looked, total);
}

/** Commits per project path over the last 500 non-merge commits; none outside git. */
function recentCommits(root: string, budget: Budget): Map<string, number> {
  const timeout = Math.floor(budget.remaining());
  if (timeout <= 0) return new Map();
  const result = spawnSync(
    "git",
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
    {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout,
      maxBuffer: 32 * 1024 * 1024,
    },
  );
  return result.status === 0 && typeof result.stdout === "string"
    ? countCommits(result.stdout)
    : new Map();
}

function countLines(path: string): number {
  const text = readSmallFile(path, SIZE_CAP);
  // A file too large to read here is longer than every size band.
  if (text === undefined) return Number.POSITIVE_INFINITY;
  let lines = text.length > 0 && !text.endsWith("\n") ? 1 : 0;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) lines += 1;
  return lines;
}
