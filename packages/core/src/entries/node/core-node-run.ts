/**
 * What `tailtest run` needs of core (`@tailtest/core/node/run`): the plan, the test engine, the
 * selection and the state it writes, without the barrels, which evaluate every mode's modules
 * (strict's checkpoint, the tdd log, the analyses) before the runner starts (ADR 0010).
 */
export { detectProjectRunners, runnerLabel } from "../../runners/project-runners.ts";
export {
  formatId,
  overallStatus,
  renderFailureExcerpt,
  type OverallStatus,
  type RunResult,
} from "../../engine/summarize.ts";
export {
  displayArg,
  planRun,
  planSuites,
  REPORT_TOKEN,
  REPORTER_TOKEN,
  type Plan,
} from "../../engine/plan.ts";
export { isTestFile } from "../../filter/filter.ts";
export { SessionStateSchema } from "../../state/session.ts";
export { summariseRunRecord } from "../../state/run-log.ts";
export { chooseTests } from "../../selection/node/choose-tests.ts";
export { executePlan } from "../../engine/node/execute.ts";
export {
  openProject,
  sessionFile,
  SESSION_PATHS,
  STATE_DIR,
  toProjectPath,
} from "../../project/node/project.ts";
export { readState } from "../../state/node/store.ts";
export { recordRun } from "../../state/node/run-log-store.ts";
