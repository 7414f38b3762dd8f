import { createBudget, type Budget } from "../budget.ts";
import type { StartAnalysisInput } from "./run-analyses.ts";
import type { Project } from "../../project/node/project.ts";
import type * as RampUpScanModule from "./ramp-up-scan.ts";
import { continueWalk } from "./project-walk.ts";
import { WHOLE_TREE_FLAGS, addV8Flags } from "../../hook/node/code-cache.ts";

/**
 * A project's first session builds the import graph only up to this many files: enough for the
 * corpus's projects and the 5,000-file selection target, short of the memory a 50,000-file
 * graph takes in one hook.
 */
export const FIRST_GRAPH_FILES = 5000;

/**
 * V8's flags for a walk that feeds the ramp-up scan, on top of the whole tree's: the walk sorts
 * every file it finds (`UntestedSources`) in one hot loop, and TurboFan optimising it (the
 * filter's functions inlined into it) took ~3.5 MiB of compiler memory at the process's peak. Not inlining, and V8's
 * smaller-code heuristics, keep TurboFan (without it the sort took half as long again, and the
 * scan no longer fits its box on 50,000 files) for about 2-4 MiB less (ADR 0014).
 */
const RAMP_UP_FLAGS = [...WHOLE_TREE_FLAGS, "--optimize-for-size", "--no-turbo-inlining"];

/**
 * A session start's analyses, under one time box (`analysis_budget_ms`) and one walk of the
 * project that all of them share: the ramp-up scan (first sessions), the style block, and a
 * new import graph (impact tracing, or a project's first session), in that order; whatever the
 * box leaves unfinished says so.
 */
export async function analyseSessionStart(
  project: Project,
  input: StartAnalysisInput,
): Promise<string[]> {
  const { config } = project;
  const budget = createBudget(config.analysis_budget_ms, input.clock ?? (() => performance.now()));
  // The queue and the per-edit impact line are follow mode's; the style block serves every mode.
  const follow = config.mode === "follow" && !input.resumed;
  const rampUp = follow && config.ramp_up_limit > 0 ? await import("./ramp-up-scan.ts") : undefined;
  const scan = rampUp !== undefined && (await rampUp.isRampUpDue(project)) ? rampUp : undefined;
  const { tracing, first } = graphWanted(project, input);
  const others = scan !== undefined || config.style_sampling;
  if (!others && !tracing && !first) return [];
  // Only the first graph wanted: the walk stops past its file bound (a large project's graph is
  // built by the ends of turns, within their box, and costs its first session nothing more).
  const walk = { bounded: first && !others, list: listWanted(project, tracing, first) };
  const { files, pending, complete, small, notes } =
    scan === undefined
      ? { ...walkProject(project, budget, walk), notes: [] }
      : await walkWithRampUp(project, budget, walk, scan, input.now);
  const graph = tracing || (first && small);
  if (config.style_sampling) {
    const { sampleStyle } = await import("./style-samples.ts");
    const block = await sampleStyle(project, input.runners, { files, complete }, budget);
    if (block !== undefined) notes.push(block);
  }
  if (graph) {
    const { startImportGraph } = await import("./impact.ts");
    const cut = await startImportGraph(project, budget, { files, pending });
    // Without impact tracing the graph is selection's: a cut build goes on at the end of a turn.
    if (cut !== undefined && config.impact_tracing) notes.push(cut);
  }
  return notes;
}

type RampUpScan = typeof RampUpScanModule;
type Walked = ReturnType<typeof walkProject>;

/**
 * The walk with ramp-up's sort fed as it goes, then the scan: git's commits are asked for first
 * (`startCommitLog`), while the process is small, and its file closed whatever happens.
 */
async function walkWithRampUp(
  project: Project,
  budget: Budget,
  walk: { bounded: boolean; list: ListWanted },
  rampUp: RampUpScan,
  now: () => Date,
): Promise<Walked & { notes: string[] }> {
  const sources = rampUp.createSourceSort(project);
  const log = rampUp.startCommitLog(project, budget);
  try {
    const walked = walkProject(project, budget, {
      ...walk,
      sort: (rel) => rampUp.sortFile(sources, rel),
    });
    const { complete } = walked;
    return {
      ...walked,
      notes: [await rampUp.runRampUp(project, { sources, complete, log }, budget, now)],
    };
  } finally {
    log?.close();
  }
}

type ListWanted = "all" | "bounded" | "none";

/** Who reads the walk's list of paths (`walkProject`). */
function listWanted(project: Project, tracing: boolean, first: boolean): ListWanted {
  if (project.config.style_sampling || tracing) return "all";
  return first ? "bounded" : "none";
}

/** Whether the start builds the import graph for impact tracing, or as the project's first. */
function graphWanted(
  project: Project,
  input: StartAnalysisInput,
): { tracing: boolean; first: boolean } {
  const follow = project.config.mode === "follow" && !input.resumed;
  const tracing = follow && project.config.impact_tracing;
  return { tracing, first: follow && !tracing && input.firstGraph === true };
}

/**
 * The project's files within the box (and, when `bounded`, up to `FIRST_GRAPH_FILES`), each
 * given to the ramp-up scan's sort as found; `small` when the walk ended within that bound. The
 * list of paths is kept only for what reads it: style sampling and impact tracing's graph all of
 * it, a first graph while the project may still be small enough for one.
 */
function walkProject(
  project: Project,
  budget: Budget,
  wanted: { bounded: boolean; list: ListWanted; sort?: (rel: string) => void },
): { files: string[]; pending: string[]; complete: boolean; small: boolean } {
  const { bounded, list, sort } = wanted;
  // A walk of the whole tree (ramp-up, style sampling, impact tracing's graph) holds its paths and
  // would otherwise grow the process by megabytes more (`WHOLE_TREE_FLAGS`).
  if (!bounded) addV8Flags(sort === undefined ? WHOLE_TREE_FLAGS : RAMP_UP_FLAGS);
  let files: string[] = [];
  let found = 0;
  const pending = [""];
  const box = bounded
    ? { ...budget, expired: () => found > FIRST_GRAPH_FILES || budget.expired() }
    : budget;
  const complete = continueWalk(project.root, project.ignoreRules, pending, box, {
    file: (rel) => {
      found += 1;
      sort?.(rel);
      if (list === "all" || (list === "bounded" && found <= FIRST_GRAPH_FILES)) files.push(rel);
      // Past the bound no first graph is built: nothing reads the list.
      else if (files.length > 0) files = [];
    },
  });
  return { files, pending, complete, small: complete && found <= FIRST_GRAPH_FILES };
}
