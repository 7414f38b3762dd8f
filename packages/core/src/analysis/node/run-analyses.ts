import { wantsEditAnalysis, wantsStartAnalysis } from "../switches.ts";
import { coveringAnalysis, hasImportGraph } from "../../selection/node/covering.ts";
import { graphOfAnotherVersion } from "../../selection/node/graph-store.ts";
import { errorLine } from "../../hook/failure-policy.ts";
import type { DetectedRunner } from "../../runners/project-runners.ts";
import type { EditInsight, Project } from "../../project/node/project.ts";

/**
 * The optional analyses' door on the hook path (ADR 0009). Nothing of them is loaded here: each
 * lives in its own module, imported only when the config switches it on, so a hook with every
 * analysis off pays for this file alone.
 */

export { wantsEditAnalysis, wantsStartAnalysis };

/**
 * The edited file's insight with the analyses' lines for the agent (`notes`): the impact line
 * and API lines for a queued source file, API check lines for an edited test. A failing analysis
 * costs its line, never the hook.
 */
export async function withEditAnalyses(project: Project, given: EditInsight): Promise<EditInsight> {
  const insight = await withCovering(project, given);
  if (!wantsEditAnalysis(project.config)) return insight;
  if (!insight.verdict.queue && insight.verdict.kind !== "test") return insight;
  const { analyseEdit } = await import("./edit-analysis.ts");
  const notes = await guard(project, "the edit analyses", () => analyseEdit(project, insight));
  return notes.length === 0 ? insight : { ...insight, notes };
}

export interface StartAnalysisInput {
  /** True when an existing session goes on (resume, compaction): built state is kept. */
  resumed: boolean;
  runners: readonly DetectedRunner[];
  now: () => Date;
  /** The time box's clock in milliseconds (`performance.now` unless a test steps its own). */
  clock?: () => number;
  /** The project has no import graph yet: build it (set by `runStartAnalyses`). */
  firstGraph?: boolean;
}

/** The session start's analysis lines (ramp-up, style block, a cut graph build), or none. */
export async function runStartAnalyses(
  project: Project,
  input: StartAnalysisInput,
): Promise<string[]> {
  const firstGraph = needsFirstGraph(project, input.resumed);
  if (!wantsStartAnalysis(project.config) && !firstGraph) return [];
  const { analyseSessionStart } = await import("./session-analysis.ts");
  return guard(project, "the session start analyses", () =>
    analyseSessionStart(project, { ...input, firstGraph }),
  );
}

/**
 * Whether a follow session starts in a project that has no import graph yet: the first edit's
 * note names the tests that import the edited file only from a whole graph, and the end of a
 * turn is the only other place that builds it, so a project's first session builds it here,
 * once, within the start's time box.
 */
function needsFirstGraph(project: Project, resumed: boolean): boolean {
  return (
    project.config.mode === "follow" &&
    project.config.select !== "named" &&
    !resumed &&
    // A graph an earlier version wrote is read by nothing until built again: without this, the
    // first turn after an upgrade named no covering test in its notes.
    (!hasImportGraph(project) || graphOfAnotherVersion(project))
  );
}

async function guard(
  project: Project,
  what: string,
  work: () => Promise<string[]>,
): Promise<string[]> {
  try {
    return await work();
  } catch (error) {
    return [
      `tailtest: ${what} could not run (${errorLine(error, project.root)}); the hook went on without them.`,
    ];
  }
}

/**
 * The existing tests related to an edited source, for its note: read from the import graph
 * without building it (the end of a turn builds it), as the post-edit bundle does
 * (`covering.ts`). Before the graph is complete the note keeps the name-matched test.
 */
export async function withCovering(project: Project, insight: EditInsight): Promise<EditInsight> {
  return coveringAnalysis()(project, insight);
}
