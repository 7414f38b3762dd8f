import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { armDeadline } from "./deadline.ts";

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Runs `armDeadline`'s own source in a node process of its own, with `body` after it. */
function runAlone(body: string) {
  return spawnSync(
    process.execPath,
    ["-e", `const armDeadline = ${armDeadline.toString()};\n${body}`],
    { encoding: "utf8", timeout: 15_000 },
  );
}

describe("armDeadline", () => {
  it("fires once while the process waits on something else", async () => {
    let fired = 0;
    armDeadline(20, () => (fired += 1));
    await sleep(400);
    expect(fired).toBe(1);
  });

  it("does not fire once disarmed, and disarming twice is harmless", async () => {
    let fired = 0;
    const disarm = armDeadline(20, () => (fired += 1));
    disarm();
    disarm();
    await sleep(400);
    expect(fired).toBe(0);
  });

  it("fires for a deadline already past (0 ms), on the next turn, not synchronously", async () => {
    let fired = 0;
    armDeadline(0, () => (fired += 1));
    expect(fired).toBe(0);
    await sleep(200);
    expect(fired).toBe(1);
  });

  it("fires while the process waits on a child", () => {
    const run = runAlone(
      `armDeadline(50, () => { process.stdout.write("fired"); process.exit(3); });
       require("node:child_process").exec("sleep 5", () => process.stdout.write("child"));`,
    );
    expect([run.status, run.stdout]).toEqual([3, "fired"]);
  });

  it("does not hold the process open: with nothing else to do it ends, and nothing fires", () => {
    // A deadline of a minute against the 15 s the run is given: a process held open by the
    // deadline is killed (status null) rather than ending on its own.
    const run = runAlone(`armDeadline(60_000, () => process.stdout.write("fired"));`);
    expect([run.status, run.signal, run.stdout]).toEqual([0, null, ""]);
  });

  it("falls back to an unref'd timer where Atomics has no waitAsync", () => {
    const run = runAlone(
      `delete Atomics.waitAsync;
       armDeadline(50, () => { process.stdout.write("fired"); process.exit(3); });
       setTimeout(() => {}, 2_000);`,
    );
    expect([run.status, run.stdout]).toEqual([3, "fired"]);
    const idle = runAlone(
      `delete Atomics.waitAsync; armDeadline(60_000, () => process.stdout.write("fired"));`,
    );
    expect([idle.status, idle.signal, idle.stdout]).toEqual([0, null, ""]);
  });
});
