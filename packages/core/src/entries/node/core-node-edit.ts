/**
 * What an adapter's post-edit bundle (`hook-post.cjs`) needs of core (`@tailtest/core/node/edit`):
 * follow mode's answer to an edit and the one hook call (`hook-call.ts`), without `handleEvent`,
 * which reaches every mode and engine. `core-node-hook.ts` is this and `handleEvent`. See ADR 0010.
 */
export { answerFollowEdit } from "../../follow/node/follow-edit.ts";
export type { HandleOptions } from "../../hook/node/handle-event.ts";
export { CURSOR_SESSION_PATH, type Project } from "../../project/node/project.ts";
export type { HookOutput } from "../../hook/node/hook-process.ts";
export {
  answerHookCall,
  answerHookPart,
  runHook,
  runHookCall,
  type Handler,
  type HookIO,
} from "../../hook/node/hook-call.ts";
