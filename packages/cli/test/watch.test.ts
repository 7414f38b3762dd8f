import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HistoryFileSchema, RunLogSchema } from "@tailtest/core";
import { REPO_ROOT, runBin, type TempProject } from "@tailtest/test-utils";
import { readSession } from "@tailtest/test-utils/session";
import { afterEach, describe, expect, it } from "vitest";
import { CALC, makeTestedProject, playSession } from "./sessions.ts";

const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");

interface Watcher {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once stdout matches `pattern` (fails the test after `ms`). */
  waitFor: (pattern: RegExp, ms?: number) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: ChildProcess[] = [];
const projects: TempProject[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const project of projects.splice(0)) project.cleanup();
});

/** `tailtest watch` as a real process, as a person starts it. */
function startWatch(root: string, args: string[] = ["--debounce", "200"]): Watcher {
  const child = spawn(process.execPath, [BIN, "watch", ...args], {
    cwd: root,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let out = "";
  let err = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const waiter of waiters.splice(0)) {
      if (waiter.pattern.test(out)) waiter.resolve();
      else waiters.push(waiter);
    }
  };
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    check();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (pattern, ms = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${String(pattern)} in:\n${out}\nstderr:\n${err}`)),
          ms,
        );
        waiters.push({
          pattern,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
        check();
      }),
  };
}

function write(root: string, rel: string, text: string): void {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** Every file under .tailtest/, so a test can see no lock or temporary file was left. */
function stateFiles(root: string, dir = ".tailtest"): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? stateFiles(root, `${dir}/${entry.name}`) : [`${dir}/${entry.name}`],
  );
}

describe("tailtest watch", () => {
  it("runs the changed file's tests after a quiet period, ignores what the filter ignores, and stops cleanly on SIGTERM", async () => {
    const project = await makeTestedProject();
    projects.push(project);
    const watch = startWatch(project.root);
    await watch.waitFor(
      /^watching .* \(session [^,]+, 200 ms after the last change\); Ctrl-C stops$/m,
    );

    // One batch: a broken source file, a doc and a dependency's file. Only the source runs.
    write(project.root, "README.md", "# calc\n");
    write(project.root, "node_modules/dep/index.js", "export const x = 1;\n");
    write(project.root, CALC, "export function add(a, b) {\n  return a - b;\n}\n");
    await watch.waitFor(/^\d\d:\d\d:\d\d failed: src\/calc\.js failed \(node --test \d+\.\ds\)$/m);
    expect(watch.stdout()).toContain("FAIL test/calc.test.js::adds");

    write(project.root, CALC, "export function add(a, b) {\n  return a + b;\n}\n");
    // Green after a red run in the same session: fixed, in the words status and history use.
    await watch.waitFor(/^\d\d:\d\d:\d\d fixed: src\/calc\.js fixed \(node --test \d+\.\ds\)$/m);
    // Exactly two runs: the README and node_modules never started one.
    expect(watch.stdout().match(/^\d\d:\d\d:\d\d /gm)).toHaveLength(2);
    expect(watch.stderr()).toContain("running tests for src/calc.js");

    watch.child.kill("SIGTERM");
    expect(await watch.exited).toEqual({ code: 0, signal: null });
    expect(watch.stdout()).toMatch(
      /stopped; 1 file outcome\(s\) recorded in \.tailtest\/history\.json\n$/,
    );

    // The state is whole: the session (a watch session) is valid and its queue empty, history
    // holds calc.js as fixed (red, then green in the same session), the run log both runs.
    const session = readSession(project.root);
    expect(session.platform).toBe("cli");
    expect(session.pending_files).toEqual([]);
    expect(session.results[CALC]).toMatchObject({ outcome: "passed" });
    expect(Object.keys(session.results)).toEqual([CALC]);
    const history = HistoryFileSchema.parse(
      JSON.parse(readFileSync(join(project.root, ".tailtest/history.json"), "utf8")),
    );
    expect(history.entries).toEqual([
      expect.objectContaining({
        file: CALC,
        status: "fixed",
        attempts: 1,
        session_id: session.session_id,
      }),
    ]);
    const runs = RunLogSchema.parse(
      JSON.parse(readFileSync(join(project.root, ".tailtest/runs.json"), "utf8")),
    );
    expect(runs.runs.map((run) => [run.source, run.status, run.files])).toEqual([
      ["watch", "failed", [CALC]],
      ["watch", "passed", [CALC]],
    ]);
    expect(stateFiles(project.root).filter((file) => /\.lock|\.tmp$/.test(file))).toEqual([]);

    // What status and history say about it.
    const status = await runBin(BIN, ["status"], { cwd: project.root });
    expect(status.stdout).toMatch(/last run {2}passed by tailtest watch/);
    const shown = await runBin(BIN, ["history"], { cwd: project.root });
    expect(shown.stdout).toMatch(/^src\/calc\.js\s+fixed\s+1\s+0\s+F\s/m);
  }, 90_000);

  it("stops on SIGINT, and joins an agent's open session instead of ending it", async () => {
    const project = await makeTestedProject();
    projects.push(project);
    await playSession(project.root, { id: "agent-session", calc: false, evil: true }, 1, true);
    const watch = startWatch(project.root);
    await watch.waitFor(/^watching .* \(joined session agent-session, /m);
    watch.child.kill("SIGINT");
    expect(await watch.exited).toEqual({ code: 0, signal: null });
    const session = readSession(project.root);
    // The agent's session goes on: same id, same platform, its red file still queued.
    expect(session.session_id).toBe("agent-session");
    expect(session.platform).toBe("claude-code");
    expect(session.pending_files.map((entry) => entry.path)).toEqual([CALC]);
    // Stopping the watch does not end the agent's session for it.
    expect(session.ended_at).toBeUndefined();
  }, 60_000);

  it("never joins a session that has ended: it starts its own, and the ended one's history stays as it was", async () => {
    const project = await makeTestedProject();
    projects.push(project);
    await playSession(project.root, { id: "ended-session", calc: false, evil: true }, 1);
    const historyPath = join(project.root, ".tailtest/history.json");
    const before = readFileSync(historyPath, "utf8");
    const watch = startWatch(project.root);
    await watch.waitFor(/^watching .* \(session (?!ended-session)\S+, /m);
    expect(watch.stdout()).not.toContain("joined");
    watch.child.kill("SIGINT");
    expect(await watch.exited).toEqual({ code: 0, signal: null });
    // The ended session's entries keep their own times: nothing was recorded again.
    const entries = (JSON.parse(readFileSync(historyPath, "utf8")) as { entries: unknown[] })
      .entries;
    expect(entries).toEqual((JSON.parse(before) as { entries: unknown[] }).entries);
    const session = readSession(project.root);
    expect(session.platform).toBe("cli");
    expect(session.session_id).not.toBe("ended-session");
  }, 60_000);

  it("refuses a bad --debounce or --root with exit code 2, writing nothing", async () => {
    const project = await makeTestedProject();
    projects.push(project);
    const debounce = await runBin(BIN, ["watch", "--debounce", "soon"], { cwd: project.root });
    expect(debounce.exitCode).toBe(2);
    expect(debounce.stderr).toBe(
      "tailtest: --debounce must be a whole number of milliseconds (got soon)",
    );
    const root = await runBin(BIN, ["watch", "--root", "missing"], { cwd: project.root });
    expect(root.exitCode).toBe(2);
    expect(existsSync(join(project.root, ".tailtest"))).toBe(false);
  });
});
