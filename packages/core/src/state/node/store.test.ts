import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { CREATED_STATE_MARK, createdState } from "../../hook/node/created-state.ts";
import { answerSafely } from "../../hook/node/hook-process.ts";
import {
  prefetchState,
  readState,
  STATE_LOCK,
  takeRecoveries,
  updateState,
  withFileLock,
  writeAtomic,
  writeAtomicPieces,
  type StateFile,
} from "./store.ts";

const CounterSchema = z.object({
  version: z.literal(1),
  count: z.number().int(),
  items: z.array(z.string()),
});
type Counter = z.infer<typeof CounterSchema>;

let project: TempProject;
let file: StateFile<Counter>;

beforeEach(() => {
  project = makeProject();
  file = {
    path: join(project.root, ".tailtest", "state.json"),
    schema: CounterSchema,
    create: () => ({ version: 1, count: 0, items: [] }),
  };
});
afterEach(() => project.cleanup());

const bump = (item: string) => (current: Counter) => ({
  value: { ...current, count: current.count + 1, items: [...current.items, item] },
  result: current.count + 1,
});

const asideFiles = () =>
  readdirSync(join(project.root, ".tailtest")).filter((name) => name.includes(".corrupt-"));

describe("state store", () => {
  it("creates the file on first update and reads it back", async () => {
    expect(await readState(file)).toEqual({ value: file.create(), existed: false });
    const { value, result } = await updateState(file, bump("a"));
    expect(result).toBe(1);
    expect(value.items).toEqual(["a"]);
    expect(await readState(file)).toEqual({ value, existed: true });
    expect(readdirSync(join(project.root, ".tailtest")).sort()).toEqual(["state.json"]);
  });

  it("applies updates in order within one process", async () => {
    await Promise.all(
      ["a", "b", "c", "d", "e", "f", "g", "h"].map((item) => updateState(file, bump(item))),
    );
    const { value } = await readState(file);
    expect(value.count).toBe(8);
    expect([...value.items].sort()).toEqual(["a", "b", "c", "d", "e", "f", "g", "h"]);
  });

  it.each([
    ["truncated JSON", '{"version":1,"count":', "the file is not valid JSON"],
    ["an empty file", "", "the file is empty"],
    ["binary garbage", "\u0000\u00ff\u0001garbage", "the file is not valid JSON"],
    [
      "a schema mismatch",
      '{"version":1,"count":"three","items":[]}',
      'it does not match the schema at "count"',
    ],
    [
      "a future schema version",
      '{"version":7,"count":1,"items":[],"new_field":true}',
      "it was written by a newer tailtest (schema version 7)",
    ],
  ])("moves %s aside, keeps it, and rebuilds", async (_name, content, reason) => {
    mkdirSync(join(project.root, ".tailtest"), { recursive: true });
    writeFileSync(file.path, content);
    const read = await readState(file);
    expect(read).toMatchObject({ existed: true, problem: reason, value: file.create() });
    const { value, recovered } = await updateState(file, bump("after"));
    expect(recovered?.reason).toBe(reason);
    expect(value).toEqual({ version: 1, count: 1, items: ["after"] });
    const aside = asideFiles();
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(project.root, ".tailtest", aside[0]!), "utf8")).toBe(content);
    expect(recovered?.movedTo.endsWith(aside[0]!)).toBe(true);
  });

  it("an update that changes nothing leaves the file as it is (same inode, no write)", async () => {
    await updateState(file, bump("a"));
    const before = statSync(file.path);
    const { value } = await updateState(file, (current) => ({ value: { ...current }, result: 0 }));
    expect(value.items).toEqual(["a"]);
    const after = statSync(file.path);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    // A real change is written (a new file renamed over the old one).
    await updateState(file, bump("b"));
    expect(statSync(file.path).ino).not.toBe(before.ino);
  });

  it("leaves no temporary files after a write", async () => {
    await writeAtomic(file.path, "{}\n");
    await writeAtomic(file.path, '{"a":1}\n');
    expect(readdirSync(join(project.root, ".tailtest"))).toEqual(["state.json"]);
    expect(readFileSync(file.path, "utf8")).toBe('{"a":1}\n');
  });

  it("a write that fails part-way keeps the previous file intact", async () => {
    await updateState(file, bump("kept"));
    // JSON.stringify throws on a BigInt: the new content never reaches the disk.
    await expect(
      updateState(file, (current) => ({
        value: { ...current, count: 10n as unknown as number },
        result: 0,
      })),
    ).rejects.toThrow();
    expect((await readState(file)).value.items).toEqual(["kept"]);
    expect(readdirSync(join(project.root, ".tailtest")).sort()).toEqual(["state.json"]);
  });

  it("a change that throws writes nothing and releases the lock", async () => {
    await updateState(file, bump("a"));
    await expect(
      updateState(file, () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(existsSync(`${file.path}.lock`)).toBe(false);
    expect((await updateState(file, bump("b"))).value.items).toEqual(["a", "b"]);
  });

  it("a temporary file whose write fails is removed, the old file kept", async () => {
    await writeAtomic(file.path, "old\n");
    await expect(writeAtomic(file.path, 42 as unknown as string)).rejects.toThrow();
    expect(readdirSync(join(project.root, ".tailtest"))).toEqual(["state.json"]);
    expect(readFileSync(file.path, "utf8")).toBe("old\n");
  });
});

describe("a call that creates or rebuilds a state file", () => {
  const marks = process as unknown as Record<symbol, unknown>;
  afterEach(() => {
    delete marks[CREATED_STATE_MARK];
  });

  it("is marked, so its code cache is not kept; an update of a good file is not", async () => {
    delete marks[CREATED_STATE_MARK];
    await readState(file);
    expect(createdState()).toBe(false);
    await updateState(file, bump("a"));
    expect(createdState()).toBe(true);
    delete marks[CREATED_STATE_MARK];
    await updateState(file, bump("b"));
    expect(createdState()).toBe(false);
    writeFileSync(file.path, "not json");
    await updateState(file, bump("c"));
    expect(createdState()).toBe(true);
    expect(takeRecoveries().at(-1)?.reason).toMatch(/not valid JSON/);
  });
});

describe("locks", () => {
  it("a lock that cannot be made fails at once instead of being waited for", async () => {
    // ENAMETOOLONG can never go away; with a two-minute wait, only a fail-fast finishes in time.
    const path = join(project.root, "x".repeat(300));
    const wait = { ...STATE_LOCK, waitMs: 120_000 };
    await expect(withFileLock(path, wait, () => Promise.resolve())).rejects.toMatchObject({
      code: "ENAMETOOLONG",
    });
  });

  it("a lock another holder has is waited for, then taken", async () => {
    const path = join(project.root, "shared");
    const order: string[] = [];
    let letGo: () => void = () => undefined;
    let entered: () => void = () => undefined;
    const holding = new Promise<void>((done) => (entered = done));
    const held = withFileLock(path, STATE_LOCK, async () => {
      order.push("first in");
      entered();
      await new Promise<void>((done) => (letGo = done));
      order.push("first out");
    });
    // The first holder has the lock before the second asks (a fixed wait raced a busy machine).
    await holding;
    const second = withFileLock(path, STATE_LOCK, () => {
      order.push("second");
      return Promise.resolve();
    });
    await new Promise((done) => setTimeout(done, 100));
    letGo();
    await Promise.all([held, second]);
    expect(order).toEqual(["first in", "first out", "second"]);
  });
});

describe("a state file moved aside is reported by the hook's one stderr line", () => {
  it("names the file, why, and where it is kept", async () => {
    takeRecoveries();
    mkdirSync(join(project.root, ".tailtest"), { recursive: true });
    writeFileSync(file.path, "{ torn");
    const output = await answerSafely(async () => {
      await updateState(file, bump("a"));
      return { stdout: "", stderr: "", exitCode: 0 };
    }, "");
    expect(output.stderr).toMatch(
      /^tailtest: state\.json could not be used \(the file is not valid JSON\), kept as state\.json\.corrupt-[^ ]+ and started afresh\.\n$/,
    );
    expect(output.stderr).not.toContain(project.root);
    expect(takeRecoveries()).toEqual([]);
  });

  it("joins a failure's line, still one line", async () => {
    mkdirSync(join(project.root, ".tailtest"), { recursive: true });
    writeFileSync(file.path, "");
    const output = await answerSafely(async () => {
      await updateState(file, bump("a"));
      throw new Error("later");
    }, "{}");
    expect(output.stdout).toBe("{}");
    expect(output.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(output.stderr).toContain("skipped this hook: later");
    expect(output.stderr).toContain("the file is empty");
  });
});

describe("prefetchState", () => {
  /** The counter's schema, counting how often a file is checked against it. */
  const counted = () => {
    let checks = 0;
    const schema = CounterSchema.transform((value) => {
      checks += 1;
      return value;
    });
    const counting: StateFile<Counter> = { ...file, schema };
    return { counting, checks: () => checks };
  };

  it("lets the next read or update of the same text skip the parse, once", async () => {
    await updateState(file, bump("a"));
    const { counting, checks } = counted();
    prefetchState(counting);
    expect(checks()).toBe(1);
    const { value } = await updateState(counting, bump("b"));
    expect(checks()).toBe(1);
    expect(value.items).toEqual(["a", "b"]);
    expect((await readState(counting)).value.items).toEqual(["a", "b"]);
    expect(checks()).toBe(2);
  });

  it("parses again a file written since, and never keeps one that does not parse", async () => {
    await updateState(file, bump("a"));
    const { counting, checks } = counted();
    prefetchState(counting);
    await updateState(file, bump("b"));
    expect((await readState(counting)).value.items).toEqual(["a", "b"]);
    expect(checks()).toBe(2);
    writeFileSync(file.path, '{"version": 1, "count": "many"}');
    prefetchState(counting);
    expect((await readState(counting)).problem).toContain("does not match the schema");
    prefetchState({ ...counting, path: join(project.root, "missing.json") });
    expect(await readState({ ...counting, path: join(project.root, "missing.json") })).toEqual({
      value: file.create(),
      existed: false,
    });
  });
});

describe("writeAtomicPieces", () => {
  let dir: TempProject;
  beforeEach(() => {
    dir = makeProject({});
  });
  afterEach(() => dir.cleanup());

  it("writes the pieces as one file, past its gathering size", async () => {
    const path = join(dir.root, "state", "big.json");
    const piece = `${"é".repeat(1000)}\n`;
    await writeAtomicPieces(path, async (put) => {
      for (let i = 0; i < 200; i += 1) put(piece);
    });
    expect(readFileSync(path, "utf8")).toBe(piece.repeat(200));
    expect(readdirSync(join(dir.root, "state"))).toEqual(["big.json"]);
  });

  it("leaves the old file and no temp file when the pieces stop with an error", async () => {
    const path = join(dir.root, "kept.json");
    writeFileSync(path, "old\n");
    await expect(
      writeAtomicPieces(path, async (put) => {
        put("x".repeat(100_000));
        throw new Error("stopped");
      }),
    ).rejects.toThrow("stopped");
    expect(readFileSync(path, "utf8")).toBe("old\n");
    expect(readdirSync(dir.root).filter((name) => name.startsWith("kept"))).toEqual(["kept.json"]);
  });
});
