/**
 * A time box for a scan: the work checks `expired()` between steps (a folder listed, a file
 * read) and stops, keeping what it has, once the time is up. The clock is passed in, so a test
 * can run out a box after a set number of steps with no timing involved.
 */
export interface Budget {
  /** The box's length, for the notes that say a scan was cut short. */
  readonly ms: number;
  expired(): boolean;
  /** Milliseconds left (0 when expired), e.g. as a child process's timeout. */
  remaining(): number;
}

export function createBudget(ms: number, clock: () => number): Budget {
  const deadline = clock() + ms;
  return {
    ms,
    expired: () => clock() >= deadline,
    remaining: () => Math.max(0, deadline - clock()),
  };
}

/** A clock that moves `step` per reading: a box of `ms` runs out after `ms / step` checks. */
export function steppingClock(step = 1): () => number {
  let now = 0;
  return () => {
    now += step;
    return now;
  };
}
