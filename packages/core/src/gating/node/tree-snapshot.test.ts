import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { revertToBaseline } from "./content-sweep.ts";
import { openProject } from "../../project/node/project.ts";
import { compareTreeSnapshot, readTreeSnapshot, takeTreeSnapshot } from "./tree-snapshot.ts";
import { copyStatusLine } from "./copy-status.ts";
import { readObject, sha256 } from "../../strict/node/strict-store.ts";

/**
 * tailtest's own copy of the production files (no git): what it finds by content and what strict
 * puts back from it, on a real tree.
 */

const CALC = "def add(a, b):\n    return a + b\n";
const WRONG = "def add(a, b):\n    return a - b\n";

let project: TempProject;
afterEach(() => project.cleanup());

function setUp(mode: "tdd" | "strict" = "strict") {
  project = makeProject({
    ".tailtest/config.json": JSON.stringify({ mode }),
    "calc.py": CALC,
    "src/util.py": "def double(x):\n    return 2 * x\n",
    "tests/test_calc.py": "from calc import add\n",
  });
  return openProject(project.root);
}

const now = () => new Date();

/** A same-size write that puts the old mtime back (`touch -d`, `os.utime`). */
function sneaky(path: string, content: string): void {
  const { atime, mtime } = statSync(path);
  writeFileSync(path, content);
  utimesSync(path, atime, mtime);
}

describe("the tree snapshot", () => {
  it("keeps the production files only, by content", async () => {
    const p = setUp();
    expect(await takeTreeSnapshot(p, { now, keep: true })).toEqual({});
    const snapshot = readSnapshot(p);
    expect(Object.keys(snapshot.files)).toEqual(["calc.py", "src/util.py"]);
    expect(snapshot.over).toBeUndefined();
  });

  it("leaves the person's symbolic links alone, dangling or not", async () => {
    const p = setUp();
    symlinkSync(join("..", "..", "nowhere.py"), join(p.root, "src", "ghost.py"));
    symlinkSync("util.py", join(p.root, "src", "alias.py"));
    await takeTreeSnapshot(p, { now, keep: true });
    expect(Object.keys(readSnapshot(p).files)).toEqual(["calc.py", "src/util.py"]);
    const { changed } = await compareTreeSnapshot(p, readSnapshot(p));
    expect(changed).toEqual([]);
  });

  it("finds a write that put the old mtime back, and strict puts it back", async () => {
    const p = setUp();
    await takeTreeSnapshot(p, { now, keep: true });
    sneaky(join(p.root, "calc.py"), WRONG);
    const { changed, before } = await compareTreeSnapshot(p, readSnapshot(p));
    expect(changed).toEqual(["calc.py"]);
    expect(was(before, "calc.py").object).toBeDefined();
    expect(await revertToBaseline(p, "calc.py", was(before, "calc.py"))).toBeDefined();
    expect(readFileSync(join(p.root, "calc.py"), "utf8")).toBe(CALC);
  });

  it("finds a change but never restores a kept object that is torn", async () => {
    const p = setUp();
    await takeTreeSnapshot(p, { now, keep: true });
    const id = readSnapshot(p).files["calc.py"]?.id ?? "";
    // Objects are written with no fsync: a crash can leave one short under its name.
    writeFileSync(join(p.root, ".tailtest/objects", id), CALC.slice(0, 10));
    sneaky(join(p.root, "calc.py"), WRONG);
    const { changed, before } = await compareTreeSnapshot(p, readSnapshot(p));
    expect(changed).toEqual(["calc.py"]);
    expect(await revertToBaseline(p, "calc.py", was(before, "calc.py"))).toBeUndefined();
    expect(readFileSync(join(p.root, "calc.py"), "utf8")).toBe(WRONG);
  });

  it("finds a new and a deleted production file, and puts both back", async () => {
    const p = setUp();
    await takeTreeSnapshot(p, { now, keep: true });
    writeFileSync(join(p.root, "sneaky.py"), "x = 1\n");
    unlinkSync(join(p.root, "src/util.py"));
    const { changed, before } = await compareTreeSnapshot(p, readSnapshot(p));
    expect(changed).toEqual(["sneaky.py", "src/util.py"]);
    for (const path of changed) await revertToBaseline(p, path, was(before, path));
    expect(existsSync(join(p.root, "sneaky.py"))).toBe(false);
    expect(readFileSync(join(p.root, "src/util.py"), "utf8")).toContain("double");
  });

  it("keeps a package's root bin/ scripts, not a compiled build's output there", async () => {
    const p = setUp();
    mkdirSync(join(p.root, "bin/Debug"), { recursive: true });
    writeFileSync(join(p.root, "bin/cli.py"), "from calc import add\n\nprint(add(1, 2))\n");
    writeFileSync(join(p.root, "bin/Debug/App.cs"), "class App {}\n");
    await takeTreeSnapshot(p, { now, keep: true });
    expect(Object.keys(readSnapshot(p).files)).toEqual(["bin/cli.py", "calc.py", "src/util.py"]);
    sneaky(join(p.root, "bin/cli.py"), "from calc import add\n\nprint(add(1, 3))\n");
    const { changed, before } = await compareTreeSnapshot(p, readSnapshot(p));
    expect(changed).toEqual(["bin/cli.py"]);
    await revertToBaseline(p, "bin/cli.py", was(before, "bin/cli.py"));
    expect(readFileSync(join(p.root, "bin/cli.py"), "utf8")).toContain("add(1, 2)");
  });

  it("says nothing of a file touched with the same bytes", async () => {
    const p = setUp();
    await takeTreeSnapshot(p, { now, keep: true });
    writeFileSync(join(p.root, "calc.py"), CALC);
    expect((await compareTreeSnapshot(p, readSnapshot(p))).changed).toEqual([]);
  });

  it("in tdd keeps no bytes: a change is found, not put back", async () => {
    const p = setUp("tdd");
    await takeTreeSnapshot(p, { now, keep: false });
    sneaky(join(p.root, "calc.py"), WRONG);
    const { changed, before } = await compareTreeSnapshot(p, readSnapshot(p));
    expect(changed).toEqual(["calc.py"]);
    expect(await revertToBaseline(p, "calc.py", was(before, "calc.py"))).toBeUndefined();
  });

  it("says when a bound is passed, and a file past it is not called new", async () => {
    const p = setUp();
    const over = "more production files than the 1 it copies";
    expect(await takeTreeSnapshot(p, { now, keep: true, maxFiles: 1 })).toEqual({ over });
    expect(readSnapshot(p).over).toBe(over);
    expect(Object.keys(readSnapshot(p).files)).toEqual(["calc.py"]);
    writeFileSync(join(p.root, "src/new.py"), "x = 1\n");
    expect((await compareTreeSnapshot(p, readSnapshot(p))).changed).toEqual([]);
    const bytes = await takeTreeSnapshot(p, { now, keep: true, maxBytes: 40 });
    expect(bytes.over).toBe("more than 0 MiB of production files");
    expect(readSnapshot(p).files["src/util.py"]?.kept).toBeUndefined();
  });

  it("copies the first production files in the order their paths sort, ignored ones left out", async () => {
    // `-` and `.` sort before `/`: a folder's files do not all come before its neighbours'.
    project = makeProject({
      ".tailtest/config.json": JSON.stringify({ mode: "strict" }),
      ".gitignore": "*.gen.py\n",
      "a.py": CALC,
      "a/b.py": CALC,
      "a/z.gen.py": CALC,
      "a-b.py": CALC,
      "a0.py": CALC,
      "b.py": CALC,
    });
    const p = openProject(project.root);
    await takeTreeSnapshot(p, { now, keep: true });
    expect(Object.keys(readSnapshot(p).files)).toEqual([
      "a-b.py",
      "a.py",
      "a/b.py",
      "a0.py",
      "b.py",
    ]);
    await takeTreeSnapshot(p, { now, keep: true, maxFiles: 3 });
    expect(Object.keys(readSnapshot(p).files)).toEqual(["a-b.py", "a.py", "a/b.py"]);
  });

  it("keeps a large tree in a pack: a change behind the gate is put back from it", async () => {
    const p = setUp();
    // Past the first few, which are kept loose, the copy goes into one pack.
    for (let n = 0; n < 40; n += 1) project.write(`src/m${n}.py`, `X = ${n}\n`);
    await takeTreeSnapshot(p, { now, keep: true });
    const packs = readdirSync(join(p.root, ".tailtest/objects/packs"));
    expect(packs.filter((name) => name.endsWith(".pack"))).toHaveLength(1);
    sneaky(join(p.root, "src/m9.py"), "X = 0\n");
    const { changed, before } = await compareTreeSnapshot(p, readSnapshot(p));
    expect(changed).toEqual(["src/m9.py"]);
    expect(await revertToBaseline(p, "src/m9.py", was(before, "src/m9.py"))).toBeDefined();
    expect(readFileSync(join(p.root, "src/m9.py"), "utf8")).toBe("X = 9\n");
    // A pack a crash left torn: the change is still found, and never put back from it.
    for (const name of packs) writeFileSync(join(p.root, ".tailtest/objects/packs", name), "");
    sneaky(join(p.root, "src/m9.py"), "X = 0\n");
    const torn = await compareTreeSnapshot(p, readSnapshot(p));
    expect(torn.changed).toEqual(["src/m9.py"]);
    expect(await revertToBaseline(p, "src/m9.py", was(torn.before, "src/m9.py"))).toBeUndefined();
    expect(readFileSync(join(p.root, "src/m9.py"), "utf8")).toBe("X = 0\n");
  });

  it("reads the snapshot before a line at a time: only what changed is copied again", async () => {
    const p = setUp();
    // Over 64 KiB of entries, so the earlier snapshot is read across several chunks.
    for (let n = 0; n < 500; n += 1) project.write(`src/pkg${n % 7}/mod_é${n}.py`, `X = ${n}\n`);
    await takeTreeSnapshot(p, { now, keep: true });
    const text = readFileSync(join(p.root, ".tailtest/tree-snapshot.json"), "utf8");
    expect(text.length).toBeGreaterThan(64 * 1024);
    // One JSON document, one file a line.
    expect(text.split("\n")).toHaveLength(Object.keys(readSnapshot(p).files).length + 3);
    const objects = () => readdirSync(join(p.root, ".tailtest/objects/packs")).length;
    const packs = objects();
    await takeTreeSnapshot(p, { now, keep: true });
    expect(objects()).toBe(packs);
    expect(readFileSync(join(p.root, ".tailtest/tree-snapshot.json"), "utf8").slice(60)).toBe(
      text.slice(60),
    );
    // The last file, written with the old mtime put back: copied again, and kept.
    const last = Object.keys(readSnapshot(p).files).at(-1) ?? "";
    sneaky(join(p.root, last), "X = 7\n");
    await takeTreeSnapshot(p, { now, keep: true });
    expect(readSnapshot(p).files[last]?.id).toBe(sha256("X = 7\n"));
    expect(readObject(p.root, sha256("X = 7\n"))?.toString()).toBe("X = 7\n");
  });

  it("an entry before that does not read, or a snapshot in one line, loses nothing", async () => {
    const p = setUp();
    for (let n = 0; n < 30; n += 1) project.write(`src/m${n}.py`, `X = ${n}\n`);
    await takeTreeSnapshot(p, { now, keep: true });
    const whole = readSnapshot(p);
    const path = join(p.root, ".tailtest/tree-snapshot.json");
    const lines = readFileSync(path, "utf8").split("\n");
    lines[5] = '"src/m12.py":{"stat":';
    writeFileSync(path, lines.join("\n"));
    await takeTreeSnapshot(p, { now, keep: true });
    expect(readSnapshot(p).files).toEqual(whole.files);
    // As an earlier tailtest wrote it: the whole document in one line.
    writeFileSync(path, `${JSON.stringify(whole)}\n`);
    sneaky(join(p.root, "src/m3.py"), "X = 4\n");
    await takeTreeSnapshot(p, { now, keep: true });
    const after = readSnapshot(p);
    expect(after.files["src/m3.py"]?.id).toBe(sha256("X = 4\n"));
    expect({ ...after.files, "src/m3.py": whole.files["src/m3.py"] }).toEqual(whole.files);
  });

  it("`status` repeats the Stop's line while the copy is past a bound", async () => {
    const p = setUp();
    await takeTreeSnapshot(p, { now, keep: true });
    expect(copyStatusLine(p.root, "strict")).toBeUndefined();
    await takeTreeSnapshot(p, { now, keep: true, maxFiles: 1 });
    expect(copyStatusLine(p.root, "strict")).toBe(
      "tailtest's copy of the production files is incomplete (more production files than the 1 it copies): without git, a change outside the gate to a file past it is found only by its modification time and cannot be put back.",
    );
    expect(copyStatusLine(p.root, "tdd")).toBe(
      "tailtest's copy of the production files is incomplete (more production files than the 1 it copies): without git, a change outside the gate to a file past it is found only by its modification time.",
    );
    // A copy left from an earlier strict session says nothing once the mode keeps none.
    expect(copyStatusLine(p.root, "follow")).toBeUndefined();
  });
});

function readSnapshot(p: ReturnType<typeof openProject>) {
  const snapshot = readTreeSnapshot(p.root);
  if (snapshot === undefined) throw new Error("no snapshot was kept");
  return snapshot;
}

/** What a path held, as the comparison says. */
function was(before: Awaited<ReturnType<typeof compareTreeSnapshot>>["before"], path: string) {
  const entry = before.get(path);
  if (entry === undefined) throw new Error(`${path}: not changed`);
  return entry;
}
