export { createFsView, readHead } from "../../project/node/fs-view.ts";
export {
  CURSOR_SESSION_PATH,
  LEGACY_CURSOR_SESSION_PATH,
  DEFAULT_SESSION_PATH,
  findProjectRoot,
  gitStatusOf,
  historyFile,
  inspectEdit,
  configuredMode,
  sessionModeOf,
  openProject,
  SESSION_PATHS,
  queueEdit,
  sessionFile,
  sessionJournal,
  STATE_DIR,
  toProjectPath,
  type EditInsight,
  type OpenOptions,
  type Project,
  type QueuedEdit,
} from "../../project/node/project.ts";
export {
  appendState,
  readState,
  updateState,
  writeAtomic,
  type ReadResult,
  type Recovery,
  type StateFile,
  type UpdateResult,
} from "../../state/node/store.ts";
export {
  endSession,
  flushToHistory,
  startSession,
  type StartedSession,
  type StartOptions,
  type StartSource,
} from "../../state/node/lifecycle.ts";
export { executePlan, type ExecuteOptions } from "../../engine/node/execute.ts";
export {
  confirmMode,
  CONFIRM_COMMAND,
  pinLine,
  pinOf,
  type Confirmed,
  type ModePin,
} from "../../gating/node/mode-pin.ts";
export { handleEvent, SWEEP_SLACK_MS, type HandleOptions } from "../../hook/node/handle-event.ts";
export {
  findShellWrites,
  listSimpleCommands,
  literalOf,
  parseShell,
  type ShellWrites,
} from "../../shell/node/bash-parser.ts";
export { sweepChangedFiles, type SweepResult } from "../../project/node/mtime-sweep.ts";
export {
  verifyTurn,
  type Verification,
  type VerifyOptions,
} from "../../engine/node/verify-turn.ts";
export { chooseTests, cutToBudget, type ChosenTests } from "../../selection/node/choose-tests.ts";
export {
  selectRelated,
  isSelectable,
  type Selection,
} from "../../selection/node/graph-selection.ts";
export {
  CONFIG_PATH,
  describeHookChange,
  GITIGNORE_PATH,
  missingPackageWarning,
  planProjectFiles,
  stateKeptLines,
  writeJsonHooks,
  readOptional,
  SetupError,
  type ProjectFilesPlan,
  type SetupReport,
} from "../../install/node/setup-io.ts";
export { answerSafely, type HookOutput } from "../../hook/node/hook-process.ts";
export {
  finishSubagent,
  gateCommand,
  recordCommand,
  sweepGate,
  tddSessionNote,
  type FinishedCommand,
} from "../../tdd/node/tdd-hooks.ts";
export { gateWrites, type TddCall } from "../../tdd/node/tdd-gate-call.ts";
export { copyInForce, copyPath } from "../../gating/node/state-copy.ts";
export { setWitness } from "../../gating/node/mode-witness.ts";
export {
  activeTddKey,
  agentKey,
  appendTddEntries,
  CLAUDE_SESSION_ENV,
  declareTddEntry,
  DEFAULT_TDD_KEY,
  eventLineFor,
  EVENTS_PATH,
  readAllowedEdits,
  readEventText,
  readSessionId,
  readTddEntries,
  sanitiseKeyPart,
  TDD_DIR,
  TDD_KEY_ENV,
  tddLogPath,
  type ActiveTddKey,
  type AgentIdentity,
  type Declaration,
  type EventProblem,
  type TddKeySource,
  type TddRead,
} from "../../tdd/node/tdd-store.ts";
// From the launcher's module, so an adapter reading it does not evaluate the plan review.
export { HOOKS_OFF as HOOKS_OFF_ENV, isFollowProject } from "../../hook/node/launcher.ts";
export {
  DEFAULT_PLAN_REVIEW_KEY,
  MAX_REVIEWED_SESSIONS,
  PLAN_REVIEW_PATH,
  PlanReviewStateSchema,
  planReviewFile,
  planReviewKey,
  REVIEW_OUTPUT_CAP,
  reviewPlan,
  TDD_PLAN_CHECKLIST,
  type PlanReviewInput,
  type PlanReviewOptions,
  type PlanReviewState,
} from "../../tdd/node/plan-review.ts";
export {
  appendStrictEvents,
  hashFile,
  OBJECTS_DIR,
  readStrictLog,
  restoreFile,
  snapshotFile,
  withVerifyLock,
} from "../../strict/node/strict-store.ts";
export {
  runnerForTestFile,
  runStrictTests,
  runVerifyCommand,
  type StrictRunOptions,
  type StrictRunResult,
  type TestRunInput,
  type VerifyOutcome,
} from "../../strict/node/strict-run.ts";
export {
  claimTest,
  finishRefactor,
  resolveTest,
  startRefactor,
  type ClaimOutcome,
  type RefactorOutcome,
  type StrictCliContext,
} from "../../strict/node/strict-claim.ts";
export {
  gateStrictCommand,
  recordStrictCommand,
  reviewStrictPlan,
  strictSessionNote,
  verifyStrictTurn,
} from "../../strict/node/strict-hooks.ts";
export {
  gateStrictWrites,
  recordStrictEdits,
  type StrictCall,
} from "../../strict/node/strict-gate-call.ts";
export { groupTddEntries, readActivity, type ProjectActivity } from "../../views/node/activity.ts";
export { recordRun, RUN_LOG_PATH, runLogFile } from "../../state/node/run-log-store.ts";
