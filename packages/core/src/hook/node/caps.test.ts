import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import type { Decision, HookEvent } from "../hook-event.ts";
import { NOTE_CAP } from "../../notes/notes.ts";
import { handleEvent } from "./handle-event.ts";
import { inspectEdit, MAX_PATH_SEGMENTS, openProject } from "../../project/node/project.ts";

/**
 * What reaches the agent stays within one note however long the payload's paths are:
 * a path may be 4,096 characters (PAYLOAD_LIMITS) and an apply_patch may name many.
 */

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

const identity = { sessionId: "caps", transcriptPath: "/tmp/transcript.jsonl" };

function send(event: HookEvent): Promise<Decision> {
  if (project === undefined) throw new Error("no project");
  return handleEvent(openProject(project.root), event, { platform: "claude-code", identity });
}

function textOf(decision: Decision): string {
  if (decision.kind === "context") return decision.text;
  if (decision.kind === "deny" || decision.kind === "block") return decision.reason;
  return "";
}

/** Eight production files with paths of ~3,500 characters. */
function longPaths(root: string): string[] {
  return Array.from({ length: 8 }, (_, i) =>
    join(root, `${"deep_folder_name/".repeat(200)}mod_${i}.py`),
  );
}

describe("notes and reasons are capped", () => {
  it.each(["tdd", "strict"] as const)(
    "%s: a deny naming eight very long paths fits in one note",
    async (mode) => {
      project = makeProject({
        ".tailtest/config.json": JSON.stringify({ mode }),
        "pytest.ini": "[pytest]\npythonpath = .\n",
      });
      await send({ kind: "SessionStarted", sessionId: "caps", source: "startup" });
      const decision = await send({ kind: "EditRequested", paths: longPaths(project.root) });
      expect(decision.kind).toBe("deny");
      expect(textOf(decision).length).toBeGreaterThan(1000);
      expect(textOf(decision).length).toBeLessThanOrEqual(NOTE_CAP);
      // The way out, at the end of the reason, survives the cut.
      expect(textOf(decision)).toMatch(mode === "tdd" ? /tailtest red/ : /tailtest claim/);
      // Each path is shortened to its start and end rather than cut off with what follows it.
      expect(textOf(decision)).not.toMatch(/\S{301}/);
      expect(textOf(decision)).toContain("mod_7.py");
    },
  );

  it("follow: queueing eight very long paths gives one note within the cap", async () => {
    project = makeProject({ "pytest.ini": "[pytest]\npythonpath = .\n" });
    await send({ kind: "SessionStarted", sessionId: "caps", source: "startup" });
    const decision = await send({ kind: "FilesEdited", paths: longPaths(project.root) });
    expect(textOf(decision).length).toBeLessThanOrEqual(NOTE_CAP);
  });
});

describe("a path nested past MAX_PATH_SEGMENTS", () => {
  it("is not looked at, and says so, at once", async () => {
    project = makeProject({ "pytest.ini": "[pytest]\npythonpath = .\n" });
    const root = project.root;
    const deep = join(root, `${"d/".repeat(MAX_PATH_SEGMENTS)}mod.py`);
    const insight = inspectEdit(openProject(root), deep);
    expect(insight.verdict).toMatchObject({ queue: false, kind: "unsupported" });
    expect(insight.verdict.reason).toContain("folders deep");
    const shallow = join(root, `${"d/".repeat(MAX_PATH_SEGMENTS - 2)}mod.py`);
    expect(inspectEdit(openProject(root), shallow).verdict.queue).toBe(true);
  });
});
