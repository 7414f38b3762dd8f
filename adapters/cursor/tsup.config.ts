import { defineConfig } from "tsup";
import { adapterConfig } from "../../tsup.config.base.ts";

export default defineConfig(
  adapterConfig({
    // hook.cjs is a small launcher; hook-main.cjs is the bundle it loads when a call needs it,
    // hook-post.cjs and hook-gate.cjs the ones it loads for an edit tool's calls (ADR 0010).
    hook: "src/hook.ts",
    "hook-main": "src/hook-main.ts",
    "hook-post": "src/hook-post.ts",
    "hook-gate": "src/hook-gate.ts",
    cli: "src/cli.ts",
  }),
);
