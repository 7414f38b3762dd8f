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
} from "./config.ts";
export { compareDepth, DepthSchema, maxDepth, type Depth } from "./depth.ts";
export { ownEntry } from "./lookup.ts";
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
} from "./complexity.ts";
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
} from "./filter.ts";
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
} from "./history.ts";
export {
  baseName,
  detectLanguage,
  EXTENSION_LANGUAGES,
  extensionOf,
  LanguageSchema,
  stemOf,
  type Language,
} from "./languages.ts";
export {
  capText,
  NOTE_CAP,
  renderQueuedNote,
  renderRunnerList,
  renderStartupNote,
  type QueuedNoteInput,
  type StartupNoteInput,
} from "./notes.ts";
export { createMemoryView, dirnameRel, joinRel, type ProjectView } from "./project-view.ts";
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
} from "./runners.ts";
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
} from "./session.ts";
export {
  escapeRegex,
  OutputFormatSchema,
  planRun,
  planSuites,
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
} from "./plan.ts";
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
} from "./results.ts";
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
} from "./summarize.ts";
export { NODE_TEST_REPORTER_SOURCE, parseRunOutput } from "./parsers/index.ts";
export { stripAnsi } from "./parsers/_shared.ts";
export { NO_OPINION, type Decision, type HookEvent } from "./events.ts";
export { parsePatchFiles, patchEffects, type PatchedFile } from "./patch.ts";
export {
  describeSchemaError,
  parsePayload,
  type ParsedPayload,
  type PayloadSchemas,
} from "./payload.ts";
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
} from "./hook-groups.ts";
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
} from "./project-files.ts";
export {
  CLASSIFY_FAILURES,
  renderBudgetSpent,
  renderVerifyBlock,
  type VerifyNoteInput,
} from "./verify-note.ts";
export * from "./turn-summary.ts";
export * from "./tdd/index.ts";
export * from "./strict/index.ts";
export {
  couldNotDecideReason,
  errorLine,
  gateFailsClosed,
  holdsAfterError,
  notCheckedReason,
} from "./failure-policy.ts";
export * from "./doctor.ts";
export * from "./codex-trust.ts";
export * from "./history-view.ts";
export * from "./report.ts";
export { escapeHtml, renderReportHtml } from "./report-html.ts";
export * from "./run-log.ts";
export * from "./status.ts";
export { listTddCycles, TddCycleSchema, type TddCycle } from "./tdd/cycles.ts";
export * from "./text-style.ts";
