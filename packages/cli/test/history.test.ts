import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { HistoryViewSchema } from "@tailtest/core";
import { REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALC, EVIL, makeHistoryProject, playSession, SESSION_PLAN } from "./sessions.ts";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");

/** Every file under `.tailtest/` with its size and modification time. */
function stateSnapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else {
        const info = statSync(join(root, rel));
        out[rel] = `${info.size}:${info.mtimeMs}`;
      }
    }
  };
  walk(".tailtest");
  return out;
}

let project: TempProject;
beforeAll(async () => {
  project = await makeHistoryProject();
}, 120_000);
afterAll(() => project.cleanup());

describe("tailtest history", () => {
  it("lists files across sessions, the regression and the recurring failure first", async () => {
    const result = await runBin(BIN, ["history"], { cwd: project.root });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe("2 files over 4 sessions");
    expect(lines).toContain(`regressions (passed before, failing now): ${CALC}`);
    expect(lines).toContain(`recurring failures (3+ sessions): ${EVIL}`);
    const rows = lines.filter((line) => line.startsWith("src/"));
    expect(rows[0]).toMatch(
      /^src\/calc\.js\s+regression\s+4\s+1\s+PPPR\s+2026-01-04 09:\d\d\s+REGRESSION$/,
    );
    expect(rows[1]).toMatch(
      /^src\/<script>alert\(1\)<\/script>\.js\s+failed\s+4\s+3\s+PRXX\s+.*RECURRING$/,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^session-4\s+follow\s+2026-01-04 09:\d\d\s+1 failed, 1 regression$/),
    );
    expect(result.stdout).not.toContain("\u001b[");
  });

  it("--json gives every file and session in the schema", async () => {
    const result = await runBin(BIN, ["history", "--json", "--root", project.root]);
    expect(result.exitCode).toBe(0);
    const view = HistoryViewSchema.parse(JSON.parse(result.stdout));
    expect(view.sessions.map((session) => session.session_id)).toEqual(
      SESSION_PLAN.map((s) => s.id),
    );
    expect(view.regressions).toEqual([CALC]);
    expect(view.recurring).toEqual([EVIL]);
    expect(
      view.sessions.map((s) => [s.counts.passed, s.counts.failed, s.counts.regression]),
    ).toEqual([
      [2, 0, 0],
      [1, 0, 1],
      [1, 1, 0],
      [0, 1, 1],
    ]);
  });

  it("--limit cuts the table and says so; a bad --limit is a usage error", async () => {
    const cut = await runBin(BIN, ["history", "--limit", "1"], { cwd: project.root });
    expect(cut.stdout).toContain("(1 of 2 files shown; --limit <n> or --json for more)");
    expect(cut.stdout).not.toMatch(/^src\/<script>/m);
    const bad = await runBin(BIN, ["history", "--limit", "none"], { cwd: project.root });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("--limit must be a whole number");
  });

  it("colours only when asked: FORCE_COLOR on, NO_COLOR off (NO_COLOR wins)", async () => {
    const forced = await runBin(BIN, ["history"], {
      cwd: project.root,
      env: { NO_COLOR: "", FORCE_COLOR: "1" },
    });
    expect(forced.stdout).toContain("\u001b[31mREGRESSION\u001b[39m");
    const both = await runBin(BIN, ["history"], {
      cwd: project.root,
      env: { NO_COLOR: "1", FORCE_COLOR: "1" },
    });
    expect(both.stdout).not.toContain("\u001b[");
  });

  it("writes nothing: .tailtest/ stays byte for byte", async () => {
    const before = stateSnapshot(project.root);
    const history = readFileSync(join(project.root, ".tailtest/history.json"), "utf8");
    for (const args of [["history"], ["history", "--json"]]) {
      expect((await runBin(BIN, args, { cwd: project.root })).exitCode).toBe(0);
    }
    expect(stateSnapshot(project.root)).toEqual(before);
    expect(readFileSync(join(project.root, ".tailtest/history.json"), "utf8")).toBe(history);
  });
});

describe("tailtest history with an open session", () => {
  it("shows the open session's outcomes, marked open, and leaves history.json alone", async () => {
    const fresh = await makeHistoryProject();
    try {
      await playSession(fresh.root, { id: "session-5", calc: true, evil: true }, 5, true);
      const history = readFileSync(join(fresh.root, ".tailtest/history.json"), "utf8");
      const result = await runBin(BIN, ["history", "--json"], { cwd: fresh.root });
      const view = HistoryViewSchema.parse(JSON.parse(result.stdout));
      expect(view.sessions.at(-1)).toMatchObject({
        session_id: "session-5",
        counts: { passed: 2 },
        live: true,
      });
      expect(view.files.find((row) => row.file === CALC)).toMatchObject({ status: "passed" });
      // calc.js passes again: no regression is left.
      expect(view.regressions).toEqual([]);
      const text = await runBin(BIN, ["history"], { cwd: fresh.root });
      expect(text.stdout.split("\n")[0]).toBe("2 files over 5 sessions (1 still open)");
      expect(readFileSync(join(fresh.root, ".tailtest/history.json"), "utf8")).toBe(history);
      expect(history).not.toContain("session-5");
    } finally {
      fresh.cleanup();
    }
  }, 120_000);
});
