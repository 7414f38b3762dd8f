/**
 * The pure part of core an adapter's hook needs, and nothing else (`@tailtest/core/hook`).
 *
 * A hook is a fresh process per call, and a bundle evaluates every module a barrel such as
 * `index.ts` names as soon as anything is imported through it: the strict-mode event schemas,
 * the tdd log, every runner's parser. Importing through this file, the hook evaluates only what
 * it uses (bench/hook-path.mjs; core's test/hook-path.test.ts keeps it so).
 */
export type { Decision, HookEvent } from "../hook/hook-event.ts";
export type { Mode } from "../config/config.ts";
export {
  couldNotDecideReason,
  errorLine,
  gateFailsClosed,
  holdsAfterError,
  notCheckedReason,
} from "../hook/failure-policy.ts";
export {
  noOpinion,
  payloadRecord,
  type CallIdentity,
  type HookAnswer,
  type HookEnv,
  type HookPlatform,
  type HookTranslation,
  type PayloadRecord,
  type Rendered,
} from "../hook/hook-platform.ts";
export {
  checkedInput,
  commandEvent,
  editEvent,
  mcpWriteRequest,
  nonEmptyString,
  patchEdit,
  sessionIdentity,
  shellCommandLine,
  startSource,
  translateHook,
  type Mapped,
  type PayloadMapping,
  type Phase,
} from "../hook/translate-hook.ts";
export { renderJsonAnswer, type JsonProtocol } from "../hook/json-answers.ts";
export { CURSOR_IN_CLAUDE_HOOKS, isCursorPayload } from "../hook/other-agents.ts";
export { lazy } from "../util/lazy.ts";
export { parseJsonObject, type Parsed } from "../install/project-files.ts";
