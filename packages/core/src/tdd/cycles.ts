import type { TddCycle } from "../state/session-record.ts";
import type { GreenEntry, TddEntry } from "./tdd-log.ts";
import { applyTddEntry, initialTddView, type TddView } from "./tdd-state.ts";

/**
 * One agent's TDD cycles, for `tailtest report` and the history's session records: each Red (or
 * skip-red Green) that opened a cycle, the failing run that confirmed the Red, the Green, and the
 * passing run that closed it. Derived with the same reducer as the gate (`applyTddEntry`), so a
 * cycle is complete exactly when the machine says so.
 */

export { TddCycleSchema, type TddCycle } from "../state/session-record.ts";

function greenOf(entry: GreenEntry): NonNullable<TddCycle["green"]> {
  return {
    change: entry.change,
    files: [...entry.files],
    at: entry.at,
    ...(entry.skip_red === undefined ? {} : { skip_red: entry.skip_red.reason }),
  };
}

/** Every cycle of one agent's log, oldest first. */
export function listTddCycles(entries: readonly TddEntry[]): TddCycle[] {
  const cycles: TddCycle[] = [];
  let current: TddCycle | undefined;
  const close = (outcome: TddCycle["outcome"]) => {
    if (current !== undefined) cycles.push({ ...current, outcome });
    current = undefined;
  };
  let view: TddView = initialTddView();
  for (const entry of entries) {
    const before = view;
    view = applyTddEntry(view, entry);
    switch (entry.kind) {
      case "red":
        close("replaced");
        current = {
          red: { test: entry.test, expects: entry.expects, at: entry.at },
          outcome: "open",
        };
        break;
      case "green":
        if (view.declaration !== entry) break; // refused by the machine
        if (entry.skip_red !== undefined || current === undefined) {
          close("replaced");
          current = { outcome: "open" };
        }
        current.green = greenOf(entry);
        break;
      case "test":
        if (current === undefined) break;
        if (before.state === "writing_tests" && view.state === "red")
          current.red_confirmed_at = entry.at;
        if (view.cycleComplete && !before.cycleComplete) {
          current.completed_at = entry.at;
          close("complete");
        }
        break;
      case "finished":
        close("replaced");
        break;
      case "edit":
        break;
    }
  }
  close("open");
  return cycles;
}
