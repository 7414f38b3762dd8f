import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitSync } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { eachGitChunk, gitOutputFile } from "./git-output.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A work tree of `count` files with long paths (3,000: `git ls-files -z` is over 256 KiB). */
function tree(count: number): string {
  const root = mkdtempSync(join(tmpdir(), "tailtest-git-output-"));
  dirs.push(root);
  const folder = `pkg/${"deep".repeat(20)}`;
  mkdirSync(join(root, folder), { recursive: true });
  for (let at = 0; at < count; at += 1)
    writeFileSync(join(root, folder, `module_${String(at).padStart(4, "0")}.py`), "");
  gitSync(root, "init", "-q");
  gitSync(root, "add", "-A");
  return root;
}

describe("eachGitChunk", () => {
  it("hands over git's whole output in chunks that each end at a record's end", () => {
    const root = tree(3000);
    const chunks: string[] = [];
    expect(eachGitChunk(root, ["ls-files", "-z"], "\0", (text) => chunks.push(text))).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.endsWith("\0")).toBe(true);
    expect(chunks.join("")).toBe(gitSync(root, "ls-files", "-z"));
  });

  it("says false when git fails, and true with nothing for an empty answer", () => {
    const root = tree(2);
    const chunks: string[] = [];
    expect(
      eachGitChunk(root, ["ls-files", "--no-such-option"], "\0", (text) => chunks.push(text)),
    ).toBe(false);
    expect(
      eachGitChunk(root, ["ls-files", "-z", "--", "nothing-here"], "\0", (text) =>
        chunks.push(text),
      ),
    ).toBe(true);
    expect(chunks).toEqual([]);
  });
});

describe("gitOutputFile", () => {
  it("reads git's output again as often as asked, then removes it when closed", () => {
    const root = tree(3000);
    const outside = mkdtempSync(join(tmpdir(), "tailtest-git-output-tmp-"));
    dirs.push(outside);
    const before = process.env["TMPDIR"];
    process.env["TMPDIR"] = outside;
    try {
      const output = gitOutputFile(root, ["ls-files", "-z"]);
      if (output === undefined) throw new Error("git failed");
      expect(readdirSync(outside)).toHaveLength(1);
      const read = (): string[] => {
        const chunks: string[] = [];
        expect(output.eachChunk("\0", (chunk) => chunks.push(chunk.toString("utf8")))).toBe(true);
        return chunks;
      };
      const first = read();
      expect(first.length).toBeGreaterThan(1);
      for (const chunk of first) expect(chunk.endsWith("\0")).toBe(true);
      expect(first.join("")).toBe(gitSync(root, "ls-files", "-z"));
      expect(read()).toEqual(first);
      output.close();
      expect(readdirSync(outside)).toEqual([]);
      expect(output.eachChunk("\0", () => undefined)).toBe(false);
      expect(gitOutputFile(root, ["ls-files", "--no-such-option"])).toBeUndefined();
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = before;
    }
  });
});
