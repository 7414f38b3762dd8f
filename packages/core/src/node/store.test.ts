import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { readState, updateState, writeAtomic, type StateFile } from "./store.ts";

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
});
