import { runHookProcess } from "@tailtest/core/node";
import { runHook } from "./run-hook.ts";

await runHookProcess((stdin) => runHook({ stdin, env: process.env, cwd: process.cwd() }), "");
