import { runHookProcess } from "@tailtest/core/node";
import { runCursorHook } from "./run-hook.ts";
import { NO_OPINION_OUTPUT } from "./translate.ts";

// Cursor counts an empty answer as a failed hook, so even unreadable stdin gets `{}`.
await runHookProcess(
  (stdin) => runCursorHook({ stdin, env: process.env, cwd: process.cwd() }),
  `${NO_OPINION_OUTPUT}\n`,
);
