import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { afterEach, describe, expect, it } from "vitest";
import { APPEND_LOCK, boundLockWaits, STATE_LOCK, withFileLock } from "./store.ts";

/**
 * A gate's lock waits end at its deadline (a file of its own: the deadline is the process's).
 * Past it a read-modify-write fails (the gate denies), and an append goes without the lock.
 */

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

let unbound: (() => void) | undefined;

describe("boundLockWaits", () => {
  it("past the deadline a held lock fails a change at once and lets an append through", async () => {
    dir = mkdtempSync(join(tmpdir(), "tailtest-deadline-"));
    const path = join(dir, "events.jsonl");
    const release = await lockfile.lock(path, { realpath: false, lockfilePath: `${path}.lock` });
    try {
      // The deadline: 300 ms from now, however long this process has run.
      unbound = boundLockWaits(process.uptime() * 1000 + 300);
      const started = Date.now();
      await expect(withFileLock(path, STATE_LOCK, async () => "changed")).rejects.toMatchObject({
        code: "ELOCKED",
      });
      // STATE_LOCK alone waits 25 s; the deadline cut it short.
      expect(Date.now() - started).toBeLessThan(10_000);
      await expect(withFileLock(path, APPEND_LOCK, async () => "appended")).resolves.toBe(
        "appended",
      );
    } finally {
      unbound?.();
      await release();
    }
  });
});
