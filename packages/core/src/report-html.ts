import { createHash } from "node:crypto";
import type { HistoryFileRow, HistorySession } from "./history-view.ts";
import { REPORT_CAPS, type ReportData } from "./report.ts";
import type { TddCycle } from "./tdd/cycles.ts";

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

const STATUS_KEYS = ["passed", "fixed", "unresolved", "deferred"] as const;
type StatusKey = (typeof STATUS_KEYS)[number];

// ---------------------------------------------------------------------------------------------
// chart

const CHART = { width: 760, height: 220, left: 36, bottom: 28, top: 12, right: 8 };

/** Stacked bars per session, oldest left: passed, fixed, unresolved, deferred files. */
function renderChart(sessions: readonly HistorySession[]): string {
  if (sessions.length === 0)
    return '<p class="empty" id="chart-empty">No sessions in history yet.</p>';
  const plotW = CHART.width - CHART.left - CHART.right;
  const plotH = CHART.height - CHART.top - CHART.bottom;
  const totals = sessions.map((s) => STATUS_KEYS.reduce((sum, key) => sum + s[key], 0));
  const max = Math.max(1, ...totals);
  const slot = plotW / sessions.length;
  const barW = Math.max(2, Math.min(40, slot * 0.7));
  const y = (value: number) => CHART.top + plotH - (value / max) * plotH;
  const bars = sessions.map((session, index) => {
    const x = CHART.left + index * slot + (slot - barW) / 2;
    let base = 0;
    const rects = STATUS_KEYS.filter((key) => session[key] > 0).map((key) => {
      const top = y(base + session[key]);
      const height = y(base) - top;
      base += session[key];
      return `<rect class="seg seg-${key}" x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${barW.toFixed(1)}" height="${height.toFixed(1)}"><title>${esc(session.session_id)}: ${session[key]} ${key}</title></rect>`;
    });
    const label = `${esc(session.session_id)}: ${STATUS_KEYS.map((key) => `${session[key]} ${key}`).join(", ")}`;
    return `<g class="bar" data-session="${esc(session.session_id)}" data-passed="${session.passed + session.fixed}" data-failed="${session.unresolved + session.deferred}" aria-label="${label}">${rects.join("")}</g>`;
  });
  const ticks = [0, Math.round(max / 2), max]
    .filter((value, index, all) => all.indexOf(value) === index)
    .map(
      (value) =>
        `<g class="tick"><line x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}"/><text x="${CHART.left - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${value}</text></g>`,
    );
  const first = sessions[0];
  const last = sessions.at(-1);
  const axis =
    first === undefined || last === undefined
      ? ""
      : `<text class="axis" x="${CHART.left}" y="${CHART.height - 8}">${when(first.first_at)}</text><text class="axis" x="${CHART.width - CHART.right}" y="${CHART.height - 8}" text-anchor="end">${when(last.last_at)}</text>`;
  const legend = STATUS_KEYS.map(
    (key) => `<span class="key"><i class="swatch seg-${key}"></i>${key}</span>`,
  ).join("");
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
  return `<table id="${id}"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function statusCell(status: StatusKey): string {
  return `<td><span class="pill st-${status}">${status}</span></td>`;
}

function timeline(statuses: readonly StatusKey[]): string {
  return statuses.map((status) => `<i class="dot st-${status}" title="${status}"></i>`).join("");
}

function flags(row: HistoryFileRow): string {
  return [
    ...(row.regression ? ['<span class="flag flag-regression">regression</span>'] : []),
    ...(row.recurring ? ['<span class="flag flag-recurring">recurring</span>'] : []),
  ].join(" ");
}

function fileRow(row: HistoryFileRow): string {
  const cls = [row.regression ? "regression" : "", row.recurring ? "recurring" : ""]
    .filter((c) => c !== "")
    .join(" ");
  return `<tr class="${cls}" data-file="${esc(row.file)}"><td class="name">${esc(row.file)}</td>${statusCell(row.status)}<td>${row.classification}</td><td class="num">${row.sessions}</td><td class="num">${row.failed_sessions}</td><td class="timeline">${timeline(row.timeline)}</td><td>${when(row.timestamp)}</td><td>${flags(row)}</td></tr>`;
}

function sessionRow(session: HistorySession): string {
  const live = session.live ? ' <span class="flag">open</span>' : "";
  return `<tr><td class="name">${esc(session.session_id)}${live}</td><td>${when(session.last_at)}</td>${STATUS_KEYS.map((key) => `<td class="num st-text-${key}">${session[key]}</td>`).join("")}<td class="num">${session.regressions}</td></tr>`;
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
    "No test durations yet: they come from tailtest run, tailtest watch and strict mode's runs.",
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
      ["When", "By", "Result", "Passed", "Failed", "Time"],
      rows,
      "No runs of tailtest run or tailtest watch recorded.",
    ) + capNote(data.runs.length, data.runs_total, "runs")
  );
}

// ---------------------------------------------------------------------------------------------
// page

const STYLE = `
:root{--fg:#1d2330;--muted:#667085;--bg:#fff;--line:#e4e7ec;--card:#f7f8fa;
--passed:#2e9d5b;--fixed:#3a7bd5;--unresolved:#d64545;--deferred:#d8a21b}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ef;--muted:#98a2b3;--bg:#12151c;--line:#2a303c;--card:#1a1f29}}
*{box-sizing:border-box}body{margin:0;padding:24px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto}h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:14px;margin:16px 0 6px}
.muted,.cap,.empty{color:var(--muted)}.cap{font-size:12px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 14px;min-width:120px}.card b{display:block;font-size:20px}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}th{font-size:12px;color:var(--muted);font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}.name{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px;word-break:break-all}
.pill{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;color:#fff;background:var(--muted)}
.st-passed,.out-complete,.run-passed{background:var(--passed)}.st-fixed{background:var(--fixed)}.st-unresolved,.run-failed,.run-error{background:var(--unresolved)}.st-deferred,.out-open{background:var(--deferred)}
.st-text-unresolved{color:var(--unresolved)}.st-text-passed{color:var(--passed)}
.dot{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:2px}
.flag{display:inline-block;font-size:11px;padding:0 6px;border-radius:4px;border:1px solid var(--line)}.flag-regression{border-color:var(--unresolved);color:var(--unresolved)}.flag-recurring{border-color:var(--deferred);color:var(--deferred)}
tr.regression td.name{color:var(--unresolved)}
#chart{width:100%;height:auto;max-height:260px}.seg-passed{fill:var(--passed);background:var(--passed)}.seg-fixed{fill:var(--fixed);background:var(--fixed)}.seg-unresolved{fill:var(--unresolved);background:var(--unresolved)}.seg-deferred{fill:var(--deferred);background:var(--deferred)}
.tick line{stroke:var(--line)}.tick text,.axis{fill:var(--muted);font-size:11px}
.legend{display:flex;gap:14px;font-size:12px;color:var(--muted)}.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px}
.barcell{width:30%}.hbar{display:block;height:8px;border-radius:4px;background:var(--fixed)}
#filter{padding:5px 8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);width:280px}
footer{margin-top:40px;color:var(--muted);font-size:12px}
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
      : `<p>Latest session <span class="name">${esc(latest.session_id)}</span>: ${STATUS_KEYS.map((key) => `${latest[key]} ${key}`).join(", ")}.</p>`;
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
          `<tr data-file="${esc(row.file)}"><td class="name">${esc(row.file)}</td>${statusCell(row.status)}<td class="name">${esc(row.session_id)}</td><td>${when(row.timestamp)}</td></tr>`,
      ),
      "No regressions: no file that passed before fails now.",
    )}</section>`,
    `<section id="sec-sessions"><h2>Sessions</h2>${table("sessions", ["Session", "Recorded", "Passed", "Fixed", "Unresolved", "Deferred", "Regressions"], sessions, "No sessions in history yet.")}${capNote(data.sessions.length, data.sessions_total, "sessions")}</section>`,
    `<section id="sec-files"><h2>Files</h2><p><input id="filter" type="search" placeholder="Filter files" aria-label="Filter files"> <span id="filter-count" class="muted"></span></p>${table("files", ["File", "Last", "Classification", "Sessions", "Failed", "Timeline", "Last seen", ""], data.files.map(fileRow), "No files in history yet.")}${capNote(data.files.length, data.files_total, "files")}</section>`,
    `<section id="sec-tdd"><h2>TDD cycles</h2>${tddSection(data)}</section>`,
    `<section id="sec-strict"><h2>Strict mode: red→green pairs</h2>${strictSection(data)}</section>`,
    `<section id="sec-slowest"><h2>Slowest tests</h2>${slowestSection(data)}</section>`,
    `<section id="sec-runs"><h2>CLI runs</h2>${runsSection(data)}</section>`,
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
