import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  APPLIED_PATH,
  contentId,
  lastAppliedAt,
  readApplied,
  readAppliedLines,
  recordApplied,
} from "./tdd-applied.ts";

let project: TempProject;
beforeEach(() => {
  project = makeProject({ "src/a.py": "a = 1\n", "src/b.py": "b = 1\n" });
});
afterEach(() => project.cleanup());

describe("the applied lines of one agent", () => {
  it("are the lines naming its key, found by a search of the bytes", async () => {
    await recordApplied(project.root, "s1", ["src/a.py"], "2026-12-03T10:00:00.000Z");
    await recordApplied(project.root, "s10", ["src/b.py"], "2026-12-03T10:00:01.000Z");
    await recordApplied(project.root, "other", ["src/a.py"], "2026-12-03T10:00:02.000Z");
    const log = join(project.root, APPLIED_PATH);
    appendFileSync(log, 'garbage "agent_key":"s1"\n{"agent_key":"s1"}\n');
    await recordApplied(project.root, "s1", ["src/b.py", "src/a.py"], "2026-12-03T10:00:03.000Z");
    // A write cut short: a whole JSON object with no line break yet, read as before.
    appendFileSync(
      log,
      JSON.stringify({
        path: "src/c.py",
        content: "absent",
        agent_key: "s1",
        at: "2026-12-03T10:00:04.000Z",
      }),
    );
    const all = readAppliedLines(project.root);
    expect(all.map((line) => line.agent_key)).toEqual(["s1", "s10", "other", "s1", "s1", "s1"]);
    for (const key of ["s1", "s10", "other", "none"])
      expect(readAppliedLines(project.root, key)).toEqual(
        all.filter((line) => line.agent_key === key),
      );
    // The turn's reading: every agent's lines stamped since its start, whatever their order.
    const since = Date.parse("2026-12-03T10:00:02.000Z");
    expect(readAppliedLines(project.root, undefined, since)).toEqual(
      all.filter((line) => Date.parse(line.at) >= since),
    );
    expect(readApplied(project.root, "2026-12-03T10:00:02.000Z")).toEqual(
      new Map([
        ["src/a.py", new Set([contentId(project.root, "src/a.py")])],
        ["src/b.py", new Set([contentId(project.root, "src/b.py")])],
        ["src/c.py", new Set(["absent"])],
      ]),
    );
    expect(lastAppliedAt(project.root, "s1")).toEqual(
      new Map([
        ["src/a.py", Date.parse("2026-12-03T10:00:03.000Z")],
        ["src/b.py", Date.parse("2026-12-03T10:00:03.000Z")],
        ["src/c.py", Date.parse("2026-12-03T10:00:04.000Z")],
      ]),
    );
  });
});
