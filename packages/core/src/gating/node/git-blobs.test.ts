import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeProject, type TempProject } from "@tailtest/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { gitBlob, gitBlobs } from "./git-blobs.ts";

/** git's blobs read back by id, on a real repository (one `cat-file --batch` per call). */

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

function stored(root: string, name: string, bytes: Buffer): string {
  writeFileSync(join(root, name), bytes);
  return execFileSync("git", ["hash-object", "-w", name], { cwd: root, encoding: "utf8" }).trim();
}

function repository(): string {
  project = makeProject({ "README.md": "x\n" });
  execFileSync("git", ["init", "-q"], { cwd: project.root });
  return project.root;
}

describe("gitBlobs", () => {
  it("reads several blobs at once, bytes exact, in any order asked", () => {
    const root = repository();
    const text = Buffer.from("def test_x():\n    assert f() == 1\n");
    const binary = Buffer.from([0, 10, 255, 10, 10, 13, 0x0a, 1]);
    const empty = Buffer.alloc(0);
    const ids = [stored(root, "a", text), stored(root, "b", binary), stored(root, "c", empty)];
    const blobs = gitBlobs(root, [ids[2]!, ids[0]!, ids[1]!, ids[0]!], 1024);
    expect(blobs?.size).toBe(3);
    expect(blobs?.get(ids[0]!)?.equals(text)).toBe(true);
    expect(blobs?.get(ids[1]!)?.equals(binary)).toBe(true);
    expect(blobs?.get(ids[2]!)?.length).toBe(0);
  });

  it("leaves out what git does not hold, a blob over the bound and a non-id", () => {
    const root = repository();
    const small = stored(root, "a", Buffer.from("small\n"));
    const large = stored(root, "b", Buffer.alloc(4096, 120));
    const missing = "0".repeat(40);
    const blobs = gitBlobs(root, [missing, large, small, "HEAD:README.md", "--help"], 1024);
    expect([...(blobs?.keys() ?? [])]).toEqual([small]);
    expect(gitBlob(root, large, 4096)?.length).toBe(4096);
    expect(gitBlob(root, large, 4095)).toBeUndefined();
    expect(gitBlob(root, missing, 4096)).toBeUndefined();
  });

  it("answers undefined outside a repository and nothing for no ids", () => {
    project = makeProject({ "README.md": "x\n" });
    expect(gitBlobs(project.root, [], 10)?.size).toBe(0);
    expect(gitBlobs(project.root, ["a".repeat(40)], 10)).toBeUndefined();
  });
});
