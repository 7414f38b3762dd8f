import { utimesSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { handleEvent } from "./handle.ts";
import { openProject, sessionFile } from "./project.ts";
import { readState } from "./store.ts";
import { sweepChangedFiles } from "./sweep.ts";

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
    expect(result.changed).toEqual(["packages/web/src/dist/page.ts", "src/app.py"]);
    // Only files in a known language outside skipped folders are stat'ed.
    expect(result.checked).toBe(3);
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

  it("a deleted file leaves the queue; a shell command's writes join it", async () => {
    project = makeProject({ "pyproject.toml": "[tool.pytest.ini_options]\n", "a.py": "x = 1\n" });
    const root = project.root;
    const opened = () => openProject(root, { sessionPath: ".cursor/hooks/state/tailtest.json" });
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
    expect(session.pending_files.map((entry) => entry.path)).toEqual(["lib/b.py"]);
    expect(sessionFile(opened()).path).toBe(join(root, ".cursor/hooks/state/tailtest.json"));
  });
});
