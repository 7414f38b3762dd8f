/**
 * A deadline that does not hold the process open: `fire` runs once `ms` have passed, while the
 * process waits on something (a lock, a child, the disk), unless the returned function disarms it
 * first. Nothing runs if the process finishes sooner.
 *
 * It is an `Atomics.waitAsync` on a cell nobody notifies, not an unref'd `setTimeout`: node's
 * timers are lazily compiled on their first use, which cost every gate ~1.35 M instructions
 * (about 1.5% of `node -e 0`), where the wait costs ~0.13 M (ADR 0010, eighteenth round). Node
 * does not hold the event loop open for a pending wait, as for an unref'd timer; a node that did
 * would still let go of it once disarmed (the notify settles it), and the launcher disarms as its
 * answer goes out. A runtime without `Atomics.waitAsync` gets the unref'd timer.
 *
 * The function uses nothing but globals, so a test can run its source in a process of its own.
 */
export function armDeadline(ms: number, fire: () => void): () => void {
  const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;
  if (typeof waitAsync !== "function") {
    const timer = setTimeout(fire, ms);
    timer.unref();
    return () => clearTimeout(timer);
  }
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let armed = true;
  // At least 1 ms: a wait of 0 answers at once, synchronously, and never fires.
  const wait = waitAsync(cell, 0, 0, Math.max(1, ms));
  if (wait.async)
    void wait.value.then((result) => {
      if (armed && result === "timed-out") {
        armed = false;
        fire();
      }
    });
  return () => {
    if (!armed) return;
    armed = false;
    Atomics.notify(cell, 0);
  };
}

type WaitAsync = (
  cell: Int32Array,
  index: number,
  value: number,
  timeout: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
