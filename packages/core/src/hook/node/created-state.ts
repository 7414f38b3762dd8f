/**
 * Set on `process` by a call that created or rebuilt a state file (`updateState`,
 * state/node/store.ts): a session's first edit, a project's first gate. Such a call runs what the
 * calls after it do not (the lock and proper-lockfile, the whole state schema, the new state), and
 * V8 deserialises a whole code cache before every later call's first line: a post-edit cache
 * written by a session's first edit was ~45 KB larger, and every queued edit from it ~3 M
 * instructions dearer (ADR 0010). Such a call keeps no code cache (code-cache.ts `keepCache`);
 * the next call of its route writes it.
 *
 * A module of its own, with no imports: the store marks through it without loading the loader.
 */
export const CREATED_STATE_MARK = Symbol.for("tailtest.created-state");

/** Marks this process as one that created or rebuilt a state file. */
export function markCreatedState(): void {
  (process as unknown as Record<symbol, unknown>)[CREATED_STATE_MARK] = true;
}

/** Whether this process created or rebuilt a state file (`markCreatedState`). */
export function createdState(): boolean {
  return (process as unknown as Record<symbol, unknown>)[CREATED_STATE_MARK] === true;
}
