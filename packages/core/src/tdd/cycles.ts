import * as z from "zod";
import { SkipRedReasonSchema, type GreenEntry, type TddEntry } from "./log.ts";
import { applyTddEntry, initialTddView, type TddView } from "./state.ts";

/**
 * One agent's TDD cycles, for `tailtest report`: each Red (or skip-red Green) that opened a
 * cycle, the failing run that confirmed the Red, the Green, and the passing run that closed it.
 * Derived with the same reducer as the gate (`applyTddEntry`), so a cycle is complete exactly
 * when the machine says so.
 */

export const TddCycleSchema = z.object({
  red: z.object({ test: z.string(), expects: z.string(), at: z.string() }).optional(),
  /** The failing run that moved the cycle to `red`. */
  red_confirmed_at: z.string().optional(),
  green: z
    .object({
      change: z.string(),
      files: z.array(z.string()),
      at: z.string(),
      skip_red: z.optional(SkipRedReasonSchema),
    })
    .optional(),
  /** The passing run that closed it. */
  completed_at: z.string().optional(),
  /** `replaced`: a new declaration (or the end of a subagent's log) came before it closed. */
  outcome: z.enum(["complete", "open", "replaced"]),
});
export type TddCycle = z.infer<typeof TddCycleSchema>;

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
