import { describe, expect, it } from "vitest";
import { runProcess } from "../src/engine/node/execute.ts";

/**
 * The runner process as `executePlan` starts it (node's own spawn): both streams kept as one
 * text, capped at both ends, an exit code or a signal, and a runner that cannot start named.
 * Real processes (node itself), nothing stubbed.
 */
const node = (source: string) => [process.execPath, "-e", source];
const options = (extra = {}) => ({ root: process.cwd(), timeoutMs: 60_000, ...extra });

describe("runProcess", () => {
  it("keeps stdout and stderr as one text, with the exit code", async () => {
    const outcome = await runProcess(
      node('process.stdout.write("out\\n"); process.stderr.write("err\\n"); process.exitCode = 3'),
      process.cwd(),
      {},
      options(),
      () => {},
    );
    expect(outcome.exitCode).toBe(3);
    expect(outcome.signal).toBeUndefined();
    expect(outcome.spawnError).toBeUndefined();
    expect(outcome.output).toContain("out\n");
    expect(outcome.output).toContain("err\n");
  });

  it("passes its environment on, over the caller's", async () => {
    const outcome = await runProcess(
      node("process.stdout.write(process.env.TT_PROBE + ' ' + typeof process.env.PATH)"),
      process.cwd(),
      { TT_PROBE: "given" },
      options(),
      () => {},
    );
    expect(outcome.output).toBe("given string");
  });

  it("keeps the first and the last bytes of a long output, and says how much it cut", async () => {
    const outcome = await runProcess(
      node('process.stdout.write("A".repeat(5000) + "B".repeat(5000) + "C".repeat(5000))'),
      process.cwd(),
      {},
      options({ outputCapBytes: 1000 }),
      () => {},
    );
    expect(outcome.output.startsWith("A".repeat(1000))).toBe(true);
    expect(outcome.output.endsWith("C".repeat(1000))).toBe(true);
    expect(outcome.output).toContain("(13000 characters cut)");
  });

  it("decodes a character split across chunks whole", async () => {
    const outcome = await runProcess(
      node(
        'const b = Buffer.from("é"); process.stdout.write(b.subarray(0, 1)); setTimeout(() => process.stdout.write(b.subarray(1)), 50)',
      ),
      process.cwd(),
      {},
      options(),
      () => {},
    );
    expect(outcome.output).toBe("é");
  });

  it("names a runner that cannot start", async () => {
    const outcome = await runProcess(
      ["tailtest-no-such-runner-xyz"],
      process.cwd(),
      {},
      options(),
      () => {},
    );
    expect(outcome.spawnError).toBe("ENOENT");
    expect(outcome.exitCode).toBeNull();
    expect(outcome.timedOut).toBe(false);
  });

  it("reports a runner ended by a signal", async () => {
    const outcome = await runProcess(
      node('process.kill(process.pid, "SIGTERM"); setTimeout(() => {}, 10_000)'),
      process.cwd(),
      {},
      options(),
      () => {},
    );
    expect(outcome.signal).toBe("SIGTERM");
    expect(outcome.exitCode).toBeNull();
    expect(outcome.spawnError).toBeUndefined();
  });
});
