import { renderQueuedNote, runnerLabel, type ScoreInputs } from "@tailtest/core";
import { inspectEdit, openProject, type EditInsight } from "@tailtest/core/node";

export interface ExplainOptions {
  root: string;
  json: boolean;
}

/** What tailtest would do with each file if an agent edited it now; writes nothing. */
export function explainFiles(files: readonly string[], options: ExplainOptions): string {
  const project = openProject(options.root);
  const insights = files.map((file) => inspectEdit(project, file));
  if (options.json)
    return `${JSON.stringify({ files: insights, config_problems: project.configProblems }, null, 2)}\n`;
  const blocks = insights.map((insight) => renderInsight(insight));
  const problems = project.configProblems.map((line) => `${line}\n`).join("");
  return `${problems}${blocks.join("\n")}`;
}

/** What the complexity score was computed from, each count before its cap. */
function renderScoreInputs(inputs: ScoreInputs): string {
  const yes = (value: boolean): string => (value ? "yes" : "no");
  return [
    `path words: ${inputs.pathTerms.join(", ") || "none"}`,
    `HTTP: ${yes(inputs.http)}`,
    `DB: ${yes(inputs.db)}`,
    `branches: ${inputs.branches} (4 points at most)`,
    `public functions: ${inputs.publicFunctions} (5 points at most)`,
    `code read: ${inputs.codeChars} of ${inputs.contentChars} characters`,
  ].join("; ");
}

export function renderInsight(insight: EditInsight): string {
  const rows: [string, string][] = [];
  const { verdict } = insight;
  rows.push([
    "verdict",
    verdict.queue ? `queue: ${verdict.reason}` : `skip (${verdict.kind}): ${verdict.reason}`,
  ]);
  if (verdict.queue) {
    rows.push([
      "status",
      insight.status === "existing" ? "existing (tracked by git)" : "new (not tracked by git)",
    ]);
    rows.push([
      "runner",
      insight.runner === undefined
        ? `none: ${insight.runnerReason ?? ""}`
        : `${runnerLabel(insight.runner.id)} (${insight.runnerReason ?? ""}): ${insight.runner.command.join(" ")}`,
    ]);
    if (insight.target !== undefined) {
      let state = insight.target.exists ? "exists" : "to write";
      if (insight.target.kind === "inline") state = "inline #[cfg(test)] block";
      rows.push(["test", `${insight.target.path} (${state})`]);
    }
    if (insight.depth !== undefined) {
      const signals =
        insight.depth.signals.map((s) => `+${s.points} ${s.label}`).join(" ") || "no signals";
      const how = insight.depth.override ? "raised by complexity" : "as configured";
      const asks = insight.depth.inputs.runtimeCode
        ? `~${insight.depth.scenarios} scenarios`
        : "no runtime code: no scenarios";
      rows.push([
        "depth",
        `${insight.depth.depth}, ${how} (score ${insight.depth.score}: ${signals}; ${asks})`,
      ]);
      rows.push(["inputs", renderScoreInputs(insight.depth.inputs)]);
      rows.push([
        "note",
        renderQueuedNote({
          path: insight.path,
          status: insight.status ?? "new",
          language: verdict.language,
          target: insight.target,
          runner: insight.runner,
          runnerReason: insight.runnerReason ?? "",
          pendingCount: 1,
          depthNote: insight.depth.note,
        }),
      ]);
    }
  }
  // Last, so the rows above read as before: which rule gave the verdict.
  rows.push(["rule", verdict.rule]);
  return `${insight.path}\n${rows.map(([key, value]) => `  ${key.padEnd(8)}${value}`).join("\n")}\n`;
}
