import { writeSync } from "node:fs";

/**
 * A reader that stops reading (`tailtest status --help | head -1`, a pager quit early) closes the
 * pipe, and the next write fails with EPIPE. Node ignores SIGPIPE, so that failure arrives as the
 * stream's 'error' event, which, unhandled, crashes the process with a stack trace. Common CLIs
 * end quietly there (SIGPIPE); tailtest does the same: nothing more is written, the command ends
 * (`tailtest watch` after its run in progress, its session flushed, as on SIGTERM) and the bin
 * exits 0. Any other write error stays an error.
 */

/** The part of a stream this needs: `process.stdout`, `process.stderr`, or a test's stand-in. */
export interface OutputStream {
  write(text: string): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  readonly destroyed: boolean;
}

/** Calls `stop` on a stop signal; returns a function that removes the handler. */
export type StopSignals = (stop: () => void) => () => void;

export interface GuardedOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The stop signals, plus the reader going away (for `tailtest watch`). */
  onStopSignal: StopSignals;
  /** True once a reader went away. */
  readonly closed: boolean;
}

function isClosedPipe(error: Error): boolean {
  return (error as NodeJS.ErrnoException).code === "EPIPE";
}

/**
 * Writers for stdout and stderr that turn a closed pipe into the end of the command: `onClosed`
 * is called once, later writes are dropped, and a stop handler registered through `onStopSignal`
 * is called (at once, or when it is registered after the reader went).
 */
export function guardOutput(
  streams: { stdout: OutputStream; stderr: OutputStream },
  signals: StopSignals,
  onClosed: () => void,
): GuardedOutput {
  let closed = false;
  let stopping: (() => void) | undefined;
  const close = () => {
    if (closed) return;
    closed = true;
    onClosed();
    stopping?.();
  };
  const guard = (stream: OutputStream) => {
    stream.on("error", (error) => {
      // After the pipe closed, a write that was already on its way may fail too: same cause.
      if (closed || isClosedPipe(error)) return close();
      throw error;
    });
    return (text: string) => {
      if (!closed && !stream.destroyed) stream.write(text);
    };
  };
  return {
    stdout: guard(streams.stdout),
    stderr: guard(streams.stderr),
    onStopSignal: (stop) => {
      const removeSignals = signals(stop);
      stopping = stop;
      // Gone before the command waited for a signal: stop once the caller holds its remover.
      if (closed) queueMicrotask(stop);
      return () => {
        removeSignals();
        stopping = undefined;
      };
    },
    get closed() {
      return closed;
    },
  };
}

/**
 * A file descriptor (1, 2) as an `OutputStream` that writes with `writeSync` and touches `process.stdout` /
 * `process.stderr` only when it must: building node's stdio stream loads its net, tty and stream
 * modules (~15 M instructions, a sixth of `node -e 0`), which a command that prints one screen
 * never needs. A non-blocking pipe that is full (EAGAIN) hands the rest, and every later write,
 * to the stream, so the order holds; any other failure (EPIPE) goes to the `error` listeners, as
 * the stream would report it.
 */
export function fdStream(fd: number, stream: () => OutputStream): OutputStream {
  let via: OutputStream | undefined;
  const listeners: ((error: Error) => void)[] = [];
  let failed = false;
  const fallBack = (): OutputStream => {
    if (via === undefined) {
      via = stream();
      for (const listener of listeners) via.on("error", listener);
    }
    return via;
  };
  return {
    write(text: string): boolean {
      if (via !== undefined) return via.write(text) !== false;
      const data = Buffer.from(text, "utf8");
      let done = 0;
      while (done < data.length) {
        try {
          done += writeSync(fd, data, done, data.length - done);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "EAGAIN")
            return fallBack().write(data.subarray(done).toString("utf8")) !== false;
          failed = true;
          for (const listener of listeners) listener(error as Error);
          return false;
        }
      }
      return true;
    },
    on(_event: "error", listener: (error: Error) => void) {
      listeners.push(listener);
      via?.on("error", listener);
      return this;
    },
    get destroyed() {
      return failed || (via?.destroyed ?? false);
    },
  };
}

/** SIGINT and SIGTERM, once each: a second Ctrl-C falls back to node's default (exit now). */
export function onProcessSignals(stop: () => void): () => void {
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return () => {
    process.removeListener("SIGINT", stop);
    process.removeListener("SIGTERM", stop);
  };
}
