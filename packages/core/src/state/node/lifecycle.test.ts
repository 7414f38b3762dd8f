import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HistoryFileSchema } from "../history-state.ts";
import { SessionStateSchema, type SessionState } from "../session.ts";
import { endSession, startSession } from "./lifecycle.ts";
import { inspectEdit, openProject, queueEdit, sessionFile } from "../../project/node/project.ts";
import { updateState } from "./store.ts";
import { appendStrictEvents } from "../../strict/node/strict-store.ts";
import { appendTddEntries } from "../../tdd/node/tdd-store.ts";

let project: TempProject;
const clock = () => new Date("2026-11-23T10:00:00.000Z");

beforeEach(() => {
  project = makeProject({
    "pytest.ini": "[pytest]\n",
    "billing.py": "def charge():\n    return 1\n",
  });
});
afterEach(() => project.cleanup());

/** One session in which billing.py is edited and its measured test ends the given way. */
async function runSession(id: string, outcome: "passed" | "failed", attempts = 0): Promise<string> {
  const opened = openProject(project.root);
  const started = await startSession(opened, { sessionId: id, source: "startup", now: clock });
  await queueEdit(
    opened,
    inspectEdit(opened, "billing.py", { status: "new" }),
    sessionFile(opened, clock),
  );
  const fixAttempts: Record<string, number> = attempts === 0 ? {} : { "billing.py": attempts };
  await updateState(sessionFile(opened, clock), (s: SessionState) => ({
    value: {
      ...s,
      results: {
        "billing.py": { outcome, test_path: "tests/test_billing.py", at: clock().toISOString() },
      },
      fix_attempts: fixAttempts,
    },
    result: undefined,
  }));
  await endSession(opened, clock);
  return started.note;
}

const history = () =>
  HistoryFileSchema.parse(
    JSON.parse(readFileSync(join(project.root, ".tailtest/history.json"), "utf8")),
  ).entries;

describe("session lifecycle", () => {
  it("a first session's note lists runners, depth and mode", async () => {
    const started = await startSession(openProject(project.root), {
      sessionId: "s1",
      source: "startup",
      now: clock,
    });
    expect(started.note).toBe(
      "tailtest: session started. Runners: python: pytest (no tests/ folder). Depth: standard. Mode: follow.",
    );
    expect(started).toMatchObject({ resumed: false, flushed: 0, session: { session_id: "s1" } });
  });

  it("last session's failures reach the next session's start", async () => {
    await runSession("s1", "failed", 3);
    const next = await startSession(openProject(project.root), {
      sessionId: "s2",
      source: "startup",
      now: clock,
    });
    expect(next.note).toContain(
      "Previous session failures: billing.py (tests red after 3 fix attempts).",
    );
    expect(next.session.last_failures).toEqual([
      { file: "billing.py", status: "failed", attempts: 3 },
    ]);
    expect(next.session.pending_files).toEqual([]);
    // endSession and the next start both flushed s1: history holds it once.
    expect(history()).toEqual([
      expect.objectContaining({
        file: "billing.py",
        session_id: "s1",
        status: "failed",
        regression: false,
      }),
    ]);
  });

  it("a new session never re-stamps the previous session's entries", async () => {
    await runSession("s1", "passed");
    const [recorded] = history();
    const later = () => new Date("2026-11-24T09:00:00.000Z");
    await startSession(openProject(project.root), {
      sessionId: "s2",
      source: "startup",
      now: later,
    });
    expect(history()).toEqual([recorded]);
    expect(recorded?.timestamp).toBe(clock().toISOString());
  });

  it("a version-1 history file is migrated when next written, nothing lost", async () => {
    const v1 = {
      version: 1,
      entries: [
        {
          file: "a.py",
          status: "passed",
          attempts: 0,
          session_id: "s0",
          timestamp: "2026-01-01T00:00:00.000Z",
          classification: "gap",
        },
        {
          file: "b.py",
          status: "unresolved",
          attempts: 0,
          session_id: "s0",
          timestamp: "2026-01-01T00:00:00.000Z",
          classification: "gap",
        },
        {
          file: "c.py",
          status: "deferred",
          attempts: 0,
          session_id: "s0",
          timestamp: "2026-01-01T00:00:00.000Z",
          classification: "gap",
        },
      ],
    };
    project.write(".tailtest/history.json", JSON.stringify(v1));
    await runSession("s1", "passed");
    const raw = JSON.parse(readFileSync(join(project.root, ".tailtest/history.json"), "utf8"));
    expect(raw.version).toBe(3);
    expect(
      raw.entries.map((e: { file: string; status: string; v1?: { status: string } }) => [
        e.file,
        e.status,
        e.v1?.status,
      ]),
    ).toEqual([
      ["a.py", "passed", "passed"],
      ["b.py", "failed", "unresolved"],
      ["c.py", "not_run", "deferred"],
      ["billing.py", "passed", undefined],
    ]);
    // Nothing was moved aside: the old file was read, not treated as corrupt.
    expect(
      readdirSync(join(project.root, ".tailtest")).filter((n) => n.includes("corrupt")),
    ).toEqual([]);
  });

  it("a file that passed last session and fails now is a regression at the next start", async () => {
    await runSession("s1", "passed");
    await runSession("s2", "failed", 1);
    const next = await startSession(openProject(project.root), {
      sessionId: "s3",
      source: "startup",
      now: clock,
    });
    expect(next.note).toContain("Recent regressions: billing.py (was passing, now failing).");
    expect(history().map((entry) => entry.regression)).toEqual([false, true]);
  });

  it("failures in three sessions are recurring", async () => {
    for (const id of ["s1", "s2", "s3"]) await runSession(id, "failed", 3);
    const next = await startSession(openProject(project.root), {
      sessionId: "s4",
      source: "startup",
      now: clock,
    });
    expect(next.note).toContain(
      "Recurring failures across sessions: billing.py. These files have failed in multiple sessions -- consider adding validation.",
    );
  });

  it("resume and compact keep the same session and its queue", async () => {
    const opened = openProject(project.root);
    await startSession(opened, { sessionId: "s1", source: "startup", now: clock });
    await queueEdit(
      opened,
      inspectEdit(opened, "billing.py", { status: "new" }),
      sessionFile(opened, clock),
    );
    for (const source of ["resume", "compact"] as const) {
      const again = await startSession(opened, { sessionId: "s1", source, now: clock });
      expect(again.resumed).toBe(true);
      expect(again.session.pending_files.map((entry) => entry.path)).toEqual(["billing.py"]);
    }
    const cleared = await startSession(opened, { sessionId: "s1", source: "clear", now: clock });
    expect(cleared.resumed).toBe(false);
    expect(cleared.session.pending_files).toEqual([]);
  });

  it("a config problem is said once per session", async () => {
    project.write(".tailtest/config.json", '{"depth":"deep"}');
    const opened = openProject(project.root);
    const first = await startSession(opened, { sessionId: "s1", source: "startup", now: clock });
    expect(first.note).toContain(
      '"depth" is "deep"; expected one of simple, standard, thorough, adversarial.',
    );
    await queueEdit(
      opened,
      inspectEdit(opened, "billing.py", { status: "new" }),
      sessionFile(opened, clock),
    );
    const resumed = await startSession(opened, { sessionId: "s1", source: "resume", now: clock });
    expect(resumed.note).not.toContain('"depth"');
  });

  it("a corrupt session file is kept aside and the person is told", async () => {
    project.write(".tailtest/session.json", '{"version":1,"session_id":');
    const started = await startSession(openProject(project.root), {
      sessionId: "s1",
      source: "startup",
      now: clock,
    });
    expect(started.recovered).toHaveLength(1);
    expect(started.note).toMatch(
      /tailtest: a state file was unreadable \(the file is not valid JSON\); it was kept as session\.json\.corrupt-[\w-]+ and rebuilt\./,
    );
    const kept = readdirSync(join(project.root, ".tailtest")).filter((name) =>
      name.startsWith("session.json.corrupt-"),
    );
    expect(readFileSync(join(project.root, ".tailtest", kept[0]!), "utf8")).toBe(
      '{"version":1,"session_id":',
    );
  });

  it("an ended session says when it ended, until it resumes", async () => {
    await runSession("s1", "failed");
    const read = async () =>
      SessionStateSchema.parse(
        JSON.parse(readFileSync(join(project.root, ".tailtest/session.json"), "utf8")),
      );
    expect((await read()).ended_at).toBe(clock().toISOString());
    const resumed = await startSession(openProject(project.root), {
      sessionId: "s1",
      source: "resume",
      now: clock,
    });
    expect(resumed.resumed).toBe(true);
    expect((await read()).ended_at).toBeUndefined();
  });

  it("tdd and strict sessions reach history with their cycles and claims, times their own", async () => {
    const at = (minute: number) => `2026-11-23T09:${String(minute).padStart(2, "0")}:00.000Z`;
    project.write(".tailtest/config.json", '{"mode":"tdd"}');
    await startSession(openProject(project.root), {
      sessionId: "t1",
      source: "startup",
      now: clock,
    });
    await appendTddEntries(project.root, "t1", [
      { kind: "red", test: "tests/test_billing.py", expects: "charge adds tax", at: at(1) },
      { kind: "test", command: "pytest", outcome: "failed", at: at(2) },
      { kind: "green", change: "add tax", files: ["billing.py"], at: at(3) },
      { kind: "test", command: "pytest", outcome: "passed", at: at(4) },
    ]);
    // No SessionEnd: the next session's start records it, as it does a follow session.
    project.write(".tailtest/config.json", '{"mode":"strict"}');
    await startSession(openProject(project.root), {
      sessionId: "s2",
      source: "startup",
      now: clock,
    });
    await appendStrictEvents(project.root, [
      {
        type: "edit_claim",
        ts: at(5),
        session: "s2",
        claim: "c1",
        test_id: "t::x",
        edit_target: "billing.py",
      },
      {
        type: "verify_result",
        ts: at(6),
        session: "s2",
        scope: "claim",
        claim: "c1",
        status: "pass",
      },
    ]);
    await endSession(openProject(project.root), clock);
    const file = HistoryFileSchema.parse(
      JSON.parse(readFileSync(join(project.root, ".tailtest/history.json"), "utf8")),
    );
    expect(file.entries).toEqual([]);
    expect(
      file.sessions.map((record) => [
        record.session_id,
        record.mode,
        record.tdd?.cycles.map((cycle) => [cycle.outcome, cycle.completed_at]),
        record.strict?.claims.map((claim) => [claim.claim, claim.outcome, claim.settled_at]),
      ]),
    ).toEqual([
      ["t1", "tdd", [["complete", at(4)]], undefined],
      ["s2", "strict", undefined, [["c1", "verified", at(6)]]],
    ]);
    // Recorded again (a later SessionEnd, the next start): the same records, nothing re-stamped.
    const before = readFileSync(join(project.root, ".tailtest/history.json"), "utf8");
    await endSession(openProject(project.root), () => new Date("2026-11-24T00:00:00.000Z"));
    expect(
      HistoryFileSchema.parse(
        JSON.parse(readFileSync(join(project.root, ".tailtest/history.json"), "utf8")),
      ).sessions.map((record) => record.strict?.claims),
    ).toEqual(HistoryFileSchema.parse(JSON.parse(before)).sessions.map((r) => r.strict?.claims));
  });
});
