import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { launcherStub } from "./launcher-stub.ts";

/** A launcher that says what it was given, as node's CommonJS loader would give it. */
const LAUNCHER = `"use strict";
process.stdout.write(JSON.stringify({
  file: __filename,
  dir: __dirname,
  sameExports: module.exports === exports && this === exports,
  required: typeof require("node:path").join,
  flagged: process.argv.includes("--set-flags"),
}));
if (process.argv.includes("--set-flags")) process[Symbol.for("tailtest.v8-flags-set")] = "--liftoff-only";
`;

let dir: string;
let hook: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tailtest-launcher-stub-"));
  hook = join(dir, "hook.cjs");
  writeFileSync(hook, launcherStub(LAUNCHER));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** One hook process: a plain `node hook.cjs`, as an agent runs it. */
function call(nodeFlags: string[] = [], args: string[] = []): Record<string, unknown> {
  const out = execFileSync(process.execPath, [...nodeFlags, hook, ...args], {
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  return JSON.parse(out) as Record<string, unknown>;
}

const caches = () => readdirSync(dir).filter((name) => name.endsWith(".cache"));
const PLAIN = new RegExp(
  `^hook\\.[0-9a-f]{16}-${process.versions.v8.replace(/[^\w.-]/g, "_").replace(/\./g, "\\.")}-${process.arch}\\.local\\.cache$`,
);

describe("launcherStub", () => {
  it("runs the launcher as node's loader would, and keeps its compiled code for the next call", () => {
    const answer = { file: hook, dir, sameExports: true, required: "function", flagged: false };
    expect(call()).toEqual(answer);
    const written = caches();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(PLAIN);
    const cache = join(dir, written[0] ?? "");
    const first = statSync(cache);
    // The next call takes the cache: it is neither rejected nor written again.
    expect(call()).toEqual(answer);
    const second = statSync(cache);
    expect([second.ino, second.mtimeMs]).toEqual([first.ino, first.mtimeMs]);
    expect(caches()).toEqual(written);
  });

  it("writes a cache again in place of one V8 rejects", () => {
    call();
    const name = caches()[0] ?? "";
    writeFileSync(join(dir, name), "not a code cache");
    expect(call()).toMatchObject({ file: hook });
    expect(statSync(join(dir, name)).size).toBeGreaterThan(100);
    expect(caches()).toEqual([name]);
  });

  it("keeps no cache made after the call changed V8's flags (it would be rejected)", () => {
    expect(call([], ["--set-flags"])).toMatchObject({ flagged: true });
    expect(caches()).toEqual([]);
  });

  it("gives node's own flags a cache of their own", () => {
    call();
    call(["--no-warnings"]);
    const names = caches();
    expect(names).toHaveLength(2);
    expect(names.filter((name) => PLAIN.test(name))).toHaveLength(1);
    expect(names.some((name) => /-f[0-9a-z]+\.local\.cache$/.test(name))).toBe(true);
  });

  it("refuses a launcher with an import() or a character outside ASCII", () => {
    expect(() => launcherStub(`import("node:fs");`)).toThrow(/import\(\)/);
    expect(() => launcherStub(`var label = "é";`)).toThrow(/ASCII/);
  });
});
