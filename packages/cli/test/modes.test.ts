import { join } from "node:path";
import { HistoryViewSchema, ReportDataSchema, StatusReportSchema } from "@tailtest/core";
import { REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALC, EVIL, makeModesProject, MODE_SESSIONS } from "./sessions.ts";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");

let project: TempProject;
beforeAll(async () => {
  project = await makeModesProject();
}, 120_000);
afterAll(() => project.cleanup());

async function json(command: string): Promise<unknown> {
  const result = await runBin(BIN, [command, "--json"], { cwd: project.root });
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout);
}

/** What every view says of a session: its mode, its file counts, its cycles and claims. */
const said = (session: {
  session_id: string;
  mode?: string | undefined;
  counts: unknown;
  tdd?: unknown;
  strict?: unknown;
}) => ({
  session_id: session.session_id,
  mode: session.mode,
  counts: session.counts,
  tdd: session.tdd,
  strict: session.strict,
});

describe("a follow, a tdd and a strict session", () => {
  it("reach history, status and the report, and all three say the same of each", async () => {
    const history = HistoryViewSchema.parse(await json("history"));
    const report = ReportDataSchema.parse(await json("report"));
    const status = StatusReportSchema.parse(await json("status"));

    expect(history.sessions.map(said)).toEqual(report.sessions.map(said));
    expect(history.sessions.map((s) => [s.session_id, s.mode, s.live])).toEqual([
      [MODE_SESSIONS[0], "follow", false],
      [MODE_SESSIONS[1], "tdd", false],
      // Still open: status reads it from its session file, history and the report the same way.
      [MODE_SESSIONS[2], "strict", true],
    ]);
    const [follow, tdd, strict] = history.sessions;
    expect(follow?.counts).toMatchObject({ passed: 1, failed: 1 });
    expect(tdd?.tdd).toEqual({ total: 2, complete: 1, open: 1, replaced: 0, skip_red: 1 });
    expect(strict?.strict).toEqual({ total: 2, verified: 1, reverted: 0, escalated: 1, open: 0 });

    // status shows the session files it finds: the open strict session, counted the same way.
    expect(status.sessions.map(said)).toEqual(
      history.sessions.filter((s) => s.session_id === MODE_SESSIONS[2]).map(said),
    );

    // The report's drill-down: the tdd session's cycles with their times, the strict claims.
    const tddDetail = report.sessions.find((s) => s.session_id === MODE_SESSIONS[1]);
    expect(tddDetail?.cycles.map((c) => [c.outcome, c.green?.skip_red ?? null])).toEqual([
      ["complete", null],
      ["open", "refactoring"],
    ]);
    expect(tddDetail?.cycles[0]?.completed_at).toBe("2026-02-02T10:04:00.000Z");
    const strictDetail = report.sessions.find((s) => s.session_id === MODE_SESSIONS[2]);
    expect(strictDetail?.claims.map((c) => [c.targets, c.outcome, c.reverts])).toEqual([
      [[CALC], "verified", 0],
      [[EVIL], "escalated", 1],
    ]);
    // …and the follow session's failing file, with the test that failed and its excerpt.
    const evil = report.sessions
      .find((s) => s.session_id === MODE_SESSIONS[0])
      ?.file_rows.find((row) => row.file === EVIL);
    expect(evil?.class).toBe("failed");
    expect(evil?.why?.selected.map((test) => test.evidence)).toEqual(["name"]);
    expect(evil?.why?.failing[0]?.failure).toMatch(/Expected values to be strictly equal/);
    expect(evil?.why?.failing[0]?.failure).not.toContain(project.root);
  });

  it("says the modes and their counts in words", async () => {
    const history = await runBin(BIN, ["history"], { cwd: project.root });
    expect(history.stdout).toMatch(
      /tdd-2\s+tdd\s+2026-02-02 10:\d\d\s+TDD cycles: 1 complete, 1 open \(1 skip-red\)/,
    );
    expect(history.stdout).toMatch(
      /strict-3 \(open\)\s+strict\s+2026-02-03 10:\d\d\s+strict claims: 1 verified, 1 escalated/,
    );
    const status = await runBin(BIN, ["status"], { cwd: project.root });
    expect(status.stdout).toContain("this session: strict claims: 1 verified, 1 escalated");
  });
});
