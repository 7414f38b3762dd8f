export {
  ConfigSchema,
  DEFAULT_CONFIG,
  FileClassesSchema,
  ModeSchema,
  parseConfigText,
  RunnerOverrideSchema,
  validateConfig,
  type Config,
  type ConfigInput,
  type ConfigResult,
  type Mode,
  type RunnerOverride,
} from "./config/config.ts";
export { compareDepth, DepthSchema, maxDepth, type Depth } from "./config/depth.ts";
export { ownEntry } from "./util/own-entry.ts";
export {
  decideDepth,
  depthForScore,
  scenarioCount,
  scoreComplexity,
  stripCommentsAndStrings,
  type ComplexityScore,
  type ComplexitySignal,
  type DepthDecision,
  type ScoreInputs,
} from "./config/complexity.ts";
export {
  buildIgnoreRules,
  classifyFile,
  isSkippedDir,
  isTestFile,
  type FileKind,
  type FileVerdict,
  type SkipKind,
  type FilterContext,
  type IgnoreRules,
} from "./filter/filter.ts";
export {
  countOutcomes,
  describeCounts,
  emptyHistory,
  entryClass,
  HISTORY_VERSION,
  isRegression,
  migrateHistoryV1,
  OUTCOME_CLASSES,
  OUTCOME_LABELS,
  OutcomeClassSchema,
  findRecentRegressions,
  findRecurringFailures,
  HISTORY_CAP,
  HistoryEntrySchema,
  HistoryFileSchema,
  LastFailureSchema,
  OutcomeStatusSchema,
  recordOutcomes,
  renderHistoryLines,
  renderHistorySummary,
  renderLastFailures,
  selectLastFailures,
  type HistoryEntry,
  type HistoryOutcome,
  type OutcomeClass,
  type HistoryFile,
  type LastFailure,
  type OutcomeStatus,
} from "./state/history-state.ts";
export {
  baseName,
  detectLanguage,
  EXTENSION_LANGUAGES,
  extensionOf,
  LanguageSchema,
  stemOf,
  type Language,
} from "./filter/languages.ts";
export {
  capText,
  NOTE_CAP,
  renderQueuedNote,
  renderRunnerList,
  renderStartupNote,
  type QueuedNoteInput,
  type StartupNoteInput,
} from "./notes/notes.ts";
export { createMemoryView, dirnameRel, joinRel, type ProjectView } from "./project/project-view.ts";
export {
  commandForTestFiles,
  describeTestTarget,
  DetectedRunnerSchema,
  detectPackageRunners,
  detectProjectRunners,
  findOwningPackage,
  findTestTarget,
  isPackageDir,
  resolveRunner,
  RunnerIdSchema,
  runnerLabel,
  type DetectedRunner,
  type RunnerId,
  type RunnerResolution,
  type TestTarget,
} from "./runners/project-runners.ts";
export {
  appendScenarioLog,
  buildScenarioEntries,
  createSession,
  FileResultSchema,
  FileFailureSchema,
  type FileFailure,
  makeSessionId,
  markNoticeShown,
  MAX_FIX_ATTEMPTS,
  outcomeStatusOf,
  PendingFileSchema,
  PendingStatusSchema,
  queueFile,
  unqueueFiles,
  recordTouched,
  SCENARIO_LOG_CAP,
  ScenarioEntrySchema,
  SESSION_VERSION,
  SessionStateSchema,
  type FileResult,
  type NewSessionInput,
  type PendingFile,
  type PendingStatus,
  type QueueResult,
  type ScenarioEntry,
  type SessionState,
} from "./state/session.ts";
export {
  escapeRegex,
  OutputFormatSchema,
  planRun,
  planSuites,
  displayArg,
  REPORT_TOKEN,
  REPORTER_TOKEN,
  ReportSourceSchema,
  RunPlanSchema,
  type MissingTest,
  type OutputFormat,
  type Plan,
  type PlanOptions,
  type ReportSource,
  type RunPlan,
  type RunTarget,
  type SkippedTarget,
} from "./engine/plan.ts";
export {
  FailureKindSchema,
  FileErrorSchema,
  TestIdSchema,
  TestResultSchema,
  TestStatusSchema,
  toProjectFile,
  type FailureKind,
  type FileError,
  type ParseContext,
  type ParsedRun,
  type TestId,
  type TestResult,
  type TestStatus,
} from "./engine/results.ts";
export {
  formatId,
  overallStatus,
  renderFailureExcerpt,
  RunResultSchema,
  RunStatusSchema,
  summarizeRun,
  type ExcerptOptions,
  type OverallStatus,
  type ProcessOutcome,
  type RunResult,
  type RunStatus,
} from "./engine/summarize.ts";
export { NODE_TEST_REPORTER_SOURCE, parseRunOutput } from "./engine/parsers/index.ts";
export { stripAnsi } from "./engine/parsers/_shared.ts";
export { NO_OPINION, type Decision, type HookEvent } from "./hook/hook-event.ts";
export { parsePatchFiles, patchEffects, type PatchedFile } from "./hook/apply-patch.ts";
export {
  describeSchemaError,
  parsePayload,
  type ParsedPayload,
  type PayloadSchemas,
} from "./hook/payload.ts";
export {
  addHookEntries,
  checkHookSettings,
  commandFor,
  hasHookChanges,
  type HookCommand,
  type HookChangeSummary,
  HookSettingsSchema,
  HooksSchema,
  isMarkedHandler,
  parseHookSettings,
  removeHookEntries,
  renderHookGroups,
  type Handler,
  type HookRegistration,
  type Hooks,
  type HookSettings,
  type HooksChange,
  type HookSpec,
  type MatcherGroup,
} from "./install/hook-groups.ts";
export {
  addGitignoreEntry,
  addStateIgnore,
  detectIndent,
  GITIGNORE_ENTRY,
  STATE_IGNORE_LINES,
  parseJsonObject,
  renderJson,
  setConfigMode,
  type Parsed,
} from "./install/project-files.ts";
export {
  CLASSIFY_FAILURES,
  renderBudgetSpent,
  renderVerifyBlock,
  type VerifyNoteInput,
} from "./notes/verify-note.ts";
export * from "./engine/turn-summary.ts";
export * from "./tdd/index.ts";
export * from "./strict/index.ts";
export {
  couldNotDecideReason,
  errorLine,
  gateFailsClosed,
  holdsAfterError,
  notCheckedReason,
} from "./hook/failure-policy.ts";
export * from "./install/doctor-checks.ts";
export * from "./install/codex-trust.ts";
export * from "./views/history-view.ts";
export * from "./views/report-data.ts";
export { escapeHtml, renderReportHtml } from "./views/report-html.ts";
export * from "./state/run-log.ts";
export * from "./views/status-view.ts";
export * from "./views/text-style.ts";
