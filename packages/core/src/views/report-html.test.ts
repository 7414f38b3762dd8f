import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { emptyHistory, recordOutcomes, type HistoryFile } from "../state/history-state.ts";
import { buildReport, REPORT_CAPS, type ReportInput } from "./report-data.ts";
import { countTicks, escapeHtml, renderReportHtml } from "./report-html.ts";
import { emptyRunLog, summariseRunRecord } from "../state/run-log.ts";

const EVIL = 'src/<script>alert("x")</script>&<img src=x onerror=alert(1)>.py';

function historyOf(sessions: number, files: readonly string[]): HistoryFile {
  let history = emptyHistory();
  for (let i = 0; i < sessions; i += 1) {
    history = recordOutcomes(
      history,
      files.map((file, index) => ({
        file,
        status: index === 0 && i > 0 ? ("failed" as const) : ("passed" as const),
        attempts: 0,
        session_id: `s${i}`,
        timestamp: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      })),
    );
  }
  return history;
}

function render(
  sessions: number,
  files: readonly string[] = [EVIL, "src/ok.py"],
  extra: Partial<ReportInput> = {},
) {
  const history = historyOf(sessions, files);
  return renderReportHtml(
    buildReport({
      project: "demo <&> project",
      generatedAt: "2026-02-01T00:00:00.000Z",
      version: "0.1.0",
      history: { entries: history.entries, live: [], records: [] },
      runLog: emptyRunLog(),
      tdd: [],
      strictEvents: [],
      ...extra,
    }),
  );
}

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });
});

describe("renderReportHtml", () => {
  const html = render(4);

  it("escapes every file name: no tag of the user's ends up in the page", () => {
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
    expect(html).toContain(
      "src/&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&lt;img src=x onerror=alert(1)&gt;.py",
    );
    expect(html).toContain("<title>tailtest report: demo &lt;&amp;&gt; project</title>");
    // Exactly one script element: the page's own.
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it("loads nothing: no URL, no external resource, and a policy that forbids them", () => {
    // Attribute values are escaped data (a file name may say "src=x"): looked at without them.
    const markup = html.replace(/="[^"]*"/g, '=""');
    expect(markup).not.toMatch(
      /https?:|\/\/[a-z]|\burl\(|@import|<link|<iframe|<object|<embed|<[^>]*\s(src|href)=/i,
    );
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(policy).toContain("default-src &#39;none&#39;");
    // The policy allows exactly the inline script that is in the page, by its hash.
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? "";
    const hash = createHash("sha256").update(script).digest("base64");
    expect(policy).toContain(`script-src &#39;sha256-${hash}&#39;`);
  });

  it("draws one bar per session with its counts", () => {
    const bars = [
      ...html.matchAll(
        /<g class="bar" data-session="([^"]+)" data-passed="(\d+)" data-failed="(\d+)"/g,
      ),
    ];
    expect(bars.map((bar) => [bar[1], Number(bar[2]), Number(bar[3])])).toEqual([
      ["s0", 2, 0],
      ["s1", 1, 1],
      ["s2", 1, 1],
      ["s3", 1, 1],
    ]);
  });

  it("lists the recurring failure and says when lists are cut", () => {
    expect(html).toMatch(/<table id="recurring">[\s\S]*src\/&lt;script&gt;[\s\S]*3 sessions/);
    expect(html).not.toContain('data-cap="sessions"');
    const capped = render(REPORT_CAPS.sessions + 5, ["src/a.py"]);
    expect(capped).toContain(
      `Showing ${REPORT_CAPS.sessions} of ${REPORT_CAPS.sessions + 5} sessions`,
    );
    expect(capped.match(/<g class="bar"/g)).toHaveLength(REPORT_CAPS.sessions);
  });

  it("says plainly when there is nothing yet", () => {
    const empty = render(0);
    expect(empty).toContain('id="chart-empty"');
    expect(empty).toContain('id="tdd-empty"');
    expect(empty).toContain('id="pairs-empty"');
    expect(empty).toContain('id="slowest-empty"');
  });

  it("is the same page for the same data", () => {
    expect(render(4)).toBe(html);
  });
});

describe("the chart's axes", () => {
  it.each<[number, number[]]>([
    [0, [0, 1]],
    [1, [0, 1]],
    [2, [0, 1, 2]],
    [3, [0, 1, 2, 3]],
    [5, [0, 1, 2, 3, 4, 5]],
    [7, [0, 2, 4, 6, 8]],
    [23, [0, 5, 10, 15, 20, 25]],
    [180, [0, 50, 100, 150, 200]],
  ])("counts up to %i: whole-number ticks with no gaps, %j", (max, ticks) => {
    expect(countTicks(max)).toEqual(ticks);
  });

  it("labels the y-axis 0 and 1 for one file (no value skipped)", () => {
    const one = render(1, ["src/a.py"]);
    const labels = [...one.matchAll(/<g class="tick">.*?<text[^>]*>(\d+)<\/text><\/g>/g)].map(
      (m) => m[1],
    );
    expect(labels).toEqual(["0", "1"]);
  });

  it("with one session prints its time once, under its bar", () => {
    const one = render(1, ["src/a.py"]);
    expect(one.match(/<text class="axis"/g)).toHaveLength(1);
    expect(render(3, ["src/a.py"]).match(/<text class="axis"/g)).toHaveLength(2);
  });
});

describe("the runs section", () => {
  it("is every test run, labelled by who made it, not only the CLI's", () => {
    const html = render(1);
    expect(html).toContain('<section id="sec-runs"><h2>Test runs</h2>');
    expect(html).not.toContain("CLI runs");
  });

  it("folds each session's why into <details>: evidence, failing tests, escaped excerpts", () => {
    const record = summariseRunRecord({
      at: "2026-01-04T00:00:00.000Z",
      source: "hook",
      status: "failed",
      files: [EVIL],
      results: [
        {
          runner: "pytest",
          cwd: "",
          command: ["pytest"],
          status: "failed",
          exit_code: 1,
          duration_ms: 10,
          tests: [
            {
              id: { runner: "pytest", file: "tests/test_evil.py", segments: ["test_it"] },
              status: "fail",
              failure: "assert '<b>' == 1",
            },
          ],
          errors: [],
          reason: "",
          output_tail: "",
        },
      ],
      missing: [],
      sessionId: "s3",
      selected: new Map([
        [EVIL, [{ path: "tests/test_evil.py", evidence: "name", detail: "its name", hops: 0 }]],
      ]),
    });
    const page = render(4, [EVIL, "src/ok.py"], { runLog: { version: 1, runs: [record] } });
    const details = /<details class="session" data-session="s3"[\s\S]*?<\/details><\/td>/.exec(
      page,
    )?.[0];
    expect(details).toContain('<span class="ev" title="its name">name</span>');
    expect(details).toContain('<summary class="name">tests/test_evil.py::test_it</summary>');
    expect(details).toContain('<pre class="excerpt">assert &#39;&lt;b&gt;&#39; == 1</pre>');
    expect(page).not.toContain("'<b>'");
    // Every session has its own fold; a file no logged run of its session tested says so.
    expect(page.match(/<details class="session"/g)).toHaveLength(4);
    expect(page).toContain("no run of this session is logged");
  });
});
