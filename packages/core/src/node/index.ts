export { createFsView, readHead } from "./fs-view.ts";
export {
  gitStatusOf,
  historyFile,
  inspectEdit,
  openProject,
  queueEdit,
  sessionFile,
  STATE_DIR,
  toProjectPath,
  type EditInsight,
  type Project,
  type QueuedEdit,
} from "./project.ts";
export {
  readState,
  updateState,
  writeAtomic,
  type ReadResult,
  type Recovery,
  type StateFile,
  type UpdateResult,
} from "./store.ts";
export {
  endSession,
  flushToHistory,
  startSession,
  type StartedSession,
  type StartOptions,
  type StartSource,
} from "./lifecycle.ts";
export { executePlan, type ExecuteOptions } from "./execute.ts";
export { handleEvent, type HandleOptions } from "./handle.ts";
export { verifyTurn, type Verification, type VerifyOptions } from "./verify.ts";
