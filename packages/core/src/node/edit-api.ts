/**
 * What an adapter's post-edit bundle (`hook-post.cjs`) needs of core (`@tailtest/core/node/edit`):
 * follow mode's answer to an edit and what opens a project, without `handleEvent`, which reaches
 * every mode and engine. `hook-api.ts` is this and `handleEvent`. See ADR 0010.
 */
export { answerFollowEdit } from "./follow-edit.ts";
export type { HandleOptions } from "./handle.ts";
export {
  configuredMode,
  CURSOR_SESSION_PATH,
  findProjectRoot,
  openProject,
  type Project,
} from "./project.ts";
export { answerPartSafely, answerSafely, type HookOutput } from "./hook-process.ts";
export { HOOKS_OFF as HOOKS_OFF_ENV } from "./quiet.ts";
export {
  answerHookCall,
  answerHookPart,
  runHook,
  runHookCall,
  type Handler,
  type HookIO,
} from "./hook-call.ts";
