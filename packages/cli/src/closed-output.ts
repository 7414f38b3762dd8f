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

/** SIGINT and SIGTERM, once each: a second Ctrl-C falls back to node's default (exit now). */
export function onProcessSignals(stop: () => void): () => void {
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return () => {
    process.removeListener("SIGINT", stop);
    process.removeListener("SIGTERM", stop);
  };
}
