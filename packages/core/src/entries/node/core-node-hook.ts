/**
 * The node part of core an adapter's hook needs (`@tailtest/core/node/hook`): the one entry
 * point, the project, the never-throwing answer. Everything else (tdd, strict, the shell parser,
 * the test engine, the sweep) is loaded by `handleEvent` when a call needs it; see
 * `../core-hook.ts` for why a hook never imports core through its index.
 */
export * from "./core-node-edit.ts";
export { handleEvent } from "../../hook/node/handle-event.ts";
