import { EventEmitter } from "node:events";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fdStream, guardOutput, type OutputStream } from "./closed-output.ts";

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

describe("fdStream", () => {
  it("writes every text to the descriptor, in order, without the stream", () => {
    const dir = mkdtempSync(join(tmpdir(), "tailtest-fd-"));
    try {
      const file = join(dir, "out.txt");
      const fd = openSync(file, "w");
      let asked = 0;
      const out = fdStream(fd, () => {
        asked += 1;
        return new FakeStream();
      });
      out.write("ünïcode first\n");
      out.write("then ".repeat(20_000));
      closeSync(fd);
      expect(readFileSync(file, "utf8")).toBe(`ünïcode first\n${"then ".repeat(20_000)}`);
      expect([asked, out.destroyed]).toEqual([0, false]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a failed write to its error listeners, as the stream would", () => {
    const dir = mkdtempSync(join(tmpdir(), "tailtest-fd-"));
    try {
      const fd = openSync(join(dir, "out.txt"), "w");
      closeSync(fd);
      const errors: string[] = [];
      const out = fdStream(fd, () => new FakeStream());
      out.on("error", (error) => errors.push((error as NodeJS.ErrnoException).code ?? "?"));
      expect(out.write("lost\n")).toBe(false);
      expect([errors, out.destroyed]).toEqual([["EBADF"], true]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ends the command quietly through guardOutput when the reader went (EPIPE)", () => {
    const dir = mkdtempSync(join(tmpdir(), "tailtest-fd-"));
    try {
      const fd = openSync(join(dir, "out.txt"), "w");
      closeSync(fd);
      const events: string[] = [];
      const output = guardOutput(
        { stdout: fdStream(fd, () => new FakeStream()), stderr: new FakeStream() },
        () => () => undefined,
        () => events.push("closed"),
      );
      // EBADF is not a closed pipe: it stays an error, thrown where the write was made.
      expect(() => output.stdout("x\n")).toThrow(/EBADF/);
      expect(events).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
