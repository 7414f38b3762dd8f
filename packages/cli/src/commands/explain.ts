import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { renderQueuedNote, runnerLabel } from "@tailtest/core";
import { inspectEdit, openProject, type EditInsight } from "@tailtest/core/node";

export interface ExplainOptions {
  root: string;
  json: boolean;
}

/** What tailtest would do with each file if an agent edited it now; writes nothing. */
export function explainFiles(files: readonly string[], options: ExplainOptions): string {
  const project = openProject(options.root);
  // A file that is not there is said so: what follows is what tailtest would do if it were.
  const insights = files.map((file) => ({
    ...inspectEdit(project, file),
    exists: existsSync(resolve(options.root, file)),
  }));
  if (options.json)
    return `${JSON.stringify({ files: insights, config_problems: project.configProblems }, null, 2)}\n`;
  const blocks = insights.map((insight) => renderInsight(insight, insight.exists));
  const problems = project.configProblems.map((line) => `${line}\n`).join("");
  return `${problems}${blocks.join("\n")}`;
}

export function renderInsight(insight: EditInsight, exists = true): string {
  const rows: [string, string][] = [];
  const { verdict } = insight;
  if (!exists)
    rows.push(["warning", "this file does not exist; below is what tailtest would do if it did"]);
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
      rows.push([
        "depth",
        `${insight.depth.depth}, ${how} (score ${insight.depth.score}: ${signals}; ~${insight.depth.scenarios} scenarios)`,
      ]);
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
  return `${insight.path}\n${rows.map(([key, value]) => `  ${key.padEnd(8)}${value}`).join("\n")}\n`;
}
