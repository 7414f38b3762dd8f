import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ReportDataSchema, type StrictEventInput } from "@tailtest/core";
import { appendStrictEvents, appendTddEntries } from "@tailtest/core/node";
import { REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALC, EVIL, EVIL_TEST, makeHistoryProject } from "./sessions.ts";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");

/** Debian's chromium, installed by .ci/run; never a downloaded browser. */
const CHROMIUM = "/usr/bin/chromium";
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM)
  console.log(
    `report.test.ts: ${CHROMIUM} is missing (apt-get install chromium); the browser check skips`,
  );

/** The flags the report is checked with: headless, no GPU, nothing fetched in the background. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const STRICT_TEST = "test/calc.test.js::adds";
const HASH_A = "a".repeat(64);
const HASH_B = "b".repeat(64);

/** One claim of strict mode from red to verified green, as the hooks and `tailtest claim` log it. */
function strictPair(): StrictEventInput[] {
  const ts = (minute: number) => new Date(Date.UTC(2026, 0, 4, 10, minute)).toISOString();
  const test = {
    id: STRICT_TEST,
    file: "test/calc.test.js",
    segments: ["adds"],
    runner: "node-test" as const,
    source: "native" as const,
  };
  return [
    {
      type: "test_run",
      ts: ts(0),
      test_id: STRICT_TEST,
      test,
      status: "fail",
      fail_reason: "assertion",
      command: "node --test test/calc.test.js",
      duration_ms: 310,
      test_file_hash: HASH_A,
      purpose: "claim",
    },
    { type: "edit_claim", ts: ts(1), claim: "c1", test_id: STRICT_TEST, edit_target: CALC },
    { type: "snapshot", ts: ts(2), claim: "c1", path: CALC, object: HASH_A },
    { type: "edit_applied", ts: ts(3), path: CALC, claims: ["c1"], object: HASH_B },
    {
      type: "test_run",
      ts: ts(4),
      test_id: STRICT_TEST,
      test,
      status: "pass",
      command: "node --test test/calc.test.js",
      duration_ms: 2500,
      test_file_hash: HASH_A,
      purpose: "verify",
    },
    {
      type: "verify_result",
      ts: ts(5),
      scope: "claim",
      claim: "c1",
      status: "pass",
      after: { [CALC]: HASH_B },
    },
  ];
}

let project: TempProject;
let out: string;
beforeAll(async () => {
  project = await makeHistoryProject();
  // session-4's agent did one whole TDD cycle and started another.
  await appendTddEntries(project.root, "session-4", [
    {
      kind: "red",
      test: "test/calc.test.js",
      expects: "adds fails: add subtracts",
      at: "2026-01-04T09:30:00Z",
    },
    { kind: "test", command: "node --test", outcome: "failed", at: "2026-01-04T09:31:00Z" },
    { kind: "green", change: "add adds", files: [CALC], at: "2026-01-04T09:32:00Z" },
    { kind: "test", command: "node --test", outcome: "passed", at: "2026-01-04T09:33:00Z" },
    { kind: "red", test: EVIL_TEST, expects: "evil is one", at: "2026-01-04T09:34:00Z" },
  ]);
  await appendStrictEvents(project.root, strictPair());
  // Two real runs for the run log (the slowest tests).
  for (const file of [CALC, EVIL]) await runBin(BIN, ["run", file], { cwd: project.root });
  out = join(mkdtempSync(join(tmpdir(), "tailtest-report-")), "report.html");
  const result = await runBin(BIN, ["report", "--out", out], { cwd: project.root });
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toBe(`wrote ${out}`);
}, 120_000);
afterAll(() => {
  project.cleanup();
  rmSync(join(out, ".."), { recursive: true, force: true });
});

describe("tailtest report", () => {
  it("writes one self-contained page with every name escaped", () => {
    const html = readFileSync(out, "utf8");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/https?:/);
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("src/&lt;script&gt;alert(1)&lt;/script&gt;.js");
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it("--json gives the page's data, and the default path is .tailtest/report.html", async () => {
    const json = await runBin(BIN, ["report", "--json"], { cwd: project.root });
    const data = ReportDataSchema.parse(JSON.parse(json.stdout));
    expect(data.sessions_total).toBe(4);
    expect(data.recurring.map((row) => row.file)).toEqual([EVIL]);
    expect(data.regressions.map((row) => row.file)).toEqual([CALC]);
    expect(data.tdd).toEqual([
      expect.objectContaining({ agent_key: "session-4", completed: 1, open: 1 }),
    ]);
    expect(data.strict).toMatchObject({
      triples: 1,
      pairs: [{ test_id: STRICT_TEST, edits: [CALC] }],
    });
    // The strict check's 2.5 s is its process's time, not the test's: never a slowest test.
    expect(data.slowest.some((test) => test.max_ms === 2500)).toBe(false);
    expect(
      data.slowest.some(
        (test) => test.id.startsWith("test/calc.test.js::") && test.runner === "node-test",
      ),
    ).toBe(true);
    const written = await runBin(BIN, ["report"], { cwd: project.root });
    expect(written.stdout).toBe("wrote .tailtest/report.html");
    expect(existsSync(join(project.root, ".tailtest/report.html"))).toBe(true);
  });

  it("--out makes only its own file's missing folder, with a note; a deeper missing path is refused", async () => {
    const base = mkdtempSync(join(tmpdir(), "tailtest-out-"));
    try {
      const one = await runBin(BIN, ["report", "--out", join(base, "new/report.html")], {
        cwd: project.root,
      });
      expect(one.exitCode).toBe(0);
      expect(one.stderr).toMatch(/^tailtest: created the folder .*new for the report$/);
      expect(existsSync(join(base, "new/report.html"))).toBe(true);
      const deep = await runBin(BIN, ["report", "--out", join(base, "a/b/report.html")], {
        cwd: project.root,
      });
      expect(deep.exitCode).toBe(2);
      expect(deep.stderr).toBe(
        `tailtest: --out ${join(base, "a/b/report.html")}: the folder ${join(base, "a")} does not exist`,
      );
      expect(existsSync(join(base, "a"))).toBe(false);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it("says so when it cannot write, and exits 1", async () => {
    const result = await runBin(
      BIN,
      ["report", "--out", join(project.root, "src/calc.js/report.html")],
      {
        cwd: project.root,
      },
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^tailtest: cannot write .*report\.html \(E[A-Z]+\)$/);
  });

  it.skipIf(!HAVE_CHROMIUM)(
    "renders in headless Chromium: the chart, the rows, the escaped name, no network",
    async () => {
      const profile = mkdtempSync(join(tmpdir(), "tailtest-chromium-"));
      let context: BrowserContext | undefined;
      try {
        context = await chromium.launchPersistentContext(profile, {
          executablePath: CHROMIUM,
          headless: true,
          args: CHROMIUM_ARGS,
        });
        const page = context.pages()[0] ?? (await context.newPage());
        const url = pathToFileURL(out).href;
        const requests: string[] = [];
        const problems: string[] = [];
        page.on("request", (request) => requests.push(request.url()));
        page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
        page.on("console", (message) => {
          if (message.type() === "error") problems.push(`console: ${message.text()}`);
        });
        page.on("dialog", (dialog) => {
          problems.push(`dialog: ${dialog.message()}`);
          void dialog.dismiss();
        });
        await page.goto(url);
        // The page's own script ran (the CSP let it, by its hash) and marked the page ready.
        await page.waitForSelector("html[data-ready=true]", { timeout: 10_000 });

        const bars = page.locator("#chart g.bar");
        const seenBars = [];
        for (const bar of await bars.all()) {
          seenBars.push({
            session: await bar.getAttribute("data-session"),
            passed: Number(await bar.getAttribute("data-passed")),
            failed: Number(await bar.getAttribute("data-failed")),
            height: (await bar.boundingBox())?.height ?? 0,
          });
        }
        expect(seenBars).toEqual([
          { session: "session-1", passed: 2, failed: 0, height: expect.any(Number) },
          { session: "session-2", passed: 1, failed: 1, height: expect.any(Number) },
          { session: "session-3", passed: 1, failed: 1, height: expect.any(Number) },
          { session: "session-4", passed: 0, failed: 2, height: expect.any(Number) },
        ]);
        for (const bar of seenBars) expect(bar.height).toBeGreaterThan(10);
        // Red tests: a regression in session 2 and 4 (each passed the session before), failed ones.
        expect(await page.locator("#chart rect.seg-regression").count()).toBe(2);
        expect(await page.locator("#chart rect.seg-failed").count()).toBe(2);
        expect((await page.locator("#chart").boundingBox())?.width ?? 0).toBeGreaterThan(300);
        // The file name is shown as text, exactly: nothing of it became markup.
        expect(await page.locator("#recurring tbody tr td.name").allTextContents()).toEqual([EVIL]);
        expect(
          await page.locator("#regressions tbody tr td:first-child").allTextContents(),
        ).toEqual([CALC]);
        expect(await page.locator("script").count()).toBe(1);
        expect(await page.locator("img").count()).toBe(0);
        expect(await page.locator("#sec-tdd tr.cycle-complete").count()).toBe(1);
        expect(await page.locator("#pairs tbody tr td:first-child").allTextContents()).toEqual([
          STRICT_TEST,
        ]);
        // Slowest tests are the tests' own times: not the strict check's 2.5 s whole process.
        const slowest = await page.locator("#slowest tbody tr td:nth-child(2)").allTextContents();
        expect(slowest.length).toBeGreaterThan(0);
        expect(slowest).not.toContain("2.50 s");

        // Drill-down without script: session-4's fold, then why the evil file failed.
        const session4 = page.locator('details.session[data-session="session-4"]');
        expect(await session4.locator("pre.excerpt").first().isVisible()).toBe(false);
        await session4.locator("summary").first().click();
        const why = session4.locator(`details.why[data-why="${EVIL}"]`);
        await why.locator("summary").first().click();
        expect(await why.locator(".ev").allTextContents()).toEqual(["name"]);
        const failure = why.locator("details.failure").first();
        await failure.locator("summary").click();
        expect(await failure.locator("pre.excerpt").isVisible()).toBe(true);
        expect(await failure.locator("pre.excerpt").textContent()).toMatch(/strictly equal/);
        // session-4's TDD cycles are in its fold too.
        expect(await session4.locator("tr.cycle-complete").count()).toBe(1);
        // Everything open for the width checks below: the drill-down must fit a phone as well.
        await page.evaluate(
          'document.querySelectorAll("details").forEach((d) => { d.open = true; })',
        );
        expect(await page.title()).toBe(`tailtest report: ${project.root.split("/").at(-1) ?? ""}`);
        expect(await page.locator("#recurring").isVisible()).toBe(true);

        // The filter box (the page's script) hides the rows that do not match.
        await page.fill("#filter", "<script>");
        const rows = page.locator("#files tbody tr");
        expect(await rows.count()).toBe(2);
        expect(await rows.filter({ visible: true }).count()).toBe(1);
        expect(await rows.filter({ visible: true }).getAttribute("data-file")).toBe(EVIL);
        expect(await page.locator("#filter-count").textContent()).toBe("1 of 2 files shown");

        // Two widths, a phone's and a desktop's: the page never scrolls sideways (only a table's
        // own box may), every section fits the width, and the full-page screenshot is as wide as
        // the window. Layout, not pixels.
        for (const width of [360, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          // A string: the browser's globals are not in this package's types.
          const layout = await page.evaluate<{
            scroll: number;
            sections: { id: string; left: number; right: number }[];
          }>(`({
            scroll: document.documentElement.scrollWidth,
            sections: [...document.querySelectorAll("header, section, footer")].map((el) => {
              const box = el.getBoundingClientRect();
              return { id: el.id || el.tagName, left: box.left, right: box.right };
            }),
          })`);
          expect(layout.scroll, `page width at ${width} px`).toBeLessThanOrEqual(width);
          for (const section of layout.sections) {
            expect(section.left, `${section.id} at ${width} px`).toBeGreaterThanOrEqual(0);
            expect(section.right, `${section.id} at ${width} px`).toBeLessThanOrEqual(width);
          }
          const shot = await page.screenshot({ fullPage: true });
          // A PNG's width is the big-endian number at byte 16.
          expect(shot.readUInt32BE(16), `screenshot width at ${width} px`).toBe(width);
          const chart = await page.locator("#chart").boundingBox();
          expect(chart?.width ?? 0).toBeGreaterThan(width / 2);
        }

        expect(problems).toEqual([]);
        expect(requests).toEqual([url]);
      } finally {
        await context?.close();
        rmSync(profile, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
