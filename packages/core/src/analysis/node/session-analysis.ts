import { createBudget, type Budget } from "../budget.ts";
import type { StartAnalysisInput } from "./run-analyses.ts";
import type { Project } from "../../project/node/project.ts";
import { continueWalk } from "./project-walk.ts";
import { WHOLE_TREE_FLAGS, addV8Flags } from "../../hook/node/code-cache.ts";

/**
 * A project's first session builds the import graph only up to this many files: enough for the
 * corpus's projects and the 5,000-file selection target, short of the memory a 50,000-file
 * graph takes in one hook.
 */
export const FIRST_GRAPH_FILES = 5000;

/**
 * V8's flags for a walk that feeds the ramp-up scan, on top of the whole tree's: the scan sorts
 * every path of the tree in one hot loop, and TurboFan optimising it (the filter's functions
 * inlined into it) took ~3.5 MiB of compiler memory at the process's peak. Not inlining, and V8's
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
  const rampUpDue = rampUp !== undefined && (await rampUp.isRampUpDue(project));
  const { tracing, first } = graphWanted(project, input);
  const others = rampUpDue || config.style_sampling;
  if (!others && !tracing && !first) return [];
  // Only the first graph wanted: the walk stops past its file bound (a large project's graph is
  // built by the ends of turns, within their box, and costs its first session nothing more).
  const walk = walkProject(project, budget, first && !others, rampUpDue);
  const graph = tracing || (first && walk.small);
  walk.last = readByRampUpAlone(project, graph);
  const notes: string[] = [];
  if (rampUp !== undefined && rampUpDue)
    notes.push(await rampUp.runRampUp(project, walk, budget, input.now));
  if (config.style_sampling) {
    const { sampleStyle } = await import("./style-samples.ts");
    const block = await sampleStyle(project, input.runners, walk, budget);
    if (block !== undefined) notes.push(block);
  }
  if (graph) {
    const { startImportGraph } = await import("./impact.ts");
    const note = await startImportGraph(project, budget, {
      files: walk.files,
      pending: walk.pending,
    });
    // Without impact tracing the graph is selection's: a cut build goes on at the end of a turn.
    if (note !== undefined && config.impact_tracing) notes.push(note);
  }
  return notes;
}

/** Nothing after the ramp-up scan reads the walk's list: the scan lets go of it once sorted. */
function readByRampUpAlone(project: Project, graph: boolean): boolean {
  return !project.config.style_sampling && !graph;
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
 * The project's files within the box (and, when `bounded`, up to `FIRST_GRAPH_FILES`); `small`
 * when the walk ended within that bound.
 */
function walkProject(
  project: Project,
  budget: Budget,
  bounded: boolean,
  rampUp: boolean,
): { files: string[]; pending: string[]; complete: boolean; small: boolean; last?: boolean } {
  // A walk of the whole tree (ramp-up, style sampling, impact tracing's graph) holds its paths and
  // would otherwise grow the process by megabytes more (`WHOLE_TREE_FLAGS`).
  if (!bounded) addV8Flags(rampUp ? RAMP_UP_FLAGS : WHOLE_TREE_FLAGS);
  const files: string[] = [];
  const pending = [""];
  const box = bounded
    ? { ...budget, expired: () => files.length > FIRST_GRAPH_FILES || budget.expired() }
    : budget;
  const complete = continueWalk(project.root, project.ignoreRules, pending, box, {
    file: (rel) => files.push(rel),
  });
  return { files, pending, complete, small: complete && files.length <= FIRST_GRAPH_FILES };
}
