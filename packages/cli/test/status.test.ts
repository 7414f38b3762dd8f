import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HistoryViewSchema, ReportDataSchema, StatusReportSchema } from "@tailtest/core";
import { appendTddEntries, handleEvent, openProject } from "@tailtest/core/node";
import { REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CALC, EVIL, makeHistoryProject, makeTestedProject, playSession } from "./sessions.ts";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");
const CLAUDE_CLI = join(REPO_ROOT, "adapters/claude-code/dist/cli.js");
const CODEX_CLI = join(REPO_ROOT, "adapters/codex/dist/cli.js");

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** An empty CODEX_HOME, so no test reads this machine's own Codex config. */
function codexHome(config?: string): string {
  const home = mkdtempSync(join(tmpdir(), "tailtest-codex-home-"));
  if (config !== undefined) writeFileSync(join(home, "config.toml"), config);
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

async function status(root: string, args: string[] = [], env: Record<string, string> = {}) {
  return runBin(BIN, ["status", ...args], {
    cwd: root,
    env: { CODEX_HOME: env["CODEX_HOME"] ?? codexHome(), ...env },
  });
}

async function statusJson(root: string, env: Record<string, string> = {}) {
  const result = await status(root, ["--json"], env);
  expect(result.exitCode).toBe(0);
  const json = JSON.parse(result.stdout) as { root: string };
  expect(json.root).toBe(root);
  return StatusReportSchema.parse(json);
}

function stateSnapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else out[rel] = `${statSync(join(root, rel)).size}:${statSync(join(root, rel)).mtimeMs}`;
    }
  };
  walk(".tailtest");
  return out;
}

describe("tailtest status on a project with nothing yet", () => {
  it("says so for every part, and writes nothing (not even .tailtest/)", async () => {
    const project = await makeTestedProject();
    cleanups.push(project.cleanup);
    const result = await status(project.root);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        "mode      follow (the default)",
        "hooks     Claude Code: not installed",
        "          Cursor: not installed",
        "          Codex: not installed",
        "sessions  none yet: a session starts with an agent's first hook (or tailtest watch)",
        "last run  none yet",
      ].join("\n"),
    );
    expect(readdirSync(project.root)).not.toContain(".tailtest");
  });

  it("--root that is not a folder is a usage error", async () => {
    const result = await runBin(BIN, ["status", "--root", "no/such/folder"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe("tailtest: --root no/such/folder: not a folder");
  });
});

describe("tailtest status in strict with tailtest's copy past its bound", () => {
  it("repeats the Stop's line in problems until the copy is whole", async () => {
    const project = await makeTestedProject();
    cleanups.push(project.cleanup);
    project.write(".tailtest/config.json", '{"mode":"strict"}\n');
    const snapshot = { v: 1, at: "2026-11-27T10:00:00.000Z", files: {} };
    const over = "6000 production files, more than the 5000 it copies";
    project.write(".tailtest/tree-snapshot.json", JSON.stringify({ ...snapshot, over }));
    const line = `tailtest's copy of the production files is incomplete (${over}): without git, a change outside the gate to a file past it is found only by its modification time and cannot be put back.`;
    expect((await statusJson(project.root)).problems).toEqual([line]);
    expect((await status(project.root)).stdout).toContain(`problems  ${line}`);
    project.write(".tailtest/tree-snapshot.json", JSON.stringify(snapshot));
    expect((await statusJson(project.root)).problems).toEqual([]);
  });
});

describe("tailtest status with a session file rewritten behind tailtest's back", () => {
  it("shows the mode tailtest set and says the file was changed", async () => {
    const project = await makeTestedProject();
    cleanups.push(project.cleanup);
    project.write(".tailtest/config.json", '{"mode":"tdd"}\n');
    await handleEvent(
      openProject(project.root),
      { kind: "SessionStarted", sessionId: "s1", source: "startup" },
      { platform: "claude-code" },
    );
    rmSync(join(project.root, ".tailtest/config.json"));
    const path = join(project.root, ".tailtest/session.json");
    const session = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...session, mode: "follow" }));
    const json = await statusJson(project.root);
    expect(json.mode.value).toBe("tdd");
    expect(json.mode.problems.join("\n")).toContain(
      ".tailtest/session.json says follow, but tailtest pinned this session to tdd mode",
    );
  });
});

describe("tailtest status: hooks and Codex trust", () => {
  it("shows which platforms' hooks are installed, and Codex trust pending, then done", async () => {
    const project = await makeTestedProject();
    cleanups.push(project.cleanup);
    for (const cli of [CLAUDE_CLI, CODEX_CLI]) {
      const init = await runBin(cli, ["init"], { cwd: project.root });
      expect(init.exitCode, init.stderr).toBe(0);
    }
    const pending = await statusJson(project.root);
    expect(pending.mode.value).toBe("follow");
    expect(pending.hooks.map((hook) => [hook.platform, hook.installed])).toEqual([
      ["claude-code", true],
      ["cursor", false],
      ["codex", true],
    ]);
    const codex = pending.hooks[2]?.trust;
    expect(codex).toMatchObject({ project: "unknown", trusted: 0, pending: true });
    expect(codex?.handlers).toBeGreaterThanOrEqual(8);
    const text = await status(project.root);
    expect(text.stdout).toContain(
      "          Codex: installed (.codex/hooks.json); trust pending\n",
    );
    expect(text.stdout).toContain("project not trusted yet: accept Codex's trust prompt here");

    // Trust as Codex records it: the project in the user config, each hook under hooks.state.
    const real = realpathSync(project.root);
    const hooks = (
      JSON.parse(readFileSync(join(project.root, ".codex/hooks.json"), "utf8")) as {
        hooks: Record<string, { hooks: { command: string }[] }[]>;
      }
    ).hooks;
    const keys = Object.entries(hooks).flatMap(([event, groups]) =>
      groups.flatMap((group, g) =>
        group.hooks.flatMap((handler, h) =>
          handler.command.includes("@tailtest/codex")
            ? [
                `${real}/.codex/hooks.json:${event.replace(/(?<=[a-z])([A-Z])/g, "_$1").toLowerCase()}:${g}:${h}`,
              ]
            : [],
        ),
      ),
    );
    const trusted = [
      `[projects."${real}"]`,
      'trust_level = "trusted"',
      "",
      ...keys.flatMap((key) => [`[hooks.state."${key}"]`, 'trusted_hash = "sha256:0"', ""]),
    ].join("\n");
    const home = codexHome(trusted);
    const done = await statusJson(project.root, { CODEX_HOME: home });
    expect(done.hooks[2]?.trust).toMatchObject({
      project: "trusted",
      trusted: keys.length,
      pending: false,
    });
    const doneText = await status(project.root, [], { CODEX_HOME: home });
    expect(doneText.stdout).toContain("Codex: installed (.codex/hooks.json); trusted\n");

    // Half the hooks trusted: still pending, and says how many.
    const half = codexHome(
      trusted
        .split("\n")
        .slice(0, 3 + 3 * 4)
        .join("\n"),
    );
    const partly = await statusJson(project.root, { CODEX_HOME: half });
    expect(partly.hooks[2]?.trust).toMatchObject({ trusted: 4, pending: true });

    const broken = codexHome("this is = = not toml");
    const unreadable = await statusJson(project.root, { CODEX_HOME: broken });
    expect(unreadable.hooks[2]?.trust?.lines[0]).toMatch(
      /^project trust unknown: the Codex config cannot be read/,
    );
  }, 60_000);
});

describe("tailtest status after the agent ended its session", () => {
  it("says the session ended, and is live again once the agent resumes it", async () => {
    const project = await makeTestedProject();
    cleanups.push(project.cleanup);
    // Start, edit, end of turn (the tests run), then SessionEnd: all through handleEvent.
    await playSession(project.root, { id: "session-1", calc: true, evil: true }, 1);
    const ended = await statusJson(project.root);
    // The session's clock moves a minute per reading: its end is a few minutes after its start.
    const endedAt = ended.sessions[0]?.ended_at ?? "";
    expect(endedAt).toMatch(/^2026-01-01T09:0\d:00\.000Z$/);
    expect((await status(project.root)).stdout).toMatch(
      /^sessions {2}session-1 \(Claude Code, follow mode, started 2026-01-01 09:0\d UTC, ended 2026-01-01 09:0\d UTC\) in \.tailtest\/session\.json$/m,
    );
    await handleEvent(
      openProject(project.root),
      { kind: "SessionStarted", sessionId: "session-1", source: "resume" },
      { platform: "claude-code", now: () => new Date(Date.UTC(2026, 0, 1, 10, 0)) },
    );
    expect((await statusJson(project.root)).sessions[0]?.ended_at).toBeUndefined();
    expect((await status(project.root)).stdout).toMatch(
      /^sessions {2}session-1 \(Claude Code, follow mode, started 2026-01-01 09:0\d UTC\) in \.tailtest\/session\.json$/m,
    );
  }, 60_000);
});

describe("tailtest status after real sessions", () => {
  let project: TempProject;
  beforeAll(async () => {
    project = await makeHistoryProject();
    // An open session: calc.js fixed, the evil file still red (so it stays queued).
    await playSession(project.root, { id: "session-5", calc: true, evil: false }, 5, true);
    await appendTddEntries(project.root, "session-5", [
      { kind: "red", test: "test/calc.test.js", expects: "adds fails", at: "2026-01-05T09:10:00Z" },
      { kind: "test", command: "node --test", outcome: "failed", at: "2026-01-05T09:11:00Z" },
    ]);
  }, 120_000);
  afterAll(() => project.cleanup());

  it("status, history and report count every session the same way", async () => {
    const fromStatus = await statusJson(project.root);
    const history = HistoryViewSchema.parse(
      JSON.parse((await runBin(BIN, ["history", "--json", "--root", project.root])).stdout),
    );
    const report = ReportDataSchema.parse(
      JSON.parse((await runBin(BIN, ["report", "--json", "--root", project.root])).stdout),
    );
    // Four ended sessions and the open one, in the same order with the same counts.
    expect(history.sessions.map((s) => s.session_id)).toEqual([
      "session-1",
      "session-2",
      "session-3",
      "session-4",
      "session-5",
    ]);
    // The report's sessions are history's, each with its drill-down added.
    expect(report.sessions).toEqual(
      history.sessions.map((session) => expect.objectContaining(session) as unknown),
    );
    const open = history.sessions.at(-1);
    expect(open).toMatchObject({ live: true, counts: { passed: 1, failed: 1 } });
    expect(fromStatus.sessions[0]?.counts).toEqual(open?.counts);
    expect(
      history.sessions.map((s) => [s.counts.passed, s.counts.failed, s.counts.regression]),
    ).toEqual([
      [2, 0, 0],
      [1, 0, 1],
      [1, 1, 0],
      [0, 1, 1],
      [1, 1, 0],
    ]);
    // The files' latest outcomes agree too.
    expect(report.files.map((row) => [row.file, row.class])).toEqual(
      history.files.map((row) => [row.file, row.class]),
    );
    expect(fromStatus.sessions[0]?.results).toEqual(
      Object.fromEntries(
        history.files
          .filter((row) => row.session_id === "session-5")
          .map((row) => [row.file, row.class]),
      ),
    );
  });

  it("shows the session, its queue, each agent's TDD state and the last run", async () => {
    const report = await statusJson(project.root);
    expect(report.sessions).toEqual([
      expect.objectContaining({
        path: ".tailtest/session.json",
        session_id: "session-5",
        platform: "claude-code",
        queue: [expect.objectContaining({ path: EVIL, status: "existing" })],
        results: { [CALC]: "passed", [EVIL]: "failed" },
        stop_blocks: 1,
      }),
    ]);
    expect(report.tdd).toEqual([
      {
        agent_key: "session-5",
        state: "red",
        active: "Red: test/calc.test.js (adds fails)",
        last_test: { outcome: "failed", at: "2026-01-05T09:11:00Z" },
        cycles_completed: 0,
      },
    ]);
    expect(report.last_run).toMatchObject({
      source: "hook",
      status: "failed",
      files: [
        { file: CALC, outcome: "passed" },
        { file: EVIL, outcome: "failed" },
      ],
    });
    const text = (await status(project.root)).stdout;
    expect(text).toContain(
      "sessions  session-5 (Claude Code, follow mode, started 2026-01-05 09:00 UTC) in .tailtest/session.json",
    );
    expect(text).toContain("            this session: 1 passed, 1 failed");
    expect(text).toContain(
      `              ${EVIL} (existing, test test/<script>alert(1)</script>.test.js)`,
    );
    expect(text).toContain(
      "tdd       session-5: red; Red: test/calc.test.js (adds fails); last test failed; 0 cycle(s) completed",
    );
    expect(text).toMatch(
      /last run {2}failed at the end of an agent's turn, 2026-01-05 09:0\d UTC \(node --test, \d+\.\ds\); 1 test\(s\) passed, 1 failed: src\/calc\.js passed, src\/<script>/,
    );
  });

  it("shows a tailtest run newer than the last turn", async () => {
    const run = await runBin(BIN, ["run", CALC], { cwd: project.root });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const report = await statusJson(project.root);
    expect(report.last_run).toMatchObject({
      source: "run",
      status: "passed",
      tests: { passed: 1, failed: 0 },
    });
    expect((await status(project.root)).stdout).toMatch(
      /last run {2}passed by tailtest run, .* \(node --test, \d+\.\ds\); 1 test\(s\) passed, 0 failed/,
    );
  });

  it("writes nothing, and reports an unreadable state file without moving it", async () => {
    const history = join(project.root, ".tailtest/history.json");
    const kept = readFileSync(history, "utf8");
    writeFileSync(history, "{ not json");
    try {
      const before = stateSnapshot(project.root);
      const report = await statusJson(project.root);
      expect(report.problems).toEqual([expect.stringMatching(/^\.tailtest\/history\.json: /)]);
      expect((await status(project.root)).stdout).toMatch(
        /^problems {2}\.tailtest\/history\.json: /m,
      );
      expect(stateSnapshot(project.root)).toEqual(before);
      expect(readFileSync(history, "utf8")).toBe("{ not json");
    } finally {
      writeFileSync(history, kept);
    }
  });

  it("colours on a forced terminal, never with NO_COLOR", async () => {
    const forced = await status(project.root, [], { NO_COLOR: "", FORCE_COLOR: "1" });
    expect(forced.stdout).toContain("\u001b[31mfailed\u001b[39m");
    const plain = await status(project.root, [], { NO_COLOR: "1", FORCE_COLOR: "1" });
    expect(plain.stdout).not.toContain("\u001b[");
  });
});
