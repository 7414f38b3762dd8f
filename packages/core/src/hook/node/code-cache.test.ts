import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIdOf, loadBundle, stampBuild, trainCodeCache } from "./code-cache.ts";

interface Exports {
  answer(): string;
  where(): string;
}

const BUNDLE_TEXT = `"use strict";
var label = "é is not ASCII";
module.exports = {
  answer: () => "forty-two",
  where: () => __filename,
  label: () => label,
};
`;

let dir: string;
let bundle: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tailtest-code-cache-"));
  bundle = join(dir, "hook-main.cjs");
  writeFileSync(bundle, BUNDLE_TEXT.replace("é is not ASCII", "plain"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const caches = () => readdirSync(dir).filter((name) => name.endsWith(".cache"));

/**
 * One hook process's load, as the launcher does it: in a fresh node, since within one process V8
 * finds a source it compiled before in its own memory and never looks at a cache.
 */
function loadInChild(
  route: string,
  createsState = false,
  method = "answer",
): { answer: string; cacheUsed: boolean; cacheFile: string } {
  const script = `
    import { loadBundle } from ${JSON.stringify(new URL("./code-cache.ts", import.meta.url).href)};
    import { markCreatedState } from ${JSON.stringify(new URL("./created-state.ts", import.meta.url).href)};
    const loaded = loadBundle(process.argv[1], process.argv[2]);
    const answer = loaded.exports[process.argv[4]]();
    if (process.argv[3] === "creates-state") markCreatedState();
    loaded.keepCache();
    console.log(JSON.stringify({ answer, cacheUsed: loaded.cacheUsed, cacheFile: loaded.cacheFile }));`;
  const out = execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      script,
      bundle,
      route,
      createsState ? "creates-state" : "",
      method,
    ],
    { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } },
  );
  return JSON.parse(out) as { answer: string; cacheUsed: boolean; cacheFile: string };
}

describe("loadBundle", () => {
  it("evaluates a CommonJS bundle as node would, then keeps its compiled code for the next call", () => {
    const loaded = loadBundle<Exports>(bundle, "post");
    expect(loaded.exports.answer()).toBe("forty-two");
    expect(loaded.exports.where()).toBe(bundle);
    expect(loaded.cacheUsed).toBe(false);
    expect(caches()).toEqual([]);

    const first = loadInChild("post");
    expect(first).toMatchObject({ answer: "forty-two", cacheUsed: false });
    expect(caches().map((name) => join(dir, name))).toEqual([first.cacheFile]);
    expect(first.cacheFile).toContain(`-${process.versions.v8}-${process.arch}-post`);
    expect(first.cacheFile).toContain(buildIdOf(readFileSync(bundle, "utf8")));
    const second = loadInChild("post");
    expect(second).toEqual({ ...first, cacheUsed: true });
    expect(caches()).toHaveLength(1);
  });

  it("keeps one cache per route, and a bundle of another build never meets another's cache", () => {
    loadInChild("pre");
    loadInChild("post");
    expect(caches()).toHaveLength(2);
    // Same length, other text: V8 alone would take the old cache (it checks the length only).
    writeFileSync(bundle, readFileSync(bundle, "utf8").replace("forty-two", "forty-six"));
    expect(loadInChild("post")).toMatchObject({ answer: "forty-six", cacheUsed: false });
    expect(caches()).toHaveLength(3);
  });

  it("a call that created a state file keeps no cache; the next call of its route writes it", () => {
    expect(loadInChild("post", true)).toMatchObject({ answer: "forty-two", cacheUsed: false });
    expect(caches()).toEqual([]);
    const next = loadInChild("post");
    expect(next).toMatchObject({ answer: "forty-two", cacheUsed: false });
    expect(caches().map((name) => join(dir, name))).toEqual([next.cacheFile]);
    // Once written, a cache is used whatever the call does.
    expect(loadInChild("post", true)).toMatchObject({ cacheUsed: true });
  });

  it("a cache that cannot be written costs nothing but the time, and leaves nothing behind", () => {
    const loaded = loadBundle<Exports>(bundle, "post");
    // Something in the way of the cache (as root, a read-only folder would not stop the write).
    mkdirSync(join(loaded.cacheFile, "in-the-way"), { recursive: true });
    expect(() => loaded.keepCache()).not.toThrow();
    expect(loaded.exports.answer()).toBe("forty-two");
    expect(readdirSync(dir).sort()).toEqual([basename(loaded.cacheFile), "hook-main.cjs"].sort());
  });

  it("a bundle larger than its cache: the cache read over the text's buffer leaves the text whole", () => {
    // `late` sits where the cache's bytes land in the buffer the text was read into, and only
    // the second process compiles it (lazily, from the text): a text still sharing that buffer
    // would hand V8 the cache's bytes instead.
    writeFileSync(
      bundle,
      `"use strict";
module.exports = {
  late: () => ["late", "ly"].join(""),
  answer: () => "forty-two",
};
/* ${"padding ".repeat(40_000)} */
`,
    );
    stampBuild(bundle);
    const first = loadInChild("post");
    expect(readFileSync(first.cacheFile).length).toBeLessThan(readFileSync(bundle).length / 10);
    expect(loadInChild("post", false, "late")).toMatchObject({ answer: "lately", cacheUsed: true });
  });

  it("a corrupt cache is rejected by V8 and replaced", () => {
    const { cacheFile } = loadInChild("post");
    writeFileSync(cacheFile, "not a code cache");
    expect(loadInChild("post")).toMatchObject({ answer: "forty-two", cacheUsed: false });
    expect(readFileSync(cacheFile).length).toBeGreaterThan(100);
    expect(loadInChild("post")).toMatchObject({ answer: "forty-two", cacheUsed: true });
  });
});

describe("stampBuild and trainCodeCache", () => {
  it("stamps the bundle's hash on its first line, marked ASCII when it is", () => {
    const { id, ascii } = stampBuild(bundle);
    expect(ascii).toBe(true);
    const text = readFileSync(bundle, "utf8");
    expect(text.split("\n")[0]).toBe(`/*tailtest-build:${id}:ascii*/`);
    expect(buildIdOf(text)).toBe(id);
    // Stamping again replaces the stamp: the hash is of the bundle, not of an earlier stamp.
    expect(stampBuild(bundle).id).toBe(id);
    expect(loadBundle<Exports>(bundle, "post").exports.answer()).toBe("forty-two");
  });

  it("a bundle with text outside ASCII is read as UTF-8", () => {
    writeFileSync(bundle, BUNDLE_TEXT);
    expect(stampBuild(bundle).ascii).toBe(false);
    const loaded = loadBundle<Exports & { label(): string }>(bundle, "post");
    expect(loaded.exports.label()).toBe("é is not ASCII");
  });

  it("trains a route's cache on real calls; the cache holds no path of the machine", async () => {
    stampBuild(bundle);
    const written = await trainCodeCache<Exports>(bundle, "pre", async (exports) => {
      expect(exports.answer()).toBe("forty-two");
      await Promise.resolve();
    });
    expect(written).toBe(loadBundle<Exports>(bundle, "pre").cacheFile);
    const data = readFileSync(written);
    expect(data.includes(Buffer.from(dir))).toBe(false);
    expect(data.includes(Buffer.from("hook-main.cjs"))).toBe(true);
    expect(loadBundle<Exports>(bundle, "pre").cacheUsed).toBe(true);
  });
});
