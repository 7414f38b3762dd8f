/** The module an adapter's build supplies to `adapter-bin.ts` (tsup.config.base.ts `adapterConfig`). */
declare module "tailtest:adapter/program" {
  import type { InstallerIO } from "@tailtest/cli/installer";
  export function runInstaller(argv: readonly string[], io: InstallerIO): Promise<number>;
}
