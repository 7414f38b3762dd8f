/**
 * The node part of core an adapter's hook needs (`@tailtest/core/node/hook`): the one entry
 * point, the project, the never-throwing answer. Everything else (tdd, strict, the shell parser,
 * the test engine, the sweep) is loaded by `handleEvent` when a call needs it; see
 * `../hook-api.ts` for why a hook never imports core through its index.
 */
export { handleEvent, type HandleOptions } from "./handle.ts";
export {
  configuredMode,
  CURSOR_SESSION_PATH,
  findProjectRoot,
  openProject,
  type Project,
} from "./project.ts";
export { answerSafely, type HookOutput } from "./hook-process.ts";
export { HOOKS_OFF as HOOKS_OFF_ENV } from "./quiet.ts";
