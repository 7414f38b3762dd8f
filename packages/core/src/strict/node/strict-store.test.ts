import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { writeStateLines } from "@tailtest/test-utils/state-lines";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StrictEventInput } from "../strict-events.ts";
import {
  appendStrictEvents,
  appendStrictEventsFrom,
  hashFile,
  keepObjects,
  OBJECTS_DIR,
  PACKS_DIR,
  readObject,
  readStrictLog,
  readStrictState,
  restoreFile,
  sha256,
  snapshotFile,
  STRICT_CHECKPOINT_PART_PATH,
  STRICT_CHECKPOINT_PATH,
  supportHash,
} from "./strict-store.ts";
import { takeRecoveries } from "../../state/node/store.ts";
import { openClaims } from "../strict-state.ts";
import { STRICT_CHECKPOINT_VERSION } from "../checkpoint.ts";
import { createFsView } from "../../project/node/fs-view.ts";
import { EVENTS_PATH } from "../../tdd/node/tdd-store.ts";

let project: TempProject;
beforeEach(() => {
  project = makeProject({ "src/a.ts": "export const a = 1;\n" });
});
afterEach(() => project.cleanup());

const log = () => readFileSync(join(project.root, EVENTS_PATH), "utf8");

const mode = (ts: string): StrictEventInput => ({
  type: "mode_changed",
  ts,
  mode: "refactor",
  by: "refactor-start",
});

describe("the strict event log", () => {
  it("draws numbers from the state under the lock: concurrent claims get distinct ids", async () => {
    const claimOnce = (index: number) =>
      appendStrictEventsFrom(project.root, ({ snapshot }) => {
        const claim = `c${snapshot.state.claims.size + 1}`;
        const event: StrictEventInput = {
          type: "edit_claim",
          ts: "2026-11-23T10:00:00.000Z",
          claim,
          test_id: `tests/test_a.py::test_${index}`,
          edit_target: "src/a.py",
        };
        return { events: [event], result: claim };
      });
    const claims = await Promise.all([1, 2, 3, 4, 5].map(claimOnce));
    expect([...claims].sort()).toEqual(["c1", "c2", "c3", "c4", "c5"]);
    expect(readStrictState(project.root).snapshot.state.claims.size).toBe(5);
  });

  it("appends validated lines and reads them back", async () => {
    await appendStrictEvents(project.root, [mode("2026-11-23T10:00:00.000Z")]);
    const read = await readStrictLog(project.root);
    expect(read.events).toEqual([{ v: 1, ...mode("2026-11-23T10:00:00.000Z") }]);
    expect(read.problems).toEqual([]);
  });

  it("never writes an event that does not match the schema", async () => {
    const bad = { type: "mode_changed", ts: "yesterday", mode: "refactor", by: "x" };
    await expect(appendStrictEvents(project.root, [bad as StrictEventInput])).rejects.toThrow();
    expect(existsSync(join(project.root, EVENTS_PATH))).toBe(false);
  });

  it("keeps a torn last line, closes it, and reads on", async () => {
    await appendStrictEvents(project.root, [mode("2026-11-23T10:00:00.000Z")]);
    writeStateLines(project.root, '{"v":1,"type":"mode_chan');
    // The torn tail is not read as an event, and no problem either: a writer may still be on it.
    expect((await readStrictLog(project.root)).events).toHaveLength(1);
    await appendStrictEvents(project.root, [mode("2026-11-23T10:00:01.000Z")]);
    const lines = log().split("\n");
    expect(lines[1]).toBe('{"v":1,"type":"mode_chan');
    const read = await readStrictLog(project.root);
    expect(read.events).toHaveLength(2);
    expect(read.problems).toEqual([{ line: 2, message: "not JSON" }]);
  });

  it("skips tdd mode's lines and other tenants, flags unreadable ones", async () => {
    project.write(
      EVENTS_PATH,
      [
        '{"v":1,"type":"tdd.red","agent_key":"s","test":"t","expects":"e","at":"2026-11-23T10:00:00Z"}',
        '{"v":1,"type":"later.feature","x":1}',
        "[1,2]",
        '{"v":1,"type":"edit_claim","ts":"2026-11-23T10:00:00Z"}',
        "",
      ].join("\n"),
    );
    const read = await readStrictLog(project.root);
    expect(read.events).toEqual([]);
    expect(read.problems.map((problem) => problem.line)).toEqual([3, 4]);
    expect(read.newer).toBe(false);
  });

  it("marks a log written by a newer tailtest", async () => {
    project.write(EVENTS_PATH, '{"v":2,"type":"edit_claim","ts":"2026-11-23T10:00:00Z"}\n');
    expect((await readStrictLog(project.root)).newer).toBe(true);
  });

  it("loses no line when many writers append at once", async () => {
    const writers = Array.from({ length: 40 }, (_, i) =>
      appendStrictEvents(project.root, [
        mode(new Date(Date.UTC(2026, 10, 23, 10, 0, i)).toISOString()),
        { type: "edit_unattributed", ts: "2026-11-23T10:00:00.000Z", path: `src/f${i}.ts` },
      ]),
    );
    await Promise.all(writers);
    const read = await readStrictLog(project.root);
    expect(read.problems).toEqual([]);
    expect(read.events).toHaveLength(80);
    // Each writer's two lines stay together: one write per append.
    read.events.forEach((event, index) => {
      if (index % 2 === 1) expect(event.type).toBe("edit_unattributed");
    });
  });
});

describe("snapshots", () => {
  it("stores content by hash, restores it, and removes a file that did not exist", async () => {
    const object = await snapshotFile(project.root, "src/a.ts");
    expect(object).toBe(sha256("export const a = 1;\n"));
    expect(readFileSync(join(project.root, OBJECTS_DIR, object ?? ""), "utf8")).toBe(
      "export const a = 1;\n",
    );
    writeFileSync(join(project.root, "src/a.ts"), "broken");
    await restoreFile(project.root, "src/a.ts", object);
    expect(readFileSync(join(project.root, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");

    expect(await snapshotFile(project.root, "src/new.ts")).toBeNull();
    writeFileSync(join(project.root, "src/new.ts"), "created");
    await restoreFile(project.root, "src/new.ts", null);
    expect(existsSync(join(project.root, "src/new.ts"))).toBe(false);
    expect(await hashFile(project.root, "src/new.ts")).toBeNull();
  });

  it("keeps bytes exactly (not only text)", async () => {
    const bytes = Buffer.from([0, 255, 10, 13, 128]);
    writeFileSync(join(project.root, "blob.bin"), bytes);
    const object = await snapshotFile(project.root, "blob.bin");
    writeFileSync(join(project.root, "blob.bin"), "x");
    await restoreFile(project.root, "blob.bin", object);
    expect(readFileSync(join(project.root, "blob.bin")).equals(bytes)).toBe(true);
  });

  it("keeps a file larger than one read chunk whole, and leaves no temp file", async () => {
    const bytes = Buffer.alloc(2.5 * 1024 * 1024 + 7);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31) % 251;
    writeFileSync(join(project.root, "big.bin"), bytes);
    const object = await snapshotFile(project.root, "big.bin");
    expect(object).toBe(sha256(bytes));
    expect(await hashFile(project.root, "big.bin")).toBe(object);
    expect(await snapshotFile(project.root, "big.bin")).toBe(object);
    expect(readdirSync(join(project.root, OBJECTS_DIR))).toEqual([object]);
    writeFileSync(join(project.root, "big.bin"), "x");
    expect(await restoreFile(project.root, "big.bin", object)).toBe(true);
    expect(readFileSync(join(project.root, "big.bin")).equals(bytes)).toBe(true);
  });

  it("never restores an object whose bytes do not hash to its name", async () => {
    const object = await snapshotFile(project.root, "src/a.ts");
    if (object === null) throw new Error("not kept");
    const path = join(project.root, OBJECTS_DIR, object);
    const now = "export const a = 2;\n";
    writeFileSync(join(project.root, "src/a.ts"), now);

    // Torn by a crash (no fsync): shorter than it should be.
    writeFileSync(path, "export const");
    expect(readObject(project.root, object)).toBeUndefined();
    expect(await restoreFile(project.root, "src/a.ts", object)).toBe(false);
    expect(readFileSync(join(project.root, "src/a.ts"), "utf8")).toBe(now);

    // Same size, other bytes; then gone; then a name that is not a hash.
    writeFileSync(path, "export const b = 1;\n");
    expect(await restoreFile(project.root, "src/a.ts", object)).toBe(false);
    unlinkSync(path);
    expect(await restoreFile(project.root, "src/a.ts", object)).toBe(false);
    expect(await restoreFile(project.root, "src/a.ts", "../../src/a.ts")).toBe(false);
    expect(readFileSync(join(project.root, "src/a.ts"), "utf8")).toBe(now);

    // Kept again, it is whole and restores.
    writeFileSync(join(project.root, "src/a.ts"), "export const a = 1;\n");
    expect(await snapshotFile(project.root, "src/a.ts")).toBe(object);
    writeFileSync(join(project.root, "src/a.ts"), now);
    expect(await restoreFile(project.root, "src/a.ts", object)).toBe(true);
    expect(readFileSync(join(project.root, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
  });
});

describe("packs", () => {
  /** Files a batch keeps: `n.txt` holds its own text, so each has its own hash. */
  const files = (count: number) =>
    Array.from({ length: count }, (_, n) => {
      project.write(`f/${n}.txt`, `file ${n}\n`);
      return `f/${n}.txt`;
    });
  const packs = () => readdirSync(join(project.root, PACKS_DIR)).sort();

  it("keeps the first files loose and the rest in one pack, each restorable", async () => {
    const paths = files(5);
    const batch = keepObjects(project.root, 2);
    const ids = paths.map((path) => batch.keep(path));
    expect(ids).toEqual(paths.map((_, n) => sha256(`file ${n}\n`)));
    expect(batch.keep("f/missing.txt")).toBeNull();
    // Until it is finished, what went into the pack is not kept.
    expect(readObject(project.root, ids[4] ?? "")).toBeUndefined();
    batch.finish();
    const loose = readdirSync(join(project.root, OBJECTS_DIR)).filter((name) => name !== "packs");
    expect(loose.sort()).toEqual([ids[0], ids[1]].sort());
    expect(packs()).toHaveLength(2);
    expect(packs()[0]).toMatch(/\.idx$/);
    expect(packs()[1]).toMatch(/\.pack$/);
    for (const [n, path] of paths.entries()) {
      writeFileSync(join(project.root, path), "changed");
      expect(await restoreFile(project.root, path, ids[n] ?? null)).toBe(true);
      expect(readFileSync(join(project.root, path), "utf8")).toBe(`file ${n}\n`);
    }
  });

  it("keeps bytes exactly across the pack's writes: large, empty and repeated files", async () => {
    const big = Buffer.alloc(700 * 1024 + 3);
    for (let i = 0; i < big.length; i += 1) big[i] = (i * 7) % 253;
    writeFileSync(join(project.root, "big.bin"), big);
    writeFileSync(join(project.root, "empty.py"), "");
    writeFileSync(join(project.root, "same.py"), "export const a = 1;\n");
    const batch = keepObjects(project.root, 0);
    const ids = ["src/a.ts", "big.bin", "empty.py", "same.py", "src/a.ts"].map((path) =>
      batch.keep(path),
    );
    batch.finish();
    expect(ids[0]).toBe(ids[3]);
    expect(ids[1]).toBe(sha256(big));
    expect(ids[2]).toBe(sha256(""));
    const index = readFileSync(join(project.root, PACKS_DIR, packs()[0] ?? ""), "utf8");
    // One line per content: the same bytes are packed once.
    expect(index.trim().split("\n")).toHaveLength(3);
    expect(readObject(project.root, ids[1] ?? "")?.equals(big)).toBe(true);
    expect(readObject(project.root, ids[2] ?? "")?.length).toBe(0);
    expect(readObject(project.root, ids[0] ?? "")?.toString()).toBe("export const a = 1;\n");
  });

  it("never restores from a pack that is torn, altered or missing its index", async () => {
    const paths = files(3);
    const batch = keepObjects(project.root, 0);
    const ids = paths.map((path) => batch.keep(path) ?? "");
    batch.finish();
    const [index = "", pack = ""] = packs();
    const packPath = join(project.root, PACKS_DIR, pack);
    const indexPath = join(project.root, PACKS_DIR, index);
    const bytes = readFileSync(packPath);
    for (const path of paths) writeFileSync(join(project.root, path), "now");
    const restores = async () =>
      Promise.all(paths.map((path, n) => restoreFile(project.root, path, ids[n] ?? null)));

    // Torn by a crash (no fsync): the last object is cut short.
    writeFileSync(packPath, bytes.subarray(0, bytes.length - 2));
    expect(await restores()).toEqual([true, true, false]);
    expect(readFileSync(join(project.root, "f/2.txt"), "utf8")).toBe("now");
    // The same length, other bytes.
    writeFileSync(packPath, Buffer.from(bytes.toString().replace("file 1", "file 9")));
    expect(readObject(project.root, ids[1] ?? "")).toBeUndefined();
    // An index that points elsewhere, or is torn, or gone.
    writeFileSync(packPath, bytes);
    const lines = readFileSync(indexPath, "utf8").split("\n");
    writeFileSync(indexPath, [lines[0]?.replace(/ 0 /, " 1 "), lines[1]].join("\n"));
    expect(readObject(project.root, ids[0] ?? "")).toBeUndefined();
    expect(readObject(project.root, ids[1] ?? "")).toBeUndefined();
    unlinkSync(indexPath);
    expect(readObject(project.root, ids[2] ?? "")).toBeUndefined();
    expect(await restoreFile(project.root, "f/2.txt", ids[2] ?? null)).toBe(false);
    expect(readFileSync(join(project.root, "f/2.txt"), "utf8")).toBe("now");
  });

  it("an unfinished batch leaves no pack and no temp file", () => {
    const paths = files(3);
    const batch = keepObjects(project.root, 0);
    for (const path of paths) batch.keep(path);
    expect(packs()).toHaveLength(2);
    batch.discard();
    expect(packs()).toEqual([]);
    batch.finish();
    expect(packs()).toEqual([]);
  });
});

describe("the reduced log, read through its checkpoint", () => {
  const TS = "2026-11-23T10:00:00.000Z";
  const claimed = (claim: string, test: string): StrictEventInput[] => {
    const [file = "", name = ""] = test.split("::");
    return [
      {
        type: "test_run",
        ts: TS,
        test_id: test,
        test: { id: test, file, segments: [name], runner: "pytest", source: "native" },
        status: "fail",
        fail_reason: "assertion",
        command: "pytest",
        duration_ms: 5,
        test_file_hash: "a".repeat(64),
        purpose: "claim",
      },
      { type: "edit_claim", ts: TS, claim, test_id: test, edit_target: "src/a.py" },
    ];
  };
  const green = (claim: string): StrictEventInput => ({
    type: "verify_result",
    ts: TS,
    scope: "claim",
    claim,
    status: "pass",
  });
  const checkpointPath = () => join(project.root, STRICT_CHECKPOINT_PATH);
  /** 100 verified claims (300 events): more than a reader replays without writing a checkpoint. */
  async function history() {
    for (let i = 1; i <= 100; i += 1)
      await appendStrictEvents(project.root, [
        ...claimed(`c${i}`, `tests/test_a.py::test_${i}`),
        green(`c${i}`),
      ]);
  }
  const view = (root: string) => {
    const { snapshot, newer } = readStrictState(root);
    return {
      newer,
      size: snapshot.state.claims.size,
      open: [...snapshot.state.claims.values()]
        .filter((claim) => claim.status === "open")
        .map((claim) => claim.claim),
      events: snapshot.events,
    };
  };

  it("an empty project has the initial state", () => {
    expect(view(project.root)).toEqual({ newer: false, size: 0, open: [], events: 0 });
    expect(existsSync(checkpointPath())).toBe(false);
  });

  it("writes a checkpoint, then reads only the lines after it", async () => {
    await history();
    expect(view(project.root)).toEqual({ newer: false, size: 100, open: [], events: 300 });
    expect(existsSync(checkpointPath())).toBe(true);
    // A line in the middle of what the checkpoint covers (past its hashed edges) is not read
    // again: garbling it changes nothing.
    const text = log();
    const middle = text.indexOf('"claim":"c50"');
    writeStateLines(
      project.root,
      `${text.slice(0, middle)}"claim":"cXX"${text.slice(middle + 13)}`,
      {
        replace: true,
      },
    );
    await appendStrictEvents(project.root, claimed("c101", "tests/test_a.py::test_101"));
    expect(view(project.root)).toEqual({ newer: false, size: 101, open: ["c101"], events: 302 });
  });

  it("replays the whole log when the checkpoint does not match it, and writes a new one", async () => {
    await history();
    view(project.root);
    const before = readFileSync(checkpointPath(), "utf8");
    // Another log of the same length (its last claim rewritten): the tail hash differs.
    const text = log();
    const at = text.lastIndexOf('"claim":"c100"');
    writeStateLines(project.root, `${text.slice(0, at)}"claim":"c999"${text.slice(at + 14)}`, {
      replace: true,
    });
    expect(view(project.root).size).toBe(100);
    expect(readFileSync(checkpointPath(), "utf8")).not.toBe(before);
    // A shorter log (cut back to 150 events): replayed, never read past its end.
    const lines = log().split("\n").slice(0, 150);
    writeStateLines(project.root, `${lines.join("\n")}\n`, { replace: true });
    expect(view(project.root)).toEqual({ newer: false, size: 50, open: [], events: 150 });
  });

  it("replays the log when the checkpoint is unreadable, and a newer line still stops decisions", async () => {
    await history();
    view(project.root);
    for (const garbage of [
      "",
      "{",
      '{"version":1}',
      `{"version":${STRICT_CHECKPOINT_VERSION},"log":{}}`,
    ])
      for (const checkpoint of [garbage, readFileSync(checkpointPath(), "utf8")]) {
        writeFileSync(checkpointPath(), checkpoint);
        expect(view(project.root).size).toBe(100);
      }
    writeStateLines(project.root, '{"v":2,"type":"edit_claim","ts":"x"}\n');
    expect(view(project.root).newer).toBe(true);
  });

  const partPath = () => join(project.root, STRICT_CHECKPOINT_PART_PATH);
  /** Every claim's id and status, and every tested id, as a whole replay of the log gives them. */
  const everything = (root: string) => {
    const { snapshot } = readStrictState(root);
    return {
      claims: [...snapshot.state.claims.values()].map((claim) => [claim.claim, claim.status]),
      runIds: [...snapshot.runIds].sort(),
    };
  };

  it("keeps the closed claims in a part that a gate refusing an edit never reads", async () => {
    await history();
    await appendStrictEvents(project.root, claimed("c101", "tests/test_a.py::test_101"));
    const whole = everything(project.root);
    expect(whole.claims).toHaveLength(101);
    expect(existsSync(partPath())).toBe(true);
    expect(readFileSync(checkpointPath(), "utf8")).not.toContain('"c50"');
    expect(readFileSync(partPath(), "utf8")).toContain('"c50"');
    // What a gate reads: the open claims. With the part gone, nothing reads or rebuilds it.
    unlinkSync(partPath());
    const { snapshot } = readStrictState(project.root);
    expect(openClaims(snapshot.state).map((claim) => claim.claim)).toEqual(["c101"]);
    expect(existsSync(partPath())).toBe(false);
    // The first read of every claim rebuilds it from the log, the same as a whole replay.
    expect([...snapshot.state.claims.keys()]).toHaveLength(101);
    expect(existsSync(partPath())).toBe(true);
    expect(everything(project.root)).toEqual(whole);
  });

  it("rebuilds a missing, stale or unreadable part from the log, and moves a bad one aside", async () => {
    await history();
    const whole = everything(project.root);
    const good = readFileSync(partPath(), "utf8");
    const stale = good.replace(/"bytes":\d+/, '"bytes":1');
    takeRecoveries();
    for (const part of [
      undefined,
      stale,
      "",
      "{",
      `{"version":${STRICT_CHECKPOINT_VERSION}}`,
      good.replace('"green"', '"open"'),
    ]) {
      if (part === undefined) unlinkSync(partPath());
      else writeFileSync(partPath(), part);
      expect(everything(project.root)).toEqual(whole);
      expect(readFileSync(partPath(), "utf8")).toBe(good);
      const asides = readdirSync(join(project.root, ".tailtest")).filter((name) =>
        name.startsWith("strict-closed.json.corrupt-"),
      );
      // Only a part that does not read is moved aside (and said so); a missing or stale one is
      // only rewritten.
      const bad = part !== undefined && part !== stale;
      expect(takeRecoveries().length).toBe(bad ? 1 : 0);
      for (const name of asides) {
        expect(readFileSync(join(project.root, ".tailtest", name), "utf8")).toBe(part);
        unlinkSync(join(project.root, ".tailtest", name));
      }
      expect(asides.length).toBe(bad ? 1 : 0);
    }
  });

  it("replays the log when the part is read after the log was replaced, or blocks", async () => {
    await history();
    await appendStrictEvents(project.root, claimed("c101", "tests/test_a.py::test_101"));
    view(project.root);
    unlinkSync(partPath());
    const { snapshot } = readStrictState(project.root);
    // Another log under the same name while the call runs: no part can be rebuilt from it.
    const text = log();
    unlinkSync(join(project.root, EVENTS_PATH));
    writeFileSync(join(project.root, EVENTS_PATH), text.replaceAll('"claim":"c1"', '"claim":"c0"'));
    expect(() => snapshot.state.claims).toThrow(/changed under its checkpoint/);
    // The next call sees another log and replays it whole.
    expect(view(project.root).size).toBe(101);
  });

  it("a claim on a test whose run only the older log holds is read right", async () => {
    await history();
    view(project.root);
    // c1's test last ran before the checkpoint; a claim made without a new run still gets it.
    await appendStrictEvents(project.root, [
      {
        type: "edit_claim",
        ts: TS,
        claim: "c200",
        test_id: "tests/test_a.py::test_1",
        edit_target: "src/b.py",
      },
    ]);
    const { snapshot } = readStrictState(project.root);
    expect(snapshot.state.claims.get("c200")?.red?.test_id).toBe("tests/test_a.py::test_1");
  });
});

describe("supportHash", () => {
  it("changes with a setup file outside the project and a runner config above it", async () => {
    const outer = mkdtempSync(join(tmpdir(), "tailtest-support-"));
    try {
      const root = join(outer, "project");
      mkdirSync(join(root, "test"), { recursive: true });
      writeFileSync(join(root, "package.json"), "{}\n");
      writeFileSync(
        join(root, "vitest.config.js"),
        'export default { test: { setupFiles: ["../fix.js"] } };\n',
      );
      writeFileSync(join(root, "test/calc.test.js"), "");
      const hash = () => supportHash({ root, view: createFsView(root) }, "test/calc.test.js", {});
      const missing = await hash();
      writeFileSync(join(outer, "fix.js"), "// set up\n");
      const planted = await hash();
      expect(planted).not.toBe(missing);
      expect(await hash()).toBe(planted);
      writeFileSync(join(outer, "fix.js"), "// patched\n");
      const patched = await hash();
      expect(patched).not.toBe(planted);
      writeFileSync(join(outer, ".mocharc.json"), '{"require": ["x.js"]}\n');
      expect(await hash()).not.toBe(patched);
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  });
});
