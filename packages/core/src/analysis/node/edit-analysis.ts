import { createBudget } from "../budget.ts";
import type { EditInsight, Project } from "../../project/node/project.ts";

/**
 * An edit's share of the analysis time box: a fifth of a session start's. It bounds carrying on
 * an unfinished import graph; reading the edited file itself is one file's work.
 */
export function editBudgetMs(project: Project): number {
  return Math.max(10, Math.floor(project.config.analysis_budget_ms / 5));
}

export async function analyseEdit(project: Project, insight: EditInsight): Promise<string[]> {
  const notes: string[] = [];
  if (project.config.impact_tracing && insight.verdict.queue) {
    const { traceImpact } = await import("./impact.ts");
    const budget = createBudget(editBudgetMs(project), () => performance.now());
    notes.push(await traceImpact(project, insight.path, budget));
  }
  if (project.config.api_validation) {
    const { checkApi } = await import("./api-check-files.ts");
    notes.push(...(await checkApi(project, insight)));
  }
  return notes;
}
