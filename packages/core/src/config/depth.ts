import * as z from "zod/mini";

export const DepthSchema = z.enum(["simple", "standard", "thorough", "adversarial"]);
export type Depth = z.infer<typeof DepthSchema>;

/**
 * How much testing each depth asks for. `adversarial` ranks highest: it is a different kind of
 * test plan (mostly hostile inputs), so the complexity scorer never replaces it.
 */
const DEPTH_RANK: Readonly<Record<Depth, number>> = {
  simple: 0,
  standard: 1,
  thorough: 2,
  adversarial: 3,
};

export function compareDepth(a: Depth, b: Depth): number {
  return DEPTH_RANK[a] - DEPTH_RANK[b];
}

/** The deeper of the two: the configured depth is never lowered. */
export function maxDepth(a: Depth, b: Depth): Depth {
  return compareDepth(a, b) >= 0 ? a : b;
}
