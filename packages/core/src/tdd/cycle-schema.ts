import * as z from "zod/mini";

/** Why a Green was logged without a failing test first (log.ts re-exports it). */
export const SkipRedReasonSchema = z.enum(["refactoring", "lint-only", "adding-coverage"]);
export type SkipRedReason = z.infer<typeof SkipRedReasonSchema>;

/** One TDD cycle (cycles.ts `listTddCycles`), as the report and the history's session records keep it. */
export const TddCycleSchema = z.object({
  red: z.optional(z.object({ test: z.string(), expects: z.string(), at: z.string() })),
  /** The failing run that moved the cycle to `red`. */
  red_confirmed_at: z.optional(z.string()),
  green: z.optional(
    z.object({
      change: z.string(),
      files: z.array(z.string()),
      at: z.string(),
      skip_red: z.optional(SkipRedReasonSchema),
    }),
  ),
  /** The passing run that closed it. */
  completed_at: z.optional(z.string()),
  /** `replaced`: a new declaration (or the end of a subagent's log) came before it closed. */
  outcome: z.enum(["complete", "open", "replaced"]),
});
export type TddCycle = z.infer<typeof TddCycleSchema>;
