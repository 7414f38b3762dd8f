import type { Mode } from "../config/config.ts";

/**
 * How strongly each mode gates an agent's writes: follow not at all, tdd by its cycle, strict by
 * claims verified by tailtest. A config that names a weaker mode than the session's loosens the
 * gate (the mode stays pinned, ADR 0012; the end of the turn says so).
 */
export const GATE_STRENGTH: Readonly<Record<Mode, number>> = { follow: 0, tdd: 1, strict: 2 };

/** Whether going from one mode to another gates less. */
export function loosens(from: Mode, to: Mode): boolean {
  return GATE_STRENGTH[to] < GATE_STRENGTH[from];
}
