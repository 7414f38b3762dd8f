import { createBudget } from "../budget.ts";
import type { StartAnalysisInput } from "./run-analyses.ts";
import type { Project } from "../../project/node/project.ts";
import { continueWalk } from "./project-walk.ts";

/**
 * A session start's analyses, under one time box (`analysis_budget_ms`) and one walk of the
 * project that all of them share: the ramp-up scan (first sessions), the style block, and a
 * new import graph (impact tracing), in that order; whatever the box leaves unfinished says so.
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
  const graph = follow && config.impact_tracing;
  if (!rampUpDue && !graph && !config.style_sampling) return [];
  const files: string[] = [];
  const pending = [""];
  const complete = continueWalk(project.root, project.ignoreRules, pending, budget, {
    file: (rel) => files.push(rel),
  });
  const walk = { files, complete };
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
    const note = await startImportGraph(project, budget, { files, pending });
    if (note !== undefined) notes.push(note);
  }
  return notes;
}
