import { createHash } from "node:crypto";
import { OUTCOME_LABELS, type OutcomeClass } from "../state/history-state.ts";
import { describeSessionCounts, type HistoryFileRow, type HistorySession } from "./history-view.ts";
import {
  REPORT_CAPS,
  type ReportData,
  type ReportFileWhy,
  type ReportSession,
} from "./report-data.ts";
import type { StrictClaimRecord, TddCycleRecord } from "../state/session-record.ts";
import type { TddCycle } from "../tdd/cycles.ts";

/**
 * `tailtest report`'s page: one HTML file with its CSS, its script and an SVG chart inline, and
 * nothing fetched from anywhere (a Content-Security-Policy says so to the browser as well). Every
 * piece of data is escaped: file names and test names are the user's own text.
 */

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const esc = escapeHtml;

/** `2026-05-01T14:03:09.123Z` as `2026-05-01 14:03 UTC`. */
function when(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match === null ? esc(iso) : `${match[1]} ${match[2]} UTC`;
}

/** 12 ms, 1.23 s. */
function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** "(showing 60 of 312 sessions)" when a list was cut, else nothing. */
function capNote(shown: number, total: number, what: string): string {
  return total > shown
    ? `<p class="cap" data-cap="${what}">Showing ${shown} of ${total} ${what}: the report keeps the newest (the JSON commands list everything).</p>`
    : "";
}

/** The classes a session's bar is stacked from, bottom up (a session's counts hold no `recurring`). */
const STATUS_KEYS = [
  "passed",
  "fixed",
  "failed",
  "regression",
  "timeout",
  "env_error",
  "missing_test",
  "not_run",
] as const satisfies readonly OutcomeClass[];

const label = (key: OutcomeClass): string => OUTCOME_LABELS[key];

/** Round tick values for a count axis from 0 to `max`: whole numbers only, at most 5 steps. */
export function countTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(max));
  const step =
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => top / s <= 5) ??
    Math.ceil(top / 5);
  const ticks: number[] = [];
  for (let value = 0; value < top + step; value += step) ticks.push(value);
  return ticks;
}

// ---------------------------------------------------------------------------------------------
// chart

const CHART = { width: 760, height: 220, left: 36, bottom: 28, top: 12, right: 8 };

/** Stacked bars per session, oldest left: files per outcome class. */
function renderChart(sessions: readonly HistorySession[]): string {
  if (sessions.length === 0)
    return '<p class="empty" id="chart-empty">No sessions in history yet.</p>';
  const plotW = CHART.width - CHART.left - CHART.right;
  const plotH = CHART.height - CHART.top - CHART.bottom;
  const totals = sessions.map((s) => STATUS_KEYS.reduce((sum, key) => sum + s.counts[key], 0));
  const ticksAt = countTicks(Math.max(1, ...totals));
  const max = ticksAt.at(-1) ?? 1;
  const slot = plotW / sessions.length;
  const barW = Math.max(2, Math.min(40, slot * 0.7));
  const y = (value: number) => CHART.top + plotH - (value / max) * plotH;
  const bars = sessions.map((session, index) => {
    const x = CHART.left + index * slot + (slot - barW) / 2;
    let base = 0;
    const counts = session.counts;
    const rects = STATUS_KEYS.filter((key) => counts[key] > 0).map((key) => {
      const top = y(base + counts[key]);
      const height = y(base) - top;
      base += counts[key];
      return `<rect class="seg seg-${key}" x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${barW.toFixed(1)}" height="${height.toFixed(1)}"><title>${esc(session.session_id)}: ${counts[key]} ${label(key)}</title></rect>`;
    });
    const aria = `${esc(session.session_id)}: ${esc(describeSessionCounts(session))}`;
    const red = counts.failed + counts.regression;
    return `<g class="bar" data-session="${esc(session.session_id)}" data-passed="${counts.passed + counts.fixed}" data-failed="${red}" aria-label="${aria}">${rects.join("")}</g>`;
  });
  const ticks = ticksAt.map(
    (value) =>
      `<g class="tick"><line x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}"/><text x="${CHART.left - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${value}</text></g>`,
  );
  const first = sessions[0];
  const last = sessions.at(-1);
  let axis = "";
  if (first !== undefined && last !== undefined && sessions.length === 1)
    axis = `<text class="axis" x="${(CHART.left + plotW / 2).toFixed(1)}" y="${CHART.height - 8}" text-anchor="middle">${when(first.last_at)}</text>`;
  else if (first !== undefined && last !== undefined)
    axis = `<text class="axis" x="${CHART.left}" y="${CHART.height - 8}">${when(first.first_at)}</text><text class="axis" x="${CHART.width - CHART.right}" y="${CHART.height - 8}" text-anchor="end">${when(last.last_at)}</text>`;
  const shownKeys = STATUS_KEYS.filter((key) => sessions.some((s) => s.counts[key] > 0));
  const legend = shownKeys
    .map((key) => `<span class="key"><i class="swatch seg-${key}"></i>${label(key)}</span>`)
    .join("");
  return `<svg id="chart" role="img" viewBox="0 0 ${CHART.width} ${CHART.height}" aria-label="Files per session by outcome, oldest first">${ticks.join("")}${bars.join("")}${axis}</svg><div class="legend">${legend}</div>`;
}

// ---------------------------------------------------------------------------------------------
// tables

function table(
  id: string,
  head: readonly string[],
  rows: readonly string[],
  empty: string,
): string {
  if (rows.length === 0) return `<p class="empty" id="${id}-empty">${esc(empty)}</p>`;
  return `<div class="scroll"><table id="${id}"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

function statusCell(name: OutcomeClass): string {
  return `<td><span class="pill st-${name}">${label(name)}</span></td>`;
}

function timeline(names: readonly OutcomeClass[]): string {
  return names.map((name) => `<i class="dot st-${name}" title="${label(name)}"></i>`).join("");
}

function flags(row: HistoryFileRow): string {
  return [
    ...(row.regression ? ['<span class="flag flag-regression">regression</span>'] : []),
    ...(row.recurring ? ['<span class="flag flag-recurring">recurring</span>'] : []),
  ].join(" ");
}

function fileRow(row: ReportData["files"][number]): string {
  const cls = [row.regression ? "regression" : "", row.recurring ? "recurring" : ""]
    .filter((c) => c !== "")
    .join(" ");
  const why =
    row.why === undefined ? '<span class="muted">no run logged</span>' : whyBlock(row.why);
  return `<tr class="${cls}" data-file="${esc(row.file)}"><td class="name">${esc(row.file)}</td>${statusCell(row.class)}<td class="num">${row.sessions}</td><td class="num">${row.failed_sessions}</td><td class="timeline">${timeline(row.timeline)}</td><td>${when(row.timestamp)}</td><td>${flags(row)}</td><td class="why">${why}</td></tr>`;
}

function sessionRow(session: HistorySession): string {
  const live = session.live ? ' <span class="flag">open</span>' : "";
  return `<tr data-session="${esc(session.session_id)}"><td class="name">${esc(session.session_id)}${live}</td><td>${esc(session.mode ?? "")}</td><td>${when(session.last_at)}</td>${STATUS_KEYS.map((key) => `<td class="num st-text-${key}">${session.counts[key]}</td>`).join("")}</tr>`;
}

// ---------------------------------------------------------------------------------------------
// why: per session and per file, with <details> (no script needed)

/** The tests that ran for a file and why, and what failed with its excerpt. */
function whyBlock(why: ReportFileWhy): string {
  const selected =
    why.selected.length === 0
      ? ""
      : `<ul class="sel">${why.selected
          .map(
            (test) =>
              `<li><span class="name">${esc(test.path)}</span> <span class="ev" title="${esc(test.detail)}">${esc(test.evidence)}</span> <span class="muted">${esc(test.detail)}</span></li>`,
          )
          .join("")}</ul>`;
  const leftOut =
    why.left_out.length === 0
      ? ""
      : `<p class="muted left-out">Left out by the time budget (verify_budget_seconds): <span class="name">${esc(why.left_out.join(", "))}</span></p>`;
  const failing = why.failing
    .map(
      (test) =>
        `<details class="failure"><summary class="name">${esc(test.id)}</summary>${test.failure === undefined ? '<p class="muted">The runner gave no message.</p>' : `<pre class="excerpt">${esc(test.failure)}</pre>`}</details>`,
    )
    .join("");
  const more =
    why.failing_total > why.failing.length
      ? `<p class="cap">Showing ${why.failing.length} of ${why.failing_total} failing tests.</p>`
      : "";
  const errors = why.errors
    .map(
      (error) =>
        `<details class="failure"><summary>${esc(error.file ?? "the run")}: ${esc(error.kind === "collection" ? "could not load" : error.kind)}</summary><pre class="excerpt">${esc(error.message)}</pre></details>`,
    )
    .join("");
  const by = why.source === "hook" ? "the end of a turn" : `tailtest ${why.source}`;
  const summary =
    why.failing_total + why.errors.length > 0
      ? `${plural(why.failing_total, "failing test")}${why.errors.length > 0 ? `, ${plural(why.errors.length, "load error")}` : ""}`
      : `${plural(why.selected.length, "test file")} ran`;
  return `<details class="why" data-why="${esc(why.file)}"><summary>${esc(summary)}</summary><p class="muted">Run by ${by}, ${when(why.run_at)}. Tests selected, and why:</p>${selected || '<p class="muted">No selection was logged for it.</p>'}${leftOut}${failing}${more}${errors}</details>`;
}

function cycleRecordRow(cycle: TddCycleRecord): string {
  const red =
    cycle.red === undefined
      ? '<td class="muted">no Red</td>'
      : `<td><span class="name">${esc(cycle.red.test)}</span><br><span class="muted">${esc(cycle.red.expects)}</span><br>${when(cycle.red.at)}${cycle.red_confirmed_at === undefined ? ' <span class="muted">(not confirmed red)</span>' : `, red ${when(cycle.red_confirmed_at)}`}</td>`;
  const green =
    cycle.green === undefined
      ? '<td class="muted">no Green yet</td>'
      : `<td>${esc(cycle.green.change)}<br><span class="muted name">${esc(cycle.green.files.join(", "))}</span><br>${when(cycle.green.at)}${cycle.green.skip_red === undefined ? "" : ` <span class="flag skip-red">skip-red: ${esc(cycle.green.skip_red)}</span>`}</td>`;
  const done =
    cycle.completed_at === undefined
      ? `<td><span class="pill out-${cycle.outcome}">${cycle.outcome}</span></td>`
      : `<td><span class="pill out-complete">complete</span> ${when(cycle.completed_at)}</td>`;
  return `<tr class="cycle cycle-${cycle.outcome}"><td class="name">${esc(cycle.agent)}</td>${red}${green}${done}</tr>`;
}

function claimRow(claim: StrictClaimRecord): string {
  const settled = claim.settled_at === undefined ? "" : when(claim.settled_at);
  return `<tr class="claim claim-${claim.outcome}"><td class="name">${esc(claim.test_id)}</td><td class="name">${esc(claim.targets.join(", "))}</td><td>${when(claim.claimed_at)}</td><td><span class="pill cl-${claim.outcome}">${claim.outcome}</span> ${settled}</td><td class="num">${claim.reverts}</td><td>${esc(claim.reason ?? "")}</td></tr>`;
}

/** One session, folded: its files and why, its TDD cycles, its strict claims. */
function sessionDetails(session: ReportSession): string {
  const id = esc(session.session_id);
  const mode = session.mode === undefined ? "" : ` · ${esc(session.mode)} mode`;
  const live = session.live ? " · open" : "";
  const files = table(
    `files-${id}`,
    ["File", "Outcome", "Why"],
    session.file_rows.map(
      (row) =>
        `<tr data-file="${esc(row.file)}"><td class="name">${esc(row.file)}</td>${statusCell(row.class)}<td class="why">${row.why === undefined ? '<span class="muted">no run of this session is logged</span>' : whyBlock(row.why)}</td></tr>`,
    ),
    "No files.",
  );
  const cycles =
    session.cycles.length === 0
      ? ""
      : `<h4>TDD cycles</h4>${table(`cycles-${id}`, ["Agent", "Red (test, expects, times)", "Green (change, files, time)", "Outcome"], session.cycles.map(cycleRecordRow), "")}${capNote(session.cycles.length, session.tdd?.total ?? 0, "cycles")}`;
  const claims =
    session.claims.length === 0
      ? ""
      : `<h4>Strict claims</h4>${table(`claims-${id}`, ["Test", "Edits allowed to", "Claimed", "Outcome", "Reverts", "Last failure"], session.claims.map(claimRow), "")}${capNote(session.claims.length, session.strict?.total ?? 0, "claims")}`;
  const filesPart =
    session.file_rows.length === 0
      ? ""
      : `<h4>Files</h4>${files}${capNote(session.file_rows.length, session.files, "files")}`;
  return `<details class="session" data-session="${id}" data-mode="${esc(session.mode ?? "")}"><summary><span class="name">${id}</span>${mode}${live} · ${when(session.last_at)} · ${esc(describeSessionCounts(session))}</summary>${filesPart}${cycles}${claims}</details>`;
}

function cycleRow(cycle: TddCycle, index: number): string {
  const red =
    cycle.red === undefined
      ? '<td class="muted">no Red (skip-red)</td><td></td>'
      : `<td><span class="name">${esc(cycle.red.test)}</span><br><span class="muted">${esc(cycle.red.expects)}</span></td><td>${cycle.red_confirmed_at === undefined ? '<span class="muted">not confirmed</span>' : when(cycle.red_confirmed_at)}</td>`;
  const green =
    cycle.green === undefined
      ? '<td class="muted">no Green yet</td>'
      : `<td>${esc(cycle.green.change)}<br><span class="muted name">${esc(cycle.green.files.join(", "))}</span>${cycle.green.skip_red === undefined ? "" : ` <span class="flag">skip-red: ${esc(cycle.green.skip_red)}</span>`}</td>`;
  const done =
    cycle.completed_at === undefined
      ? `<td><span class="pill out-${cycle.outcome}">${cycle.outcome}</span></td>`
      : `<td><span class="pill out-complete">complete</span> ${when(cycle.completed_at)}</td>`;
  return `<tr class="cycle cycle-${cycle.outcome}"><td class="num">${index + 1}</td>${red}${green}${done}</tr>`;
}

function tddSection(data: ReportData): string {
  if (data.tdd.length === 0)
    return '<p class="empty" id="tdd-empty">No TDD cycles: tdd mode has not been used here.</p>';
  const agents = data.tdd.map((agent) => {
    const offset = agent.cycles_total - agent.cycles.length;
    const rows = agent.cycles.map((cycle, index) => cycleRow(cycle, offset + index));
    return `<div class="agent" data-agent="${esc(agent.agent_key)}"><h3>${esc(agent.agent_key)} <span class="muted">now ${agent.state}; ${agent.completed} complete, ${agent.replaced} replaced, ${agent.open} open</span></h3>${table(`tdd-${esc(agent.agent_key)}`, ["#", "Red (test, expects)", "Red confirmed", "Green (change, files)", "Outcome"], rows, "No cycles.")}${capNote(agent.cycles.length, agent.cycles_total, "cycles")}</div>`;
  });
  return agents.join("") + capNote(data.tdd.length, data.agents_total, "agents");
}

function strictSection(data: ReportData): string {
  const s = data.strict;
  const summary = `<p>${plural(s.triples, "red→green pair")}, ${s.open} open, ${s.escalated} escalated, ${plural(s.repairs, "repair")}.</p>`;
  const rows = s.pairs.map(
    (pair) =>
      `<tr class="pair"><td class="name">${esc(pair.test_id)}</td><td>${when(pair.red_at)}</td><td class="name">${esc(pair.edits.join(", "))}</td><td class="num">${pair.repairs}</td><td>${when(pair.green_at)}</td></tr>`,
  );
  return (
    summary +
    table(
      "pairs",
      ["Test", "Red", "Edited", "Repairs", "Green"],
      rows,
      "No verified red→green pairs: strict mode has not completed a claim here.",
    ) +
    capNote(s.pairs.length, s.triples, "pairs")
  );
}

function slowestSection(data: ReportData): string {
  const max = Math.max(1, ...data.slowest.map((test) => test.max_ms));
  const rows = data.slowest.map(
    (test) =>
      `<tr class="slow"><td class="name">${esc(test.id)}</td><td class="num">${duration(test.max_ms)}</td><td class="barcell"><span class="hbar" style="width:${((test.max_ms / max) * 100).toFixed(1)}%"></span></td><td class="num">${duration(test.last_ms)}</td><td class="num">${test.runs}</td></tr>`,
  );
  return table(
    "slowest",
    ["Test", "Slowest", "", "Last", "Runs"],
    rows,
    "No test durations yet: they come from the runners' reports of the end of a turn, tailtest run and tailtest watch.",
  );
}

function runsSection(data: ReportData): string {
  const rows = [...data.runs]
    .reverse()
    .map(
      (run) =>
        `<tr><td>${when(run.at)}</td><td>${run.source === "hook" ? "end of a turn" : `tailtest ${run.source}`}</td><td><span class="pill run-${run.status}">${run.status.replace("_", " ")}</span></td><td class="num">${run.passed}</td><td class="num">${run.failed}</td><td class="num">${duration(run.duration_ms)}</td></tr>`,
    );
  return (
    table(
      "runs",
      ["When", "By", "Result", "Passed", "Failed", "Process time"],
      rows,
      "No test runs recorded yet: the end of an agent's turn, tailtest run and tailtest watch each record theirs.",
    ) + capNote(data.runs.length, data.runs_total, "runs")
  );
}

// ---------------------------------------------------------------------------------------------
// page

const STYLE = `
:root{--fg:#1d2330;--muted:#667085;--bg:#fff;--line:#e4e7ec;--card:#f7f8fa;
--passed:#2e9d5b;--fixed:#3a7bd5;--failed:#d64545;--regression:#a3218f;--timeout:#c0562a;--env:#7a5af8;--missing:#d8a21b;--notrun:#98a2b3}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ef;--muted:#98a2b3;--bg:#12151c;--line:#2a303c;--card:#1a1f29}}
*{box-sizing:border-box}body{margin:0;padding:24px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto}h1{font-size:22px;margin:0 0 4px;overflow-wrap:anywhere}h2{font-size:17px;margin:32px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:14px;margin:16px 0 6px;overflow-wrap:anywhere}
.muted,.cap,.empty{color:var(--muted)}.cap{font-size:12px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 14px;min-width:120px;flex:1 1 120px}.card b{display:block;font-size:20px}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}th{font-size:12px;color:var(--muted);font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}.name{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px;word-break:break-all}
.pill{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;color:#fff;background:var(--muted);white-space:nowrap}
.st-passed,.out-complete,.run-passed,.seg-passed{background:var(--passed);fill:var(--passed)}.st-fixed,.seg-fixed{background:var(--fixed);fill:var(--fixed)}
.st-failed,.seg-failed,.run-failed,.run-error{background:var(--failed);fill:var(--failed)}.st-regression,.seg-regression,.st-recurring{background:var(--regression);fill:var(--regression)}
.st-timeout,.seg-timeout{background:var(--timeout);fill:var(--timeout)}.st-env_error,.seg-env_error,.run-env_error{background:var(--env);fill:var(--env)}
.st-missing_test,.seg-missing_test,.out-open{background:var(--missing);fill:var(--missing)}.st-not_run,.seg-not_run,.run-no_tests{background:var(--notrun);fill:var(--notrun)}
.st-text-failed,.st-text-regression{color:var(--failed)}.st-text-passed{color:var(--passed)}
.dot{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:2px}
.flag{display:inline-block;font-size:11px;padding:0 6px;border-radius:4px;border:1px solid var(--line)}.flag-regression{border-color:var(--regression);color:var(--regression)}.flag-recurring{border-color:var(--missing);color:var(--missing)}
tr.regression td.name{color:var(--failed)}
#chart{width:100%;height:auto;max-height:260px}
.tick line{stroke:var(--line)}.tick text,.axis{fill:var(--muted);font-size:11px}
.legend{display:flex;flex-wrap:wrap;gap:6px 14px;font-size:12px;color:var(--muted)}.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px}
.barcell{width:30%}.hbar{display:block;height:8px;border-radius:4px;background:var(--fixed)}
#filter{padding:5px 8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);width:280px;max-width:100%}
details{margin:4px 0}summary{cursor:pointer}pre.excerpt{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px;font-size:12px;margin:4px 0;max-height:320px;overflow:auto}
h4{font-size:13px;margin:12px 0 4px}details.session{border:1px solid var(--line);border-radius:8px;padding:6px 10px;margin:8px 0}details.session>summary{overflow-wrap:anywhere}
td.why{min-width:140px}ul.sel{margin:4px 0;padding-left:18px}ul.sel li{overflow-wrap:anywhere}.ev{display:inline-block;font-size:11px;padding:0 5px;border-radius:4px;background:var(--card);border:1px solid var(--line)}
details.failure>summary{color:var(--failed)}.cl-verified{background:var(--passed)}.cl-escalated{background:var(--failed)}.cl-reverted{background:var(--timeout)}.cl-open{background:var(--missing)}
footer{margin-top:40px;color:var(--muted);font-size:12px}
@media (max-width:600px){body{padding:12px}.card{min-width:0;padding:8px 10px}.card b{font-size:17px}th,td{padding:4px 5px}.barcell{display:none}}
`;

/** Filters the files table as you type; marks the page ready. Reads and writes text only. */
const SCRIPT = `
(function () {
  var input = document.getElementById("filter");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#files tbody tr"));
  var count = document.getElementById("filter-count");
  function apply() {
    var needle = input ? input.value.toLowerCase() : "";
    var shown = 0;
    rows.forEach(function (row) {
      var hit = (row.getAttribute("data-file") || "").toLowerCase().indexOf(needle) !== -1;
      row.hidden = !hit;
      if (hit) shown += 1;
    });
    if (count) count.textContent = shown + " of " + rows.length + " files shown";
  }
  if (input) input.addEventListener("input", apply);
  apply();
  document.documentElement.setAttribute("data-ready", "true");
})();
`;

function scriptHash(): string {
  return createHash("sha256").update(SCRIPT).digest("base64");
}

function header(data: ReportData): string {
  const latest = data.sessions.at(-1);
  const cards: [string, string][] = [
    ["files", String(data.files_total)],
    ["sessions", String(data.sessions_total)],
    ["regressions", String(data.regressions.length)],
    ["recurring failures", String(data.recurring.length)],
    ["TDD cycles completed", String(data.tdd.reduce((sum, agent) => sum + agent.completed, 0))],
    ["red→green pairs", String(data.strict.triples)],
  ];
  const last =
    latest === undefined
      ? ""
      : `<p>Latest session <span class="name">${esc(latest.session_id)}</span>: ${esc(describeSessionCounts(latest))}.</p>`;
  return `<header><h1>tailtest report: ${esc(data.project)}</h1><p class="muted">Generated ${when(data.generated_at)} by tailtest ${esc(data.version)}. Every result here was measured by tailtest running the tests itself.</p><div class="cards">${cards.map(([label, value]) => `<div class="card" data-card="${esc(label)}"><b>${value}</b>${esc(label)}</div>`).join("")}</div>${last}</header>`;
}

/** The whole page for `data`: deterministic, self-contained, every value escaped. */
export function renderReportHtml(data: ReportData): string {
  const sessions = [...data.sessions].reverse().map(sessionRow);
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash()}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const body = [
    header(data),
    `<section id="sec-chart"><h2>Outcomes per session</h2><p class="muted">Files per session by measured outcome, oldest on the left.</p>${renderChart(data.sessions)}${capNote(data.sessions.length, data.sessions_total, "sessions")}</section>`,
    `<section id="sec-recurring"><h2>Recurring failures</h2>${table(
      "recurring",
      ["File", "Failed in", "Sessions", "Timeline", "Last seen"],
      data.recurring.map(
        (row) =>
          `<tr data-file="${esc(row.file)}"><td class="name">${esc(row.file)}</td><td class="num">${plural(row.failed_sessions, "session")}</td><td class="num">${row.sessions}</td><td>${timeline(row.timeline)}</td><td>${when(row.timestamp)}</td></tr>`,
      ),
      "No file has failed in three or more sessions.",
    )}</section>`,
    `<section id="sec-regressions"><h2>Regressions</h2>${table(
      "regressions",
      ["File", "Now", "Session", "When"],
      data.regressions.map(
        (row) =>
          `<tr data-file="${esc(row.file)}"><td class="name">${esc(row.file)}</td>${statusCell(row.class)}<td class="name">${esc(row.session_id)}</td><td>${when(row.timestamp)}</td></tr>`,
      ),
      "No regressions: no file that passed before fails now.",
    )}</section>`,
    `<section id="sec-sessions"><h2>Sessions</h2><p class="muted">Every mode's sessions: follow mode's files, tdd mode's cycles, strict mode's claims. Open a session for each file's tests, why they were selected, and what failed.</p>${table("sessions", ["Session", "Mode", "Last measured", ...STATUS_KEYS.map(label)], sessions, "No sessions in history yet.")}<div id="session-details">${[...data.sessions].reverse().map(sessionDetails).join("")}</div>${capNote(data.sessions.length, data.sessions_total, "sessions")}</section>`,
    `<section id="sec-files"><h2>Files</h2><p><input id="filter" type="search" placeholder="Filter files" aria-label="Filter files"> <span id="filter-count" class="muted"></span></p>${table("files", ["File", "Last outcome", "Sessions", "Red in", "Timeline", "Measured", "", "Why (latest session)"], data.files.map(fileRow), "No files in history yet.")}${capNote(data.files.length, data.files_total, "files")}</section>`,
    `<section id="sec-tdd"><h2>TDD cycles</h2>${tddSection(data)}</section>`,
    `<section id="sec-strict"><h2>Strict mode: red→green pairs</h2>${strictSection(data)}</section>`,
    `<section id="sec-slowest"><h2>Slowest tests</h2><p class="muted">Each test's own time, as its runner reported it (whole-process times are under Test runs).</p>${slowestSection(data)}</section>`,
    `<section id="sec-runs"><h2>Test runs</h2><p class="muted">Every run tailtest made, newest first, by who made it: the end of an agent's turn (hook), tailtest run, tailtest watch. Times are whole-process times: starting the runner, collecting and running every test of the run.</p>${runsSection(data)}</section>`,
    `<footer>Lists are capped (${REPORT_CAPS.sessions} sessions, ${REPORT_CAPS.files} files, ${REPORT_CAPS.pairs} pairs, ${REPORT_CAPS.slowest} slowest tests); history itself keeps the newest 1,000 outcomes. This file loads nothing from the network.</footer>`,
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<title>tailtest report: ${esc(data.project)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body.join("\n")}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
