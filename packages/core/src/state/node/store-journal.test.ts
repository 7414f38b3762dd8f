import {
  appendFileSync,
  existsSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import {
  appendState,
  JOURNAL_ROTATE_BYTES,
  readState,
  updateState,
  type Journal,
  type StateFile,
} from "./store.ts";

/**
 * The journal's rules (ADR 0010) on a small state: a list that each line adds one item to once.
 * The parallel writers, and a crash between an append and its compaction, are real processes in
 * packages/core/test/store-concurrency.test.ts.
 */

const ListSchema = z.object({
  version: z.literal(1),
  items: z.array(z.string()),
  journal: z.optional(z.object({ ino: z.number(), bytes: z.number() })),
});
type List = z.infer<typeof ListSchema>;

let project: TempProject;
let file: StateFile<List> & { journal: Journal<List> };

function listFile(rotateBytes?: number): StateFile<List> & { journal: Journal<List> } {
  const path = join(project.root, ".tailtest", "list.json");
  return {
    path,
    schema: ListSchema,
    create: () => ({ version: 1, items: [] }),
    journal: {
      path: join(project.root, ".tailtest", "list.edits.jsonl"),
      cursor: (list) => list.journal,
      withCursor: (list, cursor) => ({ ...list, journal: cursor }),
      fold: (list, line) => {
        let item: unknown;
        try {
          item = (JSON.parse(line) as { item?: unknown }).item;
        } catch {
          return list;
        }
        return typeof item === "string" && !list.items.includes(item)
          ? { ...list, items: [...list.items, item] }
          : list;
      },
      ...(rotateBytes === undefined ? {} : { rotateBytes }),
    },
  };
}

beforeEach(() => {
  project = makeProject();
  file = listFile();
});
afterEach(() => project.cleanup());

const line = (item: string) => JSON.stringify({ item });
const onDisk = (): List => ListSchema.parse(JSON.parse(readFileSync(file.path, "utf8")));
const journalText = () => readFileSync(file.journal.path, "utf8");
/** Folds the journal under the lock, changing nothing else. */
const compact = () => updateState(file, (list) => ({ value: list, result: undefined }));

describe("the journal beside a state file", () => {
  it("without a state, the first change is written under the lock and starts the journal", async () => {
    const { before, value } = await appendState(file, line("a"));
    expect(before.items).toEqual([]);
    expect(value.items).toEqual(["a"]);
    expect(onDisk().items).toEqual(["a"]);
    expect(onDisk().journal).toEqual({ ino: statSync(file.journal.path).ino, bytes: 0 });
    expect(journalText()).toBe("");
  });

  it("later changes are appended lines, not state writes; readers see them in order", async () => {
    await appendState(file, line("a"));
    const state = readFileSync(file.path, "utf8");
    for (const item of ["b", "c", "d"]) await appendState(file, line(item));
    // The state file is as it was: each change is one line of the journal.
    expect(readFileSync(file.path, "utf8")).toBe(state);
    expect(journalText()).toBe(`\n${line("b")}\n\n${line("c")}\n\n${line("d")}\n`);
    expect((await readState(file)).value.items).toEqual(["a", "b", "c", "d"]);
  });

  it("a change the state already holds writes nothing", async () => {
    await appendState(file, line("a"));
    await appendState(file, line("b"));
    const before = journalText();
    const again = await appendState(file, line("b"));
    expect(again.before.items).toEqual(["a", "b"]);
    expect(journalText()).toBe(before);
  });

  it("a locked reader folds the lines in once and moves the cursor past them", async () => {
    await appendState(file, line("a"));
    for (const item of ["b", "c"]) await appendState(file, line(item));
    await compact();
    expect(onDisk().items).toEqual(["a", "b", "c"]);
    expect(onDisk().journal?.bytes).toBe(Buffer.byteLength(journalText()));
    // Folded lines are not folded again, even by a change that would count them twice.
    const counted = await updateState(file, (list) => ({
      value: { ...list, items: [...list.items, `n=${list.items.length}`] },
      result: undefined,
    }));
    expect(counted.value.items).toEqual(["a", "b", "c", "n=3"]);
    await appendState(file, line("d"));
    expect((await readState(file)).value.items).toEqual(["a", "b", "c", "n=3", "d"]);
  });

  it("a torn last line is skipped, the lines before it kept, and the lines after it count", async () => {
    await appendState(file, line("a"));
    await appendState(file, line("b"));
    // A crash in the middle of a write: half a line, no newline after it.
    appendFileSync(file.journal.path, `\n{"item":"c`);
    expect((await readState(file)).value.items).toEqual(["a", "b"]);
    await compact();
    expect(onDisk().items).toEqual(["a", "b"]);
    // The cursor stops before the torn line (it might still be being written)…
    expect(onDisk().journal?.bytes).toBe(Buffer.byteLength(journalText()) - `{"item":"c`.length);
    // …and a line written after it is whole, since every line starts on a new line.
    await appendState(file, line("d"));
    expect((await readState(file)).value.items).toEqual(["a", "b", "d"]);
    await compact();
    expect(onDisk().items).toEqual(["a", "b", "d"]);
    expect(onDisk().journal?.bytes).toBe(Buffer.byteLength(journalText()));
  });

  it("a journal the state does not name (the state was rebuilt) is folded from its start", async () => {
    await appendState(file, line("a"));
    await appendState(file, line("b"));
    writeFileSync(file.path, JSON.stringify({ version: 1, items: ["z"] }));
    await compact();
    expect(onDisk().items).toEqual(["z", "b"]);
    expect(onDisk().journal?.ino).toBe(statSync(file.journal.path).ino);
  });

  it("past its size, a locked reader sets the journal aside and starts a new one, losing nothing", async () => {
    file = listFile(100);
    await appendState(file, line("a"));
    const first = statSync(file.journal.path).ino;
    for (let i = 0; i < 10; i += 1) await appendState(file, line(`item-${i}`));
    await compact();
    expect(onDisk().items).toHaveLength(11);
    expect(statSync(file.journal.path).ino).not.toBe(first);
    expect(onDisk().journal).toEqual({ ino: statSync(file.journal.path).ino, bytes: 0 });
    expect(existsSync(`${file.journal.path}.folding`)).toBe(false);
    await appendState(file, line("after"));
    expect((await readState(file)).value.items.at(-1)).toBe("after");
  });

  it("a rotation cut short after the rename: the set-aside lines are folded from the cursor", async () => {
    await appendState(file, line("a"));
    await appendState(file, line("b"));
    await compact();
    await appendState(file, line("c"));
    // The crash: renamed aside, no new journal, the state not written.
    renameSync(file.journal.path, `${file.journal.path}.folding`);
    expect((await readState(file)).value.items).toEqual(["a", "b"]);
    await compact();
    expect(onDisk().items).toEqual(["a", "b", "c"]);
    expect(existsSync(`${file.journal.path}.folding`)).toBe(false);
    expect(onDisk().journal?.ino).toBe(statSync(file.journal.path).ino);
  });

  it("a rotation cut short after the state was written: the set-aside file is not folded again", async () => {
    await appendState(file, line("a"));
    await appendState(file, line("b"));
    await compact();
    // A file set aside whose lines the state already holds, then a change that drops "b".
    writeFileSync(`${file.journal.path}.folding`, `\n${line("b")}\n`);
    await updateState(file, (list) => ({
      value: { ...list, items: list.items.filter((item) => item !== "b") },
      result: undefined,
    }));
    expect(onDisk().items).toEqual(["a"]);
    expect(existsSync(`${file.journal.path}.folding`)).toBe(false);
  });

  it("the default rotation size leaves a session's day of edits in one file", () => {
    expect(JOURNAL_ROTATE_BYTES).toBeGreaterThanOrEqual(64 * 1024);
  });
});

describe("a hot schema: what a read that writes nothing back checks", () => {
  /** The list's fields the fold reads, the rest (`note`) passed through unchecked. */
  const HotSchema = z.looseObject({
    version: z.literal(1),
    items: z.array(z.string()),
    journal: z.optional(z.object({ ino: z.number(), bytes: z.number() })),
  });
  const WithNoteSchema = z.object({ ...ListSchema.def.shape, note: z.optional(z.string()) });
  /** A state whose field outside the hot schema does not pass the whole one. */
  const coldBroken = (items: string[]) => ({ version: 1, items, note: 42 });

  beforeEach(() => {
    file = { ...listFile(), schema: WithNoteSchema, hotSchema: HotSchema };
  });

  it("appends without the lock on what it checks, and the locked reader still checks the rest, losing no line", async () => {
    await appendState(file, line("a"));
    const cursor = onDisk().journal;
    writeFileSync(file.path, JSON.stringify({ ...coldBroken(["a"]), journal: cursor }));
    const written = readFileSync(file.path, "utf8");
    const { before, value } = await appendState(file, line("b"));
    expect([before.items, value.items]).toEqual([["a"], ["a", "b"]]);
    // The line was appended; the state it read was not written back.
    expect(journalText()).toContain(line("b"));
    expect(readFileSync(file.path, "utf8")).toBe(written);
    // The whole schema, under the lock: the file is moved aside (kept, with "a") and rebuilt,
    // the journal's lines folded into the new state (no cursor now: from the journal's start).
    const { value: rebuilt, recovered } = await compact();
    expect(recovered?.reason).toMatch(/does not match the schema at "note"/);
    expect(readFileSync(recovered?.movedTo ?? "", "utf8")).toBe(written);
    expect(rebuilt.items).toEqual(["b"]);
    expect(onDisk().items).toEqual(["b"]);
  });

  it("a field it checks that does not pass goes the locked way, as without it", async () => {
    await appendState(file, line("a"));
    writeFileSync(file.path, JSON.stringify({ version: 1, items: "a" }));
    const { value, recovered } = await appendState(file, line("b"));
    expect(recovered?.reason).toMatch(/does not match the schema at "items"/);
    expect(value.items).toEqual(["b"]);
  });

  it("a hot read and the append after it check the same text once; a text written since, again", async () => {
    let checks = 0;
    const counting = z.pipe(
      HotSchema,
      z.transform((value) => {
        checks += 1;
        return value;
      }),
    );
    file = { ...file, hotSchema: counting };
    await appendState(file, line("a"));
    await updateState(file, (list) => ({ value: list, result: undefined }));
    checks = 0;
    const read = await readState(file, { hot: true });
    expect(read.value.items).toEqual(["a"]);
    const { before, value } = await appendState(file, line("b"));
    expect(checks).toBe(1);
    expect(before.items).toEqual(["a"]);
    expect(value.items).toEqual(["a", "b"]);
    // Another process rewrote the state: its new text is checked, never the value kept before.
    writeFileSync(file.path, JSON.stringify({ ...onDisk(), items: ["a", "z"] }));
    expect((await readState(file, { hot: true })).value.items).toEqual(["a", "z", "b"]);
    expect(checks).toBe(2);
  });

  it("readState checks with it only when asked, passing the rest through", async () => {
    await appendState(file, line("a"));
    writeFileSync(file.path, JSON.stringify(coldBroken(["a"])));
    expect(await readState(file, { hot: true })).toEqual({
      value: coldBroken(["a"]),
      existed: true,
    });
    expect((await readState(file)).problem).toMatch(/does not match the schema at "note"/);
  });
});
