import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isTerminal } from "./run-bin.ts";

describe("isTerminal", () => {
  it.each([
    ["/dev/null", () => "/dev/null"],
    ["a file", (dir: string) => join(dir, "out.txt")],
  ])("is false for %s", (_name, path) => {
    const dir = mkdtempSync(join(tmpdir(), "tailtest-terminal-"));
    const fd = openSync(path(dir), "w");
    try {
      expect(isTerminal(fd)).toBe(false);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is false for a descriptor that is not open", () => {
    expect(isTerminal(987_654)).toBe(false);
  });
});
