import * as z from "zod/mini";

/**
 * Why a test was selected for a changed file (`selection/related.ts` says how each is found).
 * Its own module: the run log and the report record it without loading the selection.
 */
export const EvidenceSchema = z.enum([
  "self",
  "name",
  "family",
  "imports",
  "imports-via",
  "support",
  "mentions",
  "config",
]);
export type Evidence = z.infer<typeof EvidenceSchema>;
