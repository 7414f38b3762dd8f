import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitSync } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { UNPLAIN_CONFIG, indexTracks, listsPath } from "./git-index.ts";
import { quickTest, requiredLiterals } from "../../util/literal-guard.ts";
import { gitStatusOf } from "./project.ts";

/**
 * The index read without git answers as `git ls-files --error-unmatch` does for every file it
 * lists, in each index version git writes, in a linked work tree and below the top of the work
 * tree; anything else is left to git. Real repositories made by git itself.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const FILES = [
  "a.py",
  "src/app/main.ts",
  "src/app/main.test.ts",
  "src/app/mainly.ts",
  "deep/one/two/three/four/five/six/seven/eight/nine/ten/file-with-a-long-name.js",
  "naïve/ünïcode.py",
  "x".repeat(120) + "/y.py",
];

function repo(): string {
  const root = mkdtempSync(join(tmpdir(), "tailtest-git-index-"));
  dirs.push(root);
  gitSync(root, "init", "-q");
  for (const file of FILES) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), "x\n");
  }
  gitSync(root, "add", "-A");
  gitSync(root, "commit", "-qm", "files");
  return root;
}

const UNTRACKED = ["b.py", "src/app/main", "src/app/main.ts/x", "src/app/mai.ts", "naïve"];

describe("indexTracks", () => {
  // git writes version 3 only for entries with extended flags (the next test).
  it.each([2, 4])("finds every tracked file in an index of version %i", (version) => {
    const root = repo();
    gitSync(root, "update-index", "--index-version", String(version));
    const index = readFileSync(join(root, ".git/index"));
    expect(index.readUInt32BE(4)).toBe(version);
    for (const file of FILES) expect(indexTracks(root, file), file).toBe(true);
    for (const file of UNTRACKED) expect(indexTracks(root, file), file).toBeUndefined();
  });

  it("reads an entry with extended flags (intent to add, version 3)", () => {
    const root = repo();
    writeFileSync(join(root, "later.py"), "x\n");
    gitSync(root, "add", "-N", "later.py");
    expect(readFileSync(join(root, ".git/index")).readUInt32BE(4)).toBe(3);
    expect(indexTracks(root, "later.py")).toBe(true);
    for (const file of FILES) expect(indexTracks(root, file), file).toBe(true);
  });

  it("answers for a project below the work tree's top and in a linked work tree", () => {
    const root = repo();
    expect(indexTracks(join(root, "src"), "app/main.ts")).toBe(true);
    expect(indexTracks(join(root, "src"), "app/other.ts")).toBeUndefined();
    const linked = join(root, "..", `${root.split("/").pop() ?? ""}-linked`);
    dirs.push(linked);
    gitSync(root, "worktree", "add", "-q", linked);
    expect(indexTracks(linked, "src/app/main.ts")).toBe(true);
    expect(indexTracks(linked, "b.py")).toBeUndefined();
  });

  it("leaves a split index and a file outside the work tree to git", () => {
    const root = repo();
    gitSync(root, "update-index", "--split-index");
    expect(indexTracks(root, "a.py")).toBeUndefined();
    expect(gitStatusOf(root, "a.py")).toBe("existing");
    expect(indexTracks(root, "../elsewhere.py")).toBeUndefined();
  });

  it("agrees with git: tracked is existing, the rest new", () => {
    const root = repo();
    writeFileSync(join(root, "b.py"), "x\n");
    for (const file of FILES) expect(gitStatusOf(root, file)).toBe("existing");
    expect(gitStatusOf(root, "b.py")).toBe("new");
  });

  it("reads no index that is not one", () => {
    expect(listsPath(Buffer.from("DIRC"), Buffer.from("a"))).toBe(false);
    expect(listsPath(Buffer.from("not an index at all"), Buffer.from("a"))).toBe(false);
  });
});

describe("the config check is guarded by its own literals", () => {
  it("needs one of the names it looks for", () => {
    expect(requiredLiterals(UNPLAIN_CONFIG)).toEqual([
      "objectformat",
      "splitindex",
      "sparseindex",
      "sparsecheckout",
      "worktree",
    ]);
  });
  it.each([
    "[core]\n\trepositoryformatversion = 0\n\tbare = false\n",
    "[extensions]\n\tobjectFormat = sha256\n",
    "[core]\n\tsparseCheckout = true\n",
    "[index]\n\tSplitIndex = true\n",
    "[core]\n  worktree = ../elsewhere\n",
    "[core]\n  worktreeish = x\n",
  ])("%j: the same answer as the pattern's own test", (text) => {
    expect(quickTest(UNPLAIN_CONFIG, text)).toBe(UNPLAIN_CONFIG.test(text));
  });
});
