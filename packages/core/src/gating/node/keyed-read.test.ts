import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { APPLIED_PATH, readAppliedLines, recordApplied } from "../../tdd/node/tdd-applied.ts";
import {
  appendTddAudit,
  appendTddEntries,
  EVENTS_PATH,
  keyMark,
  readEventText,
  readTddEntries,
} from "../../tdd/node/tdd-store.ts";
import type { EditEntry, TddEntry } from "../../tdd/tdd-log.ts";
import { readKeyedLog, startsPath } from "./keyed-read.ts";
import { setWitness } from "./mode-witness.ts";
import { copyPath } from "./state-copy.ts";

const SESSION = ".tailtest/session.json";
const AT = "2026-12-03T06:00:00.000Z";
const RED: TddEntry = { kind: "red", test: "tests/test_a.py", expects: "a fails", at: AT };
const GREEN: TddEntry = { kind: "green", change: "fix", files: ["a.py"], at: AT };
const EDIT: EditEntry = {
  kind: "edit",
  path: "a.py",
  file_class: "prod",
  state: "red",
  decision: "allowed",
  at: AT,
};

let project: TempProject;
beforeEach(() => {
  project = makeProject({ "a.py": "x = 1\n" });
});
afterEach(() => {
  setWitness(project.root, SESSION, "follow");
  project.cleanup();
});

/** How `.starts` names a copy: its inode and birth time (µs). */
const fileOf = (path: string) => {
  const stats = statSync(path);
  return `${stats.ino}.${Math.round(stats.birthtimeMs * 1000)}`;
};
const copyOf = (relPath: string) => copyPath(project.root, relPath) ?? "";
const read = (key: string, relPath = EVENTS_PATH) =>
  readKeyedLog(project.root, relPath, key, keyMark(key), `${project.root}/${relPath}`);

/** A copy in force holding other agents' history, then `k`'s lines among theirs. */
async function history(root = project.root): Promise<void> {
  setWitness(root, SESSION, "tdd");
  await longAgo(root);
  for (let i = 0; i < 5; i += 1) await appendTddEntries(root, `old${i}`, [RED, GREEN]);
  await appendTddEntries(root, "k", [RED]);
  await appendTddEntries(root, "old9", [RED]);
  await appendTddAudit(root, "k", [EDIT]);
  await appendTddEntries(root, "k", [GREEN]);
}

/** Earlier sessions' lines: past 64 KiB, under which a log is read whole (its starts unread). */
async function longAgo(root: string): Promise<void> {
  await appendTddEntries(
    root,
    "long-ago",
    Array.from({ length: 600 }, () => RED),
  );
  expect(statSync(copyPath(root, EVENTS_PATH) ?? "").size).toBeGreaterThan(64 * 1024);
}

describe("an agent's part of a state log (keyed-read.ts, ADR 0010 thirteenth round)", () => {
  it("is read from the agent's first line once a read of the whole copy found it", async () => {
    await history();
    const copy = copyOf(EVENTS_PATH);
    const whole = readFileSync(copy);
    const first = read("k");
    expect(first).toEqual({ bytes: whole, offset: 0 });
    const start = whole.lastIndexOf(0x0a, whole.indexOf(keyMark("k"))) + 1;
    expect(readFileSync(startsPath(copy), "latin1")).toBe(`k ${fileOf(copy)} ${start}\n`);
    const second = read("k");
    expect(second.offset).toBe(start);
    expect(second.bytes).toEqual(whole.subarray(start));
    // The state read from the part is the one read from the whole log.
    const entries = await readTddEntries(project.root, "k", { mineOnly: true });
    expect(entries).toEqual(readEventText(whole, "k", true));
    expect(entries.entries.map((entry) => entry.kind)).toEqual(["red", "edit", "green"]);
    // Another agent's start is its own; a key with no line keeps where the whole lines end.
    expect(read("old9").offset).toBe(0);
    expect(read("old9").offset).toBeGreaterThan(start);
    expect(read("none")).toEqual({ bytes: readFileSync(copy), offset: 0 });
    expect(readFileSync(startsPath(copy), "latin1")).toContain(
      `\nnone ${fileOf(copy)} ~${statSync(copy).size}\n`,
    );
  });

  it.each([
    [
      // old9's line comes after the agent's first: read from there, its Red would be lost.
      "the start of another agent's line",
      (text: string, ino: string) =>
        `k ${ino} ${text.lastIndexOf("\n", text.indexOf('"agent_key":"old9"')) + 1}`,
    ],
    [
      "the middle of the agent's line",
      (text: string, ino: string) => `k ${ino} ${text.indexOf('"agent_key":"k"')}`,
    ],
    ["past the end of the copy", (text: string, ino: string) => `k ${ino} ${text.length + 10}`],
    [
      "another file's (a copy seeded again)",
      (text: string, ino: string) =>
        `k ${ino}1 ${text.indexOf('{"v":1,"type":"tdd.red","agent_key":"k"')}`,
    ],
    ["not a number", (_text: string, ino: string) => `k ${ino} 12x`],
    [
      "a line cut short",
      (text: string, ino: string) =>
        `k ${ino} ${text.indexOf('{"v":1,"type":"tdd.red","agent_key":"k"')}`,
    ],
  ])("a kept start at %s is not used: the whole copy is read", async (name, line) => {
    await history();
    const copy = copyOf(EVENTS_PATH);
    const text = readFileSync(copy, "latin1");
    const kept = line(text, fileOf(copy));
    writeFileSync(startsPath(copy), name === "a line cut short" ? kept : `${kept}\n`);
    const part = read("k");
    if (name === "a line cut short") {
      expect(part.offset).toBe(0);
      return;
    }
    expect(part).toEqual({ bytes: readFileSync(copy), offset: 0 });
    expect((await readTddEntries(project.root, "k", { mineOnly: true })).entries).toHaveLength(3);
  });

  it("before the agent has a line, others' lines past 64 KiB are skipped, then up to its first", async () => {
    setWitness(project.root, SESSION, "tdd");
    await longAgo(project.root);
    const copy = copyOf(EVENTS_PATH);
    const end = statSync(copy).size;
    expect(end).toBeGreaterThan(64 * 1024);
    expect(read("k")).toEqual({ bytes: readFileSync(copy), offset: 0 });
    expect(readFileSync(startsPath(copy), "latin1")).toBe(`k ${fileOf(copy)} ~${end}\n`);
    // Nothing of the agent's yet: the next read starts where the last one's lines ended.
    expect(read("k")).toEqual({ bytes: Buffer.alloc(0), offset: end });
    await appendTddEntries(project.root, "k", [RED]);
    await appendTddEntries(project.root, "old", [GREEN]);
    expect(read("k").offset).toBe(end);
    // Its first line is kept as one, checked for the key from then on.
    expect(readFileSync(startsPath(copy), "latin1").split("\n").at(-2)).toBe(
      `k ${fileOf(copy)} ${end}`,
    );
    const entries = await readTddEntries(project.root, "k", { mineOnly: true });
    expect(entries).toEqual(readEventText(readFileSync(copy), "k", true));
    expect(entries.entries.map((entry) => entry.kind)).toEqual(["red"]);
    // Not every read keeps a line: a skip under 64 KiB is not worth one.
    await appendTddEntries(project.root, "old", [RED]);
    read("none-yet");
    read("none-yet");
    expect(readFileSync(startsPath(copy), "latin1").match(/^none-yet /gm)).toHaveLength(1);
  });

  it("past 64 KiB the starts file keeps its newest lines, and an older key finds its start again", async () => {
    await history();
    const copy = copyOf(EVENTS_PATH);
    const starts = startsPath(copy);
    // Two thousand earlier sessions' starts, k's among the oldest.
    read("k");
    const older = Array.from({ length: 2000 }, (_, i) => `gone${i} ${fileOf(copy)} ~70000\n`);
    writeFileSync(starts, readFileSync(starts, "latin1") + older.join(""), "latin1");
    expect(statSync(starts).size).toBeGreaterThan(64 * 1024);
    // The next start kept rewrites the file: whole lines, the newest, about half the cap.
    read("fresh");
    const kept = readFileSync(starts, "latin1");
    expect(kept.length).toBeLessThanOrEqual(32 * 1024);
    expect(kept.length).toBeGreaterThan(30 * 1024);
    expect(kept.startsWith("gone")).toBe(true);
    expect(kept.endsWith(`\nfresh ${fileOf(copy)} ~${statSync(copy).size}\n`)).toBe(true);
    expect(kept).not.toMatch(/^k /m);
    // k's start went with the oldest lines: its read is whole again, and keeps the start anew.
    expect(read("k").offset).toBe(0);
    const again = read("k");
    expect(again.offset).toBeGreaterThan(0);
    expect((await readTddEntries(project.root, "k", { mineOnly: true })).entries).toHaveLength(3);
  });

  it("a kept '~' start that is not at a line's start is not used", async () => {
    await history();
    const copy = copyOf(EVENTS_PATH);
    const text = readFileSync(copy, "latin1");
    writeFileSync(startsPath(copy), `k ${fileOf(copy)} ~${text.indexOf('"agent_key":"k"')}\n`);
    expect(read("k")).toEqual({ bytes: readFileSync(copy), offset: 0 });
  });

  it("a copy under 64 KiB is read whole, its starts neither read nor kept", async () => {
    setWitness(project.root, SESSION, "tdd");
    await appendTddEntries(project.root, "old", [RED]);
    await appendTddEntries(project.root, "k", [RED]);
    const copy = copyOf(EVENTS_PATH);
    writeFileSync(startsPath(copy), `k ${fileOf(copy)} ~${statSync(copy).size}\n`);
    expect(read("k")).toEqual({ bytes: readFileSync(copy), offset: 0 });
  });

  it("reads the whole project log when no copy is in force, and keeps no start", async () => {
    await appendTddEntries(project.root, "old", [RED]);
    await appendTddEntries(project.root, "k", [RED]);
    const whole = readFileSync(`${project.root}/${EVENTS_PATH}`);
    expect(read("k")).toEqual({ bytes: whole, offset: 0 });
    expect(read("k")).toEqual({ bytes: whole, offset: 0 });
    expect(existsSync(startsPath(copyOf(EVENTS_PATH)))).toBe(false);
  });

  it("a problem on the agent's line is numbered from the file's start", async () => {
    await history();
    read("k");
    const copy = copyOf(EVENTS_PATH);
    writeFileSync(copy, `${readFileSync(copy, "utf8")}{"agent_key":"k","type":"tdd.red"}\n`);
    const lines = readFileSync(copy, "utf8").split("\n").length - 1;
    const found = await readTddEntries(project.root, "k", { mineOnly: true });
    expect(found.problems.map((problem) => problem.line)).toEqual([lines]);
  });

  it("tdd-applied.jsonl: an agent's lines are the same read from its start", async () => {
    setWitness(project.root, SESSION, "tdd");
    await recordApplied(project.root, "long-ago", Array<string>(800).fill("a.py"), AT);
    for (let i = 0; i < 4; i += 1) await recordApplied(project.root, `old${i}`, ["a.py"], AT);
    await recordApplied(project.root, "k", ["a.py"], AT);
    await recordApplied(project.root, "old9", ["a.py"], AT);
    await recordApplied(project.root, "k", ["a.py"], AT);
    const before = readAppliedLines(project.root, "k");
    expect(before).toHaveLength(2);
    expect(read("k", APPLIED_PATH).offset).toBeGreaterThan(0);
    expect(readAppliedLines(project.root, "k")).toEqual(before);
  });

  it("the kept starts go with the copies once no session gates", async () => {
    await history();
    read("k");
    const starts = startsPath(copyOf(EVENTS_PATH));
    expect(existsSync(starts)).toBe(true);
    setWitness(project.root, SESSION, "follow");
    expect(existsSync(starts)).toBe(false);
  });

  it("reading from kept starts, between any appends, equals reading the whole copy", async () => {
    const keys = ["a", "k", "k2", "b"];
    const steps = fc.array(
      fc.record({ key: fc.constantFrom(...keys), entry: fc.constantFrom(RED, GREEN, EDIT) }),
      { minLength: 1, maxLength: 10 },
    );
    await fc.assert(
      fc.asyncProperty(steps, async (appends) => {
        const scratch = makeProject({ "a.py": "x = 1\n" });
        try {
          setWitness(scratch.root, SESSION, "tdd");
          await longAgo(scratch.root);
          for (const { key, entry } of appends) {
            if (entry.kind === "edit") await appendTddAudit(scratch.root, key, [entry]);
            else await appendTddEntries(scratch.root, key, [entry]);
            const whole = readFileSync(copyPath(scratch.root, EVENTS_PATH) ?? "");
            for (const reader of keys)
              for (const stateOnly of [false, true])
                expect(
                  await readTddEntries(scratch.root, reader, { mineOnly: true, stateOnly }),
                ).toEqual(readEventText(whole, reader, true, stateOnly));
          }
        } finally {
          setWitness(scratch.root, SESSION, "follow");
          scratch.cleanup();
        }
      }),
      { numRuns: 25 },
    );
  });
});
