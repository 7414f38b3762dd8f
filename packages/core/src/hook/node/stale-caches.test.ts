import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeStaleCaches } from "./stale-caches.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("removeStaleCaches", () => {
  it("keeps this build's caches and other bundles' files, removes earlier builds' caches", () => {
    const dist = mkdtempSync(join(tmpdir(), "tailtest-caches-"));
    folders.push(dist);
    const files = [
      "tailtest-main.cjs",
      "tailtest-main.new0-11.3-x64-help.local.cache",
      "tailtest-main.new0-11.3-x64-other.cache",
      "tailtest-main.old0-11.3-x64-help.local.cache",
      "tailtest-main.old1-11.3-x64-run-dry.local.cache",
      "tailtest-status.old0-11.3-x64-status.local.cache",
      "tree-sitter.wasm",
    ];
    for (const name of files) writeFileSync(join(dist, name), "");
    expect(removeStaleCaches(join(dist, "tailtest-main.cjs"), "new0")).toEqual([
      "tailtest-main.old0-11.3-x64-help.local.cache",
      "tailtest-main.old1-11.3-x64-run-dry.local.cache",
    ]);
    expect(readdirSync(dist).sort()).toEqual([
      "tailtest-main.cjs",
      "tailtest-main.new0-11.3-x64-help.local.cache",
      "tailtest-main.new0-11.3-x64-other.cache",
      "tailtest-status.old0-11.3-x64-status.local.cache",
      "tree-sitter.wasm",
    ]);
  });
});
