/**
 * A sooner stop for a test run whose test files earlier runs timed: a seeded endless loop or a
 * test waiting on a server that never answers should cost the agent a minute, not the whole
 * `test_timeout_seconds` (5 minutes by default). Pure: the run log's reading is the caller's.
 */

/** How many times what the files took before a run may take. */
export const HANG_FACTOR = 10;

/** The least a bounded run is given, whatever the files took before (a cold cache, a busy machine). */
export const HANG_FLOOR_MS = 60_000;

export interface HangBound {
  /** When to stop the test process. */
  afterMs: number;
  /** What the run's test files took together in earlier runs. */
  tookMs: number;
}

/**
 * The bound for a run of `testFiles`, or undefined when any of them has no earlier time (a new
 * test, a whole suite) or the bound would be no sooner than `timeoutMs`.
 */
export function hangBound(
  testFiles: readonly string[],
  earlier: (testFile: string) => number | undefined,
  timeoutMs: number,
  floorMs = HANG_FLOOR_MS,
): HangBound | undefined {
  if (testFiles.length === 0) return undefined;
  let tookMs = 0;
  for (const file of testFiles) {
    const took = earlier(file);
    if (took === undefined) return undefined;
    tookMs += took;
  }
  const afterMs = Math.max(floorMs, Math.ceil(tookMs * HANG_FACTOR));
  return afterMs < timeoutMs ? { afterMs, tookMs } : undefined;
}

/** How a run stopped by its bound is told, after "<runner> was stopped". */
export function hangReason(bound: HangBound): string {
  return `after ${seconds(bound.afterMs)}, over ${HANG_FACTOR}× what its test files took in earlier runs (${seconds(bound.tookMs)})`;
}

/**
 * When, in seconds, a run stopped at `timeoutMs` asks its runner to say where a test hangs: five
 * seconds before the stop, or half-way to it when that is sooner (a short bound must still leave
 * the dump its time to print). Tenths of a second: pytest's `faulthandler_timeout` is a float.
 */
export function hangDumpAfterS(timeoutMs: number): number {
  const limit = timeoutMs / 1000;
  return Math.round((limit - Math.min(5, limit / 2)) * 10) / 10;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
