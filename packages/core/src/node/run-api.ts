/**
 * What `tailtest run` needs of core (`@tailtest/core/node/run`): the plan, the test engine, the
 * selection and the state it writes, without the barrels, which evaluate every mode's modules
 * (strict's checkpoint, the tdd log, the analyses) before the runner starts (ADR 0010).
 */
export { detectProjectRunners, runnerLabel } from "../runners.ts";
export {
  formatId,
  overallStatus,
  renderFailureExcerpt,
  type OverallStatus,
  type RunResult,
} from "../summarize.ts";
export { planRun, planSuites, REPORT_TOKEN, REPORTER_TOKEN, type Plan } from "../plan.ts";
export { isTestFile } from "../filter.ts";
export { SessionStateSchema } from "../session.ts";
export { summariseRunRecord } from "../run-log.ts";
export { chooseTests } from "./choose-tests.ts";
export { executePlan } from "./execute.ts";
export { openProject, sessionFile, SESSION_PATHS, STATE_DIR, toProjectPath } from "./project.ts";
export { readState } from "./store.ts";
export { recordRun } from "./run-log-store.ts";
