import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { writeStateLines } from "@tailtest/test-utils/state-lines";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatStrictEvent } from "../../strict/strict-events.ts";
import { appendStrictEvents, readStrictState } from "../../strict/node/strict-store.ts";
import { appendTddEntries, eventLineFor, readTddEntries } from "../../tdd/node/tdd-store.ts";
import { readApplied, recordApplied } from "../../tdd/node/tdd-applied.ts";
import type { TddEntry } from "../../tdd/tdd-log.ts";
import { foreignLine, foreignLines } from "./forged-lines.ts";
import { setWitness } from "./mode-witness.ts";
import { holdWitnessReads, witnessFolder, witnessNames, witnessPath } from "./mode-witness-path.ts";
import { copiesInForce, copyInForce, copyPath, witnessGates } from "./state-copy.ts";

const SESSION = ".tailtest/session.json";
const EVENTS = ".tailtest/events.jsonl";
const AT = "2026-12-03T06:00:00.000Z";
const RED: TddEntry = { kind: "red", test: "tests/test_a.py", expects: "a fails", at: AT };
const GREEN: TddEntry = { kind: "green", change: "fix", files: ["a.py"], at: AT };

/** A claim as a forger writes it into the project's log alone. */
const claimLine = () =>
  `${formatStrictEvent({ type: "edit_claim", ts: AT, claim: "c9", test_id: "t", edit_target: "a.py" })}\n`;

let project: TempProject;
beforeEach(() => {
  project = makeProject({ "a.py": "x = 1\n" });
});
afterEach(() => {
  setWitness(project.root, SESSION, "follow");
  project.cleanup();
});

describe("tailtest's copy of the state logs (ADR 0012, tenth round)", () => {
  it("while a session's mode copy is in force, a line only the project's log holds moves nothing", async () => {
    setWitness(project.root, SESSION, "tdd");
    expect(copyInForce(project.root)).toBe(true);
    await appendTddEntries(project.root, "k", [RED]);
    // The forger's Green, in the project's log alone.
    const text = readFileSync(join(project.root, EVENTS), "utf8");
    writeFileSync(join(project.root, EVENTS), `${text}${eventLineFor("k", GREEN)}\n`);
    const kinds = (await readTddEntries(project.root, "k")).entries.map((entry) => entry.kind);
    expect(kinds).toEqual(["red"]);
    // What tailtest writes (the helper) is read.
    writeStateLines(project.root, `${eventLineFor("k", GREEN)}\n`);
    const after = (await readTddEntries(project.root, "k")).entries.map((entry) => entry.kind);
    expect(after).toEqual(["red", "green"]);
  });

  it("without a mode copy (follow, no state folder) the project's log is read, as before", async () => {
    expect(copyInForce(project.root)).toBe(false);
    project.write(EVENTS, `${eventLineFor("k", RED)}\n`);
    expect((await readTddEntries(project.root, "k")).entries).toHaveLength(1);
  });

  it("strict: a forged claim is not read, and the checkpoint is kept beside the copy", async () => {
    setWitness(project.root, SESSION, "strict");
    await appendStrictEvents(project.root, [
      { type: "mode_changed", ts: AT, mode: "strict", by: "config" },
    ]);
    project.write(EVENTS, `${readFileSync(join(project.root, EVENTS), "utf8")}${claimLine()}`);
    const { snapshot } = readStrictState(project.root);
    expect(snapshot.state.claims.size).toBe(0);
    expect(existsSync(join(project.root, ".tailtest/strict-state.json"))).toBe(false);
    expect(existsSync(copyPath(project.root, ".tailtest/strict-state.json") ?? "")).toBe(true);
    // Not in force: the project's log, forged line and all, as before.
    setWitness(project.root, SESSION, "follow");
    expect(readStrictState(project.root).snapshot.state.claims.size).toBe(1);
  });

  it("tdd-applied.jsonl: a line only the project's file holds is not an applied edit", async () => {
    setWitness(project.root, SESSION, "tdd");
    await recordApplied(project.root, "k", ["a.py"], AT);
    const forged = { path: "b.py", content: "absent", agent_key: "k", at: AT };
    const applied = join(project.root, ".tailtest/tdd-applied.jsonl");
    writeFileSync(applied, `${readFileSync(applied, "utf8")}${JSON.stringify(forged)}\n`);
    expect([...readApplied(project.root, AT).keys()]).toEqual(["a.py"]);
  });

  it("the Stop's count of lines tailtest did not write grows once, then stays said", async () => {
    setWitness(project.root, SESSION, "tdd");
    await appendTddEntries(project.root, "k", [RED]);
    expect(foreignLines(project.root)).toBeUndefined();
    const text = readFileSync(join(project.root, EVENTS), "utf8");
    writeFileSync(join(project.root, EVENTS), `${text}${eventLineFor("k", GREEN)}\n`);
    const first = foreignLines(project.root);
    expect(first?.grown).toBe(true);
    expect(first && foreignLine(first)).toBe(
      "tailtest: 1 tdd/strict line in .tailtest/events.jsonl was not written by tailtest; ignored. Tell the person: if they did not write them, something in this turn did.",
    );
    expect(foreignLines(project.root)?.grown).toBe(false);
  });

  it("what tailtest wrote while no session gated is not named once a session gates again", async () => {
    setWitness(project.root, SESSION, "tdd");
    await appendTddEntries(project.root, "k", [RED]);
    // The person confirms follow: no session gates, tailtest's lines go to the project alone.
    setWitness(project.root, SESSION, "follow");
    expect(existsSync(copyPath(project.root, EVENTS) ?? "")).toBe(false);
    await appendTddEntries(project.root, "k", [GREEN]);
    setWitness(project.root, SESSION, "tdd");
    expect(foreignLines(project.root)).toBeUndefined();
    // A second session file still gating keeps the copies for it.
    setWitness(project.root, ".tailtest/cursor-session.json", "strict");
    setWitness(project.root, SESSION, "follow");
    expect(existsSync(copyPath(project.root, EVENTS) ?? "")).toBe(true);
    setWitness(project.root, ".tailtest/cursor-session.json", "follow");
  });

  it("the state folder removed by a program (ADR 0012, eleventh round): still in force, read as empty", async () => {
    setWitness(project.root, SESSION, "tdd");
    await appendTddEntries(project.root, "k", [RED]);
    // The mode copies and the log copies go; a forged Green lands in the project's log.
    rmSync(witnessFolder() ?? "", { recursive: true, force: true });
    const text = readFileSync(join(project.root, EVENTS), "utf8");
    writeFileSync(join(project.root, EVENTS), `${text}${eventLineFor("k", GREEN)}\n`);
    expect(copyInForce(project.root)).toBe(true);
    expect((await readTddEntries(project.root, "k")).entries).toEqual([]);
    const found = foreignLines(project.root);
    expect(found?.removed).toBe(true);
    expect(found?.grown).toBe(true);
    expect(found && foreignLine(found)).toBe(
      "tailtest: tailtest's copy of this project's tdd/strict state, kept outside the project, was removed by something other than tailtest: Reds, Greens and claims from before it are not read. 2 tdd/strict lines in .tailtest/events.jsonl were not written by tailtest; ignored. Tell the person: if they did not do this, something in this turn did.",
    );
    // The mode copy written again (the next hook) does not take the project's lines, and the
    // removal is said once more: a hook may have written it again before any Stop looked.
    setWitness(project.root, SESSION, "tdd");
    expect((await readTddEntries(project.root, "k")).entries).toEqual([]);
    expect(foreignLines(project.root)?.removed).toBe(true);
    expect(foreignLines(project.root)?.removed).toBe(false);
  });
});

describe("one reading of the mode copies per hook call", () => {
  it("a held call keeps what it read until this process writes or removes a copy", () => {
    setWitness(project.root, SESSION, "tdd");
    const path = witnessPath(project.root, SESSION) ?? "";
    const release = holdWitnessReads();
    try {
      expect(witnessGates(project.root)).toBe(true);
      // Removed behind the call's back: the call answers from what it read.
      rmSync(path);
      expect(witnessGates(project.root)).toBe(true);
      setWitness(project.root, SESSION, "strict");
      expect(witnessNames(project.root, SESSION, ["strict"])).toBe(true);
      setWitness(project.root, SESSION, "follow");
      expect(witnessGates(project.root)).toBe(false);
    } finally {
      release();
    }
    // Outside a call every question reads the file.
    setWitness(project.root, SESSION, "tdd");
    expect(witnessGates(project.root)).toBe(true);
    rmSync(path);
    expect(witnessGates(project.root)).toBe(false);
  });

  it("copiesInForce names each file's copy as copyPath does, and nothing without a copy", () => {
    expect(copiesInForce(project.root)).toBeUndefined();
    setWitness(project.root, SESSION, "strict");
    const copy = copiesInForce(project.root);
    for (const file of [EVENTS, ".tailtest/strict-state.json", ".tailtest/tdd-applied.jsonl"])
      expect(copy?.(file)).toBe(copyPath(project.root, file));
  });
});
