/**
 * The modules an adapter's build supplies to the shared hook entries beside this file
 * (tsup.config.base.ts `adapterConfig`): its `src/platform.ts`, and its launcher facts.
 */
declare module "tailtest:adapter/platform" {
  import type { HookPlatform } from "@tailtest/core/hook";
  export const PLATFORM: HookPlatform;
}

declare module "tailtest:adapter/launcher" {
  import type { QuietPlatform } from "@tailtest/core/quiet";
  export const LAUNCHER: QuietPlatform;
}
