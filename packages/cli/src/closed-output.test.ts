import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { guardOutput, type OutputStream } from "./closed-output.ts";

/** A stream stand-in that records writes and fails like a pipe whose reader left. */
class FakeStream extends EventEmitter implements OutputStream {
  written: string[] = [];
  destroyed = false;
  write(text: string): boolean {
    this.written.push(text);
    return true;
  }
  fail(code: string): void {
    this.destroyed = true;
    this.emit("error", Object.assign(new Error(`write ${code}`), { code }));
  }
}

function setUp() {
  const stdout = new FakeStream();
  const stderr = new FakeStream();
  const events: string[] = [];
  const output = guardOutput(
    { stdout, stderr },
    () => {
      events.push("signals on");
      return () => events.push("signals off");
    },
    () => events.push("closed"),
  );
  return { stdout, stderr, events, output };
}

describe("guardOutput", () => {
  it("passes writes through while the reader reads", () => {
    const { stdout, stderr, output, events } = setUp();
    output.stdout("a\n");
    output.stderr("b\n");
    expect([stdout.written, stderr.written, output.closed, events]).toEqual([
      ["a\n"],
      ["b\n"],
      false,
      [],
    ]);
  });

  it("turns EPIPE into the end: reported once, later writes dropped, a watcher stopped", () => {
    const { stdout, stderr, output, events } = setUp();
    let stopped = 0;
    const remove = output.onStopSignal(() => {
      stopped += 1;
      remove();
    });
    output.stdout("first\n");
    stdout.fail("EPIPE");
    // A write already on its way fails after the pipe closed: the same end, not a new error.
    stdout.emit(
      "error",
      Object.assign(new Error("write after end"), { code: "ERR_STREAM_DESTROYED" }),
    );
    stderr.fail("EPIPE");
    output.stdout("dropped\n");
    output.stderr("dropped\n");
    expect(output.closed).toBe(true);
    expect(stdout.written).toEqual(["first\n"]);
    expect(stderr.written).toEqual([]);
    expect(stopped).toBe(1);
    expect(events).toEqual(["signals on", "closed", "signals off"]);
  });

  it("stops a watcher that registers after the reader went", async () => {
    const { stdout, output } = setUp();
    stdout.fail("EPIPE");
    const stopped = new Promise<void>((resolve) => {
      const remove = output.onStopSignal(() => {
        remove();
        resolve();
      });
    });
    await expect(stopped).resolves.toBeUndefined();
  });

  it("leaves any other write error an error", () => {
    const { stdout, output } = setUp();
    expect(() => stdout.fail("ENOSPC")).toThrow("write ENOSPC");
    expect(output.closed).toBe(false);
  });
});
