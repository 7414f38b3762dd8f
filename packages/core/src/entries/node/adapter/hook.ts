import { join } from "node:path";
import { launchHook } from "../../../hook/node/launcher.ts";
import { LAUNCHER } from "tailtest:adapter/launcher";

/**
 * Every adapter's hook bin, built as CommonJS (`dist/hook.cjs`) with the adapter's launcher facts
 * (tsup.config.base.ts `adapterConfig` supplies `tailtest:adapter/launcher`). It loads only
 * node's own modules first: a call with no opinion for sure (the hooks switched off, a pre-tool
 * call in a follow-mode project) ends here, without evaluating the bundle next to it
 * (`hook-main.cjs`: zod, core, the shell parser). An edit tool's calls are answered by bundles of
 * just that: `hook-post.cjs` in follow mode, `hook-gate.cjs` (the gate before, the record after)
 * in tdd and strict mode; any other call evaluates `hook-main.cjs`, each with its V8 code cache
 * (`hook/node/code-cache.ts`).
 */
void launchHook(LAUNCHER, {
  main: join(__dirname, "hook-main.cjs"),
  post: join(__dirname, "hook-post.cjs"),
  gate: join(__dirname, "hook-gate.cjs"),
});
