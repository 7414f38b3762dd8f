import { execFileSync } from "node:child_process";
import { rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { commitAll, makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { handleEvent } from "../../hook/node/handle-event.ts";
import { openProject, sessionFile } from "./project.ts";
import { readState } from "../../state/node/store.ts";
import { sweepChangedFiles, sweepTurn, walkChangedFiles } from "./mtime-sweep.ts";
import { createSession, type SessionState } from "../../state/session.ts";

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

const OLD = new Date("2026-01-01T00:00:00Z");
const TURN = new Date("2026-11-23T10:00:00Z");

/** Writes files and dates them; `fresh` ones get the turn's time plus a minute. */
function setUp(files: Record<string, string>, fresh: readonly string[]): TempProject {
  const made = makeProject(files);
  for (const path of Object.keys(files)) {
    const when = fresh.includes(path) ? new Date(TURN.getTime() + 60_000) : OLD;
    utimesSync(join(made.root, path), when, when);
  }
  return made;
}

describe("sweepChangedFiles", () => {
  it("walks into a root bin/ for its scripts, not for a compiled language's build", () => {
    // A JavaScript package's command (`bin/cli.js`) is source: outside git, a tdd or strict turn
    // that changed it around the gate was never seen, nor its test run.
    project = setUp(
      {
        "bin/cli.js": "#!/usr/bin/env node\nrequire('../index.js')\n",
        "bin/Debug/net8.0/App.cs": "class App {}\n",
        "obj/Debug/Gen.cs": "class Gen {}\n",
        "index.js": "module.exports = 1\n",
      },
      ["bin/cli.js", "bin/Debug/net8.0/App.cs", "obj/Debug/Gen.cs"],
    );
    const result = sweepChangedFiles(openProject(project.root), TURN.getTime());
    expect(result.via).toBe("walk");
    expect(result.changed).toEqual(["bin/cli.js"]);
  });

  it("finds source files changed since the moment and never enters skipped folders", () => {
    project = setUp(
      {
        ".gitignore": "generated/\n",
        "src/app.py": "x = 1\n",
        "src/old.py": "y = 1\n",
        "src/notes.md": "# notes\n",
        "node_modules/pkg/index.js": "module.exports = 1\n",
        "pkg/node_modules/dep/a.ts": "export {}\n",
        ".venv/lib/site.py": "z = 1\n",
        "generated/api.ts": "export {}\n",
        "dist/bundle.js": "1\n",
        "packages/web/src/dist/page.ts": "export {}\n",
        ".git/hooks/pre-commit.py": "1\n",
      },
      [
        "src/app.py",
        "src/notes.md",
        "node_modules/pkg/index.js",
        "pkg/node_modules/dep/a.ts",
        ".venv/lib/site.py",
        "generated/api.ts",
        "dist/bundle.js",
        "packages/web/src/dist/page.ts",
        ".git/hooks/pre-commit.py",
      ],
    );
    const result = sweepChangedFiles(openProject(project.root), TURN.getTime());
    expect(result.via).toBe("walk");
    expect(result.changed).toEqual(["packages/web/src/dist/page.ts", "src/app.py"]);
    // Only files in a known language outside skipped folders are stat'ed.
    expect(result.checked).toBe(3);
  });
});

describe("sweepTurn", () => {
  const at = (ms: number) => new Date(ms);
  function session(extra: Partial<SessionState>): SessionState {
    const base = createSession({
      sessionId: "s1",
      now: OLD.toISOString(),
      depth: "standard",
      mode: "follow",
      runners: [],
    });
    return { ...base, ...extra };
  }

  it("reports a change once, yet catches one whose coarse mtime reads before the last sweep", () => {
    project = setUp({ "a.py": "a = 1\n", "b.py": "b = 1\n", "c.py": "c = 1\n" }, []);
    const opened = openProject(project.root);
    const sweepAt = TURN.getTime() + 60_000;
    // a.py changed during the turn, before the first sweep began.
    utimesSync(join(project.root, "a.py"), at(sweepAt - 10), at(sweepAt - 10));
    const first = sweepTurn(opened, session({ turn_started_at: TURN.toISOString() }), sweepAt);
    expect(first.changed).toEqual(["a.py"]);
    expect(first.seen).toEqual({ "a.py": sweepAt - 10 });

    // b.py was written just after that sweep began, but its mtime (a coarse clock) reads 3 ms
    // earlier; a.py did not change again.
    utimesSync(join(project.root, "b.py"), at(sweepAt - 3), at(sweepAt - 3));
    const later = session({
      turn_started_at: TURN.toISOString(),
      last_sweep_at: at(sweepAt).toISOString(),
      sweep_seen: first.seen,
    });
    const second = sweepTurn(opened, later, sweepAt + 500);
    expect(second.changed).toEqual(["b.py"]);

    // a.py written again: a new mtime is a new change.
    utimesSync(join(project.root, "a.py"), at(sweepAt + 400), at(sweepAt + 400));
    expect(sweepTurn(opened, later, sweepAt + 500).changed).toEqual(["a.py", "b.py"]);
  });
});

describe("sweepChangedFiles in a git work tree", () => {
  const FILES = {
    ".gitignore": "generated/\nnode_modules/\n",
    "src/app.py": "x = 1\n",
    "src/old.py": "y = 1\n",
    "src/kept.py": "z = 1\n",
    "src/moved.py": "m = 1\n",
    "README.md": "# app\n",
  };
  const git = (root: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], {
      cwd: root,
      stdio: "ignore",
    });
  /** Every file dated before the turn, committed; then the turn's changes, dated in it. */
  async function gitProject(): Promise<TempProject> {
    const made = makeProject(FILES);
    for (const path of Object.keys(FILES)) utimesSync(join(made.root, path), OLD, OLD);
    await commitAll(made.root);
    return made;
  }
  const fresh = (root: string, ...paths: string[]) => {
    const when = new Date(Date.now() + 60_000);
    for (const path of paths) utimesSync(join(root, path), when, when);
  };

  it("finds what the walk finds, from git's changed and untracked files", async () => {
    project = await gitProject();
    const root = project.root;
    // The turn begins after the project's last commit.
    const turn = Date.now() + 1000;
    project.write("src/app.py", "x = 2\n");
    project.write("src/new_module.py", "n = 1\n");
    project.write("generated/api.ts", "export {}\n");
    project.write("node_modules/pkg/index.js", "module.exports = 1\n");
    project.write("src/notes.md", "# notes\n");
    git(root, "mv", "src/moved.py", "src/renamed.py");
    // Changed before the turn: git reports it, its time rules it out.
    project.write("src/old.py", "y = 20\n");
    utimesSync(join(root, "src/old.py"), OLD, OLD);
    fresh(root, "src/app.py", "src/new_module.py", "generated/api.ts", "node_modules/pkg/index.js");
    fresh(root, "src/notes.md", "src/renamed.py");
    const opened = openProject(root);
    const viaGit = sweepChangedFiles(opened, turn);
    expect(viaGit.via).toBe("git");
    expect(viaGit.changed).toEqual(["src/app.py", "src/new_module.py", "src/renamed.py"]);
    expect(viaGit.changed).toEqual(walkChangedFiles(opened, turn).changed);
    // Queueing them asks git nothing more: it said which ones it does not track.
    expect([...(viaGit.untracked ?? [])].filter((path) => viaGit.changed.includes(path))).toEqual([
      "src/new_module.py",
    ]);
    // Only git's candidates in a known language were stat'ed, not the whole tree.
    expect(viaGit.checked).toBe(4);
  });

  it("finds the files of a commit made in the turn, which git no longer reports as changed", async () => {
    project = await gitProject();
    const root = project.root;
    project.write("src/kept.py", "z = 2\n");
    git(root, "commit", "-qam", "the agent commits its work");
    fresh(root, "src/kept.py");
    const result = sweepChangedFiles(openProject(root), Date.now() - 5_000);
    expect(result).toMatchObject({ via: "git", changed: ["src/kept.py"] });
  });

  it("finds a tracked file .gitignore lists, as the filter queues it; .tailtest-ignore still skips", async () => {
    // A package that commits its sources under a folder its .gitignore names (a `lib/` kept for
    // release, `index.js` listed for a build): changed by a shell command, the Stop never saw it.
    project = await gitProject();
    const root = project.root;
    project.write(".gitignore", "generated/\nnode_modules/\nlib/\nindex.js\n");
    project.write(".tailtest-ignore", "scripts/\n");
    project.write("lib/util.js", "module.exports = 1\n");
    project.write("index.js", "module.exports = require('./lib/util')\n");
    project.write("scripts/release.js", "1\n");
    git(root, "add", "--force", "lib/util.js", "index.js", "scripts/release.js", ".gitignore");
    git(root, "add", ".tailtest-ignore");
    git(root, "commit", "-qm", "tracked under ignore rules");
    const turn = Date.now() + 1000;
    project.write("lib/util.js", "module.exports = 2\n");
    project.write("index.js", "module.exports = 3\n");
    project.write("scripts/release.js", "2\n");
    project.write("lib/scratch.js", "untracked and ignored\n");
    fresh(root, "lib/util.js", "index.js", "scripts/release.js", "lib/scratch.js");
    const result = sweepChangedFiles(openProject(root), turn);
    expect(result).toMatchObject({ via: "git", changed: ["index.js", "lib/util.js"] });
  });

  it("walks instead when .tailtest-ignore re-includes files git ignores", async () => {
    project = await gitProject();
    const root = project.root;
    project.write(".tailtest-ignore", "!generated/\n");
    project.write("generated/api.ts", "export {}\n");
    fresh(root, "generated/api.ts");
    const result = sweepChangedFiles(openProject(root), TURN.getTime());
    expect(result).toMatchObject({ via: "walk", changed: ["generated/api.ts"] });
  });

  it("walks when the folder is not the top of a work tree, or git cannot read it", async () => {
    project = await gitProject();
    const root = project.root;
    project.write("src/app.py", "x = 2\n");
    fresh(root, "src/app.py");
    rmSync(join(root, ".git", "HEAD"));
    expect(sweepChangedFiles(openProject(root), TURN.getTime())).toMatchObject({
      via: "walk",
      changed: ["src/app.py"],
    });
  });
});

describe("Codex's end of turn sweeps before verifying", () => {
  it("queues what changed after the turn began, not what changed before it", async () => {
    project = makeProject({ "pyproject.toml": "[tool.pytest.ini_options]\n" });
    const root = project.root;
    const at = (iso: string) => () => new Date(iso);
    await handleEvent(
      openProject(root),
      { kind: "SessionStarted", source: "startup" },
      { platform: "codex", now: at("2026-11-23T09:00:00Z") },
    );
    project.write("before.py", "a = 1\n");
    utimesSync(
      join(root, "before.py"),
      new Date("2026-11-23T09:30:00Z"),
      new Date("2026-11-23T09:30:00Z"),
    );
    await handleEvent(
      openProject(root),
      { kind: "TurnStarted", turnId: "t1" },
      { platform: "codex", now: at("2026-11-23T10:00:00Z") },
    );
    project.write("during.py", "def f():\n    return 1\n");
    utimesSync(
      join(root, "during.py"),
      new Date("2026-11-23T10:00:30Z"),
      new Date("2026-11-23T10:00:30Z"),
    );
    const decision = await handleEvent(
      openProject(root),
      { kind: "TurnEnded", stopHookActive: false, sweep: true },
      { platform: "codex", now: at("2026-11-23T10:01:00Z") },
    );
    expect(decision.kind).toBe("block");
    if (decision.kind === "block") expect(decision.reason).toContain("during.py");
    const { value: session } = await readState(sessionFile(openProject(root)));
    expect(session.pending_files.map((entry) => entry.path)).toEqual(["during.py"]);
    expect(session.last_sweep_at).toBe("2026-11-23T10:01:00.000Z");
    expect(session.turn_started_at).toBe("2026-11-23T10:00:00.000Z");
  });

  it("a first turn that begins at once sweeps nothing written before the session began", async () => {
    // A project set up a moment before the agent starts (a fixture copied, a generator run): its
    // files are within the turn start's slack, yet they are not this session's changes.
    project = makeProject({
      "pyproject.toml": "[tool.pytest.ini_options]\n",
      "gen/models.py": "x = 1\n",
    });
    const root = project.root;
    const at = (iso: string) => () => new Date(iso);
    const written = new Date("2026-11-23T09:59:59.500Z");
    utimesSync(join(root, "gen/models.py"), written, written);
    await handleEvent(
      openProject(root),
      { kind: "SessionStarted", source: "startup" },
      { platform: "codex", now: at("2026-11-23T10:00:00Z") },
    );
    await handleEvent(
      openProject(root),
      { kind: "TurnStarted", turnId: "t1" },
      { platform: "codex", now: at("2026-11-23T10:00:00.200Z") },
    );
    const decision = await handleEvent(
      openProject(root),
      { kind: "TurnEnded", stopHookActive: false, sweep: true },
      { platform: "codex", now: at("2026-11-23T10:00:05Z") },
    );
    expect(decision).toEqual({ kind: "none" });
    const { value: session } = await readState(sessionFile(openProject(root)));
    expect(session.pending_files).toEqual([]);
  });

  it("an interrupted turn runs nothing and keeps the queue", async () => {
    project = makeProject({ "pyproject.toml": "[tool.pytest.ini_options]\n", "app.py": "x = 1\n" });
    const opened = () => openProject(project?.root ?? "");
    await handleEvent(opened(), { kind: "FilesEdited", paths: ["app.py"] }, { platform: "cursor" });
    const decision = await handleEvent(
      opened(),
      { kind: "TurnEnded", stopHookActive: false, interrupted: true },
      { platform: "cursor" },
    );
    expect(decision).toEqual({ kind: "none" });
    const { value: session } = await readState(sessionFile(opened()));
    expect(session.pending_files.map((entry) => entry.path)).toEqual(["app.py"]);
  });

  it("a deleted file leaves the queue, to run what imported it; a shell command's writes join it", async () => {
    project = makeProject({ "pyproject.toml": "[tool.pytest.ini_options]\n", "a.py": "x = 1\n" });
    const root = project.root;
    const opened = () => openProject(root, { sessionPath: ".tailtest/cursor-session.json" });
    await handleEvent(opened(), { kind: "FilesEdited", paths: ["a.py"] }, { platform: "cursor" });
    project.write("lib/b.py", "y = 2\n");
    const shell = await handleEvent(
      opened(),
      {
        kind: "CommandFinished",
        command: "cat > b.py <<'EOF'\ny = 2\nEOF\nrm ../a.py",
        cwd: join(root, "lib"),
      },
      { platform: "cursor" },
    );
    expect(shell.kind).toBe("context");
    if (shell.kind === "context") expect(shell.text).toContain("lib/b.py queued");
    const { value: session } = await readState(sessionFile(opened()));
    // a.py stays only to run the tests that imported it (`role: "test"`), asking for none.
    expect(session.pending_files.map((entry) => [entry.path, entry.role])).toEqual([
      ["a.py", "test"],
      ["lib/b.py", undefined],
    ]);
    expect(sessionFile(opened()).path).toBe(join(root, ".tailtest/cursor-session.json"));
  });
});
