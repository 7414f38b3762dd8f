import type { Config } from "../config/config.ts";

/**
 * Which optional analyses (ADR 0009) a call has work for, from the config alone: read by
 * `node/run-analyses.ts`, which loads an analysis only when it is on, and by the post-edit bundle,
 * which leaves an edit to the whole hook when one is.
 */

/** Whether an edit hook has analysis work: impact tracing or API validation is on. */
export function wantsEditAnalysis(config: Config): boolean {
  return config.impact_tracing || config.api_validation;
}

/** Whether a session start has analysis work (ramp-up is judged due by its own state file). */
export function wantsStartAnalysis(config: Config): boolean {
  return config.impact_tracing || config.ramp_up_limit > 0 || config.style_sampling;
}
